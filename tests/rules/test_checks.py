"""FR-CHK-1..6 and the Achispado draw of FR-SOB-1: card counts, outcomes, the check record."""

import ast
import doctest
import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules import checks
from frontera.rules.cards import RANKS, SUIT_TRAIT, SUITS, TRAITS, Card, physical_deck
from frontera.rules.checks import (
    E_ACHISPADO_CARD_MISSING,
    E_ALREADY_RESOLVED,
    E_BAD_DIFFICULTY,
    E_BAD_NUMBER,
    E_BAD_RECORD,
    E_DRAWN_TWICE,
    E_NEGATIVE_SCORE,
    E_NOT_ACHISPADO,
    E_NOT_DRAWN,
    E_UNDECLARED_JOKER,
    FAILURE,
    PARTIAL,
    SUCCESS,
    CheckRecord,
    achispado_bonus,
    cards_for_check,
    check_choices,
    check_choose,
    check_open,
    is_automatic_failure,
    medical_attention,
    medical_cards,
    outcome_rank,
    trait_outcome,
)
from frontera.rules.dead_mans_hand import (
    BETTER,
    E_DEAD_MANS_HAND_COUNT,
    E_DEAD_MANS_HAND_TWICE,
    E_NOT_DEAD_MANS_HAND,
    WORSE,
    dead_mans_hand_result,
    draw_dead_mans_hand,
)
from frontera.rules.errors import RulesError
from frontera.rules.tracks import E_CANNOT_ACT

CODES = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]


def raises(template):
    """Expect a RulesError built from ``template``."""

    class _Catch:
        def __enter__(self):
            self.ctx = pytest.raises(RulesError)
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            handled = self.ctx.__exit__(*exc)
            assert self.info.value.template == template, str(self.info.value)
            return handled

    return _Catch()


# --- FR-CHK-1 -------------------------------------------------------------------------------------


def test_fr_chk_1_trait_plus_two_for_a_skill():
    """Policarpo (Sentidos 4, no Percepción) draws 4; with Percepción he would draw 6."""
    assert cards_for_check(trait_score=4) == 4
    assert cards_for_check(trait_score=4, skill=True) == 6


def test_fr_chk_1_equipment_and_range_modifiers():
    assert cards_for_check(trait_score=3, equipment_bonus=1) == 4  # work clothes, healer's kit
    assert cards_for_check(trait_score=3, skill=True, range_modifier=-1) == 4
    assert cards_for_check(trait_score=3, range_modifier=2) == 5


@pytest.mark.parametrize(
    ("health", "morale", "sobriety", "expected"),
    [
        (0, 0, 0, 6),
        (-1, 0, 0, 5),
        (-2, 0, 0, 4),
        (0, -1, 0, 5),
        (0, -2, 0, 4),
        (0, 0, -2, 4),
        (-2, -2, -2, 0),
    ],
)
def test_fr_chk_1_track_penalties(health, morale, sobriety, expected):
    """FR-CHK-1 with FR-HLT-1 / FR-MOR-1 / FR-SOB-1: Herido −1, Malherido −2, Asustado −1, ..."""
    tracks = {"health": health, "morale": morale, "sobriety": sobriety}
    assert cards_for_check(trait_score=4, skill=True, **tracks) == expected


def test_fr_chk_1_zero_or_fewer_cards_is_an_automatic_failure():
    """RULING FR-CHK-1: a total of 0 or less fails without drawing."""
    total = cards_for_check(trait_score=1, health=-2, morale=-1)
    assert total == -2
    assert is_automatic_failure(total) and is_automatic_failure(0)
    assert not is_automatic_failure(1)
    record = check_open(trait="manos", drawn=[])
    assert record.resolved and record.outcome == FAILURE and check_choices(record) == []


@pytest.mark.parametrize(("health", "morale", "sobriety"), [(-3, 0, 0), (-4, 0, 0), (0, -3, 0), (0, 0, -3)])
def test_fr_chk_1_no_check_when_the_character_cannot_act(health, morale, sobriety):
    with raises(E_CANNOT_ACT):
        cards_for_check(trait_score=5, health=health, morale=morale, sobriety=sobriety)


