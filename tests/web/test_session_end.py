"""Ending a session: only the Mayor, only when nothing is left open; afterwards nothing changes."""

import pytest
from django.test import Client
from django.urls import reverse

from frontera.play.models import GameSession, SessionEvent
from frontera.play.services.checks import check_request
from frontera.play.services.core import SessionError
from frontera.play.services.sessions import session_end
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
