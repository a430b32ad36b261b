"""Every figure of issue #11 in one run, with the boardgame.io peer beside ours (not a test).

    .venv/bin/python bench/live_loop.py [--checks 100] [--players 12] [--rounds 10] [--browser-checks 50]
        [--database-url postgres://postgres@127.0.0.1:5432/<yours>] [--no-browser] [--page-checks 40]
        [--redis-url redis://127.0.0.1:6379/<n>]

One after the other, in this process:
1. SQL queries per page at 2, 6 and 12 protagonists (``bench/session_bench.py`` part 1);
2. the scripted session over HTTP on SQLite at ``--players`` protagonists: calling a check, draw,
   choose, declare, lock in, the two pages, and the push to every client (a notice: the clients are
   not pages and fetch nothing, so the server's times are its own); then ``--page-checks`` calls
   with each client's stream opened as the session pages open it: the push until each player holds
   their regions, rendered for them (from session 22 the pages are sent them with the push, and
   each rendering is the server's work of a page's refetch before); then the peer's push with
   the same number of clients (the Mayor's and the players'), so the ratio compares like with like;
   with ``--redis-url``, one more session whose pushes go through Redis (the live bus of a
   deployment of several processes; docs/deployment.md), for notices, and ``--page-checks`` calls
   with the pages' streams on that set-up (the log-ins in the database; since session 29), before
   the peer's run;
3. the same session on PostgreSQL when ``--database-url`` is given (a database of your own: the
   bench drops and creates it), and its own peer run;
4. real browsers (``bench/browser_bench.py``): the Mayor's click → all 6 phones showing the check,
   unless ``--no-browser`` or Chromium is missing;
5. issue #11's targets against these figures (printed, never asserted).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import browser_bench, session_bench  # noqa: E402 (after the project's root is on the path)

ACTIONS = ("call check (Mayor)", "draw (phone)", "choose (phone)", "declare", "lock in")
PAGES = ("dashboard page", "phone page")
PUSH = "push: Mayor call → all clients"
PAGE_PUSH = "push to the session pages"
REDIS_PUSH = "push through Redis"
REDIS_PAGE_PUSH = "push to the session pages through Redis"


def session(tmp: Path, args, database_url: str) -> tuple[dict, dict | None]:
    """One scripted session (every client's stream for notices), one with the streams opened as the
    session pages open them (``--page-checks`` calls, no fight: the push to the pages), and the
    peer's run right after them: (our figures, the peer's)."""
    session_bench.RESULTS.clear()
    (tmp / "notice").mkdir()
    (tmp / "page").mkdir()
    session_bench.session_over_http(tmp / "notice", args.checks, args.players, args.rounds, database_url,
                                    streams="notice")
    figures = dict(session_bench.RESULTS)
    if args.page_checks:
        session_bench.RESULTS.clear()
        session_bench.session_over_http(tmp / "page", args.page_checks, args.players, 0, database_url, streams="page")
        figures[PAGE_PUSH] = session_bench.RESULTS.get(PUSH) or []
    if args.redis_url:
        session_bench.RESULTS.clear()
        (tmp / "redis").mkdir()
        session_bench.session_over_http(tmp / "redis", args.checks, args.players, 0, database_url,
                                        streams="notice", redis_url=args.redis_url)
        figures[REDIS_PUSH] = session_bench.RESULTS.get(PUSH) or []
        if args.page_checks:  # the pages' push of a deployment of several processes (log-ins in the database)
            session_bench.RESULTS.clear()
            (tmp / "redis-page").mkdir()
            session_bench.session_over_http(tmp / "redis-page", args.page_checks, args.players, 0, database_url,
                                            streams="page", redis_url=args.redis_url)
            figures[REDIS_PAGE_PUSH] = session_bench.RESULTS.get(PUSH) or []
    peer = session_bench.peer_push(args.checks, clients=args.players + 1)
    return figures, peer


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def summary(runs: dict, browser: list[float] | None) -> None:
    pct = session_bench.pct
    print("\nIssue #11's targets in this run:")
    for backend, (figures, peer) in runs.items():
        budget = 20 if backend == "PostgreSQL" else 15
        for name in ACTIONS:
            values = figures.get(name) or []
            if values:
                p95 = pct(values, .95) * 1000
                print(f"  {backend:<10} {name:<22} p95 {p95:6.1f} ms ≤ {budget} ms: {verdict(p95 <= budget)}")
        for name in PAGES:
            values = figures.get(name) or []
            if values:
                p50 = pct(values, .5) * 1000
                print(f"  {backend:<10} {name:<22} p50 {p50:6.1f} ms ≤ 30 ms: {verdict(p50 <= 30)}")
        for name, label in ((PUSH, "push p95, ours / peer"), (PAGE_PUSH, "push to pages p95 / peer"),
                            (REDIS_PUSH, "push via Redis / peer"), (REDIS_PAGE_PUSH, "pages via Redis / peer")):
            ours = figures.get(name) or []
            if ours and peer:
                p95 = pct(ours, .95) * 1000
                ratio = p95 / peer["p95_ms"]
                print(f"  {backend:<10} {label:<22} {p95:.1f} / {peer['p95_ms']:.1f} ms "
                      f"({peer['clients']} clients each) = {ratio:.2f} ≤ 2: {verdict(ratio <= 2)}")
    if browser:
        p95 = pct(browser, .95) * 1000
        print(f"  {'browsers':<10} {'click → 6 phones':<22} p95 {p95:6.1f} ms ≤ 150 ms: {verdict(p95 <= 150)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checks", type=int, default=100)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--browser-checks", type=int, default=50)
    parser.add_argument("--database-url", default="", help="PostgreSQL for a second session (dropped and created)")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--page-checks", type=int, default=40,
                        help="calls of the second session, whose clients open their streams as the session pages "
                             "do (0: none)")
    parser.add_argument("--redis-url", default="",
                        help="redis://... : a third session on each database, its streams' pushes through Redis "
                             "(as several server processes run them), for notices")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
    args = parser.parse_args()
    os.environ.pop("DATABASE_URL", None)  # part 1 and the SQLite session run on the embedded default
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        session_bench.queries_per_page(tmp)
        for backend, url in (("SQLite", ""), ("PostgreSQL", args.database_url)):
            if backend == "SQLite" or url:
                (tmp / backend).mkdir()
                runs[backend] = session(tmp / backend, args, url)
    browser = None
    if not args.no_browser and Path(args.chromium).exists():
        phases: dict[str, list[float]] = {}
        browser = browser_bench.run(args.browser_checks, 6, args.chromium, phases)
        print(f"Real browsers (headless Chromium): the Mayor's click → all 6 phone pages showing the check, "
              f"{len(browser)} checks: p50={session_bench.pct(browser, .5) * 1000:.1f} ms  "
              f"p95={session_bench.pct(browser, .95) * 1000:.1f} ms")
    elif not args.no_browser:
        print(f"Real browsers: not run ({args.chromium} is missing).")
    summary(runs, browser)


if __name__ == "__main__":
    main()
