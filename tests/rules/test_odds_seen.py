"""FR-ODDS-1 generalised: odds over the viewer's information set (the cards they have not seen),
for trait checks (FR-CHK-1..4) and opposed checks (FR-OPP-1..5), against brute force over every
world the viewer cannot tell apart."""

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules.cards import RANKS, SUITS, TRAIT_SUIT, TRAITS, Card
from frontera.rules.checks import FAILURE, LOSS, NO_STRENGTH, PARTIAL, SUCCESS, TIE, WIN, strength_for
from frontera.rules.errors import RulesError
from frontera.rules.odds import (
    E_HIDDEN_TOO_MANY,
    Party,
    Source,
    check_odds,
    check_odds_seen,
    opposed_odds,
    opposed_odds_seen,
)

CODES = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]
codes = st.sampled_from([*CODES, "JK"])


# --- the oracle: average the real odds over every way the hidden slots could be filled ------------------


def _best(hand, trait):
    right = TRAIT_SUIT[trait]
    best = NO_STRENGTH
    for code in hand:
        card = Card.parse(code)
        best = max(best, strength_for(right if card.is_joker else card.suit, card.value, right))
    return best


def _worlds(unseen, *sizes):
    """Every way to give disjoint parts of the unseen cards (by position) to hidden slots of ``sizes``."""
    def fill(left, sizes):
        if not sizes:
            yield []
            return
        for part in combinations(left, sizes[0]):
            rest = [i for i in left if i not in part]
            for others in fill(rest, sizes[1:]):
                yield [[unseen[i] for i in part], *others]
    yield from fill(list(range(len(unseen))), list(sizes))


def oracle_check(known, hidden, unseen, draws, trait, difficulty):
    total = Counter()
    worlds = 0
    for (filled,) in _worlds(unseen, hidden):
        worlds += 1
        for outcome, p in check_odds(list(known) + filled, draws, trait, difficulty).items():
            total[outcome] += p
    return {o: total[o] / worlds for o in (SUCCESS, PARTIAL, FAILURE)}


def _score(a, b):
    if a == b:
        return TIE
    return WIN if a > b else LOSS


def oracle_opposed_same_zone(known, hidden, unseen, draws_a, trait_a, draws_b, trait_b):
    """Both draw disjoint hands from one zone (phase 1's pile): every world, every pair of hands."""
    total, count = Counter(), 0
    for (filled,) in _worlds(unseen, hidden):
        zone = list(known) + filled
        a_n = min(draws_a, len(zone))
        for hand_a in combinations(range(len(zone)), a_n):
            left = [i for i in range(len(zone)) if i not in hand_a]
            for hand_b in combinations(left, min(draws_b, len(left))):
                count += 1
                best_a = _best([zone[i] for i in hand_a], trait_a)
                total[_score(best_a, _best([zone[i] for i in hand_b], trait_b))] += 1
    return {r: Fraction(total[r], count) for r in (WIN, TIE, LOSS)}


def oracle_opposed_two_zones(known_a, hidden_a, known_b, hidden_b, unseen, *hands):
    """Each from its own zone (phase 2: own deck vs the rival's deck): average opposed_odds per world."""
    draws_a, trait_a, draws_b, trait_b = hands
    total, worlds = Counter(), 0
    for filled_a, filled_b in _worlds(unseen, hidden_a, hidden_b):
        worlds += 1
        hand_a, hand_b = list(known_a) + filled_a, list(known_b) + filled_b
        real = opposed_odds(hand_a, draws_a, trait_a, hand_b, draws_b, trait_b)
        for r, p in real.items():
            total[r] += p
    return {r: total[r] / worlds for r in (WIN, TIE, LOSS)}


# --- hand-checked cases ---------------------------------------------------------------------------------


def test_fr_odds_1_generalised_four_from_a_four_card_pile_is_no_certainty():
    """FR-ODDS-1 generalised: the pile holds exactly 4 spades and the player draws all 4 for Manos.
    The real contents would say Éxito 100 %; the player has 10 unseen cards, 4 of them spades (the
    other 6 are hidden elsewhere), so the shown figure is 1 − C(6, 4) / C(10, 4) = 1 − 15/210."""
    pile = ["2S", "3S", "4S", "5S"]
    assert check_odds(pile, 4, "manos")[SUCCESS] == 1  # the leak the issue reports
    unseen = pile + ["2H", "3H", "4H", "5H", "2C", "3C"]
    shown = check_odds_seen(Source(hidden=4, zone="pile"), unseen, 4, "manos")
    assert shown[SUCCESS] == 1 - Fraction(comb(6, 4), comb(10, 4)) == Fraction(13, 14)
    assert shown[SUCCESS] < 1
    # the same figure whatever the pile really holds: it is not an argument
    assert shown == check_odds_seen(Source(hidden=4), list(reversed(unseen)), 4, "manos")


