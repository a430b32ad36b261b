"""Boom: the strong bot — determinised Monte Carlo with policy rollouts on common deals.

The bot is handed only ``view(state, seat)``. Every storage is face up, so what it cannot see is the
other hands, the deck and the discard; each iteration :func:`~cardgames.engines.boom.bot.determinize`
deals those unseen cards uniformly (one *deal*), then every root candidate is played on that *same*
deal with the same policy random numbers (common random numbers: candidates are compared on
identical draws, which removes most of the deal-to-deal noise from the comparison) and the game is
played on with :func:`policy` for ``depth`` turns or to its end. A finished game scores 1 / ½ / 0
(BO-10); an unfinished one :func:`leaf_value`, a soft-max over the seats' strength (life left,
living storages and usable hand cards). The candidate with the best mean wins; weak candidates are
dropped after a few deals (successive halving) so the budget goes to the close ones.

:func:`policy` is a fast heuristic that only uses what the simulated mover could know (its own hand
and the face-up storages): exact kills first (an eliminating one above all, an extra life next,
BO-5/BO-6), a Boom when it takes clearly more from the enemies than from itself (BO-7), else the
attack that leaves a storage its hand can finish, else discard the cards that cannot attack anything
(BO-8); in the change step it puts a card that raises a storage's life in place of a weaker one,
preferring cards that cannot attack and figures coming back for a Boom (BO-4).

:func:`step` is the engine's :func:`~cardgames.engines.boom.rules.play` without the copy (it applies
an action in place to a state the bot owns); a test replays seeded random games on both.

Budgeted by ``iterations`` (deals) and ``seconds`` (wall clock, checked between deals).
"""

from __future__ import annotations

import math
import random
import time

from cardgames.engines.boom import rules
from cardgames.engines.boom.bot import determinize
from cardgames.engines.boom.rules import (
    BOOM_FIGURES,
    BOOM_NUMBERS,
    CHANGE,
    MAIN,
    MAX_DISCARD,
    OVER,
    VALUE,
    copy_state,
)

# -- the engine's play, in place ----------------------------------------------------------------------


def step(state: dict, seat: int, action: dict) -> None:
    """:func:`rules.play` applied in place (no copy): same order of effects, same random draws."""
    kind = action["type"]
    if kind in ("change", "skip_change"):
        if kind == "change":
            rules._change(state, seat, action["card"], action["storage"])
        state["step"] = MAIN
        if rules._eliminate(state) and state["step"] != OVER and not state["alive"][seat]:
            rules._next_turn(state, seat)
        return
    if kind == "attack":
        draws = rules._attack(state, seat, action)
    elif kind == "boom":
        draws = rules._boom(state, seat, action)
    elif kind == "discard":
        draws = rules._discard(state, seat, action)
    else:
        draws = 0
    rules._eliminate(state)
    if state["step"] != OVER:
        if state["alive"][seat]:
            rules._draw(state, seat, draws)
        rules._next_turn(state, seat)


# -- the rollout policy -------------------------------------------------------------------------------


def _life(storage: dict) -> int:
    left = VALUE[storage["card"][:-1]]
    for card in storage["on"]:
        left -= VALUE[card[:-1]]
    return left


def _is_figure(code: str) -> bool:
    return VALUE[code[:-1]] == 0


KILL = 20.0
EXTRA_LIFE = 8.0
ELIMINATE = 200.0
STORAGE_WORTH = 8.0


def _enemy_storages(state: dict, seat: int) -> tuple[list[tuple[int, int, int, int]], dict[int, int]]:
    """(target, index, life, original value) of every attackable enemy storage; each enemy's total."""
    found = []
    totals = {}
    for target in range(state["seats"]):
        if target == seat or not state["alive"][target]:
            continue
        total = 0
        for index, storage in enumerate(state["boards"][target]):
            if _is_figure(storage["card"]):
                continue
            left = _life(storage)
            total += left
            if left > 0:
                found.append((target, index, left, VALUE[storage["card"][:-1]]))
        totals[target] = total
    return found, totals


