"""Issue #11: a page kept open across a deploy learns it. Every stream's first message names the
build of the pages its server renders (frontera/live/build.py); the session pages carry the build
that rendered them, and reload themselves when the two differ (static/js/live-regions.js; the
browser's side: tests/browser/test_live_build.py)."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from frontera.live import views as live_views
from frontera.live.build import build_id
from frontera.play.selectors.core import session_version
from frontera.play.services.checks import check_request
from tests.factories import make_table

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def fresh_build():
    """``build_id`` and the streams' greetings worked out afresh, before and after the test."""
    build_id.cache_clear()
    live_views._event.cache_clear()
    yield
    build_id.cache_clear()
    live_views._event.cache_clear()


def _tree(root, template: str = "<p>one</p>"):
    (root / "frontera").mkdir(parents=True, exist_ok=True)
    (root / "templates").mkdir(exist_ok=True)
    (root / "static" / "js").mkdir(parents=True, exist_ok=True)
    (root / "frontera" / "views.py").write_text("ANSWER = 42\n")
    (root / "templates" / "page.html").write_text(template)
    (root / "static" / "js" / "page.js").write_text("var x = 1;\n")


def test_the_build_is_a_digest_of_the_code_templates_and_static_files_unless_named(settings, tmp_path, fresh_build):
    settings.BASE_DIR, settings.LIVE_BUILD = tmp_path, ""
    _tree(tmp_path)
    first = build_id()
    assert first == build_id() and len(first) == 16
    build_id.cache_clear()
    (tmp_path / "notes.md").write_text("not part of a page")
    assert build_id() == first  # what no page is made of is no new build
    build_id.cache_clear()
    _tree(tmp_path, template="<p>two</p>")
    assert build_id() != first
    build_id.cache_clear()
    settings.LIVE_BUILD = "2026-11-28.3"  # FRONTERA_BUILD: a deployment names its builds
    assert build_id() == "2026-11-28.3"


@pytest.mark.django_db
def test_a_session_page_carries_the_build_that_rendered_it(client, fresh_build):
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (player, _hero), = seated
    for user in (mayor, player):
        client.force_login(user)
        html = client.get(session.get_absolute_url()).text
        assert f'data-build="{build_id()}"' in html
        assert 'id="live-hello" hidden sse-swap="hello"' in html
        assert 'data-testid="live-stale"' in html and "Esta página ha cambiado desde que la abriste." in html


@pytest.mark.django_db(transaction=True)
def test_a_streams_first_message_names_the_build_of_its_server(settings, fresh_build):
    """At each connection: "hello", or "changed" for a page behind (it comes back after a deploy
    with the version it was rendered at); a push names no build."""
    settings.LIVE_BUILD = "build-b"
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (player, hero), = seated
    behind = session_version(session.pk)
    check_request(session=session, by=mayor, characters=[hero], trait="manos")

    async def first_messages(since: int, then=None) -> list[str]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(player)
        response = await client.get(reverse("live_stream", args=[f"session:{session.pk}"]), {"since": since})
        stream = response.streaming_content.__aiter__()
        messages = [(await asyncio.wait_for(stream.__anext__(), 2)).decode() for _ in range(2)]
        if then is not None:
            await then()
            messages.append((await asyncio.wait_for(stream.__anext__(), 5)).decode())
        await stream.aclose()
        return messages

    current = session_version(session.pk)
    greeting = asyncio.run(first_messages(current, lambda: sync_to_async(check_request)(
        session=session, by=mayor, characters=[hero], trait="cabeza")))
    assert greeting[1].startswith(f"id: {current}\nevent: hello\n") and '"build": "build-b"' in greeting[1]
    assert "event: changed\n" in greeting[2] and "build" not in greeting[2]
    behind_greeting = asyncio.run(first_messages(behind))[1]
    assert "event: changed\n" in behind_greeting and '"build": "build-b"' in behind_greeting
