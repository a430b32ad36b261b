"""Starting a session and a late joiner's seat."""

from django import forms
from django.utils.translation import gettext_lazy as _

from frontera.play.forms.common import new_request_key
from frontera.play.models import GameSession

JOIN_CHOICES = [("new_deck", _("a new deck: 8 random cards of it")), ("from_players", _("cards from every other deck"))]


class SessionStartForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("Mode"), choices=GameSession.Mode.choices, initial=GameSession.Mode.NORMAL,
        # FR-MODE-1..11, said where the Mayor chooses (a walk found nothing that told them apart)
        help_text=_("Normal (the book's): each player's 8 cards face down, checks from the shared pile in phase 1, "
                    "then from their own deck in phase 2. Sin gestión: one shared deck, every card back after "
                    "each check. Con desgaste: a full deck each; played cards come back only with rest."))
    characters = forms.MultipleChoiceField(label=_("Protagonists present"), widget=forms.CheckboxSelectMultiple,
                                           required=False)
    decks = forms.IntegerField(label=_("Decks"), min_value=1, max_value=8, required=False,
                               help_text=_("Empty: one deck per 4 players, the Mayor included."))
    jokers = forms.IntegerField(label=_("Jokers per deck"), min_value=0, max_value=2, initial=2)
    skip_phase_1 = forms.BooleanField(label=_("Skip phase 1 (deal every card now)"), required=False,
                                      help_text=_("Normal mode only: every card dealt at random among the players, "
                                                  "who see their decks from the start (phase 2)."))
    request_key = forms.CharField(widget=forms.HiddenInput, initial=new_request_key, max_length=40, required=False)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [(str(c.pk), c.name) for c in characters]
        self.fields["characters"].initial = [str(c.pk) for c in characters]


class JoinForm(forms.Form):
    character = forms.ChoiceField(label=_("Protagonist"))
    method = forms.ChoiceField(label=_("Cards"), choices=JOIN_CHOICES, widget=forms.RadioSelect, initial="new_deck")
    per_player = forms.IntegerField(label=_("Cards from each other deck"), min_value=1, max_value=3, initial=1)
    return_to_phase_1 = forms.BooleanField(label=_("Return to phase 1 (new deck in phase 2)"), required=False)

    def __init__(self, *args, characters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(str(c.pk), c.name) for c in characters]
