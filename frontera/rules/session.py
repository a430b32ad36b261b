"""The session deck: where every physical card of a Frontera session is (FR-MODE, FR-CARD-4/5).

A :class:`Session` holds every card of the session, by uid (``"1:10S"``, ``"2:JK1"``), in exactly
one zone:

========================  =====================================================================
zone name                 what it is
========================  =====================================================================
``pile``                  the shared pile (montón); Sin gestión's one shared deck
``discard``               the shared discard (Normal, phase 1)
``treasure``              the treasure deck (mazo del Tesoro)
``dead_mans_hand``        A♠ A♥ 8♣ 8♦ set aside (FR-CARD-5)
``out_of_play``           cards in the session's decks that take no part (an extra deck's rest)
``deck:<player>``         a player's own deck (draw pile)
``discard:<player>``      a player's own discard
``pending:<player>``      cards a player drew for a check still open (the event says which)
========================  =====================================================================

Every list is a pile whose **top is its end** (``pile[-1]`` is drawn first). The Mayor is a
player like the others (FR-MODE-2); :attr:`Session.mayor` says which key is theirs.

Operations never modify their input: they return ``(new_state, events)``, where each event is
``{"card": uid, "from": zone, "to": zone, "reason": str, "check": check_id or None}``. Bad input
raises :class:`~frontera.rules.errors.RulesError` and changes nothing.

>>> import random
>>> s = new_session("normal", ["ana", "bo", "mayor"], "mayor", rng=random.Random(1))
>>> s.phase, len(s.dead_mans_hand), [len(s.player_decks[p]) for p in s.players]
(1, 4, [8, 8, 8])
>>> len(s.pile)  # 54 cards, 4 set aside, 24 dealt
26
>>> s, events = draw_for_check(s, "ana", 3, "c1", random.Random(2))
>>> len(s.pending["ana"]["c1"]["cards"]), events[0]["from"], events[0]["to"]
(3, 'pile', 'pending:ana')
>>> played = s.pending["ana"]["c1"]["cards"][0]
>>> s, events = play_cards(s, "ana", "c1", [played])
>>> played in s.player_decks["ana"], len(s.discard)
(True, 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from frontera.rules.cards import RANKS, SUITS, Card, dead_mans_hand, physical_deck
from frontera.rules.dead_mans_hand import check_dead_mans_hand_count
from frontera.rules.errors import RulesError, gettext_noop, ngettext
from frontera.rules.state import copy_json

NORMAL, SIN_GESTION, CON_DESGASTE = "normal", "sin_gestion", "con_desgaste"
MODES: tuple[str, ...] = (NORMAL, SIN_GESTION, CON_DESGASTE)

PILE, DISCARD, TREASURE, DEAD_MANS_HAND, OUT_OF_PLAY = (
    "pile",
    "discard",
    "treasure",
    "dead_mans_hand",
    "out_of_play",
)
SHARED_ZONES: tuple[str, ...] = (PILE, DISCARD, TREASURE, DEAD_MANS_HAND, OUT_OF_PLAY)
BOX = "box"  # where the cards of a deck added mid-session come from (not a zone)

DEAL_SIZE = 8  # FR-MODE-2, FR-MODE-9
PLAYERS_PER_DECK = 4  # FR-CARD-4
REST_CARDS_PER_HOUR = 8  # FR-MODE-11
MAX_JOKERS = 2

E_BAD_MODE = gettext_noop("“%(mode)s” is not a mode: use normal, sin_gestion or con_desgaste.")
E_BAD_PLAYER_KEY = gettext_noop("“%(player)s” is not a valid player name.")
E_DUPLICATE_PLAYER = gettext_noop("%(player)s is already playing in this session.")
E_UNKNOWN_PLAYER = gettext_noop("%(player)s is not playing in this session.")
E_BAD_DECKS = gettext_noop("A session needs at least one deck, not %(decks)s.")
E_DECKS_FIXED = gettext_noop(
    "In Con desgaste every player has exactly one deck; the number of decks is not chosen."
)
E_BAD_JOKERS = gettext_noop("A deck has 0, 1 or 2 jokers, not %(jokers)s.")
E_BAD_TREASURE_CARDS = gettext_noop("The treasure can be seeded with 0 to %(most)s cards, not %(count)s.")
E_NORMAL_SETUP_ONLY = gettext_noop(
    "Skipping phase 1 and seeding the treasure are only possible in Normal mode."
)
E_NOT_ENOUGH_CARDS = ngettext(
    "%(decks)s deck is not enough to deal 8 cards to each of %(players)s players: add a deck.",
    "%(decks)s decks are not enough to deal 8 cards to each of %(players)s players: add a deck.",
    "decks",
)
E_BAD_COUNT = gettext_noop("The number of cards must be a whole number, 0 or more, not %(count)s.")
E_BAD_CHECK_ID = gettext_noop("“%(check)s” is not a valid check name.")
E_CHECK_PENDING = gettext_noop("%(player)s already has cards drawn for check %(check)s.")
E_UNKNOWN_CHECK = gettext_noop("%(player)s has no cards drawn for check %(check)s.")
E_NO_CARD_CHOSEN = gettext_noop("Choose at least one card to play.")
E_NOT_DRAWN = gettext_noop("%(card)s was not drawn in this check.")
E_REPEATED_CARD = gettext_noop("%(card)s was chosen more than once.")
E_WRONG_MODE = gettext_noop("This is only possible in %(mode)s mode.")
E_NOT_PHASE_1 = gettext_noop("The session is already in phase 2.")
E_MAYOR_STAYS = gettext_noop("The Mayor cannot leave the game.")
E_BAD_PER_PLAYER = gettext_noop("A late joiner takes 1, 2 or 3 cards from each other player, not %(count)s.")
E_BAD_HOURS = gettext_noop("Hours of rest must be a whole number, 0 or more, not %(hours)s.")
E_DMH_FROM_MAYOR = gettext_noop("In Con desgaste the dead man's hand comes out of the Mayor's deck.")
E_NOT_IN_SESSION = gettext_noop("%(card)s is not a card of this session.")
E_UNDO_CARD_MOVED = gettext_noop("%(card)s has moved since: the action can no longer be taken back.")


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------


@dataclass
class Session:
    """Where every card of a session is. Plain data; see the module docstring for the zones.

    ``pending[player][check_id] = {"cards": [...], "phase": 1 | 2 | None}`` (the phase the cards
    were drawn in, Normal mode only). ``known[player]`` lists the cards in private zones that the
    player has been allowed to see in phase 1 (FR-MODE-2, FR-EXCH-7, FR-SOB-1).
    """

    mode: str
    phase: int | None  # 1 or 2 in Normal mode, None in the other modes
    mayor: str
    players: list[str]
    decks: int  # physical decks in the session, numbered 1..decks
    jokers: int
    pile: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    treasure: list[str] = field(default_factory=list)
    dead_mans_hand: list[str] = field(default_factory=list)
    out_of_play: list[str] = field(default_factory=list)
    player_decks: dict[str, list[str]] = field(default_factory=dict)
    player_discards: dict[str, list[str]] = field(default_factory=dict)
    pending: dict[str, dict[str, dict]] = field(default_factory=dict)
    known: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict:
        """A JSON-serialisable deep copy; :meth:`from_json` restores an equal session. Every field
        is JSON data (no dataclass within), copied as such: ``asdict`` took twice as long (issue #11)."""
        return {name: copy_json(getattr(self, name)) for name in _SESSION_FIELDS}

    @classmethod
    def from_json(cls, data: dict, *, copy: bool = True) -> Session:
        """A session holding a deep copy of ``data`` (what :meth:`to_json` or a JSON decoder gives).
        ``copy=False``: holding ``data`` itself, for a caller that only reads the session; neither
        may then be changed."""
        return cls(**(copy_json(data) if copy else data))

    def copy(self) -> Session:
        return Session(**self.to_json())  # to_json's result is a deep copy already

    def shared(self, name: str) -> list[str]:
        """The list of a shared zone (``"pile"``, ``"discard"``...)."""
        return getattr(self, name)

    @property
    def protagonists(self) -> list[str]:
        return [p for p in self.players if p != self.mayor]


_SESSION_FIELDS = tuple(f.name for f in fields(Session))


def _deck_uids(deck: int, jokers: int) -> list[str]:
    return [card.uid for card in physical_deck(deck, jokers=jokers)]


def all_cards(state: Session) -> list[str]:
    """Every card the session's physical decks hold, in a fixed order (the zones' multiset)."""
    return [uid for deck in range(1, state.decks + 1) for uid in _deck_uids(deck, state.jokers)]


def deck_zone(player: str) -> str:
    return f"deck:{player}"


def discard_zone(player: str) -> str:
    return f"discard:{player}"


def pending_zone(player: str) -> str:
    return f"pending:{player}"


def zones(state: Session) -> dict[str, list[str]]:
    """Every zone and its cards (pending checks of a player are listed together)."""
    result = {name: list(state.shared(name)) for name in SHARED_ZONES}
    for p in state.players:
        result[deck_zone(p)] = list(state.player_decks[p])
        result[discard_zone(p)] = list(state.player_discards[p])
        result[pending_zone(p)] = [uid for e in state.pending[p].values() for uid in e["cards"]]
    return result


def zone_of(state: Session, uid: str) -> str:
    """The zone that holds card ``uid``."""
    for name, cards in zones(state).items():
        if uid in cards:
            return name
    raise RulesError(E_NOT_IN_SESSION, card=uid)


def owned_cards(state: Session, player: str) -> list[str]:
    """FR-EXCH-1: the cards a player owns for exchanges, their deck (draw pile) plus own discard."""
    check_player(state, player)
    return state.player_decks[player] + state.player_discards[player]


def drawn_cards(state: Session, player: str, check_id: str) -> list[str]:
    """The cards ``player`` drew for ``check_id`` and has not yet played or settled."""
    return list(_pending_entry(state, player, check_id)["cards"])


def card_sort_key(uid: str) -> tuple[int, int, int, int]:
    """A stable, readable order for showing cards: deck, suit, rank (jokers last)."""
    card = Card.from_uid(uid)
    if card.is_joker:
        return (card.deck, len(SUITS), 0, card.copy)
    return (card.deck, SUITS.index(card.suit), RANKS.index(card.rank), 0)


# --------------------------------------------------------------------------------------------
# Validation and the one internal way to move a card
# --------------------------------------------------------------------------------------------


def _check_key(player: object) -> str:
    if not isinstance(player, str) or not player.strip():
        raise RulesError(E_BAD_PLAYER_KEY, player=player)
    return player


def check_player(state: Session, player: object) -> str:
    """Return ``player`` if it plays in ``state``; else a readable error."""
    if not isinstance(player, str) or player not in state.players:
        raise RulesError(E_UNKNOWN_PLAYER, player=player)
    return player


def check_count(count: object, error: str = E_BAD_COUNT, **extra: object) -> int:
    """A whole number of cards, 0 or more (bools are not numbers here)."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise RulesError(error, count=count, **extra)
    return count


_MODE_LABEL = {NORMAL: "Normal", SIN_GESTION: "Sin gestión", CON_DESGASTE: "Con desgaste"}


def check_mode(state: Session, *modes: str) -> None:
    """Raise unless the session plays one of ``modes``."""
    if state.mode not in modes:
        raise RulesError(E_WRONG_MODE, mode=" / ".join(_MODE_LABEL[m] for m in modes))


def check_distinct(uids: Iterable[object]) -> list[str]:
    """A list of card uids with no repeats (FR-CHK-2: a card is played once)."""
    seen: list[str] = []
    for uid in uids:
        if uid in seen:
            raise RulesError(E_REPEATED_CARD, card=uid)
        seen.append(uid)  # type: ignore[arg-type]
    return seen


def _zone_list(state: Session, zone: str, check: str | None) -> list[str]:
    if zone in SHARED_ZONES:
        return state.shared(zone)
    kind, player = zone.split(":", 1)
    if kind == "deck":
        return state.player_decks[player]
    if kind == "discard":
        return state.player_discards[player]
    return state.pending[player][check]["cards"]


def move(state: Session, uid: str, src: str, dst: str, reason: str, check: str | None = None) -> dict:
    """Move one card (unchecked, on a state the caller owns) and return its event.

    ``src`` may be :data:`BOX` for a card entering the session with a new deck. The card is put
    on top of ``dst``; whatever any player had been allowed to see of it is forgotten.
    """
    if src != BOX:
        _zone_list(state, src, check).remove(uid)
    _zone_list(state, dst, check).append(uid)
    for seen in state.known.values():
        if uid in seen:
            seen.remove(uid)
    return {"card": uid, "from": src, "to": dst, "reason": reason, "check": check}


def move_all(
    state: Session, uids: Iterable[str], src: str, dst: str, reason: str, check: str | None = None
) -> list[dict]:
    return [move(state, uid, src, dst, reason, check) for uid in list(uids)]


def learn(state: Session, player: str, uids: Iterable[str]) -> None:
    """Let ``player`` see these cards while they stay where they are (FR-EXCH-7, FR-SOB-1)."""
    state.known[player] = sorted(set(state.known.get(player, [])) | set(uids), key=card_sort_key)


def _register(state: Session, player: str) -> None:
    state.players.append(player)
    state.player_decks[player] = []
    state.player_discards[player] = []
    state.pending[player] = {}
    state.known[player] = []


# --------------------------------------------------------------------------------------------
# Setup (FR-CARD-4, FR-CARD-5, FR-MODE-1..3, 6, 10, 11)
# --------------------------------------------------------------------------------------------


def default_decks(players: int) -> int:
    """FR-CARD-4: one deck per 4 players (the Mayor counts as a player)."""
    return max(1, -(-players // PLAYERS_PER_DECK))


def new_session(
    mode: str,
    players: list[str],
    mayor: str,
    *,
    decks: int | None = None,
    jokers: int = 2,
    skip_phase_1: bool = False,
    dead_mans_hand_from_extra_deck: bool = False,
    treasure_cards: int = 0,
    rng: random.Random,
) -> Session:
    """Set up the cards of a new session (FR-MODE-1, FR-CARD-4, FR-CARD-5).

    ``players`` are the seats' keys; the ``mayor`` key is added if it is not among them.

    - Normal (FR-MODE-2, 3): the dead man's hand is set aside, then 8 random cards are dealt face
      down into every player's deck, the Mayor's included; the rest is the pile; the treasure is
      empty unless ``treasure_cards`` random cards of an extra deck seed it. ``skip_phase_1``
      deals every card at random among the players and starts phase 2 (FR-MODE-6).
    - Sin gestión (FR-MODE-10): one shared deck (``decks`` defaults to 1) is the pile.
    - Con desgaste (FR-MODE-11): every player has a full deck of their own, shuffled; the dead
      man's hand comes out of the Mayor's.

    ``dead_mans_hand_from_extra_deck`` takes the dead man's hand from an extra deck, leaving the
    play decks whole (FR-CARD-5). An extra deck's unused cards are ``out_of_play``.
    """
    if mode not in MODES:
        raise RulesError(E_BAD_MODE, mode=mode)
    seats = [_check_key(p) for p in players]
    _check_key(mayor)
    if mayor not in seats:
        seats.append(mayor)
    check_distinct_players(seats)
    if not isinstance(jokers, int) or isinstance(jokers, bool) or not 0 <= jokers <= MAX_JOKERS:
        raise RulesError(E_BAD_JOKERS, jokers=jokers)
    if mode != NORMAL and (skip_phase_1 or treasure_cards):
        raise RulesError(E_NORMAL_SETUP_ONLY)
    if mode == CON_DESGASTE and dead_mans_hand_from_extra_deck:
        raise RulesError(E_DMH_FROM_MAYOR)
    if mode == CON_DESGASTE:
        if decks is not None and decks != len(seats):
            raise RulesError(E_DECKS_FIXED)
        decks = len(seats)
    elif decks is None:
        decks = 1 if mode == SIN_GESTION else default_decks(len(seats))
    if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
        raise RulesError(E_BAD_DECKS, decks=decks)

    uses_extra = bool(dead_mans_hand_from_extra_deck or treasure_cards)
    total = decks + (1 if uses_extra else 0)
    state = Session(
        mode=mode,
        phase=1 if mode == NORMAL else None,
        mayor=mayor,
        players=[],
        decks=total,
        jokers=jokers,
    )
    for p in seats:
        _register(state, p)

    extra = _deck_uids(total, jokers) if uses_extra else []
    most = len(extra) - (4 if dead_mans_hand_from_extra_deck else 0) if uses_extra else 0
    check_count(treasure_cards, E_BAD_TREASURE_CARDS, most=most)
    if treasure_cards > most:
        raise RulesError(E_BAD_TREASURE_CARDS, count=treasure_cards, most=most)

    if mode == CON_DESGASTE:
        for number, p in enumerate(seats, start=1):
            state.player_decks[p] = _deck_uids(number, jokers)
        dmh_deck = seats.index(mayor) + 1
        dmh_home = state.player_decks[mayor]
    else:
        state.pile = [uid for d in range(1, decks + 1) for uid in _deck_uids(d, jokers)]
        dmh_deck = total if dead_mans_hand_from_extra_deck else 1
        dmh_home = extra if dead_mans_hand_from_extra_deck else state.pile
    for card in dead_mans_hand(dmh_deck):
        dmh_home.remove(card.uid)
        state.dead_mans_hand.append(card.uid)

    if extra:
        rng.shuffle(extra)
        state.treasure = extra[:treasure_cards]
        state.out_of_play = extra[treasure_cards:]
    for deck in state.player_decks.values():
        rng.shuffle(deck)
    rng.shuffle(state.pile)

    if mode == NORMAL:
        if skip_phase_1:
            _deal_everything(state)
        else:
            if len(state.pile) < DEAL_SIZE * len(seats):
                raise RulesError(E_NOT_ENOUGH_CARDS, decks=decks, players=len(seats))
            for p in seats:
                for _ in range(DEAL_SIZE):
                    state.player_decks[p].append(state.pile.pop())
    return state


def check_distinct_players(seats: list[str]) -> None:
    for i, p in enumerate(seats):
        if p in seats[:i]:
            raise RulesError(E_DUPLICATE_PLAYER, player=p)


def _deal_everything(state: Session) -> None:
    """FR-MODE-6: the (shuffled) pile is dealt round the table, then phase 2 starts."""
    seats = state.players
    for i, uid in enumerate(reversed(state.pile)):
        state.player_decks[seats[i % len(seats)]].append(uid)
    state.pile = []
    state.phase = 2


# --------------------------------------------------------------------------------------------
# Checks (FR-MODE-4, 5, 7, 8, 10, 11)
# --------------------------------------------------------------------------------------------


def _pending_entry(state: Session, player: str, check_id: object) -> dict:
    check_player(state, player)
    entry = state.pending[player].get(check_id) if isinstance(check_id, str) else None
    if entry is None:
        raise RulesError(E_UNKNOWN_CHECK, player=player, check=check_id)
    return entry


RESHUFFLE, PHASE_2 = "reshuffle", "phase_2"


def _phase_1_step(state: Session, count: int) -> str | None:
    """FR-MODE-5: what a phase-1 draw of ``count`` cards must do first, if anything."""
    if not count or state.mode != NORMAL or state.phase != 1 or count <= len(state.pile):
        return None
    return RESHUFFLE if count <= len(state.pile) + len(state.discard) else PHASE_2


def _draws_from_own_deck(state: Session, phase: int | None) -> bool:
    return state.mode == CON_DESGASTE or (state.mode == NORMAL and phase == 2)


def _recycles(state: Session, player: str, count: int) -> bool:
    """FR-MODE-8 ruling: only a Normal phase-2 deck that is empty at the start gets its discard back."""
    return bool(count) and state.mode == NORMAL and not state.player_decks[player]


def draw_zone(state: Session, player: str, count: int) -> tuple[str, list[str]]:
    """The zone a draw of ``count`` for ``player`` would come from right now, and its cards, without
    drawing: ``"pile"`` (with the shared discard when it would be shuffled in, FR-MODE-5), the
    player's deck, or their discard when an empty deck takes it back (FR-MODE-8). The caller decides
    who may be told which cards (see :func:`visible_cards`); the zone's name and size are public."""
    check_player(state, player)
    check_count(count)
    step = _phase_1_step(state, count)
    if step == RESHUFFLE:
        return PILE, state.pile + state.discard
    if not _draws_from_own_deck(state, 2 if step == PHASE_2 else state.phase):
        return PILE, list(state.pile)
    if _recycles(state, player, count):
        return discard_zone(player), list(state.player_discards[player])
    return deck_zone(player), list(state.player_decks[player])


def draw_source(state: Session, player: str, count: int) -> list[str]:
    """The cards a draw of ``count`` for ``player`` would come from right now (:func:`draw_zone`)."""
    return draw_zone(state, player, count)[1]


def draw_for_check(
    state: Session, player: str, count: int, check_id: str, rng: random.Random
) -> tuple[Session, list[dict]]:
    """Draw up to ``count`` cards for ``player``'s check ``check_id``; they wait in ``pending``.

    - Normal, phase 1 (FR-MODE-4, 5): from the shared pile. If it is short, the shared discard is
      shuffled into it; if pile and discard together are short, both go to the treasure, phase 2
      begins and the check is drawn in phase 2.
    - Normal, phase 2 (FR-MODE-7, 8): from the player's deck, shuffled first; only what is there.
      Only an empty deck gets the player's discard shuffled back in.
    - Sin gestión (FR-MODE-10): from the shared deck, shuffled first; Con desgaste (FR-MODE-11):
      from the player's deck, shuffled first, never refilled from the discard (see :func:`rest`).

    ``count == 0`` draws nothing (FR-CHK-1: the caller fails the check) but still opens the check,
    to be closed with :func:`settle_check`. A negative count raises.
    """
    check_player(state, player)
    check_count(count)
    if not isinstance(check_id, str) or not check_id.strip():
        raise RulesError(E_BAD_CHECK_ID, check=check_id)
    if check_id in state.pending[player]:
        raise RulesError(E_CHECK_PENDING, player=player, check=check_id)
    state = state.copy()
    events: list[dict] = []
    step = _phase_1_step(state, count)
    if step == RESHUFFLE:
        events += move_all(state, state.discard, DISCARD, PILE, "reshuffle")
        rng.shuffle(state.pile)
    elif step == PHASE_2:
        events += _start_phase_2(state)

    state.pending[player][check_id] = {"cards": [], "phase": state.phase}
    source = PILE
    if _draws_from_own_deck(state, state.phase):
        source = deck_zone(player)
        if _recycles(state, player, count):
            events += move_all(state, state.player_discards[player], discard_zone(player), source, "recycle")
    cards = _zone_list(state, source, None)
    if count and (source != PILE or state.mode == SIN_GESTION):
        rng.shuffle(cards)  # FR-MODE-7, 10, 11: shuffled before every check
    for _ in range(min(count, len(cards))):
        events.append(move(state, cards[-1], source, pending_zone(player), "draw", check_id))
    return state, events


def _start_phase_2(state: Session) -> list[dict]:
    """FR-MODE-5: what is left of the pile and the shared discard goes to the treasure."""
    events = move_all(state, reversed(state.pile), PILE, TREASURE, "phase_2")
    events += move_all(state, state.discard, DISCARD, TREASURE, "phase_2")
    state.phase = 2
    for seen in state.known.values():
        seen.clear()  # from now on every player sees their own deck
    return events


def switch_to_phase_2(state: Session) -> tuple[Session, list[dict]]:
    """The GM ends phase 1 early (FR-MODE-5): pile and shared discard go to the treasure."""
    check_mode(state, NORMAL)
    if state.phase != 1:
        raise RulesError(E_NOT_PHASE_1)
    state = state.copy()
    return state, _start_phase_2(state)


def _destinations(state: Session, player: str, entry: dict) -> tuple[str, str]:
    """Where played and unchosen cards of a check go: FR-MODE-4, 7, 10, 11."""
    if state.mode == SIN_GESTION:
        return PILE, PILE
    if state.mode == NORMAL and entry["phase"] == 1:
        # RULING: a phase-1 check still open when phase 2 began sends its unchosen cards to the
        # treasure, where the rest of the shared cards went (FR-MODE-5).
        return deck_zone(player), DISCARD if state.phase == 1 else TREASURE
    return discard_zone(player), deck_zone(player)


def _close_check(state: Session, player: str, check_id: str, played: list[str], reason: str) -> list[dict]:
    entry = state.pending[player][check_id]
    to_played, to_unchosen = _destinations(state, player, entry)
    unchosen = [uid for uid in entry["cards"] if uid not in played]
    src = pending_zone(player)
    events = move_all(state, played, src, to_played, "played", check_id)
    events += move_all(state, unchosen, src, to_unchosen, reason, check_id)
    del state.pending[player][check_id]
    if to_played == deck_zone(player) and state.phase == 1:
        learn(state, player, played)  # the player chose them: FR-MODE-4 keeps them in sight
    return events


def play_cards(
    state: Session, player: str, check_id: str, played_uids: list[str]
) -> tuple[Session, list[dict]]:
    """``player`` plays the chosen card(s) of check ``check_id``; the rest are unchosen.

    Normal phase 1: played → the player's deck, unchosen → the shared discard (FR-MODE-4).
    Normal phase 2 and Con desgaste: played → own discard, unchosen → own deck (FR-MODE-7, 11).
    Sin gestión: everything back to the shared deck, reshuffled before the next draw (FR-MODE-10).
    """
    entry = _pending_entry(state, player, check_id)
    if isinstance(played_uids, str) or not isinstance(played_uids, (list, tuple)):
        raise RulesError(E_NO_CARD_CHOSEN)
    played = check_distinct(played_uids)
    if not played:
        raise RulesError(E_NO_CARD_CHOSEN)
    for uid in played:
        if uid not in entry["cards"]:
            raise RulesError(E_NOT_DRAWN, card=uid)
    state = state.copy()
    return state, _close_check(state, player, check_id, played, "unchosen")


def settle_check(
    state: Session, player: str, check_id: str, reason: str = "cancelled"
) -> tuple[Session, list[dict]]:
    """Close a check with no card played (automatic failure, cancelled): every drawn card goes
    where unchosen cards go (FR-MODE-4, 7, 10, 11)."""
    _pending_entry(state, player, check_id)
    state = state.copy()
    return state, _close_check(state, player, check_id, [], reason)


# --------------------------------------------------------------------------------------------
# Players joining and leaving, rest, dead man's hand (FR-MODE-9, FR-MODE-11, FR-EXCH-4, FR-CHK-6)
# --------------------------------------------------------------------------------------------


def join_with_new_deck(
    state: Session, player: str, rng: random.Random, *, return_to_phase_1: bool = False
) -> tuple[Session, list[dict]]:
    """A late joiner arrives with a new deck (FR-MODE-9).

    Normal: the newcomer takes 8 random cards of the new deck. In phase 1 the rest is shuffled
    into the pile (phase 1 lasts longer). In phase 2 the rest becomes a new pile and the session
    returns to phase 1 if ``return_to_phase_1``; otherwise (RULING) it is put away, out of play.
    Sin gestión: the deck joins the shared deck. Con desgaste: the deck is the newcomer's own.
    """
    _check_key(player)
    if player in state.players:
        raise RulesError(E_DUPLICATE_PLAYER, player=player)
    state = state.copy()
    state.decks += 1
    new = _deck_uids(state.decks, state.jokers)
    rng.shuffle(new)
    _register(state, player)
    own = deck_zone(player)
    if state.mode == CON_DESGASTE:
        return state, [move(state, uid, BOX, own, "late_joiner") for uid in new]
    if state.mode == SIN_GESTION:
        return state, [move(state, uid, BOX, PILE, "new_deck") for uid in new]
    events = [move(state, uid, BOX, own, "late_joiner") for uid in new[:DEAL_SIZE]]
    if state.phase == 2 and return_to_phase_1:
        state.phase = 1
        for p in state.players:
            learn(state, p, owned_cards(state, p) if p != player else [])  # seen in phase 2
    rest_zone = PILE if state.phase == 1 else OUT_OF_PLAY
    events += [move(state, uid, BOX, rest_zone, "new_deck") for uid in new[DEAL_SIZE:]]
    if rest_zone == PILE:
        rng.shuffle(state.pile)
    return state, events


def join_from_players(
    state: Session, player: str, per_player: int, rng: random.Random
) -> tuple[Session, list[dict]]:
    """A late joiner takes ``per_player`` (1-3, chosen by the GM) random cards from every other
    player's deck, the Mayor's included (FR-MODE-9); fewer from a player who has fewer.
    The cards come from deck or own discard and go to the newcomer's deck (FR-EXCH-1)."""
    _check_key(player)
    if player in state.players:
        raise RulesError(E_DUPLICATE_PLAYER, player=player)
    check_count(per_player, E_BAD_PER_PLAYER)
    if not 1 <= per_player <= 3:
        raise RulesError(E_BAD_PER_PLAYER, count=per_player)
    state = state.copy()
    others = list(state.players)
    _register(state, player)
    events: list[dict] = []
    for other in others:
        taken = rng.sample(owned_cards(state, other), min(per_player, len(owned_cards(state, other))))
        events += [transfer(state, uid, other, player, "late_joiner") for uid in taken]
    return state, events


def transfer(state: Session, uid: str, giver: str, receiver: str, reason: str) -> dict:
    """Move one owned card (deck or own discard) to another player's deck (FR-EXCH-1)."""
    src = deck_zone(giver) if uid in state.player_decks[giver] else discard_zone(giver)
    return move(state, uid, src, deck_zone(receiver), reason)


def take_back(state: Session, events: Iterable[dict], rng: random.Random) -> tuple[Session, list[dict]]:
    """Take back the card movements of one of the Mayor's table actions (his undo, issue #10).

    Each card goes from where the action left it straight back to where it was before the action
    (its first ``from``), with the reason ``"undo"``; a card that has moved since raises. RULING
    (docs/sessions.md): a card put back into the shared pile is shuffled in with the pile, so a
    card the action showed (a threat's card, FR-MOR-3) cannot be known to lie on top; a player's
    deck needs no shuffle, since it is shuffled before every draw from it (FR-MODE-7, 10, 11).
    """
    net: dict[str, list[str]] = {}
    for event in events:
        net.setdefault(event["card"], [event["from"], event["to"]])[1] = event["to"]
    state = state.copy()
    undone: list[dict] = []
    for uid, (src, dst) in reversed(net.items()):
        if src == dst:
            continue
        if src == BOX or zone_of(state, uid) != dst or dst.startswith("pending:") or src.startswith("pending:"):
            raise RulesError(E_UNDO_CARD_MOVED, card=uid)
        undone.append(move(state, uid, dst, src, "undo"))
    if any(event["to"] == PILE for event in undone):
        rng.shuffle(state.pile)
    return state, undone


def leave_game(state: Session, player: str) -> tuple[Session, list[dict]]:
    """A protagonist dies and leaves the game (FR-EXCH-4).

    Their open checks are settled first (drawn cards go where unchosen cards go). In Normal mode
    all their cards go to the treasure; RULING: in the other modes, where the treasure plays no
    part, they go out of play.
    """
    check_player(state, player)
    if player == state.mayor:
        raise RulesError(E_MAYOR_STAYS)
    state = state.copy()
    events: list[dict] = []
    for check_id in list(state.pending[player]):
        events += _close_check(state, player, check_id, [], "death")
    dst = TREASURE if state.mode == NORMAL else OUT_OF_PLAY
    events += move_all(state, state.player_decks[player], deck_zone(player), dst, "death")
    events += move_all(state, state.player_discards[player], discard_zone(player), dst, "death")
    state.players.remove(player)
    for table in (state.player_decks, state.player_discards, state.pending, state.known):
        del table[player]
    return state, events


def rest(state: Session, player: str, hours: int, rng: random.Random) -> tuple[Session, list[dict]]:
    """Con desgaste: each hour of rest returns 8 random discarded cards to the deck (FR-MODE-11)."""
    check_mode(state, CON_DESGASTE)
    check_player(state, player)
    check_count(hours, E_BAD_HOURS, hours=hours)
    state = state.copy()
    discard = state.player_discards[player]
    back = rng.sample(discard, min(len(discard), REST_CARDS_PER_HOUR * hours))
    return state, move_all(state, back, discard_zone(player), deck_zone(player), "rest")


def draw_dead_mans_hand(state: Session, rng: random.Random, count: int = 1) -> list[str]:
    """Draw 1 (or 2, if the Mayor allows) of the set-aside cards at random (FR-CARD-5, FR-CHK-6).

    The cards are looked at and put back at once, so the state does not change; what they mean
    (Ace better, 8 worse) is decided by the checks.
    """
    count = check_dead_mans_hand_count(count)
    return rng.sample(state.dead_mans_hand, min(count, len(state.dead_mans_hand)))


# --------------------------------------------------------------------------------------------
# Secrecy: who may see what
# --------------------------------------------------------------------------------------------


def owner_sees_deck(state: Session) -> bool:
    """Phase 2 and Con desgaste: a player looks at their own deck freely (FR-MODE-2, 7, 11)."""
    return state.mode == CON_DESGASTE or (state.mode == NORMAL and state.phase == 2)


def visible_cards(state: Session, viewer: str | None) -> frozenset[str]:
    """The card uids ``viewer`` may see right now (``None``: a spectator).

    - Everyone: the dead man's hand (four known cards set aside) and every player's own discard
      (RULING: played cards were shown to the table when played).
    - Hidden from everyone: pile, shared discard (RULING: unchosen cards are discarded face down),
      treasure, out of play.
    - The viewer's own pending cards; never another player's.
    - The viewer's own deck in phase 2 and in Con desgaste; in phase 1 only the cards they have
      been allowed to see: the ones they played into it (FR-MODE-4), their whole deck after winning
      an exchange (FR-EXCH-7), and for the Mayor what a coma exchange showed (FR-SOB-1).
    """
    seen = set(state.dead_mans_hand)
    for p in state.players:
        seen.update(state.player_discards[p])
    if viewer is None:
        return frozenset(seen)
    check_player(state, viewer)
    seen.update(uid for entry in state.pending[viewer].values() for uid in entry["cards"])
    if owner_sees_deck(state):
        seen.update(state.player_decks[viewer])
    in_decks = {uid for deck in state.player_decks.values() for uid in deck}
    seen.update(uid for uid in state.known.get(viewer, []) if uid in in_decks)
    return frozenset(seen)


def _zone_view(cards: Iterable[str], visible: frozenset[str]) -> dict:
    cards = list(cards)
    shown = sorted((uid for uid in cards if uid in visible), key=card_sort_key)
    return {"count": len(cards), "cards": shown}


def view(state: Session, viewer: str | None) -> dict:
    """What ``viewer`` may see: every zone as ``{"count": n, "cards": [visible uids, sorted]}``.

    Visible cards are sorted, never in pile order, so a view cannot leak what will be drawn next.
    """
    visible = visible_cards(state, viewer)
    return {
        "mode": state.mode,
        "phase": state.phase,
        "mayor": state.mayor,
        "players": list(state.players),
        "viewer": viewer,
        **{name: _zone_view(state.shared(name), visible) for name in SHARED_ZONES},
        "seats": {
            p: {
                "deck": _zone_view(state.player_decks[p], visible),
                "discard": _zone_view(state.player_discards[p], visible),
                "pending": {
                    check: _zone_view(entry["cards"], visible) for check, entry in state.pending[p].items()
                },
            }
            for p in state.players
        },
    }


def table_view(state: Session) -> dict:
    """The shared zones as :func:`view` shows them to any viewer: the same for every one (only the
    dead man's hand shows its cards, to everyone), so read once for all, without every seat's."""
    visible = frozenset(state.dead_mans_hand)
    return {name: _zone_view(state.shared(name), visible) for name in SHARED_ZONES}


def redact_events(
    events: list[dict], before: Session, after: Session, viewer: str | None
) -> list[dict]:
    """The events as ``viewer`` may read them: a card neither visible to them before nor after the
    operation is replaced by ``None`` (its movement between zones stays public)."""
    visible = _visible_if_seated(before, viewer) | _visible_if_seated(after, viewer)
    return [{**e, "card": e["card"] if e["card"] in visible else None} for e in events]


def _visible_if_seated(state: Session, viewer: str | None) -> frozenset[str]:
    if viewer is not None and viewer not in state.players:
        return frozenset()
    return visible_cards(state, viewer)
