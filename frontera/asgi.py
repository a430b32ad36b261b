"""ASGI entry point (uvicorn serves it): two doors into one Django project.

- The live streams (``/live/…``: Server-Sent Events, async views held open for hours) go through
  Django's ASGI handler, which they need.
- Every other request (pages, fragments, actions, exports: all sync views) goes through Django's
  WSGI handler, run in a fixed pool of worker threads (``WEB_THREADS``, default 10) by the pages
  door (``frontera/pages_door.py``: one hand-over to a thread and one back per request). When the
  last of them has been answered, the young garbage is collected (``frontera/idle_gc.py``).

Why (issue #11's profile): under the ASGI handler every sync request ran in a thread made for it
alone, so it opened a new database connection, and each of the eleven middleware crossed from the
event loop to a thread and back, before and after the view. In the pool a request is one hop to a
thread that already has its connection (``CONN_MAX_AGE`` for SQLite; PostgreSQL has its own pool),
and the middleware run as plain functions. Both doors share the settings, the URLs, the database
and the live bus: a change committed by a page's action is pushed to the streams as before.
"""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontera.settings")

from django.core.asgi import get_asgi_application  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from frontera.idle_gc import CollectWhenIdle  # noqa: E402
from frontera.live.build import build_id  # noqa: E402
from frontera.pages_door import PagesDoor  # noqa: E402

STREAMS_PREFIX = "/live/"

streams = get_asgi_application()
# the pool's young garbage is collected when no page is being answered (frontera/idle_gc.py)
pages = CollectWhenIdle(PagesDoor(get_wsgi_application(), workers=int(os.environ.get("WEB_THREADS", "10"))))
get_resolver().url_patterns  # every URL module and view imported now, not in a first request
# the build this process serves, fixed now, with the code it imported: files replaced on disk later
# (the next deploy, before this process stops) do not change what it tells its pages
build_id()

# What is loaded by now (Django, the apps, the URLs) lives as long as the process: out of the
# cyclic garbage collector's sight, a full collection scans only what came after it. One took
# 48 ms, stopping every request, in the server of issue #11's browser benchmark; in a warmed-up
# test process one costs ~2 ms after the freeze instead of ~15-29 ms (gc.freeze is the gc module's
# own answer for a process's long-lived start-up objects).
gc.collect()
gc.freeze()


async def application(scope, receive, send):
    if scope["type"] == "http" and not scope["path"].startswith(STREAMS_PREFIX):
        await pages(scope, receive, send)
    else:
        await streams(scope, receive, send)
