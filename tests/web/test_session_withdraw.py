"""The Mayor withdraws a check he called by mistake (issue #10): its drawn cards go back where
unchosen cards go by the rules' own movements (FR-MODE-4, FR-MODE-7), nothing is revealed, the
history says so; a resolved check, or one another action waits on, is refused."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from frontera.play.models import Check, GameSession, SessionEvent
from frontera.play.services.check_withdrawal import check_withdraw
from frontera.play.services.checks import (
    E_CHECK_RESOLVED,
    Entry,
    check_choose,
    check_draw,
    check_request,
    opposed_request,
)
from frontera.play.services.core import SessionError
from frontera.play.services.duels import pistol_duel_start
from frontera.play.services.sessions import phase_switch
from frontera.rules import session as rules_session
from tests.factories import assert_conserved, engine, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_fr_mode_4_a_withdrawn_trait_check_sends_its_drawn_cards_where_unchosen_cards_go():
    """Phase 1: the drawn cards go to the shared discard, like unchosen cards; counted, conserved."""
    session, mayor, seated, _ = make_table()
    (_player, hero), _ = seated
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    participant = prueba.participants.get()
    check_draw(participant=participant, by=seated[0][0])
    participant.refresh_from_db()
    drawn = list(participant.drawn)
    discard_before = len(engine(session).discard)
    check_withdraw(prueba=prueba, by=mayor)
    state = engine(session)
    assert not state.pending.get(participant.seat)
    assert len(state.discard) == discard_before + len(drawn)
    assert set(drawn) <= set(state.discard)
    prueba.refresh_from_db()
    assert prueba.withdrawn and prueba.status == Check.Status.RESOLVED
    assert prueba.participants.get().outcome == ""
    moves = SessionEvent.objects.filter(session=session, prueba=prueba, kind="card", reason="withdrawn")
    assert moves.count() == len(drawn)
    assert SessionEvent.objects.filter(session=session, prueba=prueba, message__startswith="The Mayor withdraws").exists()
    assert_conserved(session)


def test_fr_mode_7_withdrawing_an_opposed_check_returns_a_face_down_choice_unrevealed():
    """Phase 2: the cards go back to each player's own deck; the face-down choice is never shown."""
    session, mayor, seated, _ = make_table()
    phase_switch(session=session, by=mayor)
    (p1, hero), (p2, rival) = seated
    prueba = opposed_request(session=session, by=mayor,
                             entries=[Entry(hero, "musculo"), Entry(rival, "musculo")])
    first, second = prueba.participants.order_by("pk")
    check_draw(participant=first, by=p1)
    first.refresh_from_db()
    check_choose(participant=first, by=p1, card=first.drawn[0], suit="H")
    decks_before = {s: len(d) for s, d in engine(session).player_decks.items()}
    check_withdraw(prueba=prueba, by=mayor)
    state = engine(session)
    assert len(state.player_decks[first.seat]) == decks_before[first.seat] + len(first.drawn)
    assert not SessionEvent.objects.filter(session=session, prueba=prueba, reason="played").exists()
    assert not any(first.drawn[0] in (e.params or {}).values()
                   for e in SessionEvent.objects.filter(session=session, prueba=prueba, kind="decision"))
    assert_conserved(session)
    # nor on any page: the closed check showed the face-down choice as played, to everyone
    for user in (p2, mayor, p1):
        client = Client()
        client.force_login(user)
        html = client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true").text
        article = re.search(rf'<article id="check-{prueba.pk}".*?</article>', html, re.DOTALL).group(0)
        assert "pcard" not in article and "Jugada" not in article, (user, article)


def test_a_resolved_check_is_refused_and_a_second_withdrawal_changes_nothing():
    session, mayor, seated, _ = make_table()
    (p1, hero), (p2, rival) = seated
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    check_withdraw(prueba=prueba, by=mayor)
    events = SessionEvent.objects.filter(session=session).count()
    check_withdraw(prueba=prueba, by=mayor)  # a double submit
    assert SessionEvent.objects.filter(session=session).count() == events
    done = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    part = done.participants.get()
    check_draw(participant=part, by=p1)
    part.refresh_from_db()
    check_choose(participant=part, by=p1, card=part.drawn[0], suit="H")
    with pytest.raises(SessionError, match=str(E_CHECK_RESOLVED)):
        check_withdraw(prueba=done, by=mayor)


