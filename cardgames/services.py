"""Every write to a bonus table: one function per thing a person (or a bot) does.

Each runs in one transaction, locks the table's row first (so two clicks, two phones or a person
and a bot never apply two moves for one turn), bumps :attr:`Table.version` and publishes
``table:<id>`` after commit. A move is validated by the engine (``apply`` raises
:class:`~cardgames.engines.IllegalAction`, shown in the user's language); a move posted for a ply
the game has left is refused as stale; a repeated ``request_key`` returns the move already made.
When a bot is to move, :func:`cardgames.tasks.bot_move_task` is queued after commit
(``delay_on_commit``): inline in the embedded default, on a Celery worker otherwise.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import threading
import time

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from cardgames.engines import ENGINE_NAMES, IllegalAction, get
from cardgames.engines.bots import make_bot
from cardgames.models import Move, Seat, Table
from frontera.campaigns.permissions import is_member_of
from frontera.live.bus import publish_on_commit

# How many seats each game takes (the rule books): (fewest, most).
SEAT_RANGE = {"pocobot": (2, 2), "palmera": (2, 2), "boom": (2, 4), "nismatch": (2, 2)}
BOT_STRENGTHS = tuple(Seat.Bot.values)
# The bot that takes over the seat of a person who leaves a game in play.
STAND_IN_BOT = Seat.Bot.GREEDY

E_UNKNOWN_GAME = _("There is no such game.")
E_SEATS = _("This game is played by %(low)s to %(high)s seats.")
E_BAD_BOT = _("Choose the bots' strength among easy, medium and strong.")
E_FIRST_SEAT_BOT = _("You sit in the first seat: it cannot be a bot.")
E_NEEDS_CAMPAIGN = _("A table open to a campaign's members needs one of your campaigns.")
E_NOT_MEMBER = _("You are not a member of that campaign.")
E_OPTIONS = _("Those options do not suit this game.")
E_NOT_INVITED = _("This table is private: you need its invite link to sit at it.")
E_ALREADY_SEATED = _("You already sit at this table.")
E_NO_FREE_SEAT = _("There is no free seat at this table.")
E_SEAT_TAKEN = _("That seat is taken.")
E_NOT_OPEN = _("This table no longer takes players.")
E_NOT_SEATED = _("You do not sit at this table.")
E_NOT_PLAYING = _("This game is not in play.")
E_FINISHED = _("This game is over.")
E_STALE = _("The game moved on while you were choosing: here is the position now. Choose again.")
E_NOT_YOUR_TURN = _("It is not your turn.")
E_MALFORMED = _("That move could not be read. Choose one of the moves offered.")
E_NOT_FINISHED = _("A rematch can only follow a finished game.")


class TableError(ValueError):
    """A refused table action; ``str(err)`` is a message for the user, in their language."""

    def __init__(self, message) -> None:
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.message)


def table_topic(table_id: int) -> str:
    return f"table:{table_id}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def engine_message(game: str, err: IllegalAction) -> str:
    """An engine's refusal in the user's language, worded for a player (cards as they are printed,
    no internal key: :func:`cardgames.presenters.error_message`)."""
    from cardgames.presenters import error_message

    return error_message(game, err)


def _lock(table: Table | int) -> Table:
    """The table's row, locked until the transaction ends (``table``: the table or its pk)."""
    return Table.objects.select_for_update().get(pk=table.pk if isinstance(table, Table) else table)


def _changed(table: Table, *fields: str) -> None:
    """Save ``fields`` with a new version; the topic is published after commit."""
    table.version += 1
    table.save(update_fields=["version", "updated_at", *fields])
    publish_on_commit(table_topic(table.pk), table.version)


def _bots_to_move(table: Table, state: dict, seats: list[Seat] | None = None) -> bool:
    """Whether a bot is among the seats to move; ``seats``: the table's seats, already read under
    its lock (else they are asked for)."""
    movers = set(get(table.game).to_move(state))
    if not movers:
        return False
    if seats is not None:
        return any(s.index in movers and s.bot for s in seats)
    return Seat.objects.filter(table=table, index__in=movers).exclude(bot="").exists()


def _schedule_bots(table: Table, state: dict, seats: list[Seat] | None = None) -> None:
    """Queue the bot's move after commit if a bot is among the seats to move now. The move is
    committed whatever happens to the queueing (a broker away is logged, ``robust``): the bot is
    woken again from the table's page (:func:`table_wake_bot`)."""
    if _bots_to_move(table, state, seats):
        from cardgames.tasks import bot_move_task

        table_id, ply = table.pk, table.ply
        transaction.on_commit(lambda: bot_move_task.delay(table_id, ply), robust=True)


