"""En la palmera: what the shared bots need (determinisation, evaluation, rollout policy).

The strong bot is :mod:`.search` (``make_strong_bot``); this module serves the shared
:class:`~cardgames.engines.bots.GreedyBot` and :class:`~cardgames.engines.bots.MonteCarloBot`.
The bots only ever see ``view(state, seat)``. :func:`determinize` rebuilds a full state from it by
dealing the cards that seat cannot see uniformly at random; :func:`evaluate` scores a full state
by the points banked plus the squares held, each weighted by its chance to survive the cards the
opponent still has to play.
"""

from __future__ import annotations

import math
import random

from cardgames.engines import new_rng_state
from cardgames.engines.palmera.rules import (
    DOUBLE_SCORE,
    DOUBLE_SQUARE,
    PEEK,
    SQUARES,
    TIEBREAK_SQUARE,
    attacker_wins,
    controller,
    is_king,
    strength,
    suit_cards,
    totals,
)

SCALE = 20.0  # points that move the evaluation from 0.5 to about 0.73
RANDOM_SHARE = 0.0  # of the rollout policy's moves


def determinize(view: dict, seat: int | None, rng: random.Random) -> dict:
    """A full state consistent with ``view``: hidden cards dealt uniformly from the unseen ones."""
    board = [[[dict(e) for e in side] for side in sides] for sides in view["board"]]
    out = [[dict(e) for e in entries] for entries in view["out"]]
    hands = [None, None]
    piles: list[list[str]] = [[], []]
    for owner in (0, 1):
        entries = [e for sides in board for e in sides[owner]] + out[owner]
        known = {e["card"] for e in entries if e["card"] is not None}
        if owner == seat and view["hand"] is not None:
            hands[owner] = view["hand"]
            known.add(view["hand"])
        unseen = [card for card in suit_cards(owner) if card not in known]
        rng.shuffle(unseen)
        for e in entries:
            if e["card"] is None:
                e["card"] = unseen.pop()
        if view["hand_counts"][owner] and hands[owner] is None:
            hands[owner] = unseen.pop()
        piles[owner] = unseen
    return {
        "game": view["game"],
        "rng": new_rng_state(rng.getrandbits(63)),
        "first": view["first"],
        "round": view["round"],
        "turn": view["turn"],
        "phase": view["phase"],
        "piles": piles,
        "hands": hands,
        "board": board,
        "out": out,
        "scores": [list(pair) for pair in view["scores"]],
    }


def _remaining(state: dict, seat: int) -> list[str]:
    hand = state["hands"][seat]
    return state["piles"][seat] + ([hand] if hand is not None else [])


def _hold_chance(state: dict, holder: int, card: str, threats: list[str]) -> float:
    """How likely a card keeps its square against the opponent's unplayed cards (PA-4..PA-6)."""
    if is_king(card):
        return 0.0  # PA-6: removed at the end of the round anyway
    if not threats:
        return 1.0
    square_one = controller(state, TIEBREAK_SQUARE)
    attacker = 1 - holder
    beaten_by = sum(1 for c in threats if is_king(c) or attacker_wins(attacker, c, card, square_one))
    return 1.0 - 0.6 * beaten_by / len(threats)


def expected_round_points(state: dict) -> list[float]:
    """Points each seat would score this round, each square weighted by its chance to hold."""
    points = [0.0, 0.0]
    threats = [_remaining(state, 0), _remaining(state, 1)]
    for square in range(1, SQUARES + 1):
        holder = controller(state, square)
        if holder is None:
            continue
        cards = [e["card"] for e in state["board"][square - 1][holder]]
        best = max(cards, key=lambda c: (not is_king(c), strength(c)))
        doubled = square == DOUBLE_SQUARE and len(cards) == 2 and not any(map(is_king, cards))
        value = DOUBLE_SCORE if doubled else square
        points[holder] += value * _hold_chance(state, holder, best, threats[1 - holder])
    return points


def evaluate(state: dict, seat: int) -> float:
    """Heuristic in [0, 1]: banked totals plus the expected points of the round in play."""
    banked = totals(state)
    if state["phase"] == "over":
        current = [0.0, 0.0]
    else:
        current = expected_round_points(state)
    diff = (banked[seat] + current[seat]) - (banked[1 - seat] + current[1 - seat])
    return 1.0 / (1.0 + math.exp(-diff / SCALE))


def _unseen_by(state: dict, owner: int) -> list[str]:
    """The cards of ``owner`` its opponent cannot see: what the opponent's guesses range over."""
    entries = [x for sides in state["board"] for x in sides[owner]] + state["out"][owner]
    return [x["card"] for x in entries if not x["up"] and not x["peeked"]] + _remaining(state, owner)


def _attack_gain(state: dict, seat: int, card: str, square: int, defender: dict) -> float:
    """Expected swing of attacking ``defender`` with ``card``, judged only on what ``seat`` knows:
    a face-up or peeked defender is known, any other is averaged over the owner's unseen cards."""
    if is_king(card):
        return float(square)
    if defender["up"] or defender["peeked"]:
        pool = [defender["card"]]
    else:
        pool = _unseen_by(state, 1 - seat)
    holder = controller(state, TIEBREAK_SQUARE)
    wins = kings = 0
    for guess in pool:
        if is_king(guess):
            kings += 1
        elif attacker_wins(seat, card, guess, holder):
            wins += 1
    n = len(pool)
    return (2.0 * square * wins + square * kings) / n - 0.5 * (n - wins - kings) / n


def _placement_gain(state: dict, seat: int, card: str, action: dict) -> float:
    """A cheap immediate value of a placement, judged on what the mover could know."""
    square = action["square"]
    sides = state["board"][square - 1]
    defenders = sides[1 - seat]
    if not defenders:
        hold = _hold_chance(state, seat, card, _unseen_by(state, 1 - seat))
        if sides[seat]:  # a second card on square 8
            return (DOUBLE_SCORE - DOUBLE_SQUARE) * hold
        return 0.2 * square if is_king(card) else square * hold
    gain = _attack_gain(state, seat, card, square, defenders[action.get("first", 0)])
    return gain * (0.6 if len(defenders) == 2 and not is_king(card) else 1.0)


def rollout_action(state: dict, seat: int, actions: list[dict], rng: random.Random) -> dict:
    """A cheap, sensible rollout policy: the best immediate placement (a random share of
    ``RANDOM_SHARE``; peeks are random). It does not use the hidden cards of the determinisation
    (no peeking in the simulations)."""
    if state["phase"] == PEEK or len(actions) == 1 or rng.random() < RANDOM_SHARE:
        return rng.choice(actions)
    card = state["hands"][seat]
    gains = [_placement_gain(state, seat, card, a) for a in actions]
    best = max(gains)
    return rng.choice([a for a, g in zip(actions, gains, strict=True) if g == best])


STRONG_BOT = {"iterations": 2500, "seconds": 0.1, "max_plies": 1, "exploration": 0.6}
"""The earlier strong bot (a :class:`~cardgames.engines.bots.MonteCarloBot` with one reply ply),
kept as a baseline; :func:`cardgames.engines.bots.strong_bot` now takes ``make_strong_bot``."""
