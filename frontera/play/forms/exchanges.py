"""Starting a card exchange and choosing its cards."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import new_request_key

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
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = [(str(pk), name) for pk, name in characters]
        self.fields["second"].choices = [("", _("—"))] + [(str(pk), name) for pk, name in characters]


class ExchangeChooseForm(forms.Form):
    step = forms.CharField(max_length=10)
    picks = forms.MultipleChoiceField(required=False)

    def __init__(self, *args, offered=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["picks"].choices = [(value, value) for value in offered]
