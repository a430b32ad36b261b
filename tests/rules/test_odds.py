"""FR-ODDS-1: exact odds of checks and opposed checks, against enumeration and simulation."""

import doctest
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules import odds
from frontera.rules.cards import RANKS, SUITS, TRAIT_SUIT, TRAITS, Card, dead_mans_hand, physical_deck
from frontera.rules.checks import (
    E_BAD_DIFFICULTY,
    E_BAD_NUMBER,
    FAILURE,
    LOSS,
    PARTIAL,
    SUCCESS,
    TIE,
    WIN,
    cards_for_check,
    opposed_outcome,
    outcome_rank,
    trait_outcome,
)
from frontera.rules.dead_mans_hand import (
    E_DEAD_MANS_HAND_COUNT,
    dead_mans_hand_result,
)
from frontera.rules.errors import RulesError
from frontera.rules.odds import (
    E_NEGATIVE_DRAWS,
    FULL_DECK,
    at_least_one_odds,
    check_categories,
    check_odds,
    dead_mans_hand_odds,
    opposed_odds,
)

CODES = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]
SCORE = {WIN: 2, TIE: 1, LOSS: 0}


def template_of(excinfo):
    return excinfo.value.template


# --- oracles: brute force over every hand, using only the rules functions of checks.py ---------------


def options(code):
    """The ways a drawn card can be played: a joker may be declared any suit (FR-CARD-2)."""
    card = Card.parse(code)
    return [card.declare(suit) for suit in SUITS] if card.is_joker else [card]


def hands(cards, draws):
    """Every hand (as tuples of positions, so duplicate codes stay distinct) of ``draws`` cards."""
    draws = min(draws, len(cards))
    if draws <= 0:
        return [()]
    return list(combinations(range(len(cards)), draws))


def best_check_outcome(hand, trait, difficulty):
    if not hand:
        return FAILURE
    outcomes = [trait_outcome(option, trait, difficulty) for code in hand for option in options(code)]
    return max(outcomes, key=outcome_rank)


def enumerated_check_odds(cards, draws, trait, difficulty):
    drawn = ([cards[i] for i in hand] for hand in hands(cards, draws))
    counts = Counter(best_check_outcome(hand, trait, difficulty) for hand in drawn)
    total = sum(counts.values())
    return {outcome: Fraction(counts[outcome], total) for outcome in (SUCCESS, PARTIAL, FAILURE)}


def dominant_choice(hand_options, rival_options, score):
    """The option at least as good as every other option against every rival card; asserts it exists."""
    for mine in hand_options:
        if all(score[mine, r] >= score[other, r] for other in hand_options for r in rival_options):
            return mine
    raise AssertionError(f"no dominant card in {hand_options}")


def enumerated_opposed_odds(cards_a, draws_a, trait_a, cards_b, draws_b, trait_b):
    """Every pair of hands; each party plays a card proved dominant by brute force (FR-OPP-1..5)."""
    opts_a = [None] + [o for code in set(cards_a) for o in options(code)]
    opts_b = [None] + [o for code in set(cards_b) for o in options(code)]
    score_a = {
        (a, b): SCORE[opposed_outcome({0: (trait_a, a), 1: (trait_b, b)})[0]] for a in opts_a for b in opts_b
    }
    score_b = {(b, a): 2 - s for (a, b), s in score_a.items()}

    def choices(cards, draws, score, rival_options):
        result = []
        for hand in hands(cards, draws):
            hand_options = [o for i in hand for o in options(cards[i])] or [None]
            result.append(dominant_choice(hand_options, rival_options, score))
        return result

    chosen_a = choices(cards_a, draws_a, score_a, opts_b)
    chosen_b = choices(cards_b, draws_b, score_b, opts_a)
    counts = Counter(score_a[a, b] for a in chosen_a for b in chosen_b)
    total = len(chosen_a) * len(chosen_b)
    return {result: Fraction(counts[SCORE[result]], total) for result in (WIN, TIE, LOSS)}


small_decks = st.lists(st.sampled_from([*CODES, "JK"]), max_size=12)
difficulties = st.none() | st.integers(2, 15)
traits = st.sampled_from(TRAITS)


