"""The Mayor declares for a fighter in his dialog (issue #11: no form rendered that is not open).

The dashboard's fight shows, for each fighter who may still declare, a link that opens that
fighter's declaration in the Mayor's dialog; the form itself is rendered only then. A phone keeps
its own fighter's form open in the page. FR-CMB-1 (declare before drawing) holds either way."""

import re

import pytest
from django.urls import reverse

from frontera.characters.models import Character
from frontera.play.models import CombatRound, combat_key
from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start
from frontera.play.services.sessions import session_end
from frontera.rules.cards import Card
from tests.factories import engine, make_campaign, make_minion, make_table, make_user, stack_pile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
HX = {"HTTP_HX_REQUEST": "true"}


def _fight():
    session, mayor, [(player, hero)], (m1, m2) = make_table(players=1, minions=2)
    fighters = [Fighter(Character.objects.get(pk=hero.pk), "posse"), Fighter(m1, "gang"), Fighter(m2, "gang")]
    return session, mayor, player, hero, (m1, m2), combat_start(session=session, by=mayor, fighters=fighters)


def _declare_url(session, combat, character):
    return reverse("play_combat_declare", args=[session.pk, combat.pk, character.pk])


def test_fr_cmb_1_the_dashboards_fight_renders_no_declaration_form_only_the_links_that_open_one(client):
    session, mayor, player, hero, (m1, m2), combat = _fight()
    client.force_login(mayor)
    region = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert 'class="declare"' not in region and 'name="technique"' not in region
    for fighter in (hero, m1, m2):  # the Mayor may declare for each of them, one dialog each
        link = re.search(rf'<a [^>]*data-testid="declare-open-{fighter.pk}"[^>]*>', region).group(0)
        assert f'hx-get="{_declare_url(session, combat, fighter)}"' in link
        assert 'hx-target="#dialog-body"' in link
    # the phone keeps its own fighter's form in the page, open, and no other
    client.force_login(player)
    phone = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    assert f'data-testid="declare-{hero.pk}"' in phone and phone.count('class="declare"') == 1


def test_fr_cmb_1_the_mayor_declares_for_an_npc_from_his_dialog(client):
    session, mayor, _player, hero, (m1, m2), combat = _fight()
    client.force_login(mayor)
    dialog = client.get(_declare_url(session, combat, m1), **HX)
    assert dialog.status_code == 200
    assert f"Declare for {m1.name}" in dialog.text and 'id="dialog-error"' in dialog.text
    # the targets' legend says how cards and targets go together (it said "one card each", and a
    # minion that may play one card was declared against two)
    assert "Targets, each at its range band (each card played attacks one of them)" in dialog.text
    form = re.search(r'<form[^>]*class="declare".*?</form>', dialog.text, re.DOTALL).group(0)
    assert '<input type="hidden" name="dialog" value="1">' in form
    assert f'hx-post="{_declare_url(session, combat, m1)}"' in form and 'hx-target="#combat"' in form
    response = client.post(_declare_url(session, combat, m1),
                           {"technique": "pelea", "target": hero.pk, "band": "adyacente", "dialog": "1"}, **HX)
    assert "frontera:close-dialog" in response["HX-Trigger"]  # the dialog closes, the fight comes back
    assert 'id="combat"' in response.text
    assert combat_key(m1.pk) in CombatRound.objects.get(pk=combat.pk).state["declarations"]
    assert f'data-testid="declare-open-{m1.pk}"' not in response.text  # declared: no link any more
    assert f'data-testid="declare-open-{m2.pk}"' in response.text
    # opened again (a second tab, a late tap): a notice, no form
    again = client.get(_declare_url(session, combat, m1), **HX).text
    assert f"{m1.name} has nothing to declare now." in again and 'class="declare"' not in again


def test_fr_cmb_1_a_refused_declaration_says_why_in_the_dialog_and_changes_nothing(client):
    session, mayor, _player, hero, (m1, _m2), combat = _fight()
    client.force_login(mayor)
    before = CombatRound.objects.get(pk=combat.pk).state
    response = client.post(_declare_url(session, combat, m1),
                           {"technique": "apuntar", "target": hero.pk, "band": "largo", "dialog": "1"}, **HX)
    assert response["HX-Retarget"] == "#dialog-error"
    assert 'role="alert"' in response.text and "HX-Trigger" not in response
    assert CombatRound.objects.get(pk=combat.pk).state == before


def test_fr_cmb_1_without_javascript_the_declaration_is_a_page_of_its_own(client):
    session, mayor, _player, _hero, (_m1, m2), combat = _fight()
    client.force_login(mayor)
    page = client.get(_declare_url(session, combat, m2)).text
    assert "<html" in page and 'class="declare"' in page and 'name="dialog"' not in page
    response = client.post(_declare_url(session, combat, m2), {"technique": "move"})
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    assert combat_key(m2.pk) in CombatRound.objects.get(pk=combat.pk).state["declarations"]


def test_fr_cmb_1_the_declaration_dialog_is_the_mayors_alone(client):
    session, mayor, player, hero, (m1, _m2), combat = _fight()
    client.force_login(player)  # a player declares on their phone's own form, and opens no Mayor's dialog
    assert client.get(_declare_url(session, combat, hero), **HX).status_code == 404
    assert client.get(_declare_url(session, combat, m1), **HX).status_code == 404
    client.force_login(make_user())  # outside the campaign
    assert client.get(_declare_url(session, combat, m1), **HX).status_code == 404
    client.force_login(mayor)
    stranger = make_minion(make_campaign(make_user()))  # another campaign's: not a fighter here
    outsider = make_minion(session.campaign)  # this campaign's, but not in this fight
    for character in (stranger, outsider):
        assert client.get(_declare_url(session, combat, character), **HX).status_code == 404
    assert client.get(reverse("play_combat_declare", args=[session.pk, combat.pk + 999, m1.pk]),
                      **HX).status_code == 404


