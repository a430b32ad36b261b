"""The pages door collects the young garbage only when no page request is running any more, after
the last one has been answered (frontera/idle_gc.py)."""

import asyncio
import gc

from frontera.idle_gc import CollectWhenIdle


def _middle_generation_not_due(monkeypatch):
    """Young garbage only, whatever this process's collector counts now (gc.collect is replaced in
    these tests, so the real middle generation's count may stand at its threshold)."""
    monkeypatch.setattr(gc, "get_count", lambda: (5, 0, 0))


def test_the_young_garbage_is_collected_once_the_last_running_page_is_answered(monkeypatch):
    collected, log = [], []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    _middle_generation_not_due(monkeypatch)

    async def scenario():
        released = {name: asyncio.Event() for name in ("first", "second")}

        async def page(scope, receive, send):
            await released[scope["path"]].wait()
            log.append(f"{scope['path']} answered")

        door = CollectWhenIdle(page)

        async def turns(n=3):
            for _ in range(n):
                await asyncio.sleep(0)

        first = asyncio.create_task(door({"path": "first"}, None, None))
        second = asyncio.create_task(door({"path": "second"}, None, None))
        await turns()
        released["first"].set()
        await turns()
        assert log == ["first answered"] and collected == []  # the second is still running
        released["second"].set()
        await asyncio.gather(first, second)
        await turns()
        assert collected == [0]

    asyncio.run(scenario())


def test_a_request_that_arrives_before_the_collection_s_turn_puts_it_off(monkeypatch):
    collected = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    _middle_generation_not_due(monkeypatch)

    async def scenario():
        go_on = asyncio.Event()

        async def page(scope, receive, send):
            if scope["path"] == "slow":
                await go_on.wait()

        door = CollectWhenIdle(page)
        slow = asyncio.create_task(door({"path": "slow"}, None, None))  # ready to start...
        await door({"path": "quick"}, None, None)  # ...when this one's collection is queued behind it
        for _ in range(3):
            await asyncio.sleep(0)
        assert collected == []
        go_on.set()
        await slow
        for _ in range(3):
            await asyncio.sleep(0)
        assert collected == [0]

    asyncio.run(scenario())


def test_the_middle_generation_is_collected_too_when_it_is_due(monkeypatch):
    collected = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    threshold = gc.get_threshold()
    monkeypatch.setattr(gc, "get_count", lambda: (5, threshold[1], 0))

    async def scenario():
        async def page(scope, receive, send):
            return None

        await CollectWhenIdle(page)({"path": "/"}, None, None)
        await asyncio.sleep(0)

    asyncio.run(scenario())
    assert collected == [1]
