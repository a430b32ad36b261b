"""The live bus and its SSE endpoint: no secrets, versions, catch-up, keep-alive, headers."""

import asyncio
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from frontera.campaigns import services
from frontera.campaigns.selectors import campaign_version
from frontera.live import bus
from frontera.live.build import build_id
from frontera.live.views import event_stream
from tests.factories import make_campaign, make_user


def test_memory_bus_delivers_to_subscribers_of_that_topic_only():
    async def scenario():
        backend = bus.MemoryBackend()
        async with backend.subscribe("campaign:1") as one, backend.subscribe("campaign:2") as two:
            await asyncio.to_thread(backend.publish, "campaign:1", 7)  # publishers may be other threads
            assert await asyncio.wait_for(one.get(), 1) == 7
            assert two.empty()
        assert not backend._subscribers

    asyncio.run(scenario())


def test_a_request_thread_lets_the_push_out_first_when_streams_here_listen(monkeypatch, settings):
    """Issues #11, #13: after a committed publish, a request's thread settles (at most
    LIVE_PUSH_FIRST_SECONDS) so this process's event loop writes the streams before the answer is
    rendered; not when no stream of that topic listens here, and never on the loop's own thread."""
    settings.LIVE_PUSH_FIRST_SECONDS = 0.005
    backend = bus.MemoryBackend()
    monkeypatch.setattr(bus, "get_backend", lambda: backend)
    settled = []
    real_settle = backend.settle
    monkeypatch.setattr(backend, "settle", lambda timeout: (settled.append(timeout), real_settle(timeout)))

    async def scenario():
        async with backend.subscribe("session:1") as queue:
            await asyncio.to_thread(bus._publish_committed, "session:1", 5)  # a request's thread
            assert settled == [0.005]
            assert queue.get_nowait() == 5
            await asyncio.to_thread(bus._publish_committed, "session:2", 6)  # nobody listens to it here
            assert settled == [0.005]
            bus._publish_committed("session:1", 7)  # the loop's own thread never waits on itself
            assert await asyncio.wait_for(queue.get(), 1) == 7
            assert settled == [0.005]

    asyncio.run(scenario())
    bus._publish_committed("session:1", 8)  # the stream has closed: nobody to let out
    assert settled == [0.005]


def _subscriber_thread(backend, topic, got, block=0.0):
    """A subscriber of ``topic`` on its own event loop in a thread (as the server's streams are);
    ``block``: its loop is then busy for that long before it can take anything."""
    ready = threading.Event()

    async def subscriber():
        async with backend.subscribe(topic) as queue:
            ready.set()
            time.sleep(block)  # the loop blocked (a blocking call holds it)
            got.append(await queue.get())

    thread = threading.Thread(target=asyncio.run, args=(subscriber(),), daemon=True)
    thread.start()
    assert ready.wait(2)
    return thread


def test_memory_bus_settle_returns_once_the_subscribers_loop_has_taken_the_push():
    """Issue #13: the move view settles before it renders, so the SSE streams write first."""
    backend, got = bus.MemoryBackend(), []
    thread = _subscriber_thread(backend, "table:1", got, block=0.05)
    backend.publish("table:1", 3)
    assert got == []
    backend.settle(2)
    assert got == [3], "the subscriber ran in its loop's turn, before settle returned"
    thread.join(2)
    started = time.monotonic()
    backend.settle(2)  # nothing published since: nothing to wait for
    assert time.monotonic() - started < 0.05


def test_memory_bus_settle_waits_no_longer_than_its_timeout():
    backend, got = bus.MemoryBackend(), []
    thread = _subscriber_thread(backend, "table:1", got, block=0.5)
    backend.publish("table:1", 3)
    started = time.monotonic()
    backend.settle(0.05)
    assert 0.04 <= time.monotonic() - started < 0.3 and got == []
    thread.join(2)
    assert got == [3]


async def _first_chunks(response, n):
    chunks = []
    iterator = response.streaming_content.__aiter__()
    for _ in range(n):
        chunk = await asyncio.wait_for(iterator.__anext__(), 2)
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
    await iterator.aclose()
    return chunks


