"""The combat round completed (issue #5): a range band per target and several targets (FR-CMB-6,
FR-CMB-11), mount and holster declarations (FR-CMB-9, FR-CMB-10), medical attention taking the
whole turn (FR-CHK-5), the death roll (FR-HLT-3) and the Mayor's override during a fight."""

import dataclasses
import re

import pytest
from django.urls import reverse

from frontera.characters.models import Character
from frontera.play.models import CombatRound, GameSession, SessionEvent, Treatment, combat_key
from frontera.play.services.checks import check_choose, check_draw
from frontera.play.services.combat import (
    Fighter,
    combat_choose,
    combat_declare,
    combat_draw,
    combat_next_turn,
    combat_reveal,
    combat_start,
)
from frontera.play.services.core import SessionError
from frontera.play.services.death import death_roll
from frontera.play.services.medical import medical_request
from frontera.rules import characters as rules_characters
from frontera.rules import combat as rules_combat
from tests.factories import assert_conserved, make_table, set_tracks, stack_pile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
HX = {"HTTP_HX_REQUEST": "true"}


def _url(name, session, combat, *more):
    return reverse(name, args=[session.pk, combat.pk, *more])


def _fight(players=1, minions=2, before=None):
    session, mayor, seated, extras = make_table(players=players, minions=minions)
    if before:
        before(seated, extras)
    fighters = [Fighter(Character.objects.get(pk=c.pk), "posse") for _, c in seated]
    fighters += [Fighter(m, "gang") for m in extras]
    combat = combat_start(session=session, by=mayor, fighters=fighters)
    return session, mayor, seated, extras, combat


def _minions_other(session, mayor, combat, minions):
    for minion in minions:
        combat_declare(combat=combat, by=mayor, character=minion, technique="move")


def _sheet(character):
    return rules_characters.Character.from_json(Character.objects.get(pk=character.pk).sheet)


def _decisions(session, rule):
    return [e for e in SessionEvent.objects.filter(session=session, kind="decision") if rule in e.rules]


def test_fr_cmb_6_11_each_target_has_its_own_range_band_from_the_page(client):
    session, mayor, [(p1, hero)], (m1, m2), combat = _fight()
    _minions_other(session, mayor, combat, (m1, m2))
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert f'name="band_{m1.pk}"' in page and f'name="band_{m2.pk}"' in page  # a band per target
    client.post(_url("play_combat_declare", session, combat, hero.pk),
                {"technique": "disparo_rapido", "weapon": "revolver", "targets": [m1.pk, m2.pk],
                 f"band_{m1.pk}": "adyacente", f"band_{m2.pk}": "medio"}, **HX)
    combat.refresh_from_db()
    key = f"k{hero.pk}"
    assert combat.state["declarations"][key]["targets"] == {f"k{m1.pk}": "adyacente", f"k{m2.pk}": "medio"}
    spec = combat.state["combatants"][key]
    # the revolver's adyacente −1 is the worse of the two bands (FR-CMB-11 ruling in the engine)
    assert combat.state["required"][key] == rules_combat.check_cards(spec, "disparo_rapido", -1)
    assert _decisions(session, "FR-CMB-6") and _decisions(session, "FR-CMB-11")
    stack_pile(session, ["1:KS", "1:QS", "1:JS", "1:10S", "1:9S", "1:8S"])
    response = client.post(_url("play_combat_draw", session, combat, hero.pk), **HX)
    assert 'class="aim"' in response.text  # on the phone: a target per chosen card
    combat.refresh_from_db()
    first = combat.state["hands"][key][0]  # no Disparo rápido skill: one card, at the target it names
    client.post(_url("play_combat_choose", session, combat, hero.pk), {"cards": [first], f"target-{first}": m2.pk},
                **HX)
    combat.refresh_from_db()
    assert combat.state["revealed"]
    assert [r["target"] for r in combat.state["result"]["plays"]] == [f"k{m2.pk}"]
    assert_conserved(session)


def test_fr_cmb_11_a_band_out_of_the_weapons_reach_is_refused_and_nothing_changes(client):
    session, mayor, [(p1, hero)], (m1, m2), combat = _fight()
    _minions_other(session, mayor, combat, (m1, m2))
    client.force_login(p1)
    before = CombatRound.objects.get(pk=combat.pk).state
    response = client.post(_url("play_combat_declare", session, combat, hero.pk),
                           {"technique": "disparo_rapido", "weapon": "revolver", "targets": [m1.pk, m2.pk],
                            f"band_{m1.pk}": "corto", f"band_{m2.pk}": "largo"}, **HX)
    assert 'data-testid="combat-error"' in response.text and "largo" in response.text
    assert CombatRound.objects.get(pk=combat.pk).state == before
    response = client.post(_url("play_combat_declare", session, combat, hero.pk),
                           {"technique": "pelea", "targets": []}, **HX)
    assert "Choose a target." in response.text
    assert CombatRound.objects.get(pk=combat.pk).state == before