def test_fr_cmb_15_withdrawing_a_pistol_duels_check_calls_the_duel_off_and_nobody_is_hit():
    """A walk through an evening started a pistol duel with one click ("Convocar el duelo", both
    duellists already chosen) and nothing could call it off: its check was refused as "owned by a
    pistol duel" and the duel had no withdrawal of its own. Withdrawing its check now calls it off:
    the drawn cards go back unrevealed, nobody fires or is hit, no exchange opens."""
    from frontera.play.models import Exchange, PistolDuel

    session, mayor, seated, _ = make_table()
    (p1, hero), (p2, rival) = seated
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver", second=rival,
                             second_weapon="revolver")
    duel_check = Check.objects.filter(session=session, withdrawn=False).exclude(status=Check.Status.RESOLVED).get()
    check_draw(participant=duel_check.participants.get(character=hero), by=p1)
    sheets = {c.pk: dict(c.sheet) for c in (hero, rival)}
    check_withdraw(prueba=duel_check, by=mayor)
    duel.refresh_from_db()
    duel_check.refresh_from_db()
    assert duel.status == PistolDuel.Status.SETTLED and duel.result.get("withdrawn") is True
    assert duel_check.withdrawn and not Exchange.objects.filter(session=session).exists()
    for character in (hero, rival):
        character.refresh_from_db()
        assert character.sheet == sheets[character.pk]  # nobody hit
    assert SessionEvent.objects.filter(session=session, message__startswith="The Mayor calls off the pistol duel").exists()
    assert not engine(session).pending.get(duel_check.participants.get(character=hero).seat)
    assert_conserved(session)


def test_the_mayor_withdraws_from_the_dashboard_and_a_player_cannot():
    session, mayor, seated, _ = make_table()
    (p1, hero), _ = seated
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    url = reverse("play_check_withdraw", args=[session.pk, prueba.pk])
    player = Client()
    player.force_login(p1)
    assert f'data-testid="withdraw-{prueba.pk}"' not in player.get(session.get_absolute_url()).text
    assert player.post(url).status_code == 404
    mayor_client = Client()
    mayor_client.force_login(mayor)
    page = mayor_client.get(session.get_absolute_url()).text
    assert re.search(rf'hx-confirm="[^"]+"[^>]*>.*?data-testid="withdraw-{prueba.pk}"', page, re.S)
    answer = mayor_client.post(url, HTTP_HX_REQUEST="true").text
    assert f'data-testid="withdrawn-{prueba.pk}"' in answer
    prueba.refresh_from_db()
    assert prueba.withdrawn
    assert rules_session.all_cards(engine(session))  # the session is intact
    assert_conserved(session)


def test_fr_mode_4_a_withdrawn_fight_returns_the_turns_draws_unrevealed_and_says_so(client):
    """Issue #10: the Mayor withdraws a fight started by mistake; the NPC's drawn cards go where
    unchosen cards go (phase 1: the shared discard), nothing is revealed, the history says
    "withdrawn", and a new fight may start."""
    from frontera.play.models import CombatRound
    from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start

    session, mayor, seated, (minion,) = make_table(players=1, minions=1)
    (_player, hero), = seated
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(minion, "b")])
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero, band="adyacente")
    combat_draw(combat=combat, by=mayor, character=minion)
    drawn = [uid for checks in engine(session).pending.values() for entry in checks.values() for uid in entry["cards"]]
    assert drawn
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).text
    assert 'data-testid="withdraw-fight"' in page
    # told apart from ending it: a walk found the two buttons side by side, asking almost the same
    assert "Retirar la pelea (fue un error)" in page
    client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "retirar"]), HTTP_HX_REQUEST="true")
    combat.refresh_from_db()
    assert combat.status == CombatRound.Status.WITHDRAWN
    state = engine(session)
    assert all(not checks for checks in state.pending.values()) and set(drawn) <= set(state.discard)
    moves = SessionEvent.objects.filter(session=session, kind="card", reason="withdrawn")
    assert sorted(moves.values_list("card", flat=True)) == sorted(drawn)
    line = SessionEvent.objects.filter(session=session, message__startswith="The Mayor withdraws the fight").get()
    assert line.params["turn"] == 1
    assert_conserved(session)
    combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(minion, "b")])


