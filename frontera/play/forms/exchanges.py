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


E_CONFIRM_DEATH = _("A death cannot be undone: tick “%(label)s” to confirm it.")


class ExchangeStartForm(forms.Form):
    """Nobody is chosen beforehand: a death exchange started on the list's first name (the form's
    default) took that character out of the game, and a death asks to be confirmed."""

    kind = forms.ChoiceField(label=_("Exchange"), choices=EXCHANGE_CHOICES)
    first = forms.ChoiceField(label=_("First: who won, who caught the cheat, or who dies"))
    second = forms.ChoiceField(label=_("Second: who lost, or the cheat"), required=False)
    confirm_death = forms.BooleanField(label=_("Yes: the first dies and leaves the game (this cannot be undone)"),
                                       required=False)
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = [("", _("—"))] + [(str(pk), name) for pk, name in characters]
        self.fields["second"].choices = [("", _("—"))] + [(str(pk), name) for pk, name in characters]
        # the fields each kind reads (static/js/shown-for.js hides the others)
        self.fields["second"].widget.attrs.update({"data-shown-by": "kind", "data-shown-for": " ".join(
            k for k, _label in EXCHANGE_CHOICES if k != "death")})
        self.fields["confirm_death"].widget.attrs.update({"data-shown-by": "kind", "data-shown-for": "death"})

    def clean(self):
        data = super().clean()
        if data.get("kind") == "death" and not data.get("confirm_death"):
            raise forms.ValidationError(E_CONFIRM_DEATH % {"label": self.fields["confirm_death"].label})
        return data


class ExchangeChooseForm(forms.Form):
    step = forms.CharField(max_length=10)
    picks = forms.MultipleChoiceField(required=False)

    def __init__(self, *args, offered=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["picks"].choices = [(value, value) for value in offered]
