"""The live bus: ``publish(topic, version)`` and subscriptions for the SSE endpoint.

A message says only "this topic changed, it is now at version N": never a secret, so every browser
refetches the fragments it may see. Versions come from durable logs, so a client that missed a
message catches up on reconnect. Backends: an in-process broadcaster by default (one server
process); Redis pub/sub when ``REDIS_URL`` is set (several processes). At-most-once is enough.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from django.conf import settings
from django.db import transaction

CHANNEL_PREFIX = "frontera:live:"


class MemoryBackend:
    """Subscribers are asyncio queues on their own loops; publishers may be any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]]] = defaultdict(set)

    def publish(self, topic: str, version: int) -> None:
        with self._lock:
            targets = list(self._subscribers.get(topic, ()))
        for loop, queue in targets:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, version)
            except RuntimeError:  # that loop has closed; its subscriber is going away
                pass

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

    def _sync_client(self):
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(self.url)
        return self._client

    def publish(self, topic: str, version: int) -> None:
        self._sync_client().publish(CHANNEL_PREFIX + topic, str(version))

    @asynccontextmanager
    async def subscribe(self, topic: str) -> AsyncIterator[asyncio.Queue]:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(self.url)
        pubsub = client.pubsub()
        await pubsub.subscribe(CHANNEL_PREFIX + topic)
        queue: asyncio.Queue = asyncio.Queue()

        async def pump() -> None:
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    queue.put_nowait(int(message["data"]))

        task = asyncio.create_task(pump())
        try:
            yield queue
        finally:
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


def publish(topic: str, version: int) -> None:
    """Tell every subscriber of ``topic`` that it is now at ``version``."""
    get_backend().publish(topic, int(version))


def publish_on_commit(topic: str, version: int) -> None:
    """Publish once the current transaction commits (services call this, never views)."""
    transaction.on_commit(lambda: publish(topic, version))


def subscribe(topic: str):
    """``async with subscribe(topic) as queue: version = await queue.get()``."""
    return get_backend().subscribe(topic)
