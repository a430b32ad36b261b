"""Card exchanges between players, Normal mode only (FR-EXCH-1..7, FR-SOB-1, FR-MODE-12).

A player's *deck* for an exchange is every card they own: their draw pile plus their own discard
(FR-EXCH-1). A card taken or received goes to the receiver's draw pile. These functions, with
:func:`frontera.rules.session.join_from_players` and
:func:`frontera.rules.session.leave_game`, are the only ways a card changes owner (FR-MODE-12).

Choices made by a person are parameters (the chosen uids) and are validated; random picks use the
injected ``rng``. The ``*_options`` helpers list what may be chosen. Every function returns
``(new_state, events)`` and leaves its input untouched; bad input raises ``RulesError``.

>>> import random
>>> from frontera.rules.session import new_session, owned_cards
>>> s = new_session("normal", ["ana", "bo", "mayor"], "mayor", rng=random.Random(3))
>>> take, give = owned_cards(s, "bo")[0], owned_cards(s, "ana")[0]
>>> s2, events = bet_win(s, "ana", "bo", take=take, give=give)
>>> take in s2.player_decks["ana"], give in s2.player_decks["bo"]
(True, True)
>>> [(e["from"], e["to"], e["reason"]) for e in events]
[('deck:bo', 'deck:ana', 'bet'), ('deck:ana', 'deck:bo', 'bet')]
"""

from __future__ import annotations

import random

from frontera.rules.errors import RulesError, gettext_noop, ngettext
from frontera.rules.session import (
    NORMAL,
    TREASURE,
    Session,
    card_sort_key,
    check_count,
    check_distinct,
    check_mode,
    check_player,
    deck_zone,
    learn,
    move,
    owned_cards,
    transfer,
    visible_cards,
)

MAX_DUEL_CARDS = 2  # FR-EXCH-3

E_SAME_PLAYER = gettext_noop("%(player)s cannot exchange cards with themselves.")
E_NOT_IN_DECK = gettext_noop("%(card)s is not in %(player)s's deck.")
E_MUST_CHOOSE = gettext_noop("Choose a card of %(player)s's deck.")
E_DUEL_TOO_MANY = gettext_noop("A duel's winner takes at most 2 cards, not %(count)s.")
E_GIVE_COUNT = ngettext(
    "%(player)s must give back %(count)s card, not %(given)s.",
    "%(player)s must give back %(count)s cards, not %(given)s.",
)
E_NOT_A_LIST = gettext_noop("Give the chosen cards as a list.")
E_MAYOR_NO_TREASURE = gettext_noop("The Mayor never takes treasure cards.")
E_MAYOR_NOT_DRUNK = gettext_noop("Only a protagonist swaps cards with the Mayor when drunk or in a coma.")
E_TREASURE_EMPTY = gettext_noop(
    "The treasure deck is empty: the sharing protagonists may swap cards instead."
)
E_BAD_TREASURE_COUNT = gettext_noop("Take 1 or more treasure cards, not %(count)s.")
E_NOTHING_TO_GIVE = gettext_noop("No card changes hands, so no card can be chosen.")
E_FEW_SHARERS = gettext_noop("A treasure is shared among two or more protagonists.")
E_NOT_A_SHARER = gettext_noop("%(player)s does not share this treasure.")
E_NOT_IN_TREASURE = gettext_noop("%(card)s is not in the treasure deck.")
E_NOT_AGREED = gettext_noop("The sharers have not agreed yet on who keeps the treasure.")
E_FEW_IN_RING = gettext_noop("A tie's exchange needs at least two different decks.")


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _check_pair(state: Session, a: str, b: str) -> None:
    """Normal mode only (FR-EXCH), two different players of the session."""
    check_mode(state, NORMAL)
    check_player(state, a)
    check_player(state, b)
    if a == b:
        raise RulesError(E_SAME_PLAYER, player=a)


