"""Boom: seeded random playouts with 2, 3 and 4 seats checking the protocol and the invariants after
every action, and the bots (BO-1..BO-11 all exercised through legal play)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgames.engines import boom as bo
from cardgames.engines.boom.rules import MAX_TURNS, card_count, full_deck
from cardgames.engines.bots import RandomBot, play_game, seat_result
from tests.cardgames.palmera_boom_checks import (
    check_rejects,
    garbage_actions,
    hidden_codes_absent,
    random_playout,
)
from tests.cardgames.test_boom import make_state
from tests.cardgames.test_engines_common import Fuzz, fuzz, report

FULL_GAMES = 12  # views, determinisation and round trips after every action
MAX_PLIES = 2 * MAX_TURNS + 2  # two actions a turn; the turn limit ends every game
DECK = Counter(full_deck())


def check_conservation(before, seat, action, after, rng):
    assert card_count(after) == DECK, "BO-1: no card is made or lost"


def check_invariants(before, seat, action, after, rng):
    check_conservation(before, seat, action, after, rng)
    seats = after["seats"]
    for who in [*range(seats), None]:
        hidden = list(after["deck"]) + list(after["discard"])
        hidden += [c for other in range(seats) if other != who for c in after["hands"][other]]
        assert hidden_codes_absent(bo.view(after, who), hidden) == []
    assert bo.from_json(json.loads(json.dumps(bo.to_json(after)))) == after
    for who in range(seats):
        view = bo.view(after, who)
        sample = bo.determinize(view, who, rng)
        assert bo.view(sample, who) == view and card_count(sample) == DECK


def test_bo_random_playouts_views_hide_and_determinize_agrees():
    """Views show no hidden card (other hands, deck, discard); determinisation and to_json/from_json
    agree with them after every action, with 2, 3 and 4 seats."""
    for seed in range(FULL_GAMES):
        random_playout(bo, 2 + seed % 3, 10**6 + seed, check_invariants, MAX_PLIES)


def test_garbage_actions_raise_illegal_action_and_change_nothing():
    foreign: list[dict] = []
    for seed in range(6):
        def step(before, seat, action, after, rng):
            if rng.random() > 0.3:
                return
            legal = bo.legal_actions(before, seat)
            for junk in garbage_actions(rng, legal, foreign):
                check_rejects(bo, before, seat, junk)
            for wrong_seat in ((seat + 1) % before["seats"], -1, 4, None, "0", True, 0.0):
                check_rejects(bo, before, wrong_seat, rng.choice(legal))
            foreign.extend(legal)
            del foreign[:-80]

        random_playout(bo, 2 + seed % 3, seed, step, MAX_PLIES)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    seats=st.integers(2, 4),
    plies=st.integers(0, 60),
    junk=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=8,
    ),
)
def test_any_junk_is_refused_or_legal(seed, seats, plies, junk):
    state = bo.new_game(seats, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if not bo.to_move(state):
            break
        seat = bo.to_move(state)[0]
        state = bo.apply(state, seat, rng.choice(bo.legal_actions(state, seat)))
    check_rejects(bo, state, (bo.to_move(state) or [0])[0], junk)


def test_same_seed_and_actions_give_the_same_states():
    for seed in range(12):
        trace = []
        def record(before, seat, action, after, rng):
            trace.append((seat, action, after))

        random_playout(bo, 2 + seed % 3, seed, record, MAX_PLIES)
        state = bo.new_game(2 + seed % 3, seed)
        for seat, action, after in trace:
            state = bo.apply(state, seat, action)
            assert state == after


def test_strong_bot_beats_the_random_bot():
    """A regression guard for the bot: the strong bot (a lighter budget) wins >= 8 of 10."""
    strong = bo.make_strong_bot()
    strong.iterations, strong.seconds = 8, 0.1
    score = 0.0
    for game in range(10):
        bots = [RandomBot(), RandomBot()]
        bots[game % 2] = strong
        state, _ = play_game(bo, bots, seed=700 + game)
        score += seat_result(bo, state, game % 2)
    assert score >= 8


def test_evaluate_is_in_unit_range_and_knows_the_winner():
    for seed in range(6):
        final = random_playout(bo, 2 + seed % 3, seed, lambda *a: None, MAX_PLIES)
        for seat in range(final["seats"]):
            assert 0.0 <= bo.evaluate(final, seat) <= 1.0
        if not final["result"]["draw"]:
            winner = final["result"]["winners"][0]
            assert bo.evaluate(final, winner) == 1.0
            assert all(bo.evaluate(final, s) == 0.0 for s in range(final["seats"]) if s != winner)


def test_bo_7_the_bot_does_not_search_booms_that_hurt_only_itself():
    """Root pruning: a Boom removing no more enemy life than own is dominated by a discard."""
    state = make_state(hands=[["JS", "QD", "KH"], ["2S", "QH", "8D"]], boards=[["5S", "9C"], ["5H", "3C"]])
    actions = bo.legal_actions(state, 0)
    kept = bo.candidate_actions(bo.view(state, 0), 0, actions)
    assert [a["number"] for a in kept if a["type"] == "boom"] == [3]
    assert [a for a in actions if a["type"] != "boom"] == [a for a in kept if a["type"] != "boom"]


def test_strong_bot_looks_one_round_ahead():
    bot = bo.StrongBot(**bo.STRONG_BOT)  # the earlier strong bot, kept as a baseline
    bot.iterations, bot.seconds = 4, 0.05
    state = bo.new_game(3, seed=2)
    seat = state["turn"]
    action = bot.choose(bo, bo.view(state, seat), seat, bo.legal_actions(state, seat), random.Random(1))
    assert action in bo.legal_actions(state, seat) and bot.max_plies == 2 * 2 + 1


# --------------------------------------------------------------------------- thousands of playouts

PLAYOUTS = 2001  # a third each with 2, 3 and 4 seats


def _hidden(state: dict, viewer: int | None) -> list[str]:
    """The deck, the discard and every hand but the viewer's own."""
    hidden = [*state["deck"], *state["discard"]]
    return hidden + [c for seat in range(state["seats"]) if seat != viewer for c in state["hands"][seat]]


