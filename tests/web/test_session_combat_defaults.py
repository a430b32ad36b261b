"""The declaration form is valid as it stands (FR-CMB-2): the first weapon carried comes with the
technique that uses it, so one tap on "Declarar" declares; an unarmed fighter gets Pelea."""

import re

import pytest
from django.urls import reverse

from frontera.play.models import CombatRound, combat_key
from frontera.play.services.combat import (
    Fighter,
    combat_choose,
    combat_declare,
    combat_draw,
    combat_next_turn,
    combat_start,
)
from frontera.play.services.sessions import session_start
from tests.factories import make_campaign, make_minion, make_protagonist, make_user

pytestmark = pytest.mark.django_db


def _form_defaults(html: str, pk: int) -> dict:
    form = re.search(rf'<form[^>]*class="declare"[^>]*>.*?data-testid="declare-{pk}"', html, re.DOTALL).group(0)
    data = {}
    for select in re.finditer(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.DOTALL):
        chosen = re.search(r'<option value="([^"]*)" selected', select.group(2)) or re.search(
            r'<option value="([^"]*)"', select.group(2))
        data[select.group(1)] = chosen.group(1)
    data["targets"] = re.findall(r'name="targets" value="(\d+)"[^>]*checked', form)
    return data


def test_fr_cmb_2_the_default_declaration_of_an_armed_fighter_is_accepted(client):
    mayor, ana = make_user("m_def"), make_user("a_def")
    campaign = make_campaign(mayor, name="Defaults", players=[ana])
    hero = make_protagonist(campaign, ana, name="Clementine")  # carries a revolver
    bandit = make_minion(campaign, name="Bandido")
    session = session_start(campaign=campaign, by=mayor, characters=[hero])
    combat = combat_start(session=session, by=mayor,
                                   fighters=[Fighter(hero, "a"), Fighter(bandit, "b")])
    combat_declare(combat=combat, by=mayor, character=bandit, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=bandit)
    client.force_login(ana)
    data = _form_defaults(client.get(session.get_absolute_url()).text, hero.pk)
    assert data["weapon"] and data["technique"] == "disparo_rapido"
    response = client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk]), data,
                           HTTP_HX_REQUEST="true")
    assert 'data-testid="combat-error"' not in response.text
    assert combat_key(hero.pk) in CombatRound.objects.get(pk=combat.pk).state["declarations"]


def test_fr_cmb_2_an_unarmed_fighter_defaults_to_pelea(client):
    mayor = make_user("m_def2")
    campaign = make_campaign(mayor, name="Defaults 2", players=[])
    a, b = make_minion(campaign, name="Uno"), make_minion(campaign, name="Dos")
    session = session_start(campaign=campaign, by=mayor, characters=[])
    combat = combat_start(session=session, by=mayor,
                                   fighters=[Fighter(a, "a"), Fighter(b, "b")])
    client.force_login(mayor)
    # the Mayor's declaration opens in his dialog (the dashboard renders no closed form)
    data = _form_defaults(client.get(reverse("play_combat_declare", args=[session.pk, combat.pk, a.pk]),
                                     HTTP_HX_REQUEST="true").text, a.pk)
    assert (data["technique"], data["weapon"]) == ("pelea", "")
    client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, a.pk]), data, HTTP_HX_REQUEST="true")
    assert combat_key(a.pk) in CombatRound.objects.get(pk=combat.pk).state["declarations"]


