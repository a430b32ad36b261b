"""Calling a pistol duel: the duellists and the ranged weapon each uses."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import SelectSomeDisabled, new_request_key


class PistolDuelForm(forms.Form):
    """The Mayor calls a pistol duel (FR-CMB-15): two duellists, each with the ranged weapon they use."""

    first = forms.ChoiceField(label=_("First duellist"), widget=SelectSomeDisabled)
    first_weapon = forms.ChoiceField(label=_("First duellist's weapon"))
    second = forms.ChoiceField(label=_("Second duellist"), widget=SelectSomeDisabled)
    second_weapon = forms.ChoiceField(label=_("Second duellist's weapon"))
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

    def __init__(self, *args, characters=(), weapons=(), **kwargs):
        kwargs.setdefault("auto_id", "duel_%s")
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]
            self.fields[f"{name}_weapon"].choices = [(key, label) for key, label in weapons]
        if len(characters) > 1:
            self.fields["second"].initial = str(characters[1][0])
