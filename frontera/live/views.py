"""The Server-Sent Events endpoint: ``/live/<topic>/``.

Each message is ``id: <version>`` and ``event: changed``; the page's elements listen with
``hx-trigger="sse:changed"`` and refetch their own fragments. A client that (re)connects behind
the current version — by ``Last-Event-ID`` or the ``since`` version its page was rendered at — is
told to refresh at once; one that is not is sent ``hello``, which also names the build of the
pages this server renders (:mod:`frontera.live.build`: a page of an earlier deploy reloads itself).
A comment line every ~15 s keeps proxies from closing the stream; at each
of those ticks, and when the bus says its subscription was made again after a fault
(:data:`frontera.live.bus.RESYNC`), the stream re-reads the durable version, so a publish that was
lost is healed. No database transaction is open while streaming.

A page that asks for it (``?page=1``, the session pages) is sent the regions a push names with the
push itself, rendered for its viewer (``event: regions``, its data ``{"version", "regions",
"html"}``: each region marked to be swapped out of band), instead of a ``changed`` it would answer
with a request for them: one round trip fewer between the table's change and a phone showing it
(issue #11). The viewer's log-in and membership are checked again for every rendering; a push of
the viewer's own action, one that names no region, and anything the topic cannot render for the
viewer are sent as ``changed``, as to every other page. The streams of a topic that one push wakes
ask for their renderings in the same turn of the event loop, and get them from one job
(:class:`_Renderings`): what their pages share is read once for all of them.

A composite topic (``sheet:<id>``, see :mod:`frontera.live.topics`) listens to every topic it
follows and reads its own version again after each push and at each keep-alive tick (so a new
session the character joins is picked up within one tick even though nothing it followed changed).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection
from django.http import Http404, StreamingHttpResponse
from django.views.decorators.http import require_GET

from frontera.live import bus, topics
from frontera.live.build import build_id

logger = logging.getLogger(__name__)


def _read(fn):
    """``fn`` as a coroutine run in a worker thread, its database connection given back afterwards:
    a stream lasts for hours and must hold no connection (nor a slot of the connection pool,
    settings ``DATABASE_POOL``) between its reads, or a few open phones would exhaust them."""

    def run(*args):
        try:
            return fn(*args)
        finally:
            if not connection.in_atomic_block:  # (a test's own transaction stays open)
                connection.close()

    return sync_to_async(run)


# The regions sent with the pushes are rendered here, one push's pages of a topic in one job
# (:class:`_Renderings`; the jobs of several topics side by side), each thread with a database
# connection of its own kept between jobs (as a request thread keeps its own; with PostgreSQL's pool
# it is given back after each). In the stream's own thread (``_read``), every stream of a push
# rendered at once, sharing the GIL: each page had its regions only when the last was done, and
# each rendering opened a connection anew.
_RENDERING = ThreadPoolExecutor(max_workers=int(os.environ.get("LIVE_RENDER_THREADS", "2")),
                                thread_name_prefix="live-render")
# A stream waits this long for its rendering, then sends a notice instead (the page fetches the
# regions): a rendering that waits for a database connection, or behind a backlog, holds no page up.
# (Its job renders its pages one after another: a page late in a large job waits for those before it.)
RENDER_TIMEOUT_SECONDS = 2.0


class _Renderings:
    """The renderings of a push's regions for this process's page streams of a topic, done as one
    job. The streams a push wakes run one after another in the same turn of the event loop, and each
    asks here for its page's regions: the first to ask starts a job in the loop's next turn, the
    others asking for the same topic and regions join it. The job (in a ``_RENDERING`` thread) has
    the topic read what those pages share once (``render(requests, regions)``: for a session, the
    session, the viewers' roles and seats, the state's stamp), then renders the pages in turn; each
    is handed to its stream as soon as it is done. Before, every stream read all of it for itself,
    and two threads rendered them side by side, sharing the GIL: each page waited for the other's."""

    def __init__(self) -> None:
        self._asking: dict[tuple, list[tuple[object, asyncio.Future]]] = {}

    def ask(self, topic: str, render, request, regions: tuple[str, ...]) -> asyncio.Future:
        """A future of ``request``'s page's rendering of ``regions`` (see :func:`event_stream`)."""
        loop = asyncio.get_running_loop()
        key = (loop, topic, regions)
        asking = self._asking.get(key)
        if asking is None:
            asking = self._asking[key] = []
            loop.call_soon(self._start, key, render)
        future = loop.create_future()
        asking.append((request, future))
        return future

    def _start(self, key, render) -> None:
        loop, topic, regions = key
        asking = self._asking.pop(key)
        job = loop.run_in_executor(_RENDERING, _render_all, loop, render, regions, asking)
        job.add_done_callback(functools.partial(_job_done, topic, asking))