def test_fr_cmb_9_a_declared_mount_is_logged_shown_and_kept_for_the_next_turn(client):
    session, mayor, [(p1, hero)], (m1, m2), combat = _fight()
    _minions_other(session, mayor, combat, (m1, m2))
    client.force_login(p1)
    client.post(_url("play_combat_declare", session, combat, hero.pk),
                {"technique": "move", "mount": "trot", "cover": "exposed"}, **HX)
    combat.refresh_from_db()
    assert combat.state["declarations"][f"k{hero.pk}"]["mount"] == "trot"
    assert _decisions(session, "FR-CMB-9")
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert "mount at a trot" in page  # the declaration is public
    combat_reveal(combat=combat, by=mayor)
    combat_next_turn(combat=combat, by=mayor)
    combat.refresh_from_db()
    assert combat.state["combatants"][f"k{hero.pk}"]["mount"] == "trot"
    _minions_other(session, mayor, combat, (m1, m2))
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert '<option value="trot" selected>' in page  # the form starts from where they stand


def test_fr_cmb_9_10_no_apuntar_mounted_or_holstered_and_the_error_is_clear(client):
    session, mayor, [(p1, hero)], (m1, m2), combat = _fight()
    _minions_other(session, mayor, combat, (m1, m2))
    client.force_login(p1)
    before = CombatRound.objects.get(pk=combat.pk).state
    for situation, words in (({"holstered": "on"}, "holstered"), ({"mount": "gallop"}, "mount")):
        response = client.post(_url("play_combat_declare", session, combat, hero.pk),
                               {"technique": "apuntar", "weapon": "revolver", "targets": [m1.pk],
                                f"band_{m1.pk}": "corto", **situation}, **HX)
        assert 'data-testid="combat-error"' in response.text and words in response.text
        assert CombatRound.objects.get(pk=combat.pk).state == before
    client.post(_url("play_combat_declare", session, combat, hero.pk),
                {"technique": "disparo_rapido", "weapon": "revolver", "targets": [m1.pk], f"band_{m1.pk}": "corto",
                 "holstered": "on"}, **HX)
    combat.refresh_from_db()
    assert combat.state["declarations"][f"k{hero.pk}"]["holstered"] is True
    assert _decisions(session, "FR-CMB-10")


def test_fr_chk_5_medical_attention_in_combat_takes_the_whole_turn(client):
    session, mayor, [(p1, hero), (p2, doc)], (m1,), combat = _fight(
        players=2, minions=1, before=lambda seated, extras: set_tracks(seated[0][1], health=-2))
    _minions_other(session, mayor, combat, (m1,))
    client.force_login(p2)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert 'value="medical"' in page and 'name="patient"' in page
    url = _url("play_combat_declare", session, combat, doc.pk)
    response = client.post(url, {"technique": "medical", "patient": hero.pk, "move_band": "adyacente"}, **HX)
    assert "whole turn" in response.text  # no move with it
    response = client.post(url, {"technique": "medical"}, **HX)
    assert "Choose whom the medical attention is for." in response.text
    assert not Treatment.objects.exists()
    for _twice in range(2):  # a double submit is a no-op
        response = client.post(url, {"technique": "medical", "patient": hero.pk}, **HX)
        assert 'data-testid="combat-error"' not in response.text
    treatment = Treatment.objects.get()
    assert (treatment.healer_id, treatment.patient_id) == (doc.pk, hero.pk)
    assert treatment.prueba.participants.get().character_id == doc.pk  # Cabeza (Saber) on the healer's phone
    combat.refresh_from_db()
    decl = combat.state["declarations"][f"k{doc.pk}"]
    assert decl["action"] == "medical" and decl["patient"] == f"k{hero.pk}"
    assert combat.state["required"][f"k{doc.pk}"] == 0  # no attack cards: the whole turn goes to it
    assert _decisions(session, "FR-CHK-5")
    assert "medical attention to" in client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text


