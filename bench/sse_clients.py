"""The benches' SSE clients: every stream in one process of its own, on one asyncio event loop.

The push figures compare our server with the boardgame.io peer, whose socket.io clients share one
node event loop. Ours were one thread each inside the bench's own process: on 2 cores, each
``changed`` woke 8 to 13 threads that took turns at the bench's GIL beside the bench's main thread,
and that queue (up to ~3.5 ms at p95, measured in session 6) was counted as our push. Here the
streams are read by one loop in a separate process, as the peer's clients are; each event is
stamped with ``time.perf_counter()`` (CLOCK_MONOTONIC, the same clock in every process of the
machine) when its ``event: changed`` line is read, then sent to the bench over a pipe.

    clients = SseClients(base_url, [(path, cookies), ...])   # starts the process, waits for every hello
    clients.events[i]                                        # [(arrival, version), ...] of stream i
    clients.close()
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import time


async def _stream(index: int, base: str, path: str, cookies: dict, conn, ready: asyncio.Queue) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=base, cookies=cookies, timeout=None) as http:
        async with http.stream("GET", path) as response:
            version = 0
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    version = int(line[4:])
                elif line.startswith("event: hello"):
                    ready.put_nowait(index)
                elif line.startswith("event: changed"):
                    conn.send((index, time.perf_counter(), version))


async def _main(base: str, streams: list, conn) -> None:
    ready: asyncio.Queue = asyncio.Queue()
    tasks = [asyncio.create_task(_stream(i, base, path, cookies, conn, ready))
             for i, (path, cookies) in enumerate(streams)]
    for _ in streams:
        await ready.get()
    conn.send(("ready",))
    await asyncio.gather(*tasks, return_exceptions=True)  # until the server stops or we are killed


def _run(base: str, streams: list, conn) -> None:
    asyncio.run(_main(base, streams, conn))


class SseClients:
    """``streams``: ``(path, cookies)`` each; ``news`` (optional) is notified at each event."""

    def __init__(self, base: str, streams: list[tuple[str, dict]], news: threading.Condition | None = None,
                 timeout: float = 15.0):
        self.events: list[list[tuple[float, int]]] = [[] for _ in streams]
        self.news = news or threading.Condition()
        mine, theirs = multiprocessing.Pipe(duplex=False)
        self._conn = mine
        self._process = multiprocessing.get_context("spawn").Process(
            target=_run, args=(base, [(p, dict(c)) for p, c in streams], theirs), daemon=True)
        self._process.start()
        theirs.close()
        if not mine.poll(timeout) or mine.recv() != ("ready",):
            self.close()
            raise RuntimeError("an SSE client never got its hello")
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            while True:
                index, arrival, version = self._conn.recv()
                with self.news:
                    self.events[index].append((arrival, version))
                    self.news.notify_all()
        except (EOFError, OSError):
            return

    def close(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(5)
        self._conn.close()
