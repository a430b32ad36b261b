"""En la palmera: the strong bot (cardgames/engines/palmera/search.py).

It must see only its seat's view, always answer a legal action, keep to its budget, and its fast
private simulation must follow the engine's rules exactly (PA-3..PA-9)."""

from __future__ import annotations

import random
import time

from cardgames.engines import palmera as pa
from cardgames.engines.bots import RandomBot, play_game, seat_result, strong_bot
from cardgames.engines.palmera import search as se


def pos_from_state(state: dict):
    """The compact position of a full engine state (what the simulation would hold)."""
    owner = [-1] * 10
    cards = [[] for _ in range(10)]
    exp = [[] for _ in range(10)]
    hidden = [se.FULL, se.FULL]
    for s, sides in enumerate(state["board"]):
        for p in (0, 1):
            for e in sides[p]:
                owner[s] = p
                cards[s].append(se.code_strength(e["card"]))
                exp[s].append(e["up"] or e["peeked"])
    for p in (0, 1):
        for e in [x for sides in state["board"] for x in sides[p]] + state["out"][p]:
            if e["up"] or e["peeked"]:
                hidden[p] &= ~se.BIT[se.code_strength(e["card"])]
    piles = [[se.code_strength(c) for c in pile] for pile in state["piles"]]
    return (owner, cards, exp, hidden, piles)


def fast_apply(pos, state: dict, seat: int, action: dict) -> None:
    if action["type"] == "peek":
        se.peek(pos, seat, action["square"] - 1, action["slot"])
    elif action["type"] == "place":
        se.place(pos, seat, se.code_strength(state["hands"][seat]), action["square"] - 1, action.get("first", 0))


def test_pa_3_to_pa_9_fast_simulation_matches_the_engine():
    """PA-3..PA-9: the bot's compact simulation gives the engine's board, exposures and round scores
    for every action of seeded random games (square 8 doubles, Kings, ties, peeks included)."""
    rng = random.Random(11)
    checked_rounds = 0
    for seed in range(150):
        state = pa.new_game(2, seed)
        while pa.to_move(state):
            seat = pa.to_move(state)[0]
            action = rng.choice(pa.legal_actions(state, seat))
            pos = pos_from_state(state)
            fast_apply(pos, state, seat, action)
            after = pa.apply(state, seat, action)
            if len(after["scores"]) > len(state["scores"]):
                assert se.round_scores(pos) == after["scores"][-1]
                checked_rounds += 1
            else:
                want = pos_from_state(after)
                assert pos[:4] == want[:4], (seed, action)
                took_three = after["phase"] == "peek"
                assert took_three == (action["type"] == "place" and action["square"] == 3
                                      and pos[0][2] == seat and bool(se.peek_targets(pos, seat)))
            state = after
    assert checked_rounds == 300


def test_fast_rollout_policy_never_plays_an_illegal_placement():
    """The rollout policy's squares are among the engine's legal placements (PA-8 capacity)."""
    rng = random.Random(5)
    for seed in range(60):
        state = pa.new_game(2, 100 + seed)
        while pa.to_move(state):
            seat = pa.to_move(state)[0]
            legal = pa.legal_actions(state, seat)
            if state["phase"] == "place":
                pos = pos_from_state(state)
                s, first = se.policy(pos, seat, se.code_strength(state["hands"][seat]))
                if s < 0:
                    assert legal == [{"type": "discard"}]
                else:
                    two = len(state["board"][s][1 - seat]) == 2
                    want = {"type": "place", "square": s + 1, **({"first": first} if two else {})}
                    assert want in legal
            state = pa.apply(state, seat, rng.choice(legal))


def test_pa_7_deal_is_consistent_with_everything_the_view_reveals():
    """PA-7 and hidden placement: a deal from a seat's view keeps every card that seat can see
    where it is (its own cards, face-up and peeked cards), the holders, the exposures and pile
    sizes; only the unseen cards move, and each seat still has its 13 cards."""
    rng = random.Random(8)
    for seed in range(80):
        state = pa.new_game(2, 300 + seed)
        for _ in range(rng.randrange(0, 24)):
            seat = pa.to_move(state)[0]
            state = pa.apply(state, seat, rng.choice(pa.legal_actions(state, seat)))
        seat = pa.to_move(state)[0]
        view = pa.view(state, seat)
        truth = pos_from_state(state)
        pos = se.deal(view, seat, rng)
        owner, cards, exp, hidden, piles = pos
        assert owner == truth[0] and exp == truth[2] and hidden == truth[3]
        assert [len(p) for p in piles] == [len(p) for p in truth[4]]
        for s, sides in enumerate(view["board"]):
            for p in (0, 1):
                for i, e in enumerate(sides[p]):
                    if e["card"] is not None:
                        assert cards[s][i] == se.code_strength(e["card"])
        for p in (0, 1):
            out = [se.code_strength(e["card"]) for e in state["out"][p]]
            hand = [se.code_strength(state["hands"][p])] if state["hands"][p] else []
            on_board = [x for s in range(10) if owner[s] == p for x in cards[s]]
            dealt_out = sorted(set(range(1, 14)) - set(on_board) - set(piles[p]) - set(hand))
            assert len(dealt_out) == len(out)
            assert sorted(on_board + piles[p] + hand + dealt_out) == list(range(1, 14))
        mine = [x for s in range(10) if owner[s] == seat for x in cards[s]]
        assert sorted(mine) == sorted(x for s in range(10) if truth[0][s] == seat for x in truth[1][s])


