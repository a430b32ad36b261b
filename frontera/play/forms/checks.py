"""Calling a trait or opposed check, and choosing a drawn card."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import (
    SKILL_CHOICES,
    SUIT_CHOICES,
    TRAIT_CHOICES,
    CheckboxesSomeDisabled,
    SelectSomeDisabled,
    new_request_key,
)

MAX_ID_DIGITS = 18  # a bigint's ids have at most 19 digits; 18 always fit


def posted_ids(data, *names: str) -> list[tuple[int, str]]:
    """The character ids a submitted form names in ``names``, as choices: the Mayor's call forms
    offer who may be called (the dialog), but a submitted call is checked by the service under the
    session's lock, where the sheets are read anyway (``services.checks.create_check``: a character
    not of the campaign, or a protagonist not at the session, is refused with its own message)."""
    if data is None:
        return []
    found = []
    for name in names:
        values = data.getlist(name) if hasattr(data, "getlist") else data.get(name)
        for value in values if isinstance(values, list | tuple) else [values]:
            pk = posted_id(value)
            if pk is not None:
                found.append((pk, ""))
    return found


def posted_id(value) -> int | None:
    """A submitted value as a database id, or ``None``: ASCII digits of an id's size ("²" or 5000
    digits are no id; the forms refuse them)."""
    text = str(value)
    return int(text) if text.isascii() and text.isdecimal() and len(text) <= MAX_ID_DIGITS else None


class CheckRequestForm(forms.Form):
    characters = forms.MultipleChoiceField(label=_("Characters"), widget=CheckboxesSomeDisabled)
    trait = forms.ChoiceField(label=_("Trait"), choices=TRAIT_CHOICES)
    skill = forms.ChoiceField(label=_("Skill"), choices=SKILL_CHOICES, required=False)
    difficulty = forms.IntegerField(label=_("Difficulty"), min_value=2, max_value=15, required=False,
                                    help_text=_("Optional: the lowest card value that succeeds."))
    modifier = forms.IntegerField(label=_("Extra cards (±)"), min_value=-10, max_value=10, initial=0, required=False)
    label = forms.CharField(label=_("What for"), max_length=120, required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

    def __init__(self, *args, characters=None, **kwargs):
        """``characters``: who may be called, ``(id, name)`` each (the dialog); ``None`` for a
        submitted call (:func:`posted_ids`)."""
        super().__init__(*args, **kwargs)
        if characters is None:
            characters = posted_ids(self.data or None, "characters")
        self.fields["characters"].choices = [(str(pk), name) for pk, name in characters]


OPPOSED_SLOTS = 4


class OpposedPreset:
    """One of the book's named opposed checks (FR-OPP-6): a label and each side's trait and skill.
    It only fills in the form; the Mayor still chooses who takes part."""

    def __init__(self, label, *sides: tuple[str, str], note=None) -> None:
        self.label, self.sides, self.note = label, sides, note

    def initial(self) -> dict:
        """The label, and each participant's trait and skill: the first side's, then the second's,
        which any further participant shares (more pursuers, watchers, victims: a walk's third and
        fourth participants were left on Manos with no skill, and drew for it)."""
        data = {"label": self.label}
        for i in range(1, OPPOSED_SLOTS + 1):
            data[f"trait_{i}"], data[f"skill_{i}"] = self.sides[min(i, len(self.sides)) - 1]
        return data


OPPOSED_PRESETS = {
    "chase": OpposedPreset(_("Chase"), ("musculo", "agilidad"), ("musculo", "agilidad"),
                           note=_("With different means of travel there is no check: the faster wins.")),
    "stealth": OpposedPreset(_("Stealth"), ("musculo", "agilidad"), ("sentidos", "percepcion")),
    "pickpocket": OpposedPreset(_("Pickpocket"), ("manos", "mana"), ("sentidos", "percepcion")),
    "challenge": OpposedPreset(_("Challenge"), ("cabeza", "labia"), ("cabeza", "astucia"),
                               note=_("The challenged loser accepts or loses 1 Moral; a losing challenger loses 1 Moral.")),
    "provoke": OpposedPreset(_("Provoke"), ("cabeza", "labia"), ("cabeza", "astucia"),
                             note=_("The loser loses 1 Moral.")),
}


class OpposedRequestForm(forms.Form):
    label = forms.CharField(label=_("What for"), max_length=120, required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

    def __init__(self, *args, characters=None, **kwargs):
        """``characters`` as :class:`CheckRequestForm`'s."""
        super().__init__(*args, **kwargs)
        if characters is None:
            characters = posted_ids(self.data or None, *(f"character_{i}" for i in range(1, OPPOSED_SLOTS + 1)))
        choices = [("", _("—"))] + [(str(pk), name) for pk, name in characters]
        for i in range(1, OPPOSED_SLOTS + 1):
            self.fields[f"character_{i}"] = forms.ChoiceField(label=_("Participant %(n)s") % {"n": i},
                                                              choices=choices, required=False,
                                                              widget=SelectSomeDisabled)
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
