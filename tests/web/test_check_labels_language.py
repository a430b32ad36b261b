"""Issue #12: a check the table itself labels (a pistol duel's round, a habilidad contest) is read
in each reader's language, whatever language the Mayor who called it was reading in."""

import pytest
from django.test import Client
from django.utils import translation

from frontera.play.services.duels import pistol_duel_start
from frontera.play.services.gambling import gamble_contest
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def _checks(user, session, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true").text


def test_fr_cmb_15_a_pistol_duels_round_is_labelled_in_each_readers_language():
    session, mayor, [(p1, hero), (_p2, rival)], _ = make_table(players=2, minions=0)
    with translation.override("es"):  # the Mayor reads Spanish when he calls it
        pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver",
                          second=rival, second_weapon="revolver")
    english, spanish = _checks(p1, session, "en"), _checks(p1, session, "es")
    assert f"Pistol duel, round 1: {hero.name} (" in english and "Duelo a pistola" not in english
    assert f"Duelo a pistola, ronda 1: {hero.name} (" in spanish and "Pistol duel" not in spanish


def test_fr_gmb_7_a_habilidad_contest_is_labelled_in_each_readers_language():
    session, mayor, [(p1, hero), (_p2, rival)], _ = make_table(players=2)
    with translation.override("es"):
        gamble_contest(session=session, by=mayor, kind="habilidad", characters=[hero, rival], contest="pulso")
    english, spanish = _checks(p1, session, "en"), _checks(p1, session, "es")
    assert "game of skill: arm wrestling" in english and "pulso" not in english
    assert "juego de habilidad: pulso" in spanish and "arm wrestling" not in spanish


def test_fr_gmb_5_an_azar_night_is_labelled_as_a_game_of_chance_not_by_its_key():
    """A walk read "Prueba enfrentada · azar": the game's key, lowercase, as the check's name."""
    session, mayor, [(p1, hero), (_p2, rival)], _ = make_table(players=2)
    gamble_contest(session=session, by=mayor, kind="azar", characters=[hero, rival])
    english, spanish = _checks(p1, session, "en"), _checks(p1, session, "es")
    assert "Opposed check · game of chance" in english
    assert "Prueba enfrentada · juego de azar" in spanish
