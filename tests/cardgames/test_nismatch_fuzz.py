"""Nismatch under seeded random play: invariants after every action, garbage input, determinism,
hidden information, determinisation and a small strong-vs-random match (NM-1..NM-11 as a whole)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgames.engines import IllegalAction
from cardgames.engines import nismatch as nm
from cardgames.engines.bots import RandomBot, play_game, seat_result
from cardgames.engines.nismatch.bot import NismatchBot
from tests.cardgames.test_engines_common import Fuzz, fuzz, report
from tests.cardgames.test_nismatch_helpers import all_codes, hidden_from, leaked, located_codes

PLY_BOUND = 3000  # NM-R12: every game ends by War Spoils or an empty Arsenal well before this


def _policy(kind: str):
    if kind == "random":
        return lambda s, seat, actions, rng: rng.choice(actions)
    return nm.rollout_action


def _junk(rng: random.Random, depth: int = 0):
    makers = [lambda: None, lambda: True, lambda: rng.randint(-3, 9), lambda: 2.5, lambda: "zz",
              lambda: rng.choice(nm.ZONES), lambda: [_junk(rng, depth + 1)],
              lambda: {"seat": _junk(rng, depth + 1), "zone": _junk(rng, depth + 1)}]
    return rng.choice(makers if depth < 2 else makers[:6])()


def garbage(rng: random.Random, s: dict, seat: int, foreign: list[dict]) -> list[object]:
    """Malformed or illegal actions of every flavour, plus some that may happen to be legal."""
    legal = nm.legal_actions(s, seat) or [{"type": "pass"}]
    base = rng.choice(legal)
    out: list[object] = [None, "pass", 3, [], True, {}, {"type": 5}, {"type": "fly"}, {"type": None},
                         {**base, "extra": 1}, {k: _junk(rng) for k in base},
                         {"type": rng.choice(nm.ACTION_TYPES), rng.choice(["zone", "card", "target"]): _junk(rng)}]
    ints = {k: v for k, v in base.items() if type(v) is int}
    if ints:
        key = next(iter(ints))
        out += [{**base, key: bool(ints[key])}, {**base, key: float(ints[key])}, {**base, key: str(ints[key])}]
    if "card" in base:
        out.append({**base, "card": base["card"].replace(f".{seat}.", f".{1 - seat}.")})
    out += rng.sample(foreign, min(3, len(foreign)))
    return out


def check_garbage(s: dict, rng: random.Random, foreign: list[dict]) -> None:
    seat = nm.to_move(s)[0]
    legal = {json.dumps(a, sort_keys=True) for a in nm.legal_actions(s, seat)}
    frozen = json.dumps(s, sort_keys=True)
    for action in garbage(rng, s, seat, foreign):
        try:
            text = json.dumps(action, sort_keys=True)
        except (TypeError, ValueError):
            text = None
        if text in legal:
            continue
        with pytest.raises(IllegalAction):
            nm.apply(s, seat, action)
    other = 1 - seat
    if other not in nm.to_move(s):
        with pytest.raises(IllegalAction):
            nm.apply(s, other, nm.legal_actions(s, seat)[0])
    for bad_seat in (2, -1, "0", True, None):
        with pytest.raises(IllegalAction):
            nm.apply(s, bad_seat, {"type": "pass"})
    assert json.dumps(s, sort_keys=True) == frozen


def check_state(s: dict, rng: random.Random, ply: int) -> None:
    assert located_codes(s) == all_codes(s), "a card was created or lost"
    for seat in (0, 1, None):
        assert leaked(s, seat) == []
    assert nm.from_json(json.loads(json.dumps(nm.to_json(s)))) == s
    if ply % 7 == 0:
        for seat in (0, 1):
            seen = nm.view(s, seat)
            assert nm.view(nm.determinize(seen, seat, rng), seat) == seen
    for seat in (0, 1):
        actions = nm.legal_actions(s, seat)
        assert (seat in nm.to_move(s)) == bool(actions)
        assert len({json.dumps(a, sort_keys=True) for a in actions}) == len(actions)


def playout(seed: int, kind: str, *, checks: bool) -> tuple[dict, list]:
    rng = random.Random(seed)
    policy = _policy(kind)
    s = nm.new_game(2, seed)
    foreign = nm.legal_actions(nm.new_game(2, seed + 1000), 0)
    history = []
    for ply in range(PLY_BOUND):
        movers = nm.to_move(s)
        if not movers:
            return s, history
        seat = movers[0]
        actions = nm.legal_actions(s, seat)
        assert actions, f"seat {seat} to move without a legal action in {s['phase']}"
        if checks and ply % 3 == 0:
            check_garbage(s, rng, foreign)
        foreign = actions
        action = policy(s, seat, actions, rng)
        s = nm.apply(s, seat, action)
        history.append((seat, action))
        if checks:
            check_state(s, rng, ply)
    raise AssertionError("game did not end")


@pytest.mark.parametrize("seed", range(10))
def test_nm_random_playouts_keep_every_invariant(seed):
    """NM-1..NM-11: every listed action applies; cards are conserved (NM-3); views hide hidden cards;
    JSON round-trips; garbage raises IllegalAction and changes nothing; the game ends (NM-1, NM-R12)."""
    s, _ = playout(seed, "random" if seed % 2 else "policy", checks=True)
    result = nm.outcome(s)
    assert result is not None and result["winners"] and not result["draw"]
    assert s["end_reason"] in ("spoils", "empty_arsenal")
    if s["end_reason"] == "spoils":
        assert result["scores"][str(result["winners"][0])] == 5


def test_nm_same_seed_and_actions_give_the_same_states():
    """Determinism: replaying the same seed and actions reproduces every state."""
    s, history = playout(42, "policy", checks=False)
    replay = nm.new_game(2, 42)
    for seat, action in history:
        replay = nm.apply(replay, seat, action)
    assert replay == s
    assert nm.new_game(2, 42) != nm.new_game(2, 43)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=12) | st.sampled_from(nm.ZONES),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_actions = st.one_of(
    _json,
    st.fixed_dictionaries({"type": st.sampled_from(nm.ACTION_TYPES)},
                          optional={"zone": _json, "card": _json, "target": _json, "ability": _json,
                                    "opponent": _json, "workshop": _json, "discard": _json}),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=_actions, ply=st.integers(0, 120))
def test_nm_arbitrary_json_is_rejected_cleanly(action, ply):
    """Bad input (any JSON) raises IllegalAction only, and the state is unchanged."""
    s = _MID_GAMES[ply % len(_MID_GAMES)]
    seat = nm.to_move(s)[0]
    frozen = json.dumps(s, sort_keys=True)
    legal = {json.dumps(a, sort_keys=True) for a in nm.legal_actions(s, seat)}
    try:
        nm.apply(s, seat, action)
    except IllegalAction:
        pass
    else:
        assert json.dumps(action, sort_keys=True) in legal
    assert json.dumps(s, sort_keys=True) == frozen


def _mid_games() -> list[dict]:
    out = []
    rng = random.Random(5)
    s = nm.new_game(2, 5)
    while nm.to_move(s) and len(out) < 40:
        seat = nm.to_move(s)[0]
        s = nm.apply(s, seat, nm.rollout_action(s, seat, nm.legal_actions(s, seat), rng))
        if rng.random() < 0.3:
            out.append(s)
    return out


_MID_GAMES = _mid_games()


def test_nm_copy_state_is_a_json_round_trip():
    """The fast deep copy used by apply, views and to_json/from_json gives exactly what a JSON
    round trip gives (and shares no list or dict with its input); non-JSON data (a tuple, an int
    key) falls back to the round trip."""
    from cardgames.engines.nismatch.engine import copy_state

    for s in _MID_GAMES:
        copy = copy_state(s)
        assert copy == json.loads(json.dumps(s))
        copy["players"][0]["hand"].append("x")
        copy["log"].append({})
        assert copy != s and nm.from_json(s) == s
    odd = {"a": (1, 2), "b": {3: [None, 2.5, True]}, "c": "x"}
    assert copy_state(odd) == json.loads(json.dumps(odd)) == {"a": [1, 2], "b": {"3": [None, 2.5, True]}, "c": "x"}


def test_nm_view_hides_the_rng_and_other_hands():
    """Views carry counts for hidden zones and never the RNG (it would reveal the Arsenal order)."""
    s = _MID_GAMES[-1]
    v = nm.view(s, 0)
    assert "rng" not in v and v["players"][1]["hand"] is None
    assert v["players"][1]["hand_count"] == len(s["players"][1]["hand"])
    assert v["players"][0]["hand"] == s["players"][0]["hand"]
    spectator = nm.view(s, None)
    assert spectator["players"][0]["hand"] is None and spectator["players"][1]["hand"] is None


def test_nm_determinize_samples_only_unseen_cards():
    """determinize(view) is consistent with the view and varies only what the seat can't see."""
    s = _MID_GAMES[-1]
    seen = nm.view(s, 1)
    rng = random.Random(3)
    samples = [nm.determinize(seen, 1, rng) for _ in range(5)]
    for d in samples:
        assert nm.view(d, 1) == seen
        assert located_codes(d) == all_codes(d)
        assert d["players"][1]["hand"] == s["players"][1]["hand"]
    assert len({tuple(d["players"][0]["hand"]) for d in samples}) > 1


