"""Issue #11: a session page's stream is sent the regions a push names, rendered for its viewer,
instead of a notice the page answers with a request for them (frontera/play/views/pushed.py)."""

import asyncio
import json
import re
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client
from django.urls import reverse

from frontera.accounts.models import LogIn
from frontera.campaigns.models import Membership
from frontera.live import bus
from frontera.play.selectors.core import session_version
from frontera.play.services.check_withdrawal import check_withdraw
from frontera.play.services.checks import check_draw, check_request
from tests.factories import make_table
from tests.web.test_session_regions import _normalised

HX = {"HTTP_HX_REQUEST": "true"}


async def _open(user, session, *, page=True, client=None):
    """``user``'s stream of ``session`` as a session page opens it, past its opening lines."""
    client = client or AsyncClient()
    await sync_to_async(client.force_login)(user)
    url = reverse("live_stream", args=[f"session:{session.pk}"])
    since = await sync_to_async(session_version)(session.pk)
    query = {"since": since, **({"page": "1"} if page else {})}
    response = await client.get(url, query)
    stream = response.streaming_content.__aiter__()
    assert (await asyncio.wait_for(stream.__anext__(), 2)).decode().startswith("retry:")
    assert "event: hello" in (await asyncio.wait_for(stream.__anext__(), 2)).decode()
    return stream


async def _next(stream) -> str:
    return (await asyncio.wait_for(stream.__anext__(), 5)).decode()


def _sent_to(users, session, action) -> list[str]:
    """What each of ``users``' page streams is sent first after ``action()`` (a coroutine function),
    run once every stream is open."""

    async def scenario():
        streams = [await _open(user, session) for user in users]
        await action()
        messages = [await _next(stream) for stream in streams]
        for stream in streams:
            await stream.aclose()
        return messages

    return asyncio.run(scenario())


async def _after_a_call(user, session, mayor, hero, meanwhile=None) -> str:
    """What ``user``'s page stream is sent when the Mayor calls a check on ``hero``, after
    ``meanwhile(client)`` (the stream's browser) has run, once the stream is open."""
    client = AsyncClient()
    stream = await _open(user, session, client=client)
    if meanwhile is not None:
        await meanwhile(client)
    await sync_to_async(check_request)(session=session, by=mayor, characters=[hero], trait="manos")
    message = await _next(stream)
    await stream.aclose()
    return message


def _regions_event(message: str) -> dict:
    head, _, data = message.partition("data: ")
    assert "event: regions\n" in head, message
    return json.loads(data)


def _fetched(user, session, regions: str) -> str:
    """What ``user``'s page would fetch for those regions after the push."""
    client = Client()
    client.force_login(user)
    answer = client.get(session.get_absolute_url(), {"regions": regions}, **HX)
    assert answer.status_code == 200
    return answer.text


@pytest.mark.django_db(transaction=True)
def test_each_page_is_sent_the_regions_a_push_names_as_its_viewer_would_fetch_them():
    """The Mayor calls a check on the first player: each player's stream and the Mayor's... the
    Mayor's action answers his own page (a notice); the first player's stream carries their checks,
    the others' open checks and the feed, the second player's only the others' open checks ("At the
    table") and the feed (their own checks did not change: issue #11), each as that player would
    fetch them: same HTML, so the same redaction (the player's own cards, odds)."""
    session, mayor, seated, _minions = make_table(players=2, minions=0)
    (p1, hero1), (p2, _hero2) = seated

    for_mayor, for_p1, for_p2 = _sent_to((mayor, p1, p2), session, lambda: sync_to_async(check_request)(
        session=session, by=mayor, characters=[hero1], trait="manos"))
    version = session_version(session.pk)
    assert for_mayor.startswith(f"id: {version}\nevent: changed\n")  # his own action: his answer brings it
    for user, message, names in ((p1, for_p1, ["checks", "feed", "table"]), (p2, for_p2, ["feed", "table"])):
        assert message.startswith(f"id: {version}\nevent: regions\n")
        sent = _regions_event(message)
        assert sent["version"] == version and sent["regions"] == names
        assert _normalised(sent["html"]) == _normalised(_fetched(user, session, ",".join(names)))
    assert 'id="checks"' not in _regions_event(for_p2)["html"]
    assert "hx-swap-oob" in _regions_event(for_p1)["html"]


