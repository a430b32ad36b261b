"""FR-SOB-2 (drinking duel) and FR-SOB-3 (heavy drinking): pure state machines over plain dicts."""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules import RulesError
from frontera.rules.characters import create_character, drinker, make_minion
from frontera.rules.tracks import (
    drinking_duel,
    duel_dmh_cards,
    duel_drink,
    duel_next_dmh_cards,
    duel_outcome,
    heavy_automatic_level,
    heavy_dmh_cards,
    heavy_drink,
    heavy_drinking,
    heavy_next_dmh_cards,
)

ACE, EIGHT = "AS", "8C"
TWO_ACES, TWO_EIGHTS, MIXED = ["AS", "AH"], ["8C", "8D"], ["8D", "AH"]


def duel(a=5, b=7, **kw):
    return drinking_duel({"Ana": {"aguante": a}, "Bo": {"aguante": b}}, **kw)


def drink_round(state, cards_by_name):
    """Everyone drinks once; ``cards_by_name[name]`` are that drinker's dead man's hand cards."""
    events = []
    for name in state["drinkers"]:
        state, evs = duel_drink(state, name, cards_by_name.get(name))
        events += evs
    return state, events


# --- FR-SOB-2: drinking duel ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("aguante", "table"),
    [
        (7, [0, 0, 0, 2, 2, 2, 2, 1, 1, 1]),  # ceil(7/2) = 4
        (6, [0, 0, 2, 2, 2, 2, 1, 1, 1, 1]),  # ceil(6/2) = 3
        (5, [0, 0, 2, 2, 2, 1, 1, 1, 1, 1]),
        (1, [2, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
    ],
)
def test_fr_sob_2_which_drinks_call_for_the_dead_mans_hand(aguante, table):
    """From ceil(Aguante/2) drinks to Aguante: 2 cards keep the better; from Aguante + 1: 1 card."""
    assert [duel_dmh_cards(aguante, n) for n in range(1, 11)] == table


def test_fr_sob_2_duel_step_by_step():
    state = duel(a=5, b=7)
    state, events = drink_round(state, {})
    assert [e["type"] for e in events] == ["drink", "drink", "round"]
    assert state["round"] == 2 and all(d["drinks"] == 1 for d in state["drinkers"].values())
    state, _ = drink_round(state, {})
    # Drink 3: Ana (Aguante 5, ceil 3) draws 2 and keeps the better; Bo (ceil 4) draws nothing.
    assert duel_next_dmh_cards(state, "Ana") == 2 and duel_next_dmh_cards(state, "Bo") == 0
    state, events = duel_drink(state, "Ana", MIXED)
    assert events[0]["dmh"] == {"drawn": ["8D", "AH"], "kept": "AH", "better": True}
    assert events[0]["result"] == "stays" and events[0]["sobriety"] == {"from": 0, "to": 0}
    state, _ = duel_drink(state, "Bo")
    state, events = duel_drink(state, "Ana", TWO_EIGHTS)  # drink 4: both eights → −1
    assert events[0]["result"] == "drops" and state["drinkers"]["Ana"]["sobriety"] == -1
    assert events[0]["due"] == []
    state, _ = duel_drink(state, "Bo", TWO_ACES)
    assert duel_outcome(state) is None


def test_fr_sob_2_first_to_en_coma_loses():
    state = drinking_duel({"Ana": {"aguante": 1, "sobriety": -2}, "Bo": {"aguante": 9}})
    state, events = duel_drink(state, "Ana", TWO_EIGHTS)
    assert events[0]["sobriety"] == {"from": -2, "to": -3}
    assert events[0]["due"] == ["coma_exchange"]
    assert duel_outcome(state) is None  # the round is not over yet
    state, events = duel_drink(state, "Bo")
    assert events[-1] == {"type": "duel_over", "result": {"Ana": "loss", "Bo": "win"}}
    assert duel_outcome(state) == {"Ana": "loss", "Bo": "win"}
    with pytest.raises(RulesError, match="The drinking duel is over."):
        duel_drink(state, "Bo")


def test_fr_sob_2_ruling_both_in_coma_in_the_same_round_is_tablas():
    state = drinking_duel({"Ana": {"aguante": 1, "sobriety": -2}, "Bo": {"aguante": 1, "sobriety": -2}})
    state, _ = drink_round(state, {"Ana": TWO_EIGHTS, "Bo": TWO_EIGHTS})
    assert duel_outcome(state) == {"Ana": "tie", "Bo": "tie"}


def test_fr_sob_2_ruling_three_drinkers():
    state = drinking_duel({n: {"aguante": 1, "sobriety": -2} for n in ("A", "B", "C")})
    state, _ = drink_round(state, {"A": TWO_EIGHTS, "B": MIXED, "C": TWO_EIGHTS})
    assert duel_outcome(state) == {"A": "loss", "B": "win", "C": "loss"}


def test_fr_sob_2_borracho_swap_due_only_for_protagonists_in_normal_mode():
    def first_drink(kind, mode):
        drinkers = {"X": {"aguante": 1, "sobriety": -1, "kind": kind}, "Y": {"aguante": 5}}
        state = drinking_duel(drinkers, mode=mode)
        return duel_drink(state, "X", TWO_EIGHTS)[1][0]["due"]

    assert first_drink("protagonist", "normal") == ["borracho_swap"]
    assert first_drink("npc", "normal") == []
    assert first_drink("protagonist", "sin_gestion") == []


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: duel_drink(s, "Zed"), "“Zed” is not taking part in this drinking duel."),
        (lambda s: duel_drink(s, "Ana", ["AS"]), "No dead man's hand is drawn now."),
        (lambda s: duel_next_dmh_cards(s, "Zed"), "“Zed” is not taking part"),
    ],
)
def test_fr_sob_2_bad_input_changes_nothing(call, message):
    state = duel()
    before = copy.deepcopy(state)
    with pytest.raises(RulesError) as err:
        call(state)
    assert str(err.value).startswith(message)
    assert state == before


