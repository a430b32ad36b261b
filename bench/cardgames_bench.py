"""The bonus tables' figures (issue #13), not a test.

    .venv/bin/python bench/cardgames_bench.py [--moves 100] [--positions 40]

1. The strong bot's move time per game: the strong bot plays seeded games against the random bot
   (both seats in turn); each of its choices is timed (``choose`` on its seat's view and legal
   actions, as the Celery task runs it). Target: p95 ≤ 1 s on a quiet machine.
2. A table move → every client updated: one uvicorn process (SQLite, in-process live bus), a
   PoCoBOT table at a campaign between two people, 8 SSE clients on ``table:<id>`` (the two seats
   and 6 spectators of the campaign). Each move is posted by the seat to move (as htmx does); the
   figure is the time from sending it to the moment all 8 clients have received the ``changed``
   event carrying the move's version. (The boardgame.io peer's move → clients figure, for the
   issue's ≤ 2× target, comes from bench/peer/, built on another branch; it is not run here.)
"""

from __future__ import annotations

import argparse
import html
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.session_bench import Browser, Listener, report  # noqa: E402

SETUP = """
from cardgames import services
from tests.factories import make_campaign, make_user
people = [make_user(f"cg_p{{i}}", password="una-clave-larga-7") for i in range(8)]
campaign = make_campaign(players=people, name="Bench tables")
table, _ = services.table_create(game="pocobot", by=people[0], seats=2, privacy="campaign", campaign=campaign,
                                 seed={seed})
services.table_join(table=table, by=people[1])
print("TABLE", table.pk)
"""
FORM = re.compile(r'<form method="post" action="([^"]+)"[^>]*data-legal-action>(.*?)</form>', re.S)


def bot_times(positions: int) -> None:
    from cardgames import engines
    from cardgames.engines.bots import RandomBot, make_bot

    print(f"The strong bot's move time (choose on its view), {positions}+ positions per game:")
    for name in engines.ENGINE_NAMES:
        engine = engines.get(name)
        strong, weak = make_bot(engine, "strong"), RandomBot()
        times, seed = [], 0
        while len(times) < positions:
            state = engine.new_game(2, seed, None)
            rngs = [random.Random(f"{seed}:0"), random.Random(f"{seed}:1")]
            strong_seat = seed % 2
            for _ in range(400):
                movers = engine.to_move(state)
                if not movers:
                    break
                seat = movers[0]
                actions = engine.legal_actions(state, seat)
                bot = strong if seat == strong_seat else weak
                start = time.perf_counter()
                action = bot.choose(engine, engine.view(state, seat), seat, actions, rngs[seat])
                if seat == strong_seat:
                    times.append(time.perf_counter() - start)
                state = engine.apply(state, seat, action)
                if len(times) >= positions:
                    break
            seed += 1
        report(name, times)


def move_to_clients(tmp: Path, moves: int) -> None:
    from tests.servers import AppServer

    env = {"DATABASE_URL": "", "REDIS_URL": "", "SQLITE_PATH": str(tmp / "bench.sqlite3"), "DEBUG": "false",
           "AXES_FAILURE_LIMIT": "1000", "LIVE_KEEPALIVE_SECONDS": "5"}
    server = AppServer(env, tmp / "server.log")
    server.manage("migrate", "--no-input")
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(seed=7)], cwd=ROOT, env=server.env,
                         check=True, capture_output=True, text=True).stdout
    table_id = int(re.search(r"TABLE (\d+)", out).group(1))
    server.start()
    try:
        clients = [Browser(server.url, f"cg_p{i}") for i in range(8)]
        listeners = [Listener(c, f"table:{table_id}") for c in clients]
        for listener in listeners:
            listener.start()
        for listener in listeners:
            assert listener.ready.wait(10)
        page = f"/mesas/mesa/{table_id}/"
        rng = random.Random(3)
        sent_at, move_times, done = [], [], 0
        while done < moves:
            offered = None
            for seat in (0, 1):
                r, _ = clients[seat].get(page, fragment="table")
                found = FORM.findall(r.text)
                if found:
                    offered = (seat, found)
                    break
            if offered is None:
                break  # the game is over
            seat, found = offered
            action, body = rng.choice(found)
            fields = {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', body)}
            version = int(re.search(r'data-version="(\d+)"', r.text).group(1)) + 1
            start = time.perf_counter()
            _r, took = clients[seat].post(action, fields)
            sent_at.append((start, version))
            move_times.append(took)
            done += 1
        time.sleep(1)
        for listener in listeners:
            listener.stop = True
        latencies, missing = [], 0
        for start, version in sent_at:
            worst = 0.0
            for listener in listeners:
                arrival = next((t for t, v in listener.events if v >= version and t >= start), None)
                if arrival is None:
                    worst = None
                    break
                worst = max(worst, arrival - start)
            if worst is None:
                missing += 1
            else:
                latencies.append(worst)
        print(f"A PoCoBOT table over HTTP, 2 seats + 6 spectators on SSE, {done} moves "
              "(one uvicorn process, SQLite, in-process bus):")
        report("move (htmx POST)", move_times)
        report("move → all 8 clients", latencies)
        print(f"  moves whose push some client never received: {missing}")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontera.settings")
    import django

    django.setup()
    bot_times(args.positions)
    with tempfile.TemporaryDirectory() as tmp:
        move_to_clients(Path(tmp), args.moves)


if __name__ == "__main__":
    main()
