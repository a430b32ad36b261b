"""A scripted live session against a real server, with figures (not a test).

    .venv/bin/python bench/session_bench.py [--checks 200] [--players 6] [--rounds 20] [--no-peer]
        [--streams notice|page|refetch] [--redis-url redis://127.0.0.1:6379/<n>]

1. SQL queries per page, in-process (Django test client + CaptureQueriesContext on a fresh SQLite
   file): the Mayor's dashboard and a phone page with 2, 6 and 12 protagonists. The dashboard's count
   must not grow with the number of characters.
2. A uvicorn server (one ASGI process, SQLite, in-process live bus; through Redis, as several
   processes run it, with ``--redis-url``) and a Mayor + N players over HTTP:
   the Mayor calls ``--checks`` trait checks, each on one player's protagonist, and that player's
   client draws and chooses. Prints p50/p95 of the wall time of each action (local loopback, so it
   is the server's time plus a few hundred µs), and the push latency: from the moment the Mayor's
   request is sent to the moment every subscribed SSE client (Mayor + players) has received its
   first event after that moment (the bench runs one action at a time, so that event is the
   action's): a ``changed`` notice (the clients are not pages and fetch nothing, so the actions'
   times are the server's own). With ``--streams page`` they open their streams as the session
   pages do (``?page=1``): the Mayor, whose call it is, is sent a notice, and each player the
   regions of their page that the call changed, rendered for them (held once the whole HTML has
   come); those renderings then share the server with the bench's actions, as a page's refetches
   did. With ``--streams refetch`` each client does what a session page did before session 22: on
   each notice it asks for the regions named (``?regions=a,b``), and holds the push once that
   answer has come. The clients' streams are read
   by one event loop in a process of their own (``bench/sse_clients.py``), as the peer's clients
   share one node event loop.

3. ``--rounds`` combat rounds over HTTP (default 20): each round is a fight of two protagonists
   (rotating through the players) against two fresh minions; the Mayor declares and draws for the
   minions (Pelea with Apresar: no damage, so the heroes stay fit), each player declares, draws and
   locks in on their phone, the last lock-in reveals, the Mayor ends the fight. p50/p95 per action.
4. The boardgame.io peer (``bench/peer/peer_bench.js``, boardgame.io 0.50.2 with 7 socket.io clients
   on loopback), run right after ours, and the ratio of our push's p95 to the peer's (target ≤ 2).
   It needs node and npm; ``npm ci`` installs it into ``bench/peer/node_modules`` the first time.

With ``DATABASE_URL=postgres://...`` in the environment, the server of part 2-3 runs on that
PostgreSQL database, which the bench drops and creates afresh (use a database of your own); part 1
stays on SQLite. Ends with the targets of issue #11 and whether this run met them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PASSWORD = "una-clave-larga-7"


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


RESULTS: dict[str, list[float]] = {}  # every figure printed, for the summary at the end
# the last session's pushes: when each Mayor call was sent, and every client's arrivals (for bench/push_trace.py)
PUSHES: dict[str, list] = {}


def server_cpu(server) -> float:
    """The CPU seconds (user and system, every thread) the server's process has used so far."""
    fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(name, values, unit="ms", scale=1000):
    RESULTS[name] = list(values)
    if not values:
        print(f"  {name:<28} (none)")
        return
    print(f"  {name:<28} n={len(values):<4} p50={pct(values, .5) * scale:7.1f} {unit}  "
          f"p95={pct(values, .95) * scale:7.1f} {unit}  max={max(values) * scale:7.1f} {unit}")


# --- 1. queries per page -----------------------------------------------------------------------


