"""Combat rounds at the table (FR-CMB): NPCs first, secret choices, one reveal, every hit explained,
tracks updated on the sheets, cards moved like a check's, jams on turn 5."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from frontera.characters.models import Character
from frontera.play.models import CombatRound, SessionEvent
from frontera.play.selectors.core import render_message
from frontera.play.services.combat import (
    Fighter,
    combat_choose,
    combat_declare,
    combat_draw,
    combat_end,
    combat_next_turn,
    combat_reveal,
    combat_start,
)
from frontera.play.services.core import SessionError
from frontera.rules import characters as rules_characters
from tests.factories import assert_conserved, engine, make_table, stack_pile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _fight():
    session, mayor, seated, minions = make_table(players=2, minions=2)
    (p1, hero), (p2, other) = seated
    combat = combat_start(session=session, by=mayor, fighters=[
        Fighter(hero, "heroes"), Fighter(other, "heroes"), Fighter(minions[0], "gang"), Fighter(minions[1], "gang")])
    return session, mayor, (p1, hero), (p2, other), minions, combat


def _sheet(character):
    return rules_characters.Character.from_json(Character.objects.get(pk=character.pk).sheet)


def test_fr_cmb_1_npcs_declare_and_draw_before_players():
    session, mayor, (p1, hero), _, (m1, m2), combat = _fight()
    with pytest.raises(SessionError):
        combat_declare(combat=combat, by=p1, character=hero, technique="disparo_rapido", target=m1,
                                band="corto", weapon="revolver")


def test_fr_cmb_1_a_turn_2_protagonists_vs_2_minions_through_reveal_and_damage():
    session, mayor, (p1, hero), (p2, other), (m1, m2), combat = _fight()
    # minions (3 cards each, drawn first from the pile): all spades; heroes: hearts and spades
    stack_pile(session, ["1:2S", "1:3S", "1:4S", "1:5S", "1:6S", "1:7S"][::-1])
    for minion, target in ((m1, hero), (m2, other)):
        combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=target,
                                band="adyacente")
        combat_draw(combat=combat, by=mayor, character=minion)
    stack_pile(session, ["1:KS", "1:QS", "1:JS", "1:10S", "1:9S", "1:KH", "1:QH", "1:JH", "1:10H", "1:9H"][::-1])
    for player, character, target in ((p1, hero, m1), (p2, other, m2)):
        combat_declare(combat=combat, by=player, character=character, technique="disparo_rapido",
                                target=target, band="corto", weapon="revolver")
        combat_draw(combat=combat, by=player, character=character)
    combat.refresh_from_db()
    hands = combat.state["hands"]
    combat_choose(combat=combat, by=mayor, character=m1, cards=[hands[f"k{m1.pk}"][0]])
    combat_choose(combat=combat, by=mayor, character=m2, cards=[hands[f"k{m2.pk}"][0]])
    spade = next(c for c in hands[f"k{hero.pk}"] if c.endswith("S") and not c.endswith("JS"))
    combat_choose(combat=combat, by=p1, character=hero, cards=[spade])
    combat.refresh_from_db()
    assert combat.state["revealed"] is False  # waiting for the last one, in secret
    heart = next(c for c in hands[f"k{other.pk}"] if c.endswith("H"))
    combat_choose(combat=combat, by=p2, character=other, cards=[heart])
    combat.refresh_from_db()
    assert combat.state["revealed"] is True
    records = {r["attacker"]: r for r in combat.state["result"]["plays"]}
    assert records[f"k{hero.pk}"]["hit"] and not records[f"k{other.pk}"]["hit"]  # FR-CMB-5: ♥ misses Manos
    expected = records[f"k{hero.pk}"]["taken"]
    assert _sheet(m1).health == -min(4, expected)
    lines = [e for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-CMB-8" in e.rules]
    assert len(lines) == 4
    # the minion's tracks: only what changed ("Moral Normal → Normal" was listed beside Salud)
    tracks = [e for e in SessionEvent.objects.filter(session=session, kind="decision")
              if e.rules == ["FR-HLT-1", "FR-MOR-1"] and e.params.get("who") == m1.name]
    text = render_message(tracks[0].message, tracks[0].params)
    assert text.startswith(f"{m1.name}: Health Unhurt → ") and "Morale" not in text
    state = engine(session)
    assert all(not checks for checks in state.pending.values())  # every drawn card went somewhere
    assert spade in state.player_decks[f"c{hero.pk}"]  # FR-MODE-4: played → own deck in phase 1
    assert_conserved(session)
    combat_next_turn(combat=combat, by=mayor)
    combat.refresh_from_db()
    assert combat.turn == 2 and combat.state["revealed"] is False


def test_combat_end_returns_open_draws_and_a_new_fight_can_start():
    session, mayor, (p1, hero), (p2, other), (m1, m2), combat = _fight()
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero, band="adyacente")
    combat_draw(combat=combat, by=mayor, character=m1)
    with pytest.raises(SessionError):
        combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(m1, "b")])
    combat_end(combat=combat, by=mayor)
    assert all(not checks for checks in engine(session).pending.values())
    assert_conserved(session)
    with pytest.raises(SessionError):
        combat_draw(combat=combat, by=mayor, character=m2)
    combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(m1, "b")])
    assert CombatRound.objects.filter(session=session, status="open").count() == 1


def test_fr_cmb_12_jams_are_drawn_on_turn_5():
    session, mayor, (p1, hero), (p2, other), (m1, m2), combat = _fight()
    for _turn in range(4):
        for character in (m1, m2, hero, other):
            combat_declare(combat=combat, by=mayor, character=character, technique="move")
        combat_reveal(combat=combat, by=mayor)
        combat_next_turn(combat=combat, by=mayor)
    combat.refresh_from_db()
    assert combat.turn == 5
    jams = [e for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-CMB-12" in e.rules]
    assert len(jams) == 4 and set(combat.state["jams"]) == {f"k{c.pk}" for c in (m1, m2, hero, other)}
    assert_conserved(session)


HX = {"HTTP_HX_REQUEST": "true"}


def test_combat_through_the_pages_phone_declares_draws_and_locks_in(client):
    session, mayor, (p1, hero), (p2, other), (m1, m2), combat = _fight()
    client.force_login(mayor)
    for minion, target in ((m1, hero), (m2, other)):
        client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, minion.pk]),
                    {"technique": "pelea", "target": target.pk, "band": "adyacente"}, **HX)
        client.post(reverse("play_combat_draw", args=[session.pk, combat.pk, minion.pk]), **HX)
        combat.refresh_from_db()
        hand = combat.state["hands"][f"k{minion.pk}"]
        client.post(reverse("play_combat_choose", args=[session.pk, combat.pk, minion.pk]),
                    {"cards": hand[:1], "suit": "S"}, **HX)
    for player, character, target in ((p1, hero, m1), (p2, other, m2)):
        client.force_login(player)
        page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
        assert f'data-testid="declare-{character.pk}"' in page
        assert f'data-testid="declare-{m1.pk}"' not in page  # only their own fighter
        assert f"Tu declaración ({character.name})" in page  # their own ("Declarar por …" read as for another)
        client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, character.pk]),
                    {"technique": "pelea", "weapon": "", "target": target.pk, "band": "adyacente"}, **HX)
        response = client.post(reverse("play_combat_draw", args=[session.pk, combat.pk, character.pk]), **HX)
        assert 'data-testid="lock-in-' in response.text and 'data-testid="lockstrip"' in response.text
        combat.refresh_from_db()
        # at least one card is played (none is refused): the legend read "Juega hasta 1 carta" (FR-CHK-2)
        most = combat.state["max_plays"][f"k{character.pk}"]
        assert (f"Juega de 1 a {most} cartas</legend>" if most > 1 else "Juega 1 carta</legend>") in response.text
        hand = combat.state["hands"][f"k{character.pk}"]
        client.post(reverse("play_combat_choose", args=[session.pk, combat.pk, character.pk]),
                    {"cards": hand[:1], "suit": "S"}, **HX)
    combat.refresh_from_db()
    assert combat.state["revealed"]
    client.force_login(mayor)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert 'data-testid="combat-results"' in page and 'data-testid="next-turn"' in page
    full = client.get(session.get_absolute_url()).text
    assert not re.search(r"\sstyle=", full) and not re.search(r"\son[a-z]+=", full)  # CSP: nothing inline
    client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "siguiente"]), **HX)
    assert CombatRound.objects.get().turn == 2
    client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "terminar"]))
    assert CombatRound.objects.get().status == "ended"
    assert_conserved(session)


def test_a_player_cannot_act_for_a_minion_or_run_the_fight(client):
    session, mayor, (p1, hero), _, (m1, m2), combat = _fight()
    client.force_login(p1)
    for name in ("play_combat_declare", "play_combat_draw", "play_combat_choose"):
        assert client.post(reverse(name, args=[session.pk, combat.pk, m1.pk]),
                           {"technique": "pelea", "target": hero.pk}).status_code == 404
    assert client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "terminar"])).status_code == 404
    assert client.post(reverse("play_combat_new", args=[session.pk]), {}).status_code == 404


def test_combat_start_form_on_the_dashboard(client):
    session, mayor, seated, (m1, m2) = make_table(players=2, minions=2)
    client.force_login(mayor)
    client.post(reverse("play_combat_new", args=[session.pk]),
                {"side_a": [str(c.pk) for _, c in seated], "side_b": [str(m1.pk), str(m2.pk)]}, **HX)
    combat = CombatRound.objects.get()
    assert {s["side"] for s in combat.state["combatants"].values()} == {"a", "b"}
    assert len(combat.state["combatants"]) == 4



def test_a_fighter_ticked_on_both_sides_is_named_and_no_fight_starts(client):
    """A walk through an evening ticked one character on both sides and read only "A fight needs
    characters on two sides.": the refusal names who is on both, and nothing starts."""
    session, mayor, [(_p1, hero), (_p2, rival)], (m1,) = make_table(players=2, minions=1)
    client.force_login(mayor)
    events = SessionEvent.objects.filter(session=session).count()
    answer = client.post(reverse("play_combat_new", args=[session.pk]),
                         {"side_a": [str(hero.pk)], "side_b": [str(hero.pk), str(m1.pk)]},
                         HTTP_ACCEPT_LANGUAGE="es", **HX)
    assert answer.headers.get("X-Live-Refused")
    assert f"{hero.name}: en los dos bandos; elige un bando para cada uno." in answer.text
    assert not CombatRound.objects.exists() and SessionEvent.objects.filter(session=session).count() == events


