"""The event loop's share of a push: waking every stream of a session and writing its message (a
figure, not a test).

    .venv/bin/python bench/stream_fanout.py [--streams 13] [--pushes 200] [--profile]

In-process, no socket: ``--streams`` session streams (the Mayor's and the players', each logged in
as its own user) run through Django's ASGI handler (``frontera.asgi.streams``, as uvicorn runs them)
on an event loop of their own thread, each ASGI ``send`` stamping the time; the bench's thread
publishes ``--pushes`` notices on the in-process bus one at a time, as a request's thread does after
its commit (then settles: ``frontera.live.bus.settle``), and prints p50 / p95 from the publish to
the last stream's ``send`` of it. ``--profile`` prints where the loop's time went (cProfile, on the
loop's thread only). What ``bench/push_trace.py`` calls "the loop → the last stream's write",
without the server's other work beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.profile_requests import setup  # noqa: E402 (after the project's root is on the path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=13)
    parser.add_argument("--pushes", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup(Path(tmp))
        run(args)


def run(args) -> None:
    from django.conf import settings
    from django.test import Client

    from frontera.asgi import streams
    from frontera.live import bus
    from frontera.play.services.sessions import session_start
    from tests.factories import make_campaign, make_protagonist, make_user

    players = [make_user(f"fanout_p{i}") for i in range(args.streams - 1)]
    mayor = make_user("fanout_mayor")
    campaign = make_campaign(mayor, players=players)
    session = session_start(campaign=campaign, by=mayor, characters=[
        make_protagonist(campaign, user, name=f"Hero {i}") for i, user in enumerate(players)])
    cookies = []
    for user in [mayor, *players]:
        client = Client()
        client.force_login(user)
        cookies.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
    arrivals: list[list[float]] = [[] for _ in cookies]
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    profile = cProfile.Profile()

    async def stream(i: int, cookie: str) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": f"/live/session:{session.pk}/", "raw_path": b"", "query_string": b"",
                 "root_path": "", "client": ("127.0.0.1", 1), "server": ("testserver", 80),
                 "headers": [(b"host", b"testserver"),
                             (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]}
        asked = False

        async def receive():
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await stop.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.body" and b"event: changed" in message.get("body", b""):
                arrivals[i].append(time.perf_counter())

        await streams(scope, receive, send)

    async def serve() -> None:
        tasks = [asyncio.ensure_future(stream(i, cookie)) for i, cookie in enumerate(cookies)]
        await stop.wait()
        await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()))
    thread.start()
    while not bus.get_backend().has_local_subscribers(f"session:{session.pk}") or len(
            bus.get_backend()._subscribers[f"session:{session.pk}"]) < len(cookies):
        time.sleep(0.05)
    time.sleep(0.5)  # every stream past its opening lines
    warm = 10
    sent = []
    for n in range(args.pushes + warm):
        if n == warm and args.profile:
            loop.call_soon_threadsafe(profile.enable)
            time.sleep(0.01)
        sent.append(time.perf_counter())
        bus.publish(f"session:{session.pk}", 10_000 + n, ["checks", "feed"], mayor.pk)
        bus.settle(0.05)
        time.sleep(0.005)
    loop.call_soon_threadsafe(profile.disable)
    time.sleep(0.1)
    loop.call_soon_threadsafe(stop.set)
    thread.join(10)
    latencies = sorted(1000 * (max(next(t for t in times if t >= start) for times in arrivals) - start)
                       for start in sent[warm:])
    print(f"publish → the last of {len(cookies)} streams' send, {len(latencies)} pushes (in-process, no socket): "
          f"p50 {latencies[len(latencies) // 2]:.3f} ms, p95 {latencies[int(len(latencies) * .95)]:.3f} ms")
    if args.profile:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())


if __name__ == "__main__":
    main()
