"""On the Mayor's screen his own draws (an NPC's, a minion's) are the big button; drawing for a
player, who usually draws on the phone and whose cards he would then see, is a small secondary one
that asks first (a walk found "Robar 8 cartas" as large on the player's line as on the NPC's)."""

import re

import pytest

from frontera.play.services.checks import Entry, opposed_request
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def test_the_mayors_draw_for_a_player_is_small_and_asks_his_own_is_big(client):
    session, mayor, seated, (minion,) = make_table(players=1, minions=1)
    (_player, hero), = seated
    prueba = opposed_request(session=session, by=mayor, entries=[Entry(hero, "manos"), Entry(minion, "sentidos")])
    client.force_login(mayor)
    html = client.get(session.get_absolute_url(), {"fragment": "checks"}, **HX).content.decode()
    forms = {p.character_id: re.search(rf'<form[^>]*>(?:(?!</form>).)*data-testid="draw-{p.pk}"[^>]*>',
                                       html, re.DOTALL).group(0) for p in prueba.participants.all()}
    mine, theirs = forms[minion.pk], forms[hero.pk]
    assert "for-player" in theirs and "secondary" in theirs and "hx-confirm" in theirs
    assert "for-player" not in mine and "secondary" not in mine and "hx-confirm" not in mine
