"""Issue #11: render only what changed. A fragment and an action's answer build only their own
region, and show exactly what the whole page shows there; a push names the regions its change can
show in, so a page refetches only those (none named: every region)."""

import asyncio
import json
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from frontera.live import bus
from frontera.live.views import event_stream, format_event
from frontera.play.selectors.core import session_version
from frontera.play.services.check_withdrawal import check_withdraw
from frontera.play.services.checks import check_choose, check_draw, check_request
from frontera.play.services.table_tools import track_change
from frontera.play.views.common import DASHBOARD_FRAGMENTS, PHONE_FRAGMENTS
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _normalised(html: str) -> str:
    """Without what differs between two renderings of the same state: the CSRF token (masked anew
    each time) and the dashboard's one-tap request keys (fresh per rendering)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', '"X-CSRFToken": ""', html)
    return re.sub(r'name="request_key" value="[0-9a-f]{16}-', 'name="request_key" value="-', html)


def _table_in_play():
    session, mayor, seated, minions = make_table(players=2, minions=1)
    (p1, hero1), (p2, hero2) = seated
    check = check_request(session=session, by=mayor, characters=[hero1, hero2, minions[0]], trait="manos")
    first = check.participants.get(character=hero1)
    check_draw(participant=first, by=p1)
    resolved = check_request(session=session, by=mayor, characters=[hero2], trait="cabeza")
    done = resolved.participants.get()
    done = check_draw(participant=done, by=p2)
    check_choose(participant=done, by=p2, card=done.drawn[0], suit="S")
    return session, mayor, p1, p2


@pytest.mark.parametrize("who", ["mayor", "player"])
def test_each_fragment_is_what_the_whole_page_shows_in_that_region(client, who):
    """A fragment is built from its region's part of the view model only; its HTML is the same as
    that region's in the whole page (same data, same redaction)."""
    session, mayor, p1, _p2 = _table_in_play()
    client.force_login(mayor if who == "mayor" else p1)
    page = _normalised(client.get(session.get_absolute_url()).text)
    regions = ["board", "checks", "feed", "combat"] if who == "mayor" else ["me", "checks", "feed", "combat"]
    for region in regions:
        fragment = client.get(session.get_absolute_url(), {"fragment": region}, **HX)
        assert fragment.status_code == 200
        html = _normalised(fragment.text).strip()
        assert f'id="{region}"' in html
        assert html in page, region


@pytest.mark.parametrize("who", ["mayor", "player"])
def test_the_regions_a_push_names_come_in_one_answer_each_swapped_out_of_band(client, who):
    """A push makes a page fetch the regions it names in one request (``?regions=a,b``): each comes
    marked ``hx-swap-oob="morph"`` for the page's live element and is otherwise exactly what the page
    shows there; none named: every region of the page; a region the page does not have: 404."""
    session, mayor, p1, _p2 = _table_in_play()
    client.force_login(mayor if who == "mayor" else p1)
    url = session.get_absolute_url()
    page = _normalised(client.get(url).text)
    live = re.search(r'<div id="live"[^>]*>', page).group(0)
    here = re.search(r'data-live-regions="([\w ]+)"', live).group(1).split()
    # every region the server can answer for this page, and only those
    assert set(here) == (DASHBOARD_FRAGMENTS if who == "mayor" else PHONE_FRAGMENTS)
    assert sorted(here) == (["board", "checks", "combat", "feed"] if who == "mayor" else ["checks", "combat", "feed", "me", "table", "zones"])
    for asked, expected in [("checks,feed", ["checks", "feed"]), ("", sorted(here)), ("feed", ["feed"]),
                            (",".join(here), sorted(here))]:
        answer = client.get(url, {"regions": asked}, **HX)
        assert answer.status_code == 200
        html = _normalised(answer.text)
        roots = re.findall(r'<section id="(\w+)"[^>]*hx-swap-oob="morph"', html)
        assert sorted(roots) == expected, (asked, roots)
        assert html.count('hx-swap-oob="morph"') == len(expected)
        for name in expected:  # without its out-of-band mark, each is the page's own region
            region = re.search(rf'<section id="{name}".*?</section>\s*(?=<section id=|$)', html, re.S).group(0)
            assert region.replace(' hx-swap-oob="morph"', "").strip() in page, name
    other = "me" if who == "mayor" else "board"
    assert client.get(url, {"regions": f"checks,{other}"}, **HX).status_code == 404
    assert client.get(url, {"regions": "nothing"}, **HX).status_code == 404


