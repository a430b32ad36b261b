"""The pages door against a2wsgi's, in one run (not a test).

    .venv/bin/python bench/pages_door_bench.py [--requests 1500] [--rounds 2]

Serves the project on a fresh SQLite file twice over, one uvicorn process at a time, alternated
``--rounds`` times: through its own pages door (``frontera/pages_door.py``: the request's body read
on the event loop, the answer handed back whole) and through a2wsgi's ``WSGIMiddleware``, the door
before it (``bench/a2wsgi_door.py``). One client on one kept-alive connection (``http.client``) asks
``--requests`` times for the login page (a GET) and posts a language choice (a small form, answered
with a redirect); prints p50 and p95 of each, in ms.
"""

from __future__ import annotations

import argparse
import http.client
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import AppServer  # noqa: E402 (after the project's root is on the path)

DOORS = {"a2wsgi (before)": "bench.a2wsgi_door:application", "pages door": "frontera.asgi:application"}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(url_port: int, requests: int) -> dict[str, list[float]]:
    conn = http.client.HTTPConnection("127.0.0.1", url_port)

    def get():
        conn.request("GET", "/cuentas/entrar/")
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 200, answer.status
        return answer

    cookie = next(v for k, v in get().getheaders() if k.lower() == "set-cookie").split(";")[0]
    body = f"language=es&next=/&csrfmiddlewaretoken={cookie.split('=', 1)[1]}"

    def post():
        conn.request("POST", "/i18n/setlang/", body=body, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
            "Referer": f"http://127.0.0.1:{url_port}/"})
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 302, answer.status

    times: dict[str, list[float]] = {}
    for name, ask in (("GET the login page", get), ("POST a language", post)):
        for _ in range(50):  # warm up
            ask()
        samples = times.setdefault(name, [])
        for _ in range(requests):
            start = time.perf_counter()
            ask()
            samples.append(time.perf_counter() - start)
    conn.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(f"One client, one connection, {args.requests} requests each, p50 / p95 in ms:")
    with tempfile.TemporaryDirectory() as tmp:
        env = {"DATABASE_URL": "", "REDIS_URL": "", "SQLITE_PATH": f"{tmp}/bench.sqlite3", "DEBUG": "false"}
        AppServer(env, Path(tmp) / "migrate.log").manage("migrate", "--no-input")
        for round_ in range(1, args.rounds + 1):
            for door, app in DOORS.items():
                server = AppServer(env, Path(tmp) / "server.log", app=app).start()
                try:
                    times = measure(server.port, args.requests)
                finally:
                    server.stop()
                figures = "  ".join(f"{name} {pct(v, .5) * 1000:6.3f} / {pct(v, .95) * 1000:6.3f}"
                                    for name, v in times.items())
                print(f"  round {round_}, {door:<16} {figures}")


if __name__ == "__main__":
    main()