@pytest.mark.parametrize(("language", "shown", "hidden"), [
    ("en", ["Revolver", "Adjacent", "Short", "Medium", "Long", "Seize", "Scare"], ["revolver", "Adyacente", "Apresar"]),
    ("es", ["Revólver", "Adyacente", "Corto", "Medio", "Largo", "Apresar", "Asustar"], ["revolver", "Adjacent"]),
])
def test_the_declaration_names_weapons_ranges_and_specials_in_the_readers_language(client, language, shown, hidden):
    """A walk through a fight in English found the range bands and the special attacks in Spanish,
    and the weapons by their catalogue keys ("revolver", "cuchillo") in both languages: each option
    of the declaration now reads as the glossary and the campaign's catalogue name it."""
    mayor, ana = make_user(f"m_words_{language}"), make_user(f"a_words_{language}")
    campaign = make_campaign(mayor, name="Words", players=[ana])
    hero = make_protagonist(campaign, ana, name="Clementine")  # carries a revolver
    bandit = make_minion(campaign, name="Bandido")
    session = session_start(campaign=campaign, by=mayor, characters=[hero])
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(bandit, "b")])
    combat_declare(combat=combat, by=mayor, character=bandit, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=bandit)
    client.force_login(ana)
    html = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).text
    form = re.search(rf'<form[^>]*class="declare"[^>]*>.*?data-testid="declare-{hero.pk}"', html, re.DOTALL).group(0)
    options = re.findall(r"<option[^>]*>([^<]*)</option>", form)
    for word in shown:
        assert word in options, (word, options)
    for word in hidden:
        assert word not in options, (word, options)


def _aimed_turn(tag: str, **aim):
    """Clementine (a revolver) aims at the second of two bandits at medium range (``aim``: more of her
    declaration), the bandits only move; the turn is revealed and the next one starts, the bandits
    declared again. Returns the session, the combat, her player, her and the two bandits."""
    mayor, ana = make_user(f"m_{tag}"), make_user(f"a_{tag}")
    campaign = make_campaign(mayor, name=f"Previous {tag}", players=[ana])
    hero = make_protagonist(campaign, ana, name="Clementine")  # carries a revolver
    first, second = make_minion(campaign, name="Bandido"), make_minion(campaign, name="Cuatrero")
    session = session_start(campaign=campaign, by=mayor, characters=[hero])
    combat = combat_start(session=session, by=mayor,
                          fighters=[Fighter(hero, "a"), Fighter(first, "b"), Fighter(second, "b")])
    for bandit in (first, second):
        combat_declare(combat=combat, by=mayor, character=bandit, technique="move")
    combat_declare(combat=combat, by=ana, character=hero, technique="apuntar", weapon="revolver",
                   aims=[(second, "medio")], **aim)
    combat_draw(combat=combat, by=ana, character=hero)
    combat.refresh_from_db()
    combat_choose(combat=combat, by=ana, character=hero, cards=combat.state["hands"][combat_key(hero.pk)][:1],
                  suit="S")
    combat_next_turn(combat=combat, by=mayor)
    for bandit in (first, second):
        combat_declare(combat=combat, by=mayor, character=bandit, technique="move")
    return session, combat, mayor, ana, hero, first, second


def test_the_next_turn_starts_from_the_attack_declared_last_turn(client):
    """A walk through a fight found every turn's form back at its default (the revolver at the first
    enemy, adjacent): a player who aimed at the second bandit at medium range had to choose it all
    again, every turn. The next turn's form starts from last turn's attack, and declares it as it
    stands."""
    session, combat, _mayor, ana, hero, _first, second = _aimed_turn("prev")
    client.force_login(ana)
    data = _form_defaults(client.get(session.get_absolute_url()).text, hero.pk)
    assert (data["technique"], data["weapon"], data["targets"], data[f"band_{second.pk}"]) == (
        "apuntar", "revolver", [str(second.pk)], "medio")
    response = client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk]), data,
                           HTTP_HX_REQUEST="true")
    assert 'data-testid="combat-error"' not in response.text
    declared = CombatRound.objects.get(pk=combat.pk).state["declarations"][combat_key(hero.pk)]
    assert (declared["technique"], declared["weapon"], declared["targets"]) == (
        "apuntar", "revolver", {combat_key(second.pk): "medio"})


def test_fr_cmb_9_the_next_turn_does_not_start_from_an_attack_the_fighter_can_no_longer_make(client):
    """Last turn's Apuntar, after moving into total cover, would be refused (FR-CMB-9): the form starts
    from the default technique instead, at last turn's target, which the server takes as it stands."""
    session, combat, _mayor, ana, hero, _first, second = _aimed_turn("cover", move_band="adyacente",
                                                                      move_cover="total")
    client.force_login(ana)
    data = _form_defaults(client.get(session.get_absolute_url()).text, hero.pk)
    assert (data["technique"], data["weapon"], data["targets"]) == ("disparo_rapido", "revolver", [str(second.pk)])
    response = client.post(reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk]), data,
                           HTTP_HX_REQUEST="true")
    assert 'data-testid="combat-error"' not in response.text


