"""What every table action shares: the event log, locking, the engine state, publishing.

- :class:`EventLog` collects one action's card movements and rule decisions (each card movement
  with who may see that card) and writes them together; :meth:`EventLog.flush` publishes the
  ``session:<id>`` topic once, after commit.
- :func:`lock_session` locks the session row first: every table action on a session is serialised.
  :func:`lock_character` locks a character's row and reads its sheet.
- :func:`load_state` / :func:`save_state` read and store the rules engine's JSON state.
- :func:`new_rng` gives a fresh generator and its seed (logged, so an action can be replayed).
- :class:`SessionError` is a refused action, with a message in the user's language;
  :class:`NotAllowed`, an action by somebody the session's lock found may not take it (a 404).

Feed messages are stored as English msgids (marked with ``gettext_noop``) plus parameters and are
translated when shown (:func:`frontera.play.selectors.render_message`). A parameter may itself be a
message: ``{"_msg": msgid, **params}`` (:func:`msg`). Rules: FR-MODE-5 and FR-MODE-8 (what the
engine decides on its own while moving cards, :func:`explain_moves`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from django.db import connection
from django.db.models import Max
from django.db.transaction import TransactionManagementError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.campaigns.permissions import is_mayor_of, remember_role
from frontera.characters.models import Character
from frontera.live.bus import publish_on_commit
from frontera.messages import engine_text
from frontera.play.models import MAYOR_SEAT, ActionKey, Check, GameSession, Seat, SessionEvent, seat_key
from frontera.rules import characters as rules_characters
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker
from frontera.rules.tracks import TRACK_NAMES
from frontera.sql import column, insert_first_with, load, rows, table, update, write_together

E_SESSION_ENDED = _("This session has ended.")
E_NOT_PROTAGONIST = _("%(name)s is not a protagonist of this campaign.")
E_NOT_PRESENT = _("%(name)s is not at this session. Add them as a late joiner first.")
E_NOT_IN_CAMPAIGN = _("Choose characters of this campaign.")
E_NO_CHARACTERS = _("Choose at least one character.")
# Seats of the dead man's hand are public, so the deal's log can show it.
OUTCOME_LABELS = {
    "success": gettext_noop("Éxito"),
    "partial": gettext_noop("Éxito parcial"),
    "failure": gettext_noop("Fracaso"),
    "win": gettext_noop("wins"),
    "loss": gettext_noop("loses"),
    "tie": gettext_noop("Tablas"),
}


class SessionError(ValueError):
    """A refused table action; ``str(err)`` is a message for the user, in their language."""

    def __init__(self, message) -> None:
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.message)


class NotAllowed(Exception):
    """What the session's locked row says ``by`` may not do (:func:`lock_session`'s ``may``), or no
    such session or participant: the view answers 404, as for a session its user may not see
    (never 403)."""


def rules_message(err: RulesError) -> str:
    """An engine error in the user's language (plural forms included: :mod:`frontera.messages`)."""
    return engine_text(err.template, err.params)


# Counted phrases for the feed, each with its plural forms (rendered by frontera.messages).
N_CARDS = ngettext("%(n)s card", "%(n)s cards", "n")
N_DECKS = ngettext("%(n)s deck", "%(n)s decks", "n")
N_JOKERS = ngettext("%(n)s joker", "%(n)s jokers", "n")
N_LEVELS = ngettext("%(n)s level", "%(n)s levels", "n")
N_DISCARDED = ngettext("%(n)s discarded card", "%(n)s discarded cards", "n")


def msg(msgid: str, **params) -> dict:
    """A translatable message to store in the log (translated when it is shown)."""
    return {"_msg": msgid, **params}


def session_topic(session_id: int) -> str:
    return f"session:{session_id}"


def new_rng() -> tuple[random.Random, int]:
    """A fresh generator and its seed (logged, so an action can be replayed from the log)."""
    seed = secrets.randbits(63)
    return random.Random(seed), seed


def card_label(uid: str, declared: str | None = None) -> str:
    card = Card.from_uid(uid)
    if declared:
        card = card.declare(declared)
    return card.label


# The live regions of the session pages (their element ids), as a push names them (issue #11): a
# page refetches only the regions a push names. An action names the ones it may change; one that
# does not (``regions`` None) refreshes every region, which is always correct.
CHECKS, COMBAT, FEED = "checks", "combat", "feed"
BOARD, ME, ZONES = "board", "me", "zones"  # the Mayor's table; a phone's own characters; the table's zones
TABLE = "table"  # a phone's others' open checks ("At the table"): a change to any check may show there
CARDS_AND_TRACKS = (BOARD, ME, ZONES)  # decks, zones and tracks: every page that shows any of them


