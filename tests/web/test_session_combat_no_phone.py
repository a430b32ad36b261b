"""A player with no phone at hand in a fight (FR-CMB-1, as with checks): the Mayor draws for them
from the dashboard, sees that hand and chooses from it; the player sees it too; nobody else does.
A hand the player drew on their phone stays theirs alone (tests/web/test_choose_probing.py)."""

import pytest
from django.urls import reverse

from frontera.play.models import CombatRound
from frontera.play.services.combat import (
    Fighter,
    combat_choose,
    combat_declare,
    combat_draw,
    combat_next_turn,
    combat_start,
)
from frontera.rules.cards import Card
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _label(uid):
    return Card.from_uid(uid).code


def test_fr_cmb_1_the_mayor_draws_and_chooses_for_a_player_without_a_phone(client):
    session, mayor, [(p1, hero), (p2, other)], (m1,) = make_table(players=2, minions=1)
    combat = combat_start(session=session, by=mayor, fighters=[
        Fighter(hero, "posse"), Fighter(other, "posse"), Fighter(m1, "gang")])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=m1)
    combat_declare(combat=combat, by=mayor, character=hero, technique="pelea", target=m1)
    client.force_login(mayor)
    client.post(reverse("play_combat_draw", args=[session.pk, combat.pk, hero.pk]), **HX)
    combat.refresh_from_db()
    hand = combat.state["hands"][f"k{hero.pk}"]
    assert combat.drawn_by == {f"k{hero.pk}": mayor.pk}
    dashboard = client.get(session.get_absolute_url() + "?fragment=combat").text
    assert all(f'value="{uid}"' in dashboard for uid in hand)  # the Mayor holds the hand he drew
    for who, sees in ((p1, True), (p2, False)):
        client.force_login(who)
        page = client.get(session.get_absolute_url()).text
        assert all((f'value="{uid}"' in page) is sees for uid in hand), who
    client.force_login(mayor)
    response = client.post(reverse("play_combat_choose", args=[session.pk, combat.pk, hero.pk]),
                           {"cards": [hand[0]]}, **HX)
    assert 'data-testid="combat-error"' not in response.text
    assert CombatRound.objects.get(pk=combat.pk).state["plays"][f"k{hero.pk}"][0]["card"] == hand[0]


def test_fr_cmb_1_the_mayors_hold_ends_with_the_turn():
    session, mayor, [(p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "posse"), Fighter(m1, "gang")])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=m1)
    combat_declare(combat=combat, by=mayor, character=hero, technique="pelea", target=m1)
    combat_draw(combat=combat, by=mayor, character=hero)
    combat.refresh_from_db()
    hands = combat.state["hands"]
    combat_choose(combat=combat, by=mayor, character=m1, cards=[hands[f"k{m1.pk}"][0]])
    combat_choose(combat=combat, by=mayor, character=hero, cards=[hands[f"k{hero.pk}"][0]])
    combat.refresh_from_db()
    assert combat.state["revealed"] is True
    combat_next_turn(combat=combat, by=mayor)
    assert CombatRound.objects.get(pk=combat.pk).drawn_by == {}