def test_fr_hlt_1_a_target_out_of_the_fight_is_no_longer_a_default_target(client):
    """Last turn's target is Muerto now (FR-HLT-1): the form does not start aimed at him, but at the
    enemy still standing."""
    from frontera.play.services.table_tools import track_change

    session, _combat, mayor, ana, hero, first, second = _aimed_turn("dead")
    track_change(session=session, by=mayor, character=second, track="health", amount=-4)
    client.force_login(ana)
    data = _form_defaults(client.get(session.get_absolute_url()).text, hero.pk)
    assert data["targets"] == [str(first.pk)]


def test_fr_cmb_1_an_unarmed_pelea_stays_pelea_when_its_target_falls_and_no_enemy_is_ticked_for_the_mayor(client):
    """A walk through a fight: Djamal's unarmed Pelea came back the next turn as throwing his knife
    (its target had fallen, and the form went back to the first weapon carried, here a revolver),
    and one tap on "Declarar" threw it; and the Mayor's form for an NPC had the first enemy ticked, so ticking the
    one he meant declared both. Last turn's attack is kept with no target ticked while two enemies
    stand (a declaration without one is refused, by name, and changes nothing); the dead are not
    offered as targets, and the strip of who is to declare says why the dead one does not."""
    from frontera.characters.models import Character

    mayor, ana = make_user("m_fall"), make_user("a_fall")
    campaign = make_campaign(mayor, name="Fall", players=[ana])
    hero = make_protagonist(campaign, ana, name="Djamal")  # carries a revolver: the old form's fallback
    first, second, third = (make_minion(campaign, name=n) for n in ("Bandido", "Cuatrero", "Pistolero"))
    session = session_start(campaign=campaign, by=mayor, characters=[hero])
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(first, "b"),
                                                               Fighter(second, "b"), Fighter(third, "b")])
    for bandit in (first, second, third):
        combat_declare(combat=combat, by=mayor, character=bandit, technique="move")
    combat_declare(combat=combat, by=ana, character=hero, technique="pelea", target=first)
    combat_draw(combat=combat, by=ana, character=hero)
    combat.refresh_from_db()
    combat_choose(combat=combat, by=ana, character=hero, cards=combat.state["hands"][combat_key(hero.pk)][:1],
                  suit="S")
    combat.refresh_from_db()
    state = dict(combat.state)  # the Bandido fell (as a hit of the reveal would have it)
    state["combatants"][combat_key(first.pk)]["health"] = -4
    CombatRound.objects.filter(pk=combat.pk).update(state=state)
    Character.objects.filter(pk=first.pk).update(sheet={**first.sheet, "health": -4})
    combat.refresh_from_db()
    combat_next_turn(combat=combat, by=mayor)
    client.force_login(ana)
    page = client.get(session.get_absolute_url()).text
    data = _form_defaults(page, hero.pk)
    assert (data["technique"], data["weapon"], data["targets"]) == ("pelea", "", [])
    form = re.search(rf'<form[^>]*class="declare"[^>]*>.*?data-testid="declare-{hero.pk}"', page, re.DOTALL).group(0)
    targets = re.search(r'<fieldset class="who targets".*?</fieldset>', form, re.DOTALL).group(0)
    assert f'value="{first.pk}"' not in targets and f'value="{second.pk}"' in targets  # the dead are not targets
    strip = re.search(r'data-testid="lockstrip".*?</ul>', page, re.DOTALL).group(0)
    assert "Bandido: no puede actuar (Muerto)" in strip and "Cuatrero: por declarar" in strip  # not "to declare"
    client.force_login(mayor)
    mayors = _form_defaults(client.get(reverse("play_combat_declare", args=[session.pk, combat.pk, second.pk]),
                                       HTTP_HX_REQUEST="true").text, second.pk)
    assert mayors["targets"] == [str(hero.pk)]  # the only enemy standing is ticked