def _check_choice(state: Session, owner: str, uid: object) -> str | None:
    """One card chosen from ``owner``'s deck; ``None`` only when there is nothing to choose."""
    owned = owned_cards(state, owner)
    if uid is None and not owned:
        return None
    if uid is None:
        raise RulesError(E_MUST_CHOOSE, player=owner)
    if uid not in owned:
        raise RulesError(E_NOT_IN_DECK, card=uid, player=owner)
    return uid  # type: ignore[return-value]


def _check_choices(state: Session, owner: str, uids: object) -> list[str]:
    if isinstance(uids, str) or not isinstance(uids, (list, tuple)):
        raise RulesError(E_NOT_A_LIST)
    chosen = check_distinct(uids)
    owned = owned_cards(state, owner)
    for uid in chosen:
        if uid not in owned:
            raise RulesError(E_NOT_IN_DECK, card=uid, player=owner)
    return chosen


def _winner_looks(state: Session, winner: str) -> None:
    """FR-EXCH-7: in phase 1 the winner may look at their own deck (nobody else's)."""
    if state.phase == 1:
        learn(state, winner, state.player_decks[winner])


def winner_looks(state: Session, winner: str) -> Session:
    """FR-EXCH-7 as soon as the exchange opens: in phase 1 the winner (of a bet or a duel, or the
    rival who caught a cheat) looks at their own deck before choosing, so the card they give back
    is a real choice (the book: the winner "elegirá una carta de su propio mazo"). RULING
    (docs/rules/decks.md): the look happens when the winner is known, not only after the exchange;
    nobody else's deck becomes visible. Returns a new state; outside phase 1 nothing changes.

    >>> import random
    >>> from frontera.rules.session import new_session, visible_cards
    >>> s = new_session("normal", ["ana", "bo", "mayor"], "mayor", rng=random.Random(3))
    >>> set(s.player_decks["ana"]) <= visible_cards(winner_looks(s, "ana"), "ana")
    True
    """
    check_mode(state, NORMAL)
    check_player(state, winner)
    state = state.copy()
    _winner_looks(state, winner)
    return state


def choice_visible(state: Session, chooser: str, owner: str) -> frozenset[str]:
    """The cards of ``owner``'s deck that ``chooser`` sees while choosing one from it (FR-EXCH-2,
    -3, -6, -7, FR-SOB-1); the others are chosen face down, by position.

    Only what :func:`~frontera.rules.session.visible_cards` gives the chooser, in both phases: their
    own deck in phase 2, and in phase 1 after :func:`winner_looks`. RULING (docs/rules/decks.md):
    FR-EXCH-7's "nobody else's deck becomes visible" holds in phase 2 as well (the coma look of
    FR-SOB-1 is the one exception RULINGS names), so a winner picks from the loser's deck held face
    down; the loser, who holds it, sees their own deck as always.
    """
    check_mode(state, NORMAL)
    check_player(state, chooser)
    return frozenset(set(owned_cards(state, owner)) & visible_cards(state, chooser))


def _swap_random(state: Session, a: str, b: str, count: int, rng: random.Random, reason: str) -> list[dict]:
    """Each side takes ``count`` random cards of the other's deck, picked at the same time."""
    from_b = rng.sample(owned_cards(state, b), min(count, len(owned_cards(state, b))))
    from_a = rng.sample(owned_cards(state, a), min(count, len(owned_cards(state, a))))
    events = [transfer(state, uid, b, a, reason) for uid in from_b]
    return events + [transfer(state, uid, a, b, reason) for uid in from_a]


def _sorted_owned(state: Session, player: str) -> list[str]:
    return sorted(owned_cards(state, player), key=card_sort_key)


def exchange_options(state: Session, owner: str) -> list[str]:
    """The cards that may be chosen from ``owner``'s deck in an exchange (FR-EXCH-1), sorted.

    In phase 1 the picks are blind: a chooser sees face down every card that
    :func:`~frontera.rules.session.visible_cards` does not give them.
    """
    check_mode(state, NORMAL)
    check_player(state, owner)
    return _sorted_owned(state, owner)


# --------------------------------------------------------------------------------------------
# Bets (FR-EXCH-2) and duels (FR-EXCH-3)
# --------------------------------------------------------------------------------------------


