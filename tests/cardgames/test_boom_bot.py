"""Boom: the strong bot (cardgames/engines/boom/search.py).

It must see only its seat's view, always answer a legal action, keep to its budget, beat the random
bot, and its in-place simulation must follow the engine's rules exactly (BO-4..BO-11)."""

from __future__ import annotations

import random
import time

from cardgames.engines import boom
from cardgames.engines.boom import rules
from cardgames.engines.boom import search as se
from cardgames.engines.bots import RandomBot, play_game, seat_result, strong_bot


def _random_position(seats: int, seed: int, rng: random.Random, plies: int) -> dict:
    state = rules.new_game(seats, seed)
    for _ in range(plies):
        if not rules.to_move(state):
            break
        seat = rules.to_move(state)[0]
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    return state


def test_bo_4_to_bo_11_in_place_step_matches_the_engine():
    """BO-4..BO-11: the bot's in-place :func:`step` gives exactly the engine's state (hands, boards,
    deck order, discard, eliminations, result, random-number counter) for every action of seeded
    random games with 2, 3 and 4 seats, including reshuffles of the discard (BO-11)."""
    rng = random.Random(4)
    plies = 0
    kinds = set()
    reshuffles = 0
    for seed in range(90):
        seats = 2 + seed % 3
        state = rules.new_game(seats, seed)
        while rules.to_move(state):
            seat = rules.to_move(state)[0]
            action = rng.choice(rules.legal_actions(state, seat))
            mine = rules.copy_state(state)
            se.step(mine, seat, action)
            after = rules.play(state, seat, action)
            assert mine == after, (seed, action)
            reshuffles += len(after["deck"]) > len(state["deck"])
            kinds.add(action["type"])
            state = after
            plies += 1
    assert plies > 3000
    assert {"change", "skip_change", "attack", "boom", "discard"} <= kinds
    assert reshuffles > 0


def test_rollout_policy_plays_only_legal_actions():
    """BO-4..BO-8: every action of :func:`policy` is among the engine's legal actions (whole games
    of the policy against itself, 2 to 4 seats), and it uses attacks, Booms, discards and changes."""
    rng = random.Random(6)
    kinds = set()
    for seed in range(60):
        state = rules.new_game(2 + seed % 3, 500 + seed)
        while rules.to_move(state):
            seat = rules.to_move(state)[0]
            action = se.policy(state, seat, rng)
            assert action in rules.legal_actions(state, seat), (seed, action)
            kinds.add(action["type"])
            state = rules.apply(state, seat, action)
    assert {"change", "skip_change", "attack", "boom", "discard"} <= kinds


def _hidden_shuffle(state: dict, seat: int, rng: random.Random) -> dict:
    """The same position with the cards ``seat`` cannot see (the other hands, the deck and the
    discard) dealt again among the same places, each keeping its size."""
    other = rules.copy_state(state)
    places = [other["hands"][s] for s in range(other["seats"]) if s != seat]
    places += [other["deck"], other["discard"]]
    codes = [card for place in places for card in place]
    before = list(codes)
    while True:
        rng.shuffle(codes)
        if codes != before or len(set(codes)) <= 1:
            break
    start = 0
    for place in places:
        place[:] = codes[start:start + len(place)]
        start += len(place)
    return other


def test_strong_bot_sees_only_its_view():
    """Two states that differ only in cards the seat cannot see (the other hands, the deck order and
    contents, the discard) get the same move from the same generator: the bot reads the view."""
    bot = se.BoomBot(iterations=12, seconds=30.0)
    rng = random.Random(3)
    differing = 0
    for seed in range(14):
        state = _random_position(2 + seed % 2, 900 + seed, rng, rng.randrange(0, 30))
        if not rules.to_move(state):
            continue
        seat = rules.to_move(state)[0]
        twin = _hidden_shuffle(state, seat, rng)
        assert rules.view(twin, seat) == rules.view(state, seat)
        differing += twin != state
        actions = rules.legal_actions(state, seat)
        assert rules.legal_actions(twin, seat) == actions
        a = bot.choose(boom, rules.view(state, seat), seat, actions, random.Random(seed))
        b = bot.choose(boom, rules.view(twin, seat), seat, actions, random.Random(seed))
        assert a == b
    assert differing >= 10


def test_strong_bot_always_returns_a_legal_action():
    """Whole games against the random bot (2 and 3 seats): every answer is a legal action."""
    bot = se.BoomBot(iterations=6, seconds=1.0)
    kinds = set()
    for game in range(6):
        seats = 2 + game % 2
        state = rules.new_game(seats, 40 + game)
        rng = random.Random(game)
        while rules.to_move(state):
            seat = rules.to_move(state)[0]
            actions = rules.legal_actions(state, seat)
            if seat == game % seats:
                action = bot.choose(boom, rules.view(state, seat), seat, actions, rng)
                assert action in actions
                kinds.add(action["type"])
            else:
                action = rng.choice(actions)
            state = rules.apply(state, seat, action)
    assert {"attack", "skip_change"} <= kinds


def test_strong_bot_respects_its_budget():
    """Iterations: exactly the budget when time is plenty; seconds: stops soon after the deadline;
    the shipped bot is capped well under the 1 s a move may take."""
    rng = random.Random(2)
    state = _random_position(3, 77, rng, 0)
    seat = rules.to_move(state)[0]
    state = rules.apply(state, seat, {"type": "skip_change"})
    view, actions = rules.view(state, seat), rules.legal_actions(state, seat)
    assert len(se.candidates(view, seat, actions)) > 1
    bot = se.BoomBot(iterations=37, seconds=60.0)
    bot.choose(boom, view, seat, actions, random.Random(1))
    assert bot.last_iterations == 37
    bot = se.BoomBot(iterations=10**9, seconds=0.05)
    start = time.perf_counter()
    bot.choose(boom, view, seat, actions, random.Random(1))
    assert time.perf_counter() - start < 0.5
    assert 1 <= bot.last_iterations < 10**9
    strong = strong_bot(boom)
    assert isinstance(strong, se.BoomBot) and strong.seconds <= 0.6


def test_strong_bot_beats_random():
    """An iteration-bounded strong bot wins most of 10 games against the random bot, seats swapped."""
    score = 0.0
    for game in range(10):
        hero = game % 2
        bots = [RandomBot(), RandomBot()]
        bots[hero] = se.BoomBot(iterations=8, seconds=30.0)
        state, _ = play_game(boom, bots, 7000 + game)
        score += seat_result(boom, state, hero) or 0.0
    assert score >= 8
