"""Who the viewer is, and the one place that decides which cards a viewer may see; the feed, cards,
characters and zones as every page shows them.

:func:`viewer_for` names the viewer's role (the Mayor, a player and their seats, anybody else);
:func:`dashboard_view` and :func:`phone_view` build the whole view model of a page from it, and
pages, htmx fragments and live refetches all render from those two functions, so a fragment can
never show more than its page. Card visibility follows the engine (:func:`frontera.rules.session.view`)
plus the check rules: a participant's drawn cards are seen only by whoever holds them (the
character's player, or the Mayor for NPCs, minions and draws he made himself); a played card is
seen by everyone once revealed (at once in a trait check, all together in an opposed check).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC
from functools import cache, cached_property

from django.utils import timezone
from django.utils.translation import gettext

from frontera import glossary
from frontera.campaigns.permissions import is_mayor_of
from frontera.characters.models import Character
from frontera.messages import engine_text
from frontera.play.models import MAYOR_SEAT, GameSession, Seat, SessionEvent, seat_key
from frontera.rules import characters as rules_characters
from frontera.rules import session as rules_session
from frontera.rules.cards import SUIT_SYMBOL, SUITS, Card
from frontera.rules.tracks import HEALTH_NAMES, MORALE_NAMES, SOBRIETY_NAMES, draw_penalty, incapacity
from frontera.sql import column, rows, table

FEED_LENGTH = 25
# each kind's label (lazy: translated when read); Character.get_kind_display() rebuilds the field's
# choices at every call, ~45 times a dashboard (issue #11)
KIND_LABELS = dict(Character.Kind.choices)
SUIT_CLASS = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}


@dataclass
class Viewer:
    user: object
    is_mayor: bool
    seats: set[str] = field(default_factory=set)  # engine players whose hidden cards this viewer holds


def viewer_for(session: GameSession, user, owned: dict[int, set[str]] | None = None) -> Viewer:
    """The viewer's role at this session; a member of the campaign is assumed (views check it).
    ``owned``: every player's seats (:func:`seats_by_owner`), if the caller has read them."""
    if is_mayor_of(user, session.campaign):
        return Viewer(user, True, {MAYOR_SEAT})
    if owned is not None:
        return Viewer(user, False, set(owned.get(user.pk, ())))
    own = rows(_own_seats_sql(), (session.pk, user.pk))
    return Viewer(user, False, {seat_key(pk) for pk, in own})


def seats_by_owner(session: GameSession) -> dict[int, set[str]]:
    """The seats of the characters at ``session``, by their owner's id: what :func:`viewer_for`
    reads for one player, for every player in one statement (the pages one push is rendered for)."""
    owned: dict[int, set[str]] = {}
    for pk, owner in rows(_seat_owners_sql(), (session.pk,)):
        owned.setdefault(owner, set()).add(seat_key(pk))
    return owned


@cache
def _seat_owners_sql() -> str:
    """Each character seated at a session and its owner (SQL: :mod:`frontera.sql`)."""
    return (f"SELECT {column(Seat, 'character')}, {column(Character, 'owner')} FROM {table(Seat)} INNER JOIN "
            f"{table(Character)} ON {column(Seat, 'character')} = {column(Character, 'pk')} "
            f"WHERE {column(Seat, 'session')} = %s")


@cache
def _own_seats_sql() -> str:
    """The characters a user plays that are seated at a session (SQL: :mod:`frontera.sql`)."""
    return (f"SELECT {column(Seat, 'character')} FROM {table(Seat)} INNER JOIN {table(Character)} "
            f"ON {column(Seat, 'character')} = {column(Character, 'pk')} "
            f"WHERE {column(Seat, 'session')} = %s AND {column(Character, 'owner')} = %s")


def seen_cards(state: rules_session.Session, viewer: Viewer, held=()) -> frozenset[str]:
    """Every card whose identity ``viewer`` may see on their pages now: the engine's visibility for
    each of their seats (the zones and decks the pages show, :func:`rules_session.view`) plus
    ``held``, the drawn cards of open checks they hold (a participant's hand). Everything else is
    unseen by them; the odds they are shown are computed over that (FR-ODDS-1 generalised)."""
    seen = set()
    for seat in viewer.seats:
        if seat in state.players:
            seen |= rules_session.visible_cards(state, seat)
    if not seen:
        seen |= rules_session.visible_cards(state, None)
    pending = {uid for p in state.players for entry in state.pending[p].values() for uid in entry["cards"]}
    seen.update(uid for uid in held if uid in pending)
    return frozenset(seen)