def bet_win(
    state: Session, winner: str, loser: str, *, take: str | None, give: str | None
) -> tuple[Session, list[dict]]:
    """FR-EXCH-2, no tie: the winner keeps ``take`` from the loser's deck, then gives ``give``
    from their own (chosen among the cards they had before taking). A choice may be ``None`` only
    when that deck is empty. In phase 1 the winner then looks at their deck (FR-EXCH-7)."""
    _check_pair(state, winner, loser)
    take = _check_choice(state, loser, take)
    give = _check_choice(state, winner, give)
    state = state.copy()
    events = [transfer(state, take, loser, winner, "bet")] if take else []
    events += [transfer(state, give, winner, loser, "bet")] if give else []
    _winner_looks(state, winner)
    return state, events


def bet_tie(state: Session, a: str, b: str, rng: random.Random) -> tuple[Session, list[dict]]:
    """FR-EXCH-2, tie (or Banca result 0): each takes a random card of the rival's deck."""
    _check_pair(state, a, b)
    state = state.copy()
    return state, _swap_random(state, a, b, 1, rng, "bet_tie")


def bet_caught_cheating(
    state: Session, cheat: str, rival: str, *, take: str | None
) -> tuple[Session, list[dict]]:
    """FR-EXCH-2 (FR-GMB-6): the rival keeps a card they choose from the cheat's deck and gives
    nothing back. RULING: the rival counts as the winner for FR-EXCH-7."""
    _check_pair(state, cheat, rival)
    take = _check_choice(state, cheat, take)
    state = state.copy()
    events = [transfer(state, take, cheat, rival, "cheat")] if take else []
    _winner_looks(state, rival)
    return state, events


def duel_win(
    state: Session, winner: str, loser: str, *, take: list[str], give: list[str]
) -> tuple[Session, list[dict]]:
    """FR-EXCH-3: the winner keeps up to 2 chosen cards of the loser's deck and gives back as many
    chosen from their own (RULING: all they had, if they had fewer). FR-EXCH-7 as for bets."""
    _check_pair(state, winner, loser)
    take = _check_choices(state, loser, take)
    if len(take) > MAX_DUEL_CARDS:
        raise RulesError(E_DUEL_TOO_MANY, count=len(take))
    give = _check_choices(state, winner, give)
    owed = min(len(take), len(owned_cards(state, winner)))
    if len(give) != owed:
        raise RulesError(E_GIVE_COUNT, player=winner, count=owed, given=len(give))
    state = state.copy()
    events = [transfer(state, uid, loser, winner, "duel") for uid in take]
    events += [transfer(state, uid, winner, loser, "duel") for uid in give]
    _winner_looks(state, winner)
    return state, events


def duel_tie(state: Session, a: str, b: str, rng: random.Random) -> tuple[Session, list[dict]]:
    """FR-EXCH-3, tie: two random cards swap each way."""
    _check_pair(state, a, b)
    state = state.copy()
    return state, _swap_random(state, a, b, MAX_DUEL_CARDS, rng, "duel_tie")


# --------------------------------------------------------------------------------------------
# Drink (FR-SOB-1, FR-EXCH-5)
# --------------------------------------------------------------------------------------------


def _check_protagonist_and_mayor(state: Session, player: str) -> None:
    _check_pair(state, player, state.mayor)


def drunk_swap(state: Session, player: str, rng: random.Random) -> tuple[Session, list[dict]]:
    """FR-SOB-1 Borracho: a random card of the player's deck swaps with a random card of the
    Mayor's, face down in phase 1 (nobody sees them). RULING: if either deck is empty nothing
    changes hands."""
    if player == state.mayor:
        raise RulesError(E_MAYOR_NOT_DRUNK)
    _check_protagonist_and_mayor(state, player)
    state = state.copy()
    mine, theirs = owned_cards(state, player), owned_cards(state, state.mayor)
    if not mine or not theirs:
        return state, []
    return state, _swap_random(state, player, state.mayor, 1, rng, "drunk")


def coma_options(state: Session, player: str) -> list[str]:
    """The cards the Mayor may give back in a coma exchange: his own deck (FR-SOB-1)."""
    if player == state.mayor:
        raise RulesError(E_MAYOR_NOT_DRUNK)
    _check_protagonist_and_mayor(state, player)
    return _sorted_owned(state, state.mayor)


