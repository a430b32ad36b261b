"""PoCoBOT fuzzing: seeded random playouts, garbage input, secrecy, determinisation, bots
(PB-1..PB-18 as invariants)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engines import IllegalAction
from cardgames.engines import pocobot as pb
from cardgames.engines.bots import RandomBot, play_game, seat_result
from cardgames.engines.pocobot.cards import DECK
from cardgames.engines.pocobot.panel import panel_cards

MAX_PLIES = 2 * pb.MAX_TURNS + 2  # every turn is one action plus at most one dodge (PB-18)


def strings(data) -> set[str]:
    """Every string anywhere in a JSON value (keys included)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set(data) | set().union(*(strings(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(strings(v) for v in data))
    return set()


def check_invariants(state: dict) -> None:
    cards = [
        *state["deck"],
        *state["discard"],
        *state["removed"],
        *state["hands"][0],
        *state["hands"][1],
        *panel_cards(state["panels"][0]),
        *panel_cards(state["panels"][1]),
    ]
    assert sorted(cards) == sorted(DECK), "a card was created or lost"
    text = json.dumps(state)
    assert pb.from_json(pb.to_json(state)) == state and pb.from_json(text) == state
    for seat in (0, 1, None):
        seen = strings(pb.view(state, seat))
        hidden = set(state["deck"]) | set().union(*(set(state["hands"][s]) for s in (0, 1) if s != seat))
        assert not seen & hidden, f"seat {seat} sees hidden cards {seen & hidden}"


def playout(seed: int, mix: float):
    """A seeded game: each ply the fast policy with probability ``mix``, else a random legal action."""
    rng = random.Random(seed)
    state = pb.new_game(2, seed)
    history = [state]
    actions = []
    while pb.to_move(state):
        assert len(actions) < MAX_PLIES
        seat = pb.to_move(state)[0]
        if rng.random() < mix:
            action = pb.policy_action(state, seat, rng)
        else:
            legal = pb.legal_actions(state, seat)
            assert legal and pb.legal_actions(state, 1 - seat) == []
            action = rng.choice(legal)
        state = pb.apply(state, seat, action)
        actions.append((seat, action))
        history.append(state)
    return history, actions


@pytest.fixture(scope="module")
def games():
    return [playout(seed, mix) for seed, mix in zip(range(18), [0.0, 0.6, 0.9] * 6, strict=True)]


def test_playouts_end_conserve_cards_and_keep_secrets(games):
    """PB-1..PB-18: every playout ends within the turn bound, with no card created or lost, every view
    hiding the other hand and the pile, and lossless JSON."""
    plies = 0
    outcomes = set()
    for history, actions in games:
        plies += len(actions)
        for state in history:
            check_invariants(state)
        final = pb.outcome(history[-1])
        assert final is not None and history[-1]["turn"] <= pb.MAX_TURNS
        outcomes.add("draw" if final["draw"] else "win")
    assert plies > 2000 and outcomes == {"draw", "win"}


def test_every_listed_action_applies(games):
    """Every action legal_actions lists applies without error (sampled positions)."""
    for history, _ in games[:12]:
        for state in history[::9]:
            for seat in pb.to_move(state):
                for action in pb.legal_actions(state, seat):
                    after = pb.apply(state, seat, action)
                    assert after is not state


def test_determinism(games):
    """Same seed and same actions → the same states."""
    for history, actions in games[:6]:
        state = pb.new_game(2, history[0]["rng"]["seed"])
        for (seat, action), expected in zip(actions, history[1:], strict=True):
            state = pb.apply(state, seat, action)
            assert state == expected


def test_determinize_is_consistent_with_the_view(games):
    """determinize(view) gives a full state whose view is the same, with hidden cards resampled."""
    rng = random.Random(3)
    for history, _ in games[:10]:
        for state in history[::7]:
            for seat in (0, 1):
                v = pb.view(state, seat)
                sample = pb.determinize(v, seat, rng)
                assert pb.view(sample, seat) == v
                check_invariants(sample)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**40), mix=st.sampled_from([0.0, 0.5, 0.9]), plies=st.integers(1, 40))
def test_short_random_playouts_keep_the_invariants(seed, mix, plies):
    """PB-1..PB-18: from a fresh deal, random or policy actions keep cards conserved, secrets hidden,
    JSON lossless, and a seat not to move has no actions."""
    rng = random.Random(seed)
    state = pb.new_game(2, seed)
    for _ in range(plies):
        check_invariants(state)
        movers = pb.to_move(state)
        if not movers:
            break
        seat = movers[0]
        assert pb.legal_actions(state, 1 - seat) == []
        action = (
            pb.policy_action(state, seat, rng)
            if rng.random() < mix
            else rng.choice(pb.legal_actions(state, seat))
        )
        state = pb.apply(state, seat, action)