def test_fr_chk_5_medical_attention_to_an_unhurt_fighter_is_refused_and_nothing_changes(client):
    session, mayor, [(p1, hero), (p2, doc)], (m1,), combat = _fight(players=2, minions=1)
    _minions_other(session, mayor, combat, (m1,))
    before = CombatRound.objects.get(pk=combat.pk).state
    with pytest.raises(SessionError):
        combat_declare(combat=combat, by=p2, character=doc, technique="medical", patient=hero)
    assert CombatRound.objects.get(pk=combat.pk).state == before and not Treatment.objects.exists()


def _kill_in_combat(session, mayor, hero, m1, combat):
    """m1 hits hero (Incapacitado, Aguante 7) with K♠: 1 level, down to Muerto."""
    stack_pile(session, ["1:KS", "1:QS", "1:JS"])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=m1)
    combat_choose(combat=combat, by=mayor, character=m1, cards=["1:KS"])
    combat.refresh_from_db()
    assert combat.state["revealed"] and _sheet(hero).health == -4


def test_fr_hlt_3_reaching_muerto_in_a_fight_calls_for_the_death_roll_which_the_mayor_draws(client):
    session, mayor, [(p1, hero)], (m1,), combat = _fight(
        minions=1, before=lambda seated, extras: set_tracks(seated[0][1], health=-3))
    _kill_in_combat(session, mayor, hero, m1, combat)
    assert _decisions(session, "FR-HLT-3")  # "within 5 combat turns a dead man's hand decides"
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert f'data-testid="dead-{hero.pk}"' in page and f'data-testid="death-roll-{hero.pk}"' not in page
    client.force_login(mayor)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert f'data-testid="death-roll-{hero.pk}"' in page
    url = reverse("play_combat_death_roll", args=[session.pk, combat.pk])
    for _twice in range(2):  # the same request key: drawn once
        client.post(url, {"character": hero.pk, "request_key": "k-1"}, **HX)
    rolls = [e for e in _decisions(session, "FR-HLT-3") if e.message.startswith("Death roll")]
    assert len(rolls) == 1 and len(rolls[0].params["cards"].split()) == 1  # no medical attention: 1 card
    health = _sheet(hero).health
    dead = str(hero.pk) in GameSession.objects.get(pk=session.pk).tallies.get("dead", {})
    assert (health, dead) in ((-3, False), (-4, True))
    combat.refresh_from_db()
    assert combat.state["combatants"][f"k{hero.pk}"]["health"] == health  # the fight knows
    combat_next_turn(combat=combat, by=mayor)
    combat.refresh_from_db()
    assert combat.state["combatants"][f"k{hero.pk}"]["health"] == health  # not overwritten by the reveal
    if dead:  # an 8: dead for good; no second chance
        with pytest.raises(SessionError):
            death_roll(session=session, by=mayor, character=hero, request_key="k-2")


def test_fr_hlt_3_with_medical_attention_the_death_roll_draws_two():
    """FR-HLT-3, FR-CHK-5: attention that works on the dead hero, before the roll, wins the second
    card (given here through the healer's real Cabeza (Saber) check, a low ♦: an Éxito)."""
    session, mayor, [(p1, hero)], (m1,), combat = _fight(
        minions=1, before=lambda seated, extras: set_tracks(seated[0][1], health=-3))
    _kill_in_combat(session, mayor, hero, m1, combat)
    treatment = medical_request(session=session, by=mayor, healer=m1, patient=hero)
    part = treatment.prueba.participants.get()
    stack_pile(session, ["1:2D"])
    part = check_draw(participant=part, by=mayor)
    check_choose(participant=part, by=mayor, card="1:2D")
    assert Treatment.objects.get(pk=treatment.pk).speeds is True
    result = death_roll(session=session, by=mayor, character=hero)
    roll = [e for e in _decisions(session, "FR-HLT-3") if e.message.startswith("Death roll")][-1]
    assert len(roll.params["cards"].split()) == 2 and "FR-CHK-5" in roll.rules
    assert result == ("incapacitado" if "A" in roll.params["cards"] else "permanente")


