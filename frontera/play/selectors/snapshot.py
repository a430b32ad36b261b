"""What every page of a session reads alike at one state, read once for all of them (issue #11).

A push reaches every page of the session at once, and each asks for the regions it names within a
few milliseconds (``?regions=…``, :func:`frontera.play.views.sessions._regions`). What those regions
show differs per viewer (cards, odds, buttons), but what they are built from does not: the
session's row and engine state, its open and recent checks with their participants, its open
gambles and pending exchanges. A :class:`Snapshot` holds that, read once per state of the session
and process, and each page builds its own view from it, with the same redaction as ever
(:mod:`frontera.play.selectors.pages`).

A state is named by the session's latest event (:func:`frontera.play.selectors.core.feed_stamp`):
every change to a session is logged with its events in the same transaction, and that is what the
live bus already counts on (a push carries that id as the topic's version). The snapshot is read
after its stamp, so it shows that state or a later one, never an earlier one.

Everything in a snapshot is shared between the threads that serve pages, and read only: nothing
built from it may change it (``tests/web/test_session_snapshot.py`` checks that the engine state is
the same after every viewer's regions are built from it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache

from frontera.characters.models import Character
from frontera.play.models import Check, Exchange, Gamble, GameSession
from frontera.play.selectors.checks import session_checks
from frontera.play.selectors.core import live_version_sql
from frontera.play.selectors.exchanges import pending_exchanges
from frontera.play.selectors.gambling import GAMBLES_SHOWN, open_gambles
from frontera.rules import session as rules_session
from frontera.sql import column, load, table

# the session row's fields the pages read (as an action's answer refreshes them)
FIELDS = ("state", "phase", "decks", "status", "tallies")
KEPT = 32  # states kept in this process: a few per session that is being played
_kept: OrderedDict[tuple[int, str], Snapshot] = OrderedDict()
_kept_lock = threading.Lock()
# one reading of a state at a time: the pages that ask together wait for it instead of each reading
# it (striped, as the feed's rendering is: frontera/play/views/sessions.py)
_reading = [threading.Lock() for _ in range(16)]


@dataclass(frozen=True)
class Snapshot:
    stamp: str
    fields: dict  # FIELDS of the session's row
    state: rules_session.Session
    open_checks: list[Check]
    recent_checks: list[Check]
    gambles: tuple[list[Gamble], dict[int, Character]]
    exchanges: list[Exchange]

    def refresh(self, session: GameSession) -> None:
        """Give ``session`` (this request's own object) the row's fields as the snapshot read them."""
        for name, value in self.fields.items():
            setattr(session, name, value)


def session_snapshot(session: GameSession, stamp: str) -> Snapshot:
    """The snapshot of ``session`` at ``stamp``, read now if no request of this process has yet."""
    key = (session.pk, stamp)
    with _kept_lock:
        found = _kept.get(key)
    if found is not None:
        return found
    with _reading[hash(key) % len(_reading)]:
        with _kept_lock:
            found = _kept.get(key)
        if found is None:
            found = _read(session, stamp)
            with _kept_lock:
                _kept[key] = found
                while len(_kept) > KEPT:
                    _kept.popitem(last=False)
    return found


def _read(session: GameSession, stamp: str) -> Snapshot:
    # the row, and whether any gamble or exchange is open: most states have none, and then they are
    # not asked for (two queries fewer for the answer and the pages of such a state)
    [row] = load(GameSession, _row_sql(), (str(Gamble.Status.OPEN), *map(str, GAMBLES_SHOWN),
                                         str(Exchange.Status.PENDING), session.pk))
    fields = {name: getattr(row, name) for name in FIELDS}
    # every open check knows whether another action owns it (the Mayor's withdrawals); a player's
    # page offers no withdrawal whatever it says (selectors.checks.check_rows)
    open_checks, recent = session_checks(session)
    return Snapshot(stamp=stamp, fields=fields, state=rules_session.Session.from_json(fields["state"]),
                    open_checks=open_checks, recent_checks=recent,
                    gambles=open_gambles(session) if row.any_gamble else ([], {}),
                    exchanges=pending_exchanges(session) if row.any_exchange else [])


@cache
def _row_sql() -> str:
    """The session's row (its :data:`FIELDS`) with whether a gamble it shows is open and whether an
    exchange is pending, loaded by :func:`frontera.sql.load` (the queryset took ~0.5 ms
    to build, on every action's answer). Parameters: the open status, the kinds shown, the pending
    status, the session's id."""
    columns = ", ".join(column(GameSession, name) for name in ("pk", *FIELDS))
    gamble = _any_open(Gamble, kinds=len(GAMBLES_SHOWN))
    exchange = _any_open(Exchange)
    return (f"SELECT {columns}, {gamble} AS any_gamble, {exchange} AS any_exchange FROM {table(GameSession)} "
            f"WHERE {column(GameSession, 'pk')} = %s")


def fresh_row(session_id: int) -> tuple[dict, int]:
    """The session's :data:`FIELDS` as they are now, and its live version (its latest event's id),
    read together: what an action's answer other than ``#checks`` shows (``views.common.region``).
    Loaded by :func:`frontera.sql.load` (the queryset took ~0.4 ms to build)."""
    [row] = load(GameSession, _fresh_sql(), (session_id,))
    return {name: getattr(row, name) for name in FIELDS}, row.live_version or 0


@cache
def _fresh_sql() -> str:
    columns = ", ".join(column(GameSession, name) for name in ("pk", *FIELDS))
    return (f"SELECT {columns}, ({live_version_sql()}) AS live_version FROM {table(GameSession)} "
            f"WHERE {column(GameSession, 'pk')} = %s")


def _any_open(model, *, kinds: int = 0) -> str:
    """Whether the session has a ``model`` row in a status (a parameter), and of one of ``kinds``
    kinds (as many parameters) if any are named."""
    sql = (f"EXISTS (SELECT 1 FROM {table(model)} WHERE {column(model, 'session')} = "
           f"{column(GameSession, 'pk')} AND {column(model, 'status')} = %s")
    if kinds:
        sql += f" AND {column(model, 'kind')} IN ({', '.join(['%s'] * kinds)})"
    return sql + ")"


def forget() -> None:
    """Drop every snapshot of this process (tests)."""
    with _kept_lock:
        _kept.clear()
