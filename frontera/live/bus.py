"""The live bus: ``publish(topic, version)`` and subscriptions for the SSE endpoint.

A message says only "this topic changed, it is now at version N", and may name the page regions the
change can show in (``regions``; none named: any region): never a secret, so every browser
refetches the fragments it may see, and only those that can have changed (issue #11). Versions
come from durable logs, so a client that missed a
message catches up on reconnect. Backends: an in-process broadcaster by default (one server
process); Redis pub/sub when ``REDIS_URL`` is set (several processes), one subscription per
process's event loop shared by all its streams (:class:`_RedisHub`). A process hands its own pushes
to its own streams at once and Redis carries them to the other processes (as socket.io's Redis
adapter does): Redis's copy comes back marked as the process's own and is dropped. At-most-once is
enough.

Faults never lose a change for good: a publish that fails after commit is logged and the action
still answers as a success; a Redis subscription that drops is made again, and the subscriber is
then told to re-read the durable version (:data:`RESYNC`), so it learns what it missed.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
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
HUB_PING_SECONDS = 5.0  # a subscription silent this long is pinged...
HUB_SILENCE_SECONDS = 12.0  # ...and made again if still silent this long (a half-open connection)

logger = logging.getLogger(__name__)


class Push(int):
    """A version as the bus delivers it: an ``int`` that may also name the regions that changed
    (``None``: any region may have), and the user whose action it is (``actor``, a user's id, or
    ``None``): that user's pages are answered by their own request, the others may be sent the
    regions with the push (:mod:`frontera.live.views`). Region names are public (``checks``,
    ``board``...). A name may carry a scope after a colon (``me:c12``: that region of the pages of
    seat ``c12``'s player only): the topic's renderer decides which of its viewers it concerns, and
    a page told by a notice is told the name alone (:func:`unscoped`)."""

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
        return cls(int(version), None if regions is None else [r for r in regions.split(",") if r], actor)


def unscoped(regions) -> tuple[str, ...]:
    """The region names of ``regions`` without their scopes (``me:c12`` → ``me``), sorted, once
    each: what a page is told a push changed."""
    return tuple(sorted({region.partition(":")[0] for region in regions}))


class _Settling:
    """Pushes handed to this process's event loops, and :meth:`settle` for the publishing thread.

    One wake-up per loop, not per subscriber: a loop's queues are filled in one callback (a wake-up
    is a write to the loop's self-pipe, and each handed the GIL to that loop mid-publish). A marker
    is set in the loop's next turn, after the subscribers the puts woke have run: those that write
    at once (a topic's SSE stream) have written. Best effort: a stream that reads the database
    first (the multi-topic one, through a thread) writes later, and the caller goes on at the
    timeout anyway."""

    SETTLE_PENDING = 16  # a thread that never settles keeps at most this many markers

    def __init__(self) -> None:
        self._published = threading.local()  # each publishing thread's markers, for :meth:`settle`

    def _hand_out(self, loop: asyncio.AbstractEventLoop, deliver, *args) -> None:
        """``deliver(*args)`` on ``loop``, then a marker set in its next turn."""
        marker = threading.Event()
        try:
            loop.call_soon_threadsafe(self._run_then_mark, loop, deliver, args, marker)
        except RuntimeError:  # that loop has closed; its subscribers are going away
            return
        pending = [m for m in getattr(self._published, "markers", ()) if not m.is_set()]
        self._published.markers = [*pending, marker][-self.SETTLE_PENDING:]

    @staticmethod
    def _run_then_mark(loop: asyncio.AbstractEventLoop, deliver, args, marker: threading.Event) -> None:
        deliver(*args)
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


class MemoryBackend(_Settling):
    """Subscribers are asyncio queues on their own loops; publishers may be any thread."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = defaultdict(set)

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
            self._hand_out(loop, _put_on, queues, version)

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


def _put_on(queues, version) -> None:
    for queue in queues:
        queue.put_nowait(version)


class RedisBackend(_Settling):
    """Redis pub/sub between processes. A push is handed to this process's own streams at once (no
    round trip to Redis and back on the way to them: issue #11) and published to Redis for the
    others, marked with this backend's ``origin``; its hubs drop the copy Redis sends back."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.origin = uuid.uuid4().hex[:12]  # this process's mark on what it publishes
        self._client = None
        self._local: dict[str, int] = defaultdict(int)  # this process's streams per topic
        self._local_lock = threading.Lock()  # streams may run on several loops (threads)
        self._hubs: dict[asyncio.AbstractEventLoop, _RedisHub] = {}

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
        """This process's streams of ``topic`` are handed the push first; then Redis carries it to
        the other processes' (a Redis that is away raises, after the local streams have it)."""
        push = version if isinstance(version, Push) else Push(version)
        with self._local_lock:
            hubs = [(loop, hub) for loop, hub in self._hubs.items() if topic in hub.queues]
        for loop, hub in hubs:
            self._hand_out(loop, hub.hand_out, topic, push)
        message = f"{self.origin}|{push.encode()}".encode()
        self._sync_client().publish(CHANNEL_PREFIX + topic, message)

    @asynccontextmanager
    async def subscribe(self, topic: str) -> AsyncIterator[asyncio.Queue]:
        hub = self._hub()
        queue: asyncio.Queue = asyncio.Queue()
        counted = False
        try:
            await hub.add(topic, queue)  # (a stream closed meanwhile leaves nothing behind: finally)
            with self._local_lock:
                self._local[topic] += 1
            counted = True
            yield queue
        finally:
            if counted:
                with self._local_lock:
                    self._local[topic] -= 1
                    if self._local[topic] <= 0:
                        self._local.pop(topic, None)
            await hub.remove(topic, queue)

    def _hub(self) -> _RedisHub:
        """The running loop's hub (uvicorn runs one loop a process; tests may run several)."""
        loop = asyncio.get_running_loop()
        with self._local_lock:
            for closed in [other for other in self._hubs if other.is_closed()]:
                del self._hubs[closed]
            hub = self._hubs.get(loop)
            if hub is None:
                hub = self._hubs[loop] = _RedisHub(self.url, origin=self.origin)
            return hub


class _RedisHub:
    """One event loop's subscription to Redis, shared by all its streams: Redis sends each push to
    the process once, over one connection, and the hub puts it on the queue of every stream of its
    topic (issue #11: a connection per stream had each push parsed again for every open page, and
    sent by Redis as many times; at 12 players the push took twice as long as the in-process bus's).

    A topic is subscribed to while at least one stream follows it. The connection, and the task that
    reads it, live while any topic is followed. When the connection drops, or stays silent past
    ``HUB_SILENCE_SECONDS`` though pinged (a half-open connection), the task connects again (backing
    off), subscribes to every topic followed, and, as Redis confirms each one, puts :data:`RESYNC`
    on its streams' queues: a push may have been missed meanwhile, and the streams re-read the
    durable version."""

    def __init__(self, url: str, origin: str = "") -> None:
        self.url = url
        self._own = f"{origin}|".encode() if origin else None  # the prefix of this process's pushes
        self.queues: dict[str, set[asyncio.Queue]] = {}
        self._lock = asyncio.Lock()  # (un)subscribing and swapping the connection, one at a time
        self._pubsub = None  # the live subscription, None while (re)connecting
        self._client = None
        self._reader: asyncio.Task | None = None
        # per channel, a future for each SUBSCRIBE sent on the live connection and not yet confirmed,
        # in the order sent: Redis answers in that order, so each confirmation is its own command's
        self._pending: dict[str, list[asyncio.Future]] = {}
        self._connection_number = 0  # which connection a resync was planned for (later ones plan their own)
        self._owed: set[asyncio.Queue] = set()  # streams that went on unconfirmed: a resync is owed them

    async def add(self, topic: str, queue: asyncio.Queue) -> None:
        """Follow ``topic`` into ``queue``; returns once Redis has confirmed the subscription (or
        after ``REDIS_TIMEOUT``: the connection is dropped and made again, and the stream is resynced
        once subscribed), so that a version read afterwards misses no push."""
        channel = CHANNEL_PREFIX + topic
        async with self._lock:
            if topic in self.queues:
                self.queues[topic].add(queue)
            else:
                self.queues[topic] = {queue}
                if self._pubsub is not None:
                    await self._subscribe(self._pubsub, [channel])
                if self._reader is None:
                    self._reader = asyncio.create_task(self._read())
            pending = self._pending.get(channel)
            confirmed = pending[-1] if pending else None  # the latest SUBSCRIBE of the channel
            if confirmed is None and self._pubsub is None:  # (re)connecting: the next connection's
                confirmed = _later(self._pending.setdefault(channel, []))
        if confirmed is not None:
            try:
                await asyncio.wait_for(asyncio.shield(confirmed), REDIS_TIMEOUT)
            except TimeoutError:
                logger.warning("live bus: Redis has not confirmed the subscription to %s", topic)
                # the stream goes on without it: once subscribed, it re-reads the durable version
                self._owed.add(queue)
                confirmed.add_done_callback(lambda _: self._resync(channel, only=queue))
                await self._drop()

    async def remove(self, topic: str, queue: asyncio.Queue) -> None:
        channel = CHANNEL_PREFIX + topic
        async with self._lock:
            followers = self.queues.get(topic)
            if followers is None:
                return
            followers.discard(queue)
            self._owed.discard(queue)
            if followers:
                return
            del self.queues[topic]
            if self.queues:
                if self._pubsub is not None:
                    await self._send(self._pubsub, "UNSUBSCRIBE", channel)
                return
            reader, self._reader = self._reader, None  # nobody follows anything: close
            if reader is not None:
                reader.cancel()
                try:
                    await reader
                except (asyncio.CancelledError, Exception):  # noqa: BLE001 (stopped either way)
                    pass
            await self._close()
            self._pending, self._owed = {}, set()

    async def _subscribe(self, pubsub, channels: list[str]) -> None:
        """SUBSCRIBE ``channels`` on ``pubsub``, each awaited until its own confirmation (with the
        lock held: the order of the commands is the order of their futures)."""
        loop = asyncio.get_running_loop()
        for channel in channels:
            self._pending.setdefault(channel, []).append(loop.create_future())
        await self._send(pubsub, "SUBSCRIBE", *channels)

    async def _send(self, pubsub, command: str, *channels: str) -> None:
        """A (un)subscription on the live connection; a failure is the reader's to notice (it then
        connects again and subscribes to every topic followed)."""
        try:
            _still_connected(pubsub)
            if command == "SUBSCRIBE":
                await pubsub.subscribe(*channels)
            else:
                await pubsub.unsubscribe(*channels)
        except Exception as exc:  # noqa: BLE001 (any connection fault)
            logger.warning("live bus: could not %s %s (%s)", command.lower(), ", ".join(channels), exc)
            await self._drop()

    async def _drop(self) -> None:
        """Make the reader connect again: the live connection is closed under it, and its read fails."""
        connection = getattr(self._pubsub, "connection", None)
        if connection is not None:
            try:
                await connection.disconnect(nowait=True)
            except Exception:  # noqa: BLE001 (closed either way)
                pass

    async def _open(self):
        """A new connection, ready to subscribe (connected outside the lock: an unreachable Redis
        must not hold up the streams that need nothing from it)."""
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # no retry inside redis-py (even its first reconnection: no supported error): a dropped
        # connection is this hub's to make again, so that it resyncs its streams
        client = aioredis.Redis.from_url(self.url, socket_connect_timeout=REDIS_TIMEOUT,
                                         socket_timeout=REDIS_TIMEOUT, retry=Retry(NoBackoff(), 0, ()))
        pubsub = client.pubsub()
        try:
            await pubsub.connect()
        except BaseException:
            await client.aclose()
            raise
        # redis-py connects a closed connection again by itself when it is next used (outside its
        # retries), subscribed to nothing it was told of: refused, so that the reader makes its own
        pubsub.connection.register_connect_callback(self._no_reconnection)
        return client, pubsub

    async def _no_reconnection(self, connection) -> None:
        await connection.disconnect(nowait=True)
        raise ConnectionError("the hub's Redis connection closed; the hub makes a new one")

    async def _close(self) -> None:
        pubsub, client, self._pubsub, self._client = self._pubsub, self._client, None, None
        for closing in (pubsub, client):
            if closing is not None:
                try:
                    await closing.aclose()
                except Exception:  # noqa: BLE001 (a connection already gone)
                    pass

    async def _read(self) -> None:
        """Connect, subscribe, and hand each push to the queues of its topic; ping a silent
        connection; when it drops, connect again (backing off) and resync every stream."""
        failures = 0
        while True:
            try:
                client, pubsub = await self._open()
                try:
                    await self._lock.acquire()
                except BaseException:  # cancelled (the last stream left) before it was installed
                    await pubsub.aclose()
                    await client.aclose()
                    raise
                try:
                    self._client, self._pubsub = client, pubsub
                    self._connection_number += 1
                    number = self._connection_number
                    # the SUBSCRIBEs of the connection that dropped will never be confirmed: their
                    # streams wait for this one's instead, and are resynced then (failures)
                    waiting = self._pending
                    self._pending = {}
                    if self.queues:
                        await self._subscribe(pubsub, [CHANNEL_PREFIX + topic for topic in self.queues])
                    for channel, futures in waiting.items():
                        if channel in self._pending:
                            _confirm_with(self._pending[channel][-1], futures)
                    if failures:
                        logger.info("live bus: subscribing to %s topic(s) again", len(self.queues))
                        for channel, futures in self._pending.items():
                            futures[-1].add_done_callback(
                                lambda _, channel=channel, number=number: number == self._connection_number
                                and self._resync(channel))
                finally:
                    self._lock.release()
                failures = 0
                heard = time.monotonic()
                while True:
                    _still_connected(pubsub)
                    message = await pubsub.get_message(timeout=HUB_PING_SECONDS)
                    if message is not None:
                        heard = time.monotonic()
                        self._dispatch(message)
                    elif time.monotonic() - heard > HUB_SILENCE_SECONDS:
                        raise ConnectionError(f"no answer from Redis for {HUB_SILENCE_SECONDS} s")
                    else:
                        _still_connected(pubsub)
                        await pubsub.ping()  # its answer comes back as a message
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 (any connection fault: connect again)
                if not failures:
                    logger.warning("live bus: the Redis subscription dropped (%s); subscribing again", exc)
                async with self._lock:
                    await self._close()
                await asyncio.sleep(RESUBSCRIBE_DELAYS[min(failures, len(RESUBSCRIBE_DELAYS) - 1)])
                failures += 1

    def _resync(self, channel: str, only: asyncio.Queue | None = None) -> None:
        """RESYNC on the queues of ``channel``'s streams; ``only``: that one, if it is still owed one
        (a reconnection's resync, which comes first, pays it)."""
        for queue in self.queues.get(channel.removeprefix(CHANNEL_PREFIX), ()):
            if only is not None and (queue is not only or queue not in self._owed):
                continue
            queue.put_nowait(RESYNC)
            self._owed.discard(queue)

    def _dispatch(self, message: dict) -> None:
        if message["type"] not in ("message", "subscribe"):
            return  # a pong, an unsubscription
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        if message["type"] == "subscribe":
            pending = self._pending.get(channel)
            if pending:
                confirmed = pending.pop(0)
                if not pending:
                    del self._pending[channel]
                if not confirmed.done():
                    confirmed.set_result(None)
            return
        data = message["data"]
        data = data if isinstance(data, bytes) else str(data).encode()
        if self._own is not None and data.startswith(self._own):
            return  # this process's own push: its streams were handed it when it was published
        self.hand_out(channel.removeprefix(CHANNEL_PREFIX), Push.decode(data.rpartition(b"|")[2]))

    def hand_out(self, topic: str, push: Push) -> None:
        """``push`` on the queue of every stream of ``topic`` (on this hub's loop)."""
        for queue in self.queues.get(topic, ()):
            queue.put_nowait(push)


def _still_connected(pubsub) -> None:
    """Raise unless ``pubsub``'s connection is open (used, redis-py would silently open another)."""
    connection = pubsub.connection
    if connection is None or not connection.is_connected:
        raise ConnectionError("the hub's Redis connection closed")


def _later(futures: list[asyncio.Future]) -> asyncio.Future:
    """A future done when the next SUBSCRIBE of a channel is confirmed (``futures``: its list of
    pending ones, which the next connection's subscription will join)."""
    later = asyncio.get_running_loop().create_future()
    futures.append(later)
    return later


def _confirm_with(confirmed: asyncio.Future, futures: list[asyncio.Future]) -> None:
    """``futures`` done when ``confirmed`` is."""
    def done(_):
        for future in futures:
            if not future.done():
                future.set_result(None)
    confirmed.add_done_callback(done)


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
    seconds: until the loops of this process's subscribers have had their turn (the SSE streams
    have written them), with either backend (Redis carries them to the other processes). For a
    sync view that renders right after a commit (the render holds the GIL the event loop needs to
    write)."""
    get_backend().settle(timeout)


def subscribe(topic: str):
    """``async with subscribe(topic) as queue: version = await queue.get()``."""
    return get_backend().subscribe(topic)