def test_engine_errors_name_the_characters_not_their_keys():
    session, mayor, (p1, hero), _, (m1, m2), combat = _fight()
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero, band="adyacente")
    with pytest.raises(SessionError) as err:
        combat_reveal(combat=combat, by=mayor)
    assert m1.name in str(err.value) or m2.name in str(err.value)
    assert f"k{m1.pk}" not in str(err.value)


def test_fr_cmb_4_a_declaration_names_its_weapon(client):
    """A walk through a fight read "Disparo rápido → Esbirro (corto)" without the weapon: the
    declaration says it, by the campaign's name for it, in the reader's language."""
    session, mayor, (p1, hero), _, (m1, m2), combat = _fight()
    for minion in (m1, m2):
        combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero)
        combat_draw(combat=combat, by=mayor, character=minion)
    combat_declare(combat=combat, by=p1, character=hero, technique="disparo_rapido", target=m1, band="corto",
                   weapon="revolver")
    client.force_login(p1)
    spanish = client.get(session.get_absolute_url(), {"fragment": "combat"}, HTTP_ACCEPT_LANGUAGE="es", **HX).text
    assert f"Disparo rápido (Revólver) → {m1.name} (corto)" in spanish
    english = client.get(session.get_absolute_url(), {"fragment": "combat"}, HTTP_ACCEPT_LANGUAGE="en", **HX).text
    assert f"Quick draw (Revolver) → {m1.name} (short)" in english


