"""Boom: what the shared bots need (determinisation, evaluation, rollout policy).

The strong bot is :mod:`.search` (``make_strong_bot``); the one-ply ``GreedyBot`` (the benchmark's
opponent) uses :func:`determinize` and :func:`evaluate` from here, unchanged. ``StrongBot`` and
``STRONG_BOT`` are the earlier strong bot, kept as a baseline.

Every storage is face up, so the only hidden cards are the other hands, the deck and the discard.
:func:`determinize` deals the unseen cards uniformly into them; :func:`evaluate` is the seat's
share of the life left on the table, blended with its share of the living storages.
"""

from __future__ import annotations

import random
from collections import Counter

from cardgames.engines import new_rng_state
from cardgames.engines.boom.rules import (
    CHANGE,
    full_deck,
    is_figure,
    life,
    play,
    total_life,
    value,
)
from cardgames.engines.bots import MonteCarloBot


def determinize(view: dict, seat: int | None, rng: random.Random) -> dict:
    """A full state consistent with ``view``: the unseen cards dealt uniformly at random."""
    seats = view["seats"]
    boards = [[{"card": s["card"], "on": list(s["on"])} for s in board] for board in view["boards"]]
    seen = Counter(view["hand"] or [])
    for board in boards:
        for storage in board:
            seen += Counter([storage["card"], *storage["on"]])
    unseen = list((Counter(full_deck(view["decks"])) - seen).elements())
    rng.shuffle(unseen)
    hands = []
    for s in range(seats):
        if s == seat:
            hands.append(list(view["hand"]))
        else:
            count = view["hand_counts"][s]
            hands.append(unseen[:count])
            del unseen[:count]
    deck = unseen[: view["deck_count"]]
    discard = unseen[view["deck_count"] :]
    result = view["result"]
    return {
        "game": view["game"],
        "rng": new_rng_state(rng.getrandbits(63)),
        "seats": seats,
        "decks": view["decks"],
        "deck": deck,
        "discard": discard,
        "hands": hands,
        "boards": boards,
        "alive": list(view["alive"]),
        "turn": view["turn"],
        "step": view["step"],
        "turns": view["turns"],
        "result": None if result is None else {"winners": list(result["winners"]), "draw": result["draw"]},
    }


def _living_storages(state: dict, seat: int) -> int:
    return sum(1 for storage in state["boards"][seat] if life(storage) > 0)


def evaluate(state: dict, seat: int) -> float:
    """Heuristic in [0, 1]: the seat's share of the table's life and of its living storages."""
    if not state["alive"][seat]:
        return 0.0
    living = [s for s in range(state["seats"]) if state["alive"][s]]
    if len(living) == 1:
        return 1.0
    lives = {s: total_life(state, s) for s in living}
    counts = {s: _living_storages(state, s) for s in living}
    life_share = lives[seat] / max(1, sum(lives.values()))
    count_share = counts[seat] / max(1, sum(counts.values()))
    share = 0.6 * life_share + 0.4 * count_share
    # A fair share is 1/n; map it so that it reads as "even" (0.5) whatever the number of seats.
    fair = 1.0 / len(living)
    return 0.5 * share / fair if share <= fair else 0.5 + 0.5 * (share - fair) / (1 - fair)


def _boom_gain(state: dict, seat: int, number: int) -> int:
    """Enemy life removed by a Boom on ``number`` minus the caller's own life it removes."""
    gain = 0
    for target in range(state["seats"]):
        if not state["alive"][target]:
            continue
        hit = sum(number for s in state["boards"][target] if not is_figure(s["card"]) and life(s) == number)
        gain += -hit if target == seat else hit
    return gain


def _attack_gain(state: dict, action: dict) -> float:
    storage = state["boards"][action["target"]][action["storage"]]
    strength = value(action["card"])
    if life(storage) == strength:
        exact = strength == value(storage["card"])
        return 20 + strength + (10 if exact else 0)  # a kill, better still with the extra life
    return strength - 0.1 * life(storage)


def _main_gain(state: dict, seat: int, action: dict) -> float:
    kind = action["type"]
    if kind == "attack":
        return _attack_gain(state, action)
    if kind == "boom":
        return 3 * _boom_gain(state, seat, action["number"]) - 1
    if kind == "discard":
        # keep numbers, throw away figures unless they are building towards a Boom
        figures = sum(map(is_figure, action["cards"]))
        held = sum(map(is_figure, state["hands"][seat]))
        return (figures if held < 2 else -figures) - 0.5 * len(action["cards"])
    return 0.0


def candidate_actions(view: dict, seat: int, actions: list[dict]) -> list[dict]:
    """Root pruning: a Boom that takes no more enemy life than own is dominated by discarding
    three cards (it also discards three and draws three), so it is not searched."""
    state = {"seats": view["seats"], "alive": view["alive"], "boards": view["boards"]}
    kept = [a for a in actions if a["type"] != "boom" or _boom_gain(state, seat, a["number"]) > 0]
    return kept or actions


def _best_change(state: dict, seat: int, actions: list[dict]) -> dict:
    """The change that raises the seat's life most (a bigger card into a weaker storage), if any."""
    best, gain = actions[0], 0
    for action in actions[1:]:
        storage = state["boards"][seat][action["storage"]]
        delta = value(action["card"]) - value(storage["card"])
        if delta > gain:
            best, gain = action, delta
    return best


def heuristic_action(state: dict, seat: int, actions: list[dict], rng: random.Random) -> dict:
    """A cheap policy: the change that adds most life (if any), then the best immediate main
    action; now and then a random action."""
    if state["step"] == CHANGE:
        return _best_change(state, seat, actions) if rng.random() < 0.85 else rng.choice(actions)
    if rng.random() < 0.15:
        return rng.choice(actions)
    gains = [_main_gain(state, seat, a) for a in actions]
    best = max(gains)
    return rng.choice([a for a, g in zip(actions, gains, strict=True) if g == best])


def rollout_action(state: dict, seat: int, actions: list[dict], rng: random.Random) -> dict:
    """The rollout policy: one-ply greedy on :func:`evaluate` (through the unchecked
    :func:`~cardgames.engines.boom.rules.play`), ties broken by the cheap heuristic's gains."""
    if len(actions) == 1:
        return actions[0]
    change = state["step"] == CHANGE
    best, best_score = [], None
    for action in actions:
        score = evaluate(play(state, seat, action), seat)
        if not change:
            score += 1e-4 * _main_gain(state, seat, action)
        if best_score is None or score > best_score + 1e-12:
            best, best_score = [action], score
        elif abs(score - best_score) <= 1e-12:
            best.append(action)
    return rng.choice(best)



STRONG_BOT = {"iterations": 400, "seconds": 0.35, "exploration": 0.6}


class StrongBot(MonteCarloBot):
    """The shared Monte Carlo bot whose simulations look exactly one round ahead: the rest of
    this seat's turn, then one turn (change and main action) of every other seat still in the
    game, played by the greedy :func:`rollout_action`, then :func:`evaluate`."""

    name = "strong"

    def choose(self, engine, view, seat, actions, rng):
        others = sum(view["alive"]) - 1
        self.max_plies = 2 * others + (1 if view["step"] == CHANGE else 0)
        return super().choose(engine, view, seat, actions, rng)


def make_strong_bot() -> StrongBot:
    """The earlier strong bot (a baseline); the engine's strong bot is :func:`.search.make_strong_bot`."""
    return StrongBot(**STRONG_BOT)
