"""Exact odds of checks and opposed checks (FR-ODDS-1): over given cards (:func:`check_odds`,
:func:`opposed_odds`), and over what one viewer knows (:func:`check_odds_seen`,
:func:`opposed_odds_seen`), which is what the pages show (issue #12).

RULING (FR-ODDS-1, FR-CHK-1..4, FR-OPP-1..5, FR-MODE-4/7): a percentage shown to somebody is a
probability over *their* information set, never over the real hidden order or contents. The viewer
sees some cards (their own deck in phase 2, their drawn cards, every discard, the dead man's
hand...); every other card of the session is "unseen" and, for the viewer, may be in any hidden
place: every hidden card of a zone is equally likely to be any unseen card (the unseen cards are
exchangeable). A draw comes from one zone (:class:`Source`): its cards the viewer sees (``known``)
and a number of hidden ones (``hidden``), which are a random part of the unseen multiset. So:

- phase 1 (FR-MODE-4): the pile is wholly hidden, a draw is a hand of the unseen multiset;
- phase 2 (FR-MODE-7) and Con desgaste: the own deck is wholly known, the draw is a hand of it;
- an opposed check (FR-OPP-1): the viewer and the rival draw *disjoint* hands. In phase 1 both draw
  from the one shared pile (without replacement, one pool); in phase 2 the rival draws from their
  own deck, which the viewer does not see: its cards are a random part of the viewer's unseen
  multiset (hidden slots of different zones are disjoint parts of it). A rival's hand the viewer
  does not see counts as unknown even once drawn; every side plays its strongest card
  (:func:`opposed_odds` explains why that choice dominates).

- several rivals of one trait whose cards the viewer does not see are one side (the best of their
  hands); any other check of three or more sides gets no figure (``None``) rather than a wrong one.

Swapping cards the viewer cannot see changes neither the unseen multiset nor any zone's size, so
no figure changes: the odds tell nothing the viewer could not know. Which cards a viewer sees is
the caller's to say (the web layer passes what its pages show, docs/sessions.md ruling 11).

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
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from frontera.rules.cards import RANKS, SUITS, TRAIT_SUIT, Card, check_trait
from frontera.rules.checks import (
    E_FEW_PARTICIPANTS,
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


# --- odds from what the viewer knows (FR-ODDS-1 generalised; the ruling is in the module docstring) ---


@dataclass(frozen=True, slots=True)
class Source:
    """Where a draw comes from, as one viewer knows it: the zone's cards the viewer sees and how
    many of its cards they do not. Two parties of an opposed check with the same non-empty ``zone``
    draw disjoint hands from that one zone."""

    known: tuple[str, ...] = ()
    hidden: int = 0
    zone: str = ""


@dataclass(frozen=True, slots=True)
class Party:
    """One side of an opposed check as the viewer sees it: where it draws, how many, which trait."""

    source: Source
    draws: int
    trait: str


E_HIDDEN_TOO_MANY = gettext_noop(
    "A draw cannot hide %(hidden)s cards when the viewer has only %(unseen)s cards unseen."
)


def _weights(known: int, hidden: int, draws: int) -> list[tuple[int, Fraction]]:
    """(j, P(j)): j of the ``draws`` cards come from the ``known`` ones, the rest from the hidden."""
    total = known + hidden
    draws = max(0, min(draws, total))
    if draws == 0:
        return [(0, ONE)]
    hands = comb(total, draws)
    return [
        (j, Fraction(comb(known, j) * comb(hidden, draws - j), hands))
        for j in range(max(0, draws - hidden), min(known, draws) + 1)
    ]


def _check_source(source: Source, unseen_count: int) -> Source:
    if not isinstance(source, Source):
        raise TypeError("source must be a Source")
    hidden = check_whole_number(source.hidden)
    if hidden < 0 or hidden > unseen_count:
        raise RulesError(E_HIDDEN_TOO_MANY, hidden=hidden, unseen=unseen_count)
    return source


@lru_cache(maxsize=4096)
def _seen_check_fractions(
    known: tuple[int, int, int], hidden: int, unseen: tuple[int, int, int], draws: int
) -> tuple[Fraction, Fraction, Fraction]:
    """P(success), P(partial), P(failure) drawing ``draws`` from ``known`` cards + ``hidden`` slots
    filled from the ``unseen`` ones (each a (cards, successes, partials) count)."""
    k, k_good, k_fair = known
    u, u_good, u_fair = unseen
    no_good = no_either = ZERO
    for j, weight in _weights(k, hidden, draws):
        m = min(max(0, min(draws, k + hidden)) - j, u)
        k_hands, u_hands = comb(k, j), comb(u, m)
        no_good += weight * Fraction(comb(k - k_good, j) * comb(u - u_good, m), k_hands * u_hands)
        no_either += weight * Fraction(
            comb(k - k_good - k_fair, j) * comb(u - u_good - u_fair, m), k_hands * u_hands
        )
    return (1 - no_good, no_good - no_either, no_either)


def check_odds_seen(
    source: Source,
    unseen: Iterable[Card | str],
    draws: int,
    trait: str,
    difficulty: int | None = None,
    *,
    achispado: bool = False,
) -> dict[str, Fraction]:
    """Exact odds of a trait check as the viewer knows it (FR-ODDS-1 generalised, FR-CHK-1..4).

    ``unseen`` is every card of the session the viewer does not see (a multiset); the draw takes
    ``draws`` cards from ``source``: its ``known`` cards and ``source.hidden`` cards that are a random
    part of ``unseen``. Otherwise as :func:`check_odds` (best card played, ``achispado``...).

    Drawing 4 from a hidden 4-card pile when 8 cards are unseen, 4 of them spades: never a certainty.

    >>> unseen = ["2S", "3S", "4S", "5S", "2H", "3H", "4H", "5H"]
    >>> check_odds_seen(Source(hidden=4), unseen, 4, "manos")["success"]
    Fraction(69, 70)
    >>> check_odds_seen(Source(known=("2S", "9H")), [], 1, "manos")["success"]   # a known deck
    Fraction(1, 2)
    """
    draws = check_whole_number(draws)
    unseen = list(unseen) if not isinstance(unseen, (list, tuple)) else unseen
    source = _check_source(source, len(unseen))
    known = check_categories(source.known, trait, difficulty)
    pool = check_categories(unseen, trait, difficulty)

    def fractions(n: int) -> tuple[Fraction, Fraction, Fraction]:
        return (ZERO, ZERO, ONE) if n <= 0 else _seen_check_fractions(known, source.hidden, pool, n)

    if achispado:
        more, fewer = fractions(draws + 1), fractions(draws - 1)
        result = tuple((a + b) / 2 for a, b in zip(more, fewer, strict=True))
    else:
        result = fractions(draws)
    return dict(zip((SUCCESS, PARTIAL, FAILURE), result, strict=True))


def _pair_ways(allowed_a: int, allowed_b: int, both: int, a: int, b: int) -> int:
    """Ways to draw disjoint hands of ``a`` and ``b`` cards from one zone so that A's cards all lie
    in a set of ``allowed_a`` cards and B's in one of ``allowed_b``, ``both`` cards lying in both."""
    if b == 0:
        return comb(allowed_a, a)
    if a == 0:
        return comb(allowed_b, b)
    only_a = allowed_a - both
    return sum(
        comb(both, i) * comb(only_a, a - i) * comb(allowed_b - i, b)
        for i in range(max(0, a - only_a), min(a, both) + 1)
    )


