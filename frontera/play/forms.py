"""Forms of the table: they only parse and validate input; the services decide the rules."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.models import GameSession
from frontera.rules import characters as rules_characters
from frontera.rules.cards import TRAITS

TRAIT_CHOICES = [(t, rules_characters.TRAIT_NAMES[t]) for t in TRAITS]
SKILL_CHOICES = [("", _("no skill"))] + [
    (s.key, f"{s.name} ({rules_characters.TRAIT_NAMES[s.trait]})") for s in rules_characters.SKILLS.values()
]
SUIT_CHOICES = [("", _("—")), ("S", "♠"), ("H", "♥"), ("C", "♣"), ("D", "♦")]
JOIN_CHOICES = [("new_deck", _("a new deck: 8 random cards of it")), ("from_players", _("cards from every other deck"))]


class SessionStartForm(forms.Form):
    mode = forms.ChoiceField(label=_("Mode"), choices=GameSession.Mode.choices, initial=GameSession.Mode.NORMAL)
    characters = forms.MultipleChoiceField(label=_("Protagonists present"), widget=forms.CheckboxSelectMultiple,
                                           required=False)
    decks = forms.IntegerField(label=_("Decks"), min_value=1, max_value=8, required=False,
                               help_text=_("Empty: one deck per 4 players, the Mayor included."))
    jokers = forms.IntegerField(label=_("Jokers per deck"), min_value=0, max_value=2, initial=2)
    skip_phase_1 = forms.BooleanField(label=_("Skip phase 1 (deal every card now)"), required=False)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(str(c.pk), c.name) for c in characters]
        self.fields["characters"].initial = [str(c.pk) for c in characters]


def new_request_key() -> str:
    """A fresh idempotency key for one submission of a form."""
    return uuid.uuid4().hex


_request_key = new_request_key


class CheckRequestForm(forms.Form):
    characters = forms.MultipleChoiceField(label=_("Characters"), widget=forms.CheckboxSelectMultiple)
    trait = forms.ChoiceField(label=_("Trait"), choices=TRAIT_CHOICES)
    skill = forms.ChoiceField(label=_("Skill"), choices=SKILL_CHOICES, required=False)
    difficulty = forms.IntegerField(label=_("Difficulty"), min_value=2, max_value=15, required=False,
                                    help_text=_("Optional: the lowest card value that succeeds."))
    modifier = forms.IntegerField(label=_("Extra cards (±)"), min_value=-10, max_value=10, initial=0, required=False)
    label = forms.CharField(label=_("What for"), max_length=120, required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(str(pk), name) for pk, name in characters]


OPPOSED_SLOTS = 4


class OpposedRequestForm(forms.Form):
    label = forms.CharField(label=_("What for"), max_length=120, required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("—"))] + [(str(pk), name) for pk, name in characters]
        for i in range(1, OPPOSED_SLOTS + 1):
            self.fields[f"character_{i}"] = forms.ChoiceField(label=_("Participant %(n)s") % {"n": i},
                                                              choices=choices, required=False)
            self.fields[f"trait_{i}"] = forms.ChoiceField(label=_("Trait"), choices=TRAIT_CHOICES)
            self.fields[f"skill_{i}"] = forms.ChoiceField(label=_("Skill"), choices=SKILL_CHOICES, required=False)
            self.fields[f"modifier_{i}"] = forms.IntegerField(label=_("Extra cards (±)"), min_value=-10,
                                                              max_value=10, initial=0, required=False)

    def slots(self):
        """The rows as bound fields, for the template."""
        return [
            [self[f"character_{i}"], self[f"trait_{i}"], self[f"skill_{i}"], self[f"modifier_{i}"]]
            for i in range(1, OPPOSED_SLOTS + 1)
        ]

    def entries(self) -> list[tuple[str, str, str, int]]:
        data = self.cleaned_data
        return [
            (data[f"character_{i}"], data[f"trait_{i}"], data[f"skill_{i}"] or "", data[f"modifier_{i}"] or 0)
            for i in range(1, OPPOSED_SLOTS + 1)
            if data.get(f"character_{i}")
        ]


class ChooseForm(forms.Form):
    card = forms.CharField(max_length=10)
    suit = forms.ChoiceField(choices=SUIT_CHOICES, required=False)


class JoinForm(forms.Form):
    character = forms.ChoiceField(label=_("Protagonist"))
    method = forms.ChoiceField(label=_("Cards"), choices=JOIN_CHOICES, widget=forms.RadioSelect, initial="new_deck")
    per_player = forms.IntegerField(label=_("Cards from each other deck"), min_value=1, max_value=3, initial=1)
    return_to_phase_1 = forms.BooleanField(label=_("Return to phase 1 (new deck in phase 2)"), required=False)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(c.pk), c.name) for c in characters]


ACTION_CHOICES = [
    ("health", _("Salud: lose or recover levels")),
    ("morale", _("Moral: lose or recover levels")),
    ("sobriety", _("Sobriedad: lose or recover levels")),
    ("threat", _("Threat (FR-MOR-3)")),
    ("drink", _("One more drink (FR-SOB-3)")),
    ("fall", _("Fall (FR-HLT-4)")),
    ("train", _("Run over by a train")),
    ("coach", _("Run over by a coach")),
    ("horse", _("Run over by a horse")),
    ("dmh1", _("Dead man's hand, 1 card (FR-CHK-6)")),
    ("dmh2", _("Dead man's hand, 2 cards, keep the better")),
    ("death", _("Death roll of a Muerto character (FR-HLT-3)")),
    ("rest", _("Rest (Con desgaste, FR-MODE-11)")),
]
AGILITY_CHOICES = [("", _("no Agilidad check")), ("success", _("Éxito")), ("partial", _("Éxito parcial")),
                   ("failure", _("Fracaso"))]


class TableActionForm(forms.Form):
    character = forms.ChoiceField(label=_("Character"))
    action = forms.ChoiceField(label=_("What happens"), choices=ACTION_CHOICES)
    amount = forms.IntegerField(label=_("Levels (−lose / +recover)"), min_value=-4, max_value=4, initial=-1,
                                required=False)
    metres = forms.IntegerField(label=_("Metres fallen"), min_value=0, max_value=500, required=False)
    agility = forms.ChoiceField(label=_("Músculo (Agilidad) result"), choices=AGILITY_CHOICES, required=False)
    hours = forms.IntegerField(label=_("Hours of rest"), min_value=0, max_value=24, required=False)
    note = forms.CharField(label=_("Why (for the feed)"), max_length=120, required=False)
    # the death roll's double submit is one draw (FR-HLT-3, like DeathRollForm); a fresh key comes
    # after every successful call (views.CALL_FORMS), so hidden
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40, required=False)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(pk), name) for pk, name in characters]


TECHNIQUE_CHOICES = [
    ("pelea", "Pelea"), ("melee", _("melee weapon")), ("thrown", _("thrown weapon")),
    ("disparo_rapido", "Disparo rápido"), ("apuntar", "Apuntar"), ("move", _("only move")),
    ("medical", _("medical attention (the whole turn)")), ("other", _("another action (no attack)")),
]
BAND_CHOICES = [("adyacente", "Adyacente"), ("corto", "Corto"), ("medio", "Medio"), ("largo", "Largo")]
SPECIAL_CHOICES = [("", _("—")), ("apresar", "Apresar"), ("asustar", "Asustar")]
COVER_CHOICES = [("exposed", _("exposed")), ("partial", _("partial cover")), ("total", _("total cover"))]


class CombatStartForm(forms.Form):
    side_a = forms.MultipleChoiceField(label=_("One side"), widget=forms.CheckboxSelectMultiple)
    side_b = forms.MultipleChoiceField(label=_("The other side"), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("side_a", "side_b"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]


MOUNT_CHOICES = [("none", _("on foot")), ("walk", _("mount at a walk")), ("trot", _("mount at a trot")),
                 ("gallop", _("mount at a gallop"))]


class DeclareForm(forms.Form):
    """A fighter's declaration (FR-CMB-1..4, -6, -9..-11, -13, -14, FR-CHK-5): each target with its
    own range band (``targets`` + ``band_<id>``; ``target`` + ``band`` is the one-target shorthand)."""

    technique = forms.ChoiceField(label=_("Technique"), choices=TECHNIQUE_CHOICES)
    weapon = forms.CharField(label=_("Weapon"), max_length=40, required=False)
    target = forms.IntegerField(label=_("Target"), required=False)
    targets = forms.MultipleChoiceField(label=_("Targets"), required=False)
    band = forms.ChoiceField(label=_("Range"), choices=BAND_CHOICES, required=False)
    special = forms.ChoiceField(label=_("Special"), choices=SPECIAL_CHOICES, required=False)
    patient = forms.IntegerField(label=_("Patient"), required=False)
    cover = forms.ChoiceField(label=_("Cover now"), required=False, choices=[("", _("as now"))] + COVER_CHOICES)
    mount = forms.ChoiceField(label=_("Mount"), required=False, choices=[("", _("as now"))] + MOUNT_CHOICES)
    holstered = forms.BooleanField(label=_("Weapons holstered at the start of the turn"), required=False)
    move_band = forms.ChoiceField(label=_("Move"), required=False, choices=[
        ("", _("stay")), ("adyacente", _("up to 3 m (Adyacente)")), ("corto", _("up to 10 m (Corto), only moving"))])
    move_cover = forms.ChoiceField(label=_("Cover at the end of the turn"), required=False,
                                   choices=[("", _("as now"))] + COVER_CHOICES)

    def __init__(self, *args, fighters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fighter_ids = [int(pk) for pk, _name in fighters]
        self.fields["targets"].choices = [(str(pk), name) for pk, name in fighters]
        for pk, name in fighters:
            self.fields[f"band_{pk}"] = forms.ChoiceField(label=_("Range to %(name)s") % {"name": name},
                                                          choices=BAND_CHOICES, required=False)

    def clean(self):
        data = super().clean()
        technique = data.get("technique")
        if technique == "medical" and data.get("patient") not in self.fighter_ids:
            raise forms.ValidationError(_("Choose whom the medical attention is for."), code="patient")
        if technique and technique not in ("move", "other", "medical") and not self.aims():
            raise forms.ValidationError(_("Choose a target."), code="target")
        return data

    def aims(self) -> list[tuple[int, str]]:
        """Each chosen target (a fighter's id) with its own range band."""
        data = self.cleaned_data
        chosen = [data["target"]] if data.get("target") else []
        chosen += [int(x) for x in data.get("targets") or []]
        return [(pk, data.get(f"band_{pk}") or data.get("band") or "adyacente")
                for pk in dict.fromkeys(chosen) if pk in self.fighter_ids]


class DeathRollForm(forms.Form):
    character = forms.IntegerField()
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)


