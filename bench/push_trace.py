"""Where a Mayor's call and its push spend their time, step by step (a figure, not a test).

    .venv/bin/python bench/push_trace.py [--checks 100] [--players 12] [--database-url URL] [--redis-url URL]
        [--streams page]

Plays ``bench/session_bench.py``'s scripted session (the Mayor calls ``--checks`` checks; each
called player draws and chooses; every page's stream is open) against the project served through
``bench/traced_asgi.py``, which stamps each step of a call in the server with the clock the
bench's clients stamp with. On SQLite, or on a PostgreSQL database of your own with
``--database-url`` (the bench drops and creates it). Prints p50 and p95 of each step of the calls,
from the bench sending the call to the last of the Mayor's and players' streams holding its push.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import session_bench  # noqa: E402 (after the project's root is on the path)

STEPS = (
    ("the bench's send → the ASGI app", "sent", "asgi"),
    ("the app → Django's WSGI handler", "asgi", "wsgi"),
    ("the handler → the view (middleware)", "wsgi", "view"),
    ("the view → the service (what the view does first)", "view", "service"),
    ("the service → its publish (after COMMIT)", "service", "publish"),
    ("the publish → the event loop", "publish", "deliver"),
    ("the loop → the first stream's write", "deliver", "first write"),
    ("the loop → the last stream's write", "deliver", "last write"),
    ("the loop → the view's thread going on (settled)", "deliver", "settled"),
    ("the loop → the pages' rendering job starts", "deliver", "job"),
    ("that job, start → end", "job", "job end"),
    ("that write → the last client's stamp", "last write", "last arrival"),
    ("the push, in all", "sent", "last arrival"),
    ("the publish → the view's return (its answer)", "publish", "view end"),
    ("the view's return → the answer sent", "view end", "answer sent"),
)


def read_marks(path: Path) -> list[tuple[float, str]]:
    marks = []
    for line in path.read_text().splitlines():
        stamp, what = line.split(" ", 1)
        marks.append((float(stamp), what))
    return sorted(marks)


def calls(marks: list[tuple[float, str]], pushes: dict) -> list[dict[str, float]]:
    """Each call's moments: the bench's send, each mark of the server after it, the last stream's
    write of its push and the last client's arrival (the bench makes one call at a time)."""
    found = []
    clients = len(pushes["arrivals"])
    for sent in pushes["sent"]:
        moments = {"sent": sent}
        later = [(t, what) for t, what in marks if t >= sent]
        for name in ("asgi", "wsgi", "view", "service", "publish", "deliver", "view end"):
            moments[name] = next(t for t, what in later if what == name and t >= moments.get("asgi", sent))
        writes = [t for t, what in later if what == "write" and t >= moments["deliver"]][:clients]
        moments["first write"], moments["last write"] = writes[0], writes[-1]
        # the request's thread waited for the streams' writes (in-process bus) from its publish
        moments["settled"] = next((t for t, what in later if what == "settled" and t >= moments["publish"]), sent)
        moments["answer sent"] = next(t for t, what in later if what == "sent" and t >= moments["view end"])
        # the pages' streams only: the job that rendered this push's pages (none for notices)
        moments["job"] = next((t for t, what in later if what == "job" and t >= moments["deliver"]), None)
        moments["job end"] = next((t for t, what in later if what == "job end" and moments["job"] is not None
                                   and t >= moments["job"]), None)
        moments["last arrival"] = max(next(t for t in arrivals if t >= sent) for arrivals in pushes["arrivals"])
        found.append(moments)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checks", type=int, default=100)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--redis-url", default="", help="redis://... for the live bus instead of in-process")
    parser.add_argument("--streams", default="notice", choices=("notice", "page"),
                        help="page: the streams are opened as the session pages open them (each is sent its regions)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "marks.txt"
        session_bench.session_over_http(Path(tmp), args.checks, args.players, 0 if args.streams == "page" else 1,
                                        args.database_url, streams=args.streams,
                                        app="bench.traced_asgi:application", env_extra={"PUSH_TRACE": str(trace)},
                                        redis_url=args.redis_url)
        moments = calls(read_marks(trace), session_bench.PUSHES)
    backend = (("PostgreSQL" if args.database_url else "SQLite") + (", Redis bus" if args.redis_url else "")
               + (", the pages' streams" if args.streams == "page" else ""))
    print(f"\nEach step of the Mayor's {len(moments)} calls ({backend}, {args.players} players, "
          f"{len(session_bench.PUSHES['arrivals'])} streams), p50 / p95 in ms:")
    for label, start, end in STEPS:
        values = [m[end] - m[start] for m in moments if m.get(start) is not None and m.get(end) is not None]
        if not values:  # (a job's steps, with notices)
            continue
        print(f"  {label:<48} {session_bench.pct(values, .5) * 1000:6.2f} / {session_bench.pct(values, .95) * 1000:6.2f}")


if __name__ == "__main__":
    main()
