"""Card exchanges (FR-EXCH): start, choose, call off."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontera.characters.models import Character
from frontera.play.forms.exchanges import ExchangeChooseForm, ExchangeStartForm
from frontera.play.models import Exchange
from frontera.play.selectors.core import viewer_for
from frontera.play.selectors.pages import callable_characters
from frontera.play.services import exchanges as exchanges_actions
from frontera.play.services.core import SessionError
from frontera.play.views.common import done, form_errors, session_for, session_for_mayor


@login_required
@require_POST
def exchange_new(request, pk: int):
    """The Mayor starts a bet, duel, treasure or death exchange."""
    session = session_for_mayor(request.user, pk)
    form = ExchangeStartForm(request.POST, characters=callable_characters(session))
    if not form.is_valid():
        return done(request, session, error=_("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk(
        [int(x) for x in (data["first"], data["second"]) if x])
    second = found.get(int(data["second"])) if data["second"] else None
    try:
        exchanges_actions.exchange_start(session=session, by=request.user, kind=data["kind"], first=found[int(data["first"])],
                                second=second if data["kind"] != "death" else None, request_key=data["request_key"])
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)


@login_required
@require_POST
def exchange_choose(request, pk: int, exchange_id: int):
    """The chooser (on their phone) or the Mayor picks the card(s) of the exchange's current step."""
    session = session_for(request.user, pk)
    exchange = get_object_or_404(Exchange, pk=exchange_id, session=session)
    viewer = viewer_for(session, request.user)
    if not viewer.is_mayor and not ({exchange.first, exchange.second} & viewer.seats):
        raise Http404
    form = ExchangeChooseForm(request.POST, offered=request.POST.getlist("picks"))
    if not form.is_valid():
        return done(request, session, error=_("Choose among the cards offered."))
    try:
        exchanges_actions.exchange_choose(exchange=exchange, by=request.user, step=form.cleaned_data["step"],
                                 picks=form.cleaned_data["picks"])
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)


@login_required
@require_POST
def exchange_cancel(request, pk: int, exchange_id: int):
    session = session_for_mayor(request.user, pk)
    exchange = get_object_or_404(Exchange, pk=exchange_id, session=session)
    try:
        exchanges_actions.exchange_cancel(exchange=exchange, by=request.user)
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)
