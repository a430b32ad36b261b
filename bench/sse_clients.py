"""The benches' SSE clients: every stream in one process of its own, on one asyncio event loop.

The push figures compare our server with the boardgame.io peer, whose socket.io clients share one
node event loop. Ours were one thread each inside the bench's own process: on 2 cores, each
``changed`` woke 8 to 13 threads that took turns at the bench's GIL beside the bench's main thread,
and that queue (up to ~3.5 ms at p95, measured in session 6) was counted as our push. Here the
streams are read by one loop in a separate process, as the peer's clients are.

Each stream is a plain socket (an asyncio protocol, ``GET`` as HTTP/1.0: h11 sends the bare stream
and closes it at its end, httptools chunks it anyway, and the chunks are undone here): an event is stamped with ``time.perf_counter()`` (CLOCK_MONOTONIC, the same clock in
every process of the machine) as its bytes are handed over; parsing and the pipe write to the bench
wait for the loop's next turn, after every stream the same wake-up made readable is stamped. Until session 7 each stream was an httpx stream read
line by line, and the parsing and the pipe write of the first streams were counted in the arrival
of the last (docs/benchmarks.md, session 7: 0.3-0.6 ms of the 8th client's p50).

    clients = SseClients(base_url, [(path, cookies), ...])   # starts the process, waits for every hello
    clients.close()                                          # the process hands its events over
    clients.events[i]                                        # [(arrival, version), ...] of stream i

An event is a ``changed`` notice (stamped as its first line comes) or the regions a session page's
stream sends with a push (``?page=1``; stamped once its data line, the regions' HTML, has come whole).
A stream given ``(path, cookies, (page path, page regions))`` behaves as a session page did before
session 22: on each notice it fetches the regions it names that its page has (``?regions=a,b``),
and the event is stamped once that answer has come whole.

With ``news`` (a condition a bench waits on) each event is handed over as it comes, through a pipe
to a reader thread of the bench's. Without it the client process keeps its events and hands them
all over at :meth:`SseClients.close`, as the peer's clients keep theirs in their own process: on 2
cores the pipe's write and the bench's reader thread woken for each of the 13 streams took a core
from the client loop, whose stamps for the streams it had not read yet then came one scheduler slice
(~3 ms) late (session 15: in the slowest pushes the server had written all 13 streams 0.47 ms after
the commit, and 6 of the 13 were stamped 3 ms after the other 7).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import threading
import time
from urllib.parse import urlsplit


class _Chunks:
    """Undoes a chunked body as it comes: :meth:`feed` takes the bytes read and returns the body's
    bytes among them (a chunk's data as soon as it comes, before the chunk is whole)."""

    def __init__(self) -> None:
        self.raw, self.left, self.ended = b"", 0, False  # left: data bytes still due in this chunk

    def feed(self, data: bytes) -> bytes:
        self.raw += data
        body = []
        while self.raw and not self.ended:
            if self.left > 0:
                taken, self.raw = self.raw[:self.left], self.raw[self.left:]
                self.left -= len(taken)
                body.append(taken)
                if self.left > 0:
                    break
                self.left = -2  # the chunk's closing CRLF is due
            if self.left == -2:
                if len(self.raw) < 2:
                    break
                self.raw, self.left = self.raw[2:], 0
                continue
            line, found, rest = self.raw.partition(b"\r\n")
            if not found:
                break
            size = int(line.split(b";")[0], 16)
            self.raw, self.left = rest, size
            self.ended = size == 0
        return b"".join(body)


class _Stream(asyncio.Protocol):
    """One stream, read straight off its socket. ``data_received`` only stamps and keeps the bytes;
    they are parsed, and the events handed to the bench, in the loop's next turn, after every stream
    that the same wake-up made readable has been stamped."""

    def __init__(self, index: int, conn, ready: asyncio.Queue, kept: list | None, refetch=None) -> None:
        self.index, self.conn, self.ready, self.kept = index, conn, ready, kept
        self.refetch, self.notice = refetch, False  # (host, port, cookie, page path, its regions) or None
        self.buffer, self.version, self.headers_read, self.regions = b"", 0, False, False
        self.chunks: _Chunks | None = None  # the body's chunked framing, if the server chunks it
        self.arrivals: list[tuple[float, bytes]] = []
        self.transport = None
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if not self.arrivals:
            asyncio.get_running_loop().call_soon(self._parse)
        self.arrivals.append((time.perf_counter(), data))

    def _parse(self) -> None:
        arrivals, self.arrivals = self.arrivals, []
        for arrival, data in arrivals:
            if not self.headers_read:
                self.buffer += data
                head, found, rest = self.buffer.partition(b"\r\n\r\n")
                if not found:
                    continue
                status, *headers = head.decode("latin-1").lower().split("\r\n")
                if status.split()[1:2] != ["200"]:  # a log-in redirect: not a stream
                    self.conn.send(("error", f"stream {self.index}: {status!r}, headers {headers}"))
                    self.transport.close()
                    return
                self.headers_read, self.buffer = True, b""
                if "transfer-encoding: chunked" in headers:
                    self.chunks = _Chunks()
                data = rest
            self.buffer += data if self.chunks is None else self.chunks.feed(data)
            *lines, self.buffer = self.buffer.split(b"\n")
            for line in lines:
                if line.startswith(b"id: "):
                    self.version = int(line[4:])
                elif line.startswith(b"event: hello"):
                    self.ready.put_nowait(self.index)
                elif line.startswith(b"event: changed"):  # a notice: held as its first line comes
                    if self.refetch is None:
                        self._held(arrival, self.version)
                    else:
                        self.notice = True
                elif line.startswith(b"event: regions"):
                    self.regions = True
                elif line.startswith(b"data: ") and self.regions:  # the regions sent with a push: held whole
                    self.regions = False
                    self._held(arrival, self.version)
                elif line.startswith(b"data: ") and self.notice:  # a page's notice: it fetches the regions
                    self.notice = False
                    named = json.loads(line[6:]).get("regions")
                    mine = self.refetch[4]
                    wanted = sorted(mine if named is None else set(named) & mine)
                    if wanted:
                        asyncio.get_running_loop().create_task(self._fetch(wanted, self.version))
                    else:
                        self._held(arrival, self.version)

    async def _fetch(self, regions: list[str], version: int) -> None:
        """What a session page did on a notice before session 22: one request for the regions it
        names (``?regions=a,b``, as htmx sends it), held once its answer has come whole. A connection
        of its own, closed by the server (HTTP/1.0), where a browser keeps one open."""
        host, port, cookie, page, _mine = self.refetch
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET {page}?regions={','.join(regions)} HTTP/1.0\r\nHost: {host}:{port}\r\n"
                     f"HX-Request: true\r\nCookie: {cookie}\r\n\r\n".encode())
        answer = await reader.read()
        arrival = time.perf_counter()
        writer.close()
        if b" 200 " not in answer.split(b"\r\n", 1)[0]:
            self.conn.send(("error", f"stream {self.index}: a refetch answered {answer[:80]!r}"))
            return
        self._held(arrival, version)

    def _held(self, arrival: float, version: int) -> None:
        if self.kept is None:
            self.conn.send((self.index, arrival, version))
        else:
            self.kept.append((self.index, arrival, version))

    def connection_lost(self, exc) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