def unseen_cards(state: rules_session.Session, seen: frozenset[str]) -> list[str]:
    """The session's cards ``seen`` does not hold, in a fixed order that says nothing of where they are."""
    return [uid for uid in rules_session.all_cards(state) if uid not in seen]


def session_version(session_id: int) -> int:
    """The live-bus version of a session: its latest event id (0 if none)."""
    latest = rows(_latest_id_sql(), (session_id,))
    return latest[0][0] if latest else 0


@cache
def _latest_id_sql() -> str:
    """The latest event's id (every whole page asks; the aggregate took ~0.4 ms to build)."""
    return _latest_event(column(SessionEvent, "pk", qualified=False), "%s")


def feed_stamp(session_id: int) -> str:
    """What names one state of the feed: the session's latest event (id and time, so a database
    that reuses ids after a restore never matches an older stamp). The feed is the same for every
    viewer (:func:`session_feed`), so one rendering per stamp and language serves them all."""
    latest = rows(_latest_event_sql(), (session_id,))
    if not latest:
        return "0"
    pk, at = latest[0]
    if timezone.is_naive(at):  # SQLite's column, read without the ORM: UTC, as Django writes it
        at = timezone.make_aware(at, UTC)
    return f"{pk}-{at.timestamp()}"


def _latest_event(columns: str, session: str) -> str:
    """A session's latest event: ``columns`` of it, for the session ``session`` names (SQL:
    :mod:`frontera.sql`)."""
    pk = column(SessionEvent, "pk", qualified=False)
    return (f"SELECT {columns} FROM {table(SessionEvent)} WHERE {column(SessionEvent, 'session', qualified=False)} "
            f"= {session} ORDER BY {pk} DESC LIMIT 1")


@cache
def _latest_event_sql() -> str:
    """The latest event's id and time (asked by every refetch)."""
    return _latest_event(f"{column(SessionEvent, 'pk', qualified=False)}, "
                         f"{column(SessionEvent, 'created_at', qualified=False)}", "%s")


def live_version_sql() -> str:
    """:func:`session_version` as a correlated subquery of a statement on the session's own row."""
    return _latest_event(column(SessionEvent, "pk", qualified=False), column(GameSession, "pk"))


def stamp_version(stamp: str) -> int:
    """The live version a :func:`feed_stamp` names (its event's id)."""
    return int(stamp.split("-", 1)[0])


def sessions_of(campaign) -> list[GameSession]:
    return list(GameSession.objects.filter(campaign=campaign).order_by("-number"))


def render_message(message: str, params: dict) -> str:
    """A logged message in the current language; parameters that are messages are translated too,
    and a message with plural forms takes the form of its number (:mod:`frontera.messages`). The
    Mayor's note on an action (``note``) ends its line; a track change logged before every table
    tool took one carried it in its own message, which says where."""
    text = engine_text(message, params)
    note = params.get("note")
    if note and isinstance(note, str) and "%(note)s" not in message:
        text = gettext("%(text)s Reason: %(note)s") % {"text": text, "note": note}
    return text


class FeedLine:
    """One line of the feed. Its text is put in the reader's language only when a page renders the
    line: the pages keep each line's HTML once rendered (:mod:`frontera.play.views.feed`), and
    after a push only the new lines are rendered (issue #11). So its parameters and rules are
    decoded then too: ``params`` and ``rules`` may be given as their JSON."""

    def __init__(self, pk: int, at, message: str, params: dict | str, rules: list[str] | str) -> None:
        self.pk, self.at, self.message = pk, at, message
        self._params, self._rules = params, rules

    @cached_property
    def params(self) -> dict:
        return json.loads(self._params) if isinstance(self._params, str) else self._params

    @cached_property
    def rules(self) -> list[str]:
        return json.loads(self._rules) if isinstance(self._rules, str) else self._rules

    @cached_property
    def text(self) -> str:
        return render_message(self.message, self.params)


