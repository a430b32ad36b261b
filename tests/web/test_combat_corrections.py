"""What a fight lets be put right, and says right: a declaration taken back before its draw and
declared again (FR-CMB-1, ruling; a walk's Mayor ticked the wrong target for an NPC and could only
withdraw the whole fight), and after the reveal who could not act (FR-HLT-1)."""

import pytest
from django.urls import reverse

from frontera.play.models import CombatRound, SessionEvent
from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "es"}


def _fight():
    session, mayor, seated, (minion,) = make_table(players=2, minions=1)
    (p1, hero), (p2, other) = seated
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(other, "a"),
                                                              Fighter(minion, "b")])
    return session, mayor, (p1, hero), (p2, other), minion, combat


def _url(name, session, combat, character):
    return reverse(name, args=[session.pk, combat.pk, character.pk])


def test_fr_cmb_1_the_mayor_takes_back_an_npcs_wrong_target_and_declares_again(client):
    session, mayor, (_p1, hero), (_p2, other), minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero, band="adyacente")
    client.force_login(mayor)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
    assert f'data-testid="take-back-{minion.pk}"' in page and "Cambiar la declaración" in page
    answer = client.post(_url("play_combat_take_back", session, combat, minion), {"request_key": "tb1"}, **HX)
    assert answer.status_code == 200
    combat.refresh_from_db()
    assert f"k{minion.pk}" not in combat.state["declarations"]
    assert SessionEvent.objects.filter(session=session, message__contains="taken back").exists()
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=other, band="adyacente")
    combat.refresh_from_db()
    assert list(combat.state["declarations"][f"k{minion.pk}"]["targets"]) == [f"k{other.pk}"]
    # the same submit again, late (a retry): the new declaration stays
    assert client.post(_url("play_combat_take_back", session, combat, minion), {"request_key": "tb1"},
                       **HX).status_code == 200
    assert f"k{minion.pk}" in CombatRound.objects.get(pk=combat.pk).state["declarations"]
    combat_draw(combat=combat, by=mayor, character=minion)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
    assert f'data-testid="take-back-{minion.pk}"' not in page  # drawn: it stands


def test_fr_cmb_1_a_player_takes_back_their_own_and_nobody_elses(client):
    session, mayor, (p1, hero), (p2, _other), minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="other")
    combat_declare(combat=combat, by=p1, character=hero, technique="move")
    client.force_login(p2)
    assert client.post(_url("play_combat_take_back", session, combat, hero), **HX).status_code == 404
    client.force_login(p1)
    assert client.post(_url("play_combat_take_back", session, combat, hero), **HX).status_code == 200
    assert f"k{hero.pk}" not in CombatRound.objects.get(pk=combat.pk).state["declarations"]


def test_fr_cmb_1_an_npcs_declaration_stands_once_a_player_declared_on_it(client):
    session, mayor, (p1, hero), _p2, minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="other")
    combat_declare(combat=combat, by=p1, character=hero, technique="move")
    client.force_login(mayor)
    answer = client.post(_url("play_combat_take_back", session, combat, minion), **HX).content.decode()
    assert "Los jugadores han declarado sabiendo lo que declaró" in answer and minion.name in answer
    assert f"k{minion.pk}" in CombatRound.objects.get(pk=combat.pk).state["declarations"]


def test_fr_hlt_1_after_the_reveal_the_strip_says_who_could_not_act_not_to_declare(client):
    """A walk's strip read "Policarpo: por declarar" after the reveal (he was Muerto, then a death
    roll's Incapacitado) until the next turn: nobody declares after a reveal."""
    from frontera.play.services.combat import combat_reveal
    from tests.factories import set_tracks

    session, mayor, seated, (minion,) = make_table(players=2, minions=1)
    (p1, hero), (_p2, fallen) = seated
    set_tracks(fallen, health=-4)
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(fallen, "a"),
                                                              Fighter(minion, "b")])
    combat_declare(combat=combat, by=mayor, character=minion, technique="other")
    combat_declare(combat=combat, by=p1, character=hero, technique="move")
    combat_reveal(combat=combat, by=mayor)
    assert CombatRound.objects.get(pk=combat.pk).state["revealed"]
    client.force_login(mayor)
    strip = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
    strip = strip[strip.index('data-testid="lockstrip"'):strip.index("</ul>", strip.index('data-testid="lockstrip"'))]
    assert f"{fallen.name}: no puede actuar (Muerto)" in strip and "por declarar" not in strip


