"""Dollars are written the reader's way on every page (frontera.glossary.money): "27 $" in Spanish,
as the Spanish feed and forms say them, "$27" in English; a walk found "$27" and "50 $" on the
same Spanish evening."""

import pytest
from django.utils import translation

from frontera import glossary
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def test_money_is_written_each_languages_way():
    with translation.override("es"):
        assert (glossary.money(27), glossary.money(-5), glossary.money(None)) == ("27 $", "-5 $", "")
    with translation.override("en"):
        assert (glossary.money(27), glossary.money(-5)) == ("$27", "-$5")


def test_the_phone_and_the_sheet_say_the_money_in_the_readers_language(client):
    session, _mayor, seated, _ = make_table(players=1)
    (player, hero), = seated
    client.force_login(player)
    money = hero.sheet["money"]
    spanish = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    english = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-testid="money-{hero.pk}">{money} $<' in spanish
    assert f'data-testid="money-{hero.pk}">${money}<' in english
    sheet = client.get(hero.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f'data-testid="money">{money} $<' in sheet
