"""Sharing a treasure among several protagonists (FR-EXCH-6)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontera.campaigns.permissions import can_act_for
from frontera.characters.models import Character
from frontera.play.forms.treasure import TreasureShareForm, TreasureShareStartForm
from frontera.play.models import Exchange
from frontera.play.selectors.pages import callable_characters
from frontera.play.services import treasure as treasure_actions
from frontera.play.services.core import SessionError
from frontera.play.views.common import done, form_errors, session_for, session_for_mayor


@login_required
@require_POST
def treasure_new(request, pk: int):
    """The Mayor says who shares a treasure, loot or reward (FR-EXCH-6)."""
    session = session_for_mayor(request.user, pk)
    form = TreasureShareStartForm(request.POST, characters=callable_characters(session))
    if not form.is_valid():
        return done(request, session, error=_("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(x) for x in data["sharers"]])
    try:
        treasure_actions.treasure_share_start(session=session, by=request.user,
                                      sharers=[found[int(x)] for x in data["sharers"]], count=data["count"],
                                      swaps=data["swaps"], request_key=data["request_key"])
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)


@login_required
@require_POST
def treasure_share(request, pk: int, exchange_id: int):
    """A sharer (on their phone) or the Mayor for them names the keepers, or swaps a card (FR-EXCH-6)."""
    session = session_for(request.user, pk)
    exchange = get_object_or_404(Exchange, pk=exchange_id, session=session, kind=Exchange.Kind.TREASURE_TAKE)
    data = exchange.chosen.get("sharing")
    if not data:
        raise Http404
    sharers = Character.objects.filter(campaign=session.campaign).in_bulk([int(s[1:]) for s in data["sharers"]])
    form = TreasureShareForm(request.POST, sharers=[(pk_, c.name) for pk_, c in sharers.items()])
    if not form.is_valid():
        if not form.has_error("character") and not form.has_error("action"):
            return done(request, session, error=_("Choose among the sharers."))
        raise Http404
    character = sharers[int(form.cleaned_data["character"])]
    if not can_act_for(request.user, character):
        raise Http404
    values = form.cleaned_data
    try:
        if values["action"] == "keeper":
            treasure_actions.treasure_share_vote(exchange=exchange, by=request.user, sharer=character,
                                         keepers=[sharers[int(x)] for x in values["keeper"]])
        else:
            partner = sharers[int(values["partner"])] if values["partner"] else None
            treasure_actions.treasure_share_swap(exchange=exchange, by=request.user, sharer=character, partner=partner,
                                         request_key=values["request_key"])
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)
