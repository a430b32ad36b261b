"""The Mayor's table tools (track changes, threats, drinks, accidents, rest, dead man's hands) are
one action per form submission: a double tap on "Aplicar" applies once; a fresh key (handed out
after every successful call) is a new action; a refused action can be sent again with its key."""

import re

import pytest
from django.urls import reverse

from frontera.play.models import ActionKey
from tests.factories import make_table, set_tracks

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _health(character) -> int:
    character.refresh_from_db()
    return character.sheet["tracks"]["health"]


def test_fr_hlt_1_a_double_submitted_track_change_applies_once(client):
    session, mayor, seated, _ = make_table()
    _player, hero = seated[0]
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).text
    key = re.search(r'id="rk-action_form" value="([^"]+)"|value="([^"]+)"[^>]*id="rk-action_form"', page)
    assert key, "the table tools' form carries a request key"
    data = {"character": hero.pk, "action": "health", "amount": -1, "request_key": "tap-1"}
    url = reverse("play_table_action", args=[session.pk])
    first = client.post(url, data, **HX)
    client.post(url, data, **HX)
    assert _health(hero) == -1
    fresh = re.search(r'<input[^>]*id="rk-action_form"[^>]*value="([^"]+)"', first.text).group(1)
    client.post(url, {**data, "request_key": fresh}, **HX)
    assert _health(hero) == -2


def test_fr_sob_1_a_double_submitted_drink_counts_once(client):
    session, mayor, seated, _ = make_table()
    _player, hero = seated[0]
    client.force_login(mayor)
    url = reverse("play_table_action", args=[session.pk])
    for _ in range(2):
        client.post(url, {"character": hero.pk, "action": "drink", "request_key": "drink-1"}, **HX)
    session.refresh_from_db()
    assert sum(session.tallies.get("alcohol", {}).values()) == 1


def test_a_refused_table_action_keeps_no_key_and_can_be_sent_again(client):
    session, mayor, seated, _ = make_table()
    _player, hero = seated[0]
    set_tracks(hero, health=0)
    client.force_login(mayor)
    url = reverse("play_table_action", args=[session.pk])
    response = client.post(url, {"character": hero.pk, "action": "rest", "hours": 0, "request_key": "r-1"}, **HX)
    assert 'role="alert"' in response.text
    assert not ActionKey.objects.filter(session=session, key="r-1").exists()
