"""The Mayor's pickers say who cannot act (FR-HLT-1, FR-MOR-1, FR-SOB-1): a Muerto, an Incapacitado,
a Paralizado or one En coma is greyed out where a check would be refused (a trait or opposed check,
a game, a pistol duel, a healer), and named with the reason where he may still be picked (the
patient, a table tool, a fight's sides, an exchange: a dead man's cards go to the Tesoro)."""

import re

import pytest
from django.urls import reverse

from tests.factories import make_table, set_tracks

pytestmark = pytest.mark.django_db


def _dialog(client, session, name: str) -> str:
    answer = client.get(reverse("play_action_form", args=[session.pk, name]), HTTP_ACCEPT_LANGUAGE="es")
    assert answer.status_code == 200
    return answer.content.decode()


def _options(html: str, pk: int) -> list[str]:
    """Every checkbox or option offering character ``pk``, with what follows it up to its label's end."""
    return re.findall(rf'<(?:input|option)[^>]*value="{pk}"[^>]*>(?:[^<]*</option>|<label[^>]*>[^<]*</label>)', html)


def _mayors_table(client, *tracks: dict, minions: int = 1):
    """A session with a player per entry of ``tracks`` (each their character's levels, {} for none),
    the Mayor logged in: the session and the characters."""
    session, mayor, seated, _ = make_table(players=len(tracks), minions=minions)
    for (_player, character), levels in zip(seated, tracks, strict=True):
        if levels:
            set_tracks(character, **levels)
    client.force_login(mayor)
    return session, mayor, [character for _player, character in seated]


def test_fr_hlt_1_a_dead_character_is_greyed_out_where_a_check_would_be_refused(client):
    session, _mayor, (alive, dead) = _mayors_table(client, {}, {"health": -4})
    for name in ("check", "opposed", "gamble", "duel", "medical"):
        html = _dialog(client, session, name)
        offers = _options(html, dead.pk)
        assert offers, name
        if name == "medical":  # the healer is greyed out; the patient is not (he is who needs it)
            healer, patient = offers
            assert "disabled" in healer and "no puede actuar (Muerto)" in healer
            assert "disabled" not in patient and "no puede actuar (Muerto)" in patient
        else:
            assert all("disabled" in offer and "no puede actuar (Muerto)" in offer for offer in offers), name
        assert all("disabled" not in offer and "no puede actuar" not in offer for offer in _options(html, alive.pk))


@pytest.mark.parametrize(("tracks", "level"), [
    ({"morale": -3}, "Paralizado"), ({"sobriety": -3}, "En coma"), ({"health": -3}, "Incapacitado"),
])
def test_fr_mor_1_fr_sob_1_each_level_without_actions_is_named_where_he_may_still_be_picked(client, tracks, level):
    session, _mayor, (_alive, out) = _mayors_table(client, {}, tracks)
    for name in ("tools", "fight", "exchange"):
        offers = _options(_dialog(client, session, name), out.pk)
        assert offers and all("disabled" not in o and f"no puede actuar ({level})" in o for o in offers), (name, offers)
    assert all("disabled" in o for o in _options(_dialog(client, session, "check"), out.pk))


def test_a_greyed_out_character_submitted_anyway_is_refused_by_name(client):
    """The form's greying is a help, not the guard: a forged submission gets the service's refusal."""
    session, _mayor, (dead,) = _mayors_table(client, {"health": -4})
    answer = client.post(reverse("play_check_new", args=[session.pk]),
                         {"characters": [dead.pk], "trait": "manos", "modifier": 0, "request_key": "k1"},
                         HTTP_ACCEPT_LANGUAGE="es", HTTP_HX_REQUEST="true")
    assert dead.name in answer.content.decode() and "Muerto" in answer.content.decode()
    assert not session.checks.exists()


def test_a_duel_and_a_healer_start_on_characters_who_can_act(client):
    session, _mayor, (first, dead, third) = _mayors_table(client, {"health": -4}, {"sobriety": -3}, {})
    duel = _dialog(client, session, "duel")
    selected = re.findall(r'<option value="(\d+)"[^>]*selected', duel)
    assert str(third.pk) in selected and str(first.pk) not in selected and str(dead.pk) not in selected
    medical = _dialog(client, session, "medical")
    assert re.search(rf'<option value="{third.pk}"[^>]*selected', medical)


