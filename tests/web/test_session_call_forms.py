"""The Mayor's forms open on demand in a dialog (issue #10): the dashboard renders none of them.
Each opening is a fresh form with its own request key, so a double submit is one action and the
next call is a new one; a refused call keeps the dialog, and its form, and says why."""

import re

import pytest
from django.urls import reverse

from frontera.play.models import Check
from frontera.play.views.dialogs import TITLES
from tests.factories import make_table

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def _key(html: str) -> str:
    match = re.search(r'<input type="hidden" name="request_key" value="([^"]+)"', html)
    assert match, "no request key in the form"
    return match.group(1)


def _dialog(client, session, name, **params):
    return client.get(reverse("play_action_form", args=[session.pk, name]), params, **HX)


def test_the_dashboard_renders_no_call_form_and_a_toolbar_opens_each_one(client):
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).text
    assert "<select" not in page and "<fieldset" not in page  # no form widgets on the page itself
    for name in TITLES:
        if name != "join":
            assert f'data-testid="open-{name}"' in page
        response = _dialog(client, session, name)
        assert response.status_code == 200 and 'id="dialog-title"' in response.text, name
        assert "<html" not in response.text  # the dialog's partial, not a page
        assert client.get(reverse("play_action_form", args=[session.pk, name])).status_code == 200  # no JS


def test_each_opening_is_one_action_and_the_next_opening_a_new_one(client):
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    first_key = _key(_dialog(client, session, "check").text)
    data = {"characters": [str(seated[0][1].pk)], "trait": "manos", "modifier": 0, "request_key": first_key,
            "dialog": "1"}
    response = client.post(reverse("play_check_new", args=[session.pk]), data, HTTP_HX_TARGET="checks", **HX)
    assert response.status_code == 200 and 'id="checks"' in response.text
    assert "frontera:close-dialog" in response["HX-Trigger"]  # a success closes the dialog
    client.post(reverse("play_check_new", args=[session.pk]), data, **HX)  # a double submit: no new check
    assert Check.objects.filter(session=session).count() == 1
    second_key = _key(_dialog(client, session, "check").text)
    assert second_key != first_key
    client.post(reverse("play_check_new", args=[session.pk]), {**data, "request_key": second_key}, **HX)
    assert Check.objects.filter(session=session).count() == 2


def test_a_refused_call_keeps_the_dialog_and_its_key(client):
    """The error goes into the dialog (its half-filled form stays as it is), nothing is created,
    and the corrected form, with the same key, is still one action."""
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    key = _key(_dialog(client, session, "check").text)
    url = reverse("play_check_new", args=[session.pk])
    refused = client.post(url, {"characters": [], "trait": "manos", "modifier": 0, "request_key": key,
                                "dialog": "1"}, **HX)
    assert refused.status_code == 200 and 'data-testid="dialog-error"' in refused.text
    assert refused["HX-Retarget"] == "#dialog-error" and "HX-Trigger" not in refused
    assert not Check.objects.filter(session=session).exists()
    data = {"characters": [str(seated[0][1].pk)], "trait": "manos", "modifier": 0, "request_key": key, "dialog": "1"}
    client.post(url, data, **HX)
    client.post(url, data, **HX)
    assert Check.objects.filter(session=session).count() == 1


def test_a_player_gets_no_form_and_a_bad_name_is_404(client):
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    client.force_login(player)
    for name in TITLES:
        assert _dialog(client, session, name).status_code == 404
    client.force_login(mayor)
    assert _dialog(client, session, "nonsense").status_code == 404


def test_fr_opp_6_a_named_opposed_check_fills_in_traits_and_skills(client):
    """The book's named opposed checks are one tap: stealth is Músculo (Agilidad) against
    Sentidos (Percepción); the Mayor still chooses who takes part."""
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    html = _dialog(client, session, "opposed", preset="stealth").text
    assert re.search(r'name="trait_1"[^>]*>.*?<option value="musculo" selected', html, re.S)
    assert re.search(r'name="skill_1"[^>]*>.*?<option value="agilidad" selected', html, re.S)
    assert re.search(r'name="trait_2"[^>]*>.*?<option value="sentidos" selected', html, re.S)
    assert re.search(r'name="skill_2"[^>]*>.*?<option value="percepcion" selected', html, re.S)
    for row in (3, 4):  # more watchers share the second side's (a walk's were left on Manos, no skill)
        assert re.search(rf'name="trait_{row}"[^>]*>.*?<option value="sentidos" selected', html, re.S)
        assert re.search(rf'name="skill_{row}"[^>]*>.*?<option value="percepcion" selected', html, re.S)
    for preset in ("chase", "stealth", "pickpocket", "challenge", "provoke"):
        assert f'data-testid="preset-{preset}"' in html


def test_a_check_for_one_character_comes_preselected(client):
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    hero = seated[1][1]
    html = _dialog(client, session, "check", character=hero.pk).text
    assert re.search(rf'<input type="checkbox" name="characters" value="{hero.pk}"[^>]*checked', html)
    assert not re.search(rf'<input type="checkbox" name="characters" value="{seated[0][1].pk}"[^>]*checked', html)


def test_again_fills_in_the_last_check_as_it_was_called(client):
    """Issue #10: 'again' for a check opens its form filled in the same way (a new key)."""
    from frontera.play.services.checks import check_request

    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    hero = seated[0][1]
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="musculo", skill="agilidad",
                           difficulty=7, label="Saltar la valla")
    page = client.get(session.get_absolute_url()).text
    assert f'data-testid="again-{prueba.pk}"' in page
    html = _dialog(client, session, "check", again=prueba.pk).text
    assert re.search(rf'<input type="checkbox" name="characters" value="{hero.pk}"[^>]*checked', html)
    assert re.search(r'name="trait"[^>]*>.*?<option value="musculo" selected', html, re.S)
    assert re.search(r'name="skill"[^>]*>.*?<option value="agilidad" selected', html, re.S)
    assert 'value="7"' in html and 'value="Saltar la valla"' in html


def test_fr_char_2_the_check_dialogs_offer_each_traits_skills_under_the_trait(client):
    """A walk through a session picked Manos with Fuerza, a Músculo skill, and learnt it only from the
    refusal: the skills are grouped under their traits (an optgroup each), in the trait and the
    opposed check's dialogs alike."""
    session, mayor, _seated, _minions = make_table()
    client.force_login(mayor)
    for name in ("check", "opposed"):
        html = _dialog(client, session, name).text
        select = re.search(r'<select name="skill[^"]*"[^>]*>(.*?)</select>', html, re.DOTALL).group(1)
        groups = dict(re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', select, re.DOTALL))
        assert list(groups) == ["Manos", "Sentidos", "Músculo", "Cabeza"], (name, list(groups))
        assert 'value="fuerza"' in groups["Músculo"] and 'value="fuerza"' not in groups["Manos"]