def _cards(state: dict) -> list[str]:
    cards = [*state["deck"], *state["discard"]]
    for seat in range(state["seats"]):
        cards += state["hands"][seat]
        for storage in state["boards"][seat]:
            cards += [storage["card"], *storage["on"]]
    return cards


FUZZ = Fuzz(engine=bo, cards=_cards, hidden=_hidden,
            garbage=lambda rng, state, seat, legal, foreign: garbage_actions(rng, legal, foreign),
            max_plies=MAX_PLIES, full_every=100, final=lambda state, plies: _final(state))


def _final(state: dict) -> None:
    """BO-10: the last seat with life wins; a draw when every seat went at once or at the turn limit."""
    assert Counter(_cards(state)) == DECK, "BO-1: the 52 cards of one deck"
    result = bo.outcome(state)
    alive = [s for s in range(state["seats"]) if state["alive"][s]]
    if result["draw"]:
        assert state["turns"] >= MAX_TURNS or alive == []
    else:
        assert result["winners"] == alive and len(alive) == 1


def test_bo_2001_random_playouts_keep_every_property(record_property):
    """BO-1..BO-11 over 2001 seeded games, 667 each with 2, 3 and 4 seats: every listed action
    applies, every game ends within the turn bound, no card is created or lost (BO-1), no view
    shows a hidden card (other hands, deck, discard), JSON round-trips, garbage raises IllegalAction
    only (see the fuzzer in test_engines_common.py for which check runs on which ply)."""
    totals = fuzz(__name__, [(2 + seed % 3, 20_000 + seed) for seed in range(PLAYOUTS)])
    report(record_property, "boom", totals)
    assert totals.games == PLAYOUTS
    assert totals.longest <= MAX_PLIES
    assert totals.full_checks >= 3 * PLAYOUTS
    for seats in (2, 3, 4):
        assert sum(n for (s, _), n in totals.outcomes.items() if s == seats) == PLAYOUTS // 3
        assert totals.outcomes[(seats, "win")] > 0
