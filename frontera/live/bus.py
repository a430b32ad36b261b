"""The live bus: ``publish(topic, version)`` and subscriptions for the SSE endpoint.

A message says only "this topic changed, it is now at version N", and may name the page regions the
change can show in (``regions``; none named: any region): never a secret, so every browser
refetches the fragments it may see, and only those that can have changed (issue #11). Versions
come from durable logs, so a client that missed a
message catches up on reconnect. Backends: an in-process broadcaster by default (one server
process); Redis pub/sub when ``REDIS_URL`` is set (several processes). At-most-once is enough.

Faults never lose a change for good: a publish that fails after commit is logged and the action
still answers as a success; a Redis subscription that drops is made again, and the subscriber is
then told to re-read the durable version (:data:`RESYNC`), so it learns what it missed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from django.conf import settings
from django.db import transaction

CHANNEL_PREFIX = "frontera:live:"
# Put on a subscriber's queue instead of a version when its subscription was made again after a
# fault: pushes may have been missed meanwhile, so the subscriber re-reads the durable version.
RESYNC = -1
RESUBSCRIBE_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0)  # seconds between attempts; the last one repeats
REDIS_TIMEOUT = 2.0  # seconds: an unreachable Redis must not hang a request
REDIS_SETTLE_SECONDS = 0.001  # what :func:`settle` waits with the Redis backend

logger = logging.getLogger(__name__)


class Push(int):
    """A version as the bus delivers it: an ``int`` that may also name the regions that changed
    (``None``: any region may have), and the user whose action it is (``actor``, a user's id, or
    ``None``): that user's pages are answered by their own request, the others may be sent the
    regions with the push (:mod:`frontera.live.views`). Region names are public (``checks``,
    ``board``...)."""

    regions: tuple[str, ...] | None
    actor: int | None

    def __new__(cls, version: int, regions=None, actor: int | None = None):
        push = super().__new__(cls, version)
        push.regions = tuple(sorted(set(regions))) if regions is not None else None
        push.actor = actor
        return push

    def encode(self) -> str:
        parts = [str(int(self))]
        if self.regions is not None:
            parts.append(",".join(self.regions))
        if self.actor is not None:
            parts.append(f"@{self.actor}")
        return " ".join(parts)

    @classmethod
    def decode(cls, raw) -> Push:
        text = raw.decode() if isinstance(raw, bytes) else str(raw)
        version, *rest = text.split(" ")
        regions = next((r for r in rest if not r.startswith("@")), None)
        actor = next((int(r[1:]) for r in rest if r.startswith("@") and r[1:].isdigit()), None)
        return cls(int(version), [r for r in regions.split(",") if r] if regions else None, actor)


class MemoryBackend:
    """Subscribers are asyncio queues on their own loops; publishers may be any thread."""

    SETTLE_PENDING = 16  # a thread that never settles keeps at most this many markers

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = defaultdict(set)
        self._published = threading.local()  # each publishing thread's markers, for :meth:`settle`

    def has_local_subscribers(self, topic: str) -> bool:
        return bool(self._subscribers.get(topic))

    def publish(self, topic: str, version: int) -> None:
        """``version`` is an ``int`` or a :class:`Push` (which names the regions that changed)."""
        with self._lock:
            targets = list(self._subscribers.get(topic, ()))
        queues_of: dict[asyncio.AbstractEventLoop, list[asyncio.Queue]] = {}
        for loop, queue in targets:
            queues_of.setdefault(loop, []).append(queue)
        for loop, queues in queues_of.items():
            # One wake-up per loop, not per subscriber: its queues are filled in one callback (a
            # wake-up is a write to the loop's self-pipe, and each handed the GIL to that loop mid-
            # publish). The marker is set in the loop's next turn, after the subscribers the puts
            # woke have run: those that write at once (a topic's SSE stream) have written. Best
            # effort: a stream that reads the database first (the multi-topic one, through a
            # thread) writes later, and the caller goes on at the timeout anyway.
            marker = threading.Event()
            try:
                loop.call_soon_threadsafe(self._deliver, loop, queues, version, marker)
            except RuntimeError:  # that loop has closed; its subscribers are going away
                continue
            pending = [m for m in getattr(self._published, "markers", ()) if not m.is_set()]
            self._published.markers = [*pending, marker][-self.SETTLE_PENDING:]

    @staticmethod
    def _deliver(loop: asyncio.AbstractEventLoop, queues: list[asyncio.Queue], version: int,
                 marker: threading.Event) -> None:
        for queue in queues:
            queue.put_nowait(version)
        loop.call_soon(marker.set)

    def settle(self, timeout: float) -> None:
        """Wait, at most ``timeout`` seconds, until the loops of this thread's pushes since its last
        settle have had their turn: a sync view about to render keeps the GIL from the loop that
        writes those pushes to the other pages (issue #13)."""
        markers, self._published.markers = getattr(self._published, "markers", []), []
        deadline = time.monotonic() + timeout
        for marker in markers:
            if not marker.wait(max(0.0, deadline - time.monotonic())):
                return

    @asynccontextmanager
    async def subscribe(self, topic: str) -> AsyncIterator[asyncio.Queue]:
        entry = (asyncio.get_running_loop(), asyncio.Queue())
        with self._lock:
            self._subscribers[topic].add(entry)
        try:
            yield entry[1]
        finally:
            with self._lock:
                self._subscribers[topic].discard(entry)
                if not self._subscribers[topic]:
                    del self._subscribers[topic]


class RedisBackend:
    def __init__(self, url: str) -> None:
        self.url = url
        self._client = None
        self._local: dict[str, int] = defaultdict(int)  # this process's streams per topic
        self._local_lock = threading.Lock()  # streams may run on several loops (threads)

    def has_local_subscribers(self, topic: str) -> bool:
        return self._local.get(topic, 0) > 0

    def _sync_client(self):
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(
                self.url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT
            )
        return self._client

    def publish(self, topic: str, version: int) -> None:
        push = version if isinstance(version, Push) else Push(version)
        self._sync_client().publish(CHANNEL_PREFIX + topic, push.encode())

    def settle(self, timeout: float) -> None:
        """The subscribers' loops cannot be seen from here (Redis delivers to any process): a short
        pause, so a loop of this process gets its turn before the caller takes the GIL."""
        time.sleep(min(timeout, REDIS_SETTLE_SECONDS))

    @asynccontextmanager
    async def subscribe(self, topic: str) -> AsyncIterator[asyncio.Queue]:
        import redis.asyncio as aioredis

        channel = CHANNEL_PREFIX + topic
        client = aioredis.Redis.from_url(self.url, socket_connect_timeout=REDIS_TIMEOUT)
        pubsub = client.pubsub()
        await pubsub.subscribe(channel)
        queue: asyncio.Queue = asyncio.Queue()

        async def listen() -> None:
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    queue.put_nowait(Push.decode(message["data"]))

        async def pump() -> None:
            """Listen; when the connection drops, subscribe again (backing off) and resync."""
            nonlocal pubsub
            while True:
                try:
                    await listen()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # noqa: BLE001 (any connection fault: subscribe again)
                    logger.warning("live bus: the subscription to %s dropped (%s); subscribing again", topic, exc)
                for attempt in itertools.count():
                    await asyncio.sleep(RESUBSCRIBE_DELAYS[min(attempt, len(RESUBSCRIBE_DELAYS) - 1)])
                    try:
                        await pubsub.aclose()
                        pubsub = client.pubsub()
                        await pubsub.subscribe(channel)
                    except asyncio.CancelledError:
                        raise
                    except Exception:  # noqa: BLE001 (Redis still away: try again)
                        continue
                    break
                logger.info("live bus: subscribed to %s again", topic)
                queue.put_nowait(RESYNC)

        task = asyncio.create_task(pump())
        with self._local_lock:
            self._local[topic] += 1
        try:
            yield queue
        finally:
            with self._local_lock:
                self._local[topic] -= 1
                if self._local[topic] <= 0:
                    self._local.pop(topic, None)
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
            await pubsub.aclose()
            await client.aclose()


_backend = None
_backend_lock = threading.Lock()


def get_backend():
    global _backend
    with _backend_lock:
        if _backend is None:
            if settings.LIVE_BUS_BACKEND == "redis":
                _backend = RedisBackend(settings.REDIS_URL)
            else:
                _backend = MemoryBackend()
        return _backend


def reset_backend() -> None:
    """Forget the backend (tests that change settings)."""
    global _backend
    with _backend_lock:
        _backend = None


def publish(topic: str, version: int, regions=None, actor: int | None = None) -> None:
    """Tell every subscriber of ``topic`` that it is now at ``version``; ``regions`` names the page
    regions the change can show in (``None``: any); ``actor`` is the id of the user who acted."""
    get_backend().publish(topic, Push(int(version), regions, actor))


def publish_on_commit(topic: str, version: int, regions=None, actor: int | None = None) -> None:
    """Publish once the current transaction commits (services call this, never views).

    The action has committed by then: a failed publish (Redis away) is logged and the action still
    answers as a success. Clients catch up from the durable version: at their stream's next
    keep-alive, or when it reconnects (``Last-Event-ID``)."""
    transaction.on_commit(lambda: _publish_committed(topic, version, regions, actor))


def _publish_committed(topic: str, version: int, regions=None, actor: int | None = None) -> None:
    try:
        if regions is None and actor is None:
            publish(topic, version)
        else:
            publish(topic, version, regions, actor)
    except Exception:  # noqa: BLE001 (whatever the backend raised, the change is durable)
        logger.warning("live bus: could not publish %s version %s; clients catch up from the log",
                       topic, version, exc_info=True)
        return
    _let_the_push_out(topic)


def _let_the_push_out(topic: str) -> None:
    """Push first: when streams of ``topic`` run in this process, the publishing thread (a request's,
    which goes on to render its answer) lets the event loop that writes those streams have the GIL
    now rather than after the render (:func:`settle`, at most ``LIVE_PUSH_FIRST_SECONDS``; issues
    #11 and #13: the other pages were told one GIL switch interval, ~5 ms, behind the answer). Not
    on the loop's own thread, and not when nobody here listens (the tests' client, a Celery worker)."""
    timeout = settings.LIVE_PUSH_FIRST_SECONDS
    if timeout <= 0 or not get_backend().has_local_subscribers(topic):
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # a thread without a running loop: a request's, or a worker's
        settle(timeout)


def settle(timeout: float) -> None:
    """Let the pushes this thread published go out before it goes on, waiting at most ``timeout``
    seconds: with the in-process backend, until the loops of their subscribers have had their
    turn (the SSE streams have written them); with Redis, a short pause. For a sync view that
    renders right after a commit (the render holds the GIL the event loop needs to write)."""
    get_backend().settle(timeout)


def subscribe(topic: str):
    """``async with subscribe(topic) as queue: version = await queue.get()``."""
    return get_backend().subscribe(topic)