def test_an_action_answers_with_its_region_as_the_page_shows_it(client):
    """The answer to a draw is the phone's #checks region, exactly as the whole page then shows it."""
    session, mayor, _p1, p2 = _table_in_play()
    check = check_request(session=session, by=mayor, characters=[session.seats.get(character__owner=p2).character],
                          trait="sentidos")
    participant = check.participants.get()
    client.force_login(p2)
    answer = client.post(reverse("play_draw", args=[session.pk, participant.pk]), **HX)
    assert answer.status_code == 200
    html = _normalised(answer.text).strip()
    assert html.startswith('<section id="checks"') and 'id="me"' not in html and 'id="feed"' not in html
    assert html in _normalised(client.get(session.get_absolute_url()).text)


def test_an_actions_answer_names_its_region_and_the_version_it_shows(client, monkeypatch,
                                                                     django_capture_on_commit_callbacks):
    """The answer says which session version its region shows (``X-Live-Version``) and which region
    it is (``X-Live-Regions``): the page then drops that region from the action's own push, whose
    version is the same (static/js/live-regions.js)."""
    session, mayor, _p1, p2 = _table_in_play()
    hero = session.seats.get(character__owner=p2).character
    client.force_login(mayor)
    pushed = []
    monkeypatch.setattr(bus, "publish", lambda topic, version, regions=None, actor=None: pushed.append(int(version)))
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(reverse("play_check_new", args=[session.pk]),
                             {"characters": [str(hero.pk)], "trait": "manos", "modifier": 0,
                              "request_key": "own-answer-1"}, **HX)
    assert answer.status_code == 200 and answer.text.lstrip().startswith('<section id="checks"')
    assert pushed == [session_version(session.pk)]
    assert answer["X-Live-Version"] == str(pushed[0])
    assert answer["X-Live-Regions"] == "checks"
    # a refused action still shows its region at the version it read: nothing changed since
    refused = client.post(reverse("play_check_new", args=[session.pk]),
                          {"characters": [str(hero.pk)], "trait": "nada", "request_key": "own-answer-2"}, **HX)
    assert refused.status_code == 200 and refused["X-Live-Version"] == str(pushed[0])


def _published(monkeypatch, django_capture_on_commit_callbacks, action):
    published = []
    monkeypatch.setattr(bus, "publish", lambda topic, version, regions=None, actor=None: published.append(
        None if regions is None else tuple(sorted(regions))))
    with django_capture_on_commit_callbacks(execute=True):
        action()
    return published


def test_a_push_names_the_regions_a_check_can_change(monkeypatch, django_capture_on_commit_callbacks):
    """Calling a check changes the checks of its participants' phones (``checks:<seat>``, and the
    Mayor's) and every other phone's others' open checks (``table``), and the feed; drawing a card
    moves cards too: the Mayor's table, the phone's own characters of the player whose cards moved
    only (``me:<seat>``) and, in phase 1, the table's zones (FR-MODE-4: drawn from the shared pile,
    the unchosen cards to the shared discard). Playing a card resolves the check, which may push
    another's result out of every phone's latest results: every phone's checks; a table tool names
    nothing, so every region refreshes."""
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (player, hero), = seated
    calls = []
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: calls.append(
        check_request(session=session, by=mayor, characters=[hero], trait="manos"))) == [
        (f"checks:c{hero.pk}", "feed", "table")]
    participant = calls[0].participants.get()
    drawn = []
    cards_moved = ("board", f"checks:c{hero.pk}", "feed", f"me:c{hero.pk}", "table", "zones")
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: drawn.append(
        check_draw(participant=participant, by=player))) == [cards_moved]
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: check_choose(
        participant=drawn[0], by=player, card=drawn[0].drawn[0], suit="S")) == [
        ("board", "checks", "feed", f"me:c{hero.pk}", "table", "zones")]
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: track_change(
        session=session, by=mayor, character=hero, track="health", amount=-1)) == [None]


