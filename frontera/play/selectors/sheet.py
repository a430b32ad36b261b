"""What the character sheet shows of a live session (the deck, by suit) and its live topic, which
follows the character's log and the session the character sits at."""

from __future__ import annotations

from frontera.campaigns.permissions import is_mayor_of
from frontera.characters.models import Character
from frontera.characters.selectors import character_version  # play builds on characters
from frontera.play.models import MAYOR_SEAT, GameSession, Seat
from frontera.play.selectors.core import by_suit, seat_row, session_version
from frontera.rules import session as rules_session


def _current_seat(character_id: int) -> Seat | None:
    """The character's seat at the latest session in play (the one the sheet shows), if any."""
    return (
        Seat.objects.filter(character_id=character_id, session__status=GameSession.Status.ACTIVE)
        .select_related("session")
        .order_by("-session__number")
        .first()
    )


def sheet_topic(character_id: int) -> str:
    """The sheet's live topic: it follows ``character:<id>`` and the session the character sits
    at (see :mod:`frontera.play.live`), so a draw or a phase switch refreshes the deck summary."""
    return f"sheet:{character_id}"


def sheet_sources(character_id: int) -> list[str]:
    seat = _current_seat(character_id)
    return [f"character:{character_id}"] + ([f"session:{seat.session_id}"] if seat else [])


# a session's part of the sheet's version, shifted past any character log id
SHEET_VERSION_SHIFT = 10**12


def sheet_version(character_id: int) -> int:
    """The sheet's live version: the character's log and its current session's log in one number
    (it changes when either changes, and when the current session changes)."""

    seat = _current_seat(character_id)
    session_part = session_version(seat.session_id) if seat else 0
    return session_part * SHEET_VERSION_SHIFT + character_version(character_id)


def character_deck_summary(character: Character, user) -> dict | None:
    """The character's cards in the campaign's session in play, as ``user`` may see them, or
    ``None`` when the character has no seat at a session in play.

    Counts for everyone; the deck's composition by suit only for the character's own player and
    only once they may look at their deck (phase 2, FR-MODE-2/7); the discard is public (its
    cards were shown when played). Redacted by the engine's ``view`` like every session page.
    """
    seat = _current_seat(character.pk)
    if seat is None:
        return None
    state = rules_session.Session.from_json(seat.session.state)
    if seat.key not in state.players:
        return None  # left the game (FR-EXCH-4)
    own = character.owner_id == getattr(user, "pk", None) and character.kind == Character.Kind.PROTAGONIST
    viewer_seat = seat.key if own else (MAYOR_SEAT if is_mayor_of(user, character.campaign) else None)
    row = seat_row(rules_session.view(state, viewer_seat), seat.key)
    owner_sees = own and rules_session.owner_sees_deck(state)
    return {
        "session": seat.session,
        "phase": state.phase,
        "deck_count": row["deck_count"],
        "discard": row["discard"],
        "discard_count": row["discard_count"],
        "by_suit": by_suit([c["uid"] for c in row["deck"]]) if owner_sees else [],
    }


def sheet_page_context(character: Character, user) -> dict:
    """What the character sheet page shows of play (registered with
    :func:`frontera.characters.hooks.on_sheet_page`): the deck summary and the composite live topic."""
    return {
        "deck": character_deck_summary(character, user),
        "live_topic": sheet_topic(character.pk),
        "live_version": sheet_version(character.pk),
    }
