"""En la palmera (PA-1..PA-10): rules from hand-built states, plus the protocol basics."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cardgames.engines import IllegalAction, get
from cardgames.engines import palmera as pa
from cardgames.engines.palmera.rules import suit_cards

D, C = 0, 1  # seat 0 plays diamonds, seat 1 clubs


def e(card: str, up: bool = False, peeked: bool = False) -> dict:
    return {"card": card, "up": up, "peeked": peeked}


def make_state(
    *,
    turn: int = D,
    hand: str,
    board: dict[int, tuple[int, list]] | None = None,
    round_: int = 1,
    first: int = D,
    scores: list | None = None,
    pile_sizes: tuple[int, int] | None = None,
) -> dict:
    """A hand-built state: ``board`` maps a square to (owner, [entry or code, ...]).

    Every card not on the board and not in hand goes to its owner's pile (at most ``pile_sizes``;
    the rest counts as removed face up), so card conservation holds.
    """
    squares = [[[], []] for _ in range(10)]
    used: set[str] = {hand}
    for square, (owner, cards) in (board or {}).items():
        entries = [c if isinstance(c, dict) else e(c) for c in cards]
        squares[square - 1][owner] = entries
        used |= {x["card"] for x in entries}
    piles, out = [[], []], [[], []]
    for seat in (D, C):
        rest = [c for c in suit_cards(seat) if c not in used]
        keep = len(rest) if pile_sizes is None else pile_sizes[seat]
        piles[seat] = rest[:keep]
        out[seat] = [e(c, up=True) for c in rest[keep:]]
    hands = [None, None]
    hands[turn] = hand
    return {
        "game": "palmera",
        "rng": {"seed": 1, "n": 5},
        "first": first,
        "round": round_,
        "turn": turn,
        "phase": "place",
        "piles": piles,
        "hands": hands,
        "board": squares,
        "out": out,
        "scores": scores or [],
    }


def place(state: dict, square: int, **extra) -> dict:
    return pa.apply(state, state["turn"], {"type": "place", "square": square, **extra})


def side(state: dict, square: int, seat: int) -> list[str]:
    return [x["card"] for x in state["board"][square - 1][seat]]


def out_cards(state: dict, seat: int) -> set[str]:
    return {x["card"] for x in state["out"][seat]}


# -- PA-1 -------------------------------------------------------------------------------------------

def test_pa_1_each_seat_gets_its_own_suit_shuffled():
    state = pa.new_game(2, seed=3)
    for seat, suit in ((D, "D"), (C, "C")):
        cards = state["piles"][seat] + [h for h in [state["hands"][seat]] if h]
        assert sorted(cards) == sorted(r + suit for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
    assert [x for x in range(10) if state["board"][x] != [[], []]] == []


def test_pa_1_random_starter_and_the_other_seat_starts_round_two():
    starters = {pa.new_game(2, seed)["first"] for seed in range(20)}
    assert starters == {0, 1}
    state = pa.new_game(2, seed=11)
    first = state["first"]
    assert state["turn"] == first
    while state["round"] == 1:
        state = pa.apply(state, state["turn"], pa.legal_actions(state, state["turn"])[-1])
    assert state["turn"] == 1 - first
    assert state["board"] == [[[], []] for _ in range(10)], "PA-1: the board is cleared between rounds"
    assert len(state["scores"]) == 1
    assert state["piles"][first] and len(state["piles"][0]) + len(state["piles"][1]) == 25


@pytest.mark.parametrize("seats", [1, 3, 4, "2", True, None])
def test_pa_1_exactly_two_seats(seats):
    with pytest.raises(IllegalAction) as err:
        pa.new_game(seats, seed=1)
    assert err.value.template == pa.E_SEATS


# -- PA-2, PA-3 ----------------------------------------------------------------------------------

def test_pa_2_draw_then_place_face_down_and_the_turn_passes():
    state = make_state(hand="7D")
    after = place(state, 5)
    assert after["board"][4][D] == [e("7D")]
    assert after["turn"] == C and after["hands"][C] == state["piles"][C][-1], "PA-2: the next seat draws"
    assert pa.view(after, C)["board"][4][D] == [{"card": None, "up": False, "peeked": False}]
    assert pa.view(after, D)["board"][4][D][0]["card"] == "7D"
    assert pa.view(after, D)["hand"] is None and pa.view(after, C)["hand"] == after["hands"][C]


def test_pa_3_empty_square_gives_control():
    after = place(make_state(hand="2D"), 10)
    assert pa.rules.controller(after, 10) == D


# -- PA-4 ----------------------------------------------------------------------------------------

def test_pa_4_higher_attacker_wins_and_stays_face_up():
    state = make_state(hand="9D", board={6: (C, ["4C"])})
    after = place(state, 6)
    assert after["board"][5][D] == [e("9D", up=True)] and after["board"][5][C] == []
    assert out_cards(after, C) == {"4C"} and {"card": "4C", "up": True, "peeked": False} in after["out"][C]


def test_pa_4_higher_defender_wins_and_is_revealed():
    state = make_state(hand="5D", board={6: (C, ["JC"])})
    after = place(state, 6)
    assert after["board"][5][C] == [e("JC", up=True)] and after["board"][5][D] == []
    assert "5D" in out_cards(after, D)
    assert pa.view(after, D)["board"][5][C][0]["card"] == "JC"


# -- PA-5 ----------------------------------------------------------------------------------------

def test_pa_5_tie_without_square_one_goes_to_the_attacker():
    after = place(make_state(hand="7D", board={4: (C, ["7C"])}), 4)
    assert side(after, 4, D) == ["7D"] and "7C" in out_cards(after, C)


def test_pa_5_tie_goes_to_the_holder_of_square_one_even_as_defender():
    after = place(make_state(hand="7D", board={4: (C, ["7C"]), 1: (C, ["2C"])}), 4)
    assert side(after, 4, C) == ["7C"] and "7D" in out_cards(after, D)


def test_pa_5_tie_goes_to_the_attacker_holding_square_one():
    after = place(make_state(hand="7D", board={4: (C, ["7C"]), 1: (D, ["2D"])}), 4)
    assert side(after, 4, D) == ["7D"]


def test_pa_5_tie_on_square_one_itself_goes_to_its_defender():
    after = place(make_state(hand="QD", board={1: (C, ["QC"])}), 1)
    assert side(after, 1, C) == ["QC"] and "QD" in out_cards(after, D)


# -- PA-6 ----------------------------------------------------------------------------------------

def test_pa_6_attacking_king_removes_every_card_of_the_square():
    after = place(make_state(hand="KD", board={9: (C, ["QC"])}), 9)
    assert after["board"][8] == [[], []]
    assert "KD" in out_cards(after, D) and "QC" in out_cards(after, C)


def test_pa_6_defending_king_removes_every_card_of_the_square():
    after = place(make_state(hand="2D", board={9: (C, ["KC"])}), 9)
    assert after["board"][8] == [[], []]
    assert "2D" in out_cards(after, D) and "KC" in out_cards(after, C)


def test_pa_6_king_against_king_clears_the_square():
    after = place(make_state(hand="KD", board={7: (C, ["KC"])}), 7)
    assert after["board"][6] == [[], []]


def test_pa_6_kings_left_on_the_board_are_removed_before_scoring():
    # D's last card: every other card is already played; D holds 10 with a King, C holds 9.
    board = {10: (D, ["KD"]), 9: (C, ["5C"]), 8: (C, ["KC", "4C"])}
    state = make_state(hand="AD", board=board, pile_sizes=(0, 0), round_=2, scores=[[0, 0]])
    after = place(state, 2)
    assert after["scores"] == [[0, 0], [2, 9 + 8]], "square 10 scores for nobody, square 8 only 8"
    assert {"card": "KD", "up": True, "peeked": False} in after["out"][D]
    assert after["board"][9] == [[], []] and side(after, 8, C) == ["4C"]


# -- PA-7 ----------------------------------------------------------------------------------------

def test_pa_7_taking_square_three_lets_you_peek_at_one_face_down_card():
    state = make_state(hand="6D", board={5: (C, ["9C"]), 7: (C, [e("2C", up=True)])})
    after = place(state, 3)
    assert after["phase"] == "peek" and pa.to_move(after) == [D]
    assert pa.legal_actions(after, D) == [{"type": "peek", "square": 5, "slot": 0}], "face-up 2C is no target"
    assert pa.legal_actions(after, C) == []
    peeked = pa.apply(after, D, {"type": "peek", "square": 5, "slot": 0})
    assert pa.view(peeked, D)["board"][4][C] == [{"card": "9C", "up": False, "peeked": True}]
    assert pa.view(peeked, C)["board"][4][C] == [{"card": "9C", "up": False, "peeked": True}]
    assert pa.view(peeked, None)["board"][4][C] == [{"card": None, "up": False, "peeked": True}]
    assert peeked["turn"] == C and peeked["phase"] == "place"


def test_pa_7_winning_square_three_in_a_confrontation_also_peeks():
    after = place(make_state(hand="9D", board={3: (C, ["4C"]), 6: (C, ["JC"])}), 3)
    assert after["phase"] == "peek"
    assert pa.legal_actions(after, D) == [{"type": "peek", "square": 6, "slot": 0}]


def test_pa_7_no_peek_without_face_down_opponent_cards_or_when_defending():
    assert place(make_state(hand="6D"), 3)["phase"] == "place"
    defended = place(make_state(hand="2D", board={3: (C, ["8C"]), 6: (C, ["JC"])}), 3)
    assert defended["phase"] == "place" and defended["turn"] == C


def test_pa_7_peek_must_come_before_anything_else():
    after = place(make_state(hand="6D", board={5: (C, ["9C"])}), 3)
    with pytest.raises(IllegalAction) as err:
        pa.apply(after, D, {"type": "place", "square": 4})
    assert err.value.template == pa.E_MUST_PEEK
    with pytest.raises(IllegalAction) as err:
        pa.apply(after, D, {"type": "peek", "square": 3, "slot": 0})
    assert err.value.template == pa.E_NOT_PEEKABLE


# -- PA-8 ----------------------------------------------------------------------------------------

def test_pa_8_one_card_per_side_except_two_on_square_eight():
    state = make_state(hand="5D", board={4: (D, ["9D"]), 8: (D, ["2D"])})
    squares = {a["square"] for a in pa.legal_actions(state, D)}
    assert 4 not in squares and 8 in squares
    with pytest.raises(IllegalAction) as err:
        place(state, 4)
    assert err.value.template == pa.E_OWN_SQUARE
    full = place(state, 8)
    assert side(full, 8, D) == ["2D", "5D"]
    state = make_state(hand="6D", board={8: (D, ["2D", "3D"])})
    assert 8 not in {a["square"] for a in pa.legal_actions(state, D)}
    with pytest.raises(IllegalAction) as err:
        place(state, 8)
    assert err.value.template == pa.E_SQUARE_FULL


def test_pa_8_attacker_chooses_the_order_against_two_defenders():
    state = make_state(hand="9D", board={8: (C, ["JC", "4C"])})
    assert [a for a in pa.legal_actions(state, D) if a["square"] == 8] == [
        {"type": "place", "square": 8, "first": 0},
        {"type": "place", "square": 8, "first": 1},
    ]
    with pytest.raises(IllegalAction) as err:
        place(state, 8)
    assert err.value.template == pa.E_CHOOSE_ORDER
    # 4C first: 9D beats it, then JC is revealed and beats 9D.
    after = place(state, 8, first=1)
    assert side(after, 8, C) == ["JC"] and after["board"][7][C][0]["up"]
    assert {"4C"} <= out_cards(after, C) and "9D" in out_cards(after, D)


def test_pa_8_second_defender_stays_hidden_when_the_attacker_loses_the_first():
    state = make_state(hand="9D", board={8: (C, ["JC", "4C"])})
    after = place(state, 8, first=0)
    assert after["board"][7][C] == [e("JC", up=True), e("4C")]
    assert pa.view(after, D)["board"][7][C][1]["card"] is None


def test_pa_8_attacker_beating_both_defenders_holds_square_eight():
    after = place(make_state(hand="QD", board={8: (C, ["3C", "4C"])}), 8, first=0)
    assert side(after, 8, D) == ["QD"] and {"3C", "4C"} <= out_cards(after, C)


def test_pa_8_attacking_king_removes_both_defenders_unseen():
    after = place(make_state(hand="KD", board={8: (C, ["3C", "QC"])}), 8, first=0)
    assert after["board"][7] == [[], []]
    removed = {x["card"]: x["up"] for x in after["out"][C]}
    assert removed["3C"] is False and removed["QC"] is False
    assert '"QC"' not in json.dumps(pa.view(after, D))


def test_pa_8_defending_king_first_removes_all_and_second_stays_unseen():
    after = place(make_state(hand="5D", board={8: (C, ["KC", "9C"])}), 8, first=0)
    assert after["board"][7] == [[], []]
    removed = {x["card"]: x["up"] for x in after["out"][C]}
    assert removed["KC"] is True and removed["9C"] is False
    text = json.dumps(pa.view(after, D))
    assert '"KC"' in text and '"9C"' not in text


def test_pa_8_defending_king_second_removes_the_attacker_and_itself():
    after = place(make_state(hand="5D", board={8: (C, ["KC", "2C"])}), 8, first=1)
    assert after["board"][7] == [[], []]
    assert {"KC", "2C"} <= out_cards(after, C) and "5D" in out_cards(after, D)


# -- PA-9, PA-10 ---------------------------------------------------------------------------------

def test_pa_9_round_score_with_sixteen_for_two_cards_on_square_eight():
    board = {8: (D, ["2D", "3D"]), 5: (D, ["4D"]), 1: (C, ["6C"]), 10: (C, ["7C"])}
    after = place(make_state(hand="AD", board=board, pile_sizes=(0, 0)), 9)
    assert after["scores"] == [[16 + 5 + 9, 1 + 10]]
    assert after["round"] == 2 and after["turn"] == C, "round 2 is started by the other seat"


def test_pa_9_square_eight_with_one_card_scores_eight():
    after = place(make_state(hand="AD", board={8: (C, ["2C"])}, pile_sizes=(0, 0)), 2)
    assert after["scores"] == [[2, 8]]


def test_pa_9_the_round_lasts_until_both_seats_placed_their_last_card():
    state = make_state(hand="AD", pile_sizes=(0, 1))
    after = place(state, 2)
    assert after["scores"] == [] and after["turn"] == C
    assert pa.to_move(after) == [C]


def test_pa_10_highest_total_wins_and_equal_totals_draw():
    last = make_state(hand="AD", round_=2, scores=[[20, 10]], pile_sizes=(0, 0), board={9: (C, ["5C"])})
    done = place(last, 3)
    assert done["scores"] == [[20, 10], [3, 9]]
    assert pa.outcome(done) == {"winners": [D], "draw": False, "scores": {"0": 23, "1": 19}}
    assert pa.to_move(done) == [] and pa.legal_actions(done, D) == []
    tie = place(make_state(hand="AD", round_=2, scores=[[10, 14]], pile_sizes=(0, 0)), 4)
    assert pa.outcome(tie) == {"winners": [], "draw": True, "scores": {"0": 14, "1": 14}}
    with pytest.raises(IllegalAction) as err:
        pa.apply(tie, D, {"type": "place", "square": 5})
    assert err.value.template == pa.E_GAME_OVER


# -- protocol basics -----------------------------------------------------------------------------

def test_registered_under_its_name():
    assert get("palmera") is pa


def test_wrong_seat_and_bad_squares_are_refused_with_readable_messages():
    state = make_state(hand="5D")
    cases = [
        (C, {"type": "place", "square": 2}, pa.E_NOT_YOUR_TURN),
        (D, {"type": "place", "square": 0}, pa.E_BAD_SQUARE),
        (D, {"type": "place", "square": "2"}, pa.E_BAD_SQUARE),
        (D, {"type": "place", "square": True}, pa.E_BAD_SQUARE),
        (D, {"type": "jump"}, pa.E_MALFORMED),
        (D, None, pa.E_MALFORMED),
        (D, {"type": "peek", "square": 2, "slot": 0}, pa.E_MUST_PLACE),
        (D, {"type": "place", "square": 2, "first": 0}, pa.E_ILLEGAL),
    ]
    for seat, action, template in cases:
        with pytest.raises(IllegalAction) as err:
            pa.apply(state, seat, action)
        assert err.value.template == template, action


def test_blocked_seat_removes_its_card_face_down():
    """RULING (book silent, PA-8): with every own slot full the drawn card leaves face down."""
    board = {sq: (D, [f"{r}D"]) for sq, r in zip([1, 2, 3, 4, 5, 6, 7, 9, 10], "2 3 4 5 6 7 9 10 J".split())}
    board[8] = (D, ["QD", "AD"])
    state = make_state(hand="8D", board=board)
    assert pa.legal_actions(state, D) == [{"type": "discard"}]
    after = pa.apply(state, D, {"type": "discard"})
    assert e("8D") in after["out"][D] and '"8D"' not in json.dumps(pa.view(after, C))


def test_input_state_is_never_modified():
    state = make_state(hand="9D", board={8: (C, ["JC", "4C"])})
    before = json.dumps(state, sort_keys=True)
    place(state, 8, first=1)
    assert json.dumps(state, sort_keys=True) == before


def test_engine_is_pure_python_without_django():
    code = "import sys, cardgames.engines.palmera; print(any(m.startswith('django') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