@pytest.mark.django_db(transaction=True)
def test_a_players_draw_reaches_the_mayor_with_his_regions_and_the_player_with_a_notice():
    """The drawing player's own page is answered by the draw's own request; the Mayor's stream
    carries what the draw changed on his dashboard (the board, his checks, the feed), never the
    phone's regions."""
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (p1, hero1), = seated
    check = check_request(session=session, by=mayor, characters=[hero1], trait="manos")
    participant = check.participants.get()

    for_mayor, for_p1 = _sent_to((mayor, p1), session, lambda: sync_to_async(check_draw)(participant=participant, by=p1))
    assert "event: changed\n" in for_p1
    sent = _regions_event(for_mayor)
    assert sent["regions"] == ["board", "checks", "feed"]  # "me" is a phone's region: not his page's
    assert _normalised(sent["html"]) == _normalised(_fetched(mayor, session, "board,checks,feed"))


@pytest.mark.django_db(transaction=True)
def test_fr_mode_7_a_withdrawal_sends_the_player_whose_cards_went_back_their_own_characters_and_no_one_else():
    """FR-MODE-7: in phase 2 the Mayor withdraws a check the first player drew for: the drawn cards
    go back into that player's own deck. The first player's stream carries their own characters
    (``me``) with the check and the feed, exactly as their page would fetch them; the second
    player's stream carries the check and the feed only: nothing of their own characters changed, so
    nothing of it is built again for them (issue #11)."""
    session, mayor, seated, _minions = make_table(players=2, minions=0, skip_phase_1=True)
    (p1, hero1), (p2, _hero2) = seated
    check = check_request(session=session, by=mayor, characters=[hero1], trait="manos")
    check_draw(participant=check.participants.get(), by=p1)

    for_p1, for_p2 = (_regions_event(message) for message in _sent_to(
        (p1, p2), session, lambda: sync_to_async(check_withdraw)(prueba=check, by=mayor)))
    assert for_p1["regions"] == ["checks", "feed", "me", "table"]
    assert _normalised(for_p1["html"]) == _normalised(_fetched(p1, session, "checks,feed,me,table"))
    assert for_p2["regions"] == ["checks", "feed", "table"]
    assert 'id="me"' not in for_p2["html"]
    assert _normalised(for_p2["html"]) == _normalised(_fetched(p2, session, "checks,feed,table"))


@pytest.mark.django_db(transaction=True)
def test_fr_mode_4_a_phase_1_draw_sends_the_other_phones_the_table_zones_and_not_their_characters():
    """FR-MODE-4: in phase 1 a player draws from the shared pile: the other phones are sent the
    check (among the others' open checks, "At the table"), the feed and the table's zones (the
    pile's count), each exactly as that phone would fetch them, and neither their own characters nor
    their own checks, which nothing changed."""
    session, mayor, seated, _minions = make_table(players=3, minions=0)
    (p1, hero1), (p2, _hero2), (p3, _hero3) = seated
    participant = check_request(session=session, by=mayor, characters=[hero1], trait="manos").participants.get()

    sent = _sent_to((p2, p3), session, lambda: sync_to_async(check_draw)(participant=participant, by=p1))
    for user, message in zip((p2, p3), sent, strict=True):
        sent = _regions_event(message)
        assert sent["regions"] == ["feed", "table", "zones"]
        assert 'id="zones"' in sent["html"] and 'id="me"' not in sent["html"] and 'id="checks"' not in sent["html"]
        assert f'id="check-{participant.prueba_id}"' in sent["html"]
        assert _normalised(sent["html"]) == _normalised(_fetched(user, session, "feed,table,zones"))


