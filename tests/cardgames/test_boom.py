"""Boom (BO-1..BO-11): rules from hand-built states, plus the protocol basics."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from cardgames.engines import IllegalAction, get
from cardgames.engines import boom as bo
from cardgames.engines.boom.rules import MAX_TURNS, card_count, full_deck, life, total_life, value


def make_state(
    *,
    hands: list[list[str]],
    boards: list[list],
    turn: int = 0,
    step: str = "main",
    deck_top: tuple[str, ...] = (),
    deck: list[str] | None = None,
    alive: list[bool] | None = None,
    turns: int = 0,
) -> dict:
    """A hand-built state with one 52-card deck. A board entry is a code or (code, [cards on it]).

    The unused cards form the deck (``deck_top`` on top, the last one drawn first); with an
    explicit ``deck`` the unused cards are in the discard instead.
    """
    seats = len(hands)
    storages = [
        [{"card": s, "on": []} if isinstance(s, str) else {"card": s[0], "on": list(s[1])} for s in board]
        for board in boards
    ]
    used = Counter(c for hand in hands for c in hand) + Counter(deck or []) + Counter(deck_top)
    for board in storages:
        for storage in board:
            used += Counter([storage["card"], *storage["on"]])
    rest = list((Counter(full_deck()) - used).elements())
    assert sum(used.values()) + len(rest) == 52, "a card is used twice"
    state = {
        "game": "boom",
        "rng": {"seed": 3, "n": 2},
        "seats": seats,
        "decks": 1,
        "deck": rest + list(deck_top) if deck is None else list(deck),
        "discard": [] if deck is None else rest,
        "hands": [list(hand) for hand in hands],
        "boards": storages,
        "alive": alive or [True] * seats,
        "turn": turn,
        "step": step,
        "turns": turns,
        "result": None,
    }
    return state


def play(state: dict, **action) -> dict:
    return bo.apply(state, state["turn"], action)


def refused(state: dict, seat: int, action: object) -> str:
    with pytest.raises(IllegalAction) as err:
        bo.apply(state, seat, action)
    return err.value.template


TWO = dict(hands=[["5H", "3C", "JD"], ["2S", "QH", "8D"]], boards=[["9S", "4D", "KC"], ["7H", "AC", "10D"]])


# -- BO-1, BO-2 -----------------------------------------------------------------------------------

def test_bo_1_card_values_and_one_deck_without_jokers():
    assert [value(c) for c in ("AS", "2H", "9C", "10D", "JS", "QH", "KD")] == [1, 2, 9, 10, 0, 0, 0]
    state = bo.new_game(2, seed=5)
    assert sum(card_count(state).values()) == 52 and "JK" not in card_count(state)
    assert sum(card_count(bo.new_game(4, seed=5, options={"decks": 2})).values()) == 104


@pytest.mark.parametrize("seats", [1, 5, 0, "3", True, None, 2.0])
def test_bo_1_two_to_four_seats(seats):
    with pytest.raises(IllegalAction) as err:
        bo.new_game(seats, seed=1)
    assert err.value.template == bo.E_SEATS


@pytest.mark.parametrize("options", [{"decks": 0}, {"decks": 4}, {"decks": "2"}, {"jokers": 2}, ["decks"]])
def test_bo_1_bad_options_are_refused(options):
    with pytest.raises(IllegalAction) as err:
        bo.new_game(2, seed=1, options=options)
    assert err.value.template == bo.E_OPTIONS


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bo_2_deal_three_hand_and_three_board_cards_never_all_figures(seats):
    for seed in range(40):
        state = bo.new_game(seats, seed)
        assert [len(h) for h in state["hands"]] == [3] * seats
        assert [len(b) for b in state["boards"]] == [3] * seats
        assert all(total_life(state, s) > 0 for s in range(seats))
        assert state["step"] == "change" and bo.to_move(state) == [state["turn"]]


def test_bo_2_an_all_figure_board_is_redealt():
    state = make_state(
        hands=[["5H", "3C", "JD"], ["2S", "QH", "8D"]],
        boards=[[], []],
        deck_top=("4S", "JH", "QS", "KH"),
    )
    bo.rules._deal_board(state, 0)
    board = [s["card"] for s in state["boards"][0]]
    assert sorted(board) != ["JH", "KH", "QS"] and any(value(c) for c in board)
    assert sum(card_count(state).values()) == 52


# -- BO-3, BO-4 -----------------------------------------------------------------------------------

def test_bo_3_life_is_the_card_value_minus_the_attacks_and_figures_store_none():
    state = make_state(hands=[["AH"], ["2S"]], boards=[[("9S", ["3H", "2D"]), "KC"], ["7H"]])
    assert [life(s) for s in state["boards"][0]] == [4, 0]
    attacks = [a for a in bo.legal_actions({**state, "turn": 1}, 1) if a["type"] == "attack"]
    targets = {(a["target"], a["storage"]) for a in attacks}
    assert targets == {(0, 0)}
    figure = {"type": "attack", "card": "2S", "target": 0, "storage": 1}
    assert refused({**state, "turn": 1}, 1, figure) == bo.E_FIGURE_TARGET


def test_bo_4_change_first_then_one_main_action_then_draw():
    state = make_state(step="change", **TWO)
    assert refused(state, 0, {"type": "discard", "cards": ["5H"]}) == bo.E_CHANGE_FIRST
    actions = bo.legal_actions(state, 0)
    assert actions[0] == {"type": "skip_change"}
    assert {"type": "change", "card": "5H", "storage": 2} in actions and len(actions) == 1 + 3 * 3
    changed = play(state, type="change", card="5H", storage=0)
    assert [s["card"] for s in changed["boards"][0]] == ["5H", "4D", "KC"]
    assert sorted(changed["hands"][0]) == ["3C", "9S", "JD"], "BO-4: the old storage card goes to the hand"
    assert changed["step"] == "main" and changed["turn"] == 0
    assert refused(changed, 0, {"type": "skip_change"}) == bo.E_CHANGE_DONE
    skipped = play(state, type="skip_change")
    assert skipped["step"] == "main" and skipped["hands"] == state["hands"]


def test_bo_4_an_attacked_storage_cannot_be_changed():
    state = make_state(
        step="change",
        hands=[["5H", "3C", "JD"], ["2S"]],
        boards=[[("9S", ["2H"]), "4D"], ["7H"]],
    )
    assert {a.get("storage") for a in bo.legal_actions(state, 0)} == {None, 1}
    assert refused(state, 0, {"type": "change", "card": "5H", "storage": 0}) == bo.E_STORAGE_ATTACKED


# -- BO-5, BO-6 -----------------------------------------------------------------------------------

def test_bo_5_attack_puts_the_card_on_the_storage_and_subtracts():
    after = play(make_state(**TWO), type="attack", card="3C", target=1, storage=2)
    assert after["boards"][1][2] == {"card": "10D", "on": ["3C"]} and life(after["boards"][1][2]) == 7
    assert len(after["hands"][0]) == 3 and "3C" not in after["hands"][0], "BO-9: attack draws 1"
    assert after["turn"] == 1 and after["step"] == "change"


def test_bo_5_attack_no_stronger_than_the_life_left_and_not_with_figures():
    state = make_state(**TWO)
    assert refused(state, 0, {"type": "attack", "card": "5H", "target": 1, "storage": 1}) == bo.E_TOO_STRONG
    jack = {"type": "attack", "card": "JD", "target": 1, "storage": 2}
    assert refused(state, 0, jack) == bo.E_FIGURE_ATTACK
    assert refused(state, 0, {"type": "attack", "card": "3C", "target": 0, "storage": 0}) == bo.E_OWN_TARGET
    assert refused(state, 0, {"type": "attack", "card": "2S", "target": 1, "storage": 0}) == bo.E_NOT_IN_HAND
    assert refused(state, 0, {"type": "attack", "card": "3C", "target": 1, "storage": 7}) == bo.E_NO_STORAGE
    attacks = [a for a in bo.legal_actions(state, 0) if a["type"] == "attack"]
    assert {(a["card"], a["storage"]) for a in attacks} == {("5H", 0), ("5H", 2), ("3C", 0), ("3C", 2)}


def test_bo_5_storage_at_zero_goes_to_the_discard_with_its_cards():
    state = make_state(
        hands=[["4H", "3C", "JD"], ["2S", "QH", "8D"]],
        boards=[["9S"], [("7H", ["3S"]), "AC"]],
    )
    after = play(state, type="attack", card="4H", target=1, storage=0)
    assert [s["card"] for s in after["boards"][1]] == ["AC"]
    assert Counter(after["discard"]) == Counter(["7H", "3S", "4H"])
    assert len(after["boards"][0]) == 1, "BO-6: not an exact kill (7 destroyed by a 4)"


def test_bo_6_exact_kill_gives_a_new_storage_from_the_deck_then_the_draw():
    state = make_state(
        hands=[["7S", "3C", "JD"], ["2S", "QH", "8D"]],
        boards=[["9S"], ["7H", "AC"]],
        deck_top=("6D", "5C"),
    )
    after = play(state, type="attack", card="7S", target=1, storage=0)
    assert [s["card"] for s in after["boards"][0]] == ["9S", "5C"], "the top card becomes a storage"
    assert sorted(after["hands"][0]) == ["3C", "6D", "JD"], "then the normal draw of 1"
    assert Counter(after["discard"]) == Counter(["7H", "7S"])


# -- BO-7 -----------------------------------------------------------------------------------------

def test_bo_7_boom_removes_every_storage_at_that_life_including_your_own():
    hands = [["JS", "QD", "KH"], ["2S", "QH", "8D"], ["AS", "AD", "AH"]]
    boards = [["5S", "9C", "JC"], [("8H", ["3D"]), "2C"], ["5D", "KS", ("10S", ["4C", "AC"])]]
    state = make_state(hands=hands, boards=boards)
    assert {"type": "boom", "number": 5} in bo.legal_actions(state, 0)
    after = play(state, type="boom", number=5)
    assert [[s["card"] for s in b] for b in after["boards"]] == [["9C", "JC"], ["2C"], ["KS"]]
    removed = ["JS", "QD", "KH", "5S", "8H", "3D", "5D", "10S", "4C", "AC"]
    assert after["alive"] == [True, True, False], "BO-10: seat 2 has only a figure left"
    assert Counter(after["discard"]) == Counter(removed + ["AS", "AD", "AH"])
    assert len(after["hands"][0]) == 3, "BO-9: a Boom draws 3"
    assert after["turn"] == 1


def test_bo_7_boom_needs_three_figures_and_a_number_from_one_to_ten():
    state = make_state(**TWO)
    assert refused(state, 0, {"type": "boom", "number": 5}) == bo.E_NEED_FIGURES
    assert not [a for a in bo.legal_actions(state, 0) if a["type"] == "boom"]
    figures = make_state(hands=[["JS", "QD", "KH"], ["2S"]], boards=[["9S"], ["7H"]])
    assert refused(figures, 0, {"type": "boom", "number": 0}) == bo.E_BAD_NUMBER
    assert refused(figures, 0, {"type": "boom", "number": 11}) == bo.E_BAD_NUMBER
    assert [a["number"] for a in bo.legal_actions(figures, 0) if a["type"] == "boom"] == list(range(1, 11))
    assert not [a for a in bo.legal_actions(figures, 0) if a["type"] == "attack"], "figures cannot attack"


def test_bo_7_boom_can_eliminate_the_caller():
    state = make_state(
        hands=[["JS", "QD", "KH"], ["2S"], ["3S"]],
        boards=[["4S", "QC"], ["4H", "9D"], ["8C"]],
    )
    after = play(state, type="boom", number=4)
    assert after["alive"] == [False, True, True] and after["hands"][0] == []
    assert after["turn"] == 1 and bo.outcome(after) is None


# -- BO-8, BO-9 -----------------------------------------------------------------------------------

def test_bo_8_discard_one_to_three_cards_in_any_order_then_draw_as_many():
    state = make_state(**TWO)
    discards = [a["cards"] for a in bo.legal_actions(state, 0) if a["type"] == "discard"]
    assert len(discards) == 7 and all(1 <= len(c) <= 3 for c in discards)
    after = play(state, type="discard", cards=["JD", "3C"])
    assert after["discard"] == ["3C", "JD"] and len(after["hands"][0]) == 3
    assert "5H" in after["hands"][0]
    assert refused(state, 0, {"type": "discard", "cards": []}) == bo.E_DISCARD_COUNT
    assert refused(state, 0, {"type": "discard", "cards": ["5H", "5H"]}) == bo.E_DISCARD_COUNT
    assert refused(state, 0, {"type": "discard", "cards": ["2S"]}) == bo.E_DISCARD_COUNT


def test_bo_9_draw_one_after_attack_three_after_boom_as_many_as_discarded():
    state = make_state(
        hands=[["JS", "QD", "KH"], ["2S", "QH", "8D"]],
        boards=[["9S"], ["7H", "4C"]],
        deck_top=("AD", "2D", "3D"),
    )
    after = play(state, type="boom", number=4)
    assert sorted(after["hands"][0]) == ["2D", "3D", "AD"]
    before = make_state(**TWO, deck_top=("AD",))
    attack = play(before, type="attack", card="5H", target=1, storage=2)
    assert "AD" in attack["hands"][0] and len(attack["deck"]) == len(before["deck"]) - 1
    for k in (1, 2, 3):
        cards = sorted(TWO["hands"][0])[:k]
        assert len(play(make_state(**TWO), type="discard", cards=cards)["hands"][0]) == 3


# -- BO-10, BO-11 ---------------------------------------------------------------------------------

def test_bo_10_last_seat_with_life_wins_and_hands_go_to_the_discard():
    state = make_state(hands=[["3H", "4C", "JD"], ["2S", "QH", "8D"]], boards=[["9S"], ["3D", "KC"]])
    after = play(state, type="attack", card="3H", target=1, storage=0)
    assert after["alive"] == [True, False] and after["hands"][1] == []
    assert {"2S", "QH", "8D"} <= set(after["discard"])
    assert bo.outcome(after) == {"winners": [0], "draw": False, "scores": {"0": 9, "1": 0}}
    assert bo.to_move(after) == [] and bo.legal_actions(after, 0) == []
    assert refused(after, 0, {"type": "skip_change"}) == bo.E_GAME_OVER


def test_bo_10_simultaneous_elimination_is_a_draw():
    state = make_state(
        hands=[["JS", "QD", "KH"], ["2S", "QH", "8D"]],
        boards=[["6S", "JC"], [("9H", ["3C"]), "6C"]],
    )
    after = play(state, type="boom", number=6)
    assert after["alive"] == [False, False]
    assert bo.outcome(after) == {"winners": [], "draw": True, "scores": {"0": 0, "1": 0}}


def test_bo_10_eliminated_seats_are_skipped_and_the_rest_play_on():
    state = make_state(
        hands=[["3H", "4C", "JD"], ["2S", "QH", "8D"], ["5S", "6S", "7S"]],
        boards=[["9S"], ["3D", "KC"], ["10H"]],
    )
    after = play(state, type="attack", card="3H", target=1, storage=0)
    assert after["alive"] == [True, False, True] and after["turn"] == 2 and bo.outcome(after) is None
    assert bo.legal_actions(after, 1) == []
    main = play(after, type="skip_change")
    assert {a["target"] for a in bo.legal_actions(main, 2) if a["type"] == "attack"} == {0}


def test_bo_10_a_change_that_leaves_only_figures_eliminates_the_changer():
    state = make_state(
        step="change",
        hands=[["JH", "2C", "3C"], ["2S", "QH", "8D"]],
        boards=[["4S", "KC"], ["7H"]],
    )
    after = play(state, type="change", card="JH", storage=0)
    assert after["alive"] == [False, True] and bo.outcome(after)["winners"] == [1]


def test_bo_11_an_empty_deck_is_refilled_from_the_shuffled_discard():
    state = make_state(hands=[["5H", "3C", "JD"], ["2S", "QH", "8D"]], boards=[["9S"], ["7H"]], deck=["4D"])
    assert len(state["discard"]) > 0
    after = play(state, type="discard", cards=["5H", "3C", "JD"])
    assert "4D" in after["hands"][0] and len(after["hands"][0]) == 3
    assert len(after["deck"]) + len(after["discard"]) == len(state["discard"]) + 3 - 2
    assert sorted(card_count(after).elements()) == sorted(full_deck())


# -- rulings where the book is silent -------------------------------------------------------------

def test_ruling_a_seat_with_nothing_to_do_passes():
    state = make_state(hands=[[], ["2S"]], boards=[["9S"], ["7H"]], deck=[])
    state["discard"] = []
    state["hands"][1] += [c for c in full_deck() if c not in {"9S", "7H", "2S"}]
    assert bo.legal_actions(state, 0) == [{"type": "pass"}]
    after = play(state, type="pass")
    assert after["turn"] == 1 and after["hands"][0] == []


def test_ruling_the_game_is_a_draw_after_the_turn_limit():
    state = make_state(**TWO, turns=MAX_TURNS - 1)
    after = play(state, type="discard", cards=["JD"])
    assert bo.outcome(after)["draw"] is True and bo.to_move(after) == []


# -- protocol basics -----------------------------------------------------------------------------

def test_registered_under_its_name():
    assert get("boom") is bo


def test_view_shows_storages_but_not_other_hands_or_the_deck():
    state = make_state(**TWO)
    view = bo.view(state, 0)
    text = json.dumps(view)
    assert view["hand"] == ["5H", "3C", "JD"] and view["hand_counts"] == [3, 3]
    assert all(f'"{c}"' not in text for c in ["2S", "QH", "8D", *state["deck"]])
    assert '"7H"' in text and view["boards"][1][0]["life"] == 7
    assert bo.view(state, None)["hand"] is None


def test_input_state_is_never_modified():
    state = make_state(**TWO)
    before = json.dumps(state, sort_keys=True)
    play(state, type="attack", card="3C", target=1, storage=2)
    play(state, type="discard", cards=["JD", "3C", "5H"])
    assert json.dumps(state, sort_keys=True) == before


def test_engine_is_pure_python_without_django():
    code = "import sys, cardgames.engines.boom; print(any(m.startswith('django') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
