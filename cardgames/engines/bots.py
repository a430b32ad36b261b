"""Bots for every engine, written once against the common protocol.

A bot sees only what its seat sees: it is handed ``view(state, seat)`` and the seat's legal
actions, never the state. The strong bot determinises the hidden information from the view
(``engine.determinize``), so it cannot peek.

- :class:`RandomBot`: a uniformly random legal action.
- :class:`GreedyBot`: one ply: the action whose resulting position ``engine.evaluate`` likes best,
  averaged over a few determinisations.
- :class:`MonteCarloBot`: perfect-information Monte Carlo (determinised) with UCB1 at the root:
  each iteration samples a state consistent with the view, applies a candidate action and plays the
  game out with a fast policy to the end or a depth limit, where ``engine.evaluate`` scores it.
  Budgeted by iterations and by time. An engine may refine it with ``rollout_action(state, seat,
  actions, rng)`` (the rollout policy) and ``candidate_actions(state, seat, actions)`` (prune the
  root, e.g. dominated moves).
"""

from __future__ import annotations

import math
import random
import time
from types import ModuleType
from typing import Protocol


class Bot(Protocol):
    name: str

    def choose(self, engine: ModuleType, view: dict, seat: int, actions: list[dict], rng: random.Random) -> dict: ...


def seat_result(engine: ModuleType, state: dict, seat: int) -> float | None:
    """1 for a win, 0 for a loss, 0.5 for a draw or a shared win; ``None`` while playing."""
    result = engine.outcome(state)
    if result is None:
        return None
    winners = result["winners"]
    if result["draw"] or not winners:
        return 0.5
    if seat in winners:
        return 1.0 / len(winners) if len(winners) > 1 else 1.0
    return 0.0


def position_value(engine: ModuleType, state: dict, seat: int) -> float:
    result = seat_result(engine, state, seat)
    return engine.evaluate(state, seat) if result is None else result


class RandomBot:
    name = "random"

    def choose(self, engine, view, seat, actions, rng):
        return rng.choice(actions)


class GreedyBot:
    """One-ply lookahead on ``engine.evaluate``, averaged over ``samples`` determinisations."""

    name = "greedy"

    def __init__(self, samples: int = 4) -> None:
        self.samples = samples

    def choose(self, engine, view, seat, actions, rng):
        if len(actions) == 1:
            return actions[0]
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            state = engine.determinize(view, seat, rng)
            for i, action in enumerate(actions):
                totals[i] += position_value(engine, engine.apply(state, seat, action), seat)
        best = max(totals)
        return rng.choice([a for a, t in zip(actions, totals, strict=True) if t == best])


def _rollout_action(engine, state, seat, rng):
    actions = engine.legal_actions(state, seat)
    policy = getattr(engine, "rollout_action", None)
    return policy(state, seat, actions, rng) if policy else rng.choice(actions)


def rollout(engine: ModuleType, state: dict, seat: int, rng: random.Random, max_plies: int) -> float:
    """Play ``state`` out with the rollout policy; the value for ``seat``."""
    for _ in range(max_plies):
        movers = engine.to_move(state)
        if not movers:
            break
        mover = movers[0]
        state = engine.apply(state, mover, _rollout_action(engine, state, mover, rng))
    return position_value(engine, state, seat)


class MonteCarloBot:
    """Determinised Monte Carlo with UCB1 over the root actions."""

    name = "montecarlo"

    def __init__(self, iterations: int = 400, seconds: float = 0.8, max_plies: int = 60, exploration: float = 0.7):
        self.iterations = iterations
        self.seconds = seconds
        self.max_plies = max_plies
        self.exploration = exploration

    def choose(self, engine, view, seat, actions, rng):
        prune = getattr(engine, "candidate_actions", None)
        candidates = prune(view, seat, actions) if prune else actions

        def simulate(action):
            state = engine.apply(engine.determinize(view, seat, rng), seat, action)
            return rollout(engine, state, seat, rng, self.max_plies)

        return ucb1_root(candidates, simulate, iterations=self.iterations, seconds=self.seconds,
                         exploration=self.exploration)


def ucb1_root(candidates: list[dict], simulate, *, iterations: int, seconds: float, exploration: float) -> dict:
    """UCB1 over the root ``candidates``: ``simulate(action)`` plays one determinised sample and
    returns its value in [0, 1]. Every candidate is tried once, then the budget (``iterations``,
    and ``seconds`` once each was tried) goes to the best upper bound; the most visited wins."""
    if len(candidates) == 1:
        return candidates[0]
    visits = [0] * len(candidates)
    values = [0.0] * len(candidates)
    deadline = time.perf_counter() + seconds
    for it in range(iterations):
        if it >= len(candidates) and time.perf_counter() > deadline:
            break
        if it < len(candidates):
            i = it
        else:
            log_n = math.log(it)
            i = max(
                range(len(candidates)),
                key=lambda k: values[k] / visits[k] + exploration * math.sqrt(log_n / visits[k]),
            )
        values[i] += simulate(candidates[i])
        visits[i] += 1
    best = max(range(len(candidates)), key=lambda k: (visits[k], values[k]))
    return candidates[best]


def play_game(engine: ModuleType, bots: list, seed: int, *, options: dict | None = None, max_plies: int = 5000) -> tuple[dict, int]:
    """Play one game with one bot per seat; returns the final state and the number of plies.

    Each bot gets its own seeded generator and only its seat's view and legal actions.
    """
    state = engine.new_game(len(bots), seed, options)
    rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(len(bots))]
    plies = 0
    while plies < max_plies:
        movers = engine.to_move(state)
        if not movers:
            break
        seat = movers[0]
        actions = engine.legal_actions(state, seat)
        action = bots[seat].choose(engine, engine.view(state, seat), seat, actions, rngs[seat])
        state = engine.apply(state, seat, action)
        plies += 1
    return state, plies


def strong_bot(engine: ModuleType) -> Bot:
    """The engine's strong bot: its own ``make_strong_bot()`` if it has one, else a
    :class:`MonteCarloBot` tuned by the engine's ``STRONG_BOT`` keyword arguments."""
    factory = getattr(engine, "make_strong_bot", None)
    if factory is not None:
        return factory()
    return MonteCarloBot(**getattr(engine, "STRONG_BOT", {}))


def make_bot(engine: ModuleType, kind: str) -> Bot:
    """``"random"``, ``"greedy"`` or ``"strong"``."""
    if kind == "random":
        return RandomBot()
    if kind == "greedy":
        return GreedyBot()
    if kind == "strong":
        return strong_bot(engine)
    raise ValueError(f"unknown bot kind {kind!r}")
