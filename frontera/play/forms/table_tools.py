"""The Mayor's table tools on one character: tracks, threat, drink, accidents, rest."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import new_request_key

ACTION_CHOICES = [
    ("health", _("Salud: lose or recover levels")),
    ("morale", _("Moral: lose or recover levels")),
    ("sobriety", _("Sobriedad: lose or recover levels")),
    ("threat", _("Threat")),
    ("drink", _("One more drink")),
    ("fall", _("Fall")),
    ("train", _("Run over by a train")),
    ("coach", _("Run over by a coach")),
    ("horse", _("Run over by a horse")),
    ("dmh1", _("Dead man's hand, 1 card")),
    ("dmh2", _("Dead man's hand, 2 cards, keep the better")),
    ("death", _("Death roll of a character at Dead")),
    ("rest", _("Rest (Attrition mode)")),
]
# the fields each action reads (the others are hidden while it is chosen: static/js/shown-for.js)
SHOWN_FOR = {
    "amount": ("health", "morale", "sobriety"),
    "metres": ("fall",),
    "agility": ("fall", "train", "coach", "horse"),
    "hours": ("rest",),
    "drinks": ("drink",),
}
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
    drinks = forms.IntegerField(label=_("How many drinks"), min_value=1, max_value=12, initial=1, required=False)
    note = forms.CharField(label=_("Why (for the feed)"), max_length=120, required=False)
    # one action per submission (the death roll's double submit is one draw, FR-HLT-3): each opening
    # of the form in the Mayor's dialog, and each rendering of a one-tap button, has its own key
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40, required=False)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(pk), name) for pk, name in characters]
        for name, actions in SHOWN_FOR.items():
            self.fields[name].widget.attrs.update({"data-shown-by": "action", "data-shown-for": " ".join(actions)})
