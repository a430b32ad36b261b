"""Protocol checks shared by the En la palmera and Boom fuzz tests (not a test module itself)."""

from __future__ import annotations

import json
import random
from types import ModuleType

import pytest

from cardgames.engines import IllegalAction

JUNK_VALUES = [
    None, True, False, 0, 1, -1, 3, 8, 11, 99, 2.5, float("nan"), "", "x", "3", "KD", "5H",
    [], ["5H"], {}, {"type": "place"}, ("a",), 10**30,
]
JUNK_KEYS = [
    "type", "square", "first", "slot", "card", "cards", "target", "storage", "number", "extra", 1, None,
]
JUNK_TYPES = [
    "place", "peek", "discard", "change", "skip_change", "attack", "boom", "pass", "PLACE", "", None, 3,
]


def garbage_actions(rng: random.Random, legal: list[dict], foreign: list[dict]) -> list[object]:
    """Malformed, mistyped and foreign actions (some may happen to be legal: the caller checks)."""
    junk: list[object] = [None, "place", 3, [], ["place"], {}, {"type": None}, object()]
    for _ in range(4):
        action = {rng.choice(JUNK_KEYS): rng.choice(JUNK_VALUES) for _ in range(rng.randint(1, 4))}
        action["type"] = rng.choice(JUNK_TYPES)
        junk.append(action)
    if legal:
        base = rng.choice(legal)
        for name in base:
            mutated = dict(base)
            mutated[name] = rng.choice(JUNK_VALUES)
            junk.append(mutated)
            bool_or_float = dict(base)
            if type(base[name]) is int:
                bool_or_float[name] = float(base[name]) if rng.random() < 0.5 else bool(base[name])
                junk.append(bool_or_float)
        junk.append({**base, "extra": 1})
        junk.append({k: v for k, v in base.items() if k != "type"})
    junk += rng.sample(foreign, min(3, len(foreign)))
    return junk


def snapshot(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def check_rejects(engine: ModuleType, state: dict, seat: object, action: object) -> None:
    """``action`` applies if it is legal, else raises IllegalAction; the state never changes."""
    before = snapshot(state)
    legal = engine.legal_actions(state, seat) if type(seat) is int else []
    is_legal = _exact_in(action, legal)
    if is_legal:
        engine.apply(state, seat, action)
    else:
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, action)
    assert snapshot(state) == before


def _exact_in(action: object, legal: list[dict]) -> bool:
    try:
        text = json.dumps(action, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return isinstance(action, dict) and all(isinstance(k, str) for k in action) and text in {
        json.dumps(a, sort_keys=True) for a in legal
    }


def hidden_codes_absent(view: dict, hidden: list[str]) -> list[str]:
    """The hidden codes that do appear in the JSON text of ``view`` (should be empty)."""
    text = json.dumps(view)
    return [code for code in hidden if f'"{code}"' in text]


def random_playout(engine: ModuleType, seats: int, seed: int, step, max_plies: int) -> dict:
    """Play random legal actions, calling ``step(before, seat, action, after, rng)`` after each."""
    rng = random.Random(f"fuzz:{seed}")
    state = engine.new_game(seats, seed)
    for _ in range(max_plies):
        movers = engine.to_move(state)
        if not movers:
            return state
        seat = movers[0]
        actions = engine.legal_actions(state, seat)
        assert actions, "a seat to move must have an action"
        for other in range(seats):
            if other not in movers:
                assert engine.legal_actions(state, other) == []
        action = rng.choice(actions)
        after = engine.apply(state, seat, action)
        step(state, seat, action, after, rng)
        state = after
    raise AssertionError(f"game {seed} did not end within {max_plies} plies")
