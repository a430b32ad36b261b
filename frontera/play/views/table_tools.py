"""The Mayor's table tools on one character (track changes, threat, drink, accidents, rest,
the dead man's hand, the death roll), one action per submission."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontera.characters.models import Character
from frontera.play.forms.common import posted_request_key
from frontera.play.forms.table_tools import TableActionForm
from frontera.play.selectors.pages import callable_characters
from frontera.play.services import death as death_actions
from frontera.play.services import table_tools as table_tools_actions
from frontera.play.services.core import SessionError
from frontera.play.views.common import done, form_errors, session_for_mayor


@login_required
@require_POST
def table_action(request, pk: int):
    """The Mayor's tools on one character: track changes (his override, logged), threat, drink,
    falls and accidents."""
    session = session_for_mayor(request.user, pk)
    form = TableActionForm(request.POST, characters=callable_characters(session))
    if not form.is_valid():
        return done(request, session, error=_("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    character = get_object_or_404(Character, pk=int(data["character"]), campaign=session.campaign)
    action = data["action"]
    who = {"session": session, "by": request.user, "character": character, "note": data["note"]}

    def run():
        if action in ("health", "morale", "sobriety"):
            return table_tools_actions.track_change(**who, track=action, amount=data["amount"] or 0)
        if action == "threat":
            return table_tools_actions.threat(**who)
        if action == "drink":  # several drinks at once are drunk one by one (FR-SOB-3), all or none
            return table_tools_actions.drinks(**who, count=data["drinks"] or 1)
        if action == "death":
            return death_actions.death_roll(**who, request_key=data["request_key"])
        if action in ("dmh1", "dmh2"):
            return table_tools_actions.dead_mans_hand(**who, count=int(action[-1]))
        if action == "rest":
            return table_tools_actions.rest(**who, hours=data["hours"] or 0)
        return table_tools_actions.accident(**who, cause=action, metres=data["metres"] if action == "fall" else None,
                                            agility=data["agility"] or None)

    try:
        table_tools_actions.table_action_once(session=session, request_key=data["request_key"], run=run)
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)


@login_required
@require_POST
def table_undo(request, pk: int):
    """The Mayor undoes his last table action while nobody has acted since."""
    session = session_for_mayor(request.user, pk)
    try:
        table_tools_actions.table_undo(session=session, by=request.user, request_key=posted_request_key(request.POST))
    except SessionError as err:
        return done(request, session, error=str(err), region_name="board")
    return done(request, session, region_name="board")
