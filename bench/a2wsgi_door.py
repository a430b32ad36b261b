"""The project's ASGI app with its pages door as it was until session 18: a2wsgi's
``WSGIMiddleware`` around Django's WSGI handler (``bench/pages_door_bench.py`` serves it beside
``frontera.asgi``; not used by the app)."""

import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

from frontera import asgi
from frontera.idle_gc import CollectWhenIdle

pages = CollectWhenIdle(WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("WEB_THREADS", "10"))))


async def application(scope, receive, send):
    if scope["type"] == "http" and not scope["path"].startswith(asgi.STREAMS_PREFIX):
        await pages(scope, receive, send)
    else:
        await asgi.streams(scope, receive, send)