def _hidden_shuffle(state: dict, seat: int, rng: random.Random) -> dict:
    """The same position with the cards ``seat`` cannot see (the opponent's face-down unpeeked
    cards, unseen removed cards and pile) dealt again in another order."""
    other = pa.from_json(state)
    o = 1 - seat
    slots = [e for sides in other["board"] for e in sides[o] if not e["up"] and not e["peeked"]]
    slots += [e for e in other["out"][o] if not e["up"] and not e["peeked"]]
    codes = [e["card"] for e in slots] + other["piles"][o]
    while True:
        rng.shuffle(codes)
        if codes[: len(slots)] != [e["card"] for e in slots] or len(slots) == 0:
            break
    for e, code in zip(slots, codes, strict=False):
        e["card"] = code
    other["piles"][o] = codes[len(slots):]
    # the bot's own pile order is hidden from it too
    rng.shuffle(other["piles"][seat])
    return other


def test_strong_bot_sees_only_its_view():
    """Two states that differ only in cards the seat cannot see (the opponent's face-down cards and
    pile, its own pile order) get the same move from the same generator: the bot reads the view."""
    bot = se.PalmeraBot(iterations=60, seconds=30.0)
    rng = random.Random(3)
    differing = 0
    for seed in range(12):
        state = pa.new_game(2, 900 + seed)
        for _ in range(rng.randrange(4, 22)):
            seat = pa.to_move(state)[0]
            state = pa.apply(state, seat, rng.choice(pa.legal_actions(state, seat)))
        seat = pa.to_move(state)[0]
        twin = _hidden_shuffle(state, seat, rng)
        assert pa.view(twin, seat) == pa.view(state, seat)
        differing += twin != state
        actions = pa.legal_actions(state, seat)
        assert pa.legal_actions(twin, seat) == actions
        a = bot.choose(pa, pa.view(state, seat), seat, actions, random.Random(seed))
        b = bot.choose(pa, pa.view(twin, seat), seat, actions, random.Random(seed))
        assert a == b
    assert differing == 12


def test_strong_bot_always_returns_a_legal_action():
    """Whole games against the random bot, both seats: every answer is one of the legal actions
    (placements, the order on a doubled square 8, peeks, discards)."""
    bot = se.PalmeraBot(iterations=20, seconds=1.0)
    kinds = set()
    for game in range(6):
        state = pa.new_game(2, 40 + game)
        rng = random.Random(game)
        while pa.to_move(state):
            seat = pa.to_move(state)[0]
            actions = pa.legal_actions(state, seat)
            if seat == game % 2:
                action = bot.choose(pa, pa.view(state, seat), seat, actions, rng)
                assert action in actions
                kinds.add(action["type"])
            else:
                action = rng.choice(actions)
            state = pa.apply(state, seat, action)
    assert {"place", "peek"} <= kinds


def test_strong_bot_respects_its_budget():
    """Iterations: exactly the budget when time is plenty; seconds: stops soon after the deadline."""
    state = pa.new_game(2, 77)
    seat = pa.to_move(state)[0]
    view, actions = pa.view(state, seat), pa.legal_actions(state, seat)
    bot = se.PalmeraBot(iterations=37, seconds=60.0)
    bot.choose(pa, view, seat, actions, random.Random(1))
    assert bot.last_iterations == 37
    bot = se.PalmeraBot(iterations=10**9, seconds=0.05)
    start = time.perf_counter()
    bot.choose(pa, view, seat, actions, random.Random(1))
    assert time.perf_counter() - start < 0.5
    assert 1 <= bot.last_iterations < 10**9
    strong = strong_bot(pa)
    assert isinstance(strong, se.PalmeraBot) and strong.seconds <= 0.5


def test_strong_bot_beats_the_random_bot():
    """A regression guard (a light budget, bound by iterations so the load does not matter): the
    strong bot wins >= 9 of 10 against random, both seats."""
    strong = se.PalmeraBot(iterations=16, seconds=5.0)
    score = 0.0
    for game in range(10):
        bots = [RandomBot(), RandomBot()]
        bots[game % 2] = strong
        state, _ = play_game(pa, bots, seed=600 + game)
        score += seat_result(pa, state, game % 2)
    assert score >= 9