def _render_all(loop, render, regions, asking) -> None:
    """Every page of ``asking`` rendered in turn, each handed to its stream's future (its result, or
    the exception its rendering raised) as soon as it is done; a stream that stopped waiting (its
    timeout) is skipped. If what the pages share cannot be read, each stream is told "changed"
    (``None``: its page fetches the regions), and the job's failure is logged once."""
    try:
        close_old_connections()  # one made unusable meanwhile (a database restart) is not used again
        pages = render([request for request, _future in asking], regions)
        for (_request, future), page in zip(asking, pages, strict=True):
            if future.done():  # (read from this thread: at worst a page rendered for nobody)
                continue
            try:
                result = page()
            except Exception as error:  # noqa: BLE001 (its stream logs it)
                result = error
            loop.call_soon_threadsafe(_hand, future, result)
    finally:
        connection.close_if_unusable_or_obsolete()


def _job_done(topic: str, asking, job: asyncio.Future) -> None:
    """On the loop, once a job has ended: a stream whose page it did not hand over (the job failed)
    is told "changed" (``None``) now rather than at its timeout."""
    if not job.cancelled() and job.exception() is not None:
        logger.error("live stream: the pages of a push to %s could not be rendered", topic,
                     exc_info=job.exception())
    for _request, future in asking:
        _hand(future, None)


def _hand(future: asyncio.Future, result) -> None:
    if not future.done():
        if isinstance(result, Exception):
            # (an exception a future refuses, StopIteration, is handed as the error it is)
            future.set_exception(result if not isinstance(result, StopIteration) else RuntimeError(repr(result)))
        else:
            future.set_result(result)


_renderings = _Renderings()


def _since(request) -> int | None:
    for raw in (request.headers.get("Last-Event-ID"), request.GET.get("since")):
        if raw is not None and raw.strip().isdigit():
            return int(raw.strip())
    return None


def format_event(event: str, version: int, topic: str, regions=None, *, greeting: bool = False) -> str:
    """One SSE message; ``regions`` (the page regions the change can show in) only when the push
    named them: without it a page refetches every region. A region named for some viewers only
    (``me:c12``, :data:`frontera.live.bus.Push`) is named to the page without its scope: a page
    told by a notice refetches it. Made once for all the streams a push wakes (each of a topic's
    streams sends the same message). ``greeting``: the stream's first message, which names the
    build of the pages this server renders (:mod:`frontera.live.build`)."""
    return _event(event, int(version), topic, None if regions is None else bus.unscoped(regions), greeting)


@functools.lru_cache(maxsize=256)
def _event(event: str, version: int, topic: str, regions: tuple[str, ...] | None, greeting: bool) -> str:
    payload = {"topic": topic, "version": version}
    if regions is not None:
        payload["regions"] = list(regions)
    if greeting:  # at each (re)connection: a page kept open across a deploy learns it
        payload["build"] = build_id()
    data = json.dumps(payload)
    return f"id: {version}\nevent: {event}\ndata: {data}\n\n"


def format_regions(version: int, regions: list[str], html: str, shows: int) -> str:
    """The regions a push (``version``) named, rendered for the stream's viewer, and the version of
    the session they show (the push's or a later one's: they were read after it). One SSE message:
    its JSON has no line break."""
    data = json.dumps({"version": int(shows), "regions": regions, "html": html})
    return f"id: {version}\nevent: regions\ndata: {data}\n\n"


async def event_stream(topic: str, since: int | None, keepalive: float, render=None, viewer: int | None = None):
    """The stream for one subscriber; subscribes before reading the version so nothing is missed.
    With ``render`` (``render(regions)`` → an awaitable of ``(regions, html, the version they show)``
    or ``None``: :func:`page_renderer`), a
    push that names its regions and is not ``viewer``'s own action is sent with them; the pushes
    that queued meanwhile are sent with the next one rendered (one rendering of the latest state).
    A rendering of no region (none of the push's is on the viewer's page) is sent as a notice that
    names none; ``None`` (the viewer may not see them now) as a notice naming the push's."""
    async with bus.subscribe(topic) as queue:
        yield "retry: 2000\n\n"
        current = await _read(topics.current_version)(topic)
        if since is not None and since < current:
            yield format_event("changed", current, topic, greeting=True)
        else:
            yield format_event("hello", current, topic, greeting=True)
        last = current
        backlog = []  # pushes taken from the queue while gathering a rendering's, not rendered with it

        def rendered_here(push) -> bool:  # a push whose regions this stream sends with it
            return (render is not None and push != bus.RESYNC and getattr(push, "regions", None) is not None
                    and getattr(push, "actor", None) != viewer)

        while True:
            if backlog:
                version = backlog.pop(0)
            else:
                try:
                    version = await asyncio.wait_for(queue.get(), timeout=keepalive)
                except TimeoutError:
                    version = None
            if version is None or version == bus.RESYNC:
                # a quiet tick or a subscription made again: a publish may have been missed, so
                # the durable version decides (a missed push is healed within one keep-alive)
                version = await _read(topics.current_version)(topic)
                if version <= last:
                    yield ": keep-alive\n\n"
                    continue
            regions = getattr(version, "regions", None)
            if version > last:
                last = version
                if rendered_here(version):
                    # the pushes queued behind this one (the stream was busy with its last rendering)
                    # are sent with it: one rendering of the state as it is now, for all of them
                    wanted = set(regions)
                    while not backlog and not queue.empty():
                        more = queue.get_nowait()
                        if rendered_here(more):
                            wanted |= set(more.regions)
                            version = last = max(last, more)
                        else:
                            backlog.append(more)
                    regions = tuple(sorted(wanted))
                    try:
                        rendered = await asyncio.wait_for(render(regions), RENDER_TIMEOUT_SECONDS)
                    except TimeoutError:  # not reached yet in its job: skipped; being rendered: dropped
                        logger.warning("live stream: the regions of %s version %s took over %s s", topic, version,
                                       RENDER_TIMEOUT_SECONDS)
                        rendered = None
                    except Exception:  # the page can still fetch them: it is told "changed"
                        logger.exception("live stream: could not render the regions of %s version %s", topic, version)
                        rendered = None
                    if rendered is not None:
                        if rendered[0]:
                            yield format_regions(version, *rendered)
                        else:  # nothing the viewer's page shows changed: told so, with the version
                            yield format_event("changed", version, topic, ())
                        continue
                yield format_event("changed", version, topic, regions)
            elif regions is not None:
                # a push overtaken by a later one (their commits' publishes raced): the page fetched
                # what the later one named, at a state that holds this change too, but maybe not
                # this one's regions; they are fetched now, at the version the page already has
                yield format_event("changed", last, topic, regions)