@pytest.mark.django_db(transaction=True)
def test_a_push_that_changes_nothing_a_page_shows_is_a_notice_that_names_no_region():
    """A push naming one seat's own characters only: that player's stream carries them; another
    player's stream is told the new version with no region to fetch, and the Mayor's too (the
    phones' own characters are not on his page)."""
    session, mayor, seated, _minions = make_table(players=2, minions=0)
    (p1, hero1), (p2, _hero2) = seated
    topic = f"session:{session.pk}"

    async def scenario():
        streams = [await _open(user, session) for user in (p1, p2, mayor)]
        latest = await sync_to_async(session_version)(session.pk)
        await asyncio.to_thread(bus.publish, topic, latest + 1, [f"me:c{hero1.pk}"])
        messages = [await _next(stream) for stream in streams]
        for stream in streams:
            await stream.aclose()
        return latest + 1, messages

    version, (for_p1, for_p2, for_mayor) = asyncio.run(scenario())
    assert _regions_event(for_p1)["regions"] == ["me"]
    for message in (for_p2, for_mayor):
        assert message.startswith(f"id: {version}\nevent: changed\n")
        assert json.loads(message.partition("data: ")[2])["regions"] == []


@pytest.mark.django_db(transaction=True)
def test_a_stream_that_does_not_ask_for_its_page_and_a_push_that_names_no_region_get_a_notice():
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (p1, hero1), = seated
    topic = f"session:{session.pk}"

    async def scenario():
        plain, page = await _open(p1, session, page=False), await _open(p1, session)
        await sync_to_async(check_request)(session=session, by=mayor, characters=[hero1], trait="manos")
        first = [await _next(plain), await _next(page)]
        latest = await sync_to_async(session_version)(session.pk)
        await asyncio.to_thread(bus.publish, topic, latest + 1)  # every region
        second = await _next(page)
        for stream in (plain, page):
            await stream.aclose()
        return first, second

    (plain, page), every = asyncio.run(scenario())
    assert "event: changed\n" in plain and "event: regions\n" in page
    assert "event: changed\n" in every and "regions" not in every.partition("data: ")[2]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("ended", ["logged out", "left the campaign"])
def test_a_stream_whose_viewer_has_logged_out_or_left_is_sent_no_region(ended):
    """The stream outlives what let it open: each rendering checks again the viewer's log-in and
    membership, as each request does. Once either has ended, the page is only told "changed", and
    its own request for the regions is then refused."""
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (p1, hero1), = seated

    async def meanwhile(client):
        if ended == "logged out":  # from this browser (its log-in ends: the page's cookie no longer holds one)
            await client.alogout()
            assert not await sync_to_async(LogIn.objects.exists)()
        else:
            await sync_to_async(Membership.objects.filter(user=p1).delete)()

    message = asyncio.run(_after_a_call(p1, session, mayor, hero1, meanwhile))
    assert message.startswith(f"id: {session_version(session.pk)}\nevent: changed\n")
    assert "event: regions" not in message and "html" not in message and not re.search(r"<section", message)


@pytest.mark.django_db(transaction=True)
def test_a_rendering_that_takes_too_long_is_replaced_by_a_notice(monkeypatch):
    """A stream does not wait for its regions longer than RENDER_TIMEOUT_SECONDS (a rendering behind
    a backlog, or waiting for a database connection): the page is told "changed" and fetches them."""
    from frontera.live import topics
    from frontera.live import views as live_views

    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (p1, hero1), = seated
    monkeypatch.setattr(live_views, "RENDER_TIMEOUT_SECONDS", 0.05)
    monkeypatch.setattr(topics, "renderer", lambda topic: lambda requests, regions: [
        lambda: time.sleep(0.5)] * len(requests))

    message = asyncio.run(_after_a_call(p1, session, mayor, hero1))
    assert message.startswith(f"id: {session_version(session.pk)}\nevent: changed\n")
    assert '"regions": ["checks", "feed", "table"]' in message  # the page fetches what the push named