@pytest.mark.parametrize(("card", "expected"), [("AS", 5), ("AH", 5), ("8C", 3), ("8D", 3), ("2:AS", 5)])
def test_fr_sob_1_achispado_ace_adds_a_card_eight_removes_one(card, expected):
    """FR-SOB-1: Achispado draws from the dead man's hand before every check: A → +1, 8 → −1."""
    assert cards_for_check(trait_score=2, skill=True, sobriety=-1, achispado_card=card) == expected
    assert achispado_bonus(card) == expected - 4


def test_fr_sob_1_achispado_needs_the_dead_mans_hand_card():
    with raises(E_ACHISPADO_CARD_MISSING):
        cards_for_check(trait_score=2, sobriety=-1)
    with raises(E_NOT_ACHISPADO):
        cards_for_check(trait_score=2, achispado_card="AS")
    with raises(E_NOT_DEAD_MANS_HAND):
        cards_for_check(trait_score=2, sobriety=-1, achispado_card="AC")


def test_fr_sob_1_achispado_draw_only_two_outcomes():
    """FR-SOB-1 with FR-CARD-5: the draw before the check is one of the four dead man's hand cards."""
    rng = random.Random(7)
    draws = [draw_dead_mans_hand(rng)[0] for _ in range(50)]
    seen = {cards_for_check(trait_score=3, sobriety=-1, achispado_card=card) for card in draws}
    assert seen == {2, 4}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"trait_score": "3"},
        {"trait_score": 2.5},
        {"trait_score": True},
        {"trait_score": 3, "equipment_bonus": "1"},
        {"trait_score": 3, "range_modifier": 0.5},
    ],
)
def test_fr_chk_1_non_integer_counts_are_refused(kwargs):
    with raises(E_BAD_NUMBER):
        cards_for_check(**kwargs)


def test_fr_chk_1_negative_trait_score_is_refused():
    with raises(E_NEGATIVE_SCORE):
        cards_for_check(trait_score=-1)


# --- FR-CHK-3 / FR-CHK-4 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trait", "success", "partial", "failures"),
    [
        ("manos", "S", "C", "HD"),
        ("sentidos", "C", "S", "HD"),
        ("musculo", "H", "D", "SC"),
        ("cabeza", "D", "H", "SC"),
    ],
)
def test_fr_chk_3_suit_success_colour_partial_other_failure(trait, success, partial, failures):
    for rank in RANKS:
        assert trait_outcome(rank + success, trait) == SUCCESS
        assert trait_outcome(rank + partial, trait) == PARTIAL
        assert {trait_outcome(rank + suit, trait) for suit in failures} == {FAILURE}


@pytest.mark.parametrize("suit", SUITS)
def test_fr_chk_3_joker_takes_declared_suit(suit):
    joker = Card.parse("JK").declare(suit)
    for trait in TRAITS:
        assert trait_outcome(joker, trait) == trait_outcome("2" + suit, trait)
    assert trait_outcome(joker, SUIT_TRAIT[suit], difficulty=15) == SUCCESS  # a joker is worth 15


def test_fr_chk_3_undeclared_joker_asks_for_its_suit():
    with raises(E_UNDECLARED_JOKER):
        trait_outcome("JK", "manos")


def test_fr_chk_4_policarpo_search_book_example():
    """FR-CHK-4, the book's example: Sentidos (Percepción) difficulty 8, drawn 3♣ 9♦ 10♠ K♠;
    the 3♣ is the right suit below 8, an Éxito parcial; the ♠ cards are now failures."""
    assert trait_outcome("3C", "sentidos", difficulty=8) == PARTIAL
    assert [trait_outcome(c, "sentidos", 8) for c in ("9D", "10S", "KS")] == [FAILURE] * 3
    record = check_open(trait="sentidos", drawn=["3C", "9D", "10S", "KS"], difficulty=8)
    record, events = check_choose(record, "3C")
    assert record.outcome == PARTIAL
    assert events[-1] == {"type": "check_resolved", "trait": "sentidos", "difficulty": 8, "outcome": PARTIAL}