# --------------------------------------------------------------------------- garbage input

CARD = st.sampled_from([*DECK, "JK", "1S", "", "10X"])
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-5, 60), st.text(max_size=4), CARD)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
KEYS = ["type", "ops", "card", "cards", "x", "fuel", "extra", "op", "module", "discard"]
TYPES = st.sampled_from(
    ["modify", "burn", "crew_draw", "fuel_attack", "projectile", "pass", "dodge", "attack", "MODIFY"]
)
OP = st.fixed_dictionaries(
    {"op": st.sampled_from(["place", "remove", "pilot", "copilot", "booster", "swap"])},
    optional={
        "card": CARD,
        "module": st.sampled_from(["S", "H", "C", "D", 3, None]),
        "discard": st.lists(CARD, max_size=3),
    },
)
ACTION = st.one_of(
    VALUE,
    st.dictionaries(st.sampled_from(KEYS), VALUE, max_size=4),
    st.fixed_dictionaries(
        {"type": TYPES},
        optional={
            "ops": st.one_of(st.lists(OP, max_size=3), VALUE),
            "card": st.one_of(CARD, VALUE),
            "cards": st.one_of(st.lists(CARD, max_size=3), VALUE),
            "x": st.one_of(st.integers(-2, 50), VALUE),
            "fuel": st.lists(CARD, max_size=4),
            "extra": st.one_of(st.none(), CARD),
        },
    ),
)
SEAT = st.one_of(st.sampled_from([0, 1]), SCALAR)


@pytest.fixture(scope="module")
def positions(games):
    return [state for history, _ in games for state in history[::5] if pb.to_move(state)]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_garbage_raises_illegal_action_and_leaves_state_unchanged(positions, data):
    """Random dicts, wrong types, other seats, actions from other states: IllegalAction or a legal
    move, never another exception, and the input state is never modified."""
    state = data.draw(st.sampled_from(positions))
    before = json.dumps(state, sort_keys=True)
    kind = data.draw(st.integers(0, 2))
    if kind == 0:
        seat, action = data.draw(SEAT), data.draw(ACTION)
    elif kind == 1:  # another position's action, maybe for the wrong seat
        other = data.draw(st.sampled_from(positions))
        mover = pb.to_move(other)[0]
        seat, action = (
            data.draw(st.sampled_from([mover, 1 - mover])),
            data.draw(st.sampled_from(pb.legal_actions(other, mover))),
        )
    else:  # a legal action with one field corrupted
        mover = pb.to_move(state)[0]
        action = dict(data.draw(st.sampled_from(pb.legal_actions(state, mover))))
        action[data.draw(st.sampled_from(KEYS))] = data.draw(VALUE)
        seat = mover
    try:
        pb.apply(state, seat, action)
    except IllegalAction:
        pass
    assert json.dumps(state, sort_keys=True) == before
    if seat not in pb.to_move(state) or seat is True:
        with pytest.raises(IllegalAction):
            pb.apply(state, seat, action)


def test_wrong_seat_and_finished_games_are_refused(games):
    """Not-to-move seats and finished games raise IllegalAction."""
    history, _ = games[0]
    state = history[3]
    mover = pb.to_move(state)[0]
    for seat in (1 - mover, 2, -1, None, "0", 0.0, True):
        with pytest.raises(IllegalAction):
            pb.apply(state, seat, pb.legal_actions(state, mover)[0])
    with pytest.raises(IllegalAction):
        pb.apply(history[-1], 0, {"type": "pass", "cards": []})


# --------------------------------------------------------------------------- bots


def test_bot_hooks_return_sane_values(games):
    """evaluate is in [0, 1]; the policy's action is always legal; pruning keeps legal actions."""
    rng = random.Random(9)
    for history, _ in games[:8]:
        for state in history[::11]:
            for seat in (0, 1):
                assert 0.0 <= pb.evaluate(state, seat) <= 1.0
            for seat in pb.to_move(state):
                pb.apply(state, seat, pb.policy_action(state, seat, rng))
                legal = pb.legal_actions(state, seat)
                for action in pb.candidate_actions(pb.view(state, seat), seat, legal, rng):
                    pb.apply(state, seat, action)


def test_strong_bot_beats_random_bot():
    """The strong bot (on a small time budget) beats the random bot in at least 8 of 10 games."""
    strong = pb.PocobotBot(iterations=30, seconds=0.03)
    score = 0.0
    for game in range(10):
        bots = [RandomBot(), RandomBot()]
        bots[game % 2] = strong
        state, _ = play_game(pb, bots, 500 + game)
        score += seat_result(pb, state, game % 2)
    assert score >= 8
