"""What a phone's page shows around the check: its player's own deck only where the mode gives one
(FR-MODE-10: Sin gestión has one shared deck; a walk read "0 cards face down (phase 1: nobody sees
their own deck)" there, in a mode without phases), and the screen-on toggle only while the session
is in play, after the crumbs (it was floated into them and stayed once the session had ended)."""

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


def test_the_screen_on_toggle_follows_the_crumbs_and_goes_when_the_session_ends(client):
    from frontera.play.services.sessions import session_end

    session, mayor, seated, _ = make_table(players=1)
    (player, _hero), = seated
    client.force_login(player)
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    crumbs = page[page.index('<p class="crumbs">'):]
    crumbs = crumbs[:crumbs.index("</p>")]
    assert crumbs.index('data-testid="history-link"') < crumbs.index('data-testid="wake-lock"')
    session_end(session=session, by=mayor)
    assert 'data-testid="wake-lock"' not in client.get(session.get_absolute_url()).content.decode()