def test_nm_strong_bot_beats_random():
    """A regression guard: even on a tiny budget the strong bot beats random (>= 8 of 10)."""
    bot = NismatchBot(seconds=0.05, iterations=6, turns_ahead=1, max_plies=40)
    score = 0.0
    for g in range(10):
        bots = [RandomBot(), RandomBot()]
        bots[g % 2] = bot
        state, _ = play_game(nm, bots, 500 + g)
        score += seat_result(nm, state, g % 2)
    assert score >= 8


def test_nm_engine_imports_no_django():
    """Engines are pure: importing Nismatch pulls in no Django."""
    code = "import sys, cardgames.engines.nismatch; assert not any(m.startswith('django') for m in sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(__import__("pathlib").Path(__file__).parents[2]))


# --------------------------------------------------------------------------- thousands of playouts

PLAYOUTS = 2000
def _cards(s: dict) -> list[str]:
    """Every card wherever it is (NM-3 zones, hand, stack): :func:`located_codes` as a list."""
    cards = []
    for p in s["players"]:
        cards += p["arsenal"] + p["hand"] + p["spoils"] + p["scrapyard"] + p["demolition"]
        cards += [slot["card"] for slot in p["unit"].values() if slot is not None]
        cards += [ws["card"] for ws in p["workshops"].values() if ws is not None]
        if p["facedown"] is not None:
            cards.append(p["facedown"])
    return cards + [g["card"] for g in s["stack"] if g["kind"] == "support"]