def _start(table: Table) -> None:
    """Every seat is taken: deal (``new_game``) and play. Call holding the table's row lock."""
    engine = get(table.game)
    seats = table.seats.count()
    state = engine.new_game(seats, table.seed, table.options or None)
    table.state = engine.to_json(state)
    table.status = Table.Status.PLAYING
    _changed(table, "state", "status")
    _schedule_bots(table, state)


_seed_sequence: tuple[int, random.Random] | None = None  # (CARDGAMES_SEED, its generator)
_seed_lock = threading.Lock()


def new_seed() -> int:
    """A fresh seed for a new game: secret and random, or, with the setting ``CARDGAMES_SEED`` (a
    test server's environment), the next of ``random.Random(CARDGAMES_SEED)``'s 62-bit numbers, so
    the same tables get the same deals run after run (in-process tests may also replace this)."""
    global _seed_sequence
    base = settings.CARDGAMES_SEED
    if base is None:
        return secrets.randbits(62)
    with _seed_lock:
        if _seed_sequence is None or _seed_sequence[0] != base:
            _seed_sequence = (base, random.Random(base))
        return _seed_sequence[1].getrandbits(62)


def parse_action(raw: str) -> dict:
    """A posted action (JSON text) as a dict, or :class:`TableError`."""
    try:
        action = json.loads(raw)
    except (TypeError, ValueError):
        raise TableError(E_MALFORMED) from None
    if not isinstance(action, dict):
        raise TableError(E_MALFORMED)
    return action


@transaction.atomic
def table_create(*, game: str, by, seats: int, bots: dict[int, str] | None = None, privacy: str = Table.Privacy.PRIVATE,
                 campaign=None, options: dict | None = None, seed: int | None = None) -> tuple[Table, str]:
    """A new table of ``game`` with ``by`` in the first seat; ``bots`` maps seat indexes to a bot
    strength, the other seats wait for people. Returns the table and its invite token (only its
    hash is stored). A table with no free seat starts at once."""
    if game not in ENGINE_NAMES:
        raise TableError(E_UNKNOWN_GAME)
    low, high = SEAT_RANGE[game]
    if not low <= seats <= high:
        raise TableError(E_SEATS % {"low": low, "high": high})
    bots = dict(bots or {})
    if any(strength not in BOT_STRENGTHS or not 0 <= index < seats for index, strength in bots.items()):
        raise TableError(E_BAD_BOT)
    if 0 in bots:
        raise TableError(E_FIRST_SEAT_BOT)
    if privacy not in Table.Privacy.values:
        privacy = Table.Privacy.PRIVATE
    if privacy == Table.Privacy.CAMPAIGN:
        if campaign is None:
            raise TableError(E_NEEDS_CAMPAIGN)
        if not is_member_of(by, campaign):
            raise TableError(E_NOT_MEMBER)
    options = dict(options or {})
    seed = new_seed() if seed is None else seed
    try:
        get(game).new_game(seats, seed, options or None)  # the engine judges the options
    except IllegalAction:
        raise TableError(E_OPTIONS) from None
    token = secrets.token_urlsafe(24)
    table = Table.objects.create(
        game=game, options=options, privacy=privacy, campaign=campaign if privacy == Table.Privacy.CAMPAIGN else None,
        seed=seed, invite_token_hash=hash_token(token), created_by=by,
    )
    Seat.objects.bulk_create(
        Seat(table=table, index=i, user=by if i == 0 else None, bot=bots.get(i, "")) for i in range(seats)
    )
    publish_on_commit(table_topic(table.pk), table.version)
    if not bots.keys() ^ set(range(1, seats)):  # every other seat is a bot
        _start(table)
    return table, token


def invite_matches(table: Table, token: str | None) -> bool:
    return bool(token) and secrets.compare_digest(hash_token(token), table.invite_token_hash)


@transaction.atomic
def table_invite_renew(*, table: Table, by) -> str:
    """A new invite link for the table (the old one stops working); only a seated person may."""
    table = _lock(table)
    if not Seat.objects.filter(table=table, user=by, left=False).exists():
        raise TableError(E_NOT_SEATED)
    token = secrets.token_urlsafe(24)
    table.invite_token_hash = hash_token(token)
    table.save(update_fields=["invite_token_hash", "updated_at"])
    return token


