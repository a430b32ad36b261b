"""One event of a session's log as one viewer may read it: who the viewer is, what they may see,
the names of seats and zones.

Per-viewer redaction of a card event (a movement) follows what the viewer was allowed to see when
the card moved, as the services recorded it in :attr:`SessionEvent.seen_by` (the engine players who
could see the card before or after the movement, ``"*"`` for everyone):

- everyone sees a card whose ``seen_by`` holds ``"*"`` (the dead man's hand, a player's own discard)
  and every card *played* (reason ``"played"``: it was shown to the table when played, FR-CHK-2,
  FR-OPP-1, FR-CMB-1 — the services move it only at the reveal);
- a player sees the cards whose ``seen_by`` names one of their seats (their own draws, their deck
  where they may look at it: FR-MODE-2, 4, 7, FR-EXCH-7);
- the Mayor, while the session is in play, sees as his seat ``mayor`` does, plus the cards he drew
  himself for a player (docs/sessions.md, ruling 3: no "see everything" screen during play; FR-MODE-2
  hides even his own 8 in phase 1); once the session has ended the Mayor sees every card;
- an ended session reveals nothing more to a player (nothing in RULINGS.md says it should).

Anything else is "a card": its movement between zones stays public (the zones' counts are public),
its identity (label and uid) appears nowhere — page, per-card page, filter, chart or export.
Decisions are public (they never name a hidden card, see the services); their raw parameters are
never exported (they hold the random seeds).

Every function runs a constant number of queries, whatever the length of the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_noop

from frontera.characters.models import Character
from frontera.play.models import MAYOR_SEAT, GameSession, Participant, SessionEvent
from frontera.play.selectors.core import card_view, render_message, viewer_for
from frontera.rules.errors import RulesError

SHARED_ZONE_LABELS = {
    "pile": gettext_noop("montón"),
    "discard": gettext_noop("shared discard"),
    "treasure": gettext_noop("mazo del Tesoro"),
    "dead_mans_hand": gettext_noop("mano del hombre muerto"),
    "out_of_play": gettext_noop("out of play"),
    "box": gettext_noop("the box"),
}
SEAT_ZONE_LABELS = {
    "deck": gettext_noop("mazo of %(name)s"),
    "discard": gettext_noop("descartes of %(name)s"),
    "pending": gettext_noop("drawn by %(name)s"),
}
MAYOR_ZONE_LABELS = {  # Spanish says "del Mayor", not "de el Mayor"
    "deck": gettext_noop("mazo of the Mayor"),
    "discard": gettext_noop("descartes of the Mayor"),
    "pending": gettext_noop("drawn by the Mayor"),
}
REASON_LABELS = {
    "deal": gettext_noop("dealt"),
    "draw": gettext_noop("card drawn"),
    "played": gettext_noop("played"),
    "unchosen": gettext_noop("not chosen"),
    "cancelled": gettext_noop("returned"),
    "withdrawn": gettext_noop("withdrawn by the Mayor"),
    "undo": gettext_noop("undone by the Mayor"),
    "reshuffle": gettext_noop("reshuffled"),
    "recycle": gettext_noop("recycled"),
    "phase_2": gettext_noop("phase 2"),
    "late_joiner": gettext_noop("late joiner"),
    "new_deck": gettext_noop("new deck"),
    "death": gettext_noop("death"),
    "rest": gettext_noop("rest"),
    "bet": gettext_noop("bet"),
    "bet_tie": gettext_noop("bet ending in Tablas"),
    "cheat": gettext_noop("cheating caught"),
    "duel": gettext_noop("duel"),
    "duel_tie": gettext_noop("duel ending in Tablas"),
    "drunk": gettext_noop("Borracho"),
    "coma": gettext_noop("En coma"),
    "treasure_swap": gettext_noop("Tesoro: a swap"),
    "treasure_take": gettext_noop("Tesoro: a random card"),
}
# Rules a card movement applies that its reason alone tells (the rest are in the decisions).
REASON_RULES = {
    "deal": ["FR-MODE-2"], "reshuffle": ["FR-MODE-5"], "phase_2": ["FR-MODE-5"], "recycle": ["FR-MODE-8"],
    "late_joiner": ["FR-MODE-9"], "new_deck": ["FR-MODE-9"], "death": ["FR-EXCH-4"], "rest": ["FR-MODE-11"],
    "bet": ["FR-EXCH-2"], "bet_tie": ["FR-EXCH-2"], "cheat": ["FR-EXCH-2"], "duel": ["FR-EXCH-3"],
    "duel_tie": ["FR-EXCH-3"], "drunk": ["FR-SOB-1"], "coma": ["FR-SOB-1"], "treasure_swap": ["FR-EXCH-6"],
    "treasure_take": ["FR-EXCH-6"], "played": ["FR-CHK-2"],
}


@dataclass
class HistoryViewer:
    user: object
    is_mayor: bool
    full: bool  # sees every card: the Mayor of an ended session
    seats: set[str] = field(default_factory=set)
    drew_for: set[tuple[int, str]] = field(default_factory=set)  # (check id, seat) the Mayor drew for


def history_viewer(session: GameSession, user) -> HistoryViewer:
    """Who reads the history; a member of the campaign is assumed (views check it)."""
    base = viewer_for(session, user)
    full = base.is_mayor and session.status == GameSession.Status.ENDED
    drew_for: set[tuple[int, str]] = set()
    if base.is_mayor and not full:
        drew_for = set(
            Participant.objects.filter(prueba__session=session, drawn_by=user)
            .exclude(seat=MAYOR_SEAT).values_list("prueba_id", "seat")
        )
    return HistoryViewer(user, base.is_mayor, full, set(base.seats), drew_for)


def may_see(viewer: HistoryViewer, card: str, seen_by, reason: str, prueba_id: int | None) -> bool:
    """Whether ``viewer`` may read the identity of the card of one card event."""
    if not card:
        return False
    if viewer.full or reason == "played":
        return True
    seen = set(seen_by or ())
    if "*" in seen or seen & viewer.seats:
        return True
    return any((prueba_id, seat) in viewer.drew_for for seat in seen)


@dataclass
class Names:
    """Seat keys and character ids of a session → names (one query each)."""

    seats: dict[str, str]
    characters: dict[int, Character]

    def seat(self, key: str) -> str:
        if key == MAYOR_SEAT:
            return gettext("the Mayor")
        return self.seats.get(key, key)


def names_of(session: GameSession) -> Names:
    characters = {c.pk: c for c in Character.objects.filter(campaign_id=session.campaign_id).select_related("owner")}
    return Names({f"c{pk}": c.name for pk, c in characters.items()}, characters)


def zone_label(zone: str, names: Names) -> str:
    if zone in SHARED_ZONE_LABELS:
        return gettext(SHARED_ZONE_LABELS[zone])
    kind, _sep, seat = zone.partition(":")
    if kind in SEAT_ZONE_LABELS and seat == MAYOR_SEAT:
        return gettext(MAYOR_ZONE_LABELS[kind])
    if kind in SEAT_ZONE_LABELS and seat:
        return gettext(SEAT_ZONE_LABELS[kind]) % {"name": names.seat(seat)}
    return zone


def _owner(zone_from: str, zone_to: str) -> str:
    """Whose card it is, for the line's "de Clementine": the seat of the zone it comes from or goes to."""
    for zone in (zone_from, zone_to):
        kind, _sep, seat = zone.partition(":")
        if kind in SEAT_ZONE_LABELS and seat:
            return seat
    return ""


