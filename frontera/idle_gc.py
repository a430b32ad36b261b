"""Out-of-band garbage collection for the pages door (``frontera/asgi.py``): the young generation is
collected when the last running page request has been answered, rather than in the middle of
whichever request's allocations pass the collector's threshold.

Why (issue #13's push, measured in ``docs/benchmarks.md``): every request leaves a few hundred
objects in reference cycles (Django's template contexts and request objects point back at
themselves), which only the cyclic collector frees. With CPython's default threshold a young
collection of ~0.56 ms ran every few requests, often between a move's request and its commit and
push; the push's p95 carried it. Collected while the pages are idle, each collection is small
(~0.1 ms: one or two requests' garbage) and the next request starts with an empty young
generation. CPython's own collections stay on: under a steady load the pages are never idle, and
then nothing changes. Unicorn's "out-of-band GC" is the same idea for a process per request.
"""

import asyncio
import gc


class CollectWhenIdle:
    """Wrap an ASGI app (run on one event loop): when no request of it is running any more, the
    loop's next turn collects the young generation (and the middle one when it is due)."""

    def __init__(self, app) -> None:
        self.app = app
        self.running = 0  # changed on the event loop's thread only: no lock

    async def __call__(self, scope, receive, send) -> None:
        self.running += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.running -= 1
            if self.running == 0:
                # its next turn: what is ready before (a request just arrived) goes first
                asyncio.get_running_loop().call_soon(self.collect)

    def collect(self) -> None:
        if self.running == 0:
            gc.collect(1 if gc.get_count()[1] >= gc.get_threshold()[1] else 0)
