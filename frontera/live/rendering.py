"""The pages' regions sent with a push, rendered in a process of their own (issue #11).

A session page's stream is sent the regions a push names, rendered for its viewer
(:mod:`frontera.live.views`, :mod:`frontera.play.views.pushed`). Rendering them is CPU work in
Python: in the server's own process it held the GIL against the request that made the push (the
Mayor's view rendering its answer at the same moment) and every other request, so at twelve phones
the server sat on one core while the machine's other cores idled (``bench/session_bench.py
--streams page``: the uvicorn process at 93-105 % of a core, the bench's at 1-8 %).

Here a push's pages are rendered by a pool of worker processes (``LIVE_RENDER_PROCESSES``, one by
default; ``0`` renders them in the server's threads, as before). Each worker is a Django process of
the same settings, started fresh (``spawn``: nothing of the server's threads, connections or event
loop is copied into it). It is sent what the rendering needs of each stream's request
(:func:`describe`: its headers, cookies, language, session key and user, never a card), rebuilds
the request from it (:func:`rebuilt`) and renders the pages as a thread would, checking each
viewer's log-in and membership again. Its sessions and users are read from the database every time
(:func:`_start_worker`): the embedded default keeps them in the serving process's memory, which a
worker does not share, and a log-out there must stop the next rendering here.

A worker that dies (killed, out of memory) breaks the pool: the pushes it was rendering are sent to
their streams as notices (the pages fetch their regions), the failure is logged, and the next push
starts a new pool. A worker whose server has gone away exits.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.http import HttpRequest, QueryDict
from django.middleware.csrf import get_token

logger = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def processes() -> int:
    """How many worker processes render the pushed regions; 0: the server's threads do."""
    return max(0, int(getattr(settings, "LIVE_RENDER_PROCESSES", 0)))


def pool() -> ProcessPoolExecutor:
    """The worker processes, started at the first use (a page stream's opening starts them:
    :func:`warm`, so that the first push does not wait for a new process to import Django)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=processes(), mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_start_worker, initargs=(os.getpid(),))
        return _pool


def forget(broken: ProcessPoolExecutor) -> None:
    """A pool that broke (a worker died) is dropped, and another started at once (the next push
    does not wait for its processes to import Django)."""
    global _pool
    with _pool_lock:
        if _pool is not broken:
            return
        _pool = None
    logger.error("live render workers: a worker process stopped; starting new ones")
    broken.shutdown(wait=False, cancel_futures=True)
    warm()


def warm() -> None:
    """Start the worker processes now, if they render and have not started (the server does at its
    start, :mod:`frontera.asgi`, and a page stream's opening again if a pool broke)."""
    if processes() and _pool is None:
        executor = pool()
        for _ in range(processes()):
            executor.submit(_ready)


def _ready() -> bool:
    return True


def describe(request, user_id: int) -> dict:
    """What a worker needs of a stream's ``request`` to render its page as the server would: plain
    values only (its headers and the environment's strings, cookies, query, language, session key,
    and ``user_id``: the stream's user, whose log-in the rendering checks again). Called on the event
    loop: nothing here reads the database. The CSRF secret is fixed first (as a rendering of a form
    would, once, for the stream's request), so that every worker renders the same page's forms
    with it."""
    get_token(request)
    return {
        "meta": {key: value for key, value in request.META.items() if isinstance(value, str | int | float | bool)},
        "path": request.path,
        "path_info": request.path_info,
        "query": request.GET.urlencode(),
        "cookies": dict(request.COOKIES),
        "scheme": request.scheme,
        "language": getattr(request, "LANGUAGE_CODE", None),
        "session_key": request.session.session_key,
        "user_id": user_id,
    }


class _PushedRequest(HttpRequest):
    """A stream's request, rebuilt in a worker from :func:`describe`'s values."""

    def __init__(self, spec: dict) -> None:
        super().__init__()
        self.method = "GET"
        self.path, self.path_info = spec["path"], spec["path_info"]
        self.META = dict(spec["meta"])
        self.GET = QueryDict(spec["query"])
        self.COOKIES = dict(spec["cookies"])
        self._scheme = spec["scheme"]
        if spec["language"]:
            self.LANGUAGE_CODE = spec["language"]
        self.session = import_module(settings.SESSION_ENGINE).SessionStore(spec["session_key"])
        # the stream's user by id only: the rendering reads the user afresh and compares
        self.user = SimpleNamespace(pk=spec["user_id"], is_authenticated=True)

    def _get_scheme(self) -> str:
        return self._scheme


def rebuilt(spec: dict) -> HttpRequest:
    return _PushedRequest(spec)


def _start_worker(server_pid: int) -> None:
    """A worker's start: Django set up with the server's settings (inherited environment), its
    sessions and users read from the database (not from this process's memory, which the server's
    log-outs never reach), and a watch that ends it if its server is gone."""
    import django

    django.setup()
    settings.SESSION_ENGINE = "frontera.accounts.sessions"
    settings.USER_CACHE_ALIAS = None
    from django.template.loader import get_template
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (the views and URLs imported now, as the server does: frontera/asgi.py)
    for name in ("play/dashboard.html", "play/phone.html"):  # compiled now, not in the first push
        get_template(name)
    threading.Thread(target=_watch_server, args=(server_pid,), name="live-render-watch", daemon=True).start()


def _watch_server(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(1)
    os._exit(0)


def render_pages(topic: str, specs: list[dict], regions: list[tuple[str, ...]]) -> list:
    """In a worker: each stream's page of ``topic`` rendered for its ``regions`` (what
    ``topics.renderer(topic)`` gives for it: ``(regions, html, version)``), or ``None`` where it
    could not be (its viewer may not see it now, or its rendering failed: logged here); the page
    then fetches them."""
    from django.db import close_old_connections, connection

    from frontera.live import topics

    close_old_connections()
    try:
        try:
            pages = topics.renderer(topic)([rebuilt(spec) for spec in specs], regions)
        except Exception:
            logger.exception("live render worker: the pages of a push to %s could not be rendered", topic)
            return [None] * len(specs)
        results = []
        for page in pages:
            try:
                results.append(page())
            except Exception:
                logger.exception("live render worker: a page of a push to %s could not be rendered", topic)
                results.append(None)
        return results
    finally:
        connection.close_if_unusable_or_obsolete()