def test_fr_cmb_14_a_declaration_reads_as_one_phrase(client):
    """A walk read "Disparo rápido (Revólver) (Asustar)" and "Se mueve al final del turno (corto) ·
    total": the weapon and the special in one pair of brackets, the cover said as a cover."""
    session, mayor, (p1, hero), _p2, minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="other")
    combat_declare(combat=combat, by=p1, character=hero, technique="disparo_rapido", weapon="revolver",
                   target=minion, band="corto", special="asustar", move_cover="total")
    client.force_login(mayor)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
    assert "Disparo rápido (Revólver, Asustar) →" in page
    assert "(adyacente) · cobertura total" in page
    english = client.get(session.get_absolute_url(), {"fragment": "combat"}, HTTP_HX_REQUEST="true",
                         HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "(adjacent) · total cover" in english and "(adyacente)" not in english  # the band said, not its key


def test_fr_chk_5_medical_attentions_declaration_stands(client):
    """Its check is called with it: taking it back is refused, and not offered."""
    from tests.factories import set_tracks

    session, mayor, (p1, hero), (_p2, other), minion, combat = _fight()
    set_tracks(other, health=-1)  # Herido: medical attention has something to speed up
    combat_declare(combat=combat, by=mayor, character=minion, technique="other")
    combat_declare(combat=combat, by=p1, character=hero, technique="medical", patient=other)
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
    assert f'data-testid="take-back-{hero.pk}"' not in page
    answer = client.post(_url("play_combat_take_back", session, combat, hero), **HX).content.decode()
    assert "La declaración de atención médica se queda" in answer
    assert f"k{hero.pk}" in CombatRound.objects.get(pk=combat.pk).state["declarations"]


def test_fr_cmb_12_after_the_reveal_a_jammed_fighter_reads_jammed(client):
    """Turn 5: a fighter whose jam draw was an 8 loses the turn (FR-CMB-12); after the reveal the
    strip still says so (it read "to declare": the reveal's strip looked at the levels only)."""
    from frontera.play.services.combat import combat_next_turn, combat_reveal

    session, mayor, (_p1, hero), (_p2, other), minion, combat = _fight()
    for _turn in range(4):
        for character in (minion, hero, other):
            combat_declare(combat=combat, by=mayor, character=character, technique="move")
        combat_reveal(combat=combat, by=mayor)
        combat_next_turn(combat=combat, by=mayor)
    combat.refresh_from_db()
    assert combat.turn == 5
    jams = combat.state["jams"]  # the jam draws made, stacked here: the hero's an 8, the others' an Ace
    combat.state["jams"] = {key: ("1:8C" if key == f"k{hero.pk}" else "1:AS") for key in jams}
    combat.save(update_fields=["state"])
    for character in (minion, other):
        combat_declare(combat=combat, by=mayor, character=character, technique="move")
    combat_reveal(combat=combat, by=mayor)
    assert CombatRound.objects.get(pk=combat.pk).state["revealed"]
    client.force_login(mayor)
    page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
    strip = page[page.index('data-testid="lockstrip"'):]
    strip = strip[:strip.index("</ul>")]
    assert f"{hero.name}: encasquillado" in strip and f"{hero.name}: por declarar" not in strip


def test_fr_cmb_1_once_revealed_the_turns_outcome_and_next_step_come_before_the_fighters(client):
    """A walk through an evening: after a reveal of three fighters, what the turn did and "Next
    turn" were about 1200 px down the Mayor's column, with nothing on screen to say so. Once the
    turn is revealed they come first; before it, the fighters (what is still to do) come first."""
    from frontera.play.services.combat import combat_reveal

    session, mayor, (p1, hero), (p2, other), minion, combat = _fight()
    client.force_login(mayor)

    def order() -> list[str]:
        page = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
        marks = {"fighters": page.find('data-testid="fighter-'), "next": page.find('data-testid="next-turn"'),
                 "end": page.find('data-testid="end-fight"')}
        return [name for name, at in sorted(marks.items(), key=lambda item: item[1]) if at != -1]

    assert order() == ["fighters", "end"]
    combat_declare(combat=combat, by=mayor, character=minion, technique="other")
    combat_declare(combat=combat, by=p1, character=hero, technique="move")
    combat_declare(combat=combat, by=p2, character=other, technique="move")
    combat_reveal(combat=combat, by=mayor)
    assert order() == ["next", "end", "fighters"]
