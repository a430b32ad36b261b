"""The Redis live bus shares one subscription among a process's streams (issue #11).

Each stream used to hold a Redis connection of its own: at 12 players, Redis sent every push 13
times and each stream parsed it again, and the push took twice as long as the in-process bus's.
Now each event loop has one connection (``frontera.live.bus._RedisHub``), subscribed to the topics
its streams follow, which hands each push to all of them. On a private redis-server, so that its
connections and channels are this test's alone.
"""

import asyncio
import contextlib
import time

import pytest
import redis

from frontera.live import bus
from tests.services.test_live_faults import private_redis  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("private_redis")


@pytest.fixture
def backend(private_redis, settings):  # noqa: F811 (the fixture imported above)
    settings.REDIS_URL = private_redis.url
    settings.LIVE_BUS_BACKEND = "redis"
    bus.reset_backend()
    yield bus.get_backend()
    bus.reset_backend()


def _subscribers(url: str) -> list[dict]:
    """The connections of ``url``'s Redis that are subscribed to something."""
    return [c for c in redis.Redis.from_url(url).client_list() if int(c.get("sub", 0)) > 0]


def _channels(url: str) -> dict[str, int]:
    client = redis.Redis.from_url(url)
    names = [c.decode() for c in client.pubsub_channels(bus.CHANNEL_PREFIX + "*")]
    counts = client.pubsub_numsub(*names) if names else []
    return {name.decode().removeprefix(bus.CHANNEL_PREFIX): count for name, count in counts}


async def _following(stack: contextlib.AsyncExitStack, backend, topics: list[str]) -> list[asyncio.Queue]:
    """A stream's subscription to each of ``topics``, held until ``stack`` closes: their queues."""
    return [await stack.enter_async_context(backend.subscribe(topic)) for topic in topics]


async def _get(queue: asyncio.Queue):
    return await asyncio.wait_for(queue.get(), 3)


def _elsewhere(topic: str, version: int, regions=None, actor=None) -> None:
    """Publish as another process would: through Redis only (this process hands its own pushes to
    its own streams without Redis, so a test of the subscription publishes from elsewhere)."""
    from django.conf import settings

    bus.RedisBackend(settings.REDIS_URL).publish(topic, bus.Push(version, regions, actor))


def test_many_streams_of_a_process_share_one_redis_connection(backend, private_redis):  # noqa: F811
    """Thirteen streams of one topic and two of another: one subscribed connection, each topic's
    channel subscribed once, and each push reaches every stream of its topic and no other."""

    async def scenario():
        async with contextlib.AsyncExitStack() as stack:
            queues = await _following(stack, backend, ["session:1"] * 13 + ["session:2"] * 2)
            seen = (len(_subscribers(private_redis.url)), _channels(private_redis.url))
            await asyncio.to_thread(_elsewhere, "session:1", 7, ["checks"], 3)
            first = [await _get(q) for q in queues[:13]]
            await asyncio.to_thread(_elsewhere, "session:2", 8)
            second = [await _get(q) for q in queues[13:]]
            others_empty = all(q.empty() for q in queues)
        return seen, first, second, others_empty

    (connections, channels), first, second, others_empty = asyncio.run(scenario())
    assert connections == 1
    assert channels == {"session:1": 1, "session:2": 1}
    assert first == [7] * 13 and all(p.regions == ("checks",) and p.actor == 3 for p in first)
    assert second == [8, 8]
    assert others_empty, "a push reached a stream of another topic"


def test_a_topic_is_unsubscribed_with_its_last_stream_and_the_connection_closed_with_the_last_topic(
    backend, private_redis  # noqa: F811
):
    async def scenario():
        seen = []
        async with backend.subscribe("session:2") as other:
            async with backend.subscribe("session:1"), backend.subscribe("session:1"):
                seen.append(_channels(private_redis.url))
            await asyncio.sleep(0.2)  # the UNSUBSCRIBE is sent as the last stream leaves
            seen.append(_channels(private_redis.url))
            await asyncio.to_thread(_elsewhere, "session:2", 9)
            seen.append(await _get(other))
        seen.append(len(_subscribers(private_redis.url)))
        return seen

    both, after, pushed, connections = asyncio.run(scenario())
    assert both == {"session:1": 1, "session:2": 1}
    assert after == {"session:2": 1}
    assert pushed == 9
    assert connections == 0, "the hub's connection outlived its last stream"


