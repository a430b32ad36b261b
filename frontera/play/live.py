"""The session's live topic: ``session:<id>``, readable by the campaign's members. A push says
only "version N": every page refetches the fragments its own viewer may see.

The character sheet's topic ``sheet:<character id>`` is composite (see
:mod:`frontera.live.topics`): it follows ``character:<id>`` and the ``session:<id>`` the character
sits at, and only those who may see the sheet may follow it. The sheet's fragment is redacted per
viewer like every session page (``character_deck_summary``)."""

from frontera.campaigns.permissions import can_view_character, is_member_of
from frontera.characters.models import Character
from frontera.live.topics import register
from frontera.play.models import GameSession
from frontera.play.selectors.core import session_version
from frontera.play.selectors.sheet import sheet_sources, sheet_version


def _authorize(user, session_id: int) -> bool:
    session = GameSession.objects.select_related("campaign").filter(pk=session_id).first()
    return session is not None and is_member_of(user, session.campaign)


def _authorize_sheet(user, character_id: int) -> bool:
    character = Character.objects.select_related("campaign").filter(pk=character_id).first()
    return character is not None and can_view_character(user, character)


def _render(session_id: int, requests, regions):
    from frontera.play.views.pushed import pushed_pages  # the views, once the URLs have loaded them

    return pushed_pages(session_id, requests, regions)


register("session", authorize=_authorize, current_version=session_version, render=_render)
register("sheet", authorize=_authorize_sheet, current_version=sheet_version, follows=sheet_sources)