@transaction.atomic
def table_join(*, table: Table, by, token: str | None = None, index: int | None = None) -> Seat:
    """``by`` takes a free seat (``index``, or the first free one): members of the table's campaign
    may; anyone else needs the invite link's ``token``. The last free seat starts the game."""
    table = _lock(table)
    if table.status != Table.Status.OPEN:
        raise TableError(E_NOT_OPEN)
    allowed = invite_matches(table, token) or (
        table.privacy == Table.Privacy.CAMPAIGN and table.campaign is not None and is_member_of(by, table.campaign)
    )
    if not allowed:
        raise TableError(E_NOT_INVITED)
    seats = list(Seat.objects.select_for_update().filter(table=table))
    if any(s.user_id == by.pk for s in seats):
        raise TableError(E_ALREADY_SEATED)
    free = [s for s in seats if s.is_free]
    if index is not None:
        chosen = next((s for s in seats if s.index == index), None)
        if chosen is None or not chosen.is_free:
            raise TableError(E_SEAT_TAKEN)
    elif free:
        chosen = free[0]
    else:
        raise TableError(E_NO_FREE_SEAT)
    chosen.user = by
    chosen.save(update_fields=["user"])
    if len(free) == 1:
        _start(table)
    else:
        _changed(table)
    return chosen


@transaction.atomic
def table_leave(*, table: Table, by) -> Table:
    """``by`` leaves: before the game, the seat is free again (the table is abandoned when no
    person is left); during the game a bot takes over the seat, so the others play on."""
    table = _lock(table)
    seat = Seat.objects.select_for_update().filter(table=table, user=by, left=False).first()
    if seat is None:
        raise TableError(E_NOT_SEATED)
    if table.status == Table.Status.OPEN:
        seat.user = None
        seat.save(update_fields=["user"])
        if not Seat.objects.filter(table=table, user__isnull=False).exists():
            table.status = Table.Status.ABANDONED
        _changed(table, "status")
    elif table.status == Table.Status.PLAYING:
        seat.left = True
        seat.bot = STAND_IN_BOT
        seat.save(update_fields=["left", "bot"])
        if not Seat.objects.filter(table=table, user__isnull=False, left=False).exists():
            table.status = Table.Status.ABANDONED
            _changed(table, "status")
        else:
            _changed(table)
            _schedule_bots(table, get(table.game).from_json(table.state))
    else:
        raise TableError(E_NOT_PLAYING)
    return table


def _lock_with_seats(table: Table | int) -> tuple[Table, list[Seat]]:
    """The table's row, locked until the transaction ends, then its seats, in no order: two reads.
    Not one joined ``FOR UPDATE OF`` the table: on PostgreSQL a statement that waited for the lock
    re-reads only the locked row, and its seats would be those from before the wait (a player who
    had just left could still move, and no stand-in bot would be scheduled). Read after the lock,
    the seats are what the transaction that held it committed."""
    table = _lock(table)
    seats = list(Seat.objects.filter(table=table).order_by())  # no order is needed
    for seat in seats:
        seat.table = table
    return table, seats


def _move_made(table: Table, request_key: str) -> Move | None:
    """The move already made with ``request_key`` at this table, if any."""
    return Move.objects.filter(table=table, request_key=request_key).first() if request_key else None


def table_move(*, table: Table | int, action: dict, ply: int, by=None, bot_seat: int | None = None,
               request_key: str = "") -> Move:
    """Apply ``action`` for ``by``'s seat (or the bot in ``bot_seat``) if the game is still at
    ``ply`` (the ply the page showed) and that seat is to move; the engine validates it. A repeated
    ``request_key`` returns the move it already made and changes nothing. ``table`` may be the
    table or its pk (:class:`Table.DoesNotExist` when there is none): the view passes the pk and
    reads the table for the page only after the commit.

    A move's path to its commit is two reads (the locked table, then its seats), the move and the
    table's update (issue #13's push). The request key is looked for only when the move is refused
    (a repeat comes after its move, so the game has left its ply) or when the move's row collides
    with the key's unique constraint (a repeat posted for the current ply): either way the move
    already made is returned."""
    with transaction.atomic():
        table, seats = _lock_with_seats(table)
        try:
            seat, engine, state = _move_checked(table, seats, action, ply, by, bot_seat)
        except TableError:
            done = _move_made(table, request_key)
            if done is not None:
                return done
            raise
        move = Move(table=table, ply=table.ply, seat=seat.index, action=action,
                    user=by, bot=seat.bot if by is None else "", request_key=request_key)
        if request_key:
            try:
                with transaction.atomic():  # a savepoint: the collision leaves the transaction usable
                    move.save(force_insert=True)
            except IntegrityError:
                done = _move_made(table, request_key)
                if done is None:
                    raise
                return done
        else:
            move.save(force_insert=True)
        table.state = engine.to_json(state)
        table.ply += 1
        if engine.outcome(state) is not None:
            table.status = Table.Status.FINISHED
        _changed(table, "state", "ply", "status")
        if table.status == Table.Status.PLAYING:
            _schedule_bots(table, state, seats)
    return move


