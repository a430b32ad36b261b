"""The bonus tables' forms: validation only (the services decide)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from cardgames.models import Table
from cardgames.services import SEAT_RANGE

SEAT_KINDS = [
    ("strong", _("Strong bot")),
    ("greedy", _("Medium bot")),
    ("random", _("Easy bot")),
    ("person", _("A person (invite link)")),
]
MAX_SEATS = max(high for _low, high in SEAT_RANGE.values())


class NewTableForm(forms.Form):
    """A new table: how many seats, who sits in each one after the first (yours), who may see it.
    Its defaults make a table against strong bots."""

    seats = forms.TypedChoiceField(label=_("Seats"), coerce=int)
    privacy = forms.ChoiceField(label=_("Who may see it"), choices=Table.Privacy.choices,
                                initial=Table.Privacy.PRIVATE, required=False)
    campaign = forms.ModelChoiceField(label=_("Campaign"), queryset=None, required=False,
                                      empty_label=_("(none)"))

    def __init__(self, *args, game: str, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        low, high = SEAT_RANGE[game]
        self.fields["seats"].choices = [(n, str(n)) for n in range(low, high + 1)]
        self.fields["seats"].initial = low
        self.fields["campaign"].queryset = campaigns
        for index in range(1, high):
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": index + 1}, choices=SEAT_KINDS, initial="strong", required=False)

    def bots(self) -> dict[int, str]:
        """The bot seats of a valid form: ``{index: strength}``."""
        seats = self.cleaned_data["seats"]
        kinds = {i: self.cleaned_data.get(f"seat_{i}") or "strong" for i in range(1, seats)}
        return {i: kind for i, kind in kinds.items() if kind != "person"}


class MoveForm(forms.Form):
    action = forms.CharField(max_length=4000)
    ply = forms.IntegerField(min_value=0)
    request_key = forms.CharField(max_length=40, required=False)


class JoinForm(forms.Form):
    seat = forms.IntegerField(min_value=0, required=False)
    token = forms.CharField(max_length=100, required=False)