@given(st.sampled_from(CODES), st.sampled_from(TRAITS), st.integers(2, 15))
@settings(max_examples=200, deadline=None)
def test_fr_chk_4_difficulty_rules(code, trait, difficulty):
    """FR-CHK-4: right suit at/above difficulty → success, below → partial; any other suit fails."""
    card = Card.parse(code)
    right = {"manos": "S", "sentidos": "C", "musculo": "H", "cabeza": "D"}[trait]
    expected = (SUCCESS if card.value >= difficulty else PARTIAL) if card.suit == right else FAILURE
    assert trait_outcome(card, trait, difficulty) == expected


def test_fr_chk_4_difficulty_must_be_a_card_value():
    for bad in (1, 16, "8", 8.0, True):
        with raises(E_BAD_DIFFICULTY):
            trait_outcome("8S", "manos", bad)
    assert trait_outcome("AS", "manos", 2) == SUCCESS and trait_outcome("AS", "manos", 15) == PARTIAL


def test_fr_chk_3_played_card_may_be_a_uid():
    assert trait_outcome("2:3C", "sentidos") == SUCCESS
    with raises(E_UNDECLARED_JOKER):
        trait_outcome("2:JK1", "sentidos")


def test_bad_card_and_trait_are_refused():
    with pytest.raises(RulesError, match="is not a card"):
        trait_outcome("11S", "manos")
    with pytest.raises(RulesError, match="is not a trait"):
        trait_outcome("10S", "fuerza")


def test_outcome_rank_orders_outcomes():
    assert sorted([PARTIAL, FAILURE, SUCCESS], key=outcome_rank) == [FAILURE, PARTIAL, SUCCESS]


# --- FR-CHK-2: the check record ----------------------------------------------------------------------


def test_fr_chk_2_play_one_drawn_card_the_rest_are_unchosen():
    record = check_open(trait="musculo", drawn=["3C", "5D", "8H", "AD"])
    assert check_choices(record) == ["1:3C", "1:5D", "1:8H", "1:AD"]
    new, events = check_choose(record, "8H")
    assert (new.played, new.outcome, new.unchosen) == ("1:8H", SUCCESS, ("1:3C", "1:5D", "1:AD"))
    assert events[0] == {"type": "card_played", "card": "1:8H", "declared": None}
    assert events[1] == {"type": "cards_unchosen", "cards": ["1:3C", "1:5D", "1:AD"]}
    assert record.outcome is None and record.played is None  # the input is not mutated
    assert check_choices(new) == []


def test_fr_chk_2_a_card_not_drawn_is_refused():
    record = check_open(trait="musculo", drawn=["3C", "5D"])
    with raises(E_NOT_DRAWN) as info:
        check_choose(record, "8H")
    assert info.value.params == {"card": "8♥"}
    with raises(E_NOT_DRAWN):
        check_choose(record, "2:3C")  # the 3♣ of another physical deck


def test_fr_chk_2_multi_deck_uids_and_codes():
    drawn = [Card.parse("7S", deck=2), Card.parse("7S", deck=1)]
    record = check_open(trait="manos", drawn=drawn)
    assert record.drawn == ("2:7S", "1:7S")
    assert check_choose(record, "1:7S")[0].played == "1:7S"
    assert check_choose(record, drawn[1])[0].played == "1:7S"
    assert check_choose(record, "7S")[0].played == "2:7S"  # a bare code plays the first copy drawn
    with raises(E_DRAWN_TWICE):
        check_open(trait="manos", drawn=["7S", "1:7S"])


def test_fr_chk_2_fr_card_2_joker_needs_a_declared_suit():
    jokers = physical_deck(1, jokers=2)[-2:]
    record = check_open(trait="cabeza", drawn=[*jokers, "2C"])
    with raises(E_UNDECLARED_JOKER):
        check_choose(record, jokers[1])
    new, events = check_choose(record, jokers[1], suit="D")
    assert (new.played, new.declared, new.outcome) == ("1:JK2", "D", SUCCESS)
    assert events[0]["declared"] == "D"
    assert check_choose(record, jokers[0].declare("H"))[0].outcome == PARTIAL
    assert check_choose(record, "JK", suit="S")[0].played == "1:JK1"
    with pytest.raises(RulesError, match="Only a joker"):
        check_choose(record, "2C", suit="S")