def test_fr_odds_1_generalised_phase_1_is_the_hypergeometric_of_the_unseen_cards():
    """FR-ODDS-1 generalised, FR-MODE-4: in phase 1 a draw of n is a hand of the unseen multiset,
    whatever the pile's size: the book's table when the 52 cards of a deck are all unseen."""
    deck = list(CODES)
    for pile_size in (10, 30, 52):
        shown = check_odds_seen(Source(hidden=pile_size), deck, 3, "sentidos")
        assert shown[SUCCESS] == 1 - Fraction(comb(39, 3), comb(52, 3))  # 58.6 %, FR-ODDS-1
        assert shown[SUCCESS] + shown[PARTIAL] == 1 - Fraction(comb(26, 3), comb(52, 3))  # 88.2 %


def test_fr_odds_1_generalised_phase_2_own_deck_is_known():
    """FR-ODDS-1 generalised, FR-MODE-7: in phase 2 the player knows their deck as a multiset; the
    unseen cards elsewhere do not matter."""
    deck = ("2S", "9H", "KD", "4C")
    expected = check_odds(deck, 2, "manos")
    assert expected[SUCCESS] == Fraction(1, 2)
    assert check_odds_seen(Source(known=deck), ["AS", "KS", "QS"], 2, "manos") == expected
    assert check_odds_seen(Source(known=deck), [], 2, "manos") == expected


def test_fr_odds_1_generalised_phase_1_deck_partly_known():
    """A phase-1 deck the player knows in part (cards they played into it, FR-MODE-4) when a short
    pile sends the check to phase 2 (FR-MODE-5): known 9♠ plus 1 hidden of {2♥, 3♥}: in a 1-card
    Manos draw Éxito with the 9♠ (1/2), else a red card, Fracaso."""
    shown = check_odds_seen(Source(known=("9S",), hidden=1), ["2H", "3H"], 1, "manos")
    assert shown == {SUCCESS: Fraction(1, 2), PARTIAL: 0, FAILURE: Fraction(1, 2)}


def test_fr_opp_odds_seen_hand_checked_phase_1_shared_pile():
    """FR-OPP-2..5 with FR-ODDS-1 generalised: both draw 1 from the shared pile (disjoint hands);
    unseen: A♥ 2♠ 3♠ 4♠, Músculo both: the A♥ holder wins (1/4 each), else nobody has suit or
    colour, Tablas (1/2)."""
    pile = Party(Source(hidden=4, zone="pile"), 1, "musculo")
    assert opposed_odds_seen(["AH", "2S", "3S", "4S"], pile, [pile]) == {
        WIN: Fraction(1, 4), TIE: Fraction(1, 2), LOSS: Fraction(1, 4)}


def test_fr_opp_odds_seen_hand_checked_phase_2_rival_deck_unknown():
    """Phase 2: I know my deck (K♥), the rival draws 1 of their deck, a random card of my 3 unseen
    (A♥, 2♥, 5♠), Músculo both: I lose to the A♥ (1/3), beat the 2♥ and the 5♠."""
    me = Party(Source(known=("KH",), zone="deck:me"), 1, "musculo")
    rival = Party(Source(hidden=2, zone="deck:rival"), 1, "musculo")
    assert opposed_odds_seen(["AH", "2H", "5S"], me, [rival]) == {
        WIN: Fraction(2, 3), TIE: 0, LOSS: Fraction(1, 3)}


def test_fr_opp_odds_seen_win_tie_lose_sum_to_one_and_mirror():
    """FR-OPP-1..5: what one side wins the other loses, over the same information (a spectator's)."""
    unseen = CODES[:20] + ["JK"]
    a = Party(Source(hidden=21, zone="pile"), 3, "manos")
    b = Party(Source(hidden=21, zone="pile"), 2, "cabeza")
    mine, theirs = opposed_odds_seen(unseen, a, [b]), opposed_odds_seen(unseen, b, [a])
    assert sum(mine.values()) == 1
    assert (mine[WIN], mine[TIE], mine[LOSS]) == (theirs[LOSS], theirs[TIE], theirs[WIN])


def test_fr_odds_1_generalised_bad_hidden_count_is_refused():
    """More hidden cards than the viewer has unseen is a contradiction, refused with a message."""
    with pytest.raises(RulesError) as excinfo:
        check_odds_seen(Source(hidden=5), ["2S"], 1, "manos")
    assert excinfo.value.template == E_HIDDEN_TOO_MANY
    two_hidden = [Party(Source(hidden=2, zone=zone), 2, "manos") for zone in ("a", "b")]
    with pytest.raises(RulesError) as excinfo:  # two zones of 2 hidden cards each, 3 cards unseen
        opposed_odds_seen(["2S", "3S", "4S"], two_hidden[0], two_hidden[1:])
    assert excinfo.value.template == E_HIDDEN_TOO_MANY


