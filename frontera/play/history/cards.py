"""One card's journey through a session, as the viewer may see it."""

from __future__ import annotations

from frontera.play.history.rows import event_row, history_viewer, may_see, names_of
from frontera.play.models import GameSession, SessionEvent
from frontera.play.selectors.core import card_view
from frontera.rules.errors import RulesError


def card_history(session: GameSession, user, uid: str) -> dict | None:
    """The journey of card ``uid`` through the zones, as the viewer may see it: only the events where
    the viewer could see that card. ``None`` (a 404) when the viewer never saw it, exactly as for a
    card that is not in the session."""
    try:
        card = card_view(uid)
    except RulesError:
        return None
    viewer = history_viewer(session, user)
    names = names_of(session)
    events = [e for e in SessionEvent.objects.filter(session=session, kind=SessionEvent.Kind.CARD, card=uid)
              .select_related("actor").order_by("pk")
              if may_see(viewer, e.card, e.seen_by, e.reason, e.prueba_id)]
    if not events:
        return None
    rows = [event_row(e, viewer, names) for e in events]
    return {"session": session, "campaign": session.campaign, "card": card, "events": rows,
            "is_mayor": viewer.is_mayor, "full": viewer.full,
            "journey": _journey(rows)}


def _journey(rows: list[dict]) -> list[str]:
    """The zones one after another; "…" where the card went through moves the viewer did not see."""
    zones: list[str] = []
    for row in rows:
        if zones and zones[-1] != row["from"]:
            zones.append("…")
        if not zones or zones[-1] != row["from"]:
            zones.append(row["from"])
        zones.append(row["to"])
    return zones
