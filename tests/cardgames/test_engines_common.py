"""The common protocol of cardgames/engines: shared validation helpers and the outcome shape."""

from __future__ import annotations

import json
import random

import pytest

from cardgames import engines
from cardgames.engines.validation import is_flat, is_legal, short

LEGAL = [{"type": "place", "square": 1}, {"type": "discard", "cards": ["2C", "3C"]}]


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place", "square": True},  # bool is not int
        {"type": "place", "square": 1.0},
        {"type": "discard", "cards": ("2C", "3C")},
        {"type": "discard", "cards": ["2C", 3]},
        {1: "place"},
        ["type", "place"],
        None,
    ],
)
def test_is_legal_rejects_look_alikes(action):
    """Only a flat dict equal to a legal action passes; ``==`` alone would accept True for 1."""
    assert not is_legal(action, LEGAL)


def test_is_legal_accepts_a_legal_flat_action():
    assert is_flat({"type": "discard", "cards": ["2C"], "n": 3})
    assert is_legal({"square": 1, "type": "place"}, LEGAL)
    assert not is_legal({"type": "place", "square": 2}, LEGAL)


def test_short_bounds_untrusted_input():
    assert len(short("x" * 10_000)) <= 80
    assert len(short([list(range(50))] * 50)) <= 80
    assert short({"a": 1}) == "{'a': 1}"


@pytest.mark.parametrize("name", engines.ENGINE_NAMES)
def test_outcome_scores_have_string_seat_keys_and_int_winners(name):
    """Protocol: ``scores`` is keyed by the seat as a string (JSON-safe), ``winners`` holds ints."""
    engine = engines.get(name)
    rng = random.Random(11)
    state = engine.new_game(2, 11)
    for _ in range(5000):
        movers = engine.to_move(state)
        if not movers:
            break
        seat = movers[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    result = engine.outcome(state)
    assert result is not None, "a random game ends within 5000 plies"
    assert set(result["scores"]) == {"0", "1"}
    assert all(type(seat) is int for seat in result["winners"])
    assert json.loads(json.dumps(result)) == result