def scoped(region: str, seat: str) -> str:
    """``region`` of the pages of ``seat``'s player only (``me:c12``): the live stream renders it
    for the viewers who hold that seat, and for the Mayor's page (frontera/play/views/pushed.py); a
    page told of the push by a notice is told the region's name (frontera/live/views.py)."""
    return f"{region}:{seat}"


def one_check(seats: Iterable[str]) -> set[str]:
    """The regions a change to one check (its participants at ``seats``) shows in, and to nothing
    else: the checks of its participants' phones, and of the Mayor's page; the others' open checks
    ("At the table") of every other phone. A phone outside the check is not sent its own checks
    again (issue #11: every other player's rendering of a call, a draw or a choice was their whole
    checks region)."""
    return {*(scoped(CHECKS, seat) for seat in seats), TABLE}


NOTE_LENGTH = 120  # the Mayor's note on an action (the table tools' form allows as much)
MESSAGE_LENGTH = SessionEvent._meta.get_field("message").max_length


@dataclass
class EventLog:
    """Events of one action, written together; the topic is published once after commit, naming
    ``regions`` if the action set them (only what it knows it changed), else every region."""

    session: GameSession
    actor: object
    rows: list
    regions: set[str] | None = None
    # what the card moves logged so far (:meth:`cards`) touched: the seats whose own zones (deck,
    # discard, drawn cards) cards left or entered, whether a shared zone did, whether the phase or
    # the mode changed (or a state before them was not given)
    moved_seats: set[str] = field(default_factory=set)
    moved_shared: bool = False
    moved_phase: bool = False
    # the Mayor's own words on why (his table tools' "Why (for the feed)"): kept with the action's
    # first decision, whose feed line ends with them (:func:`frontera.play.selectors.core.render_message`)
    note: str = ""

    def decide(self, message: str, *, rules: Sequence[str] = (), prueba: Check | None = None, **params) -> None:
        if len(message) > MESSAGE_LENGTH:  # PostgreSQL refuses it at the write; SQLite would keep it
            raise ValueError(f"a logged message is at most {MESSAGE_LENGTH} characters: {message!r}")
        note = self.note.strip()[:NOTE_LENGTH]
        if note and not any(row.kind == SessionEvent.Kind.DECISION for row in self.rows):
            params["note"] = note
        self.rows.append(
            SessionEvent(
                session=self.session, actor=self.actor, kind=SessionEvent.Kind.DECISION, prueba=prueba,
                message=message, params=params, rules=list(rules),
            )
        )

    def cards(self, events: Iterable[dict], before, after, *, prueba: Check | None = None) -> None:
        """Card movements from the engine, each with who may see that card (before or after)."""
        seats: list[str | None] = [None, *after.players]
        visible = {}
        for seat in seats:
            shown = set(visible_to(after, seat))
            if before is not None:
                shown |= visible_to(before, seat)
            visible[seat] = shown
        if before is None or before.phase != after.phase or before.mode != after.mode:
            self.moved_phase = True
        for event in events:
            for zone in (event["from"], event["to"]):
                if zone in rules_session.SHARED_ZONES or zone == rules_session.BOX:
                    self.moved_shared = True
                else:
                    self.moved_seats.add(zone.split(":", 1)[1])
            uid = event["card"]
            seen_by = ["*"] if uid in visible[None] else [s for s in after.players if uid in visible[s]]
            self.rows.append(
                SessionEvent(
                    session=self.session, actor=self.actor, kind=SessionEvent.Kind.CARD, prueba=prueba,
                    card=uid, from_zone=event["from"], to_zone=event["to"], reason=event["reason"],
                    seen_by=seen_by,
                )
            )

    def moved_regions(self) -> set[str]:
        """The regions that the card moves logged so far (:meth:`cards`) change, for an action that
        changes nothing else those regions show (no track, no tally): the Mayor's table; the
        table's zones if a shared zone changed; the phones' own characters of the seats whose zones
        the cards left or entered. A change of phase (or mode) changes every phone's characters (it
        decides what a player sees of their own deck) and the zones (which show the phase). A phone
        whose seat no card touched is not sent its characters again (issue #11: each rendering of a
        push is one viewer's page)."""
        if self.moved_phase:
            return {BOARD, ZONES, ME}
        if not self.moved_seats and not self.moved_shared:
            return set()
        return {BOARD, *([ZONES] if self.moved_shared else []), *(scoped(ME, seat) for seat in self.moved_seats)}

    def flush(self, *, with_rows: list | None = None, updates: list | None = None,
              first: tuple[object, str] | None = None) -> bool:
        """Writes the events (and ``with_rows``, other new rows of the action that no event refers
        to, and ``updates``, ``(instance, fields)`` of rows the action changed: in the same statement
        where the database allows, :func:`frontera.sql.write_together`) and publishes after commit.
        ``first``: ``(a new row, a unique constraint of its model)``, written before the others, which
        may name it (a call's check): if the constraint refuses it (a repeated form), nothing is
        written nor published, and False is returned (:func:`frontera.sql.insert_first_with`)."""
        if self.regions is not None and CHECKS in self.regions:
            self.regions = self.regions | {TABLE}  # a phone shows the open checks in two regions
        if first is None:
            write_together(updates or [], with_rows or [], self.rows)
        else:
            if updates:
                raise ValueError("flush(first=...) writes new rows only")
            if not insert_first_with(*first, with_rows or [], self.rows):
                self.rows = []
                return False
        created, self.rows = self.rows, []
        last = max((e.pk for e in created if e.pk), default=None)
        if last is None:  # backends without RETURNING ids
            last = SessionEvent.objects.filter(session=self.session).aggregate(m=Max("pk"))["m"]
        if last:
            publish_on_commit(session_topic(self.session.pk), last, self.regions,
                              actor=getattr(self.actor, "pk", None))
        return True