# --- FR-ODDS-1 ---------------------------------------------------------------------------------------------

BOOK_TABLE = [
    (1, 25.0, 50.0),
    (2, 44.1, 75.5),
    (3, 58.6, 88.2),
    (4, 69.6, 94.5),
    (5, 77.8, 97.5),
    (6, 84.0, 98.9),
    (7, 88.5, 99.5),
    (8, 91.8, 99.8),
    (9, 94.2, 99.9),
    (10, 96.0, None),  # the book prints "> 99.9 %"
]


@pytest.mark.parametrize(("draws", "suit", "colour"), BOOK_TABLE)
def test_fr_odds_1_book_table_every_row(draws, suit, colour):
    """FR-ODDS-1: the book's table (at least one of a suit / colour from a full deck), to its rounding."""
    p_suit, p_colour = at_least_one_odds(draws)
    assert round(float(p_suit) * 100, 1) == suit
    if colour is None:
        assert 99.9 < float(p_colour) * 100 < 100
    else:
        assert round(float(p_colour) * 100, 1) == colour


def test_fr_odds_1_table_for_every_trait_and_exact_first_rows():
    for trait in TRAITS:
        result = check_odds(FULL_DECK, 2, trait)
        assert result[SUCCESS] == Fraction(15, 34)
        assert result[SUCCESS] + result[PARTIAL] == 1 - Fraction(26 * 25, 52 * 51)
    assert at_least_one_odds(1) == (Fraction(1, 4), Fraction(1, 2))
    assert at_least_one_odds(0) == (0, 0)


@given(small_decks, st.integers(-2, 13), st.sampled_from(TRAITS), difficulties)
@settings(max_examples=80, deadline=None)
def test_fr_odds_1_check_odds_matches_enumeration_of_every_hand(cards, draws, trait, difficulty):
    """FR-ODDS-1 with FR-CHK-1..4: exact odds equal the count over all hands (jokers best declared)."""
    result = check_odds(cards, draws, trait, difficulty)
    assert result == enumerated_check_odds(cards, draws, trait, difficulty)
    assert sum(result.values()) == 1


@given(
    st.lists(st.sampled_from([*CODES, "JK"]), max_size=7),
    st.integers(-1, 8),
    st.sampled_from(TRAITS),
    st.lists(st.sampled_from([*CODES, "JK"]), max_size=7),
    st.integers(-1, 8),
    st.sampled_from(TRAITS),
)
@settings(max_examples=60, deadline=None)
def test_fr_opp_1_to_5_opposed_odds_match_enumeration_with_dominant_play(
    cards_a, draws_a, trait_a, cards_b, draws_b, trait_b
):
    """FR-ODDS-1 for FR-OPP-1..5: over all pairs of hands, each playing a card shown by brute force to
    dominate every other choice, the counts equal opposed_odds."""
    expected = enumerated_opposed_odds(cards_a, draws_a, trait_a, cards_b, draws_b, trait_b)
    assert opposed_odds(cards_a, draws_a, trait_a, cards_b, draws_b, trait_b) == expected


@given(small_decks, st.integers(0, 6), st.sampled_from(TRAITS), small_decks, st.integers(0, 6), traits)
@settings(max_examples=60, deadline=None)
def test_fr_opp_opposed_odds_are_symmetric(cards_a, draws_a, trait_a, cards_b, draws_b, trait_b):
    mine = opposed_odds(cards_a, draws_a, trait_a, cards_b, draws_b, trait_b)
    theirs = opposed_odds(cards_b, draws_b, trait_b, cards_a, draws_a, trait_a)
    assert (mine[WIN], mine[TIE], mine[LOSS]) == (theirs[LOSS], theirs[TIE], theirs[WIN])
    assert sum(mine.values()) == 1


def test_fr_odds_1_seeded_simulation_on_a_54_card_deck():
    """FR-ODDS-1: 20 000 seeded draws of 6 from 52 cards + 2 jokers agree with the exact odds."""
    deck = [card.code for card in physical_deck(1, jokers=2)]
    exact = check_odds(deck, 6, "sentidos", 9)
    rng = random.Random(20261122)
    trials = 20_000
    counts = Counter(best_check_outcome(rng.sample(deck, 6), "sentidos", 9) for _ in range(trials))
    for outcome, p in exact.items():
        assert abs(counts[outcome] / trials - float(p)) < 0.015, (outcome, counts[outcome] / trials, float(p))