def test_a_withdrawn_exchange_is_logged_as_a_withdrawal(client):
    """Issue #10: calling off a pending exchange is a withdrawal in the history; nothing moves."""
    from frontera.play.services.exchanges import exchange_cancel, exchange_start

    session, mayor, seated, _ = make_table()
    (_p1, hero), (_p2, other) = seated
    where = rules_session.zones(engine(session))
    exchange = exchange_start(session=session, by=mayor, kind="duel", first=hero, second=other)
    client.force_login(mayor)
    assert f'data-testid="withdraw-exchange-{exchange.pk}"' in client.get(session.get_absolute_url()).text
    exchange_cancel(exchange=exchange, by=mayor)
    assert rules_session.zones(engine(session)) == where
    assert SessionEvent.objects.filter(session=session, message__startswith="The Mayor withdraws the exchange").exists()


def test_the_dashboard_offers_a_pistol_duels_check_as_calling_the_duel_off(client):
    """A pistol duel's check is withdrawn with its duel: the Mayor's page offers it in those words
    (and asks first), beside a plain check's own withdrawal (the page reads which checks another
    action owns with the checks themselves)."""
    session, mayor, seated, _ = make_table()
    (_p1, hero), (_p2, rival) = seated
    plain = check_request(session=session, by=mayor, characters=[hero], trait="sentidos")
    pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver", second=rival,
                      second_weapon="revolver")
    duel_check = Check.objects.filter(session=session).exclude(pk=plain.pk).get()
    client.force_login(mayor)
    for page in (client.get(session.get_absolute_url()).text,
                 client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true").text):
        assert f'data-testid="withdraw-{plain.pk}"' in page
        duel_form = re.search(rf'<form[^>]*>(?:(?!</form>).)*data-testid="withdraw-{duel_check.pk}".*?</form>', page,
                              re.DOTALL).group(0)
        assert "Retirar la prueba y anular el duelo" in duel_form  # the page's default language
        assert "El duelo a pistola se anula con ella: nadie dispara, nadie recibe un tiro." in duel_form


def test_a_withdrawn_check_reads_withdrawn_and_shows_no_cards_as_drawn():
    """A walk through a session found a withdrawn check under "resolved" with the Mayor's copy still
    saying "2 cards drawn, face down", and the player's still showing them, though they had gone
    back: each participant now reads "withdrawn", with no card shown as drawn."""
    session, mayor, seated, (minion,) = make_table(players=1, minions=1)
    (player, hero), = seated
    prueba = check_request(session=session, by=mayor, characters=[hero, minion], trait="manos")
    for participant, who in ((prueba.participants.get(character=hero), player),
                             (prueba.participants.get(character=minion), mayor)):
        check_draw(participant=participant, by=who)
    check_withdraw(prueba=prueba, by=mayor)
    for user in (mayor, player):
        client = Client()
        client.force_login(user)
        html = client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true").text
        article = re.search(rf'<article id="check-{prueba.pk}".*?</article>', html, re.DOTALL).group(0)
        assert re.findall(r'<span class="badge status">([^<]*)</span>', article) == ["retirada", "retirada"]
        assert "boca abajo" not in article and "pcard" not in article, article


def test_fr_chk_5_a_healers_check_is_withdrawn_with_its_medical_attention():
    """A walk through an evening called medical attention with the wrong healer and found no way
    to take it back: the Mayor withdraws the healer's check from his page like any other, its drawn
    cards go back unplayed, and the medical attention goes with it (nothing sped)."""
    from frontera.play.models import Treatment
    from frontera.play.services.medical import medical_request
    from tests.factories import set_tracks
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(rival, health=-1)
    treatment = medical_request(session=session, by=mayor, healer=hero, patient=rival)
    prueba = treatment.prueba
    check_draw(participant=prueba.participants.get(), by=p1)
    client = Client()
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).text
    assert f'data-testid="withdraw-{prueba.pk}"' in page
    answer = client.post(reverse("play_check_withdraw", args=[session.pk, prueba.pk]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and not answer.headers.get("X-Live-Refused")
    prueba.refresh_from_db()
    assert prueba.withdrawn and not Treatment.objects.filter(pk=treatment.pk).exists()
    assert not engine(session).pending.get(f"c{hero.pk}")  # the healer's cards went back
    assert not GameSession.objects.get(pk=session.pk).tallies.get("medical")
    assert_conserved(session)
