"""Nismatch bots: the heuristic ``evaluate``, a cheap rollout policy, root pruning and the strong bot.

The strong bot is a determinised Monte Carlo search (UCB1 at the root) like
:class:`cardgames.engines.bots.MonteCarloBot`, but its rollouts run on the engine's fast in-place
path (:func:`.engine.step`) and stop after the end of the next turn, where :func:`evaluate` scores
the position: with stack priority passing, a game has hundreds of plies, far too many to play out.
It sees only its seat's view: hidden cards come from :func:`determinize`.
"""

from __future__ import annotations

import math
import random

from cardgames.engines.bots import ucb1_root

from .cards import card_def, card_key
from .engine import (
    claimed,
    copy_state,
    legal_actions,
    opponents,
    outcome,
    parts_on_unit,
    step,
    to_move,
    unit_stat,
)

STRONG_BOT = {"seconds": 0.3, "iterations": 160, "turns_ahead": 2, "max_plies": 120}


# ---------------------------------------------------------------- evaluation


def _part_value(code: str) -> float:
    d = card_def(code)
    return d["pg"] + 1.5 * (d["fue"] + d["def"]) + 0.5 * d["vel"] + 0.5 * max(0, d["charge"])


def _unit_value(state: dict, seat: int) -> float:
    p = state["players"][seat]
    value = 0.0
    for slot in p["unit"].values():
        if slot is not None:
            d = card_def(slot["card"])
            health = (d["pg"] - slot["damage"]) / d["pg"]
            value += (0.6 + 0.4 * health) * (1.0 if slot["active"] else 0.7)
    value += 0.4 * sum(ws is not None for ws in p["workshops"].values())
    return value


def _seat_score(state: dict, seat: int) -> float:
    p = state["players"][seat]
    foes = opponents(state, seat)
    foe = foes[0]
    fue, dfn = unit_stat(state, seat, "fue"), unit_stat(state, seat, "def")
    threat = max(0, fue - unit_stat(state, foe, "def"))
    danger = max(0, unit_stat(state, foe, "fue") - dfn)
    score = 1.1 * claimed(state, seat) + 0.35 * _unit_value(state, seat) + 0.12 * (threat - danger) / 2
    score += 0.06 * min(len(p["hand"]), 8) + 0.03 * min(max(p["charge"], -2), 4)
    if len(p["arsenal"]) < 4:
        score -= 0.4 * (4 - len(p["arsenal"]))
    return score


def evaluate(state: dict, seat: int) -> float:
    """Heuristic in [0, 1]: War Spoils first (NM-1), then the Units, the Guerrilla balance, cards."""
    result = outcome(state)
    if result is not None:
        if result["draw"] or not result["winners"]:
            return 0.5
        return 1.0 if seat in result["winners"] else 0.0
    diff = _seat_score(state, seat) - max(_seat_score(state, o) for o in opponents(state, seat))
    return 1.0 / (1.0 + math.exp(-diff))


# ---------------------------------------------------------------- rollout policy


def _remaining(state: dict, seat: int, zone: str) -> int:
    slot = state["players"][seat]["unit"][zone]
    return card_def(slot["card"])["pg"] - slot["damage"]


def _hit_score(state: dict, seat: int, zone: str, amount: int) -> float:
    """How good it is to deal ``amount`` to that Part: killing blows first, then big Parts."""
    slot = state["players"][seat]["unit"][zone]
    if amount >= _remaining(state, seat, zone):
        return 5.0 + 0.2 * _part_value(slot["card"])
    return amount / _remaining(state, seat, zone)


def _guerrilla_gear(state: dict) -> dict | None:
    return next((g for g in state["stack"] if g["kind"] == "guerrilla"), None)


def _ability_score(state: dict, seat: int, action: dict) -> float:
    p = state["players"][seat]
    code = action["card"] if action["type"] == "support" else p["unit"][action["zone"]]["card"]
    ab = card_def(code)["abilities"][0 if action["type"] == "support" else action["ability"]]
    target = action.get("target") or {}
    mine = target.get("seat") == seat
    fight = _guerrilla_gear(state)
    score = -0.3 * ab["cost"] - (0.8 if "discard" in action else 0.0)
    for eff in ab["effects"]:
        op = eff["op"]
        if op == "damage":
            if "zone" in target:
                score += -3 if mine else 1 + _hit_score(state, target["seat"], target["zone"], eff["amount"])
            else:
                score += sum(_hit_score(state, o, z, 1) for o in opponents(state, seat) for z in parts_on_unit(state, o))
        elif op in ("destroy", "demolish"):
            score += -5 if mine else 5
        elif op == "to_workshop":
            damaged = state["players"][target["seat"]]["unit"][target["zone"]]["damage"] > 0
            score += (1.5 if damaged else -2) if mine else 2.0
        elif op == "negate":
            score += 2.5
        elif op == "repair":
            score += 1.5
        elif op == "draw":
            score += 1.2 * eff["amount"]
        elif op == "recover":
            score += 1.0 if any(card_def(c)["kind"] == "part" for c in p["scrapyard"]) else -1
        elif op == "charge":
            score += 0.2 if eff["amount"] > 0 else 1.0
        elif op == "deactivate":
            score += -3 if mine else 1.5
        elif op == "modify":
            useful = (eff["stat"] == "fue" and state["phase"] == "guerrilla" and (fight is None or fight["attacker"] == seat)) or (
                eff["stat"] == "def" and (fight is not None and fight["defender"] == seat or eff["until"] == "your_next_turn"))
            score += 1.5 if useful else -0.5
    return score


