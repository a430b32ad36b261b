"""The project's ASGI app with time marks where a Mayor's call and its push pass (for
``bench/push_trace.py``; not used by the app, not a test).

uvicorn serves ``bench.traced_asgi:application`` with ``PUSH_TRACE`` naming a file; each mark is a
line ``<time.perf_counter()> <what>``, the clock (CLOCK_MONOTONIC) the bench's clients stamp with,
so the server's marks and the clients' stamps line up. The marks are put in by wrapping, at import,
the functions they name; nothing of the app is changed:
- ``asgi``: a POST reaches the ASGI app; ``sent``: its answer's last message goes to uvicorn;
- ``wsgi``: Django's WSGI handler starts (in a thread of the pages door);
- ``view`` / ``view end``: the call's view (``check_new``) starts and returns;
- ``service``: the view calls the service (``check_request``);
- ``publish``: the bus is told after the commit; ``deliver``: the event loop hands it to the streams
  (since session 25 with either backend: a process hands its own pushes to its own streams; in
  sessions 23-24, with ``REDIS_URL``, when the push came back from Redis to the process's hub);
- ``settle`` / ``settled``: the request's thread starts and stops waiting for the streams' writes;
- ``job`` / ``job end``: a job that renders the pages one push wakes starts and ends (in a thread of
  the live stream's renderers);
- ``write``: a stream formats its ``changed`` event, or the regions it sends with a push, right
  before writing it;
- ``get``: a page's refetch after a push (``GET …?regions=``) reaches the ASGI app; ``got``: its
  answer's last message goes to uvicorn.

``PUSH_TRACE_CLOCK=wall`` stamps with ``time.time()`` instead, in milliseconds, the clock a
browser's pages stamp with (``performance.timeOrigin + performance.now()``; ``bench/browser_bench.py``).
"""

import os
import threading
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontera.settings")

import django  # noqa: E402 (settings first)

django.setup()

from django.core.handlers import wsgi as django_wsgi  # noqa: E402

from frontera.live import bus  # noqa: E402
from frontera.live import views as live_views  # noqa: E402
from frontera.play.services import checks as checks_services  # noqa: E402
from frontera.play.views import checks as checks_views  # noqa: E402

_out = open(os.environ["PUSH_TRACE"], "a", buffering=1)  # noqa: SIM115 (the process's lifetime)
_lock = threading.Lock()


_wall = os.environ.get("PUSH_TRACE_CLOCK") == "wall"


def mark(what: str) -> None:
    line = f"{time.time() * 1000:.3f} {what}\n" if _wall else f"{time.perf_counter():.6f} {what}\n"
    with _lock:
        _out.write(line)


def _before(what: str, fn, after: str = ""):
    def wrapper(*args, **kwargs):
        mark(what)
        try:
            return fn(*args, **kwargs)
        finally:
            if after:
                mark(after)
    return wrapper


bus.MemoryBackend.publish = _before("publish", bus.MemoryBackend.publish)
bus.MemoryBackend.settle = _before("settle", bus.MemoryBackend.settle, after="settled")
bus.RedisBackend.publish = _before("publish", bus.RedisBackend.publish)
bus.RedisBackend.settle = _before("settle", bus.RedisBackend.settle, after="settled")
if hasattr(bus, "_Settling"):  # (since session 25) either backend hands a push to its process's loops
    bus._Settling._run_then_mark = staticmethod(_before("deliver", bus._Settling._run_then_mark))
else:
    bus.MemoryBackend._deliver = staticmethod(_before("deliver", bus.MemoryBackend._deliver))
if hasattr(bus, "_RedisHub") and not hasattr(bus, "_Settling"):  # (sessions 23-24) a push back from Redis
    _dispatch = bus._RedisHub._dispatch
    bus._RedisHub._dispatch = lambda self, message: (
        mark("deliver") if message.get("type") == "message" else None) or _dispatch(self, message)
_format_event = live_views.format_event
live_views.format_event = lambda event, *a, **k: (mark("write") if event == "changed" else None) or _format_event(
    event, *a, **k)
_format_regions = getattr(live_views, "format_regions", None)  # (not in the code before it)
if _format_regions is not None:
    live_views.format_regions = lambda *a, **k: mark("write") or _format_regions(*a, **k)
if hasattr(live_views, "_render_all"):  # (since session 26) one job renders the pages one push wakes
    live_views._render_all = _before("job", live_views._render_all, after="job end")
checks_services.check_request = _before("service", checks_services.check_request)
# before the URLs are imported (frontera.asgi does it), so that they route to the wrapped view
checks_views.check_new = _before("view", checks_views.check_new, after="view end")
django_wsgi.WSGIHandler.__call__ = _before("wsgi", django_wsgi.WSGIHandler.__call__)

from frontera import asgi  # noqa: E402 (after the wrapping)


async def application(scope, receive, send):
    if scope["type"] != "http":
        return await asgi.application(scope, receive, send)
    if scope["method"] == "POST":
        start, end = "asgi", "sent"
    elif b"regions=" in scope.get("query_string", b""):  # a page's refetch after a push
        start, end = "get", "got"
    else:
        return await asgi.application(scope, receive, send)
    mark(start)

    async def traced_send(message):
        if message["type"] == "http.response.body" and not message.get("more_body"):
            mark(end)
        await send(message)

    return await asgi.application(scope, receive, traced_send)
