"""A phone shows its player's own deck only where the mode gives one (FR-MODE-10: Sin gestión has
one shared deck; a walk read "0 cards face down (phase 1: nobody sees their own deck)" there, in a
mode without phases)."""

import pytest

from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("mode", "has_deck"), [("sin_gestion", False), ("normal", True), ("con_desgaste", True)])
def test_fr_mode_10_a_phone_shows_its_own_deck_only_where_the_mode_has_one(client, mode, has_deck):
    session, _mayor, seated, _ = make_table(players=1, mode=mode)
    (player, _hero), = seated
    client.force_login(player)
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert ('data-testid="deck"' in page) is has_deck
    if not has_deck:
        assert "fase 1" not in page and "Tu mazo" not in page
