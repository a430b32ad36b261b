"""A player with no phone at hand in a fight (FR-CMB-1, as with checks): the Mayor draws for them
from the dashboard, sees that hand and chooses from it; the player sees it too; nobody else does.
A hand the player drew on their phone stays theirs alone (tests/web/test_choose_probing.py)."""

import re

import pytest
from django.urls import reverse

from frontera.play.models import CombatRound
from frontera.play.services.checks import check_request
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


def _draw_form(html: str, action: str) -> str:
    return re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>', html).group(0)


def test_the_mayor_is_asked_before_drawing_a_players_cards_and_not_an_npcs(client):
    """A walk through a session found the Mayor's big "Draw N cards" on a player's check and fight
    drawing that player's hand at one click, so the Mayor saw cards the player was about to draw on
    their phone. Drawing for a player's protagonist asks first (the player without a phone still
    gets it); drawing for an NPC or a minion, and a player's own draw, do not ask."""
    session, mayor, [(p1, hero), _], (m1,) = make_table(players=2, minions=1)
    check = check_request(session=session, by=mayor, characters=[hero, m1], trait="manos")
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(m1, "b")])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    hero_part, npc_part = (check.participants.get(character=c) for c in (hero, m1))
    urls = {
        "check hero": reverse("play_draw", args=[session.pk, hero_part.pk]),
        "check npc": reverse("play_draw", args=[session.pk, npc_part.pk]),
        "fight hero": reverse("play_combat_draw", args=[session.pk, combat.pk, hero.pk]),
        "fight npc": reverse("play_combat_draw", args=[session.pk, combat.pk, m1.pk]),
    }
    client.force_login(mayor)
    html = client.get(session.get_absolute_url()).text
    asked = f"¿Robar por {hero.name}? Su jugador suele robar en su móvil, y tú verás las cartas."
    assert asked in _draw_form(html, urls["check hero"])
    assert "hx-confirm" not in _draw_form(html, urls["check npc"])
    assert "hx-confirm" not in _draw_form(html, urls["fight npc"])
    combat_draw(combat=combat, by=mayor, character=m1)  # the NPCs draw first (FR-CMB-1)
    combat_declare(combat=combat, by=p1, character=hero, technique="pelea", target=m1)
    html = client.get(session.get_absolute_url()).text
    assert asked in _draw_form(html, urls["fight hero"])
    client.force_login(p1)
    html = client.get(session.get_absolute_url()).text
    assert "hx-confirm" not in _draw_form(html, urls["check hero"])
    assert "hx-confirm" not in _draw_form(html, urls["fight hero"])
