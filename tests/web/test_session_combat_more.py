"""Combat declarations from the pages (FR-CMB-2, -3, -6, -9, -13, -14): several targets with one
card each, a move or a change of cover applied at the end of the turn, Apresar and Asustar."""

import pytest
from django.urls import reverse

from frontera.play.models import SessionEvent
from frontera.play.services.combat import Fighter, combat_choose, combat_declare, combat_draw, combat_start
from frontera.play.services.core import SessionError
from tests.factories import make_table, stack_pile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
HX = {"HTTP_HX_REQUEST": "true"}


def _fight():
    session, mayor, seated, minions = make_table(players=2, minions=2)
    (p1, hero), (p2, other) = seated
    combat = combat_start(session=session, by=mayor, fighters=[
        Fighter(hero, "heroes"), Fighter(minions[0], "gang"), Fighter(minions[1], "gang")])
    return session, mayor, (p1, hero), minions, combat


def _minions_act(client, session, mayor, combat, minions, hero):
    client.force_login(mayor)
    for minion in minions:
        client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, minion.pk]),
                    {"technique": "pelea", "target": hero.pk, "band": "adyacente"}, **HX)
        client.post(reverse("play_combat_draw", args=[session.pk, combat.pk, minion.pk]), **HX)
        combat.refresh_from_db()
        hand = combat.state["hands"][f"k{minion.pk}"]
        client.post(reverse("play_combat_choose", args=[session.pk, combat.pk, minion.pk]),
                    {"cards": hand[:1], "suit": "D"}, **HX)


def test_fr_cmb_6_two_cards_each_at_its_own_target_from_the_phone(client):
    """Pelea with Manos 3: one extra card (per 2 full points); each played card has its own target."""
    session, mayor, (p1, hero), (m1, m2), combat = _fight()
    stack_pile(session, ["1:2D", "1:3D", "1:4D", "1:5D", "1:6D", "1:7D"])  # the minions miss (♦ is not ♠)
    _minions_act(client, session, mayor, combat, (m1, m2), hero)
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert 'name="targets"' in page and 'name="move_cover"' in page
    client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk]),
                {"technique": "pelea", "weapon": "", "target": m1.pk, "targets": [m2.pk], "band": "adyacente"}, **HX)
    combat.refresh_from_db()
    assert set(combat.state["declarations"][f"k{hero.pk}"]["targets"]) == {f"k{m1.pk}", f"k{m2.pk}"}
    assert combat.state["max_plays"][f"k{hero.pk}"] == 2
    stack_pile(session, ["1:KS", "1:QS", "1:JS", "1:10S", "1:9S"])
    response = client.post(reverse("play_combat_draw", args=[session.pk, combat.pk, hero.pk]), **HX)
    assert 'class="aim"' in response.text  # a target picker per card
    combat.refresh_from_db()
    hand = combat.state["hands"][f"k{hero.pk}"]
    first, second = hand[0], hand[1]
    client.post(reverse("play_combat_choose", args=[session.pk, combat.pk, hero.pk]),
                {"cards": [first, second], f"target-{first}": m1.pk, f"target-{second}": m2.pk}, **HX)
    combat.refresh_from_db()
    assert combat.state["revealed"]
    aimed = {(p["card"], p["target"]) for p in combat.state["plays"][f"k{hero.pk}"]}
    assert aimed == {(first, f"k{m1.pk}"), (second, f"k{m2.pk}")}
    hits = [r for r in combat.state["result"]["plays"] if r["attacker"] == f"k{hero.pk}"]
    assert {r["target"] for r in hits} == {f"k{m1.pk}", f"k{m2.pk}"}  # each hit resolved on its own


def test_fr_cmb_6_two_targets_without_saying_which_card_goes_where_is_refused(client):
    session, mayor, (p1, hero), (m1, m2), combat = _fight()
    _minions_act(client, session, mayor, combat, (m1, m2), hero)
    combat_declare(combat=combat, by=p1, character=hero, technique="pelea", targets=[m1, m2])
    combat_draw(combat=combat, by=p1, character=hero)
    combat.refresh_from_db()
    hand = combat.state["hands"][f"k{hero.pk}"]
    before = combat.state
    with pytest.raises(SessionError):
        combat_choose(combat=combat, by=p1, character=hero, cards=hand[:1])
    combat.refresh_from_db()
    assert combat.state == before


def test_fr_cmb_2_3_9_a_move_into_cover_applies_at_the_end_of_the_turn(client):
    session, mayor, (p1, hero), (m1, m2), combat = _fight()
    _minions_act(client, session, mayor, combat, (m1, m2), hero)
    client.force_login(p1)
    client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk]),
                {"technique": "move", "move_band": "corto", "move_cover": "partial"}, **HX)
    combat.refresh_from_db()
    assert combat.state["combatants"][f"k{hero.pk}"]["cover"] == "exposed"  # not yet (FR-CMB-3)
    assert any("FR-CMB-3" in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
    client.force_login(mayor)
    combat.refresh_from_db()
    if not combat.state.get("revealed"):
        client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "revelar"]), **HX)
    client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "siguiente"]), **HX)
    combat.refresh_from_db()
    assert combat.state["combatants"][f"k{hero.pk}"]["cover"] == "partial"


def test_fr_cmb_2_acting_moves_only_within_adyacente(client):
    session, mayor, (p1, hero), (m1, m2), combat = _fight()
    _minions_act(client, session, mayor, combat, (m1, m2), hero)
    client.force_login(p1)
    response = client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk]),
                           {"technique": "pelea", "target": m1.pk, "band": "adyacente", "move_band": "corto"}, **HX)
    assert 'data-testid="combat-error"' in response.text
    combat.refresh_from_db()
    assert f"k{hero.pk}" not in combat.state["declarations"]


@pytest.mark.parametrize("special,rule,shown", [("apresar", "FR-CMB-13", "Seize"), ("asustar", "FR-CMB-14", "Scare")])
def test_fr_cmb_13_14_apresar_and_asustar_are_declared_from_the_phone(client, special, rule, shown):
    session, mayor, (p1, hero), (m1, m2), combat = _fight()
    _minions_act(client, session, mayor, combat, (m1, m2), hero)
    client.force_login(p1)
    response = client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk]),
                           {"technique": "pelea", "weapon": "", "target": m1.pk, "band": "adyacente",
                            "special": special}, **HX)
    combat.refresh_from_db()
    assert combat.state["declarations"][f"k{hero.pk}"]["special"] == special
    assert shown in response.text  # the English word for the book's Apresar / Asustar (issue #12)
    assert any(rule in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