def test_fr_hlt_3_the_rules_draw_the_death_roll_when_the_fifth_turn_is_over():
    session, mayor, [(p1, hero)], (m1,), combat = _fight(
        minions=1, before=lambda seated, extras: set_tracks(seated[0][1], health=-3))
    _kill_in_combat(session, mayor, hero, m1, combat)
    combat_next_turn(combat=combat, by=mayor)
    for _turn in range(4):  # turns 2..5: still time
        try:
            combat_declare(combat=combat, by=mayor, character=m1, technique="move")
        except SessionError:  # jammed on turn 5 (FR-CMB-12)
            pass
        combat_reveal(combat=combat, by=mayor)
        combat_next_turn(combat=combat, by=mayor)
        assert not [e for e in _decisions(session, "FR-HLT-3") if e.message.startswith("Death roll")]
    combat_declare(combat=combat, by=mayor, character=m1, technique="move")
    combat_reveal(combat=combat, by=mayor)
    combat_next_turn(combat=combat, by=mayor)  # into turn 7: turn 6 was the fifth after dying
    rolls = [e for e in _decisions(session, "FR-HLT-3") if e.message.startswith("Death roll")]
    assert len(rolls) == 1 and rolls[0].params["how"]
    assert str(hero.pk) not in GameSession.objects.get(pk=session.pk).tallies.get("dying", {})


def test_fr_hlt_1_the_mayors_override_during_a_fight_wins_over_the_automated_result(client):
    session, mayor, [(p1, hero)], (m1,), combat = _fight(minions=1)
    stack_pile(session, ["1:KS", "1:QS", "1:JS", "1:10S", "1:9S", "1:8S"])
    combat_declare(combat=combat, by=mayor, character=m1, technique="move")
    combat_declare(combat=combat, by=p1, character=hero, technique="pelea", target=m1)
    combat_draw(combat=combat, by=p1, character=hero)
    combat.refresh_from_db()
    combat_choose(combat=combat, by=p1, character=hero, cards=combat.state["hands"][f"k{hero.pk}"][:1])
    assert _sheet(m1).health < 0  # K♠ against Aguante 5: hit
    client.force_login(mayor)
    client.post(reverse("play_table_action", args=[session.pk]),
                {"character": m1.pk, "action": "health", "amount": 4, "note": "a ruling"}, **HX)
    assert _sheet(m1).health == 0
    assert _decisions(session, "FR-HLT-1")
    combat_next_turn(combat=combat, by=mayor)
    combat.refresh_from_db()
    spec = combat.state["combatants"][f"k{m1.pk}"]
    assert (spec["health"], spec["penalty"]) == (0, 0)


def test_fr_cmb_1_a_player_does_not_see_the_others_secret_choice_before_the_reveal(client):
    session, mayor, [(p1, hero), (p2, other)], (m1,), combat = _fight(players=2, minions=1)
    combat_declare(combat=combat, by=mayor, character=m1, technique="move")
    for player, character in ((p1, hero), (p2, other)):
        combat_declare(combat=combat, by=player, character=character, technique="pelea", target=m1)
        combat_draw(combat=combat, by=player, character=character)
    combat.refresh_from_db()
    chosen = combat.state["hands"][f"k{hero.pk}"][0]
    combat_choose(combat=combat, by=p1, character=hero, cards=[chosen])
    client.force_login(p2)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert chosen not in page and f"{hero.name}: locked in" in page


def test_fr_cmb_1_the_same_declaration_twice_is_a_no_op_and_another_is_refused(client):
    session, mayor, [(p1, hero)], (m1, m2), combat = _fight()
    _minions_other(session, mayor, combat, (m1, m2))
    client.force_login(p1)
    url = _url("play_combat_declare", session, combat, hero.pk)
    data = {"technique": "pelea", "targets": [m1.pk], f"band_{m1.pk}": "adyacente"}
    for _twice in range(2):
        response = client.post(url, data, **HX)
        assert 'data-testid="combat-error"' not in response.text
    assert len(_decisions(session, "FR-CMB-4")) == 1  # the minions only moved: this is the one attack
    before = CombatRound.objects.get(pk=combat.pk).state
    response = client.post(url, {**data, "targets": [m2.pk], f"band_{m2.pk}": "adyacente"}, **HX)
    assert "already declared" in response.text
    assert CombatRound.objects.get(pk=combat.pk).state == before


def test_fr_hlt_3_outside_a_fight_the_mayor_draws_the_death_roll_from_the_table_tools(client):
    session, mayor, [(p1, hero)], _minions = make_table(players=1, minions=0)
    set_tracks(hero, health=-4)
    client.force_login(mayor)
    page = client.get(reverse("play_action_form", args=[session.pk, "tools"])).text  # opened on demand
    assert 'value="death"' in page
    client.post(reverse("play_table_action", args=[session.pk]), {"character": hero.pk, "action": "death"}, **HX)
    rolls = [e for e in _decisions(session, "FR-HLT-3") if e.message.startswith("Death roll")]
    assert len(rolls) == 1 and _sheet(hero).health in (-3, -4)
    set_tracks(hero, health=-1)
    response = client.post(reverse("play_table_action", args=[session.pk]),
                           {"character": hero.pk, "action": "death"}, **HX)
    assert "Only a dead character" in response.text or "dead for good" in response.text


