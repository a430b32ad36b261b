"""Ending a session: only the Mayor, only when nothing is left open; afterwards nothing changes."""

import pytest
from django.test import Client
from django.urls import reverse

from frontera.play.models import GameSession, SessionEvent
from frontera.play.services.checks import check_request
from frontera.play.services import core
from frontera.play.services.core import SessionError, session_topic
from frontera.play.services.sessions import session_end, session_start
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def test_mayor_ends_a_quiet_session_and_it_can_no_longer_change():
    session, mayor, seated, _ = make_table()
    (player, hero), _ = seated
    response = _client(mayor).post(reverse("play_session_end", args=[session.pk]))
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.status == GameSession.Status.ENDED
    assert SessionEvent.objects.filter(session=session).order_by("-pk").first().message.startswith("The Mayor ends")
    page = _client(mayor).get(reverse("play_session", args=[session.pk])).text
    assert 'data-testid="session-ended"' in page and 'data-testid="session-end"' not in page
    assert "play_check_new" not in page and reverse("play_check_new", args=[session.pk]) not in page
    with pytest.raises(SessionError, match="ha terminado"):
        check_request(session=session, by=mayor, characters=[hero], trait="manos")
    sheet = _client(player).get(hero.get_absolute_url()).text
    assert 'data-testid="deck-summary"' not in sheet


def test_ending_is_refused_while_a_check_is_open_and_nothing_changes():
    session, mayor, seated, _ = make_table()
    (_, hero), _ = seated
    check_request(session=session, by=mayor, characters=[hero], trait="manos")
    events = SessionEvent.objects.filter(session=session).count()
    with pytest.raises(SessionError, match="una prueba"):
        session_end(session=session, by=mayor)
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE
    assert SessionEvent.objects.filter(session=session).count() == events
    response = _client(mayor).post(reverse("play_session_end", args=[session.pk]), follow=True)
    assert "Termina o cancela lo que sigue abierto" in response.text


def test_only_the_mayor_ends_and_a_double_submit_changes_nothing():
    session, mayor, seated, _ = make_table()
    (player, _), _ = seated
    assert _client(player).post(reverse("play_session_end", args=[session.pk])).status_code == 404
    session_end(session=session, by=mayor)
    events = SessionEvent.objects.filter(session=session).count()
    session_end(session=session, by=mayor)
    assert SessionEvent.objects.filter(session=session).count() == events


def test_ending_the_session_asks_first_and_says_what_will_happen():
    """Issue #10: the dashboard's button leads to a confirmation that says what ending does; only
    its POST ends the session; a player may not even see it."""
    session, mayor, seated, _ = make_table()
    (player, hero), _ = seated
    mayor_client = _client(mayor)
    dashboard = mayor_client.get(session.get_absolute_url()).text
    confirm_url = reverse("play_session_end", args=[session.pk])
    assert f'href="{confirm_url}"' in dashboard  # a link to the confirmation, not a one-click form
    page = mayor_client.get(confirm_url)
    assert page.status_code == 200
    assert 'data-testid="confirm-session_end"' in page.text and 'data-testid="confirm-yes"' in page.text
    session.refresh_from_db()
    assert session.status == GameSession.Status.ACTIVE  # looking at it changes nothing
    assert _client(player).get(confirm_url).status_code == 404
    check_request(session=session, by=mayor, characters=[hero], trait="manos")
    blocked = mayor_client.get(confirm_url).text
    assert 'data-testid="confirm-blocked"' in blocked and 'data-testid="confirm-yes"' not in blocked


def test_what_keeps_a_session_open_is_listed_with_a_link_to_each_thing():
    """A walk through an evening found the confirmation listing "a check, an exchange" and nothing
    to click: each open thing is named (which check, whose exchange, the fight's turn, whose banca)
    and links to its place on the Mayor's page."""
    from frontera.play.models import Exchange, Gamble
    from frontera.play.services.combat import combat_start
    from frontera.play.services.exchanges import exchange_start
    from frontera.play.services.fighters import Fighter
    from frontera.play.services.gambling import banca_begin

    session, mayor, seated, minions = make_table(players=4, minions=1)
    (_p1, ana), (_p2, bea), (_p3, cat), (_p4, dan) = seated
    prueba = check_request(session=session, by=mayor, characters=[ana], trait="manos", label="Forzar la cerradura")
    combat_start(session=session, by=mayor, fighters=[Fighter(bea, "posse"), Fighter(minions[0], "gang")])
    exchange_start(session=session, by=mayor, kind="bet", first=cat, second=dan)
    banca_begin(session=session, by=mayor, character=dan)
    client = _client(mayor)
    listed = client.get(reverse("play_session_end", args=[session.pk])).text.split('data-testid="still-open"', 1)[1]
    listed = listed.split("</ul>", 1)[0]
    dashboard = client.get(session.get_absolute_url()).text
    exchange = Exchange.objects.get(session=session)
    banca = Gamble.objects.get(session=session)
    page = session.get_absolute_url()
    expected = [
        (f"check-{prueba.pk}", f"Prueba de rasgo · Forzar la cerradura · {ana.name}"),
        ("combat", "La pelea, turno 1"),
        (f"exchange-{exchange.pk}", f"Apuesta · {cat.name} y {dan.name}"),
        (f"banca-{banca.pk}", f"La banca · {dan.name}"),
    ]
    for anchor, text in expected:
        assert f'<a href="{page}#{anchor}">{text}</a>' in listed, (anchor, listed)
        assert f'id="{anchor}"' in dashboard, anchor  # the link leads somewhere
    assert listed.count("<li>") == len(expected)