def _prefix(histogram: list[int]) -> list[int]:
    total, result = 0, []
    for count in histogram:
        total += count
        result.append(total)
    return result


@lru_cache(maxsize=4096)
def _versus_split(sources: tuple, levels: int) -> tuple[int, int, int]:
    """(win ways, tie ways, all ways) for A against B when A takes ``a`` and B takes ``b`` cards of
    each source ``(types, a, b)``, disjoint within a source, independent across sources; ``types``
    lists ``(A's strength level, B's strength level, count)`` with levels ``0 .. levels - 1``.

    With G(x, y) = P(A's best ≤ x and B's best ≤ y), the product over sources of
    :func:`_pair_ways`: P(A wins) = Σ_x G(x, x−1) − G(x−1, x−1); P(tie) = Σ_x G(x, x) − G(x−1, x)
    − G(x, x−1) + G(x−1, x−1). Level 0 is "no strength" (an empty hand's), so G(−1, ·) = 0.
    """
    tables = []
    denominator = 1
    for types, a, b in sources:
        h_a, h_b, h_same, h_a_lower, h_b_lower = ([0] * (levels + 1) for _ in range(5))
        n = 0
        for la, lb, count in types:
            n += count
            h_a[la] += count
            h_b[lb] += count
            h_same[max(la, lb)] += count
            h_a_lower[max(la + 1, lb)] += count  # A's card at most x−1, B's at most x
            h_b_lower[max(la, lb + 1)] += count
        tables.append((a, b, *(_prefix(h) for h in (h_a, h_b, h_same, h_a_lower, h_b_lower))))
        denominator *= comb(n, a) * comb(n - a, b)

    def g_same(x: int) -> int:
        if x < 0:
            return 0
        ways = 1
        for a, b, sa, sb, same, _, _ in tables:
            ways *= _pair_ways(sa[x], sb[x], same[x], a, b)
        return ways

    win = tie = 0
    previous = 0
    for x in range(levels):
        current = g_same(x)
        a_lower = b_lower = 0
        if x > 0:
            a_lower = b_lower = 1
            for a, b, sa, sb, _, al, bl in tables:
                a_lower *= _pair_ways(sa[x - 1], sb[x], al[x], a, b)
                b_lower *= _pair_ways(sa[x], sb[x - 1], bl[x], a, b)
        win += b_lower - previous
        tie += current - a_lower - b_lower + previous
        previous = current
    return win, tie, denominator


