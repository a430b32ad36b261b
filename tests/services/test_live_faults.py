"""The live loop survives Redis faults, and pages that show cards are never stored (issue #11).

Each fault was found by a probe: an action that committed answered 500 when Redis was down; a
stream open across a Redis restart never delivered another change; pages, fragments and exports
that show cards carried no ``Cache-Control: no-store``.
"""

import logging
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import redis
from django.conf import settings
from django.test import Client
from django.urls import reverse

from frontera.campaigns.models import CampaignEvent
from frontera.campaigns.services import campaign_log
from frontera.live import bus
from frontera.play.models import Check
from tests.factories import make_campaign, make_table
from tests.servers import ROOT, AppServer, free_port
from tests.services.test_live_across_processes import _db_url

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


@pytest.fixture
def redis_nowhere(settings):
    """The live bus on Redis at an address where nothing listens (Redis stopped)."""
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    settings.LIVE_BUS_BACKEND = "redis"
    bus.reset_backend()
    yield settings.REDIS_URL
    bus.reset_backend()


@pytest.mark.django_db(transaction=True)
def test_an_action_that_committed_answers_as_a_success_with_redis_down(redis_nowhere, caplog):
    """With Redis stopped, the Mayor's call of a check commits, answers as a success (not 500), and
    the missed publish is logged; clients catch up from the durable version (next test)."""
    session, mayor, players, _minions = make_table(players=1)
    _player, hero = players[0]
    client = Client()
    client.force_login(mayor)
    with caplog.at_level(logging.WARNING):
        response = client.post(
            reverse("play_check_new", args=[session.pk]),
            {"characters": [str(hero.pk)], "trait": "musculo", "skill": "", "difficulty": "", "modifier": "0",
             "label": "Saltar la valla", "request_key": "k-redis-down"},
        )
    assert response.status_code == 302
    assert Check.objects.filter(session=session, request_key="k-redis-down").count() == 1
    assert any(f"session:{session.pk}" in record.getMessage() for record in caplog.records), caplog.text


class RedisProcess:
    """A private redis-server on a free port, which a test may stop and start again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis.Redis(port=self.port, socket_timeout=1).ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture
def private_redis():
    server = RedisProcess()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _listen_versions(url: str, cookies: dict, events: queue.Queue, stop: threading.Event) -> None:
    """Like the cross-process listener, but keeps each event's version (its ``id:`` line)."""
    try:
        with (httpx.Client(cookies=cookies, timeout=httpx.Timeout(5, read=90)) as client,
              client.stream("GET", url) as response):
            events.put(("status", response.status_code))
            version = None
            for line in response.iter_lines():
                if stop.is_set():
                    return
                if line.startswith("id: "):
                    version = int(line[4:])
                elif line.startswith("event: "):
                    events.put((line[7:], version))
        events.put(("ended", None))  # the server ended the stream
    except httpx.HTTPError as exc:  # the server stops under us at the end of the test
        events.put(("closed", repr(exc)))


def _next_changed(events: queue.Queue, timeout: float) -> int:
    kind, version = events.get(timeout=timeout)
    assert kind == "changed", (kind, version)
    return version


def test_a_stream_open_across_a_redis_restart_delivers_what_it_missed_and_what_follows(
    transactional_db, private_redis, settings, caplog
):
    """A stream stays subscribed across a Redis restart: once Redis is back it tells the client
    the version committed while Redis was down (whose publish failed, was logged, and did not fail
    the action), and the next change committed after the restart arrives as before. The keep-alive
    is long (60 s), so nothing but the resubscription can deliver them in time."""
    ARTIFACTS.mkdir(exist_ok=True)
    settings.REDIS_URL = private_redis.url  # this process publishes to the same private Redis
    settings.LIVE_BUS_BACKEND = "redis"
    bus.reset_backend()
    campaign = make_campaign(name="Reinicio de Redis")
    server = AppServer(
        {"DATABASE_URL": _db_url(), "REDIS_URL": private_redis.url, "DEBUG": "false", "LIVE_KEEPALIVE_SECONDS": "60"},
        ARTIFACTS / "server-redis-restart.log",
    ).start()
    stop = threading.Event()
    try:
        browser = Client()
        browser.force_login(campaign.mayor)
        cookies = {"sessionid": browser.cookies["sessionid"].value}
        events: queue.Queue = queue.Queue()
        threading.Thread(
            target=_listen_versions,
            args=(f"{server.url}/live/campaign:{campaign.pk}/", cookies, events, stop),
            daemon=True,
        ).start()
        assert events.get(timeout=10) == ("status", 200)
        assert events.get(timeout=10)[0] == "hello"

        private_redis.stop()
        with caplog.at_level(logging.WARNING, logger="frontera.live.bus"):
            missed = campaign_log(campaign=campaign, actor=campaign.mayor, kind=CampaignEvent.Kind.CATALOGUE_EDITED)
        assert any(f"campaign:{campaign.pk} version {missed.pk}" in r.getMessage() for r in caplog.records), caplog.text
        time.sleep(0.5)
        private_redis.start()  # the same port, an empty Redis: the old subscription is gone

        assert _next_changed(events, timeout=8) >= missed.pk, "the version committed while Redis was down"

        later = campaign_log(campaign=campaign, actor=campaign.mayor, kind=CampaignEvent.Kind.CATALOGUE_EDITED)
        assert later.pk > missed.pk
        assert _next_changed(events, timeout=5) >= later.pk, "a change after the restart reaches the open stream"
    finally:
        stop.set()
        server.stop()
        bus.reset_backend()