def test_the_phones_show_that_the_session_ended():
    """Issue #10: the phone's live region says so once the Mayor ends the session."""
    session, mayor, seated, _ = make_table()
    (player, _hero), _ = seated
    phone = _client(player)
    url = session.get_absolute_url() + "?fragment=checks"
    assert "no te ha pedido ninguna prueba" in phone.get(url, HTTP_HX_REQUEST="true").text
    assert 'data-testid="session-ended"' not in phone.get(url, HTTP_HX_REQUEST="true").text
    _client(mayor).post(reverse("play_session_end", args=[session.pk]))
    ended = phone.get(url, HTTP_HX_REQUEST="true").text
    assert 'data-testid="session-ended"' in ended
    assert "no te ha pedido ninguna prueba" not in ended  # nothing more will be asked


def test_an_ended_session_leads_to_the_next(monkeypatch):
    """A walk through an evening found an ended session's page a dead end: the Mayor's says where
    to start the next session, and, once it is started, leads to it, as a phone's does (before it,
    a phone leads back to the campaign)."""
    session, mayor, seated, _ = make_table()
    (player, hero), _ = seated
    session_end(session=session, by=mayor)
    mayor_page = _client(mayor).get(session.get_absolute_url()).text
    assert f'href="{reverse("play_sessions", args=[session.campaign_id])}" data-testid="next-session"' in mayor_page
    assert "Empezar la siguiente sesión…" in mayor_page and 'data-testid="later-session"' not in mayor_page
    phone_page = _client(player).get(session.get_absolute_url()).text
    assert f'href="{session.campaign.get_absolute_url()}" data-testid="back-to-campaign"' in phone_page
    events = SessionEvent.objects.filter(session=session).count()
    pushes = []
    monkeypatch.setattr(core, "publish_on_commit", lambda topic, version, regions=None, actor=None:
                        pushes.append((topic, version, regions)))
    later = session_start(campaign=session.campaign, by=mayor, characters=[hero])
    # the ended session's log says so: its open pages are pushed, and show the way on
    told = SessionEvent.objects.filter(session=session).order_by("-pk")
    assert told.count() == events + 1 and told[0].message == "Session %(number)s has started."
    assert told[0].params == {"number": later.number}
    assert (session_topic(session.pk), told[0].pk, None) in pushes  # every region of its pages
    for who in (mayor, player):
        page = _client(who).get(session.get_absolute_url()).text
        assert f'href="{later.get_absolute_url()}" data-testid="later-session"' in page, who
        assert f"Ir a la sesión {later.number}" in page
        assert 'data-testid="next-session"' not in page and 'data-testid="back-to-campaign"' not in page
    # an active session's pages have neither
    assert 'data-testid="later-session"' not in _client(mayor).get(later.get_absolute_url()).text


def test_ending_phase_1_asks_first_and_the_button_goes_with_phase_1():
    """Issue #10: ending phase 1 has its confirmation too; the button lives in the table's live
    region, so it leaves every open dashboard when phase 2 begins."""
    session, mayor, _seated, _ = make_table()
    client = _client(mayor)
    url = reverse("play_phase_two", args=[session.pk])
    board = client.get(session.get_absolute_url() + "?fragment=board", HTTP_HX_REQUEST="true").text
    assert 'data-testid="phase-two"' in board and f'href="{url}"' in board
    assert 'data-testid="confirm-phase_two"' in client.get(url).text
    session.refresh_from_db()
    assert session.phase == 1
    client.post(url)
    session.refresh_from_db()
    assert session.phase == 2
    board = client.get(session.get_absolute_url() + "?fragment=board", HTTP_HX_REQUEST="true").text
    assert 'data-testid="phase-two"' not in board
    assert client.get(url).status_code == 302  # no confirmation for what cannot happen any more


def test_fr_mode_1_the_start_form_says_what_each_mode_does(client):
    """The Mayor chooses a mode knowing what it does (FR-MODE-1, -2, -4, -7, -10, -11); a walk found
    the three names with nothing to tell them apart, and "skip phase 1" unexplained (FR-MODE-6)."""
    session, mayor, _seated, _ = make_table(players=1)
    client.force_login(mayor)
    page = client.get(reverse("play_sessions", args=[session.campaign_id]), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Sin gestión: una sola baraja para todos" in page and "Con desgaste: una baraja entera" in page
    assert "Solo en modo Normal: se reparten todas las cartas" in page


def test_a_session_in_play_is_the_first_thing_on_the_sessions_page(client):
    """A player found the live session only as a small "Sesión 1" link in the list."""
    session, mayor, seated, _ = make_table(players=1)
    (player, _hero), = seated
    client.force_login(player)
    url = reverse("play_sessions", args=[session.campaign_id])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").text
    assert f'data-testid="enter-{session.pk}"' in page and "La sesión 1 está en juego: únete a la mesa" in page
    assert page.index(f'data-testid="enter-{session.pk}"') < page.index('data-testid="sessions"')
    session_end(session=session, by=mayor)
    assert f'data-testid="enter-{session.pk}"' not in client.get(url).text