async def _stream(index: int, base: str, path: str, cookies: dict, conn, ready: asyncio.Queue,
                  kept: list | None, refetch=None) -> None:
    """``GET path`` as HTTP/1.0, so the server frames the stream by closing it (or chunks it anyway).
    ``refetch``: ``(the page's path, its regions)``, to fetch them on each notice as a page did."""
    url = urlsplit(base)
    loop = asyncio.get_running_loop()
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    fetching = (url.hostname, url.port, cookie, refetch[0], set(refetch[1])) if refetch else None
    transport, stream = await loop.create_connection(lambda: _Stream(index, conn, ready, kept, fetching),
                                                     url.hostname, url.port)
    transport.write(f"GET {path} HTTP/1.0\r\nHost: {url.netloc}\r\nAccept: text/event-stream\r\n"
                    f"Cookie: {cookie}\r\n\r\n".encode())
    await stream.closed


async def _main(base: str, streams: list, conn, live: bool) -> None:
    ready: asyncio.Queue = asyncio.Queue()
    kept = None if live else []
    tasks = [asyncio.create_task(_stream(i, base, path, cookies, conn, ready, kept, *rest))
             for i, (path, cookies, *rest) in enumerate(streams)]
    for _ in streams:
        await ready.get()
    conn.send(("ready",))
    if live:
        await asyncio.gather(*tasks, return_exceptions=True)  # until the server stops or we are killed
        return
    # a thread of the loop's waits, blocked, for the bench's word; then every event is handed over
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    conn.send(("events", kept))


def _run(base: str, streams: list, conn, live: bool) -> None:
    asyncio.run(_main(base, streams, conn, live))


class SseClients:
    """``streams``: ``(path, cookies)`` each; ``news`` (optional) is notified at each event, as it
    comes; without it, the events are there after :meth:`close`."""

    def __init__(self, base: str, streams: list[tuple], news: threading.Condition | None = None,
                 timeout: float = 15.0):
        self.events: list[list[tuple[float, int]]] = [[] for _ in streams]
        self.live = news is not None
        self.news = news or threading.Condition()
        mine, theirs = multiprocessing.Pipe(duplex=not self.live)
        self._conn = mine
        self._process = multiprocessing.get_context("spawn").Process(
            target=_run, args=(base, [(p, dict(c), *rest) for p, c, *rest in streams], theirs, self.live),
            daemon=True)
        self._process.start()
        theirs.close()
        answer = mine.recv() if mine.poll(timeout) else None
        if answer != ("ready",):
            self._stop()
            raise RuntimeError(answer[1] if answer and answer[0] == "error" else "an SSE client never got its hello")
        if self.live:
            threading.Thread(target=self._read, daemon=True).start()

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
        answer = ("events", []) if self.live else None
        if not self.live and self._process.is_alive():
            try:
                self._conn.send(("close",))
                answer = self._conn.recv() if self._conn.poll(15) else None
            except (EOFError, OSError):
                pass
        self._stop()
        if not answer or answer[0] != "events":
            raise RuntimeError("the SSE clients' process never handed its events over")
        for index, arrival, version in answer[1]:
            self.events[index].append((arrival, version))

    def _stop(self) -> None:
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(5)
        self._conn.close()