def _sent_at_once(users, session, action, meanwhile=None) -> list[str]:
    """What each of ``users``' page streams is sent first after ``action()``, every stream waiting
    for its push at the same time, as a server's streams do (each its own task); ``meanwhile(clients)``
    (the streams' browsers) runs once they are open."""

    async def scenario():
        clients = [AsyncClient() for _ in users]
        streams = [await _open(user, session, client=client) for user, client in zip(users, clients, strict=True)]
        if meanwhile is not None:
            await meanwhile(clients)
        waiting = [asyncio.ensure_future(_next(stream)) for stream in streams]
        await asyncio.sleep(0.05)  # every stream waits on its queue
        await action()
        messages = await asyncio.gather(*waiting)
        for stream in streams:
            await stream.aclose()
        return messages

    return asyncio.run(scenario())


@pytest.mark.django_db(transaction=True)
def test_the_pages_a_push_wakes_are_rendered_in_one_job_that_reads_what_they_share_once(monkeypatch):
    """Three players' pages open when the Mayor calls a check: one rendering job for the three (his
    own page gets a notice), which reads the session, the viewers' roles, the feed's stamp and the
    players' seats once for all of them; each page still gets exactly what its player would fetch
    (each differs: the others' open checks it lists are not the same)."""
    from frontera.play.models import GameSession
    from frontera.play.views import pushed
    from frontera.play.views import sessions as session_views

    session, mayor, seated, _minions = make_table(players=3, minions=0)
    (p1, hero1), (p2, hero2), (p3, hero3) = seated
    for hero in (hero2, hero3):  # each player's page differs from the others' (their own open check)
        check_request(session=session, by=mayor, characters=[hero], trait="cabeza")
    jobs, reads = [], []
    pages = pushed.pushed_pages
    monkeypatch.setattr(pushed, "pushed_pages", lambda pk, requests, regions: jobs.append(
        sorted(r.user.username for r in requests)) or pages(pk, requests, regions))
    for module, name in ((pushed, "feed_stamp"), (session_views, "feed_stamp"), (pushed, "seats_by_owner"),
                         (pushed, "roles_in"), (GameSession.objects, "row")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, real=real, name=name, **kw: (
            threading.current_thread().name.startswith("live-render") and reads.append(name)) or real(*args, **kw))

    messages = _sent_at_once((mayor, p1, p2, p3), session, lambda: sync_to_async(check_request)(
        session=session, by=mayor, characters=[hero1], trait="manos"))
    assert jobs == [sorted(user.username for user in (p1, p2, p3))]
    assert sorted(reads) == ["feed_stamp", "roles_in", "row", "seats_by_owner"]  # (by the rendering threads)
    assert "event: changed\n" in messages[0]
    for user, message, names in ((p1, messages[1], ["checks", "feed", "table"]),
                                 (p2, messages[2], ["feed", "table"]), (p3, messages[3], ["feed", "table"])):
        sent = _regions_event(message)
        assert sent["regions"] == names
        assert _normalised(sent["html"]) == _normalised(_fetched(user, session, ",".join(names)))


@pytest.mark.django_db(transaction=True)
def test_in_one_job_a_viewer_who_logged_out_or_left_gets_no_region_and_the_others_theirs():
    """The pages of one push are rendered together, but each viewer's log-in and membership are
    still checked for their own page: one logged out and one gone from the campaign are told
    "changed" (their pages' requests will be refused), the third gets its regions."""
    session, mayor, seated, _minions = make_table(players=3, minions=0)
    (p1, hero1), (p2, _), (p3, _) = seated

    async def meanwhile(clients):
        await clients[0].alogout()  # p1, from this browser
        await sync_to_async(Membership.objects.filter(user=p2).delete)()

    for_p1, for_p2, for_p3 = _sent_at_once((p1, p2, p3), session, lambda: sync_to_async(check_request)(
        session=session, by=mayor, characters=[hero1], trait="manos"), meanwhile)
    for message in (for_p1, for_p2):
        assert message.startswith(f"id: {session_version(session.pk)}\nevent: changed\n")
        assert "html" not in message and not re.search(r"<section", message)
    sent = _regions_event(for_p3)
    assert sent["regions"] == ["feed", "table"]
    assert _normalised(sent["html"]) == _normalised(_fetched(p3, session, "feed,table"))