def test_fr_sob_2_cards_must_match_what_is_due():
    state = drinking_duel({"Ana": {"aguante": 1}, "Bo": {"aguante": 5}})  # Ana's first drink: 2 cards
    before = copy.deepcopy(state)
    with pytest.raises(RulesError, match="Draw 2 card"):
        duel_drink(state, "Ana")
    with pytest.raises(RulesError, match="Draw exactly 2 card"):
        duel_drink(state, "Ana", ["AS"])
    with pytest.raises(RulesError, match="Q♠ is not a card of the dead man's hand"):
        duel_drink(state, "Ana", ["AS", "QS"])
    assert state == before
    state, _ = duel_drink(state, "Ana", MIXED)
    with pytest.raises(RulesError, match="Ana has already drunk this round; wait for the others."):
        duel_drink(state, "Ana", MIXED)


def test_fr_sob_2_setup_errors():
    with pytest.raises(RulesError, match="at least two drinkers"):
        drinking_duel({"Ana": {"aguante": 5}})
    with pytest.raises(RulesError, match="Bo is in a coma and cannot drink"):
        drinking_duel({"Ana": {"aguante": 5}, "Bo": {"aguante": 5, "sobriety": -3}})
    with pytest.raises(RulesError, match="0 is not an Aguante"):
        drinking_duel({"Ana": {"aguante": 0}, "Bo": {"aguante": 5}})
    with pytest.raises(RulesError, match="“ghost” is not a kind"):
        drinking_duel({"Ana": {"aguante": 5, "kind": "ghost"}, "Bo": {"aguante": 5}})


def test_fr_sob_2_characters_enter_a_duel():
    clementine = create_character(name="Clementine", skills=["apuntar", "agilidad", "astucia"],
                                  trait_points={"manos": 1, "sentidos": 3, "musculo": 2, "cabeza": 2},
                                  extra_skill="percepcion", starting_weapon="revolver")
    minion = make_minion("Esbirro", cards_per_check=3, aguante=5)
    state = drinking_duel({"Clementine": drinker(clementine), "Esbirro": drinker(minion)})
    assert state["drinkers"]["Clementine"] == {
        "aguante": 7, "sobriety": 0, "kind": "protagonist", "drinks": 0}
    assert state["drinkers"]["Esbirro"]["kind"] == "minion"


@settings(max_examples=60, deadline=None)
@given(aguantes=st.lists(st.integers(1, 13), min_size=2, max_size=4), seed=st.integers(0, 2**32))
def test_fr_sob_2_random_duels_end_and_levels_never_rise(aguantes, seed):
    rng = random.Random(seed)
    state = drinking_duel({f"P{i}": {"aguante": a} for i, a in enumerate(aguantes)})
    for _ in range(200):
        if duel_outcome(state) is not None:
            break
        for name in list(state["drinkers"]):
            due = duel_next_dmh_cards(state, name)
            before = json.loads(json.dumps(state))
            state, events = duel_drink(state, name, rng=rng)
            drink = events[0]
            assert (drink["dmh"] is None) == (due == 0) and (due == 0 or len(drink["dmh"]["drawn"]) == due)
            assert drink["sobriety"]["to"] <= drink["sobriety"]["from"]
            assert before["drinkers"][name]["sobriety"] - state["drinkers"][name]["sobriety"] in (0, 1)
            assert json.loads(json.dumps(state)) == state
            if duel_outcome(state) is not None:
                break
    result = duel_outcome(state)
    assert result is not None
    in_coma = {n for n, d in state["drinkers"].items() if d["sobriety"] == -3}
    assert in_coma and set(result) == set(state["drinkers"])
    if in_coma == set(state["drinkers"]):
        assert set(result.values()) == {"tie"}
    else:
        assert {n for n, r in result.items() if r == "loss"} == in_coma