def test_fr_mode_7_a_phase_2_check_changes_no_zone_of_the_table(monkeypatch, django_capture_on_commit_callbacks):
    """FR-MODE-7: in phase 2 a player draws from their own deck, plays to their own discard and the
    unchosen cards go back into their deck: no shared zone changes, so the push names the player's
    own characters (``me:<seat>``) and the Mayor's table, not the table's zones."""
    session, mayor, seated, _minions = make_table(players=2, minions=0, skip_phase_1=True)
    (player, hero), _other = seated
    participant = check_request(session=session, by=mayor, characters=[hero], trait="manos").participants.get()
    drawn = []
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: drawn.append(
        check_draw(participant=participant, by=player))) == [
        ("board", f"checks:c{hero.pk}", "feed", f"me:c{hero.pk}", "table")]
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: check_choose(
        participant=drawn[0], by=player, card=drawn[0].drawn[0], suit="S")) == [
        ("board", "checks", "feed", f"me:c{hero.pk}", "table")]


def test_a_change_of_phase_names_every_phones_own_characters_and_the_zones():
    """A card move that changes the phase (FR-MODE-5: phase 2 begins) changes what every player
    sees of their own deck (FR-MODE-2, FR-MODE-7): every phone's characters and the zones, not one
    seat's."""
    from frontera.play.services.core import EventLog
    from frontera.rules import session as rules_session
    from tests.factories import engine

    session, _mayor, _seated, _minions = make_table(players=2, minions=0)
    before = engine(session)
    after = rules_session.Session.from_json(before.to_json())
    after.phase = 2
    log = EventLog(session, None, [])
    log.cards([], before, after)
    assert log.moved_regions() == {"board", "me", "zones"}
    unmoved = EventLog(session, None, [])
    unmoved.cards([], before, before)
    assert unmoved.moved_regions() == set()  # nothing moved: no card region


def test_a_withdrawal_names_the_cards_regions_only_when_drawn_cards_go_back(
        monkeypatch, django_capture_on_commit_callbacks):
    """Withdrawing a check nobody drew for moves no card: its push names the checks and the feed;
    withdrawing one with drawn cards sends them back (FR-MODE-4: to the shared discard in phase 1):
    the Mayor's table, the zones and the drawing player's own characters change too."""
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (player, hero), = seated
    undrawn = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: check_withdraw(
        prueba=undrawn, by=mayor)) == [("checks", "feed", "table")]
    drawn = check_request(session=session, by=mayor, characters=[hero], trait="sentidos")
    check_draw(participant=drawn.participants.get(), by=player)
    assert _published(monkeypatch, django_capture_on_commit_callbacks, lambda: check_withdraw(
        prueba=drawn, by=mayor)) == [("board", "checks", "feed", f"me:c{hero.pk}", "table", "zones")]


def test_push_regions_travel_through_redis_encoding_and_the_sse_message():
    push = bus.Push(42, {"feed", "checks"})
    assert push == 42 and push.regions == ("checks", "feed")
    again = bus.Push.decode(push.encode().encode())
    assert again == 42 and again.regions == ("checks", "feed")
    assert bus.Push.decode(b"7").regions is None  # a version alone: every region
    assert format_event("changed", push, "session:1", push.regions) == (
        'id: 42\nevent: changed\ndata: {"topic": "session:1", "version": 42, "regions": ["checks", "feed"]}\n\n')


def test_a_region_named_for_one_seat_travels_whole_and_reaches_a_page_by_its_name():
    """``me:c12`` (one seat's player's own characters) crosses Redis with its scope; a page told
    by a notice is told ``me`` (it refetches its own characters: never less than changed)."""
    push = bus.Push(43, {"checks", "me:c12", "me:c7", "zones"}, actor=5)
    again = bus.Push.decode(push.encode().encode())
    assert again.regions == ("checks", "me:c12", "me:c7", "zones") and again.actor == 5
    assert json.loads(format_event("changed", again, "session:1", again.regions).split("data: ")[1])["regions"] == [
        "checks", "me", "zones"]
    for actor in (None, 5):  # a push that names no region at all stays one that names none (not "every")
        empty = bus.Push.decode(bus.Push(44, [], actor=actor).encode().encode())
        assert empty.regions == () and empty.actor == actor