@pytest.mark.django_db(transaction=True)
def test_in_one_job_each_log_in_is_checked_as_a_request_checks_it_and_read_with_the_others(monkeypatch):
    """A password changed on another device and an account closed end those viewers' pages' regions
    (Django's own check of the session against the user, and of the account), the third viewer gets
    theirs. Where the log-ins live in the database alone (REDIS_URL), the job reads every viewer's
    session with their user in one statement, not two statements per page."""
    from django.conf import settings

    from frontera.accounts import sessions
    from frontera.accounts.backends import MemoryModelBackend
    from frontera.play.views import pushed

    session, mayor, seated, _minions = make_table(players=3, minions=0)
    (p1, hero1), (p2, _), (p3, _) = seated
    reads = []
    for module, name in ((sessions, "read_many"), (pushed, "_viewer"), (MemoryModelBackend, "_read_user")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *args, real=real, name=name: reads.append(name) or real(*args))

    def meanwhile(_clients):
        p1.set_password("otra-clave-mas-larga-9")
        p1.save()
        p2.is_active = False
        p2.save()

    for_p1, for_p2, for_p3 = _sent_at_once((p1, p2, p3), session, lambda: sync_to_async(check_request)(
        session=session, by=mayor, characters=[hero1], trait="manos"), sync_to_async(meanwhile))
    for message in (for_p1, for_p2):
        assert message.startswith(f"id: {session_version(session.pk)}\nevent: changed\n")
        assert "html" not in message and not re.search(r"<section", message)
    sent = _regions_event(for_p3)
    assert _normalised(sent["html"]) == _normalised(_fetched(p3, session, ",".join(sent["regions"])))
    if settings.SESSION_ENGINE == sessions.__name__:
        assert reads == ["read_many"]  # no user read again: each came with its session
    else:  # the embedded default: each page's from the process's memory (a user saved: read again)
        assert reads.count("_viewer") == 3 and "read_many" not in reads


@pytest.mark.django_db(transaction=True)
def test_a_job_whose_shared_reads_fail_tells_every_stream_changed_and_logs_it_once(monkeypatch, caplog):
    """What the pages share cannot be read (the database went away, say): every stream of the job
    is told "changed" at once, not at its timeout, and the failure is logged once for the job."""
    from frontera.live import views as live_views
    from frontera.play.views import pushed

    session, mayor, seated, _minions = make_table(players=2, minions=0)
    (p1, hero1), (p2, _) = seated
    monkeypatch.setattr(live_views, "RENDER_TIMEOUT_SECONDS", 30)

    def broken(*args):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(pushed, "pushed_pages", broken)
    started = time.monotonic()
    messages = _sent_at_once((p1, p2), session, lambda: sync_to_async(check_request)(
        session=session, by=mayor, characters=[hero1], trait="manos"))
    assert time.monotonic() - started < 5
    for message in messages:
        assert message.startswith(f"id: {session_version(session.pk)}\nevent: changed\n")
        assert '"regions": ["checks", "feed", "table"]' in message  # each page fetches them
    logged = [record.getMessage() for record in caplog.records if record.name == "frontera.live.views"]
    assert logged == [f"live stream: the pages of a push to session:{session.pk} could not be rendered"]


