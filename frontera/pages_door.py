"""The pages door (``frontera/asgi.py``): Django's WSGI handler run in a fixed pool of threads, with
one hand-over from the event loop to a thread and one back per request.

a2wsgi, which ran this door before, streams both ways: its worker thread waited on the event loop
for the request's body, and again for each piece of the answer (its start, its body, its end), each
wait a wake-up of the loop and then of the thread. On two cores those waits took about 1.1 ms of
every answer, and the body's wait came before the view, so before an action's push (issue #11's
trace, in ``docs/benchmarks.md``, session 18). Here the loop reads the whole body first, the thread
runs the app and joins its answer, and the loop sends it.

What that costs, and its limits:
- A body is held in memory before a thread takes it: at most :data:`MAX_BODY` (Django's own limit
  for a request's form data), and a longer one is refused with 413 as soon as it is known to be
  longer (by its ``Content-Length``, or by what has arrived), without reading the rest. At most
  :data:`HELD_PER_THREAD` requests per thread are held at once; the others wait before their body
  is read, and uvicorn stops reading their sockets meanwhile (what a2wsgi's busy threads did).
- An answer is held whole before it is sent. Django's answers here are whole anyway; the only
  streamed ones are static files (WhiteNoise, each at most a few hundred KB: htmx and the admin's
  scripts are the largest) and the live streams, which take the other door. An export joins its
  rows (``tests/web/test_pages_door.py`` keeps ``StreamingHttpResponse`` out of every other module).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
from concurrent.futures import ThreadPoolExecutor

# Builds the WSGI environ (PEP 3333) from the ASGI scope, as a2wsgi's own middleware does. Not in
# a2wsgi's __all__: requirements/base.txt pins the version this was written against.
from a2wsgi.wsgi import build_environ

MAX_BODY = 2_621_440  # bytes: Django's DATA_UPLOAD_MAX_MEMORY_SIZE (the app takes no file uploads)
HELD_PER_THREAD = 4  # requests let in per worker thread: read, waiting for a thread, or answered
TOO_LARGE = object()
REFUSAL = b"Request body too large."


class PagesDoor:
    """An ASGI app serving a WSGI ``app`` from ``workers`` threads."""

    def __init__(self, app, workers: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pages")
        self.admitted = asyncio.Semaphore(workers * HELD_PER_THREAD)

    async def __call__(self, scope, receive, send) -> None:
        async with self.admitted:
            await self._serve(scope, receive, send)

    async def _serve(self, scope, receive, send) -> None:
        body = await self._body(scope, receive)
        if body is None:  # the client went away
            return
        if body is TOO_LARGE:
            await send({"type": "http.response.start", "status": 413, "headers": [
                (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(REFUSAL)).encode()),
                (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": REFUSAL})
            return
        environ = build_environ(scope, io.BytesIO(body))
        run = contextvars.copy_context().run
        status, headers, content = await asyncio.get_running_loop().run_in_executor(
            self.executor, run, self._answer, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    @staticmethod
    async def _body(scope, receive):
        """The request's whole body; ``None`` if the client went away; :data:`TOO_LARGE` as soon as
        it is known to be longer than :data:`MAX_BODY` (the rest is not read: the answer closes
        the connection)."""
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.strip().isdigit() and int(value) > MAX_BODY:
                return TOO_LARGE
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                return TOO_LARGE
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _answer(self, environ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """In a worker thread: the app's status, headers and whole body."""
        started: list = []
        chunks: list[bytes] = []

        def start_response(status: str, headers, exc_info=None):
            # nothing is sent before the app returns, so an error page may always replace the
            # answer begun (PEP 3333); a second call without exc_info is the app's mistake
            if started and exc_info is None:
                raise RuntimeError("start_response was called twice without exc_info")
            started[:] = [status, headers]
            return chunks.append  # the legacy ``write`` callable: its bytes come in order

        iterable = self.app(environ, start_response)
        try:
            chunks.extend(iterable)  # after what write() sent before, and among what it sends meanwhile
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (int(status.split(" ", 1)[0]),
                [(name.strip().lower().encode("latin1"), value.strip().encode("latin1")) for name, value in headers],
                b"".join(chunks))