def test_fr_cmb_13_a_holds_contest_is_said_at_the_reveal():
    """Turn 1: the hero's Pelea with Apresar hits (no damage): the minion is held. Turn 2 the pair
    only fight over the hold (opposed Músculo): the hero's higher ♥ keeps it, and the feed says so
    with both cards (a walk found no line at all: the next turn just showed "forcejeo" again)."""
    session, mayor, seated, (minion,) = make_table(players=1, minions=1)
    ((p1, hero),) = seated
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(minion, "b")])
    combat_declare(combat=combat, by=mayor, character=minion, technique="other")  # draws nothing
    stack_pile(session, ["1:KS"])
    combat_declare(combat=combat, by=p1, character=hero, technique="pelea", target=minion, band="adyacente",
                   special="apresar")
    combat_draw(combat=combat, by=p1, character=hero)
    combat_choose(combat=combat, by=p1, character=hero, cards=["1:KS"])
    combat.refresh_from_db()
    assert combat.state["revealed"] and combat.state["result"]["grapples"] == [
        {"holder": f"k{hero.pk}", "held": f"k{minion.pk}"}]
    combat_next_turn(combat=combat, by=mayor)
    combat.refresh_from_db()
    stack_pile(session, ["1:2H"])
    combat_draw(combat=combat, by=mayor, character=minion)
    stack_pile(session, ["1:QH"])
    combat_draw(combat=combat, by=p1, character=hero)
    combat_choose(combat=combat, by=mayor, character=minion, cards=["1:2H"])
    combat_choose(combat=combat, by=p1, character=hero, cards=["1:QH"])
    line = [e for e in SessionEvent.objects.filter(session=session, kind="decision").order_by("pk")
            if e.rules == ["FR-CMB-13"]][-1]
    assert render_message(line.message, line.params) == f"{hero.name} keeps hold of {minion.name}: Q♥ against 2♥ (Muscle)."
    with translation.override("es"):
        assert render_message(line.message, line.params) == (
            f"{hero.name} mantiene apresado a {minion.name}: Q♥ contra 2♥ (Músculo).")