def test_fr_cmb_2_another_action_draws_nothing_and_may_move_within_adyacente(client):
    """Picking up a weapon is an action (FR-CMB-2): no cards, a move within adyacente only."""
    session, mayor, [(p1, hero)], (m1, m2), combat = _fight()
    _minions_other(session, mayor, combat, (m1, m2))
    client.force_login(p1)
    url = _url("play_combat_declare", session, combat, hero.pk)
    response = client.post(url, {"technique": "other", "move_band": "corto"}, **HX)
    assert 'data-testid="combat-error"' in response.text
    response = client.post(url, {"technique": "other", "move_band": "adyacente"}, **HX)
    assert "another action (no attack)" in response.text
    combat.refresh_from_db()
    assert combat.state["declarations"][f"k{hero.pk}"]["action"] == "other"
    assert rules_combat.phase(combat.state) == "reveal"


def test_fr_hlt_3_only_the_mayor_draws_the_death_roll(client):
    session, mayor, [(p1, hero)], (m1,), combat = _fight(
        minions=1, before=lambda seated, extras: set_tracks(seated[0][1], health=-3))
    _kill_in_combat(session, mayor, hero, m1, combat)
    client.force_login(p1)
    response = client.post(reverse("play_combat_death_roll", args=[session.pk, combat.pk]),
                           {"character": hero.pk, "request_key": "x"}, **HX)
    assert response.status_code == 404
    assert not [e for e in _decisions(session, "FR-HLT-3") if e.message.startswith("Death roll")]


def test_fr_cmb_2_a_double_submitted_move_from_the_page_is_a_no_op(client):
    session, mayor, [(p1, hero)], (m1, m2), combat = _fight()
    _minions_other(session, mayor, combat, (m1, m2))
    client.force_login(p1)
    data = {"technique": "move", "weapon": "revolver", "move_band": "corto"}  # the weapon select posts anyway
    for _twice in range(2):
        response = client.post(_url("play_combat_declare", session, combat, hero.pk), data, **HX)
        assert 'data-testid="combat-error"' not in response.text
    assert len(_decisions(session, "FR-CMB-3")) == 1


def test_fr_cmb_11_a_knife_declared_for_melee_is_accepted_as_the_catalogue_says(client):
    """Issue #10: the catalogue calls a knife held in hand a melee weapon (FR-CHAR-5); declaring it
    for melee at adyacente is accepted through the service and draws with no modifier."""

    def knives(seated, _extras):
        hero = Character.objects.get(pk=seated[0][1].pk)
        sheet = rules_characters.Character.from_json(hero.sheet)
        hero.sheet = dataclasses.replace(sheet, equipment={**sheet.equipment, "cuchillo": 3}).to_json()
        hero.save(update_fields=["sheet"])

    session, mayor, [(player, hero)], minions, combat = _fight(before=knives)
    _minions_other(session, mayor, combat, minions)
    combat_declare(combat=combat, by=player, character=hero, technique="melee", weapon="cuchillo",
                   target=minions[0], band="adyacente")
    state = CombatRound.objects.get(pk=combat.pk).state
    key = combat_key(hero.pk)
    assert state["declarations"][key]["technique"] == "melee"
    assert state["declarations"][key]["weapon"] == "cuchillo"


def test_fr_cmb_1_a_players_declaration_waits_visibly_until_the_npcs_have_drawn(client):
    """Issue #10: before the NPCs have declared and drawn, the player's form says whom it waits for
    and its Declare button is disabled; once they have drawn, the button is live."""
    session, mayor, [(player, hero)], minions, combat = _fight(minions=1)
    client.force_login(player)
    url = session.get_absolute_url() + "?fragment=combat"
    page = client.get(url, **HX).text
    assert f'data-testid="wait-npcs-{hero.pk}"' in page and minions[0].name in page
    assert re.search(rf'data-testid="declare-{hero.pk}" disabled', page)
    combat_declare(combat=combat, by=mayor, character=minions[0], technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=minions[0])
    page = client.get(url, **HX).text
    assert f'data-testid="wait-npcs-{hero.pk}"' not in page
    assert not re.search(rf'data-testid="declare-{hero.pk}" disabled', page)
