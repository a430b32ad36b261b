"""Per-call times of the exact odds (FR-ODDS-1): a 60-card deck, 10 cards drawn.

    .venv/bin/python bench/odds_bench.py --calls 2000

"cold" clears every cache before each call (a deck never seen before); "warm" repeats the same
question (the web page re-rendered for the same deck). The decks are shuffled, with 6 cards of a
second physical deck among them, so that duplicate codes are counted. Budget: 2 ms per call, cold.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from frontera.rules import odds  # noqa: E402
from frontera.rules.cards import physical_deck  # noqa: E402

BUDGET_MS = 2.0


def sixty_cards(rng: random.Random, *, as_codes: bool) -> list:
    """52 cards + 2 jokers of deck 1 and 6 random cards of deck 2 (a multi-deck session's pile)."""
    cards = physical_deck(1, jokers=2) + rng.sample(physical_deck(2, jokers=2), 6)
    rng.shuffle(cards)
    return [card.code for card in cards] if as_codes else cards


def clear_caches() -> None:
    for cached in (odds._facts, odds._check_fractions, odds._best_strength, odds._versus,
                   odds._seen_check_fractions, odds._versus_split):
        cached.cache_clear()


def time_calls(name: str, call, calls: int, *, cold: bool) -> float:
    samples = []
    for _ in range(calls):
        if cold:
            clear_caches()
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    median, worst = statistics.median(samples), max(samples)
    p99 = statistics.quantiles(samples, n=100)[98]
    verdict = "ok" if median <= BUDGET_MS else "OVER BUDGET"
    label = "cold" if cold else "warm"
    print(f"{name:<50} {label}  median {median:7.4f} ms  p99 {p99:7.4f} ms  max {worst:7.4f} ms  {verdict}")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deck_codes, rival_codes = sixty_cards(rng, as_codes=True), sixty_cards(rng, as_codes=True)
    deck_cards, rival_cards = sixty_cards(rng, as_codes=False), sixty_cards(rng, as_codes=False)
    cases = [
        ("check_odds, 60 codes, 10 draws", lambda: odds.check_odds(deck_codes, 10, "sentidos")),
        ("check_odds, 60 Cards, 10 draws, difficulty 9", lambda: odds.check_odds(deck_cards, 10, "manos", 9)),
        (
            "check_odds achispado, 60 Cards, 10 draws",
            lambda: odds.check_odds(deck_cards, 10, "cabeza", achispado=True),
        ),
        (
            "opposed_odds, 60 vs 60 codes, 10 vs 8 draws",
            lambda: odds.opposed_odds(deck_codes, 10, "musculo", rival_codes, 8, "cabeza"),
        ),
        (
            "opposed_odds, 60 vs 60 Cards, 10 vs 10 draws",
            lambda: odds.opposed_odds(deck_cards, 10, "manos", rival_cards, 10, "manos"),
        ),
    ]
    # FR-ODDS-1 generalised: a viewer's unseen multiset (two decks' worth minus what they see)
    unseen = [card.code for card in physical_deck(1, jokers=2) + physical_deck(2, jokers=2)][:100]
    own_deck = tuple(deck_codes[:20])
    pile = odds.Source(hidden=60, zone="pile")
    cases += [
        (
            "check_odds_seen phase 1, 100 unseen, 10 draws",
            lambda: odds.check_odds_seen(pile, unseen, 10, "sentidos", 9),
        ),
        (
            "check_odds_seen deck 6 known + 6 hidden",
            lambda: odds.check_odds_seen(odds.Source(own_deck[:6], 6), unseen, 8, "manos"),
        ),
        (
            "opposed_odds_seen phase 1, 100 unseen, 10 vs 8",
            lambda: odds.opposed_odds_seen(
                unseen, odds.Party(pile, 10, "musculo"), [odds.Party(pile, 8, "cabeza")]),
        ),
        (
            "opposed_odds_seen phase 2, 20 known vs 30 hidden",
            lambda: odds.opposed_odds_seen(
                unseen, odds.Party(odds.Source(own_deck, 0, "me"), 10, "manos"),
                [odds.Party(odds.Source((), 30, "rival"), 10, "manos")]),
        ),
        (
            "opposed_odds_seen, 3 rivals, 100 unseen, 8 vs 3x6",
            lambda: odds.opposed_odds_seen(
                unseen, odds.Party(pile, 8, "manos"), [odds.Party(pile, 6, "sentidos")] * 3),
        ),
    ]
    print(f"{args.calls} calls each; budget {BUDGET_MS} ms per call")
    for name, call in cases:
        time_calls(name, call, args.calls, cold=True)
        time_calls(name, call, args.calls, cold=False)


if __name__ == "__main__":
    main()