def test_a_push_published_as_soon_as_the_subscription_returns_is_not_missed(backend):
    """The subscription returns once Redis has confirmed it: a stream reads its version after it,
    and a push published right then must reach it (else it would wait for a keep-alive)."""

    async def scenario():
        got = []
        for version in range(1, 21):
            async with backend.subscribe(f"session:{version}") as queue:
                await asyncio.to_thread(_elsewhere, f"session:{version}", version)
                got.append(await _get(queue))
        return got

    assert asyncio.run(scenario()) == list(range(1, 21))


def test_a_dropped_connection_is_made_again_and_every_stream_told_to_resync(backend, private_redis):  # noqa: F811
    """Redis drops the hub's connection (``CLIENT KILL``): it connects again, subscribes to every
    topic followed, and puts RESYNC on every stream's queue (a push may have been missed); the
    pushes that follow arrive as before."""

    async def scenario():
        async with contextlib.AsyncExitStack() as stack:
            queues = await _following(stack, backend, ["session:1", "session:1", "session:2"])
            killed = redis.Redis.from_url(private_redis.url).client_kill_filter(_type="pubsub")
            resyncs = [await _get(q) for q in queues]
            await asyncio.to_thread(_elsewhere, "session:1", 11)
            await asyncio.to_thread(_elsewhere, "session:2", 12)
            after = [await _get(q) for q in queues]
            return killed, resyncs, after, _channels(private_redis.url)

    killed, resyncs, after, channels = asyncio.run(scenario())
    assert killed == 1
    assert resyncs == [bus.RESYNC] * 3
    assert after == [11, 11, 12]
    assert channels == {"session:1": 1, "session:2": 1}


def test_a_stream_opened_while_redis_is_away_is_resynced_once_it_is_back(backend, private_redis, monkeypatch):  # noqa: F811
    """Redis stopped when a page opens its stream: the stream opens all the same (after waiting
    ``REDIS_TIMEOUT`` for the subscription), is told to resync once Redis is back (a push may have
    been missed), and is sent the pushes that follow."""
    monkeypatch.setattr(bus, "REDIS_TIMEOUT", 0.3)
    private_redis.stop()

    async def scenario():
        async with backend.subscribe("session:1") as queue:
            await asyncio.to_thread(private_redis.start)
            resync = await asyncio.wait_for(queue.get(), 10)
            await asyncio.to_thread(_elsewhere, "session:1", 5)
            return resync, await _get(queue)

    assert asyncio.run(scenario()) == (bus.RESYNC, 5)


def test_a_stream_closed_while_it_subscribes_leaves_nothing_behind(backend, private_redis, monkeypatch):  # noqa: F811
    """A page closed while its stream waits for Redis (away): its queue is dropped, and with it the
    hub's connection attempts."""
    private_redis.stop()

    async def scenario():
        async def stream():
            async with backend.subscribe("session:1"):
                await asyncio.sleep(60)

        task = asyncio.create_task(stream())
        await asyncio.sleep(0.2)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        hub = backend._hub()
        return hub.queues, hub._reader, backend.has_local_subscribers("session:1")

    assert asyncio.run(scenario()) == ({}, None, False)


def test_a_publisher_settles_once_its_process_streams_hold_the_push(backend):
    """A request's thread publishes after its commit, then waits (``settle``) until this process's
    streams have been handed the push, before it renders its answer and takes the GIL from the loop
    that writes them; as long as that takes, and no longer than it is allowed."""
    import threading
    import time

    ready, held = threading.Event(), []
    loop = asyncio.new_event_loop()

    async def stream():
        async with backend.subscribe("session:1") as queue:
            ready.set()
            held.append((await queue.get(), time.monotonic()))

    thread = threading.Thread(target=lambda: loop.run_until_complete(stream()))
    thread.start()
    try:
        assert ready.wait(5)
        bus.publish("session:1", 21, ["checks"], 1)
        bus.settle(5.0)
        settled = time.monotonic()
        assert held and held[0][0] == 21 and held[0][1] <= settled, "settle returned before the stream held the push"
        started = time.monotonic()
        bus.publish("session:2", 22)  # nobody follows it here: nothing to wait for
        bus.settle(5.0)
        assert time.monotonic() - started < 1.0
    finally:
        thread.join(5)
        loop.close()


