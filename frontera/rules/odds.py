"""Exact odds of checks and opposed checks, for the cards a check will really draw from (FR-ODDS-1).

Every figure is a :class:`fractions.Fraction` computed by hypergeometric counting over card
*categories* (never by enumerating hands): a hand of ``n`` cards from ``N`` avoids ``k`` given
cards in ``C(N − k, n)`` of its ``C(N, n)`` ways. Card counts are a multiset, so several physical
decks (duplicate codes) are fine. Jokers count with the suit their holder would declare: the
trait's suit, value 15 (FR-CARD-2).

>>> deck = [f"{rank}{suit}" for suit in "SHCD" for rank in ("2 3 4 5 6 7 8 9 10 J Q K A".split())]
>>> odds = check_odds(deck, 2, "manos")
>>> odds["success"], odds["success"] + odds["partial"]       # FR-ODDS-1: 44.1 % / 75.5 %
(Fraction(15, 34), Fraction(77, 102))
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from math import comb

from frontera.rules.cards import RANKS, SUITS, TRAIT_SUIT, Card, check_trait
from frontera.rules.checks import (
    FAILURE,
    LOSS,
    NO_STRENGTH,
    PARTIAL,
    SUCCESS,
    TIE,
    WIN,
    check_difficulty,
    check_whole_number,
    outcome_for,
    strength_for,
)
from frontera.rules.dead_mans_hand import (
    check_dead_mans_hand_count,
)
from frontera.rules.errors import RulesError, gettext_noop

E_NEGATIVE_DRAWS = gettext_noop("Cannot draw a negative number of cards (%(draws)s).")

ONE = Fraction(1)
ZERO = Fraction(0)

# One full 52-card deck without jokers (the book's table, FR-ODDS-1).
FULL_DECK: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)


@lru_cache(maxsize=512)
def _facts(code: str) -> tuple[str | None, int]:
    """(suit or None for a joker, value) of a card code or uid; raises on a bad one."""
    card = Card.from_uid(code) if ":" in code else Card.parse(code)
    return (None if card.is_joker else card.suit, card.value)


def _card_facts(cards: Iterable[Card | str]) -> list[tuple[str | None, int]]:
    """(suit, value) of every card; a joker's suit is None (its holder declares the best one)."""
    if isinstance(cards, (str, Card)):
        cards = [cards]
    facts = []
    for card in cards:
        if isinstance(card, Card):
            facts.append((None if card.is_joker else card.suit, card.value))
        elif isinstance(card, str):
            facts.append(_facts(card))
        else:
            Card.parse(card)  # raises the readable "not a card" error
    return facts


# --- trait checks ------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _check_fractions(total: int, good: int, fair: int, draws: int) -> tuple[Fraction, Fraction, Fraction]:
    """P(success), P(partial), P(failure) when ``good`` cards succeed and ``fair`` give a partial."""
    draws = min(draws, total)
    if draws <= 0:
        return (ZERO, ZERO, ONE)
    hands = comb(total, draws)
    without_good = comb(total - good, draws)
    without_either = comb(total - good - fair, draws)
    return (
        Fraction(hands - without_good, hands),
        Fraction(without_good - without_either, hands),
        Fraction(without_either, hands),
    )


def check_categories(
    cards: Iterable[Card | str], trait: str, difficulty: int | None = None
) -> tuple[int, int, int]:
    """(cards, cards that give a success, cards that give at best a partial) for a check (FR-CHK-3/4).

    >>> check_categories(["3C", "9D", "10S", "KS", "JK"], "sentidos", 8)
    (5, 1, 1)
    """
    right_suit = TRAIT_SUIT[check_trait(trait)]
    difficulty = check_difficulty(difficulty)
    facts = _card_facts(cards)
    outcomes = Counter(
        outcome_for(suit or right_suit, value, right_suit, difficulty) for suit, value in facts
    )
    return outcomes.total(), outcomes[SUCCESS], outcomes[PARTIAL]


def check_odds(
    cards: Iterable[Card | str],
    draws: int,
    trait: str,
    difficulty: int | None = None,
    *,
    achispado: bool = False,
) -> dict[str, Fraction]:
    """Exact odds of a trait check drawing ``draws`` cards from ``cards`` (FR-CHK-1..4, FR-ODDS-1).

    The player plays their best card: a success if any card of the trait's suit (at or above the
    difficulty) or a joker is drawn; else a partial if any right-suit card below the difficulty or,
    without a difficulty, any card of the right colour; else a failure. ``draws`` above the number
    of cards draws them all; ``draws`` of 0 or less is an automatic failure (FR-CHK-1 ruling).

    ``achispado=True`` gives the odds before the Achispado draw of FR-SOB-1: ``draws`` is the count
    without it, then half the time one card more (an Ace) and half the time one less (an 8).

    >>> check_odds(["3C", "9D", "10S", "KS"], 1, "sentidos", 8)["partial"]
    Fraction(1, 4)
    """
    draws = check_whole_number(draws)
    counts = check_categories(cards, trait, difficulty)
    if achispado:
        more, fewer = _check_fractions(*counts, draws + 1), _check_fractions(*counts, draws - 1)
        fractions = tuple((a + b) / 2 for a, b in zip(more, fewer, strict=True))
    else:
        fractions = _check_fractions(*counts, draws)
    return dict(zip((SUCCESS, PARTIAL, FAILURE), fractions, strict=True))


