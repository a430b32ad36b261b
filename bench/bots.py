"""Bot against bot, both seats swapped: win rates with 95 % Wilson intervals and moves per second.

    .venv/bin/python bench/bots.py pocobot --games 100
    .venv/bin/python bench/bots.py all --games 40 --pairs strong:random strong:greedy

A win counts 1, a draw 1/2. The strong bot sits in seat 0 in half the games and seat 1 in the
other half (for Boom with more seats, the other seats take the opponent bot).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardgames import engines  # noqa: E402
from cardgames.engines.bots import make_bot, play_game, seat_result  # noqa: E402


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_pair(name: str, hero: str, villain: str, games: int, seats: int, seed: int) -> None:
    engine = engines.get(name)
    score = 0.0
    wins = draws = 0
    plies = 0
    hero_seconds = 0.0
    hero_moves = 0
    start = time.perf_counter()
    for g in range(games):
        hero_seat = g % seats
        bots = [make_bot(engine, villain) for _ in range(seats)]
        hero_bot = make_bot(engine, hero)
        timed = _Timed(hero_bot)
        bots[hero_seat] = timed
        state, n = play_game(engine, bots, seed + g)
        plies += n
        hero_seconds += timed.seconds
        hero_moves += timed.moves
        result = seat_result(engine, state, hero_seat)
        result = 0.5 if result is None else result
        score += result
        wins += result == 1.0
        draws += result == 0.5
    elapsed = time.perf_counter() - start
    low, high = wilson(score, games)
    per_move = hero_seconds / hero_moves if hero_moves else 0.0
    print(
        f"{name:9} {hero:>6} vs {villain:<6} games={games:4d} wins={wins:4d} draws={draws:3d} "
        f"score={score / games:6.1%} 95%CI=[{low:6.1%}, {high:6.1%}] "
        f"plies/s={plies / elapsed:8.1f} {hero}-move avg={per_move * 1000:7.1f} ms"
    )


class _Timed:
    def __init__(self, bot):
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.moves = 0

    def choose(self, engine, view, seat, actions, rng):
        t = time.perf_counter()
        action = self.bot.choose(engine, view, seat, actions, rng)
        self.seconds += time.perf_counter() - t
        self.moves += 1
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=[*engines.ENGINE_NAMES, "all"])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", nargs="+", default=["strong:random", "strong:greedy", "random:random"])
    args = parser.parse_args()
    names = engines.ENGINE_NAMES if args.game == "all" else (args.game,)
    for name in names:
        for pair in args.pairs:
            hero, villain = pair.split(":")
            run_pair(name, hero, villain, args.games, args.seats, args.seed)


if __name__ == "__main__":
    main()
