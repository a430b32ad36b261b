"""The dashboard's call forms stay on the page after an htmx submit. A successful call hands every
call form a fresh request key (out-of-band), so the Mayor's next call is a new check, while a
double submit of the same form is still one action."""

import re

import pytest
from django.urls import reverse

from frontera.play.models import Check
from tests.factories import make_table

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _key(html: str, form: str) -> str:
    match = re.search(rf'<input type="hidden" name="request_key"[^>]*id="rk-{form}"[^>]*>', html) or re.search(
        rf'<input[^>]*id="rk-{form}"[^>]*>', html)
    assert match, f"no request key input for {form}"
    return re.search(r'value="([^"]+)"', match.group(0)).group(1)


def test_every_call_form_has_an_addressable_request_key(client):
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).text
    keys = {form: _key(page, form) for form in ("check_form", "opposed_form", "gamble_form", "medical_form",
                                                 "exchange_form", "treasure_form", "duel_form")}
    assert len(set(keys.values())) == len(keys)  # one key per form, no shared id
    assert len(re.findall(r'id="rk-check_form"', page)) == 1


def test_two_checks_called_in_a_row_from_the_same_page_are_two_checks(client):
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    first_key = _key(client.get(session.get_absolute_url()).text, "check_form")
    data = {"characters": [str(seated[0][1].pk)], "trait": "manos", "modifier": 0, "request_key": first_key}
    response = client.post(reverse("play_check_new", args=[session.pk]), data, **HX)
    assert response.status_code == 200 and 'id="checks"' in response.text
    assert 'hx-swap-oob="true"' in response.text
    second_key = _key(response.text, "check_form")
    assert second_key != first_key
    client.post(reverse("play_check_new", args=[session.pk]), data, **HX)  # a double submit: no new check
    assert Check.objects.filter(session=session).count() == 1
    client.post(reverse("play_check_new", args=[session.pk]), {**data, "request_key": second_key}, **HX)
    assert Check.objects.filter(session=session).count() == 2


def test_a_refused_call_keeps_its_key_so_the_corrected_form_is_still_one_action(client):
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    response = client.post(reverse("play_check_new", args=[session.pk]),
                           {"characters": [], "trait": "manos", "modifier": 0, "request_key": "k1"}, **HX)
    assert response.status_code == 200 and "hx-swap-oob" not in response.text
    assert not Check.objects.filter(session=session).exists()


def test_a_player_gets_no_fresh_keys(client):
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    client.force_login(player)
    assert 'id="rk-' not in client.get(session.get_absolute_url()).text