class CombatChooseForm(forms.Form):
    cards = forms.MultipleChoiceField(required=False)
    suit = forms.ChoiceField(choices=SUIT_CHOICES, required=False)

    def __init__(self, *args, hand=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["cards"].choices = [(uid, uid) for uid in hand]


EXCHANGE_CHOICES = [
    ("bet", _("Apuesta: the first won (chooses a card to keep, then one to give)")),
    ("bet_tie", _("Apuesta in Tablas: one random card each way")),
    ("cheat", _("Trampa: the first caught the second cheating (takes one, gives none)")),
    ("duel", _("Duelo: the first won (takes up to 2, gives as many)")),
    ("duel_tie", _("Duelo in Tablas: two random cards each way")),
    ("death", _("Death: the first leaves the game, their cards go to the Tesoro")),
]


class ExchangeStartForm(forms.Form):
    kind = forms.ChoiceField(label=_("Exchange"), choices=EXCHANGE_CHOICES)
    first = forms.ChoiceField(label=_("First (winner, keeper, the one who leaves)"))
    second = forms.ChoiceField(label=_("Second (loser, cheat, the other sharer)"), required=False)
    count = forms.IntegerField(label=_("Treasure cards"), min_value=1, max_value=5, initial=1, required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = [(str(pk), name) for pk, name in characters]
        self.fields["second"].choices = [("", _("—"))] + [(str(pk), name) for pk, name in characters]


class TreasureShareStartForm(forms.Form):
    """The Mayor says who shares a treasure (FR-EXCH-6); the sharers decide the rest on their phones."""

    sharers = forms.MultipleChoiceField(label=_("Who shares it"), widget=forms.CheckboxSelectMultiple)
    count = forms.IntegerField(label=_("Tesoro cards to share"), min_value=1, max_value=5, initial=1)
    swaps = forms.IntegerField(label=_("Cards each of the others may swap"), min_value=0, max_value=5, initial=1)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["sharers"].choices = [(str(pk), name) for pk, name in characters]


class TreasureShareForm(forms.Form):
    """A sharer (or the Mayor for them) names the keepers, or swaps a card, or lets the swap go."""

    action = forms.ChoiceField(choices=[("keeper", "keeper"), ("swap", "swap")])
    character = forms.ChoiceField()
    keeper = forms.MultipleChoiceField(required=False)
    partner = forms.ChoiceField(required=False)
    request_key = forms.CharField(required=False, max_length=40)

    def __init__(self, *args, sharers=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(pk), name) for pk, name in sharers]
        self.fields["character"].choices = choices
        self.fields["keeper"].choices = choices
        self.fields["partner"].choices = [("", "—"), *choices]


class ExchangeChooseForm(forms.Form):
    step = forms.CharField(max_length=10)
    picks = forms.MultipleChoiceField(required=False)

    def __init__(self, *args, offered=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["picks"].choices = [(value, value) for value in offered]


GAMBLE_CHOICES = [
    ("banca", _("La banca siempre gana: one character against the house")),
    ("azar", _("Azar: characters against each other")),
    ("habilidad", _("Habilidad: a contest of skill")),
    ("duelo_bebida", _("Duelo de bebida: drink until one falls into a coma")),
]
CONTEST_CHOICES = [("", _("—")), ("dardos", _("darts")), ("lanzamiento_cuchillos", _("knife throwing")),
                   ("pulso", _("arm wrestling")), ("carrera", _("a race")), ("ajedrez", _("chess")),
                   ("damas", _("checkers")), ("tiro_al_blanco", _("target shooting")),
                   ("tiro_al_plato", _("clay pigeons"))]


class GambleForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"), choices=GAMBLE_CHOICES)
    characters = forms.MultipleChoiceField(label=_("Who plays"), widget=forms.CheckboxSelectMultiple)
    cheats = forms.MultipleChoiceField(label=_("Who cheats (Manos (Maña) instead)"), widget=forms.CheckboxSelectMultiple,
                                       required=False)
    contest = forms.ChoiceField(label=_("Contest (habilidad)"), choices=CONTEST_CHOICES, required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("characters", "cheats"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]


class MedicalForm(forms.Form):
    healer = forms.ChoiceField(label=_("Healer"))
    patient = forms.ChoiceField(label=_("Patient"))
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("healer", "patient"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]


class PistolDuelForm(forms.Form):
    """The Mayor calls a pistol duel (FR-CMB-15): two duellists, each with the ranged weapon they use."""

    first = forms.ChoiceField(label=_("First duellist"))
    first_weapon = forms.ChoiceField(label=_("First duellist's weapon"))
    second = forms.ChoiceField(label=_("Second duellist"))
    second_weapon = forms.ChoiceField(label=_("Second duellist's weapon"))
    request_key = forms.CharField(widget=forms.HiddenInput, initial=_request_key, max_length=40)

    def __init__(self, *args, characters=(), weapons=(), **kwargs):
        kwargs.setdefault("auto_id", "duel_%s")
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]
            self.fields[f"{name}_weapon"].choices = [(key, label) for key, label in weapons]
        if len(characters) > 1:
            self.fields["second"].initial = str(characters[1][0])