def visible_to(state, seat) -> frozenset[str]:
    if seat is not None and seat not in state.players:
        return frozenset()
    return rules_session.visible_cards(state, seat)


def lock_session(session: GameSession, *, by=None, may=None) -> GameSession:
    """The session's row read afresh and locked for the rest of the action's transaction: every table
    action on a session is serialised. Refused once the session has ended.

    With ``may`` (a permission of :mod:`frontera.campaigns.permissions`, such as
    ``can_run_session``), the row is read with ``by``'s role in the campaign, and ``by`` is refused
    (:class:`NotAllowed`) before anything else unless ``may(by, campaign)``: an action whose view
    leaves that check here reads the session once, under the lock, instead of once in the view and
    again here (issue #11: a round trip to the database fewer before the push)."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("lock_session() locks for a transaction: call it inside one.")
    locked = GameSession.objects.row(session.pk, role_of=by if may else None, lock=True)
    if may is not None:
        if locked is None:
            raise NotAllowed
        remember_role(by, locked.campaign_id, locked.viewer_role)
        if not may(by, locked.campaign):
            raise NotAllowed
    if locked is None:
        raise GameSession.DoesNotExist
    if locked.status != GameSession.Status.ACTIVE:
        raise SessionError(E_SESSION_ENDED)
    return locked


def lock_for_request(session: GameSession, model, request_key: str, *, by=None, may=None):
    """:func:`lock_session` (with its ``by`` and ``may``) for an action that makes a ``model`` (a
    :class:`TableRequest`) from a form: the locked session and what ``request_key`` already made in
    it, or ``None`` the first time (no key: ``None``). A double submit of the form returns what the
    first one made.

    The key is read after the lock, in a statement of its own: under PostgreSQL's READ COMMITTED a
    statement sees what was committed before it began, so a key read in the locking statement
    itself missed a simultaneous submit that committed while this one waited for the lock
    (``tests/services/test_one_action_concurrency.py``)."""
    locked = lock_session(session, by=by, may=may)
    return locked, made_by_request(locked, model, request_key)


def made_by_request(session: GameSession, model, request_key: str):
    """What ``request_key`` already made (a ``model``, a :class:`TableRequest`) in ``session``, or
    ``None`` (no key: ``None``). Read in a statement of its own, after the session's lock."""
    if not request_key:
        return None
    found = load(model, _by_request_key_sql(model), (session.pk, request_key))
    return found[0] if found else None


@cache
def _by_request_key_sql(model) -> str:
    """What a form's key made in a session (:func:`frontera.sql.load`: the queryset took ~0.3 ms to
    build, on every action made from a form)."""
    return (f"SELECT * FROM {table(model)} WHERE {column(model, 'session')} = %s "
            f"AND {column(model, 'request_key')} = %s ORDER BY {column(model, 'pk')} LIMIT 1")


def first_submission(session: GameSession, request_key: str) -> bool:
    """One action per form submission (issue #10): True the first time ``request_key`` comes for
    ``session`` (the key is recorded), False for a repeat, whose action is then a no-op answered
    like the success. Call while holding the session's row lock, inside the action's transaction,
    so a refused action keeps no key and can be sent again. No key (a caller without a form): True."""
    if not request_key:
        return True
    if ActionKey.objects.filter(session=session, key=request_key).exists():
        return False
    ActionKey.objects.create(session=session, key=request_key)
    return True


def load_state(session: GameSession) -> rules_session.Session:
    return rules_session.Session.from_json(session.state)