def boom_gain(state: dict, seat: int, number: int) -> float:
    """What a Boom on ``number`` is worth to ``seat`` (BO-7): enemy life and storages removed, an
    elimination above all, minus the same for its own storages."""
    gain = 0.0
    for target in range(state["seats"]):
        if not state["alive"][target]:
            continue
        hit = count = total = 0
        for storage in state["boards"][target]:
            if _is_figure(storage["card"]):
                continue
            left = _life(storage)
            total += left
            if left == number:
                hit += left
                count += 1
        if target == seat:
            gain -= 1.5 * hit + STORAGE_WORTH * count + (ELIMINATE if count and hit == total else 0.0)
        elif count:
            gain += hit + STORAGE_WORTH * count + (ELIMINATE if hit == total else 0.0)
    return gain


def policy(state: dict, seat: int, rng: random.Random) -> dict:
    """A legal action for ``seat`` from its hand and the face-up storages only."""
    hand = state["hands"][seat]
    if state["step"] == CHANGE:
        return _policy_change(state, seat, hand)
    enemies, totals = _enemy_storages(state, seat)
    best, best_score = None, -math.inf
    values = [VALUE[c[:-1]] for c in hand]
    for i, card in enumerate(hand):
        v = values[i]
        if v == 0 or card in hand[:i]:
            continue
        for target, index, left, original in enemies:
            if left < v:
                continue
            if left == v:
                score = KILL + v
                if original == v:
                    score += EXTRA_LIFE
                if totals[target] == v:
                    score += ELIMINATE
            else:
                rest = left - v
                others = values[:i] + values[i + 1:]
                score = v + (3.0 if rest in others else 0.0) - (1.5 if rest <= 2 else 0.0)
            score += 0.01 * rng.random()
            if score > best_score:
                best_score = score
                best = {"type": "attack", "card": card, "target": target, "storage": index}
    figures = [c for c in hand if _is_figure(c)]
    if len(figures) >= BOOM_FIGURES:
        for number in BOOM_NUMBERS:
            gain = boom_gain(state, seat, number)
            if gain >= 10 and gain > best_score:
                best_score, best = gain, {"type": "boom", "number": number}
    if best is not None:
        return best
    if not hand:
        return {"type": "pass"}
    # Nothing to attack with: throw away what cannot attack (keeping figures towards a Boom).
    top = max((left for _, _, left, _ in enemies), default=0)
    keep_figures = min(len(figures), BOOM_FIGURES) if len(figures) >= 2 else 0
    useless = sorted((c for c in hand if not _is_figure(c) and VALUE[c[:-1]] > top), key=lambda c: -VALUE[c[:-1]])
    useless += figures[keep_figures:]
    if not useless:
        useless = sorted(hand, key=lambda c: -VALUE[c[:-1]])[:1]
    return {"type": "discard", "cards": sorted(useless[:MAX_DISCARD])}


def _policy_change(state: dict, seat: int, hand: list[str]) -> dict:
    """BO-4 (1): the swap that adds most life, preferring cards that cannot attack now."""
    enemies, _ = _enemy_storages(state, seat)
    top = max((left for _, _, left, _ in enemies), default=0)
    exact = {left for _, _, left, _ in enemies}
    figures = sum(map(_is_figure, hand))
    best, best_gain = None, 0.5
    for index, storage in enumerate(state["boards"][seat]):
        if storage["on"]:
            continue
        old = VALUE[storage["card"][:-1]]
        for card in hand:
            v = VALUE[card[:-1]]
            gain = v - old
            if gain <= 0:
                continue
            if v in exact:
                gain -= 3.0  # a kill in hand
            elif v > top:
                gain += 1.0  # cannot attack anything anyway
            if old == 0 and figures >= 1:
                gain += 1.0  # the figure goes towards a Boom
            if gain > best_gain:
                best_gain, best = gain, {"type": "change", "card": card, "storage": index}
    return best or {"type": "skip_change"}


