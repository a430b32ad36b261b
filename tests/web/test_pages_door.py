"""The pages door (frontera/pages_door.py): a WSGI app in a pool of threads, the request's body read
whole before the app runs, and the answer sent in one start and one body message."""

import ast
import asyncio
import threading
from pathlib import Path

import pytest
from django.core.wsgi import get_wsgi_application

from frontera import pages_door
from frontera.pages_door import PagesDoor

SCOPE = {
    "type": "http", "http_version": "1.1", "method": "POST", "scheme": "http", "path": "/sesiones/1/pruebas/",
    "raw_path": b"/sesiones/1/pruebas/", "root_path": "", "query_string": b"fragment=checks",
    "headers": [(b"host", b"testserver"), (b"content-type", b"application/x-www-form-urlencoded"),
                (b"content-length", b"11"), (b"hx-request", b"true")],
    "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
}


def serve(app, messages, scope=SCOPE):
    """Run ``app`` behind the door for one request whose body comes as ``messages``: what was sent."""
    sent = []

    async def scenario():
        async def receive():  # takes from ``messages`` itself: a test sees what was left unread
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        door = PagesDoor(app, workers=2)
        try:
            await door(scope, receive, send)
        finally:
            door.executor.shutdown()

    asyncio.run(scenario())
    return sent