@pytest.mark.django_db(transaction=True)
def test_a_page_whose_rendering_fails_gets_a_notice_and_the_others_their_regions(monkeypatch, caplog):
    """One page of a push's job raising does not cost the other pages theirs: that stream logs it
    and tells its page "changed" with the regions to fetch."""
    from frontera.play.views import pushed

    session, mayor, seated, _minions = make_table(players=3, minions=0)
    (p1, hero1), (p2, _), (p3, _) = seated
    page = pushed.page_regions

    def failing(request, *args):
        if request.user.pk == p2.pk:
            raise RuntimeError("a template broke")
        return page(request, *args)

    monkeypatch.setattr(pushed, "page_regions", failing)
    for_p1, for_p2, for_p3 = _sent_at_once((p1, p2, p3), session, lambda: sync_to_async(check_request)(
        session=session, by=mayor, characters=[hero1], trait="manos"))
    assert _regions_event(for_p1)["regions"] == ["checks", "feed", "table"]
    assert for_p2.startswith(f"id: {session_version(session.pk)}\nevent: changed\n")
    assert '"regions": ["checks", "feed", "table"]' in for_p2
    assert _regions_event(for_p3)["regions"] == ["feed", "table"]
    assert "a template broke" in caplog.text


@pytest.mark.django_db
def test_pushes_that_queue_while_a_rendering_runs_are_rendered_together_once(monkeypatch):
    """A burst of pushes (or a slow rendering) does not make a stream render each one in turn: those
    queued behind the one being rendered are sent with the next rendering, of the state as it is
    then, naming all their regions, with the newest version."""
    from frontera.live import topics
    from frontera.live.views import event_stream

    asked = []

    def slow_render(regions):
        asked.append(regions)
        time.sleep(0.2)
        return list(regions), f"<p>{len(asked)}</p>", 0

    async def scenario():
        stream = event_stream("session:424242", 10, keepalive=5, viewer=1,
                              render=lambda regions: asyncio.to_thread(slow_render, regions))
        assert (await stream.__anext__()).startswith("retry:")
        with monkeypatch.context() as patched:  # the opening reads the topic's version
            patched.setattr(topics, "current_version", lambda topic: 10)
            assert "event: hello" in await stream.__anext__()
        first = asyncio.ensure_future(stream.__anext__())
        await asyncio.to_thread(bus.publish, "session:424242", 11, ["checks"], 2)
        await asyncio.sleep(0.05)  # the first rendering has started
        await asyncio.to_thread(bus.publish, "session:424242", 12, ["feed"], 2)
        await asyncio.to_thread(bus.publish, "session:424242", 13, ["board", "checks"], 3)
        messages = [await asyncio.wait_for(first, 2), await asyncio.wait_for(stream.__anext__(), 2)]
        await stream.aclose()
        return messages

    first, second = asyncio.run(scenario())
    assert asked == [("checks",), ("board", "checks", "feed")]
    assert first.startswith("id: 11\nevent: regions\n")
    assert second.startswith("id: 13\nevent: regions\n")
    assert _regions_event(second)["regions"] == ["board", "checks", "feed"]


@pytest.mark.django_db
def test_a_refetch_says_the_version_it_shows(client):
    """What a page fetches after a push carries the session's live version it shows, as an action's
    answer does: the page compares it with what the pushes sent it (static/js/live-regions.js)."""
    session, mayor, _seated, _minions = make_table(players=1, minions=0)
    client.force_login(mayor)
    answer = client.get(session.get_absolute_url(), {"regions": "checks,feed"}, **HX)
    assert answer["X-Live-Version"] == str(session_version(session.pk))


def test_the_acting_user_travels_with_the_push_through_redis_encoding():
    push = bus.Push(42, {"feed", "checks"}, actor=7)
    again = bus.Push.decode(push.encode().encode())
    assert again == 42 and again.regions == ("checks", "feed") and again.actor == 7
    every = bus.Push.decode(bus.Push(9, None, actor=3).encode())
    assert every == 9 and every.regions is None and every.actor == 3
    assert bus.Push.decode(b"7 checks").actor is None