# -- scoring ------------------------------------------------------------------------------------------

TEMPERATURE = 6.0


def strength(state: dict, seat: int) -> float:
    """Life left, living storages and hand cards that can hurt an enemy storage."""
    life = 0
    living = 0
    for storage in state["boards"][seat]:
        left = _life(storage)
        if left > 0:
            life += left
            living += 1
    enemies, _ = _enemy_storages(state, seat)
    top = max((left for _, _, left, _ in enemies), default=0)
    usable = sum(1 for c in state["hands"][seat] if 0 < VALUE[c[:-1]] <= top)
    return life + 2.0 * living + 0.5 * usable


def leaf_value(state: dict, seat: int) -> float:
    """``seat``'s share in [0, 1]: 1/½/0 for a finished game (BO-10), else a soft-max of the
    living seats' :func:`strength`."""
    result = state["result"]
    if result is not None:
        winners = result["winners"]
        if result["draw"] or not winners:
            return 0.5
        return 1.0 / len(winners) if seat in winners else 0.0
    if not state["alive"][seat]:
        return 0.0
    weights = {}
    for s in range(state["seats"]):
        if state["alive"][s]:
            weights[s] = strength(state, s) / TEMPERATURE
    top = max(weights.values())
    exp = {s: math.exp(w - top) for s, w in weights.items()}
    return exp[seat] / sum(exp.values())


def simulate(state: dict, seat: int, rng: random.Random, depth: int) -> float:
    """Play ``state`` (owned, mutated) on with :func:`policy` for ``depth`` turns; its value."""
    stop = state["turns"] + depth
    while state["step"] != OVER and state["turns"] < stop:
        mover = state["turn"]
        step(state, mover, policy(state, mover, rng))
    return leaf_value(state, seat)


# -- the bot ------------------------------------------------------------------------------------------


def candidates(view: dict, seat: int, actions: list[dict]) -> list[dict]:
    """Root pruning: a Boom that does not gain (:func:`boom_gain` ≤ 0) is dominated by discarding
    three cards, and a change that lowers the storage's life is not searched."""
    boards = view["boards"]
    state = {"seats": view["seats"], "alive": view["alive"], "boards": boards}
    kept = []
    for action in actions:
        kind = action["type"]
        if kind == "boom" and boom_gain(state, seat, action["number"]) <= 0:
            continue
        if kind == "change":
            old = boards[seat][action["storage"]]["card"]
            if VALUE[action["card"][:-1]] < VALUE[old[:-1]]:
                continue
        kept.append(action)
    return kept or actions


class BoomBot:
    """Determinised Monte Carlo on common deals with :func:`policy` rollouts (see the module)."""

    name = "strong"

    def __init__(self, iterations: int = 400, seconds: float = 0.5, depth: int = 6, halve_at: int = 8):
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.halve_at = halve_at
        self.last_iterations = 0

    def choose(self, engine, view, seat, actions, rng):
        alive = candidates(view, seat, actions)
        self.last_iterations = 0
        if len(alive) == 1:
            return alive[0]
        deadline = time.perf_counter() + self.seconds
        totals = [0.0] * len(alive)
        live = list(range(len(alive)))
        deals = 0
        next_halving = self.halve_at
        while deals < self.iterations:
            if deals and time.perf_counter() > deadline:
                break
            base = determinize(view, seat, rng)
            policy_seed = rng.getrandbits(63)
            for i in live:
                state = copy_state(base)
                step(state, seat, alive[i])
                totals[i] += simulate(state, seat, random.Random(policy_seed), self.depth)
            deals += 1
            if deals == next_halving and len(live) > 4:
                live.sort(key=lambda i: -totals[i])
                live = live[: max(4, (len(live) + 1) // 2)]
                next_halving *= 2
        self.last_iterations = deals
        best = max(live, key=lambda i: totals[i])
        return alive[best]


def make_strong_bot() -> BoomBot:
    return BoomBot()
