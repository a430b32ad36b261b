"""The Mayor's tools during play: track changes (his logged override), threats (FR-MOR-3), heavy
drinking with the Borracho swap (FR-SOB-3, FR-SOB-1), falls and accidents (FR-HLT-4)."""

import pytest
from django.db.models import Max
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


def _feed(client, session, language: str) -> str:
    return client.get(session.get_absolute_url(), {"fragment": "feed"}, HTTP_HX_REQUEST="true",
                      HTTP_ACCEPT_LANGUAGE=language).text


@pytest.mark.parametrize("posted", [
    {"action": "threat"},
    {"action": "drink", "drinks": 2},
    {"action": "fall", "metres": 10, "agility": "partial"},
    {"action": "horse"},
    {"action": "dmh1"},
    {"action": "morale", "amount": -1},
])
def test_the_mayors_why_reaches_the_feed_whatever_the_tool(client, posted):
    """A walk through the Mayor's tools found his "Why (for the feed)" in the feed after a track
    change only: typed for a threat, drinks, an accident or the dead man's hand, it was dropped. It
    ends the action's own line (in the reader's language), once, and the line's words are as before."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    client.force_login(mayor)
    before = SessionEvent.objects.aggregate(m=Max("pk"))["m"]  # (keys are not reset between tests)
    response = client.post(reverse("play_table_action", args=[session.pk]),
                           {"character": str(hero.pk), "note": "  se burló del sheriff  ", **posted},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "X-Live-Refused" not in response.headers
    decisions = list(SessionEvent.objects.filter(session=session, kind="decision", pk__gt=before).order_by("pk"))
    noted = [e for e in decisions if "note" in e.params]
    assert [e.pk for e in noted] == [decisions[0].pk]  # the first decision only (a second drink has none)
    assert noted[0].params["note"] == "se burló del sheriff"
    feed = _feed(client, session, "es")
    assert feed.count("Motivo: se burló del sheriff") == 1
    assert "Reason:" not in feed
    english = _feed(client, session, "en")
    assert english.count("Reason: se burló del sheriff") == 1 and "Motivo" not in english


def test_the_mayors_why_on_the_death_roll_and_a_rest():
    from frontera.play.selectors.core import render_message
    session, mayor, seated, _ = make_table(mode="con_desgaste")
    player, hero = seated[0]
    part = check_draw(participant=check_request(session=session, by=mayor, characters=[hero], trait="manos",
                                                modifier=5).participants.get(), by=player)
    check_choose(participant=part, by=player, card=part.drawn[0], suit="S")
    rest(session=session, by=mayor, character=hero, hours=1, note="una noche en el granero")
    line = SessionEvent.objects.filter(session=session, kind="decision").latest("pk")
    assert render_message(line.message, line.params).endswith("Reason: una noche en el granero")


def test_a_track_change_logged_with_its_note_in_its_own_words_reads_it_once():
    """Lines written before every tool took a note carried a track change's note in the message
    itself ("… → Herido (bala)."): they read as they did, without the note a second time."""
    from frontera.play.selectors.core import render_message
    old = "The Mayor changes %(who)s's %(track)s: %(before)s → %(after)s%(note)s."
    params = {"who": "Clementine", "track": {"_msg": "Salud"}, "before": "Sano", "after": "Herido",
              "note": " (bala)"}
    assert render_message(old, params) == "The Mayor changes Clementine's Health: Unhurt → Wounded (bala)."
    with translation.override("es"):
        assert render_message(old, params) == "El Mayor cambia Salud de Clementine: Sano → Herido (bala)."


def test_the_tools_form_says_which_fields_each_action_reads(client):
    """The tools dialog showed every field whatever the action (metres fallen beside a drink): each
    field an action reads names it, for static/js/shown-for.js to hide the others; the note and the
    character are for every action."""
    session, mayor, _seated, _ = make_table()
    client.force_login(mayor)
    page = client.get(reverse("play_action_form", args=[session.pk, "tools"]), HTTP_HX_REQUEST="true").text
    import re
    shown = dict(re.findall(r'name="(\w+)"[^>]*data-shown-for="([^"]+)"', page))
    assert shown == {"amount": "health morale sobriety", "metres": "fall", "agility": "fall train coach horse",
                     "hours": "rest", "drinks": "drink"}
    assert 'data-shown-by="action"' in page
    assert not re.search(r'name="(note|character|action)"[^>]*data-shown-for', page)


def test_fr_hlt_1_fr_hlt_4_a_change_without_effect_says_so():
    """A walk through an evening read "Sano → Sano" after a Salud +1 on an unhurt character and after
    a 3 m fall softened by an Agilidad Éxito, and took it for a mistake: such lines say nothing
    changes."""
    from frontera.play.selectors.core import render_message
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    track_change(session=session, by=mayor, character=hero, track="health", amount=1)
    accident(session=session, by=mayor, character=hero, cause="fall", metres=3, agility="success")
    lines = list(SessionEvent.objects.filter(session=session, kind="decision").order_by("-pk")[:2])
    with translation.override("es"):
        texts = [render_message(e.message, e.params) for e in reversed(lines)]
    assert texts == [f"El Mayor cambia Salud de {hero.name}: ya está en Sano, no cambia nada.",
                     f"{hero.name} sufre una caída: no pierde ningún nivel de Salud, sigue Sano."]
    assert _sheet(hero).health == 0
