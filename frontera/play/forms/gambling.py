"""Gambling nights: a banca, an azar or habilidad contest, a drinking duel."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import CheckboxesSomeDisabled, new_request_key

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


E_CHEAT_NOT_PLAYING = _("Only a player may cheat: %(names)s does not play.")
E_CHEATS_NOT_PLAYING = _("Only a player may cheat: %(names)s do not play.")


class GambleForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"), choices=GAMBLE_CHOICES)
    characters = forms.MultipleChoiceField(label=_("Who plays"), widget=CheckboxesSomeDisabled)
    cheats = forms.MultipleChoiceField(label=_("Who cheats (Manos (Maña) instead)"), widget=CheckboxesSomeDisabled,
                                       required=False)
    contest = forms.ChoiceField(label=_("Contest (habilidad)"), choices=CONTEST_CHOICES, required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("characters", "cheats"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]

    def clean(self):
        """A cheat ticked who does not play is refused by name (a walk's game started as an honest
        one, the tick dropped without a word)."""
        data = super().clean()
        if "characters" not in data:  # who plays was refused already: nothing to compare with
            return data
        outside = [pk for pk in data.get("cheats", ()) if pk not in set(data["characters"])]
        if outside:
            names = dict(self.fields["cheats"].choices)
            said = E_CHEAT_NOT_PLAYING if len(outside) == 1 else E_CHEATS_NOT_PLAYING
            raise forms.ValidationError(said % {"names": ", ".join(str(names[pk]) for pk in outside)})
        return data