# --- against brute force ---------------------------------------------------------------------------------


@given(st.lists(codes, max_size=4), st.lists(codes, max_size=6), st.data(), st.integers(-1, 7),
       st.sampled_from(TRAITS), st.none() | st.integers(2, 15))
@settings(max_examples=80, deadline=None)
def test_fr_odds_1_generalised_check_odds_seen_is_the_average_over_worlds(
    known, unseen, data, draws, trait, difficulty
):
    """FR-ODDS-1 generalised, FR-CHK-1..4: the figure equals the real odds averaged over every way
    the hidden cards could be any of the unseen ones."""
    hidden = data.draw(st.integers(0, len(unseen)))
    expected = oracle_check(known, hidden, unseen, draws, trait, difficulty)
    source = Source(known=tuple(known), hidden=hidden)
    assert check_odds_seen(source, unseen, draws, trait, difficulty) == expected


@given(st.lists(codes, max_size=2), st.lists(codes, min_size=1, max_size=6), st.data(),
       st.integers(0, 3), st.sampled_from(TRAITS), st.integers(0, 3), st.sampled_from(TRAITS))
@settings(max_examples=60, deadline=None)
def test_fr_opp_1_to_5_odds_seen_same_zone_match_brute_force(
    known, unseen, data, draws_a, trait_a, draws_b, trait_b
):
    """FR-OPP-1..5, FR-ODDS-1 generalised: both draw disjoint hands from one zone (phase 1's pile,
    or the Mayor's deck for two of his NPCs), each playing the strongest card."""
    hidden = data.draw(st.integers(0, len(unseen)))
    source = Source(known=tuple(known), hidden=hidden, zone="pile")
    expected = oracle_opposed_same_zone(known, hidden, unseen, draws_a, trait_a, draws_b, trait_b)
    got = opposed_odds_seen(unseen, Party(source, draws_a, trait_a), [Party(source, draws_b, trait_b)])
    assert got == expected


@given(st.lists(codes, max_size=3), st.lists(codes, max_size=2), st.lists(codes, max_size=6), st.data(),
       st.integers(0, 3), st.sampled_from(TRAITS), st.integers(0, 3), st.sampled_from(TRAITS))
@settings(max_examples=60, deadline=None)
def test_fr_opp_1_to_5_odds_seen_two_zones_match_brute_force(
    known_a, known_b, unseen, data, draws_a, trait_a, draws_b, trait_b
):
    """FR-OPP-1..5, FR-ODDS-1 generalised: each from its own zone (phase 2: my deck, the rival's
    deck I do not see), hidden slots being disjoint parts of my unseen cards."""
    hidden_a = data.draw(st.integers(0, len(unseen)))
    hidden_b = data.draw(st.integers(0, len(unseen) - hidden_a))
    me = Party(Source(known=tuple(known_a), hidden=hidden_a, zone="a"), draws_a, trait_a)
    rival = Party(Source(known=tuple(known_b), hidden=hidden_b, zone="b"), draws_b, trait_b)
    expected = oracle_opposed_two_zones(
        known_a, hidden_a, known_b, hidden_b, unseen, draws_a, trait_a, draws_b, trait_b
    )
    assert opposed_odds_seen(unseen, me, [rival]) == expected


def test_fr_opp_odds_seen_several_rivals_of_one_trait_are_one_side():
    """FR-OPP-2..4 with three participants: my win needs my card above both rivals' (brute force)."""
    unseen = ["AH", "KH", "2S", "3D", "4C"]
    pile = Source(hidden=5, zone="pile")
    rivals = [Party(pile, 1, "musculo"), Party(pile, 1, "musculo")]
    got = opposed_odds_seen(unseen, Party(pile, 1, "musculo"), rivals)
    total, count = Counter(), 0
    for a in range(5):
        for b in range(5):
            for c in range(5):
                if len({a, b, c}) == 3:
                    count += 1
                    rival_best = max(_best([unseen[b]], "musculo"), _best([unseen[c]], "musculo"))
                    total[_score(_best([unseen[a]], "musculo"), rival_best)] += 1
    assert got == {r: Fraction(total[r], count) for r in (WIN, TIE, LOSS)}
    mixed = [Party(pile, 1, "musculo"), Party(pile, 1, "cabeza")]
    assert opposed_odds_seen(unseen, Party(pile, 1, "musculo"), mixed) is None