def read_state(session: GameSession) -> rules_session.Session:
    """The session's state for an action that changes nothing of it (a call): not copied, so it
    must not be changed (issue #11: the copy took ~0.2 ms a call)."""
    return rules_session.Session.from_json(session.state, copy=False)


STATE_FIELDS = ("state", "phase", "decks")


def save_state(session: GameSession, state: rules_session.Session) -> None:
    update(*state_kept(session, state))


def state_kept(session: GameSession, state: rules_session.Session) -> tuple[GameSession, tuple[str, ...]]:
    """``state`` put on ``session``, unwritten: ``(session, fields)`` for an action that writes it
    with its other rows (:meth:`EventLog.flush`'s ``updates``)."""
    session.state = state.to_json()
    session.phase = state.phase
    session.decks = state.decks
    return session, STATE_FIELDS


def explain_moves(log: EventLog, events: list[dict], prueba: Check | None) -> None:
    """Decisions the engine took on its own while moving cards (FR-MODE-5, FR-MODE-8)."""
    reasons = {e["reason"] for e in events}
    if "reshuffle" in reasons:
        log.decide(
            gettext_noop("The pile ran short: the shared discard was shuffled into it."),
            rules=["FR-MODE-5"], prueba=prueba,
        )
    if "phase_2" in reasons:
        log.decide(
            gettext_noop("Pile and discard ran out: what was left went to the Tesoro and phase 2 begins."),
            rules=["FR-MODE-5"], prueba=prueba,
        )
    if "recycle" in reasons:
        log.decide(
            gettext_noop("An empty deck: its owner's discards were shuffled back into it."),
            rules=["FR-MODE-8"], prueba=prueba,
        )


def seat_for(session: GameSession, character: Character, seats: set[str]) -> str:
    if character.campaign_id != session.campaign_id:
        raise SessionError(E_NOT_IN_CAMPAIGN)
    if character.kind == Character.Kind.PROTAGONIST:
        key = seat_key(character.pk)
        if key not in seats:
            raise SessionError(E_NOT_PRESENT % {"name": character.name})
        return key
    return MAYOR_SEAT  # NPCs and minions draw from the Mayor's cards


# One answer, whatever the card, to whoever may not see the cards they ask to choose among: the
# answers must not tell a hand or a secret choice apart (FR-CMB-1, FR-OPP-1, FR-MODE-2).
E_NOT_YOUR_HAND = _("Only whoever holds the cards of %(name)s can choose among them.")


def plays_own_seat(session: GameSession, by, seat: str) -> bool:
    """``by`` plays the protagonist whose engine player is ``seat`` at this session (the player's
    side of :func:`frontera.play.selectors.viewer_for`; the Mayor's seat is only ``mayor``)."""

    if seat == MAYOR_SEAT or not seat[1:].isdigit() or is_mayor_of(by, session.campaign):
        return False
    return bool(rows(_own_seat_sql(), (session.pk, int(seat[1:]), by.pk)))


@cache
def _own_seat_sql() -> str:
    """Whether a user plays a character seated at a session (asked by every choice of a player;
    the queryset took ~0.3 ms to build; issue #11)."""
    return (f"SELECT 1 FROM {table(Seat)} INNER JOIN {table(Character)} ON {column(Character, 'pk')} = "
            f"{column(Seat, 'character')} WHERE {column(Seat, 'session')} = %s AND {column(Seat, 'character')} = %s "
            f"AND {column(Character, 'owner')} = %s")


E_NOT_IN_SESSION = _("%(name)s is not at this session.")


def lock_character(session: GameSession, character: Character) -> tuple[Character, rules_characters.Character]:
    """The character row locked, and its sheet; it must be at the session or be an NPC/minion."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    if locked.campaign_id != session.campaign_id:
        raise SessionError(E_NOT_IN_CAMPAIGN)
    if locked.kind == Character.Kind.PROTAGONIST and not Seat.objects.filter(session=session, character=locked).exists():
        raise SessionError(E_NOT_IN_SESSION % {"name": locked.name})
    return locked, rules_characters.Character.from_json(locked.sheet)


def save_sheet(character: Character, sheet: rules_characters.Character) -> None:
    character.sheet = sheet.to_json()
    character.save(update_fields=["sheet", "updated_at"])


def sheet_kept(character: Character, sheet: rules_characters.Character) -> tuple[Character, tuple[str, ...]]:
    """``sheet`` put on ``character``, unwritten: ``(character, fields)`` for an action that writes it
    with its other rows (:meth:`EventLog.flush`'s ``updates``; its ``updated_at`` is set then)."""
    character.sheet = sheet.to_json()
    return character, ("sheet", "updated_at")


def level_name(track: str, level: int) -> str:
    return TRACK_NAMES[track][level]