def test_fr_chk_2_resolved_check_cannot_be_played_again():
    record, _ = check_choose(check_open(trait="manos", drawn=["2S"]), "2S")
    with raises(E_ALREADY_RESOLVED):
        check_choose(record, "2S")


def test_fr_chk_2_record_round_trips_through_json():
    record = check_open(trait="cabeza", drawn=["1:JK1", "2:9D", "QS"], difficulty=10)
    played, _ = check_choose(record, "1:JK1", suit="D")
    for item in (record, played):
        data = json.loads(json.dumps(item.to_json()))
        assert CheckRecord.from_json(data) == item


def test_fr_chk_2_tampered_record_is_refused():
    played, _ = check_choose(check_open(trait="manos", drawn=["2S", "KH"]), "KH")
    data = played.to_json()
    data["outcome"] = SUCCESS
    with raises(E_BAD_RECORD):
        CheckRecord.from_json(data)
    with raises(E_BAD_RECORD):
        CheckRecord.from_json({"trait": "manos"})


# --- FR-CHK-5: medical attention -----------------------------------------------------------------------


def test_fr_chk_5_medical_attention_on_someone_else_needs_a_full_success():
    assert medical_attention("2D") is True
    assert medical_attention("AH") is False  # a partial does nothing
    assert medical_attention("AS") is False
    assert medical_attention(Card.parse("JK").declare("D")) is True
    assert medical_attention(None) is False  # automatic failure, no card drawn


def test_fr_chk_5_medical_attention_on_oneself_has_difficulty_8():
    cards = ("7D", "8D", "KD", "AH")
    assert [medical_attention(c, on_self=True) for c in cards] == [False, True, True, False]


def test_fr_chk_5_healers_kit_adds_a_card():
    assert medical_cards(cabeza=3, saber=True) == 5
    assert medical_cards(cabeza=3, saber=True, healers_kit=True) == 6
    assert medical_cards(cabeza=3, healers_kit=True, health=-1) == 3


# --- FR-CHK-6: the dead man's hand ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "result"),
    [
        ("AS", BETTER),
        ("AH", BETTER),
        ("8C", WORSE),
        ("8D", WORSE),
        (["8C", "AH"], BETTER),
        (["8C", "8D"], WORSE),
    ],
)
def test_fr_chk_6_ace_better_eight_worse_two_cards_keep_the_better(cards, result):
    assert dead_mans_hand_result(cards) == result


def test_fr_chk_6_bad_dead_mans_hand_draws_are_refused():
    with raises(E_NOT_DEAD_MANS_HAND):
        dead_mans_hand_result("AC")
    with raises(E_DEAD_MANS_HAND_COUNT):
        dead_mans_hand_result(["AS", "AH", "8C"])
    with raises(E_DEAD_MANS_HAND_COUNT):
        dead_mans_hand_result([])
    with raises(E_DEAD_MANS_HAND_TWICE):
        dead_mans_hand_result(["AS", "1:AS"])
    assert dead_mans_hand_result(["1:AS", "2:AS"]) == BETTER  # an extra deck's hand


def test_fr_chk_6_draw_is_seeded_and_without_replacement():
    first = draw_dead_mans_hand(random.Random(3), 2)
    assert first == draw_dead_mans_hand(random.Random(3), 2)
    assert len({c.uid for c in first}) == 2 and all(c.in_dead_mans_hand for c in first)
    with raises(E_DEAD_MANS_HAND_COUNT):
        draw_dead_mans_hand(random.Random(3), 3)


# --- purity and documentation ------------------------------------------------------------------------------


def test_doctests_of_checks_pass():
    assert doctest.testmod(checks).failed == 0


@pytest.mark.parametrize("module", ["frontera.rules.checks", "frontera.rules.odds"])
def test_checks_and_odds_import_only_the_standard_library_and_the_rules_engine(module):
    """Engines are pure: these modules import nothing but the standard library and frontera.rules."""
    tree = ast.parse(Path(importlib.util.find_spec(module).origin).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    outside = {name for name in imported if not name.startswith("frontera.rules.")}
    assert outside <= sys.stdlib_module_names | {"__future__", "collections.abc"}, outside
