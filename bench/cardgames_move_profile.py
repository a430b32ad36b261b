"""A bonus table's move and table region in-process: times, queries, a profile (not a test).

    .venv/bin/python bench/cardgames_move_profile.py [--moves 60] [--queries] [--profile]

In-process on a fresh SQLite file (WAL, as the server runs it), DEBUG off, through Django's whole
middleware stack (the test client, CSRF not enforced): a campaign's Boom table of 2 people seats
(seed 13) and a spectator. For each of ``--moves`` moves: the seats' table region
(``?fragment=table``, htmx) until one offers ``data-legal-action`` forms, the spectator's region,
then one of those forms (seeded) posted with htmx's header. Printed over the moves after the first
10, p50 and p95, wall and the request thread's CPU time (``time.thread_time``): the move POST up
to its publish (after its COMMIT: what the 8 clients of ``bench/cardgames_bench.py`` wait for),
the whole POST (with the mover's new region), a seat's and the spectator's region GET; and the
number of queries of each. ``--queries`` prints the SQL of one move's POST; ``--profile`` the
functions with the largest cumulative time over the POSTs.
"""

from __future__ import annotations

import argparse
import cProfile
import html
import os
import pstats
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FORM = re.compile(r"<form[^>]*data-legal-action[^>]*>(.*?)</form>", re.S)
INPUT = re.compile(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"')


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--queries", action="store_true", help="print the SQL of one move's POST")
    parser.add_argument("--profile", action="store_true", help="profile the POSTs (cProfile, cumulative)")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    os.environ.update({"DATABASE_URL": "", "REDIS_URL": "", "SQLITE_PATH": f"{tmp}/moves.sqlite3",
                       "DJANGO_SETTINGS_MODULE": "frontera.settings", "DEBUG": "false"})
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from cardgames.models import Table
    from cardgames.services import table_create, table_join
    from frontera.live import bus
    from tests.factories import make_campaign, make_user

    seated = [make_user(f"seat{i}") for i in range(2)]
    watcher = make_user("watcher")
    campaign = make_campaign(seated[0], name="Moves", players=[seated[1], watcher])
    table, token = table_create(game="boom", by=seated[0], seats=2, privacy=Table.Privacy.CAMPAIGN,
                                campaign=campaign, seed=13)
    table_join(table=table, by=seated[1], token=token)
    clients = []
    for user in [*seated, watcher]:
        client = Client()
        client.force_login(user)
        clients.append(client)
    published = {}
    publish = bus.publish

    def marked(topic, version, regions=None):
        published["at"] = (time.perf_counter(), time.thread_time())
        return publish(topic, version) if regions is None else publish(topic, version, regions)

    bus.publish = marked
    url, play = f"/mesas/mesa/{table.pk}/", f"/mesas/mesa/{table.pk}/jugar/"
    rows = {name: [] for name in ("to publish", "to publish CPU", "POST", "POST CPU", "seat GET", "seat GET CPU",
                                  "spectator GET CPU")}
    queries = {"POST": set(), "seat GET": set(), "spectator GET": set()}
    profile, rng = cProfile.Profile(), random.Random(1)

    def get(client, kind):
        wall, cpu = time.perf_counter(), time.thread_time()
        with CaptureQueriesContext(connection) as done:
            region = client.get(url, {"fragment": "table"}, HTTP_HX_REQUEST="true").content.decode()
        queries[kind].add(len(done))
        return region, time.perf_counter() - wall, time.thread_time() - cpu

    for move in range(args.moves):
        keep = move >= 10
        for client in clients[:2]:
            region, wall, cpu = get(client, "seat GET")
            if keep:
                rows["seat GET"].append(wall)
                rows["seat GET CPU"].append(cpu)
            forms = FORM.findall(region)
            if forms:
                break
        else:
            print(f"the game ended after {move} moves")
            break
        _region, _wall, cpu = get(clients[2], "spectator GET")
        if keep:
            rows["spectator GET CPU"].append(cpu)
        data = {k: html.unescape(v) for k, v in INPUT.findall(rng.choice(forms))}
        if args.profile and keep:
            profile.enable()
        wall, cpu = time.perf_counter(), time.thread_time()
        with CaptureQueriesContext(connection) as done:
            answer = client.post(play, data, HTTP_HX_REQUEST="true")
        end_wall, end_cpu = time.perf_counter(), time.thread_time()
        if args.profile and keep:
            profile.disable()
        assert answer.status_code == 200 and b'data-testid="error"' not in answer.content, answer.status_code
        queries["POST"].add(len(done))
        if args.queries and move == 20:
            print("The SQL of move 20's POST:")
            for query in done.captured_queries:
                print("  " + query["sql"][:140])
        if keep:
            at_wall, at_cpu = published.pop("at")
            rows["to publish"].append(at_wall - wall)
            rows["to publish CPU"].append(at_cpu - cpu)
            rows["POST"].append(end_wall - wall)
            rows["POST CPU"].append(end_cpu - cpu)
    print(f"Boom, 2 seats and a spectator, {args.moves} moves (the first 10 not counted), load {os.getloadavg()[0]:.2f}")
    for name, values in rows.items():
        print(f"  {name:<20} n={len(values):<4} p50={pct(values, .5):6.2f} ms  p95={pct(values, .95):6.2f} ms")
    print("  queries per request: " + ", ".join(f"{k} {sorted(v)}" for k, v in queries.items()))
    if args.profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
