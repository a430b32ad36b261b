"""Calling trait and opposed checks; a participant's draw and choice."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontera.campaigns.permissions import can_act_for
from frontera.play.forms.checks import CheckRequestForm, ChooseForm, OpposedRequestForm
from frontera.play.models import Check, GameSession, Participant
from frontera.play.services import check_withdrawal
from frontera.play.services import checks as checks_actions
from frontera.play.services.checks import Entry
from frontera.play.services.core import NotAllowed, SessionError
from frontera.play.views.common import done, form_errors, session_for, session_for_mayor

# The Mayor's calls: the form is checked here, and who calls and whom by the service, under the
# session's lock (issue #11: the session is read once, there, and not in the view first).


def _refused(request, pk: int, error: str):
    """A call refused: the session read for the answer (404 for anybody but its Mayor)."""
    return done(request, session_for_mayor(request.user, pk), error=error)


@login_required
@require_POST
def check_new(request, pk: int):
    form = CheckRequestForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, _("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    try:
        prueba = checks_actions.check_request(
            session=GameSession(pk=pk), by=request.user, characters=[int(x) for x in data["characters"]],
            trait=data["trait"], skill=data["skill"] or "", difficulty=data["difficulty"],
            modifier=data["modifier"] or 0, label=data["label"], request_key=data["request_key"],
        )
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused(request, pk, str(err))
    return done(request, prueba.session)


@login_required
@require_POST
def opposed_new(request, pk: int):
    form = OpposedRequestForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, _("Check the form: %(errors)s") % {"errors": form_errors(form)})
    entries = [Entry(int(pk_), trait, skill, modifier) for pk_, trait, skill, modifier in form.entries()]
    try:
        prueba = checks_actions.opposed_request(session=GameSession(pk=pk), by=request.user, entries=entries,
                                                label=form.cleaned_data["label"],
                                                request_key=form.cleaned_data["request_key"])
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused(request, pk, str(err))
    return done(request, prueba.session)


def _participant_for(request, pk: int, participant_id: int) -> tuple[GameSession, Participant]:
    """The session and the participant, with its check and character, if ``request.user`` may act
    for it; 404 otherwise."""
    session = session_for(request.user, pk)
    participant = Participant.objects.with_check(participant_id, session_id=session.pk)
    if participant is None:
        raise Http404
    participant.character.campaign = session.campaign  # a participant's character is of the session's campaign
    if not can_act_for(request.user, participant.character):
        raise Http404
    return session, participant


# A draw and a choice: who may act for the participant is checked by the service, under the lock,
# where it reads the participant anyway (the view reads nothing first).


def _refused_for(request, pk: int, participant_id: int, error: str):
    """A draw or a choice refused: the session read for the answer (404 for whoever may not act)."""
    session, _participant = _participant_for(request, pk, participant_id)
    return done(request, session, error=error)


@login_required
@require_POST
def participant_draw(request, pk: int, participant_id: int):
    try:
        participant = checks_actions.check_draw(participant=Participant(pk=participant_id), by=request.user,
                                                in_session=pk)
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused_for(request, pk, participant_id, str(err))
    return done(request, participant.prueba.session)


@login_required
@require_POST
def participant_choose(request, pk: int, participant_id: int):
    form = ChooseForm(request.POST)
    if not form.is_valid():
        return _refused_for(request, pk, participant_id, _("Choose one of the cards you drew."))
    try:
        participant = checks_actions.check_choose(participant=Participant(pk=participant_id), by=request.user,
                                                  card=form.cleaned_data["card"], suit=form.cleaned_data["suit"] or "",
                                                  in_session=pk)
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused_for(request, pk, participant_id, str(err))
    return done(request, participant.prueba.session)


@login_required
@require_POST
def check_withdraw(request, pk: int, check_id: int):
    """The Mayor withdraws an open check called by mistake (its drawn cards go back)."""
    session = session_for_mayor(request.user, pk)
    prueba = get_object_or_404(Check, pk=check_id, session=session)
    try:
        check_withdrawal.check_withdraw(prueba=prueba, by=request.user)
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)