def _levels(unseen: list, parties: tuple[Party, Party]) -> tuple[dict, int]:
    """Every (A's strength, B's strength) of a card as levels: indices into the sorted strengths."""
    suits = [TRAIT_SUIT[check_trait(p.trait)] for p in parties]
    cards = {c for c in unseen} | {c for p in parties for c in p.source.known}
    facts = {code: _card_facts([code])[0] for code in cards}
    pairs = {
        code: tuple(strength_for(suit or right, value, right) for right in suits)
        for code, (suit, value) in facts.items()
    }
    strengths = sorted({NO_STRENGTH} | {s for pair in pairs.values() for s in pair})
    index = {s: i for i, s in enumerate(strengths)}
    return {code: (index[a], index[b]) for code, (a, b) in pairs.items()}, len(strengths)


def _types(cards: Iterable, levels: dict) -> tuple:
    counts = Counter(levels[c] for c in cards)
    return tuple(sorted((la, lb, n) for (la, lb), n in counts.items()))


def _two_party_odds(unseen: list, me: Party, rival: Party) -> dict[str, Fraction]:
    levels, count = _levels(unseen, (me, rival))
    pool = _types(unseen, levels)
    mine, theirs = me.source, rival.source
    draws_a = max(0, min(me.draws, len(mine.known) + mine.hidden))
    same = bool(mine.zone) and mine.zone == theirs.zone
    room_b = len(theirs.known) + theirs.hidden - (draws_a if same else 0)
    draws_b = max(0, min(rival.draws, room_b))
    known_a, known_b = _types(mine.known, levels), _types(theirs.known, levels)
    splits = []
    for ja, wa in _weights(len(mine.known), mine.hidden, draws_a):
        if same:  # the rival draws from what A left of the same zone
            left_known, left_hidden = len(mine.known) - ja, mine.hidden - (draws_a - ja)
            for jb, wb in _weights(left_known, left_hidden, draws_b):
                sources = ((known_a, ja, jb), (pool, draws_a - ja, draws_b - jb))
                splits.append((wa * wb, sources))
        else:
            for jb, wb in _weights(len(theirs.known), theirs.hidden, draws_b):
                sources = ((known_a, ja, 0), (known_b, 0, jb), (pool, draws_a - ja, draws_b - jb))
                splits.append((wa * wb, sources))
    win = tie = ZERO
    for weight, sources in splits:
        if sources[-1][1] + sources[-1][2] > len(unseen):  # more hidden cards drawn than exist
            raise RulesError(E_HIDDEN_TOO_MANY, hidden=sources[-1][1] + sources[-1][2], unseen=len(unseen))
        sources = tuple(s for s in sources if s[1] or s[2])
        w, t, d = _versus_split(sources, count)
        win += weight * Fraction(w, d)
        tie += weight * Fraction(t, d)
    return {WIN: win, TIE: tie, LOSS: 1 - win - tie}


def opposed_odds_seen(
    unseen: Iterable[Card | str], me: Party, rivals: Iterable[Party]
) -> dict[str, Fraction] | None:
    """The viewer's exact chance to win, tie and lose an opposed check (FR-ODDS-1 generalised,
    FR-OPP-1..5), over the cards the viewer does not see (``unseen``, a multiset).

    ``me`` is the viewer's side, ``rivals`` everyone else; each side plays its strongest card. A
    tie includes FR-OPP-5 (nobody with suit or colour). Several rivals are one side whose best card
    is the best of their hands when they all use one trait and draw only cards the viewer does not
    see; any other check of three or more returns ``None`` (no figure shown rather than a wrong one).

    Phase 1, both drawing 1 from the shared pile, 4 cards unseen with one ♥ among them: whoever gets
    the ♥ wins; otherwise nobody has suit or colour of Músculo, Tablas (FR-OPP-5).

    >>> opposed_odds_seen(["AH", "2S", "3S", "4S"], Party(Source(hidden=4, zone="pile"), 1, "musculo"),
    ...                   [Party(Source(hidden=4, zone="pile"), 1, "musculo")])
    {'win': Fraction(1, 4), 'tie': Fraction(1, 2), 'loss': Fraction(1, 4)}
    """
    unseen = list(unseen)
    rivals = list(rivals)
    for party in (me, *rivals):
        if not isinstance(party, Party):
            raise TypeError("parties must be Party")
        check_whole_number(party.draws)
        _check_source(party.source, len(unseen))
    if not rivals:
        raise RulesError(E_FEW_PARTICIPANTS)
    if len(rivals) == 1:
        return _two_party_odds(unseen, me, rivals[0])
    drawing = [r for r in rivals if r.draws > 0 and (r.source.known or r.source.hidden)]
    if any(r.source.known for r in drawing) or len({r.trait for r in drawing}) > 1:
        return None
    hidden = sum(min(r.draws, r.source.hidden) for r in drawing)
    if hidden > len(unseen):
        return None
    merged = Party(Source(hidden=hidden, zone="rivals"), hidden, (drawing or rivals)[0].trait)
    return _two_party_odds(unseen, me, merged)