def session_feed(session: GameSession, limit: int = FEED_LENGTH) -> list[FeedLine]:
    """The latest rule decisions, explained. They never name a hidden card (the services only put
    public facts in them); card movements stay in the log, redacted per viewer by ``seen_by``.
    Read as plain rows: every page of the session reads them after every push, and most of their
    lines are already rendered (no model is made, no JSON decoded for them)."""
    lines = []
    for pk, at, message, params, rules in rows(_feed_sql(), (session.pk, SessionEvent.Kind.DECISION, limit)):
        if timezone.is_naive(at):  # SQLite's column, read without the ORM: UTC, as Django writes it
            at = timezone.make_aware(at, UTC)
        lines.append(FeedLine(pk, at, message, params, rules))
    return lines


@cache
def _feed_sql() -> str:
    """The latest decisions of a session, as plain rows (:func:`frontera.sql.rows`: every page and
    refetch of the feed asks; the queryset took ~0.4 ms to build; issue #11)."""
    picked = ", ".join(column(SessionEvent, name) for name in ("pk", "created_at", "message", "params", "rules"))
    return (f"SELECT {picked} FROM {table(SessionEvent)} WHERE {column(SessionEvent, 'session')} = %s "
            f"AND {column(SessionEvent, 'kind')} = %s ORDER BY {column(SessionEvent, 'pk')} DESC LIMIT %s")


def card_view(uid: str, declared: str = "") -> dict:
    card = Card.from_uid(uid)
    if declared and card.is_joker:
        card = card.declare(declared)
    return {
        "uid": uid,
        "label": card.label,
        "rank": card.rank if not card.is_joker else "JK",
        "symbol": SUIT_SYMBOL[card.suit] if card.suit else "★",
        "css": SUIT_CLASS[card.suit] if card.suit else "joker",
        "is_joker": card.is_joker,
    }


def cards_view(uids) -> list[dict]:
    return [card_view(uid) for uid in sorted(uids, key=rules_session.card_sort_key)]


def _tracks(sheet: rules_characters.Character) -> dict:
    reason = incapacity(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    return {
        "health": sheet.health, "health_name": glossary.name("level", HEALTH_NAMES[sheet.health]),
        "morale": sheet.morale, "morale_name": glossary.name("level", MORALE_NAMES[sheet.morale]),
        "sobriety": sheet.sobriety, "sobriety_name": glossary.name("level", SOBRIETY_NAMES[sheet.sobriety]),
        "penalty": None if reason else draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety),
        "incapacity": glossary.name("level", reason) if reason else reason,
        "aguante": sheet.aguante,
        "confianza": sheet.confianza,
    }


def character_row(character: Character) -> dict:
    sheet = rules_characters.Character.from_json(character.sheet)
    traits = []
    if sheet.traits is not None:
        traits = [{"name": glossary.name("trait", t), "score": s, "key": t} for t, s in sheet.traits.items()]
    return {
        "character": character,
        "pk": character.pk,
        "name": character.name,
        "kind": character.kind,
        "kind_label": str(KIND_LABELS.get(character.kind, character.kind)),
        "traits": traits,
        "flat_cards": sheet.cards_per_check,
        "skills": [glossary.name("skill", s) for s in sheet.skills],
        "money": sheet.money,
        **_tracks(sheet),
    }


def zones_view(seen: dict) -> dict:
    return {
        "pile": seen["pile"]["count"],
        "discard": seen["discard"]["count"],
        "treasure": seen["treasure"]["count"],
        "out_of_play": seen["out_of_play"]["count"],
        "dead_mans_hand": cards_view(seen["dead_mans_hand"]["cards"]),
    }


def seat_row(seen: dict, key: str) -> dict:
    seat = seen["seats"][key]
    return {
        "deck_count": seat["deck"]["count"],
        "deck": cards_view(seat["deck"]["cards"]),
        "discard": cards_view(seat["discard"]["cards"]),
        "discard_count": seat["discard"]["count"],
        "pending_count": sum(z["count"] for z in seat["pending"].values()),
    }


def by_suit(uids: list[str]) -> list[dict]:
    counts = Counter(Card.from_uid(u).suit or "JK" for u in uids)
    rows = [{"symbol": SUIT_SYMBOL[s], "css": SUIT_CLASS[s], "name": glossary.name("suit", s), "count": counts[s]}
            for s in SUITS]
    if counts["JK"]:
        rows.append({"symbol": "★", "css": "joker", "name": gettext("jokers"), "count": counts["JK"]})
    return rows
