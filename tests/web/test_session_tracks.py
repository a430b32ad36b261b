"""The Mayor's tools during play: track changes (his logged override), threats (FR-MOR-3), heavy
drinking with the Borracho swap (FR-SOB-3, FR-SOB-1), falls and accidents (FR-HLT-4)."""

import pytest
from django.urls import reverse
from django.utils import translation

from frontera.characters.models import Character
from frontera.play.models import SessionEvent, seat_key
from frontera.play.services.checks import check_choose, check_draw, check_request
from frontera.play.services.core import SessionError
from frontera.play.services.table_tools import accident, dead_mans_hand, drink, rest, threat, track_change
from frontera.rules import characters as rules_characters
from tests.factories import assert_conserved, engine, make_table, stack_pile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _sheet(character):
    return rules_characters.Character.from_json(Character.objects.get(pk=character.pk).sheet)


def test_fr_hlt_1_mayor_override_changes_a_track_clamped_and_logged():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    track_change(session=session, by=mayor, character=hero, track="health", amount=-2, note="bala")
    assert _sheet(hero).health == -2
    track_change(session=session, by=mayor, character=hero, track="health", amount=-4)
    assert _sheet(hero).health == -4  # never below Muerto
    line = SessionEvent.objects.filter(session=session, kind="decision").order_by("pk")
    assert any("bala" in e.params.get("note", "") and "FR-HLT-1" in e.rules for e in line)
    with pytest.raises(SessionError):
        track_change(session=session, by=mayor, character=hero, track="health", amount=0)


def test_track_change_makes_the_next_check_draw_fewer_cards():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    track_change(session=session, by=mayor, character=hero, track="morale", amount=-1)
    check = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    assert check.participants.get().cards == 3 - 1  # FR-MOR-1: Asustado −1


@pytest.mark.parametrize(("top", "lost"), [("1:9S", 1), ("1:7S", 0)])
def test_fr_mor_3_threat_card_above_confianza_costs_one_morale(top, lost):
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]  # Confianza 7 (highest trait 3 + 4)
    stack_pile(session, [top])
    threat(session=session, by=mayor, character=hero)
    assert _sheet(hero).morale == -lost
    assert any("FR-MOR-3" in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
    assert_conserved(session)


@pytest.mark.parametrize(("cause", "metres", "agility", "lost"),
                         [("fall", 12, None, 2), ("fall", 12, "partial", 1), ("train", None, "success", 2),
                          ("horse", None, None, 2)])
def test_fr_hlt_4_falls_and_accidents(cause, metres, agility, lost):
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    accident(session=session, by=mayor, character=hero, cause=cause, metres=metres, agility=agility)
    assert _sheet(hero).health == -lost


def test_fr_sob_3_heavy_drinking_reaches_borracho_and_swaps_a_card_with_the_mayor():
    """Aguante 7: drinks 1-4 are free, then a dead man's hand per drink, above 7 −1 automatically,
    above 14 −2 (Borracho) and the FR-SOB-1 swap with the Mayor, face down in phase 1."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    for _ in range(4):
        drink(session=session, by=mayor, character=hero)
    assert _sheet(hero).sobriety == 0
    for _ in range(11):
        drink(session=session, by=mayor, character=hero)
        if _sheet(hero).sobriety <= -2:
            break
    assert _sheet(hero).sobriety <= -2
    swaps = SessionEvent.objects.filter(session=session, kind="card", reason="drunk")
    assert swaps.count() == 2 and all(e.seen_by == [] for e in swaps)  # nobody sees them in phase 1
    assert len(engine(session).player_decks[seat_key(hero.pk)]) == 8
    assert_conserved(session)


def test_table_action_form_on_the_dashboard(client):
    session, mayor, seated, (minion,) = make_table()
    client.force_login(mayor)
    response = client.post(reverse("play_table_action", args=[session.pk]),
                           {"character": str(minion.pk), "action": "health", "amount": -1, "note": "tiro"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and _sheet(minion).health == -1
    client.force_login(seated[0][0])
    assert client.post(reverse("play_table_action", args=[session.pk]),
                       {"character": str(minion.pk), "action": "threat"}).status_code == 404


def test_fr_chk_6_dead_mans_hand_ace_better_eight_worse():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    results = {dead_mans_hand(session=session, by=mayor, character=hero, count=1) for _ in range(40)}
    assert results == {"better", "worse"}
    lines = [e for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-CHK-6" in e.rules]
    for line in lines:
        ace = "A" in line.params["cards"]
        assert (line.params["result"]["_msg"] == "the better outcome") == ace


def test_fr_mode_11_rest_returns_eight_discarded_cards_per_hour():
    session, mayor, seated, _ = make_table(mode="con_desgaste")
    player, hero = seated[0]
    for _ in range(3):
        part = check_draw(participant=check_request(
            session=session, by=mayor, characters=[hero], trait="manos", modifier=5).participants.get(), by=player)
        check_choose(participant=part, by=player, card=part.drawn[0], suit="S")
    seat = seat_key(hero.pk)
    assert len(engine(session).player_discards[seat]) == 3
    rest(session=session, by=mayor, character=hero, hours=1)
    assert engine(session).player_discards[seat] == []
    assert_conserved(session)
    normal, mayor2, seated2, _ = make_table()
    with pytest.raises(SessionError):
        rest(session=normal, by=mayor2, character=seated2[0][1], hours=1)


def test_fr_sob_3_a_drink_that_leaves_the_level_as_it_was_says_so(client):
    """A walk through a session read each free drink's feed line as "Sobrio → Sobrio", taken for a
    mistake: a drink that leaves the level as it was says the character is still at it."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    drink(session=session, by=mayor, character=hero)  # drink 1 of Aguante 7: free
    line = SessionEvent.objects.filter(session=session, kind="decision").latest("pk")
    assert line.message.endswith("still %(after)s.")
    client.force_login(mayor)
    feed = client.get(session.get_absolute_url(), {"fragment": "feed"}, HTTP_HX_REQUEST="true").text
    assert f"{hero.name} bebe (alcohol 1, Aguante 7): sigue Sobrio." in feed
    assert "Sobrio → Sobrio" not in feed