def coma_exchange(
    state: Session, player: str, *, give: str | None, rng: random.Random
) -> tuple[Session, list[dict]]:
    """FR-SOB-1 En coma: the player gives a random card to the Mayor, who gives back ``give``,
    chosen from his deck as it was before (see :func:`coma_options`).

    In phase 1 the Mayor thereby sees his own deck, except the card just received (book), and the
    player's deck (RULINGS.md FR-SOB-1). RULING: if either deck is empty nothing changes hands and
    ``give`` must be ``None``.
    """
    options = coma_options(state, player)
    if not options or not owned_cards(state, player):
        if give is not None:
            raise RulesError(E_NOTHING_TO_GIVE)
        return state.copy(), []
    give = _check_choice(state, state.mayor, give)
    state = state.copy()
    received = rng.choice(owned_cards(state, player))
    events = [transfer(state, received, player, state.mayor, "coma")]
    events.append(transfer(state, give, state.mayor, player, "coma"))
    if state.phase == 1:
        learn(state, state.mayor, [uid for uid in state.player_decks[state.mayor] if uid != received])
        learn(state, state.mayor, state.player_decks[player])
    return state, events


# --------------------------------------------------------------------------------------------
# Treasure, loot, reward (FR-EXCH-6)
# --------------------------------------------------------------------------------------------


def _check_protagonist(state: Session, player: str) -> None:
    check_mode(state, NORMAL)
    check_player(state, player)
    if player == state.mayor:
        raise RulesError(E_MAYOR_NO_TREASURE)


def treasure_draw(state: Session, rng: random.Random, count: int = 1) -> list[str]:
    """FR-EXCH-6: the ``count`` random treasure card(s) the sharers take (fewer if fewer are left),
    picked without moving them yet (:func:`treasure_keep` moves them once the sharers agree)."""
    check_mode(state, NORMAL)
    check_count(count, E_BAD_TREASURE_COUNT)
    if count < 1:
        raise RulesError(E_BAD_TREASURE_COUNT, count=count)
    if not state.treasure:
        raise RulesError(E_TREASURE_EMPTY)
    return rng.sample(state.treasure, min(count, len(state.treasure)))


def treasure_keep(state: Session, keepers: str | list[str], cards: list[str]) -> tuple[Session, list[dict]]:
    """FR-EXCH-6: the drawn treasure ``cards`` go to the protagonist(s) the sharers agreed on
    (``keepers``: one for all, or one per card). The Mayor never takes treasure. In phase 1 the
    cards stay unseen (FR-MODE-4)."""
    check_mode(state, NORMAL)
    cards = check_distinct(cards)
    keepers = [keepers] * len(cards) if isinstance(keepers, str) else list(keepers)
    if len(keepers) != len(cards):
        raise RulesError(E_NOT_AGREED)
    for keeper in keepers:
        _check_protagonist(state, keeper)
    for uid in cards:
        if uid not in state.treasure:
            raise RulesError(E_NOT_IN_TREASURE, card=uid)
    state = state.copy()
    return state, [move(state, uid, TREASURE, deck_zone(keeper), "treasure")
                   for uid, keeper in zip(cards, keepers, strict=True)]


def treasure_take(
    state: Session, keeper: str, rng: random.Random, count: int = 1
) -> tuple[Session, list[dict]]:
    """FR-EXCH-6: the sharing protagonists take ``count`` random treasure card(s) (1 unless the GM
    says the treasure is very valuable; fewer if fewer are left); ``keeper`` is who they agreed
    keeps it. The Mayor never takes treasure. In phase 1 the card stays unseen (FR-MODE-4)."""
    _check_protagonist(state, keeper)
    return treasure_keep(state, keeper, treasure_draw(state, rng, count))


def treasure_sharers(state: Session, sharers: list[str]) -> list[str]:
    """FR-EXCH-6: the protagonists sharing a treasure, validated: two or more, never the Mayor
    (he takes no part in a sharing even when an NPC of his does)."""
    return _two_or_more(state, sharers, lambda sharer: _check_protagonist(state, sharer), E_FEW_SHARERS)