def test_the_board_offers_no_check_for_a_character_who_cannot_act(client):
    """The board's one-tap "Check" opened the dialog on a character the service would refuse."""
    session, _mayor, (alive, out) = _mayors_table(client, {}, {"morale": -3})
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f'data-testid="check-for-{alive.pk}"' in page and f'data-testid="check-for-{out.pk}"' not in page
    assert f'data-testid="hurt-{out.pk}"' in page  # the other taps stay: a table tool may still be used on him


def test_nobody_greyed_out_starts_ticked_or_selected(client):
    """"Again" on a check whose character has since died, the board's "?character=" of one who cannot
    act, and a duel with one character able: each rendered a greyed-out box ticked (a disabled box
    is not sent: the call went without him, or was refused as empty) or a duellist selected."""
    from frontera.play.services.checks import check_request

    session, mayor, seated, _ = make_table(players=2, minions=0)
    (_p1, alive), (_p2, dead) = seated
    prueba = check_request(session=session, by=mayor, characters=[alive, dead], trait="manos", modifier=0)
    set_tracks(dead, health=-4)
    client.force_login(mayor)
    url = reverse("play_action_form", args=[session.pk, "check"])
    again = client.get(url, {"again": prueba.pk}).content.decode()
    ticked = re.findall(r'<input[^>]*value="(\d+)"[^>]*checked|<input[^>]*checked[^>]*value="(\d+)"', again)
    assert {a or b for a, b in ticked} == {str(alive.pk)}
    chosen = client.get(url, {"character": dead.pk}).content.decode()
    assert not re.search(r"<input[^>]*checked", chosen)
    duel = _dialog(client, session, "duel")
    assert not re.search(rf'<option value="{dead.pk}"[^>]*selected', duel)


def _tap(page: str, testid: str) -> str | None:
    """The board's one-tap form holding button ``testid``, or ``None``."""
    found = re.search(rf'<form[^>]*>(?:(?!</form>).)*data-testid="{testid}"', page, re.DOTALL)
    return found.group(0) if found else None


def test_fr_hlt_1_salud_minus_one_asks_before_it_leaves_a_character_unable_to_act_or_dead(client):
    """A walk through an evening took a character from Sano to Muerto with four quick taps of
    "Salud −1", none of which asked, and +1 does not bring a Muerto back (FR-HLT-3: the dead man's
    hand decides). The tap that would leave him Incapacitado or Muerto asks first; the others do not."""
    session, _mayor, (hurt, bad, out) = _mayors_table(client, {"health": -1}, {"health": -2}, {"health": -3})
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "hx-confirm" not in _tap(page, f"hurt-{hurt.pk}")
    assert (f'hx-confirm="Salud −1 lleva a {bad.name} a Incapacitado: no podrá actuar hasta recuperarse. ¿Seguir?"'
            in _tap(page, f"hurt-{bad.pk}"))
    assert (f'hx-confirm="Salud −1 lleva a {out.name} a Muerto: la mano del hombre muerto decidirá si vive. ¿Seguir?"'
            in _tap(page, f"hurt-{out.pk}"))
    english = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Health −1 takes {out.name} to Dead: the dead man&#x27;s hand will decide" in _tap(english, f"hurt-{out.pk}")


def test_fr_hlt_3_a_muerto_has_no_health_drink_or_threat_tap_and_keeps_his_tools(client):
    """A Muerto's "Salud −1" changed nothing, his "+1" was refused, and a drink or a threat meant
    nothing: the board offers none of them; "…" keeps the death roll and the dead man's hand."""
    session, _mayor, (alive, dead) = _mayors_table(client, {}, {"health": -4})
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    for tap in ("hurt", "heal", "drink", "threat"):
        assert _tap(page, f"{tap}-{alive.pk}") is not None
        assert _tap(page, f"{tap}-{dead.pk}") is None, tap
    assert f'data-testid="tools-for-{dead.pk}"' in page
