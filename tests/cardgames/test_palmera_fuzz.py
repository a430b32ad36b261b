"""En la palmera: seeded random playouts checking the protocol and the invariants after every action,
and the bots (PA-1..PA-10 all exercised through legal play)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engines import palmera as pa
from cardgames.engines.bots import MonteCarloBot, RandomBot, play_game, seat_result
from cardgames.engines.palmera.rules import suit_cards
from tests.cardgames.test_engines_common import Fuzz, fuzz, report
from tests.cardgames.palmera_boom_checks import (
    check_rejects,
    garbage_actions,
    hidden_codes_absent,
    random_playout,
)

FULL_GAMES = 150  # views, determinisation and round trips after every action
MAX_PLIES = 80  # 26 placements and at most 26 peeks per round... far less in practice


def cards_of(state: dict, seat: int) -> list[str]:
    board = [x["card"] for sides in state["board"] for x in sides[seat]]
    hand = [state["hands"][seat]] if state["hands"][seat] else []
    return sorted(state["piles"][seat] + hand + board + [x["card"] for x in state["out"][seat]])


def hidden_from(state: dict, seat: int | None) -> list[str]:
    """Every code ``seat`` must not see: piles, other hands, unseen face-down cards of others."""
    hidden = list(state["piles"][0]) + list(state["piles"][1])
    for owner in (0, 1):
        if owner == seat:
            continue
        if state["hands"][owner]:
            hidden.append(state["hands"][owner])
        entries = [x for sides in state["board"] for x in sides[owner]] + state["out"][owner]
        hidden += [x["card"] for x in entries if not x["up"] and not (x["peeked"] and seat == 1 - owner)]
    return hidden


def check_conservation(before, seat, action, after, rng):
    for owner in (0, 1):
        assert cards_of(after, owner) == sorted(suit_cards(owner)), "PA-1: 13 cards per seat, always"


def check_invariants(before, seat, action, after, rng):
    check_conservation(before, seat, action, after, rng)
    for who in (0, 1, None):
        view = after and pa.view(after, who)
        assert hidden_codes_absent(view, hidden_from(after, who)) == []
        json.dumps(view)
    assert pa.from_json(json.loads(json.dumps(pa.to_json(after)))) == after
    for who in (0, 1):
        view = pa.view(after, who)
        sample = pa.determinize(view, who, rng)
        assert pa.view(sample, who) == view
        assert cards_of(sample, 0) == sorted(suit_cards(0)) and cards_of(sample, 1) == sorted(suit_cards(1))


def test_pa_7_random_playouts_views_hide_and_determinize_agrees():
    """PA-7 and hidden placement: no view shows a card its seat may not see; determinisation,
    to_json/from_json are consistent with the views after every action."""
    for seed in range(FULL_GAMES):
        random_playout(pa, 2, 10**6 + seed, check_invariants, MAX_PLIES)


def test_garbage_actions_raise_illegal_action_and_change_nothing():
    foreign: list[dict] = []
    for seed in range(15):
        def step(before, seat, action, after, rng):
            legal = pa.legal_actions(before, seat)
            for junk in garbage_actions(rng, legal, foreign):
                check_rejects(pa, before, seat, junk)
            for wrong_seat in (1 - seat, -1, 2, None, "0", True, 0.0):
                check_rejects(pa, before, wrong_seat, rng.choice(legal))
            foreign.extend(legal)
            del foreign[:-50]

        random_playout(pa, 2, seed, step, MAX_PLIES)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    plies=st.integers(0, 40),
    junk=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
        max_leaves=8,
    ),
)
def test_any_junk_is_refused_or_legal(seed, plies, junk):
    state = pa.new_game(2, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        seat = pa.to_move(state)[0]
        state = pa.apply(state, seat, rng.choice(pa.legal_actions(state, seat)))
    check_rejects(pa, state, pa.to_move(state)[0], junk)


def test_same_seed_and_actions_give_the_same_states():
    for seed in range(20):
        trace_a, trace_b = [], []
        random_playout(pa, 2, seed, lambda b, s, a, after, r: trace_a.append((a, after)), MAX_PLIES)
        state = pa.new_game(2, seed)
        for action, after in trace_a:
            state = pa.apply(state, pa.to_move(state)[0], action)
            trace_b.append((action, state))
        assert trace_a == trace_b


def test_strong_bot_beats_the_random_bot():
    """A regression guard for the bot: the strong bot (a lighter budget) wins >= 8 of 10."""
    strong = MonteCarloBot(**{**pa.STRONG_BOT, "iterations": 16, "seconds": 0.2})
    score = 0.0
    for game in range(10):
        bots = [RandomBot(), RandomBot()]
        bots[game % 2] = strong
        state, _ = play_game(pa, bots, seed=500 + game)
        score += seat_result(pa, state, game % 2)
    assert score >= 8


def test_evaluate_is_in_unit_range_and_favours_the_leader():
    state = pa.new_game(2, 4)
    rng = random.Random(4)
    while pa.to_move(state):
        for seat in (0, 1):
            assert 0.0 <= pa.evaluate(state, seat) <= 1.0
        seat = pa.to_move(state)[0]
        state = pa.apply(state, seat, rng.choice(pa.legal_actions(state, seat)))
    winner = pa.outcome(state)["winners"]
    if winner:
        assert pa.evaluate(state, winner[0]) > 0.5 > pa.evaluate(state, 1 - winner[0])


# --------------------------------------------------------------------------- thousands of playouts

PLAYOUTS = 2000
def _cards(state: dict) -> list[str]:
    """Every card with the seat whose zones hold it (PA-1: a card never changes sides)."""
    return [f"{seat}:{card}" for seat in (0, 1) for card in cards_of(state, seat)]


FUZZ = Fuzz(engine=pa, cards=_cards, hidden=hidden_from,
            garbage=lambda rng, state, seat, legal, foreign: garbage_actions(rng, legal, foreign),
            max_plies=MAX_PLIES, full_every=15, final=lambda state, plies: _final(state, plies))


def _final(state: dict, plies: int) -> None:
    """PA-1: two rounds of 26 placements (plus peeks), both scored; 13 cards of its suit per seat."""
    assert len(state["scores"]) == 2 and 52 <= plies <= MAX_PLIES
    for seat in (0, 1):
        assert cards_of(state, seat) == sorted(suit_cards(seat))


def test_pa_2000_random_playouts_keep_every_property(record_property):
    """PA-1..PA-10 over 2000 seeded games: every listed action applies, every game ends within the
    ply bound, each seat keeps its 13 cards (PA-1), no view shows a card its seat may not see
    (PA-7), JSON round-trips, garbage raises IllegalAction only (see the fuzzer in
    test_engines_common.py for which check runs on which ply)."""
    totals = fuzz(__name__, [(2, seed) for seed in range(30_000, 30_000 + PLAYOUTS)])
    report(record_property, "palmera", totals)
    assert totals.games == PLAYOUTS
    assert totals.longest <= MAX_PLIES
    assert totals.full_checks >= 3 * PLAYOUTS
    assert totals.outcomes[(2, "win")] > 0
