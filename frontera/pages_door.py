"""The pages door (``frontera/asgi.py``): Django's WSGI handler run in a fixed pool of threads, with
one hand-over from the event loop to a thread and one back per request.

a2wsgi, which ran this door before, streams both ways: its worker thread waited on the event loop
for the request's body, and again for each piece of the answer (its start, its body, its end), each
wait a wake-up of the loop and then of the thread. On two cores those waits took about 1.1 ms of
every answer, and the body's wait came before the view, so before an action's push (issue #11's
trace, in ``docs/benchmarks.md``, session 18). Here the loop reads the whole body first (a form: a
body over :data:`MAX_BODY` is refused with 413 before the app sees it), the thread runs the app
and joins its answer, and the loop sends it. No answer of this door streams (the live streams take
the other door); one that did would be sent when whole. a2wsgi still builds the WSGI environ.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
from concurrent.futures import ThreadPoolExecutor

from a2wsgi.wsgi import build_environ

MAX_BODY = 10 * 1024 * 1024  # bytes: more than any form of the app (Django's own limit is 2.5 MB)
TOO_LARGE = object()


class PagesDoor:
    """An ASGI app serving a WSGI ``app`` from ``workers`` threads."""

    def __init__(self, app, workers: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pages")

    async def __call__(self, scope, receive, send) -> None:
        body = await self._body(receive)
        if body is None:  # the client went away
            return
        if body is TOO_LARGE:
            await send({"type": "http.response.start", "status": 413,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
            await send({"type": "http.response.body", "body": b"Request body too large."})
            return
        environ = build_environ(scope, io.BytesIO(body))
        run = contextvars.copy_context().run
        status, headers, content = await asyncio.get_running_loop().run_in_executor(
            self.executor, run, self._answer, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    @staticmethod
    async def _body(receive):
        """The request's whole body; ``None`` if the client went away. Past :data:`MAX_BODY` the rest
        is read and dropped, and :data:`TOO_LARGE` comes back (the answer is 413)."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size <= MAX_BODY:
                chunks.append(chunk)
            else:
                chunks.clear()
            if not message.get("more_body", False):
                return b"".join(chunks) if size <= MAX_BODY else TOO_LARGE

    def _answer(self, environ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """In a worker thread: the app's status, headers and whole body."""
        started: list = []
        written: list[bytes] = []

        def start_response(status: str, headers, exc_info=None):
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return written.append  # the legacy ``write`` callable

        iterable = self.app(environ, start_response)
        try:
            content = b"".join([*written, *iterable])
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (int(status.split(" ", 1)[0]),
                [(name.strip().lower().encode("latin1"), value.strip().encode("latin1")) for name, value in headers],
                content)