def test_fr_cmb_1_once_the_fight_or_the_session_is_over_the_dialog_offers_no_form(client):
    session, mayor, _player, _hero, (m1, _m2), combat = _fight()
    client.force_login(mayor)
    client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "terminar"]), {"request_key": "end-1"}, **HX)
    dialog = client.get(_declare_url(session, combat, m1), **HX).text
    assert "This fight has ended." in dialog and 'class="declare"' not in dialog
    session_end(session=session, by=mayor)
    dialog = client.get(_declare_url(session, combat, m1), **HX)  # in the dialog: a notice, not the page
    assert dialog.status_code == 200 and "This session has ended." in dialog.text and "<html" not in dialog.text
    assert client.get(_declare_url(session, combat, m1)).status_code == 302  # without JavaScript: back to it


def test_fr_cmb_1_a_protagonists_dialog_waits_for_the_npcs_with_a_notice_not_a_dead_form(client):
    """The dialog is not live: before the NPCs have declared and drawn, a player's fighter gets the
    reason, not a form whose button cannot be pressed yet; once they have drawn, the form."""
    session, mayor, _player, hero, (m1, m2), combat = _fight()
    client.force_login(mayor)
    dialog = client.get(_declare_url(session, combat, hero), **HX).text
    assert f"The NPCs declare and draw first: waiting for {m1.name}, {m2.name}." in dialog
    assert 'class="declare"' not in dialog
    for minion in (m1, m2):
        combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero)
        combat_draw(combat=combat, by=mayor, character=minion)
    dialog = client.get(_declare_url(session, combat, hero), **HX).text
    assert 'class="declare"' in dialog and "waiting for" not in dialog


def test_fr_card_2_a_fighters_joker_asks_its_suit_by_name(client):
    """A walk through a fight found the joker's suit offered as four symbols only (a check's named
    them): the fighter's phone names each suit, in the reader's language."""
    session, mayor, player, hero, (m1, m2), combat = _fight()
    for minion in (m1, m2):
        combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero)
        combat_draw(combat=combat, by=mayor, character=minion)
    combat_declare(combat=combat, by=player, character=hero, technique="pelea", target=m1)
    stack_pile(session, ["1:5C", "1:JK1"])  # the joker is drawn first
    combat_draw(combat=combat, by=player, character=hero)
    client.force_login(player)
    region = client.get(session.get_absolute_url(), {"fragment": "combat"}, **HX).text
    select = re.search(r'<select name="suit" id="csuit-\d+">(.*?)</select>', region, re.DOTALL).group(1)
    assert re.findall(r'<option value="(\w*)">([^<]*)</option>', select) == [
        ("", "—"), ("S", "♠ spades"), ("H", "♥ hearts"), ("C", "♣ clubs"), ("D", "♦ diamonds")]
    spanish = client.get(session.get_absolute_url(), {"fragment": "combat"}, HTTP_ACCEPT_LANGUAGE="es", **HX).text
    assert "♠ picas" in spanish and "♦ diamantes" in spanish


def test_fr_cmb_5_each_card_of_a_fighters_hand_says_whether_it_hits(client):
    """FR-CMB-5: the technique's suit hits, anything else misses; a joker takes that suit. A walk
    through a fight found a player who learnt which suit hits only from the reveal."""
    session, mayor, player, hero, (m1, m2), combat = _fight()
    for minion in (m1, m2):
        combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero)
        combat_draw(combat=combat, by=mayor, character=minion)
    combat_declare(combat=combat, by=player, character=hero, technique="pelea", target=m1)
    pile = engine(session).pile
    spade = next(u for u in pile if Card.from_uid(u).suit == "S")
    other = next(u for u in pile if Card.from_uid(u).suit == "D")
    joker = [u for u in pile if Card.from_uid(u).is_joker][:1]
    stack_pile(session, [other, spade, *joker])
    combat_draw(combat=combat, by=player, character=hero)
    hand = CombatRound.objects.get(pk=combat.pk).state["hands"][combat_key(hero.pk)]
    assert {spade, other} <= set(hand)  # a card that hits and one that misses, at least
    client.force_login(player)
    region = client.get(session.get_absolute_url(), {"fragment": "combat"}, HTTP_ACCEPT_LANGUAGE="es", **HX).text
    assert "Impacta ♠ (Pelea)" in region
    for uid in hand:
        card = Card.from_uid(uid)
        reads = "impacta" if card.is_joker or card.suit == "S" else "falla"
        assert f'<span class="visually-hidden">{card.label}: {reads}</span>' in region, card.label
    # the Mayor reads it for the NPCs he chooses for, not for the player's hand he does not hold
    client.force_login(mayor)
    board = client.get(session.get_absolute_url(), {"fragment": "combat"}, HTTP_ACCEPT_LANGUAGE="es", **HX).text
    assert f'data-testid="counts-{m1.pk}"' in board and f'data-testid="counts-{hero.pk}"' not in board
