"""Starting a fight, a fighter's declaration, the death roll and the cards a fighter locks in."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera import glossary
from frontera.play.forms.checks import posted_ids
from frontera.play.forms.common import SUIT_CHOICES, new_request_key

# (the declaration's options are written out in templates/play/_declare_form.html; these validate them)
TECHNIQUE_CHOICES = [
    *glossary.choices("technique", ["pelea", "melee", "thrown", "disparo_rapido", "apuntar"]),
    ("move", _("only move")), ("medical", _("medical attention (the whole turn)")),
    ("other", _("another action (no attack)")),
]
BAND_CHOICES = glossary.choices("band")
SPECIAL_CHOICES = [("", _("—")), *glossary.choices("special")]
COVER_CHOICES = [("exposed", _("exposed")), ("partial", _("partial cover")), ("total", _("total cover"))]


E_BOTH_SIDES = _("%(names)s: on both sides; choose one side for each.")


class CombatStartForm(forms.Form):
    side_a = forms.MultipleChoiceField(label=_("One side"), widget=forms.CheckboxSelectMultiple)
    side_b = forms.MultipleChoiceField(label=_("The other side"), widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("side_a", "side_b"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]

    def clean(self):
        """A character ticked on both sides is refused by name (they were dropped from the second
        side, and the fight was refused for "two sides" without saying why)."""
        data = super().clean()
        both = set(data.get("side_a", ())) & set(data.get("side_b", ()))
        if both:
            names = dict(self.fields["side_a"].choices)
            raise forms.ValidationError(E_BOTH_SIDES % {"names": ", ".join(names[pk] for pk in sorted(both, key=int))})
        return data


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

    def __init__(self, *args, fighters=None, **kwargs):
        """``fighters``: [(id, name)] the targets and the patient are chosen among. Without them, the
        ids posted (:func:`~frontera.play.forms.checks.posted_ids`): the service then checks, under
        the session's lock, that each is a fighter of this fight (issue #11: the view reads nothing
        first)."""
        super().__init__(*args, **kwargs)
        if fighters is None:
            fighters = posted_ids(self.data or None, "targets", "target", "patient")
        self.fighter_ids = [int(pk) for pk, _name in fighters]
        self.fields["targets"].choices = [(str(pk), name) for pk, name in fighters]
        for pk, name in fighters:
            label = _("Range to %(name)s") % {"name": name} if name else _("Range")
            self.fields[f"band_{pk}"] = forms.ChoiceField(label=label, choices=BAND_CHOICES, required=False)

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
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)


class CombatChooseForm(forms.Form):
    cards = forms.MultipleChoiceField(required=False)
    suit = forms.ChoiceField(choices=SUIT_CHOICES, required=False)

    def __init__(self, *args, hand=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["cards"].choices = [(uid, uid) for uid in hand]