def test_fr_opp_seeded_simulation_on_54_card_decks():
    """FR-OPP-1..5: seeded duels, each side playing its strongest card, agree with opposed_odds."""
    deck = [card.code for card in physical_deck(1, jokers=2)]
    exact = opposed_odds(deck, 4, "musculo", deck, 3, "cabeza")
    rng = random.Random(1848)
    trials = 10_000

    def play(trait):
        return lambda code: odds.strength_profile([code], trait)[0][0]

    counts = Counter()
    for _ in range(trials):
        hand_a, hand_b = rng.sample(deck, 4), rng.sample(deck, 3)
        card_a = max(hand_a, key=play("musculo"))
        card_b = max(hand_b, key=play("cabeza"))
        plays = {
            "a": ("musculo", Card.parse(card_a).declare("H") if card_a == "JK" else card_a),
            "b": ("cabeza", Card.parse(card_b).declare("D") if card_b == "JK" else card_b),
        }
        counts[opposed_outcome(plays)["a"]] += 1
    for result, p in exact.items():
        assert abs(counts[result] / trials - float(p)) < 0.02, (result, counts[result] / trials, float(p))


# --- details of check_odds ---------------------------------------------------------------------------------


def test_fr_chk_1_ruling_no_draw_is_certain_failure_and_too_many_draws_take_all():
    assert check_odds(FULL_DECK, 0, "manos") == {SUCCESS: 0, PARTIAL: 0, FAILURE: 1}
    assert check_odds(FULL_DECK, -3, "manos") == {SUCCESS: 0, PARTIAL: 0, FAILURE: 1}
    assert check_odds(["2H", "3S"], 10, "manos") == {SUCCESS: 1, PARTIAL: 0, FAILURE: 0}
    assert check_odds([], 3, "manos")[FAILURE] == 1


def test_fr_chk_4_policarpo_odds_with_difficulty():
    """FR-CHK-4: drawing 1 of Policarpo's four cards at difficulty 8: only the 3♣ scores (a partial)."""
    assert check_odds(["3C", "9D", "10S", "KS"], 1, "sentidos", 8) == {
        SUCCESS: 0,
        PARTIAL: Fraction(1, 4),
        FAILURE: Fraction(3, 4),
    }
    assert check_categories(["3C", "9D", "10S", "KS", "JK", "8C"], "sentidos", 8) == (6, 2, 1)


def test_fr_card_2_jokers_count_as_the_right_suit_in_odds():
    assert check_odds(["JK", "2H"], 1, "manos", 15)[SUCCESS] == Fraction(1, 2)
    assert check_odds([Card.parse("JK").declare("H"), "2H"], 1, "manos")[SUCCESS] == Fraction(1, 2)


def test_fr_odds_1_cards_may_be_given_as_uids():
    assert check_odds(["1:JK1", "2:3H", "2:3S", "1:3S"], 1, "musculo") == {
        SUCCESS: Fraction(1, 2),
        PARTIAL: 0,
        FAILURE: Fraction(1, 2),
    }
    assert opposed_odds(["2:JK2"], 1, "cabeza", ["1:AD"], 1, "cabeza") == {WIN: 1, TIE: 0, LOSS: 0}


def test_fr_odds_1_multi_deck_multiset():
    two_decks = [card.code for deck in (1, 2) for card in physical_deck(deck, jokers=0)]
    result = check_odds(two_decks, 1, "cabeza")
    assert result == {SUCCESS: Fraction(1, 4), PARTIAL: Fraction(1, 4), FAILURE: Fraction(1, 2)}
    assert check_odds(physical_deck(1) + physical_deck(2), 1, "cabeza")[SUCCESS] == Fraction(30, 108)