def _two_or_more(state: Session, players, check, too_few: str) -> list[str]:
    """A list of two or more distinct players of a Normal-mode session, each passing ``check``."""
    check_mode(state, NORMAL)
    if isinstance(players, str) or not isinstance(players, (list, tuple)):
        raise RulesError(E_NOT_A_LIST)
    players = list(dict.fromkeys(players))
    for player in players:
        check(player)
    if len(players) < 2:
        raise RulesError(too_few)
    return players


def treasure_agreement(sharers: list[str], votes: dict[str, list[str]], cards: int) -> list[str] | None:
    """FR-EXCH-6 "decidirán ellos quién se la queda": each sharer names a keeper (a sharer) for
    each of the ``cards`` drawn; the cards are settled when every sharer has named the same
    keepers. Returns the keepers (one per card) or ``None`` while they disagree or some have not
    said. RULING (docs/rules/decks.md): agreement is unanimity; the Mayor only records the vote of
    a sharer without a phone, he never decides.

    >>> treasure_agreement(["a", "b"], {"a": ["b"], "b": ["b"]}, 1)
    ['b']
    >>> treasure_agreement(["a", "b"], {"a": ["a"], "b": ["b"]}, 1) is None
    True
    """
    for sharer, named in votes.items():
        if sharer not in sharers:
            raise RulesError(E_NOT_A_SHARER, player=sharer)
        if len(named) != cards:
            raise RulesError(E_NOT_AGREED)
        for keeper in named:
            if keeper not in sharers:
                raise RulesError(E_NOT_A_SHARER, player=keeper)
    if any(s not in votes for s in sharers):
        return None
    agreed = {tuple(named) for named in votes.values()}
    return list(agreed.pop()) if len(agreed) == 1 else None


def treasure_swappers(sharers: list[str], keepers: list[str]) -> list[str]:
    """FR-EXCH-6: who may swap a card with another sharer: the sharers who kept no treasure card
    ("el resto"), or all of them when nothing was taken (an empty treasure deck)."""
    return [s for s in sharers if s not in set(keepers)]


def treasure_sharers_see(state: Session) -> bool:
    """Whether the sharers look at the drawn treasure card(s) while they decide who keeps them:
    in phase 2, yes (RULING, docs/rules/decks.md: the book's "cogerán una... y decidirán"); in
    phase 1 never (FR-MODE-4: unseen until phase 2)."""
    return state.phase == 2


def treasure_swap(state: Session, a: str, b: str, *, give_a: str, give_b: str) -> tuple[Session, list[dict]]:
    """FR-EXCH-6: two sharing protagonists swap one card each, chosen by its owner."""
    _check_protagonist(state, a)
    _check_protagonist(state, b)
    _check_pair(state, a, b)
    give_a = _check_choice(state, a, give_a)
    give_b = _check_choice(state, b, give_b)
    if give_a is None or give_b is None:
        raise RulesError(E_MUST_CHOOSE, player=a if give_a is None else b)
    state = state.copy()
    events = [transfer(state, give_a, a, b, "treasure_swap"), transfer(state, give_b, b, a, "treasure_swap")]
    return state, events


def tie_ring(state: Session, players: list[str], rng: random.Random) -> tuple[Session, list[dict]]:
    """FR-EXCH-2, a tie among three or more bettors (RULING, docs/rules/decks.md): every bettor
    staked one card, so each takes one random card of the next one's deck (the last of the
    first's), all picked at the same time. With two players it is :func:`bet_tie`."""
    players = _two_or_more(state, players, lambda player: check_player(state, player), E_FEW_IN_RING)
    state = state.copy()
    picks = []
    for i, taker in enumerate(players):
        giver = players[(i + 1) % len(players)]
        owned = owned_cards(state, giver)
        if owned:
            picks.append((rng.choice(owned), giver, taker))
    return state, [transfer(state, uid, giver, taker, "bet_tie") for uid, giver, taker in picks]
