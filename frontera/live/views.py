"""The Server-Sent Events endpoint: ``/live/<topic>/``.

Each message is ``id: <version>`` and ``event: changed``; the page's elements listen with
``hx-trigger="sse:changed"`` and refetch their own fragments. A client that (re)connects behind
the current version — by ``Last-Event-ID`` or the ``since`` version its page was rendered at — is
told to refresh at once. A comment line every ~15 s keeps proxies from closing the stream. No
database transaction is open while streaming.
"""

from __future__ import annotations

import asyncio
import json

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import Http404, StreamingHttpResponse
from django.views.decorators.http import require_GET

from frontera.live import bus, topics


def _since(request) -> int | None:
    for raw in (request.headers.get("Last-Event-ID"), request.GET.get("since")):
        if raw is not None and raw.strip().isdigit():
            return int(raw.strip())
    return None


def format_event(event: str, version: int, topic: str) -> str:
    data = json.dumps({"topic": topic, "version": version})
    return f"id: {version}\nevent: {event}\ndata: {data}\n\n"


async def event_stream(topic: str, since: int | None, keepalive: float):
    """The stream for one subscriber; subscribes before reading the version so nothing is missed."""
    async with bus.subscribe(topic) as queue:
        yield "retry: 2000\n\n"
        current = await sync_to_async(topics.current_version)(topic)
        if since is not None and since < current:
            yield format_event("changed", current, topic)
        else:
            yield format_event("hello", current, topic)
        last = current
        while True:
            try:
                version = await asyncio.wait_for(queue.get(), timeout=keepalive)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if version > last:
                last = version
                yield format_event("changed", version, topic)


@require_GET
async def stream(request, topic: str):
    user = await request.auser()
    version = await sync_to_async(topics.resolve)(topic, user)
    if version is None:
        raise Http404
    response = StreamingHttpResponse(
        event_stream(topic, _since(request), settings.LIVE_KEEPALIVE_SECONDS), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