def at_least_one_odds(draws: int) -> tuple[Fraction, Fraction]:
    """FR-ODDS-1, the book's table: P(at least one card of a given suit), P(… of a given colour)
    when drawing ``draws`` cards from a full 52-card deck.

    >>> [float(round(p * 100, 1)) for p in at_least_one_odds(3)]
    [58.6, 88.2]
    """
    if check_whole_number(draws) < 0:
        raise RulesError(E_NEGATIVE_DRAWS, draws=draws)
    odds = check_odds(FULL_DECK, draws, "manos")
    return odds[SUCCESS], odds[SUCCESS] + odds[PARTIAL]


def dead_mans_hand_odds(count: int = 1) -> dict[str, Fraction]:
    """FR-CHK-6: chances of the better and worse outcome drawing 1 or 2 of A♠ A♥ 8♣ 8♦.

    >>> dead_mans_hand_odds(2)
    {'better': Fraction(5, 6), 'worse': Fraction(1, 6)}
    """
    count = check_dead_mans_hand_count(count)
    worse = Fraction(comb(2, count), comb(4, count))
    return {"better": 1 - worse, "worse": worse}


# --- opposed checks -------------------------------------------------------------------------------------


def strength_profile(cards: Iterable[Card | str], trait: str) -> tuple[tuple[tuple[int, int], int], ...]:
    """The cards as opposed-check strengths (FR-OPP-2..5), counted: ``((strength, count), ...)``.

    A joker is the trait's suit at value 15; every card of neither suit nor colour is one strength.
    """
    right_suit = TRAIT_SUIT[check_trait(trait)]
    facts = _card_facts(cards)
    counts = Counter(strength_for(suit or right_suit, value, right_suit) for suit, value in facts)
    return tuple(sorted(counts.items()))


@lru_cache(maxsize=4096)
def _best_strength(profile: tuple, draws: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], int]:
    """Distribution of the strongest card of a hand: (strengths ascending, hand counts, all hands).

    P(best = s) = [C(N − above, n) − C(N − above − count(s), n)] / C(N, n), where ``above`` counts
    the cards stronger than s. No card at all counts as :data:`NO_STRENGTH`.
    """
    total = sum(count for _, count in profile)
    draws = min(draws, total)
    if draws <= 0:
        return (NO_STRENGTH,), (1,), 1
    strengths, hands = [], []
    above = 0
    for strength, count in reversed(profile):
        strengths.append(strength)
        hands.append(comb(total - above, draws) - comb(total - above - count, draws))
        above += count
    return tuple(reversed(strengths)), tuple(reversed(hands)), comb(total, draws)


@lru_cache(maxsize=4096)
def _versus(
    profile_a: tuple, draws_a: int, profile_b: tuple, draws_b: int
) -> tuple[Fraction, Fraction, Fraction]:
    """P(A stronger), P(equal), P(B stronger) for two independent hands."""
    strengths_a, hands_a, all_a = _best_strength(profile_a, draws_a)
    strengths_b, hands_b, all_b = _best_strength(profile_b, draws_b)
    below_b = [0]
    for count in hands_b:
        below_b.append(below_b[-1] + count)
    win = tie = 0
    for strength, count in zip(strengths_a, hands_a, strict=True):
        i = bisect_left(strengths_b, strength)
        win += count * below_b[i]
        if i < len(strengths_b) and strengths_b[i] == strength:
            tie += count * hands_b[i]
    pairs = all_a * all_b
    return Fraction(win, pairs), Fraction(tie, pairs), Fraction(pairs - win - tie, pairs)


def opposed_odds(
    cards_a: Iterable[Card | str],
    draws_a: int,
    trait_a: str,
    cards_b: Iterable[Card | str],
    draws_b: int,
    trait_b: str,
) -> dict[str, Fraction]:
    """Exact odds of a two-party opposed check for party A (FR-OPP-1..5): win, tie, loss.

    Each party draws from their own cards and plays their best card. The best card is the highest
    of the trait's suit (a joker declared to that suit first), else the highest of the trait's
    colour, else any card: whatever the rival plays, a right-suit card does at least as well as
    any right-colour card (it beats every colour card and every card of neither; against a
    right-suit card the colour card loses), a right-colour card does at least as well as a card of
    neither (which at best ties, FR-OPP-5), and within one class a higher value never does worse.
    So the best card dominates every other choice against every card the rival may play, and since
    choices are secret (FR-OPP-1) nobody can do better by guessing. Draws of 0 or less mean no card
    (FR-CHK-1 ruling): that party has neither suit nor colour. A tie includes FR-OPP-5's "nobody
    has suit or colour", which calls for another check.

    >>> opposed_odds(["8H"], 1, "musculo", ["7H", "AS"], 1, "musculo")
    {'win': Fraction(1, 1), 'tie': Fraction(0, 1), 'loss': Fraction(0, 1)}
    """
    profile_a, profile_b = strength_profile(cards_a, trait_a), strength_profile(cards_b, trait_b)
    win, tie, loss = _versus(profile_a, check_whole_number(draws_a), profile_b, check_whole_number(draws_b))
    return {WIN: win, TIE: tie, LOSS: loss}