@pytest.mark.django_db(transaction=True)
def test_sse_headers_and_hello_with_current_version():
    campaign = make_campaign()
    client = AsyncClient()

    async def scenario():
        await sync_to_async(client.force_login)(campaign.mayor)
        response = await client.get(reverse("live_stream", args=[f"campaign:{campaign.pk}"]))
        assert response["Content-Type"] == "text/event-stream"
        assert response["X-Accel-Buffering"] == "no"
        assert set(response["Cache-Control"].split(", ")) == {"no-cache", "no-store"}  # issue #11: never stored
        return await _first_chunks(response, 2)

    chunks = asyncio.run(scenario())
    version = campaign_version(campaign.pk)
    assert chunks[1] == (f'id: {version}\nevent: hello\ndata: {{"topic": "campaign:{campaign.pk}", "version": {version}, '
                         f'"build": "{build_id()}"}}\n\n')  # the build of the pages: frontera/live/build.py


@pytest.mark.django_db(transaction=True)
def test_sse_client_behind_is_told_to_refresh_at_once():
    campaign = make_campaign()
    behind = campaign_version(campaign.pk)
    services.invite_create(campaign=campaign, by=campaign.mayor)
    client = AsyncClient()

    async def scenario(headers):
        await sync_to_async(client.force_login)(campaign.mayor)
        response = await client.get(reverse("live_stream", args=[f"campaign:{campaign.pk}"]), headers=headers)
        return await _first_chunks(response, 2)

    assert "event: changed" in asyncio.run(scenario({"Last-Event-ID": str(behind)}))[1]
    current = campaign_version(campaign.pk)
    assert "event: hello" in asyncio.run(scenario({"Last-Event-ID": str(current)}))[1]


@pytest.mark.django_db(transaction=True)
def test_event_stream_sends_changes_and_keepalives(settings):
    campaign = make_campaign()
    topic = f"campaign:{campaign.pk}"
    version = campaign_version(campaign.pk)

    async def scenario():
        stream = event_stream(topic, version, keepalive=0.05)
        assert (await stream.__anext__()).startswith("retry:")
        assert "event: hello" in await stream.__anext__()
        assert await stream.__anext__() == ": keep-alive\n\n"
        await asyncio.to_thread(bus.publish, topic, version + 5)
        message = await asyncio.wait_for(stream.__anext__(), 1)
        await stream.aclose()
        return message

    message = asyncio.run(scenario())
    assert message.startswith(f"id: {version + 5}\nevent: changed\n")
    assert "data: " in message and "campaign" in message
    # A message carries only topic and version: nothing else to leak.
    assert set(eval(message.split("data: ", 1)[1])) == {"topic", "version"}  # noqa: S307


@pytest.mark.django_db
def test_sse_refuses_outsiders_and_unknown_topics(client):
    campaign = make_campaign()
    client.force_login(make_user())
    for topic in (f"campaign:{campaign.pk}", "campaign:999999", "nothing:1", "campaign:x"):
        assert client.get(reverse("live_stream", args=[topic])).status_code == 404
    client.logout()
    assert client.get(reverse("live_stream", args=[f"campaign:{campaign.pk}"])).status_code == 404


@pytest.mark.django_db
def test_services_publish_after_commit_only(django_capture_on_commit_callbacks, monkeypatch):
    published = []
    monkeypatch.setattr(bus, "publish", lambda topic, version: published.append((topic, version)))
    campaign = make_campaign()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.invite_create(campaign=campaign, by=campaign.mayor)
    assert published == []
    for callback in callbacks:
        callback()
    assert published == [(f"campaign:{campaign.pk}", campaign_version(campaign.pk))]


@pytest.mark.django_db(transaction=True)
def test_a_missed_publish_is_healed_at_the_next_keepalive(monkeypatch):
    """Issue #11: a change committed while the bus could not publish reaches an open stream at its
    next keep-alive tick, from the durable version; the action itself did not fail."""
    campaign = make_campaign()
    topic = f"campaign:{campaign.pk}"
    version = campaign_version(campaign.pk)

    def bus_down(*_args):
        raise ConnectionError("Redis is away")

    async def scenario():
        stream = event_stream(topic, version, keepalive=0.05)
        assert (await stream.__anext__()).startswith("retry:")
        assert "event: hello" in await stream.__anext__()
        monkeypatch.setattr(bus, "publish", bus_down)
        await sync_to_async(services.invite_create)(campaign=campaign, by=campaign.mayor)  # commits
        message = await asyncio.wait_for(stream.__anext__(), 2)
        await stream.aclose()
        return message

    message = asyncio.run(scenario())
    assert message.startswith(f"id: {campaign_version(campaign.pk)}\nevent: changed\n")
    assert campaign_version(campaign.pk) > version
