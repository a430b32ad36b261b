"""The session's live topic: ``session:<id>``, readable by the campaign's members. A push says
only "version N": every page refetches the fragments its own viewer may see."""

from frontera.campaigns.permissions import is_member_of
from frontera.live.topics import register
from frontera.play.models import GameSession
from frontera.play.selectors import session_version


def _authorize(user, session_id: int) -> bool:
    session = GameSession.objects.select_related("campaign").filter(pk=session_id).first()
    return session is not None and is_member_of(user, session.campaign)


register("session", authorize=_authorize, current_version=session_version)
