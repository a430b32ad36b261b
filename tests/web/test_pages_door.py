"""The pages door (frontera/pages_door.py): a WSGI app in a pool of threads, the request's body read
whole before the app runs, and the answer sent in one start and one body message."""

import asyncio
import threading

import pytest

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
        incoming = list(messages)

        async def receive():
            return incoming.pop(0) if incoming else {"type": "http.disconnect"}

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
        seen["thread"] = threading.current_thread().name
        start_response("201 Created", [("Content-Type", "text/html; charset=utf-8"), ("Set-Cookie", "a=1")])
        return [b"<p>", b"hola", b"</p>"]

    sent = serve(app, [{"type": "http.request", "body": b"trait=", "more_body": True},
                       {"type": "http.request", "body": b"manos", "more_body": False}])

    assert seen == {"body": b"trait=manos", "method": "POST", "path": "/sesiones/1/pruebas/",
                    "query": "fragment=checks", "htmx": "true", "thread": seen["thread"]}
    assert seen["thread"].startswith("pages")  # a worker of the pool, not the event loop's thread
    assert sent == [
        {"type": "http.response.start", "status": 201,
         "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"set-cookie", b"a=1")]},
        {"type": "http.response.body", "body": b"<p>hola</p>"},
    ]


def test_what_the_app_writes_comes_before_what_it_returns_and_its_iterable_is_closed():
    closed = []

    class Answer:
        def __iter__(self):
            yield b" returned"

        def close(self):
            closed.append(True)

    def app(environ, start_response):
        write = start_response("200 OK", [])
        write(b"written")
        return Answer()

    sent = serve(app, [{"type": "http.request", "body": b""}])
    assert sent[1] == {"type": "http.response.body", "body": b"written returned"}
    assert closed == [True]


def test_a_body_too_large_is_refused_before_the_app_sees_it(monkeypatch):
    monkeypatch.setattr(pages_door, "MAX_BODY", 10)
    called = []

    def app(environ, start_response):
        called.append(True)
        start_response("200 OK", [])
        return [b""]

    sent = serve(app, [{"type": "http.request", "body": b"0123456", "more_body": True},
                       {"type": "http.request", "body": b"789ab", "more_body": False}])
    assert called == []
    assert sent[0]["status"] == 413


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