class _Following:
    """Subscriptions to several bus topics at once, merged into one queue of wake-ups."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()
        self._tasks: dict[str, asyncio.Task] = {}

    @property
    def topics(self) -> set[str]:
        """The topics followed now (a subscription that failed is not one: it is tried again)."""
        return {topic for topic, task in self._tasks.items() if not task.done()}

    async def _pump(self, topic: str, ready: asyncio.Event) -> None:
        try:
            async with bus.subscribe(topic) as queue:
                ready.set()
                while True:
                    await queue.get()
                    self.queue.put_nowait(topic)
        finally:
            ready.set()  # a backend that failed to subscribe must not hang the stream

    async def update(self, wanted: list[str]) -> None:
        for topic in [t for t, task in self._tasks.items() if t not in wanted or task.done()]:
            await self._stop(self._tasks.pop(topic))
        for topic in wanted:
            if topic not in self._tasks:
                ready = asyncio.Event()
                self._tasks[topic] = asyncio.create_task(self._pump(topic, ready))
                await ready.wait()

    @staticmethod
    async def _stop(task: asyncio.Task) -> None:
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 (going away either way)
            pass

    async def close(self) -> None:
        for task in self._tasks.values():
            await self._stop(task)
        self._tasks.clear()


def _sources_and_version(topic: str) -> tuple[list[str], int]:
    return topics.sources(topic), topics.current_version(topic)


async def composite_stream(topic: str, since: int | None, keepalive: float):
    """The stream of a composite topic: subscribes to what it follows before reading its version,
    re-reads both after every push (bursts coalesced) and at every keep-alive tick."""
    following = _Following()
    try:
        yield "retry: 2000\n\n"
        await following.update(await _read(topics.sources)(topic))
        current = await _read(topics.current_version)(topic)
        yield format_event("changed" if since is not None and since != current else "hello", current, topic,
                           greeting=True)
        last = current
        while True:
            try:
                await asyncio.wait_for(following.queue.get(), timeout=keepalive)
                pushed = True
            except TimeoutError:
                pushed = False
            while not following.queue.empty():
                following.queue.get_nowait()
            wanted, version = await _read(_sources_and_version)(topic)
            if set(wanted) != following.topics:
                await following.update(wanted)
                version = await _read(topics.current_version)(topic)  # nothing missed meanwhile
            if version != last:
                last = version
                yield format_event("changed", version, topic)
            elif not pushed:
                yield ": keep-alive\n\n"
    finally:
        await following.close()


def page_renderer(topic: str, request):
    """``render(regions)`` for :func:`event_stream`: the regions of ``request``'s page, rendered with
    those of the topic's other pages the same push wakes (:class:`_Renderings`); ``None`` if the
    topic's kind renders none."""
    render = topics.renderer(topic)
    if render is None:
        return None
    return lambda regions: _renderings.ask(topic, render, request, regions)


class EventStreamResponse(StreamingHttpResponse):
    """A stream of Server-Sent Events, always UTF-8 (the format allows no other): each message is
    encoded as such, without the response's charset looked up again for every one (Django's
    :meth:`~django.http.HttpResponseBase.make_bytes` parses the Content-Type header each time)."""

    def make_bytes(self, value):
        return value.encode() if isinstance(value, str) else bytes(value)


@require_GET
async def stream(request, topic: str):
    user = await request.auser()
    version = await _read(topics.resolve)(topic, user)
    if version is None:
        raise Http404
    if topics.is_composite(topic):
        events = composite_stream(topic, _since(request), settings.LIVE_KEEPALIVE_SECONDS)
    else:
        render = page_renderer(topic, request) if request.GET.get("page") == "1" else None
        events = event_stream(topic, _since(request), settings.LIVE_KEEPALIVE_SECONDS, render=render, viewer=user.pk)
    response = EventStreamResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"
    return response