FUZZ = Fuzz(engine=nm, cards=_cards, hidden=hidden_from,
            garbage=lambda rng, s, seat, legal, foreign: garbage(rng, s, seat, foreign),
            max_plies=PLY_BOUND, full_every=100, final=lambda s, plies: _final(s))


def _final(s: dict) -> str:
    """NM-1: 5 War Spoils or an empty Arsenal ends the game; NM-3: every card of both decks is
    somewhere."""
    assert located_codes(s) == all_codes(s)
    result = nm.outcome(s)
    assert result["winners"] and not result["draw"]
    assert s["end_reason"] in ("spoils", "empty_arsenal")
    if s["end_reason"] == "spoils":
        assert result["scores"][str(result["winners"][0])] == 5
    return s["end_reason"]


def playout_policy(seed: int):
    """Two games in three uniformly random, one with the bots' rollout policy."""
    return _policy("policy" if seed % 3 == 0 else "random")


def test_nm_2000_random_playouts_keep_every_property(record_property):
    """NM-1..NM-11 over 2000 seeded 1v1 games: every listed action applies, every game ends within
    the ply bound (NM-1, NM-R12), no card is created or lost (NM-3), no view shows a hidden card,
    JSON round-trips, garbage raises IllegalAction only (see the fuzzer in test_engines_common.py
    for which check runs on which ply)."""
    totals = fuzz(__name__, [(2, seed) for seed in range(10_000, 10_000 + PLAYOUTS)])
    report(record_property, "nismatch", totals)
    assert totals.games == PLAYOUTS
    assert totals.longest < PLY_BOUND
    assert totals.full_checks >= 3 * PLAYOUTS
    assert totals.outcomes[(2, "win")] == PLAYOUTS  # NM-1: a game always has a winner
    assert set(totals.tags) == {"spoils", "empty_arsenal"}  # both ways to end a game happen