# --- FR-SOB-3: heavy drinking ---------------------------------------------------------------------


def test_fr_sob_3_automatic_levels_and_checks():
    """Aguante 5: check above 3 drinks; −1 above 5; −2 above 10; En coma above 15."""
    assert [heavy_automatic_level(5, n) for n in range(0, 18)] == (
        [0] * 6 + [-1] * 5 + [-2] * 5 + [-3] * 2)
    assert [heavy_dmh_cards(5, n) for n in range(0, 18)] == [0] * 4 + [1] * 12 + [0] * 2


def test_fr_sob_3_lucky_drinker_follows_the_automatic_levels():
    state = heavy_drinking(aguante=5)
    levels, checks = [], []
    for _ in range(16):
        cards = ["AS"] if heavy_next_dmh_cards(state) else None
        state, events = heavy_drink(state, cards)
        levels.append(state["sobriety"])
        checks.append(events[0]["dmh"] is not None)
    assert levels == [0] * 5 + [-1] * 5 + [-2] * 5 + [-3]
    assert checks == [False] * 3 + [True] * 12 + [False]  # above 3 × Aguante: straight to En coma
    with pytest.raises(RulesError, match="A character in a coma cannot drink."):
        heavy_drink(state)


def test_fr_sob_3_ruling_automatic_drops_are_targets_not_repeated():
    """Already −1 from a failed check: passing Aguante does not drop again automatically."""
    state = heavy_drinking(aguante=5, alcohol=3)
    state, events = heavy_drink(state, [EIGHT])  # alcohol 4 > 3: check fails → −1
    assert state["sobriety"] == -1 and events[0]["automatic"] == 0
    state, _ = heavy_drink(state, [ACE])  # 5
    state, events = heavy_drink(state, [ACE])  # 6 > Aguante: automatic −1, already there
    assert state["sobriety"] == -1 and events[0]["automatic"] == -1
    state, events = heavy_drink(state, [EIGHT])  # 7: failed check → −2 and a Borracho swap
    assert state["sobriety"] == -2 and events[0]["due"] == ["borracho_swap"]


def test_fr_sob_3_above_twice_aguante_drops_two_then_checks():
    state = heavy_drinking(aguante=5, alcohol=10)
    state, events = heavy_drink(state, [EIGHT])
    assert events[0]["automatic"] == -2 and state["sobriety"] == -3
    assert events[0]["due"] == ["borracho_swap", "coma_exchange"]


def test_fr_sob_3_above_three_times_aguante_straight_to_coma():
    state = heavy_drinking(aguante=4, alcohol=12)
    assert heavy_next_dmh_cards(state) == 0
    state, events = heavy_drink(state)
    assert state["sobriety"] == -3 and events[0]["dmh"] is None


def test_fr_sob_3_bad_input_changes_nothing():
    state = heavy_drinking(aguante=5, alcohol=3)
    before = copy.deepcopy(state)
    with pytest.raises(RulesError, match="Draw 1 card"):
        heavy_drink(state)
    with pytest.raises(RulesError, match="Draw exactly 1 card"):
        heavy_drink(state, ["AS", "AH"])
    assert state == before
    with pytest.raises(RulesError, match="No dead man's hand is drawn now."):
        heavy_drink(heavy_drinking(aguante=5), ["AS"])
    with pytest.raises(RulesError, match="-1 is not an alcohol level"):
        heavy_drinking(aguante=5, alcohol=-1)


@settings(max_examples=150, deadline=None)
@given(aguante=st.integers(1, 13), seed=st.integers(0, 2**32), start=st.integers(-2, 0))
def test_fr_sob_3_levels_never_rise_and_never_exceed_the_automatic_level(aguante, seed, start):
    rng = random.Random(seed)
    state = heavy_drinking(aguante=aguante, sobriety=start, kind="npc", mode="normal")
    previous = start
    while state["sobriety"] > -3:
        due = heavy_next_dmh_cards(state)
        state, events = heavy_drink(state, rng=rng)
        level, alcohol = state["sobriety"], state["alcohol"]
        assert level <= previous and level <= heavy_automatic_level(aguante, alcohol)
        assert level >= min(previous, heavy_automatic_level(aguante, alcohol)) - 1
        assert (events[0]["dmh"] is None) == (due == 0)
        assert events[0]["due"] == []  # an NPC swaps nothing
        assert json.loads(json.dumps(state)) == state
        previous = level
        assert alcohol <= 3 * aguante + 1
