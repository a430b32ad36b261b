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
    dialog = reverse("play_action_form", args=[session.pk, "tools"])  # the tools open on demand
    key = re.search(r'<input type="hidden" name="request_key" value="([^"]+)"', client.get(dialog, **HX).text)
    assert key, "the table tools' form carries a request key"
    data = {"character": hero.pk, "action": "health", "amount": -1, "request_key": key.group(1)}
    url = reverse("play_table_action", args=[session.pk])
    client.post(url, data, **HX)
    client.post(url, data, **HX)  # a double submit
    assert _health(hero) == -1
    fresh = re.search(r'<input type="hidden" name="request_key" value="([^"]+)"', client.get(dialog, **HX).text)
    assert fresh.group(1) != key.group(1)  # the next opening is a new action
    client.post(url, {**data, "request_key": fresh.group(1)}, **HX)
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


def test_fr_hlt_1_one_tap_damage_from_a_character_card_applies_once_and_answers_with_the_table(client):
    """Issue #10: the character card's 'Salud −1' is one tap; a double tap is one action; the answer
    is the table itself (with the new level and fresh keys for the next tap)."""
    session, mayor, seated, _ = make_table()
    _player, hero = seated[0]
    client.force_login(mayor)
    board = client.get(session.get_absolute_url(), {"fragment": "board"}, **HX).text
    form = re.search(rf'<form[^>]*>(?:(?!</form>).)*data-testid="hurt-{hero.pk}"', board, re.S).group(0)
    data = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    assert data["action"] == "health" and data["amount"] == "-1" and data["request_key"]
    # the key stays a valid request key (≤ 40 characters) for any character id up to 10 digits and
    # the longest action (a 41-character key was refused: "Check the form")
    tap, _pk, _action = data["request_key"].split("-")
    assert len(f"{tap}-{10**10 - 1}-threat") <= 40
    url = reverse("play_table_action", args=[session.pk])
    answer = client.post(url, data, HTTP_HX_TARGET="board", **HX).text
    client.post(url, data, HTTP_HX_TARGET="board", **HX)  # the double tap
    assert _health(hero) == -1
    assert 'id="board"' in answer and 'id="checks"' not in answer
    again = re.search(rf'name="request_key" value="([^"]+)"><button[^>]*data-testid="hurt-{hero.pk}"', answer)
    assert again and again.group(1) != data["request_key"]
    client.post(url, {**data, "request_key": again.group(1)}, HTTP_HX_TARGET="board", **HX)
    assert _health(hero) == -2


def test_fr_sob_3_several_drinks_in_one_submission_are_drunk_one_by_one(client):
    """Issue #10: eight drinks are one form, not eight; each is its own FR-SOB-3 step in the log."""
    from frontera.play.models import SessionEvent

    session, mayor, seated, _ = make_table()
    _player, hero = seated[0]
    client.force_login(mayor)
    url = reverse("play_table_action", args=[session.pk])
    client.post(url, {"character": hero.pk, "action": "drink", "drinks": 3, "request_key": "d3"}, **HX)
    client.post(url, {"character": hero.pk, "action": "drink", "drinks": 3, "request_key": "d3"}, **HX)
    session.refresh_from_db()
    assert sum(session.tallies.get("alcohol", {}).values()) == 3
    drinks = [e for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-SOB-3" in e.rules]
    assert len(drinks) == 3