class _Proxy:
    """A TCP proxy in front of a Redis, on this test's event loop: what it forwards towards Redis
    arrives ``delay`` seconds later (a distant Redis; the order kept), and the links open so far can
    be frozen (kept open, nothing forwarded: a network partition, a crashed host), new links
    forwarding as usual."""

    def __init__(self, port: int, delay: float = 0.0) -> None:
        self.upstream, self.delay, self.links, self.tasks = port, delay, [], []

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/0"

    async def _link(self, reader, writer) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        link = {"frozen": False, "writers": (writer, up_writer)}
        self.links.append(link)
        due: asyncio.Queue = asyncio.Queue()

        async def take(source):
            while data := await source.read(65536):
                due.put_nowait((time.monotonic() + self.delay, data))
            due.put_nowait((0, b""))

        async def give(sink):
            with contextlib.suppress(Exception):
                while (item := await due.get())[1]:
                    await asyncio.sleep(max(0.0, item[0] - time.monotonic()))
                    while link["frozen"]:
                        await asyncio.sleep(0.05)
                    sink.write(item[1])
                    await sink.drain()
            sink.close()

        async def back():
            with contextlib.suppress(Exception):
                while data := await up_reader.read(65536):
                    while link["frozen"]:
                        await asyncio.sleep(0.05)
                    writer.write(data)
                    await writer.drain()
            writer.close()

        self.tasks += [asyncio.create_task(take(reader)), asyncio.create_task(give(up_writer)),
                       asyncio.create_task(back())]

    def freeze(self) -> None:
        for link in self.links:
            link["frozen"] = True

    def cut(self, newest_only: bool = False) -> None:
        """Close the links open so far (or the newest), both ways: Redis went away from them."""
        for link in self.links[-1:] if newest_only else self.links:
            for writer in link["writers"]:
                writer.close()


def test_a_silent_connection_is_noticed_and_made_again(backend, private_redis, monkeypatch):  # noqa: F811
    """The hub's link goes dead without a word (nothing forwarded, nothing closed): the hub pings
    it, hears nothing, connects again and resyncs its streams; the pushes that follow arrive."""
    monkeypatch.setattr(bus, "HUB_PING_SECONDS", 0.2)
    monkeypatch.setattr(bus, "HUB_SILENCE_SECONDS", 0.6)

    async def scenario():
        proxy = _Proxy(private_redis.port)
        backend.url = await proxy.start()
        async with backend.subscribe("session:1") as queue:
            proxy.freeze()
            resync = await asyncio.wait_for(queue.get(), 5)
            await asyncio.to_thread(_elsewhere, "session:1", 31)
            return resync, await _get(queue)

    assert asyncio.run(scenario()) == (bus.RESYNC, 31)


def test_a_subscription_waits_for_its_own_confirmation_not_an_earlier_one(backend, private_redis):  # noqa: F811
    """A page's stream closes while its SUBSCRIBE is on its way to a distant Redis, and another opens
    on the same topic soon after: the second returns only once Redis has confirmed its own SUBSCRIBE
    (not the first's, answered before the UNSUBSCRIBE that followed it), so a push published then
    reaches it."""

    async def scenario():
        proxy = _Proxy(private_redis.port)
        backend.url = await proxy.start()
        async with backend.subscribe("session:2"):  # the hub's connection, already made
            proxy.delay = 0.1  # from here on, 100 ms to Redis
            first = asyncio.create_task(backend.subscribe("session:1").__aenter__())
            await asyncio.sleep(0.01)  # its SUBSCRIBE is on its way
            first.cancel()  # the UNSUBSCRIBE follows it
            with contextlib.suppress(asyncio.CancelledError):
                await first
            await asyncio.sleep(0.05)
            async with backend.subscribe("session:1") as queue:
                await asyncio.sleep(0.02)  # the stream reads its version; a commit publishes
                receivers = await asyncio.to_thread(
                    redis.Redis.from_url(private_redis.url).publish, bus.CHANNEL_PREFIX + "session:1", b"41")
                return receivers, await _get(queue)

    assert asyncio.run(scenario()) == (1, 41)


