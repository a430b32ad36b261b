"""Two app server processes on PostgreSQL + Redis: a change made through process A reaches an SSE
client connected to process B within 1 s."""

import queue
import threading
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from frontera.campaigns.models import CampaignEvent
from tests.factories import make_campaign
from tests.servers import AppServer

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _db_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def two_servers(transactional_db):
    ARTIFACTS.mkdir(exist_ok=True)
    env = {"DATABASE_URL": _db_url(), "REDIS_URL": settings.REDIS_URL, "DEBUG": "false"}
    servers = [AppServer(env, ARTIFACTS / f"server-{name}.log") for name in "AB"]
    try:
        yield [server.start() for server in servers]
    finally:
        for server in servers:
            server.stop()


def _listen(url: str, cookies: dict, events: queue.Queue, stop: threading.Event) -> None:
    try:
        with httpx.Client(cookies=cookies, timeout=httpx.Timeout(5, read=30)) as client:
            with client.stream("GET", url) as response:
                events.put(("status", response.status_code, time.monotonic()))
                for line in response.iter_lines():
                    if stop.is_set():
                        return
                    if line.startswith("event: "):
                        events.put(("event", line[7:], time.monotonic()))
    except httpx.HTTPError as exc:  # the servers stop under us at the end of the test
        events.put(("closed", repr(exc), time.monotonic()))


def test_publish_in_process_a_reaches_sse_client_on_process_b_within_1s(two_servers):
    server_a, server_b = two_servers
    campaign = make_campaign(name="Dos procesos")
    browser = Client()
    browser.force_login(campaign.mayor)
    cookies = {"sessionid": browser.cookies["sessionid"].value}

    events: queue.Queue = queue.Queue()
    stop = threading.Event()
    listener = threading.Thread(
        target=_listen, args=(f"{server_b.url}/live/campaign:{campaign.pk}/", cookies, events, stop), daemon=True
    )
    listener.start()
    assert events.get(timeout=10)[:2] == ("status", 200)
    assert events.get(timeout=10)[:2] == ("event", "hello")

    with httpx.Client(base_url=server_a.url, cookies=cookies, timeout=10) as http:
        http.get(f"/campanas/{campaign.pk}/")
        csrf = http.cookies["csrftoken"]
        sent = time.monotonic()
        response = http.post(
            f"/campanas/{campaign.pk}/invitaciones/",
            data={"days": 2, "max_uses": 1, "email": ""},
            headers={"X-CSRFToken": csrf, "HX-Request": "true"},
        )
    assert response.status_code == 200
    kind, name, received = events.get(timeout=5)
    stop.set()
    latency = received - sent  # an upper bound: it includes the POST's own time in process A
    print(f"\nlive push A→B: {latency * 1000:.1f} ms from sending the action to the push on B")
    assert (kind, name) == ("event", "changed")
    assert latency < 1.0
    assert CampaignEvent.objects.filter(campaign=campaign, kind="invite_created").exists()