def event_row(e: SessionEvent, viewer: HistoryViewer, names: Names) -> dict:
    """One event as the viewer may read it. A hidden card has neither label nor uid."""
    row = {
        "pk": e.pk, "at": e.created_at, "kind": e.kind,
        "actor": e.actor.get_username() if e.actor_id and e.actor else "",
        "prueba": e.prueba_id, "card": None, "uid": "", "from": "", "to": "", "owner": "",
        "reason": "", "text": "", "rules": list(e.rules or []),
    }
    if e.kind == SessionEvent.Kind.CARD:
        shown = may_see(viewer, e.card, e.seen_by, e.reason, e.prueba_id)
        if shown:
            try:
                row["card"] = card_view(e.card)
                row["uid"] = e.card
            except RulesError:
                shown = False
        row["from"] = zone_label(e.from_zone, names)
        row["to"] = zone_label(e.to_zone, names)
        owner = _owner(e.from_zone, e.to_zone)
        row["owner"] = names.seat(owner) if owner else ""
        row["reason"] = gettext(REASON_LABELS[e.reason]) if e.reason in REASON_LABELS else e.reason
        row["rules"] = row["rules"] or list(REASON_RULES.get(e.reason, []))
        values = {"card": row["card"]["label"] if shown else gettext("a card"), "name": row["owner"],
                  "from": row["from"], "to": row["to"]}
        if owner == MAYOR_SEAT:
            template = gettext("%(card)s of the Mayor: %(from)s → %(to)s")
        elif owner:
            template = gettext("%(card)s of %(name)s: %(from)s → %(to)s")
        else:
            template = gettext("%(card)s: %(from)s → %(to)s")
        row["text"] = template % values
    else:
        row["text"] = render_message(e.message, e.params or {})
    return row
