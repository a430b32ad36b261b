"""Gambling nights (FR-GMB): the banca, azar and habilidad contests, the drinking duel."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from frontera.campaigns.permissions import can_act_for, can_run_session
from frontera.characters.models import Character
from frontera.play.forms.gambling import GambleForm
from frontera.play.models import Gamble
from frontera.play.selectors.pages import callable_characters
from frontera.play.services import duels as duels_actions
from frontera.play.services import gambling as gambling_actions
from frontera.play.services.core import SessionError
from frontera.play.views.common import done, form_errors, session_for, session_for_mayor

E_BANCA_ONE = gettext_lazy("The banca is played by one character at a time.")


@login_required
@require_POST
def gamble_new(request, pk: int):
    """The Mayor opens a banca for one character, or an azar / habilidad contest between several."""
    session = session_for_mayor(request.user, pk)
    form = GambleForm(request.POST, characters=callable_characters(session))
    if not form.is_valid():
        return done(request, session, error=_("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(x) for x in data["characters"]])
    characters = [found[int(x)] for x in data["characters"] if int(x) in found]
    cheats = [int(x) for x in data["cheats"]]
    try:
        if data["kind"] == "duelo_bebida":
            duels_actions.drinking_duel_start(session=session, by=request.user, characters=characters,
                                         request_key=data["request_key"])
        elif data["kind"] == "banca":
            if len(characters) != 1:
                return done(request, session, error=str(E_BANCA_ONE))
            gambling_actions.banca_begin(session=session, by=request.user, character=characters[0],
                                 cheating=characters[0].pk in cheats, request_key=data["request_key"])
        else:
            gambling_actions.gamble_contest(session=session, by=request.user, kind=data["kind"], characters=characters,
                                    cheats=cheats, contest=data["contest"], request_key=data["request_key"])
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)


@login_required
@require_POST
def gamble_step(request, pk: int, gamble_id: int, step: str):
    """The banca's buttons: the Mayor turns a card (``repartir``) or calls the banca off
    (``retirar``); the player, or the Mayor for them, tries to leave (``plantarse``)."""
    session = session_for(request.user, pk)
    gamble = get_object_or_404(Gamble, pk=gamble_id, session=session)
    if gamble.kind == Gamble.Kind.DRINKING_DUEL:
        drinker = request.POST.get("character", "")
        if step != "beber" or drinker not in gamble.players:
            raise Http404
        character = get_object_or_404(Character, pk=int(drinker), campaign=session.campaign)
        if not can_act_for(request.user, character):
            raise Http404
        seen = request.POST.get("round", "")
        try:
            duels_actions.drinking_duel_drink(gamble=gamble, by=request.user, character=character,
                                         round_seen=int(seen) if seen.isdigit() else None)
        except SessionError as err:
            return done(request, session, error=str(err))
        return done(request, session)
    if gamble.kind != Gamble.Kind.BANCA:
        raise Http404
    character = get_object_or_404(Character, pk=int(next(iter(gamble.players))))
    try:
        if step == "repartir":
            if not can_run_session(request.user, session.campaign):
                raise Http404
            seen = request.POST.get("rounds", "")
            gambling_actions.banca_deal(gamble=gamble, by=request.user, rounds_seen=int(seen) if seen.isdigit() else None)
        elif step == "retirar":
            if not can_run_session(request.user, session.campaign):
                raise Http404
            gambling_actions.banca_withdraw(gamble=gamble, by=request.user)
        elif step == "plantarse":
            if not can_act_for(request.user, character):
                raise Http404
            gambling_actions.banca_try_stop(gamble=gamble, by=request.user)
        else:
            raise Http404
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)