def queries_per_page(tmp: Path) -> None:
    os.environ.update({"DATABASE_URL": "", "REDIS_URL": "", "SQLITE_PATH": str(tmp / "queries.sqlite3"),
                       "DJANGO_SETTINGS_MODULE": "frontera.settings"})
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from frontera.play.services.checks import check_draw, check_request
    from frontera.play.services.sessions import session_start
    from tests.factories import make_campaign, make_minion, make_protagonist, make_user

    print("SQL queries per page (in-process):")
    for n in (2, 6, 12):
        users = [make_user() for _ in range(n)]
        campaign = make_campaign(players=users)
        heroes = [make_protagonist(campaign, u) for u in users]
        minions = [make_minion(campaign) for _ in range(3)]
        session = session_start(campaign=campaign, by=campaign.mayor, characters=heroes)
        check = check_request(session=session, by=campaign.mayor, characters=heroes + minions, trait="manos")
        for part, user in zip(check.participants.order_by("pk"), users, strict=False):
            check_draw(participant=part, by=user)
        client = Client()
        counts = {}
        for who, label in ((campaign.mayor, "dashboard"), (users[0], "phone")):
            client.force_login(who)
            client.get(session.get_absolute_url())  # warm the role cache paths
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(session.get_absolute_url()).status_code == 200
            counts[label] = len(ctx.captured_queries)
            with CaptureQueriesContext(connection) as ctx:
                client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true")
            counts[label + " #checks"] = len(ctx.captured_queries)
        print(f"  {n:>2} protagonists + 3 minions: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


# --- 2. a session over HTTP --------------------------------------------------------------------

SETUP = """
from tests.factories import make_campaign, make_protagonist, make_user, make_minion
from frontera.play.services.sessions import session_start
mayor = make_user("bench_mayor")
users = [make_user(f"bench_p{{i}}") for i in range({players})]
campaign = make_campaign(mayor, name="Bench", players=users)
heroes = [make_protagonist(campaign, u, name=f"Hero {{i}}") for i, u in enumerate(users)]
[make_minion(campaign) for _ in range(3)]
session = session_start(campaign=campaign, by=mayor, characters=heroes)
print("IDS", session.pk, ",".join(str(h.pk) for h in heroes))
"""


class Browser:
    def __init__(self, base: str, username: str):
        import httpx

        self.http = httpx.Client(base_url=base, timeout=30, follow_redirects=False)
        self.http.get("/cuentas/entrar/")
        token = self.http.cookies["csrftoken"]
        r = self.http.post("/cuentas/entrar/", data={"username": username, "password": PASSWORD,
                                                      "csrfmiddlewaretoken": token})
        assert r.status_code == 302, r.text[:500]

    def post(self, url, data=None):
        data = dict(data or {})
        data["csrfmiddlewaretoken"] = self.http.cookies["csrftoken"]
        start = time.perf_counter()
        r = self.http.post(url, data=data, headers={"HX-Request": "true"})
        assert r.status_code == 200, (url, r.status_code, r.text[:300])
        return r, time.perf_counter() - start

    def get(self, url, **params):
        start = time.perf_counter()
        r = self.http.get(url, params=params)
        assert r.status_code == 200, (url, r.status_code)
        return r, time.perf_counter() - start


def fresh_postgres(url: str) -> None:
    """Drop and create the database named in ``url`` (the bench's own), so each run starts empty."""
    import psycopg
    from psycopg import sql

    info = psycopg.conninfo.conninfo_to_dict(url)
    name = info["dbname"]
    admin = psycopg.conninfo.make_conninfo(url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


MAYOR_REGIONS, PHONE_REGIONS = ("board", "checks", "combat", "feed"), ("checks", "combat", "feed", "me")
STREAMS = {"notice": "for notices only", "page": "as the pages open them: each player is sent their regions",
           "refetch": "for notices, each followed by the page's request for its regions, as before session 22"}


def session_over_http(tmp: Path, checks: int, players: int, rounds: int = 20, database_url: str = "",
                      app: str = "frontera.asgi:application", env_extra: dict | None = None,
                      streams: str = "notice", redis_url: str = "") -> None:
    from bench.sse_clients import SseClients
    from tests.servers import AppServer

    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url, "SQLITE_PATH": str(tmp / "bench.sqlite3"),
           "DEBUG": "false", "AXES_FAILURE_LIMIT": "1000", "LIVE_KEEPALIVE_SECONDS": "5", **(env_extra or {})}
    if database_url:
        fresh_postgres(database_url)
    server = AppServer(env, tmp / "server.log", app=app)
    server.manage("migrate", "--no-input")

    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(players=players)], cwd=ROOT,
                         env=server.env, check=True, capture_output=True, text=True).stdout
    session_id, hero_ids = re.search(r"IDS (\d+) ([\d,]+)", out).groups()
    hero_ids = [int(x) for x in hero_ids.split(",")]
    server.start()
    try:
        mayor = Browser(server.url, "bench_mayor")
        phones = [Browser(server.url, f"bench_p{i}") for i in range(players)]
        page = f"/sesiones/{session_id}/"
        # every client's stream, on one event loop in a process of its own (bench/sse_clients.py)
        query = "?page=1" if streams == "page" else ""  # as a session page opens it, or for notices
        regions = [MAYOR_REGIONS] + [PHONE_REGIONS] * players  # what each page fetches on a notice
        listeners = SseClients(server.url, [
            (f"/live/session:{session_id}/{query}", dict(b.http.cookies),
             *([(page, mine)] if streams == "refetch" else []))
            for b, mine in zip([mayor, *phones], regions, strict=True)])
        times = {"call check (Mayor)": [], "draw (phone)": [], "choose (phone)": [], "dashboard page": [],
                 "phone page": [], "phone #checks fragment": []}
        push = []
        draws = []  # (sent, the draw's version) of each phone's draw
        rng = random.Random(7)
        cpu_before = server_cpu(server)
        for n in range(checks):
            i = rng.randrange(players)
            trait = rng.choice(["manos", "sentidos", "musculo", "cabeza"])
            sent = time.perf_counter()
            r, t = mayor.post(f"{page}pruebas/", {"characters": [str(hero_ids[i])], "trait": trait, "modifier": 0,
                                                 "request_key": f"bench-{n}"})
            times["call check (Mayor)"].append(t)
            push.append((sent, listeners, n))
            r, t = phones[i].get(page, fragment="checks")
            times["phone #checks fragment"].append(t)
            participant = re.search(r"/participantes/(\d+)/robar/", r.text).group(1)
            drawn_at = time.perf_counter()
            r, t = phones[i].post(f"{page}participantes/{participant}/robar/")
            times["draw (phone)"].append(t)
            draws.append((drawn_at, int(r.headers["X-Live-Version"])))  # the state its answer shows: its push's
            cards = re.findall(r'name="card" value="([^"]+)"', r.text)
            data = {"card": cards[0], "suit": "S"} if cards else {}
            if cards:
                r, t = phones[i].post(f"{page}participantes/{participant}/elegir/", data)
                times["choose (phone)"].append(t)
            if n % 5 == 0:
                times["dashboard page"].append(mayor.get(page)[1])
                times["phone page"].append(phones[i].get(page)[1])
        time.sleep(1)
        cpu = server_cpu(server) - cpu_before
        listeners.close()
        PUSHES.update(sent=[sent for sent, _ls, _n in push], arrivals=[[t for t, _v in ev] for ev in listeners.events])
        # push latency: for each Mayor action, the first "changed" each client got after it was sent
        latencies = []
        for sent, ls, _n in push:
            worst = 0.0
            for events in ls.events:
                arrival = next((t for t, _v in events if t >= sent), None)
                if arrival is None:
                    worst = float("inf")
                    break
                worst = max(worst, arrival - sent)
            latencies.append(worst)
        backend = "PostgreSQL" if database_url else "SQLite"
        print(f"A scripted session over HTTP: Mayor + {players} players, {checks} trait checks "
              f"(one uvicorn process, {backend}, {'Redis' if redis_url else 'in-process'} bus; streams "
              f"{STREAMS[streams]}):")
        for name, values in times.items():
            report(name, values)
        report("push: Mayor call → all clients", [x for x in latencies if x != float("inf")])
        missing = sum(1 for x in latencies if x == float("inf"))
        print(f"  pushes never received: {missing}")
        # a phone's draw: until every client holds its version (the drawing phone's own stream
        # included), matched by version, since the call's push may still be on its way when it goes
        drawn = [max(next((t for t, v in events if v >= version), float("inf")) - sent for events in listeners.events)
                 for sent, version in draws]
        report("push: phone draw → all clients", [x for x in drawn if x != float("inf")])
        # the server process's CPU time (every thread's) per check: the call, the fetch, the draw,
        # the choice, the pages, and every push each of them made, written or rendered for every
        # stream. The machine's other load moves it less than the latencies, but it does move it (session
        # 24: 92.0-131.0 ms for the same code), and a saturated server renders less (pushes coalesce)
        print(f"  server CPU per check         {1000 * cpu / checks:7.1f} ms")
        combat_rounds(server, page, mayor, phones, hero_ids, rounds)
    finally:
        server.stop()


