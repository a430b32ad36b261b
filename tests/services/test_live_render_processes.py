"""Issue #11: the regions sent with a push are rendered in the server's render worker process
(frontera/live/rendering.py), as deployed: a real uvicorn server on the embedded settings (no Redis:
its sessions and users kept in its own memory, which the worker does not share), PostgreSQL."""

import json
import os
import queue
import re
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest
from django.db import connection
from django.test import Client

from frontera.play.models import Participant
from tests.factories import make_table
from tests.servers import AppServer

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _db_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def server(transactional_db):
    ARTIFACTS.mkdir(exist_ok=True)
    env = {"DATABASE_URL": _db_url(), "REDIS_URL": "", "DEBUG": "false", "LIVE_RENDER_PROCESSES": "1"}
    app = AppServer(env, ARTIFACTS / "server-render-processes.log")
    try:
        yield app.start()
    finally:
        app.stop()


def _workers(server) -> list[int]:
    """The server's render worker processes (its children started by multiprocessing's spawn)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if parent == server.process.pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


class _Stream:
    """A session page's stream (``?page=1``) read in a thread, one message at a time."""

    def __init__(self, server, cookies: dict, session_id: int) -> None:
        self.messages: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        url = f"{server.url}/live/session:{session_id}/?page=1"
        self._thread = threading.Thread(target=self._read, args=(url, cookies), daemon=True)
        self._thread.start()
        assert self.next()["event"] == "hello"

    def _read(self, url: str, cookies: dict) -> None:
        try:
            with httpx.Client(cookies=cookies, timeout=httpx.Timeout(5, read=60)) as client:
                with client.stream("GET", url) as response:
                    message: dict = {}
                    for line in response.iter_lines():
                        if self._stop.is_set():
                            return
                        if not line:
                            if "event" in message:
                                self.messages.put(message)
                            message = {}
                        elif line.startswith("event: "):
                            message["event"] = line[7:]
                        elif line.startswith("data: "):
                            message["data"] = json.loads(line[6:])
        except httpx.HTTPError as error:  # the server stops under us at the end of the test
            self.messages.put({"event": "closed", "data": repr(error)})

    def next(self, timeout: float = 15) -> dict:
        return self.messages.get(timeout=timeout)

    def close(self) -> None:
        self._stop.set()


def _logged_in(user) -> dict:
    client = Client()
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value}


def _http(server, cookies: dict, session) -> httpx.Client:
    http = httpx.Client(base_url=server.url, cookies=cookies, timeout=15)
    assert http.get(f"/sesiones/{session.pk}/").status_code == 200  # (its CSRF cookie)
    return http


def _call(http: httpx.Client, session, hero, n: int) -> None:
    response = http.post(f"/sesiones/{session.pk}/pruebas/", data={
        "characters": [str(hero.pk)], "trait": "manos", "modifier": 0, "request_key": f"render-{n}",
        "csrfmiddlewaretoken": http.cookies["csrftoken"]}, headers={"HX-Request": "true"})
    assert response.status_code == 200, response.text[:300]


def test_a_push_is_rendered_by_the_worker_for_each_viewer_and_a_log_out_stops_it(server):
    """Two phones' pages open when the Mayor calls a check on the first player's character: each
    gets its own regions from the render worker (the first its draw, the second the table, not the
    first's check's controls). The first player logs out (through the server, whose memory kept their
    session): at the next call their stream is told "changed" (their page's request will be refused),
    the second still gets their regions."""
    session, mayor, seated, _minions = make_table(players=2, minions=0)
    (p1, hero1), (p2, hero2) = seated
    assert len(_workers(server)) == 1  # started with the server (frontera/asgi.py)
    mayor_http = _http(server, _logged_in(mayor), session)
    p1_cookies, p2_cookies = _logged_in(p1), _logged_in(p2)
    first, second = _Stream(server, p1_cookies, session.pk), _Stream(server, p2_cookies, session.pk)
    try:
        _call(mayor_http, session, hero1, 1)
        participant = Participant.objects.get(prueba__session=session, character=hero1)
        draw = f"/participantes/{participant.pk}/robar/"
        to_first, to_second = first.next(), second.next()
        assert to_first["event"] == "regions" and "checks" in to_first["data"]["regions"]
        assert draw in to_first["data"]["html"]
        assert to_second["event"] == "regions" and "table" in to_second["data"]["regions"]
        assert draw not in to_second["data"]["html"]

        p1_http = _http(server, p1_cookies, session)
        out = p1_http.post("/cuentas/salir/", data={"csrfmiddlewaretoken": p1_http.cookies["csrftoken"]})
        assert out.status_code == 302
        assert p1_http.get(f"/sesiones/{session.pk}/").status_code == 302  # to the log-in page
        _call(mayor_http, session, hero2, 2)
        to_first, to_second = first.next(), second.next()
        assert to_first["event"] == "changed" and "html" not in to_first["data"]
        assert to_second["event"] == "regions"
        assert re.search(r"/participantes/\d+/robar/", to_second["data"]["html"])
    finally:
        first.close()
        second.close()


def test_a_killed_worker_costs_one_push_its_regions_and_a_new_one_renders_the_next(server):
    """The render worker is killed: the next push reaches the page as a notice (it fetches its
    regions), the server logs it and starts another worker, which renders the pushes after."""
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    ((player, hero),) = seated
    mayor_http = _http(server, _logged_in(mayor), session)
    stream = _Stream(server, _logged_in(player), session.pk)
    try:
        _call(mayor_http, session, hero, 1)
        assert stream.next()["event"] == "regions"
        (worker,) = _workers(server)
        os.kill(worker, signal.SIGKILL)
        time.sleep(0.5)
        _call(mayor_http, session, hero, 2)
        assert stream.next()["event"] == "changed"
        deadline, n, sent = time.monotonic() + 60, 3, []
        while time.monotonic() < deadline:  # a new worker: its first pushes may wait for it to start
            _call(mayor_http, session, hero, n)
            sent.append(stream.next()["event"])
            if sent[-1] == "regions":
                break
            n += 1
            time.sleep(1)
        assert sent[-1] == "regions", sent
        assert _workers(server) and worker not in _workers(server)
        assert "a worker process stopped" in Path(server.log_path).read_text()
    finally:
        stream.close()
