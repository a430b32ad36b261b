"""Forms of the characters app. They parse input and ask the rules engine to judge it: every rule
message comes from :mod:`frontera.rules.characters` (FR-CHAR-3), translated."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera import glossary
from frontera.characters.models import CatalogueItem, Character
from frontera.characters.services import rules_message
from frontera.rules import characters as rules
from frontera.rules import tracks
from frontera.rules.cards import TRAITS
from frontera.rules.errors import RulesError

E_CHOOSE_PLAYER = _("Choose who will play this character.")
E_CHOOSE_EXTRA = _("Choose one more skill, from any group.")

_GROUP_BY_NAME = {name: key for key, name in rules.GROUP_NAMES.items()}
_TRAIT_BY_NAME = {name: key for key, name in rules.TRAIT_NAMES.items()}
SKILL_CHOICES = glossary.choices("skill", list(rules.SKILLS))
WEAPON_CHOICES = [("revolver", _("A revolver")), ("cuchillos", _("10 knives"))]


def _int_field(label, **kwargs) -> forms.IntegerField:
    attrs = {"inputmode": "numeric"}
    attrs.update(kwargs.pop("attrs", {}))
    return forms.IntegerField(label=label, required=False, widget=forms.NumberInput(attrs=attrs), **kwargs)


class WhoForm(forms.Form):
    """Step 1: who the character is, and (for the Mayor) who plays it."""

    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    description = forms.CharField(label=_("Description"), required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    player = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args, players=None, mayor=None, **kwargs):
        super().__init__(*args, **kwargs)
        if players is None:
            del self.fields["player"]
        else:
            choices = [("", _("Choose…"))]
            choices += [(u.pk, u.get_username()) for u in players if u.pk != getattr(mayor, "pk", None)]
            if mayor is not None:
                choices.append((mayor.pk, _("Nobody: an NPC of the Mayor")))
            self.fields["player"].choices = choices

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(rules_message(RulesError(rules.E_NO_NAME)))
        return name

    def clean_player(self):
        player = self.cleaned_data.get("player")
        if player is None:
            raise forms.ValidationError(E_CHOOSE_PLAYER)
        return player


class SkillsForm(forms.Form):
    """Step 2: one skill from each group (FR-CHAR-2, FR-CHAR-3)."""

    armas = forms.ChoiceField(label=glossary.lazy("group", "armas"), choices=SKILL_CHOICES, required=False,
                              widget=forms.RadioSelect)
    mecanicas = forms.ChoiceField(label=glossary.lazy("group", "mecanicas"), choices=SKILL_CHOICES, required=False,
                                  widget=forms.RadioSelect)
    exploracion = forms.ChoiceField(label=glossary.lazy("group", "exploracion"), choices=SKILL_CHOICES,
                                    required=False, widget=forms.RadioSelect)

    def clean(self):
        data = super().clean()
        chosen = [data[group] for group in rules.GROUPS if data.get(group)]
        try:
            data["skills"] = rules.validate_skills_step(chosen)
        except RulesError as err:
            group = _GROUP_BY_NAME.get(err.params.get("group"))
            self.add_error(group if group in self.fields else None, rules_message(err))
            if err.template == rules.E_GROUP_MISSING:  # every group still empty at once, not one per submit
                for other in rules.GROUPS:
                    if other != group and other in self.fields and not data.get(other):
                        missing = RulesError(rules.E_GROUP_MISSING, group=rules.GROUP_NAMES[other])
                        self.add_error(other, rules_message(missing))
        return data


class TraitsForm(forms.Form):
    """Step 3: 8 points over the four traits, each starting at 1 (FR-CHAR-1, FR-CHAR-3)."""

    manos = _int_field(glossary.lazy("trait", "manos"), attrs={"min": 0, "max": rules.TRAIT_POINTS})
    sentidos = _int_field(glossary.lazy("trait", "sentidos"), attrs={"min": 0, "max": rules.TRAIT_POINTS})
    musculo = _int_field(glossary.lazy("trait", "musculo"), attrs={"min": 0, "max": rules.TRAIT_POINTS})
    cabeza = _int_field(glossary.lazy("trait", "cabeza"), attrs={"min": 0, "max": rules.TRAIT_POINTS})

    def clean(self):
        data = super().clean()
        if any(trait in self.errors for trait in TRAITS):
            return data
        points = {trait: data.get(trait) or 0 for trait in TRAITS}
        data["points"] = points
        try:
            data["scores"] = rules.validate_traits_step(points)
        except RulesError as err:
            trait = _TRAIT_BY_NAME.get(err.params.get("trait"))
            self.add_error(trait if trait in self.fields else None, rules_message(err))
        return data


class ExtraSkillForm(forms.Form):
    """Step 4: one more skill from any group, not one already held (FR-CHAR-3)."""

    extra = forms.ChoiceField(label=_("One more skill"), choices=SKILL_CHOICES, required=False,
                              widget=forms.RadioSelect)

    def __init__(self, *args, held=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.held = tuple(held)

    def clean_extra(self):
        extra = self.cleaned_data.get("extra")
        if not extra:
            raise forms.ValidationError(E_CHOOSE_EXTRA)
        try:
            rules.validate_extra_skill_step(self.held, extra)
        except RulesError as err:
            raise forms.ValidationError(rules_message(err)) from err
        return extra


class EquipmentForm(forms.Form):
    """Step 5: a horse, a revolver or 10 knives, and at most $50 of the shop (FR-CHAR-3, FR-CHAR-5)."""

    weapon = forms.CharField(label=_("Starting weapon"), required=False,
                             widget=forms.RadioSelect(choices=WEAPON_CHOICES))

    def __init__(self, *args, items=(), catalogue=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.items = list(items)
        self.catalogue = catalogue  # the campaign's, for the engine; None = the built-in one
        for item in self.items:
            self.fields[f"qty_{item.key}"] = _int_field(item.display_name, attrs={"min": 0, "max": 99})

    def purchases(self) -> dict[str, int]:
        data = getattr(self, "cleaned_data", {})
        return {item.key: data.get(f"qty_{item.key}") for item in self.items if data.get(f"qty_{item.key}")}

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        purchases = self.purchases()
        data["purchases"] = purchases
        try:
            data["equipment"], data["money"] = rules.validate_equipment_step(data.get("weapon") or "", purchases,
                                                                             catalogue=self.catalogue)
        except RulesError as err:
            self.add_error("weapon" if err.template == rules.E_BAD_WEAPON_CHOICE else None, rules_message(err))
        return data


# ---------------------------------------------------------------------------------------------
# The Mayor's forms and the player's notes
# ---------------------------------------------------------------------------------------------


class NotesForm(forms.Form):
    """What a player may edit on their own sheet."""

    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3}))
    money = forms.IntegerField(label=_("Money ($)"), widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    notes = forms.CharField(label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 5}))


LEVEL_CHOICES = {
    track: [(level, glossary.lazy("level", name)) for level, name in sorted(names.items(), reverse=True)]
    for track, names in ((tracks.HEALTH, tracks.HEALTH_NAMES), (tracks.MORALE, tracks.MORALE_NAMES),
                         (tracks.SOBRIETY, tracks.SOBRIETY_NAMES))
}


class SheetForm(forms.Form):
    """The Mayor's whole-sheet form (and the NPC/minion short form, with ``kind``) (FR-CHAR-6)."""

    kind = forms.ChoiceField(label=_("Kind"), choices=[(Character.Kind.NPC, _("NPC")),
                                                       (Character.Kind.MINION, _("Minion"))])
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    manos = _int_field(glossary.lazy("trait", "manos"))
    sentidos = _int_field(glossary.lazy("trait", "sentidos"))
    musculo = _int_field(glossary.lazy("trait", "musculo"))
    cabeza = _int_field(glossary.lazy("trait", "cabeza"))
    cards_per_check = _int_field(_("Cards per check (minion)"))
    flat_aguante = _int_field(_("Aguante (minion)"))
    flat_confianza = _int_field(_("Confianza (minion, optional)"))
    skills = forms.MultipleChoiceField(label=_("Skills"), choices=SKILL_CHOICES, required=False,
                                       widget=forms.CheckboxSelectMultiple)
    money = forms.IntegerField(label=_("Money ($)"), initial=0, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    health = forms.TypedChoiceField(label=_("Health"), coerce=int, choices=LEVEL_CHOICES[tracks.HEALTH], initial=0)
    morale = forms.TypedChoiceField(label=_("Morale"), coerce=int, choices=LEVEL_CHOICES[tracks.MORALE], initial=0)
    sobriety = forms.TypedChoiceField(label=_("Sobriety"), coerce=int, choices=LEVEL_CHOICES[tracks.SOBRIETY],
                                      initial=0)
    notes = forms.CharField(label=_("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, items=(), creating=False, kind=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.items = list(items)
        if kind is not None and kind != Character.Kind.MINION:  # flat numbers are for minions only
            for name in ("cards_per_check", "flat_aguante", "flat_confianza"):
                del self.fields[name]
        for item in self.items:
            self.fields[f"qty_{item.key}"] = _int_field(item.display_name, attrs={"min": 0, "max": 99})
        if creating:
            for name in ("health", "morale", "sobriety", "notes"):
                del self.fields[name]
        else:
            del self.fields["kind"]

    def _bound(self, names) -> list:
        return [self[name] for name in names if name in self.fields]

    def basic_fields(self) -> list:
        return self._bound(("kind", "name", "description"))

    def trait_fields(self) -> list:
        return self._bound(TRAITS)

    def flat_fields(self) -> list:
        return self._bound(("cards_per_check", "flat_aguante", "flat_confianza"))

    def track_fields(self) -> list:
        return self._bound(("health", "morale", "sobriety"))

    def equipment_fields(self) -> list:
        return self._bound(f"qty_{item.key}" for item in self.items)

    def traits(self) -> dict[str, int] | None:
        """The traits, or ``None`` when none was given (a flat minion)."""
        values = {trait: self.cleaned_data.get(trait) for trait in TRAITS}
        if all(value is None for value in values.values()):
            return None
        return values

    def equipment(self) -> dict[str, int]:
        return {item.key: self.cleaned_data.get(f"qty_{item.key}") for item in self.items
                if self.cleaned_data.get(f"qty_{item.key}")}


E_BONUS_WITHOUT_CHECK = _("Choose the skill or action the bonus cards are for.")
BONUS_CHOICES = [("", _("No bonus")), *SKILL_CHOICES, ("atencion_medica", _("Medical attention"))]
BAND_FIELDS = tuple((band, f"range_{band}") for band in rules.BANDS)


def _modifier_field(label) -> forms.IntegerField:
    # no inputmode="numeric": phones would hide the minus sign a penalty needs
    return forms.IntegerField(label=label, required=False,
                              widget=forms.NumberInput(attrs={"class": "band-input", "step": 1}))


class CatalogueItemForm(forms.Form):
    """The Mayor's form for one catalogue entry (FR-CHAR-5): it parses; the rules engine judges the
    figures in :func:`~frontera.characters.services.catalogue_item_update`. A blank band means the
    weapon cannot be used there; a blank bonus means none."""

    # Each language's text is marked with its language (lang): a screen reader reads it right.
    name = forms.CharField(label=_("Name in Spanish"), max_length=80, widget=forms.TextInput(attrs={"lang": "es"}))
    name_en = forms.CharField(label=_("Name in English"), max_length=80, required=False,
                              widget=forms.TextInput(attrs={"lang": "en"}))
    price = forms.IntegerField(label=_("Price ($)"), widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    damage = forms.IntegerField(label=_("Damage"), widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    range_adyacente = _modifier_field(glossary.lazy("band", "adyacente"))
    range_corto = _modifier_field(glossary.lazy("band", "corto"))
    range_medio = _modifier_field(glossary.lazy("band", "medio"))
    range_largo = _modifier_field(glossary.lazy("band", "largo"))
    bonus_check = forms.ChoiceField(label=_("Bonus cards to"), choices=BONUS_CHOICES, required=False)
    bonus_cards = _int_field(_("Bonus cards"))
    notes = forms.CharField(label=_("Notes in Spanish"), required=False,
                            widget=forms.Textarea(attrs={"rows": 2, "lang": "es"}))
    notes_en = forms.CharField(label=_("Notes in English"), required=False,
                               widget=forms.Textarea(attrs={"rows": 2, "lang": "en"}))
    in_shop = forms.BooleanField(label=_("sold at creation"), required=False)

    def __init__(self, *args, item: CatalogueItem, **kwargs):
        bonus_check, bonus_cards = next(iter((item.bonus or {}).items()), ("", None))
        initial = {"name": item.name, "name_en": item.name_en, "price": item.price, "damage": item.damage,
                   "notes": item.notes, "notes_en": item.notes_en,
                   "in_shop": item.in_shop, "bonus_check": bonus_check, "bonus_cards": bonus_cards}
        initial.update({name: getattr(item, name) for _band, name in BAND_FIELDS})
        super().__init__(*args, initial=initial, **kwargs)
        self.item = item
        self.is_weapon = item.category == CatalogueItem.Category.WEAPON
        if not self.is_weapon:
            for name in ("damage", *(name for _band, name in BAND_FIELDS)):
                del self.fields[name]

    def clean(self):
        data = super().clean()
        if data.get("bonus_cards") is not None and not data.get("bonus_check"):
            self.add_error("bonus_check", E_BONUS_WITHOUT_CHECK)
        return data

    def figures(self) -> dict:
        """What :func:`~frontera.characters.services.catalogue_item_update` takes as ``figures``."""
        data = self.cleaned_data
        check = data.get("bonus_check")
        figures = {"price": data.get("price"), "bonus": {check: data.get("bonus_cards") or 0} if check else {}}
        if self.is_weapon:
            figures["damage"] = data.get("damage")
            figures["range"] = {band: data.get(name) for band, name in BAND_FIELDS}
        return figures

    def top_fields(self) -> list:
        return [self["name"], self["name_en"], self["price"]] + ([self["damage"]] if self.is_weapon else [])

    def band_fields(self) -> list:
        return [self[name] for _band, name in BAND_FIELDS] if self.is_weapon else []

    def bonus_fields(self) -> list:
        return [self["bonus_check"], self["bonus_cards"]]
