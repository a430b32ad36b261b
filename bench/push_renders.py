"""What a push's regions cost the server to render for each phone (a figure, not a test).

    .venv/bin/python bench/push_renders.py [--players 12] [--checks 25] [--regions checks,feed]
        [--profile] [--top 40] [--database-url URL] [--redis-url URL]

In-process on a fresh SQLite file (or a PostgreSQL database of your own, dropped and created), DEBUG
off: a Mayor and ``--players`` players with one protagonist each. For each of ``--checks`` checks
the Mayor calls one on the next player; then every phone's stream renders the regions
``--regions`` names, as the live stream does for a session page (``frontera.play.views.pushed.
pushed_pages``: what the pages share read once, then for each the viewer's log-in checked again,
their page's regions chosen, rendered; ``pushed_regions``, one page at a time, before session 26); then
the called player draws and plays, as in ``bench/session_bench.py``. ``SEAT`` in ``--regions`` is
the called player's seat: ``checks,feed,zones,me:SEAT`` is what a phase-1 draw names since session
24, ``checks,feed,me`` what it named before. Prints the p50 of the first phone's rendering (it
reads the state and renders the feed, once per state, for all) and of the others', and the p50 of
all the phones' renderings of one push, one after another; ``--profile`` adds their profile.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import re
import sys
import tempfile
import time
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.profile_requests import setup


def p50(values: list[float]) -> float:
    return 1000 * sorted(values)[len(values) // 2]


def run(args) -> None:
    from django.conf import settings
    from django.test import Client, RequestFactory

    from frontera.play.services.sessions import session_start
    from frontera.play.views import pushed
    from tests.factories import make_campaign, make_protagonist, make_user

    users = [make_user(f"bench_p{i}") for i in range(args.players)]
    mayor_user = make_user("bench_mayor")
    campaign = make_campaign(mayor_user, players=users)
    heroes = [make_protagonist(campaign, u, name=f"Hero {i}") for i, u in enumerate(users)]
    session = session_start(campaign=campaign, by=mayor_user, characters=heroes)
    page = session.get_absolute_url()
    htmx = {"HTTP_HX_REQUEST": "true"}
    store = import_module(settings.SESSION_ENGINE).SessionStore
    phones, streams = [], []
    for user in users:
        client = Client()
        client.force_login(user)
        phones.append(client)
        stream = RequestFactory().get(f"/live/session:{session.pk}/?page=1")  # what the stream keeps
        stream.session = store(client.cookies[settings.SESSION_COOKIE_NAME].value)
        stream.user, stream.LANGUAGE_CODE = user, settings.LANGUAGE_CODE
        streams.append(stream)
    mayor = Client()
    mayor.force_login(mayor_user)
    # since session 26 the pages of one push are rendered together (pushed_pages); before, one by one
    batched = hasattr(pushed, "pushed_pages")
    profile = cProfile.Profile()
    first, others, pushes = [], [], []
    for n in range(args.checks + 1):  # the first round warms up every path
        i = n % args.players
        mayor.post(f"{page}pruebas/", {"characters": [str(heroes[i].pk)], "trait": "manos", "modifier": 0,
                                        "request_key": f"bench-{n}"}, **htmx)
        regions = set(args.regions.replace("SEAT", f"c{heroes[i].pk}").split(","))
        if n and args.profile:
            profile.enable()
        started = time.perf_counter()
        if batched:  # what the pages share read once for all of them, then each page (in the first's time)
            pages = pushed.pushed_pages(session.pk, streams, tuple(sorted(regions)))
        for k, stream in enumerate(streams):
            began = started if batched and k == 0 else time.perf_counter()
            assert (pages[k]() if batched else pushed.pushed_regions(stream, session.pk, regions)) is not None
            if n:
                (first if k == 0 else others).append(time.perf_counter() - began)
        if n:
            pushes.append(time.perf_counter() - started)
        profile.disable()
        html = phones[i].get(page, {"fragment": "checks"}, **htmx).content.decode()
        participant = re.search(r"/participantes/(\d+)/robar/", html).group(1)
        html = phones[i].post(f"{page}participantes/{participant}/robar/", **htmx).content.decode()
        cards = re.findall(r'name="card" value="([^"]+)"', html)
        phones[i].post(f"{page}participantes/{participant}/elegir/", {"card": cards[0], "suit": "S"}, **htmx)
    print(f"The regions {args.regions} rendered for each of {args.players} phones after each of {args.checks} "
          f"calls (in-process, {'PostgreSQL' if args.database_url else 'SQLite'}"
          f"{', log-ins in the database (REDIS_URL)' if args.redis_url else ''}, one after another"
          f"{', under the profiler' if args.profile else ''}):")
    print(f"  the first phone p50 {p50(first):.2f} ms, each other phone p50 {p50(others):.2f} ms, "
          f"all {args.players} p50 {p50(pushes):.1f} ms")
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--checks", type=int, default=25)
    parser.add_argument("--regions", default="checks,feed", help="the regions a push names (SEAT: the called one's)")
    parser.add_argument("--profile", action="store_true", help="time the renderings under cProfile and print it")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--database-url", default="", help="a PostgreSQL database of your own (dropped and created)")
    parser.add_argument("--redis-url", default="", help="set up as a deployment of several processes: the log-ins "
                        "in the database alone, the live bus on this Redis")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup(Path(tmp), args.database_url, args.redis_url)
        run(args)


if __name__ == "__main__":
    main()