MINIONS = """
from frontera.campaigns.models import Campaign
from tests.factories import make_minion
campaign = Campaign.objects.get(name="Bench")
print("MINIONS", ",".join(str(make_minion(campaign).pk) for _ in range({count})))
"""


def _fighter_form(html: str, kind: str, combat: str, pk: int) -> str:
    match = re.search(rf'<form[^>]*id="{kind}-{combat}-{pk}-\d+".*?</form>', html, re.S)
    return match.group(0) if match else ""


def combat_rounds(server, page: str, mayor, phones, hero_ids, rounds: int) -> None:
    """FR-CMB-1 turns over HTTP: declare, draw, lock in (the last one reveals), end the fight."""

    if not rounds:
        return
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", MINIONS.format(count=2 * rounds)], cwd=ROOT,
                         env=server.env, check=True, capture_output=True, text=True).stdout
    minions = [int(x) for x in re.search(r"MINIONS ([\d,]+)", out).group(1).split(",")]
    times = {"start fight (Mayor)": [], "declare": [], "combat draw": [], "lock in": [], "end fight (Mayor)": [],
             "#combat fragment": []}
    revealed = 0
    for n in range(rounds):
        a, b = n % len(phones), (n + 1) % len(phones)
        heroes = [(phones[a], hero_ids[a]), (phones[b], hero_ids[b])]
        gang = minions[2 * n:2 * n + 2]
        r, t = mayor.post(f"{page}combate/", {"side_a": [str(h) for _, h in heroes], "side_b": [str(m) for m in gang]})
        times["start fight (Mayor)"].append(t)
        combat = re.search(r"/combate/(\d+)/\d+/declarar/", r.text).group(1)
        fighters = [(mayor, m, heroes[i][1], "apresar") for i, m in enumerate(gang)]
        fighters += [(phone, h, gang[i], "") for i, (phone, h) in enumerate(heroes)]
        for client, pk, target, special in fighters:
            r, t = client.post(f"{page}combate/{combat}/{pk}/declarar/",
                               {"technique": "pelea", "weapon": "", "target": str(target), "band": "adyacente",
                                "special": special})
            times["declare"].append(t)
            r, t = client.post(f"{page}combate/{combat}/{pk}/robar/")
            times["combat draw"].append(t)
            form = _fighter_form(r.text, "choose", combat, pk)
            cards = re.findall(r'name="cards" value="([^"]+)"', form)
            if cards:
                r, t = client.post(f"{page}combate/{combat}/{pk}/elegir/", {"cards": cards[:1], "suit": "S"})
                times["lock in"].append(t)
        r, t = mayor.get(page, fragment="combat")
        times["#combat fragment"].append(t)
        revealed += 'data-testid="combat-results"' in r.text
        r, t = mayor.post(f"{page}combate/{combat}/terminar/")
        times["end fight (Mayor)"].append(t)
    print(f"{rounds} combat rounds over HTTP (2 protagonists vs 2 minions each, {revealed} revealed):")
    for name, values in times.items():
        report(name, values)