def test_the_body_reaches_the_app_whole_and_the_answer_leaves_in_two_messages():
    seen = {}

    def app(environ, start_response):
        seen["body"] = environ["wsgi.input"].read()
        seen["method"], seen["path"] = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        seen["query"], seen["htmx"] = environ["QUERY_STRING"], environ["HTTP_HX_REQUEST"]
        seen["thread"] = threading.current_thread().name.startswith("pages")  # a worker of the pool
        start_response("201 Created", [("Content-Type", "text/html; charset=utf-8"), ("Set-Cookie", "a=1")])
        return [b"<p>", b"hola", b"</p>"]

    sent = serve(app, [{"type": "http.request", "body": b"trait=", "more_body": True},
                       {"type": "http.request", "body": b"manos", "more_body": False}])

    assert seen == {"body": b"trait=manos", "method": "POST", "path": "/sesiones/1/pruebas/",
                    "query": "fragment=checks", "htmx": "true", "thread": True}
    assert sent == [
        {"type": "http.response.start", "status": 201,
         "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"set-cookie", b"a=1")]},
        {"type": "http.response.body", "body": b"<p>hola</p>"},
    ]


def test_what_the_app_writes_and_returns_comes_in_its_order_and_its_iterable_is_closed():
    closed = []

    def app(environ, start_response):
        write = start_response("200 OK", [])
        write(b"written")

        class Answer:
            def __iter__(self):
                yield b", returned"
                write(b", written while returning")
                yield b", returned last"

            def close(self):
                closed.append(True)

        return Answer()

    sent = serve(app, [{"type": "http.request", "body": b""}])
    assert sent[1] == {"type": "http.response.body",
                       "body": b"written, returned, written while returning, returned last"}
    assert closed == [True]


def test_an_error_page_begun_after_the_answer_replaces_it():
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html")])
        try:
            raise ValueError("while rendering")
        except ValueError as err:
            start_response("500 Internal Server Error", [("Content-Type", "text/plain")], (type(err), err, None))
        return [b"sorry"]

    sent = serve(app, [{"type": "http.request", "body": b""}])
    assert sent[0]["status"] == 500 and sent[0]["headers"] == [(b"content-type", b"text/plain")]
    assert sent[1]["body"] == b"sorry"


def test_starting_an_answer_twice_without_an_error_is_the_app_s_mistake():
    def app(environ, start_response):
        start_response("200 OK", [])
        start_response("201 Created", [])
        return [b""]

    with pytest.raises(RuntimeError, match="twice"):
        serve(app, [{"type": "http.request", "body": b""}])


def test_a_body_too_large_is_refused_before_the_app_sees_it_and_the_rest_is_not_read(monkeypatch):
    monkeypatch.setattr(pages_door, "MAX_BODY", 10)
    called = []

    def app(environ, start_response):
        called.append(True)
        start_response("200 OK", [])
        return [b""]

    unread = {"type": "http.request", "body": b"never read", "more_body": False}
    messages = [{"type": "http.request", "body": b"0123456", "more_body": True},
                {"type": "http.request", "body": b"789ab", "more_body": True}, unread]
    scope = {**SCOPE, "headers": [h for h in SCOPE["headers"] if h[0] != b"content-length"]}  # chunked
    sent = serve(app, messages, scope)
    assert called == []
    assert sent[0]["status"] == 413 and (b"connection", b"close") in sent[0]["headers"]
    assert sent[1]["body"] == b"Request body too large."
    assert messages == [unread]  # what came after the limit was passed was left to the server


def test_a_body_announced_too_large_is_refused_before_any_of_it_is_read(monkeypatch):
    monkeypatch.setattr(pages_door, "MAX_BODY", 10)
    messages = [{"type": "http.request", "body": b"0123456789ab", "more_body": False}]
    scope = {**SCOPE, "headers": [(b"content-length", b"12")]}
    sent = serve(lambda environ, start_response: pytest.fail("the app ran"), messages, scope)
    assert sent[0]["status"] == 413 and len(messages) == 1  # nothing was received


def test_a_client_gone_before_its_body_ends_runs_nothing_and_gets_nothing():
    called = []

    def app(environ, start_response):
        called.append(True)
        start_response("200 OK", [])
        return [b""]

    sent = serve(app, [{"type": "http.request", "body": b"trait=", "more_body": True}])  # then a disconnect
    assert called == [] and sent == []


def test_an_error_the_app_lets_out_reaches_the_server():
    def app(environ, start_response):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        serve(app, [{"type": "http.request", "body": b""}])


def test_django_s_own_answer_goes_through_the_door():
    """The login page through Django's WSGI handler, as uvicorn gets it."""
    scope = {**SCOPE, "method": "GET", "path": "/cuentas/entrar/", "raw_path": b"/cuentas/entrar/",
             "query_string": b"", "headers": [(b"host", b"testserver"), (b"accept-language", b"es")]}
    sent = serve(get_wsgi_application(), [{"type": "http.request", "body": b""}], scope)
    start, body = sent
    headers = dict(start["headers"])
    assert start["status"] == 200 and headers[b"content-type"] == b"text/html; charset=utf-8"
    assert int(headers[b"content-length"]) == len(body["body"]) and b"<form" in body["body"]


def test_no_answer_but_the_live_streams_is_streamed():
    """Every answer of the pages door is held whole before it is sent: a streamed one (say an
    export) belongs with the live streams, whose door streams (frontera/asgi.py)."""
    root = Path(__file__).resolve().parents[2]
    streaming = [path.relative_to(root).as_posix() for package in ("frontera", "cardgames")
                 for path in (root / package).rglob("*.py")
                 if _uses_streaming_responses(path.read_text(encoding="utf-8"))]
    assert streaming == ["frontera/live/views.py"]


def _uses_streaming_responses(source: str) -> bool:
    """Whether the code (not its prose) names Django's streamed answers: imports, calls or
    subclasses ``StreamingHttpResponse`` or ``FileResponse``."""
    names = {"StreamingHttpResponse", "FileResponse"}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and node.id in names or isinstance(node, ast.Attribute) and node.attr in names:
            return True
        if isinstance(node, ast.ImportFrom) and any(alias.name in names for alias in node.names):
            return True
    return False


def test_no_more_requests_are_held_than_the_threads_can_take_in_turn(monkeypatch):
    """workers × HELD_PER_THREAD requests at most have their body read and wait for a thread; the
    next one is not read until one of them has been answered."""
    monkeypatch.setattr(pages_door, "HELD_PER_THREAD", 2)
    release = threading.Event()
    read = []

    def app(environ, start_response):
        release.wait(5)
        start_response("200 OK", [])
        return [b""]

    async def scenario():
        door = PagesDoor(app, workers=1)  # 2 requests at most

        def request(n):
            async def receive():
                read.append(n)
                return {"type": "http.request", "body": b""}

            async def send(message):
                pass

            return door(SCOPE | {"headers": []}, receive, send)

        tasks = [asyncio.create_task(request(n)) for n in range(3)]
        for _ in range(20):
            await asyncio.sleep(0.01)
        held = list(read)
        release.set()
        await asyncio.gather(*tasks)
        door.executor.shutdown()
        return held

    assert asyncio.run(scenario()) == [0, 1]  # the third waited: its body was not read
    assert read == [0, 1, 2]