async def _stream_opened(topic: str, since: int):
    """A session's SSE stream for a page rendered at ``since``, past its opening lines."""
    stream = event_stream(topic, since, keepalive=5)
    assert (await stream.__anext__()).startswith("retry:")
    assert "event: hello" in await stream.__anext__()
    return stream


@pytest.mark.django_db(transaction=True)
def test_the_stream_passes_on_the_regions_of_a_push():
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (_player, hero), = seated
    topic = f"session:{session.pk}"
    since = session_version(session.pk)

    async def scenario():
        stream = await _stream_opened(topic, since)
        await sync_to_async(check_request)(session=session, by=mayor, characters=[hero], trait="manos")
        message = await asyncio.wait_for(stream.__anext__(), 2)
        await stream.aclose()
        return message

    message = asyncio.run(scenario())
    assert message.startswith(f"id: {session_version(session.pk)}\nevent: changed\n")
    assert '"regions": ["checks", "feed", "table"]' in message  # (``checks:<seat>`` told by its name)


@pytest.mark.django_db(transaction=True)
def test_a_push_overtaken_by_a_later_one_still_has_its_regions_fetched():
    """Two actions commit at once and their publishes race: the later version's push (naming the
    feed) reaches the stream first, the earlier one's (naming the checks) after it. The page has
    fetched the feed at a state that holds both changes, but not the checks: the stream tells it
    to fetch them, at the version it already has."""
    session, _mayor, _seated, _minions = make_table(players=1, minions=0)
    topic = f"session:{session.pk}"
    since = session_version(session.pk)

    async def scenario():
        stream = await _stream_opened(topic, since)
        await asyncio.to_thread(bus.publish, topic, since + 2, ["feed"])
        later = await asyncio.wait_for(stream.__anext__(), 2)
        await asyncio.to_thread(bus.publish, topic, since + 1, ["checks"])
        overtaken = await asyncio.wait_for(stream.__anext__(), 2)
        await stream.aclose()
        return later, overtaken

    later, overtaken = asyncio.run(scenario())
    assert later == format_event("changed", since + 2, topic, ["feed"])
    assert overtaken == format_event("changed", since + 2, topic, ["checks"])


def test_the_feed_is_rendered_once_per_change_and_language_and_never_stale(client):
    """The feed region is the same for every player: it is rendered once per state of the feed and
    language and served to all; a new event makes a new rendering at once. The Mayor's copy also
    has each line's "why" (issue #12) and is cached apart: whoever renders first, a player never
    gets the Mayor's copy, nor the Mayor a player's."""
    session, mayor, seated, _minions = make_table(players=2, minions=0)
    (p1, hero1), (p2, _hero2) = seated
    url = session.get_absolute_url()
    client.force_login(p1)
    first = client.get(url, {"fragment": "feed"}, **HX).text
    assert "data-why" not in first
    client.force_login(p2)
    assert client.get(url, {"fragment": "feed"}, **HX).text == first
    client.force_login(mayor)
    mayors = client.get(url, {"fragment": "feed"}, **HX).text
    assert "data-why" in mayors and mayors != first
    check_request(session=session, by=mayor, characters=[hero1], trait="sentidos")
    mayors_fresh = client.get(url, {"fragment": "feed"}, **HX).text  # the Mayor renders first now
    lines = re.compile(r"<li\b[^>]*>(.*?)</li>", re.DOTALL)  # a line: <li id="event-N">...</li>
    assert len(lines.findall(mayors_fresh)) == len(lines.findall(mayors)) + 1 and "data-why" in mayors_fresh
    client.force_login(p1)
    fresh = client.get(url, {"fragment": "feed"}, **HX).text
    assert fresh != first and len(lines.findall(fresh)) == len(lines.findall(first)) + 1 and "data-why" not in fresh
    english = client.get(url, {"fragment": "feed"}, HTTP_ACCEPT_LANGUAGE="en", **HX).text
    assert "What just happened" in english and "What just happened" not in fresh
    # each line is kept once rendered, per language and side: no line rendered in Spanish is
    # served in English (the check's line: "es llamado"... / "is called"...)
    assert lines.findall(english) and not set(lines.findall(english)) & set(lines.findall(fresh))
    assert "is called to a" in english and "is called to a" not in fresh