def test_fr_sob_1_achispado_odds_average_the_dead_mans_hand_draws():
    """FR-SOB-1: the Achispado's odds are the mean over the four dead man's hand cards of the check's odds."""
    deck = [card.code for card in physical_deck(1)]
    for score in (1, 3):
        base = cards_for_check(trait_score=score)
        counts = [
            cards_for_check(trait_score=score, sobriety=-1, achispado_card=dmh) for dmh in dead_mans_hand()
        ]
        by_card = [check_odds(deck, count, "musculo") for count in counts]
        mean = {o: sum(r[o] for r in by_card) / 4 for o in (SUCCESS, PARTIAL, FAILURE)}
        assert check_odds(deck, base, "musculo", achispado=True) == mean


def test_fr_chk_6_dead_mans_hand_odds_match_enumeration():
    for count in (1, 2):
        drawn = list(combinations(dead_mans_hand(), count))
        better = Fraction(sum(dead_mans_hand_result(list(hand)) == "better" for hand in drawn), len(drawn))
        assert dead_mans_hand_odds(count) == {"better": better, "worse": 1 - better}
    assert dead_mans_hand_odds(2)["better"] == Fraction(5, 6)


def test_fr_opp_6_chase_odds_book_example():
    """FR-OPP-6's chase: Ulises's four cards against Billy's six, one card each."""
    ulises, billy = ["3C", "5D", "8H", "AD"], ["6D", "6H", "7H", "QS", "7C", "2H"]
    assert opposed_odds(ulises, 4, "musculo", billy, 6, "musculo") == {WIN: 1, TIE: 0, LOSS: 0}
    assert opposed_odds(ulises, 0, "musculo", billy, 6, "musculo") == {WIN: 0, TIE: 0, LOSS: 1}
    assert opposed_odds(["AS"], 1, "musculo", ["2C"], 0, "musculo") == {WIN: 0, TIE: 1, LOSS: 0}


# --- bad input ---------------------------------------------------------------------------------------------


def test_odds_bad_input_is_refused():
    with pytest.raises(RulesError, match="is not a card"):
        check_odds(["10S", "ZZ"], 1, "manos")
    with pytest.raises(RulesError, match="is not a trait"):
        check_odds(FULL_DECK, 1, "suerte")
    with pytest.raises(RulesError, match="is not a trait"):
        opposed_odds(FULL_DECK, 1, "manos", FULL_DECK, 1, "suerte")
    with pytest.raises(RulesError, match="is not a card"):
        opposed_odds(["1S"], 1, "manos", FULL_DECK, 1, "manos")
    with pytest.raises(RulesError, match="is not a card"):
        check_odds([5, "2S"], 1, "manos")
    with pytest.raises(RulesError, match="is not a physical card"):
        check_odds(["one:3S"], 1, "manos")
    for bad in (2.5, "3", None, True):
        with pytest.raises(RulesError) as info:
            check_odds(FULL_DECK, bad, "manos")
        assert template_of(info) == E_BAD_NUMBER
        with pytest.raises(RulesError) as info:
            opposed_odds(FULL_DECK, 1, "manos", FULL_DECK, bad, "manos")
        assert template_of(info) == E_BAD_NUMBER
    with pytest.raises(RulesError) as info:
        check_odds(FULL_DECK, 2, "manos", difficulty=1)
    assert template_of(info) == E_BAD_DIFFICULTY
    with pytest.raises(RulesError) as info:
        at_least_one_odds(-1)
    assert template_of(info) == E_NEGATIVE_DRAWS
    with pytest.raises(RulesError) as info:
        dead_mans_hand_odds(3)
    assert template_of(info) == E_DEAD_MANS_HAND_COUNT


def test_doctests_of_odds_pass():
    assert doctest.testmod(odds).failed == 0


def test_fr_chk_3_trait_suits_used_by_the_odds_are_the_rules():
    """FR-CHK-3 via FR-ODDS-1: one card of the trait's suit is a sure success, of its colour a partial."""
    same_colour = {"S": "C", "C": "S", "H": "D", "D": "H"}
    for trait, suit in TRAIT_SUIT.items():
        assert check_odds(["5" + suit], 1, trait)[SUCCESS] == 1
        assert check_odds(["5" + same_colour[suit]], 1, trait)[PARTIAL] == 1
