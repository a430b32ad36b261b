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
from cardgames.engines.pocobot import game
from cardgames.engines.pocobot.cards import DECK, MODULES, is_figure, is_numeric, suit
from cardgames.engines.pocobot.panel import capacity, copy_panel, panel_cards
from tests.cardgames.test_engines_common import Fuzz, fuzz, junk_actions, report

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


def _reference_single_ops(panel: dict, hand: list[str]) -> list[dict]:
    """The engine's original, straightforward op enumeration (before the speed-up of issue #4)."""
    ops: list[dict] = []
    for card in hand:
        if is_numeric(card):
            zone = suit(card)
            if zone == "D" or len(panel[zone]) < capacity(panel, zone):
                ops.append({"op": "place", "card": card})
        elif is_figure(card):
            if panel["pilot"] is None and suit(card) != "D":
                ops.append({"op": "pilot", "card": card})
            if panel["pilot"] is not None and panel["copilot"] is None:
                if suit(card) == "D":
                    ops.extend({"op": "copilot", "card": card, "module": m} for m in MODULES)
                else:
                    ops.append({"op": "copilot", "card": card})
        elif panel["booster"] is None:
            ops.append({"op": "booster", "card": card})
    for zone in ("S", "H", "C", "D"):
        ops.extend({"op": "remove", "card": c} for c in panel[zone])
    crew = [panel["copilot"], panel["booster"]] + ([panel["pilot"]] if panel["copilot"] is None else [])
    for card in crew:
        if card is not None:
            ops.extend(game._removals(panel, card))
    return ops


def _reference_modify_actions(panel: dict, hand: list[str]) -> list[dict]:
    """The original modify enumeration: apply every op and op pair to copies, keep the first
    spelling of each distinct (panel, discarded cards) result."""
    seen: set = set()
    actions: list[dict] = []

    def record(ops, p, out):
        key = (tuple(tuple(p[z]) for z in "SHCD"), p["pilot"], p["copilot"], p["copilot_module"], p["booster"],
               tuple(sorted(out)))
        if key not in seen:
            seen.add(key)
            actions.append({"type": "modify", "ops": ops})

    firsts = []
    for op1 in _reference_single_ops(panel, hand):
        p1, h1 = copy_panel(panel), list(hand)
        out1 = game._do_op_unchecked(p1, h1, op1)
        record([op1], p1, out1)
        firsts.append((op1, p1, h1, out1))
    for op1, p1, h1, out1 in firsts:
        for op2 in _reference_single_ops(p1, h1):
            p2, h2 = copy_panel(p1), list(h1)
            out2 = game._do_op_unchecked(p2, h2, op2)
            record([op1, op2], p2, out1 + out2)
    return actions


def test_pb_8_modify_listing_matches_the_reference_enumeration(games):
    """PB-8 (and PB-3/PB-4 through the removals): the fast modify enumeration lists exactly the
    actions, in the same order, of the straightforward one it replaced (apply each op and op pair
    to a copy of the panel and keep the first spelling of each result)."""
    checked = 0
    for history, _ in games:
        for state in history[::2]:
            for seat in pb.to_move(state):
                if state["phase"] == "action":
                    panel, hand = state["panels"][seat], state["hands"][seat]
                    assert game._modify_actions(panel, hand) == _reference_modify_actions(panel, hand)
                    checked += 1
    assert checked > 500


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
    for number in range(10):
        bots = [RandomBot(), RandomBot()]
        bots[number % 2] = strong
        state, _ = play_game(pb, bots, 500 + number)
        score += seat_result(pb, state, number % 2)
    assert score >= 8


# --------------------------------------------------------------------------- thousands of playouts

PLAYOUTS = 2000
# The share of fast-policy plies in a game, by seed: the policy builds a mecha and attacks, so
# games end by a collapse (PB-16) within ~100 plies; one game in 20 is purely random and lasts to
# the turn limit (PB-18).
POLICY_MIX = (0.25, 0.3, 0.35, 0.3) * 4 + (0.25, 0.3, 0.35, 0.0)


def _cards(state: dict) -> list[str]:
    return [*state["deck"], *state["discard"], *state["removed"], *state["hands"][0], *state["hands"][1],
            *panel_cards(state["panels"][0]), *panel_cards(state["panels"][1])]


def _hidden(state: dict, viewer: int | None) -> list[str]:
    """The draw pile and every hand but the viewer's own."""
    return [*state["deck"], *(c for seat in (0, 1) if seat != viewer for c in state["hands"][seat])]


JUNK_CARDS = [*DECK[:6], "JK", "1S", "", "10X", None, 3, True, ["2S"], {"card": "2S"}]
TYPES_LIST = ["modify", "burn", "crew_draw", "fuel_attack", "projectile", "pass", "dodge", "attack", "MODIFY",
              "", None, 3]


def _garbage(rng, state, seat, legal, foreign):
    return junk_actions(rng, legal, foreign, keys=KEYS, types=TYPES_LIST, values=JUNK_CARDS)


def _illegal(rng, state, seat):
    """Actions no spelling makes legal: cards from the pile or the other hand, no or three ops."""
    other_hand = state["hands"][1 - seat]
    return [
        {"type": "modify", "ops": []},
        {"type": "modify", "ops": [{"op": "place", "card": c} for c in state["deck"][-3:]]},
        {"type": "pass", "cards": state["deck"][-2:]},
        {"type": "burn", "card": other_hand[0] if other_hand else "AD"},
        {"type": "dodge", "card": "AD"},
        {"type": "projectile", "card": state["deck"][-1] if state["deck"] else "JK"},
    ]


def _final(state: dict, plies: int) -> None:
    """PB-16/PB-18: a collapse wins for the attacker; otherwise turn 300 ends it in a draw; the 52
    cards of the deck are all somewhere."""
    assert sorted(_cards(state)) == sorted(DECK)
    assert state["turn"] <= pb.MAX_TURNS and plies <= MAX_PLIES
    if state["draw"]:
        assert state["turn"] == pb.MAX_TURNS and state["winner"] is None
    else:
        assert state["winner"] in (0, 1) and pb.outcome(state)["winners"] == [state["winner"]]


FUZZ = Fuzz(engine=pb, cards=_cards, hidden=_hidden, garbage=_garbage, max_plies=MAX_PLIES, full_every=30,
            listed_only=False, illegal=_illegal, final=_final)


def playout_policy(seed: int):
    """Each ply the fast policy with probability ``mix`` (by seed), else a uniformly random listed action."""
    mix = POLICY_MIX[seed % len(POLICY_MIX)]

    def choose(state, seat, actions, rng):
        return pb.policy_action(state, seat, rng) if rng.random() < mix else rng.choice(actions)

    return choose


def test_pocobot_2000_random_playouts_keep_every_property(record_property):
    """PB-1..PB-18 over 2000 seeded games (a random or fast-policy action each ply): every listed
    action applies, every game ends within the turn bound (PB-18), no card is created or lost,
    no view shows another seat's hand or the pile, JSON round-trips, garbage raises IllegalAction
    only (the fuzzer in test_engines_common.py says which check runs on which ply)."""
    totals = fuzz(__name__, [(2, seed) for seed in range(PLAYOUTS)])
    report(record_property, "pocobot", totals)
    assert totals.games == PLAYOUTS
    assert totals.longest <= MAX_PLIES
    assert totals.full_checks >= 3 * PLAYOUTS
    assert totals.outcomes[(2, "win")] and totals.outcomes[(2, "draw")]