def _action_score(state: dict, seat: int, action: dict) -> float:
    kind = action["type"]
    p = state["players"][seat]
    if kind == "keep":
        return 1.0
    if kind in ("torso", "rebuild", "attach"):
        d = card_def(action["card"])
        occupant = p["unit"][d["zone"]]
        gain = _part_value(action["card"]) - (0 if occupant is None else _part_value(occupant["card"]) + 4)
        return 1.0 + gain / 4 if kind != "attach" or gain > 0 else -1.0
    if kind in ("next", "pass", "rebuild_done"):
        return 0.5
    if kind == "guerrilla":
        foe = action["opponent"]
        if not parts_on_unit(state, foe):
            return 10.0
        diff = unit_stat(state, seat, "fue") - unit_stat(state, foe, "def")
        return 2.0 + diff if diff > 0 else -1.0
    if kind == "to_workshop":
        slot = p["unit"][action["zone"]]
        return 2.0 * slot["damage"] / card_def(slot["card"])["pg"]
    if kind == "from_workshop":
        return 2.5 if p["unit"][card_def(p["workshops"][action["workshop"]]["card"])["zone"]] is None else 0.2
    if kind == "damage_target":
        victim = state["pending"]["victim"]
        return _hit_score(state, victim, action["zone"], state["pending"]["amount"])
    if kind == "deactivate":
        return -_part_value(p["unit"][action["zone"]]["card"])
    if kind in ("activate", "support"):
        return _ability_score(state, seat, action)
    return 0.0


def rollout_action(state: dict, seat: int, actions: list[dict], rng: random.Random) -> dict:
    """A cheap, sensible policy: the best action by a hand-written score, with a little noise."""
    if len(actions) == 1:
        return actions[0]
    return max(actions, key=lambda a: _action_score(state, seat, a) + 0.6 * rng.random())


# ---------------------------------------------------------------- pruning and the strong bot


def candidate_actions(view: dict, seat: int, actions: list[dict]) -> list[dict]:
    """Drop actions that differ only by which copy of an identical card they use."""
    seen, out = set(), []
    for a in actions:
        key = tuple(sorted((k, card_key(v) if k in ("card", "discard") else str(v)) for k, v in a.items()))
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def _rollout(state: dict, seat: int, rng: random.Random, turn_limit: int, max_plies: int) -> float:
    for _ in range(max_plies):
        movers = to_move(state)
        if not movers or state["turn"] > turn_limit:
            break
        mover = movers[0]
        step(state, mover, rollout_action(state, mover, legal_actions(state, mover), rng))
    return evaluate(state, seat)


class NismatchBot:
    """Determinised Monte Carlo with UCB1 at the root and depth-limited heuristic rollouts."""

    name = "strong"

    def __init__(self, seconds: float = 0.3, iterations: int = 160, turns_ahead: int = 2, max_plies: int = 120,
                 exploration: float = 0.4) -> None:
        self.seconds = seconds
        self.iterations = iterations
        self.turns_ahead = turns_ahead
        self.max_plies = max_plies
        self.exploration = exploration

    def choose(self, engine, view, seat, actions, rng):
        from . import determinize

        candidates = candidate_actions(view, seat, actions)

        def simulate(action):
            state = determinize(view, seat, rng)
            step(state, seat, action)
            return _rollout(state, seat, rng, state["turn"] + self.turns_ahead, self.max_plies)

        return ucb1_root(candidates, simulate, iterations=self.iterations, seconds=self.seconds,
                         exploration=self.exploration)


def make_strong_bot() -> NismatchBot:
    return NismatchBot(**STRONG_BOT)


__all__ = ["STRONG_BOT", "NismatchBot", "candidate_actions", "copy_state", "evaluate", "make_strong_bot",
           "rollout_action"]
