"""Calling for medical attention: healer and patient."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import SelectSomeDisabled, new_request_key


class MedicalForm(forms.Form):
    healer = forms.ChoiceField(label=_("Healer"), widget=SelectSomeDisabled)
    patient = forms.ChoiceField(label=_("Patient"))
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("healer", "patient"):
            self.fields[name].choices = [(str(pk), label) for pk, label in characters]
