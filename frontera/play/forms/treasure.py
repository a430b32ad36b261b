"""Sharing a treasure: who shares, then each sharer's keepers or swap."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import new_request_key


class TreasureShareStartForm(forms.Form):
    """The Mayor says who shares a treasure (FR-EXCH-6); the sharers decide the rest on their phones."""

    sharers = forms.MultipleChoiceField(label=_("Who shares it"), widget=forms.CheckboxSelectMultiple)
    count = forms.IntegerField(label=_("Tesoro cards to share"), min_value=1, max_value=5, initial=1)
    swaps = forms.IntegerField(label=_("Cards each of the others may swap"), min_value=0, max_value=5, initial=1)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

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