def _move_checked(table: Table, seats: list[Seat], action: dict, ply: int, by, bot_seat: int | None):
    """The checks of :func:`table_move` (call holding the table's lock): the mover's seat, the
    engine and the state after the action, or :class:`TableError` saying why not."""
    if table.status == Table.Status.FINISHED:
        raise TableError(E_FINISHED)
    if table.status != Table.Status.PLAYING:
        raise TableError(E_NOT_PLAYING)
    if by is not None:
        seat = next((s for s in seats if s.user_id == by.pk and not s.left), None)
    else:
        seat = next((s for s in seats if s.index == bot_seat and s.bot), None)
    if seat is None:
        raise TableError(E_NOT_SEATED)
    if ply != table.ply:
        raise TableError(E_STALE)
    engine = get(table.game)
    state = engine.from_json(table.state)
    if seat.index not in engine.to_move(state):
        raise TableError(E_NOT_YOUR_TURN)
    if not isinstance(action, dict):
        raise TableError(E_MALFORMED)
    try:
        return seat, engine, engine.apply(state, seat.index, action)
    except IllegalAction as err:
        raise TableError(engine_message(table.game, err)) from err


BOT_STUCK_SECONDS = 30  # a bot to move whose table has not changed for this long may be woken


@transaction.atomic
def table_wake_bot(*, table: Table, by) -> bool:
    """Queue the bot's move again (a task lost with a broker, a worker gone for good): any seated
    person may, once the bot has been "thinking" for :data:`BOT_STUCK_SECONDS`. Harmless when the
    first task still comes: the bot's move is once per ply."""
    table = _lock(table)
    if not Seat.objects.filter(table=table, user=by, left=False).exists():
        raise TableError(E_NOT_SEATED)
    if table.status != Table.Status.PLAYING:
        raise TableError(E_NOT_PLAYING)
    state = get(table.game).from_json(table.state)
    if not _bots_to_move(table, state):
        return False
    _schedule_bots(table, state)
    return True


def bot_choice(table: Table, seat: Seat) -> dict:
    """What the seat's bot plays now: it sees only ``view(state, seat)`` and its legal actions.
    Seeded per table, ply and seat, so a retried task chooses the same move."""
    engine = get(table.game)
    state = engine.from_json(table.state)
    rng = random.Random(f"{table.seed}:{table.ply}:{seat.index}")
    bot = make_bot(engine, seat.bot)
    return bot.choose(engine, engine.view(state, seat.index), seat.index, engine.legal_actions(state, seat.index), rng)


def bot_move(*, table_id: int, ply: int) -> bool:
    """The bot to move at ``ply`` plays (the Celery task's body). Idempotent per ply: if the game
    has left ``ply`` (the move was made by an earlier delivery) or no bot is to move, nothing
    happens. The bot thinks outside any transaction; the move is applied under the row lock."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != Table.Status.PLAYING or table.ply != ply:
        return False
    engine = get(table.game)
    movers = engine.to_move(engine.from_json(table.state))
    seat = Seat.objects.filter(table=table, index__in=movers).exclude(bot="").order_by("index").first()
    if seat is None:
        return False
    started = time.monotonic()
    action = bot_choice(table, seat)
    time.sleep(max(0.0, settings.CARDGAMES_BOT_PAUSE - (time.monotonic() - started)))
    try:
        table_move(table=table, action=action, ply=ply, bot_seat=seat.index)
    except TableError:  # another delivery (or a person) moved first: this ply is played
        return False
    return True


@transaction.atomic
def table_rematch(*, table: Table, by) -> Table:
    """A new game with the same game, options and seats (the people who stayed and the bots); the
    first to ask creates it, the others are led to the same table."""
    table = _lock(table)
    if table.status != Table.Status.FINISHED:
        raise TableError(E_NOT_FINISHED)
    seats = list(table.seats.all())
    if not any(s.user_id == by.pk and not s.left for s in seats):
        raise TableError(E_NOT_SEATED)
    existing = Table.objects.filter(rematch_of=table).first()
    if existing is not None:
        return existing
    rematch = Table.objects.create(
        game=table.game, options=table.options, privacy=table.privacy, campaign=table.campaign,
        seed=new_seed(), invite_token_hash=hash_token(secrets.token_urlsafe(24)), created_by=by,
        rematch_of=table,
    )
    Seat.objects.bulk_create(
        Seat(table=rematch, index=s.index, user=None if s.left else s.user, bot="" if s.user_id and not s.left else s.bot)
        for s in seats
    )
    _start(rematch)
    _changed(table)  # the old table's page now leads to the rematch
    return rematch
