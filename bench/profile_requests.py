"""Where the time of a session request goes (a profile, not a test).

    .venv/bin/python bench/profile_requests.py [--players 12] [--repeat 30] [--top 25] [--database-url URL]
        [--redis-url URL]

In-process on a fresh SQLite file (WAL, as the server runs it), or on a PostgreSQL database of your
own with ``--database-url`` (the bench drops and creates it), DEBUG off, through Django's whole
middleware stack (the test client): a Mayor and ``--players`` players with one protagonist each.
Each request kind is run ``--repeat`` times under :mod:`cProfile`: calling a check, drawing,
choosing, the dashboard page, the phone page, the phone's ``#checks`` fragment, what a phone, a
second phone and the Mayor's page ask after a check's push (``?regions=checks,feed``), and in a fight
declaring, drawing and locking in. Prints the mean wall time per request and the functions with
the largest cumulative share, so a change can be aimed at the cause. ``PROFILE_CPU=1`` profiles
with the thread's CPU clock instead of the wall clock; ``PROFILE_SORT`` orders the functions
(``cumulative`` by default, ``tottime``...). Every request runs under ``CaptureQueriesContext``
(its count of queries): on PostgreSQL that adds Django's composing of each statement's text
(``last_executed_query``) to the request's times, which a server does not do.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup(tmp: Path, database_url: str = "", redis_url: str = ""):
    """``redis_url``: set up as a deployment of several processes is (docs/deployment.md): the log-ins
    in the database alone, the live bus on Redis."""
    if database_url:
        from bench.session_bench import fresh_postgres

        fresh_postgres(database_url)
    os.environ.update({"DATABASE_URL": database_url, "REDIS_URL": redis_url, "SQLITE_PATH": str(tmp / "profile.sqlite3"),
                       "DJANGO_SETTINGS_MODULE": "frontera.settings", "DEBUG": "false"})
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--filter", default="", help="a regular expression on the frames printed")
    parser.add_argument("--only", default="", help="semicolon-separated request kinds to profile")
    parser.add_argument("--queries", action="store_true", help="print the SQL of each request kind's last sample")
    parser.add_argument("--database-url", default="", help="a PostgreSQL database of your own (dropped and created)")
    parser.add_argument("--redis-url", default="", help="set up as a deployment of several processes: the log-ins "
                        "in the database alone, the live bus on Redis")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup(Path(tmp), args.database_url, args.redis_url)
        run(args)


def run(args) -> None:
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from frontera.play.services.sessions import session_start
    from tests.factories import make_campaign, make_minion, make_protagonist, make_user

    users = [make_user(f"prof_p{i}") for i in range(args.players)]
    mayor_user = make_user("prof_mayor")
    campaign = make_campaign(mayor_user, players=users)
    heroes = [make_protagonist(campaign, u, name=f"Hero {i}") for i, u in enumerate(users)]
    minions = [make_minion(campaign) for _ in range(2 * args.repeat + 3)]
    session = session_start(campaign=campaign, by=mayor_user, characters=heroes)
    page = session.get_absolute_url()
    mayor, phone = Client(), Client()
    mayor.force_login(mayor_user)
    phone.force_login(users[0])
    phone2 = Client()
    phone2.force_login(users[1])
    htmx = {"HTTP_HX_REQUEST": "true"}
    samples: dict[str, list[float]] = {}
    cpu_samples: dict[str, list[float]] = {}
    profiles: dict[str, cProfile.Profile] = {}
    only = set(filter(None, args.only.split(";")))  # kinds hold commas ("phone push: checks,feed")
    queries: dict[str, list[str]] = {}

    def timed(name, fn):
        profile = profiles.setdefault(name, cProfile.Profile(time.thread_time) if os.environ.get("PROFILE_CPU") else cProfile.Profile())
        profiled = not only or name in only
        start, cpu = time.perf_counter(), time.thread_time()
        reset_queries()  # the log keeps 9000 queries: past that, CaptureQueriesContext's slice is empty
        if profiled:
            profile.enable()
        with CaptureQueriesContext(connection) as captured:
            response = fn()
        profile.disable()
        queries[name] = [q["sql"] for q in captured.captured_queries]
        samples.setdefault(name, []).append(time.perf_counter() - start)
        if not profiled:  # CPU time of this thread: the request's own work, whatever else the machine runs
            cpu_samples.setdefault(name, []).append(time.thread_time() - cpu)
        assert response.status_code == 200, (name, response.status_code)
        return response

    # warm up every code path once (imports, template parsing, translations)
    for n in range(args.repeat + 1):
        r = timed("call a check", lambda n=n: mayor.post(f"{page}pruebas/", {
            "characters": [str(heroes[0].pk)], "trait": "manos", "modifier": 0, "request_key": f"prof-{n}"}, **htmx))
        r = timed("phone #checks fragment", lambda: phone.get(page, {"fragment": "checks"}, **htmx))
        timed("phone #feed fragment", lambda: phone.get(page, {"fragment": "feed"}, **htmx))
        # what each page asks after a check's push: its regions the push names, in one request
        timed("phone push: checks,feed", lambda: phone.get(page, {"regions": "checks,feed"}, **htmx))
        # a second phone after the first: the snapshot of this state and its feed are read already
        timed("2nd phone push: checks,feed", lambda: phone2.get(page, {"regions": "checks,feed"}, **htmx))
        timed("Mayor push: checks,feed", lambda: mayor.get(page, {"regions": "checks,feed"}, **htmx))
        participant = re.search(r"/participantes/(\d+)/robar/", r.content.decode()).group(1)
        r = timed("draw", lambda p=participant: phone.post(f"{page}participantes/{p}/robar/", **htmx))
        cards = re.findall(r'name="card" value="([^"]+)"', r.content.decode())
        timed("choose", lambda p=participant, c=cards: phone.post(f"{page}participantes/{p}/elegir/",
                                                                   {"card": c[0], "suit": "S"}, **htmx))
        timed("dashboard page", lambda: mayor.get(page))
        timed("phone page", lambda: phone.get(page))
        gang = minions[2 * n:2 * n + 2]
        r = timed("start a fight", lambda g=gang: mayor.post(f"{page}combate/", {
            "side_a": [str(heroes[0].pk), str(heroes[1].pk)], "side_b": [str(m.pk) for m in g]}, **htmx))
        combat = re.search(r"/combate/(\d+)/\d+/declarar/", r.content.decode()).group(1)
        fighters = [(mayor, gang[0].pk, heroes[0].pk, "apresar"), (mayor, gang[1].pk, heroes[1].pk, "apresar"),
                    (phone, heroes[0].pk, gang[0].pk, ""), (phone2, heroes[1].pk, gang[1].pk, "")]
        for n_fighter, (client, pk, target, special) in enumerate(fighters):
            timed("declare", lambda c=client, pk=pk, t=target, s=special: c.post(
                f"{page}combate/{combat}/{pk}/declarar/", {"technique": "pelea", "weapon": "", "target": str(t),
                                                            "band": "adyacente", "special": s}, **htmx))
            r = timed("combat draw", lambda c=client, pk=pk: c.post(f"{page}combate/{combat}/{pk}/robar/", **htmx))
            form = re.search(rf'<form[^>]*id="choose-{combat}-{pk}-\d+".*?</form>', r.content.decode(), re.DOTALL)
            picked = re.findall(r'name="cards" value="([^"]+)"', form.group(0)) if form else []
            if picked:  # the last fighter's lock-in reveals the turn (FR-CMB-1): timed on its own
                kind = "lock in + reveal" if n_fighter == len(fighters) - 1 else "lock in"
                timed(kind, lambda c=client, pk=pk, p=picked: c.post(
                    f"{page}combate/{combat}/{pk}/elegir/", {"cards": p[:1], "suit": "S"}, **htmx))
        timed("end a fight", lambda: mayor.post(f"{page}combate/{combat}/terminar/", **htmx))
        if n == 0:  # the first round warmed the caches up: start counting now
            samples.clear()
            cpu_samples.clear()
            profiles.clear()
    backend = ("PostgreSQL" if args.database_url else "SQLite") + (", log-ins in the database (REDIS_URL)" if args.redis_url else "")
    print(f"{args.players} protagonists, {args.repeat} samples each (in-process, {backend}, DEBUG off; "
          "CPU = this thread's CPU time, for requests not under the profiler):")
    for name, values in samples.items():
        values = sorted(values)
        cpu = sorted(cpu_samples.get(name, []))
        cpu_text = f"  CPU p50 {1000 * cpu[len(cpu) // 2]:6.1f} ms" if cpu else ""
        mean, p50 = 1000 * sum(values) / len(values), 1000 * values[len(values) // 2]
        print(f"  {name:<24} mean {mean:6.1f} ms  p50 {p50:6.1f} ms{cpu_text}  {len(queries[name])} queries")
    if args.queries:
        for name, sqls in queries.items():
            print(f"\n===== {name}: {len(sqls)} queries =====")
            print("\n".join(sql[:220] for sql in sqls))
    for name, profile in profiles.items():
        if only and name not in only:
            continue
        out = io.StringIO()
        if os.environ.get("PROFILE_DUMP"):  # for pstats / snakeviz: <dir>/<kind>.prof
            profile.dump_stats(os.path.join(os.environ["PROFILE_DUMP"], name.replace(" ", "_").replace("#", "") + ".prof"))
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(args.filter or ".", args.top)
        print(f"\n===== {name} =====")
        print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:6000])


if __name__ == "__main__":
    main()