def test_a_connection_lost_as_the_hub_subscribes_again_is_made_anew(backend, private_redis, monkeypatch):  # noqa: F811
    """The hub's connection drops, and the new one drops too, right as the hub subscribes on it:
    redis-py would open a third by itself, subscribed to nothing (pings answered, pushes never
    sent); the hub refuses it and makes its own, resyncs its streams, and the pushes come again."""
    opened, proxies = [], []
    real_open = bus._RedisHub._open

    async def open_then_lose_the_second(hub):
        client, pubsub = await real_open(hub)
        opened.append(pubsub)
        if len(opened) == 2:
            proxies[0].cut(newest_only=True)
            await asyncio.sleep(0.1)  # the close reaches the hub's side
        return client, pubsub

    monkeypatch.setattr(bus._RedisHub, "_open", open_then_lose_the_second)

    async def scenario():
        proxy = _Proxy(private_redis.port)
        proxies.append(proxy)
        backend.url = await proxy.start()
        async with backend.subscribe("session:1") as queue:
            proxy.cut()
            resync = await asyncio.wait_for(queue.get(), 5)
            await asyncio.to_thread(_elsewhere, "session:1", 51)
            return resync, await _get(queue), len(opened), _channels(private_redis.url)

    assert asyncio.run(scenario()) == (bus.RESYNC, 51, 3, {"session:1": 1})


def test_a_process_hands_its_own_pushes_to_its_streams_once_and_redis_carries_the_others(
    backend, private_redis  # noqa: F811
):
    """A push published here reaches this process's streams without Redis (a publish Redis never
    carries still reaches them), once (the copy Redis sends back, marked as this process's, is
    dropped), and reaches a stream of another process through Redis; a push of another process
    (another backend, or a bare version) reaches this process's streams through Redis."""
    other = bus.RedisBackend(private_redis.url)  # another process's bus

    async def scenario():
        async with backend.subscribe("session:1") as here, other.subscribe("session:1") as there:
            client = backend._sync_client()
            carried = client.publish
            client.publish = lambda channel, message: 0  # Redis loses this one
            await asyncio.to_thread(backend.publish, "session:1", bus.Push(60, ["board"]))
            client.publish = carried
            lost = await _get(here)
            await asyncio.to_thread(backend.publish, "session:1", bus.Push(61, ["checks"], 4))
            mine, theirs = await _get(here), await _get(there)
            await asyncio.to_thread(other.publish, "session:1", bus.Push(62, ["feed"]))
            await asyncio.to_thread(redis.Redis.from_url(private_redis.url).publish,
                                    bus.CHANNEL_PREFIX + "session:1", b"63")
            later = [await _get(here), await _get(here), await _get(there), await _get(there)]
            await asyncio.sleep(0.2)  # a copy of 61 sent back by Redis would have arrived by now
            return lost, mine, theirs, later, here.empty(), there.empty()

    lost, mine, theirs, later, here_empty, there_empty = asyncio.run(scenario())
    assert (lost, lost.regions) == (60, ("board",))
    assert (mine, mine.regions, mine.actor) == (61, ("checks",), 4)
    assert (theirs, theirs.regions, theirs.actor) == (61, ("checks",), 4)
    assert later == [62, 63, 62, 63]
    assert later[0].regions == ("feed",) and later[1].regions is None
    assert here_empty and there_empty, "a push reached a stream twice"


def test_with_redis_away_this_process_streams_still_get_its_pushes(backend, private_redis):  # noqa: F811
    """Redis stops: a push published here still reaches this process's streams at once (the
    publish to the other processes fails, and the caller logs it)."""

    async def scenario():
        async with backend.subscribe("session:1") as queue:
            await asyncio.to_thread(private_redis.stop)
            try:
                await asyncio.to_thread(bus.publish, "session:1", 71)
            except redis.ConnectionError:
                failed = True
            else:
                failed = False
            got = await _get(queue)
            while got == bus.RESYNC:  # (the hub noticed the drop first)
                got = await _get(queue)
            return failed, got

    assert asyncio.run(scenario()) == (True, 71)