@pytest.mark.django_db
def test_pages_fragments_and_exports_that_show_cards_are_never_stored():
    """A shared phone's cache or a proxy keeps none of them; static files stay cacheable."""
    session, mayor, players, _minions = make_table(players=1)
    player, hero = players[0]
    for user in (mayor, player):
        client = Client()
        client.force_login(user)
        urls = [
            session.get_absolute_url(),
            reverse("play_history", args=[session.pk]),
            reverse("play_history_csv", args=[session.pk]),
            reverse("play_history_json", args=[session.pk]),
            reverse("play_history_charts", args=[session.pk]),
            reverse("character_sheet", args=[session.campaign_id, hero.pk]),
        ]
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            assert "no-store" in response.get("Cache-Control", ""), (url, response.get("Cache-Control"))
        fragment = client.get(session.get_absolute_url() + "?fragment=checks", HTTP_HX_REQUEST="true")
        assert fragment.status_code == 200
        assert "no-store" in fragment.get("Cache-Control", "")
    static = client.get(settings.STATIC_URL + "css/app.css")  # the player is still logged in
    assert static.status_code == 200
    assert "no-store" not in static.get("Cache-Control", "")


def _run_command(port: int) -> list[str]:
    """The uvicorn command ``scripts/run`` serves with (its ``exec`` line, continued lines joined),
    with this test's Python and ``port``."""
    script = (ROOT / "scripts" / "run").read_text().replace("\\\n", " ")
    line = next(line for line in script.splitlines() if line.startswith("exec ") and " uvicorn " in line)
    words = shlex.split(line)[1:]
    return [sys.executable if word == "$PYTHON" else word.replace("${PORT:-8000}", str(port)) for word in words]


def test_a_stopped_server_ends_its_live_streams_so_the_pages_reconnect_to_the_next_one(transactional_db):
    """A stop (SIGTERM) of the server ``scripts/run`` starts ends the pages' live streams within a few
    seconds and the process exits: each page's stream then reconnects to the server that runs next.
    A probe found the old process waiting for ever for its streams to end (uvicorn's graceful
    shutdown waits for every response), its pages kept on streams nobody published to any more:
    after a restart they caught up only at a keep-alive, 7-8 s late, until the old process was killed."""
    ARTIFACTS.mkdir(exist_ok=True)
    campaign = make_campaign(name="Parada del servidor")
    port = free_port()
    env = {**os.environ, "DATABASE_URL": _db_url(), "REDIS_URL": "", "DEBUG": "false", "PYTHONDONTWRITEBYTECODE": "1"}
    with open(ARTIFACTS / "server-stop.log", "w") as log:
        process = subprocess.Popen(_run_command(port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    stop = threading.Event()
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, (ARTIFACTS / "server-stop.log").read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/cuentas/entrar/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        browser = Client()
        browser.force_login(campaign.mayor)
        events: queue.Queue = queue.Queue()
        threading.Thread(
            target=_listen_versions,
            args=(f"http://127.0.0.1:{port}/live/campaign:{campaign.pk}/",
                  {"sessionid": browser.cookies["sessionid"].value}, events, stop),
            daemon=True,
        ).start()
        assert events.get(timeout=10) == ("status", 200)
        assert events.get(timeout=10)[0] == "hello"

        stopped = time.monotonic()
        process.send_signal(signal.SIGTERM)
        kind, _detail = events.get(timeout=10)  # the stream's end: the page's EventSource reconnects
        assert kind in ("ended", "closed"), kind
        assert process.wait(timeout=10) is not None
        assert time.monotonic() - stopped < 6, "the stream ended and the process exited within seconds"
    finally:
        stop.set()
        if process.poll() is None:
            process.kill()
            process.wait(5)