PEER = ROOT / "bench" / "peer"


def peer_push(moves: int, clients: int = 7) -> dict | None:
    """The boardgame.io peer's push (bench/peer/peer_bench.js): move → all clients, in ms."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        print("The boardgame.io peer: not run (node and npm are needed).")
        return None
    if not (PEER / "node_modules" / "boardgame.io").exists():
        print("The boardgame.io peer: installing it with `npm ci` in bench/peer (first run)...")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=PEER, check=True, capture_output=True)
    out = subprocess.run([node, "peer_bench.js", "--moves", str(moves), "--clients", str(clients)], cwd=PEER,
                         check=True, capture_output=True, text=True, timeout=600).stdout
    result = json.loads(out.strip().splitlines()[-1])
    print(f"The boardgame.io peer ({result['peer']}, in-memory, {result['clients']} socket.io clients on loopback, "
          f"{result['moves']} moves):")
    print(f"  {'push: a move → all clients':<28} n={result['moves']:<4} p50={result['p50_ms']:7.1f} ms  "
          f"p95={result['p95_ms']:7.1f} ms  max={result['max_ms']:7.1f} ms")
    return result


def targets(peer: dict | None, database_url: str) -> None:
    """Issue #11's targets against this run's figures (printed, not asserted)."""
    budget = 20 if database_url else 15
    print(f"Issue #11 targets in this run ({'PostgreSQL' if database_url else 'SQLite'}):")
    for name in ("call check (Mayor)", "draw (phone)", "choose (phone)", "declare", "lock in"):
        values = RESULTS.get(name) or []
        if values:
            p95 = pct(values, .95) * 1000
            print(f"  {name:<28} p95 {p95:6.1f} ms ≤ {budget} ms: {'met' if p95 <= budget else 'NOT met'}")
    for name in ("dashboard page", "phone page"):
        values = RESULTS.get(name) or []
        if values:
            p50 = pct(values, .5) * 1000
            print(f"  {name:<28} p50 {p50:6.1f} ms ≤ 30 ms: {'met' if p50 <= 30 else 'NOT met'}")
    ours = RESULTS.get("push: Mayor call → all clients") or []
    if ours and peer:
        ratio = pct(ours, .95) * 1000 / peer["p95_ms"]
        print(f"  {'push p95, ours / peer':<28} {pct(ours, .95) * 1000:.1f} / {peer['p95_ms']:.1f} ms = {ratio:.2f} "
              f"≤ 2: {'met' if ratio <= 2 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checks", type=int, default=200)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--no-peer", action="store_true", help="do not run the boardgame.io peer")
    parser.add_argument("--streams", choices=["page", "notice", "refetch"], default="notice",
                        help="open the streams as the session pages do (the regions sent with each push), "
                             "for notices only, or for notices each followed by the page's request for its "
                             "regions (the session pages before session 22)")
    parser.add_argument("--redis-url", default="", help="redis://... for the live bus (as several processes "
                        "run it) instead of in-process")
    args = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL", "")  # read before part 1 sets up SQLite
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        queries_per_page(tmp)
        session_over_http(tmp, args.checks, args.players, args.rounds, database_url, streams=args.streams,
                          redis_url=args.redis_url)
        peer = None if args.no_peer else peer_push(args.checks)
        targets(peer, database_url)


if __name__ == "__main__":
    main()