def test_the_feed_swapped_in_place_and_the_one_swapped_out_of_band_are_cached_apart(client):
    """The feed of one state is cached twice: as its own fragment (swapped in place) and as a part
    of a push's answer (swapped out of band). Whichever is asked first, neither is served as the
    other, and both show the same lines."""
    session, mayor, seated, _minions = make_table(players=2, minions=0)
    (p1, hero1), (p2, _hero2) = seated
    url = session.get_absolute_url()
    for first, second in [("fragment", "regions"), ("regions", "fragment")]:
        check_request(session=session, by=mayor, characters=[hero1], trait="sentidos")  # a new state
        answers = {}
        for user, how in [(p1, first), (p2, second)]:
            client.force_login(user)
            answers[how] = client.get(url, {how: "feed"}, **HX).text
        assert 'hx-swap-oob="morph"' in answers["regions"]
        assert 'hx-swap-oob' not in answers["fragment"]
        assert answers["regions"].replace(' hx-swap-oob="morph"', "") == answers["fragment"]


def test_a_push_s_request_that_finds_the_feed_being_rendered_waits_for_that_rendering(client, monkeypatch):
    """Every page of a session asks for the new feed within milliseconds of a push: one request
    renders it, and another that comes meanwhile builds its own regions, then waits for that
    rendering and serves it, rather than rendering the feed a second time."""
    from django.core.cache import cache

    from frontera.play.views import sessions as views

    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (player, hero), = seated
    check_request(session=session, by=mayor, characters=[hero], trait="sentidos")  # a new state
    client.force_login(player)
    key = views._feed_key(session, False, oob=True)
    lock = views._feed_lock(key)
    planted = '<section id="feed" hx-swap-oob="morph">rendered by the other request</section>'

    def the_other_request_finishes():
        cache.set(key, planted, views.FEED_CACHE_SECONDS)
        lock.release()

    built = []
    page_context = views.page_context
    monkeypatch.setattr(views, "page_context", lambda request, session, regions=None, **extra: (
        built.append(set(regions)), page_context(request, session, regions, **extra))[1])
    lock.acquire()  # the other request is rendering this state of the feed
    finishing = threading.Timer(0.3, the_other_request_finishes)
    finishing.start()
    try:
        answer = client.get(session.get_absolute_url(), {"regions": "checks,feed"}, **HX)
    finally:
        finishing.join()
    assert answer.status_code == 200
    assert built == [{"checks"}]  # its own region only: the feed's view model is not built twice
    assert answer.text.endswith(planted)  # what the other rendered, after waiting for it
    assert '<section id="checks"' in answer.text and answer.text.count('id="feed"') == 1


def _article(client, session, check) -> str:
    """The check's article as the viewer's phone shows it: among their own checks, or at the table."""
    html = "".join(client.get(session.get_absolute_url(), {"fragment": name}, **HX).text for name in ("checks", "table"))
    return re.search(rf'<article id="check-{check.pk}".*?</article>', html, re.S).group(0)


def test_another_players_open_check_is_built_once_for_every_player_outside_it_and_never_stale(client):
    """Issue #11: a player's view of another's open check holds nothing of their own (no form, no
    card, no odds), so every player outside the check is shown the same article, built once for
    that state of the check; the player in it still gets their own (its draw button, their odds),
    and the article follows the check (the participant's draw shows at once)."""
    from django.test import Client

    session, mayor, seated, _minions = make_table(players=3, minions=0)
    (p1, hero1), (p2, _), (p3, _) = seated
    check = check_request(session=session, by=mayor, characters=[hero1], trait="manos")
    clients = {}
    for user in (p2, p3, p1):
        clients[user] = Client()
        clients[user].force_login(user)
    own = _article(clients[p1], session, check)  # first: nothing of it may reach the others
    assert 'data-testid="draw-' in own and "Probabilidades" in own and "csrfmiddlewaretoken" in own
    before = [_article(clients[user], session, check) for user in (p2, p3)]
    assert before[0] == before[1]
    assert "<form" not in before[0] and "Probabilidades" not in before[0]
    assert _article(clients[p1], session, check) != before[0]  # and the others' is not theirs
    check_draw(participant=check.participants.get(), by=p1)
    after = _article(clients[p2], session, check)
    assert after != before[0] and "boca abajo" in after  # drawn, face down: not the cached article
    assert after == _article(clients[p3], session, check)
