"""The Mayor undoes his last table action (issue #10): a drink, a track change or an accident,
while nobody has acted since and it moved no card; the log says what was undone."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from frontera.play.models import SessionEvent
from frontera.play.services.checks import check_choose, check_draw, check_request
from frontera.play.services.core import SessionError
from frontera.play.services.table_tools import (
    E_NOTHING_TO_UNDO,
    E_UNDO_TOO_LATE,
    drink,
    rest,
    table_undo,
    threat,
    track_change,
    undoable,
)
from tests.factories import assert_conserved, engine, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _sheet(character):
    character.refresh_from_db()
    return character.sheet


def test_fr_sob_3_the_mayor_undoes_a_drink_from_the_table():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    before = _sheet(hero)
    tallies = dict(session.tallies)
    client = Client()
    client.force_login(mayor)
    drink(session=session, by=mayor, character=hero)
    session.refresh_from_db()
    assert session.tallies != tallies
    board = client.get(session.get_absolute_url(), {"fragment": "board"}, HTTP_HX_REQUEST="true").text
    assert 'data-testid="undo"' in board and f"{hero.name} " in board.split('data-testid="undo"')[0][-400:]
    answer = client.post(reverse("play_table_undo", args=[session.pk]), HTTP_HX_REQUEST="true",
                         HTTP_HX_TARGET="board").text
    assert 'id="board"' in answer and 'data-testid="undo"' not in answer
    session.refresh_from_db()
    assert _sheet(hero) == before and session.tallies == tallies
    assert SessionEvent.objects.filter(session=session, message__startswith="The Mayor undoes").count() == 1
    with pytest.raises(SessionError, match=str(E_NOTHING_TO_UNDO)):  # twice is refused: nothing left
        table_undo(session=session, by=mayor)


def test_fr_hlt_1_a_track_change_may_not_be_undone_once_someone_acted_since():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    track_change(session=session, by=mayor, character=hero, track="health", amount=-1)
    assert undoable(session) is not None
    check_request(session=session, by=mayor, characters=[hero], trait="manos")  # the table moved on
    assert undoable(session) is None
    with pytest.raises(SessionError, match=str(E_UNDO_TOO_LATE)):
        table_undo(session=session, by=mayor)
    assert _sheet(hero)["tracks"]["health"] == -1


def test_a_sheet_edited_since_is_not_overwritten_and_a_player_cannot_undo():
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    track_change(session=session, by=mayor, character=hero, track="morale", amount=-1)
    hero.refresh_from_db()
    hero.sheet = {**hero.sheet, "money": hero.sheet.get("money", 0) + 5}  # changed outside the session
    hero.save(update_fields=["sheet"])
    assert undoable(session) is None
    client = Client()
    client.force_login(player)
    assert client.post(reverse("play_table_undo", args=[session.pk])).status_code == 404


def _where(session):
    from frontera.rules import session as rules_session

    return {uid: zone for zone, cards in rules_session.zones(engine(session)).items() for uid in cards}


def test_fr_sob_3_three_drinks_in_one_form_are_undone_as_one():
    """Issue #10: a submission of several drinks is one table action, so one undo takes all back."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    before, tallies = _sheet(hero), dict(session.tallies)
    client = Client()
    client.force_login(mayor)
    url = reverse("play_table_action", args=[session.pk])
    client.post(url, {"character": hero.pk, "action": "drink", "drinks": 3, "request_key": "d3"},
                HTTP_HX_REQUEST="true")
    session.refresh_from_db()
    assert session.tallies["alcohol"][str(hero.pk)] == 3
    board = client.get(session.get_absolute_url(), {"fragment": "board"}, HTTP_HX_REQUEST="true").text
    assert f"3 tragos para {hero.name}" in board  # one undo names the three drinks (the page is in Spanish)
    client.post(reverse("play_table_undo", args=[session.pk]), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="board")
    session.refresh_from_db()
    assert _sheet(hero) == before and session.tallies == tallies
    assert undoable(session) is None


def test_fr_mor_3_a_threat_is_undone_and_its_card_shuffled_back_into_the_pile():
    """Issue #10: the threat's card (FR-MOR-3: drawn like the Mayor's one-card check, phase 1:
    from the pile into his deck) goes back into the pile, shuffled in, and the Moral comes back."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    where_before, sheet_before = _where(session), _sheet(hero)
    pile_before = sorted(engine(session).pile)
    threat(session=session, by=mayor, character=hero)
    moved = [uid for uid, zone in _where(session).items() if where_before[uid] != zone]
    assert len(moved) == 1 and _where(session)[moved[0]] == f"deck:{engine(session).mayor}"
    table_undo(session=session, by=mayor)
    assert _where(session) == where_before and sorted(engine(session).pile) == pile_before
    assert _sheet(hero) == sheet_before
    assert_conserved(session)
    undo_moves = SessionEvent.objects.filter(session=session, kind="card", reason="undo")
    assert [(e.card, e.to_zone) for e in undo_moves] == [(moved[0], "pile")]


def test_fr_mode_11_a_rest_is_undone_and_its_cards_go_back_to_the_discard():
    """Issue #10: a rest (FR-MODE-11: 8 random discarded cards a hour back into the deck) is taken
    back card by card while nobody has acted since."""
    session, mayor, seated, _ = make_table(mode="con_desgaste")
    player, hero = seated[0]
    for _turn in range(3):  # play some cards into the discard
        participant = check_request(session=session, by=mayor, characters=[hero], trait="manos").participants.get()
        check_draw(participant=participant, by=player)
        participant.refresh_from_db()
        check_choose(participant=participant, by=player, card=engine(session).pending[participant.seat][
            participant.engine_check]["cards"][0])
    where_before = _where(session)
    seat = next(s for s in engine(session).players if s != engine(session).mayor and str(hero.pk) in s)
    assert engine(session).player_discards[seat]
    rest(session=session, by=mayor, character=hero, hours=1)
    assert not engine(session).player_discards[seat]
    assert undoable(session) is not None
    table_undo(session=session, by=mayor)
    assert _where(session) == where_before
    assert_conserved(session)


def test_a_threat_that_reshuffled_the_pile_cannot_be_undone():
    """The undo takes back only plain draws: a threat whose draw shuffled the shared discard into an
    empty pile (FR-MODE-5) changed more than its own card."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    state = engine(session)
    state.discard.extend(state.pile)
    state.pile.clear()
    session.state = state.to_json()
    session.save(update_fields=["state"])
    threat(session=session, by=mayor, character=hero)
    assert undoable(session) is None
    assert_conserved(session)


def test_fr_hlt_1_the_undo_of_a_track_change_in_a_fight_names_the_change_not_its_consequence():
    """A walk through a session found "Last: The fight takes Djamal's new levels from now on. Undo"
    after a Salud −1 during a fight: the undo was named by the action's last feed line, a consequence.
    It is named by the action's own line, the track change."""
    from frontera.play.services.combat import Fighter, combat_start

    session, mayor, seated, (minion,) = make_table(players=1, minions=1)
    hero = seated[0][1]
    combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(minion, "b")])
    track_change(session=session, by=mayor, character=hero, track="health", amount=-1)
    assert SessionEvent.objects.filter(session=session, message="The fight takes %(who)s's new levels from now on.")
    client = Client()
    client.force_login(mayor)
    board = client.get(session.get_absolute_url(), {"fragment": "board"}, HTTP_HX_REQUEST="true").text
    last = board.split('data-testid="undo"')[0][-400:]
    assert "Salud" in last and "Sano → Herido" in last and "nuevos niveles" not in last, last  # (a Spanish page)


def test_fr_hlt_1_an_undo_quotes_the_line_it_undoes():
    """A walk read "El Mayor deshace su última acción de mesa: El Mayor cambia Salud de Djamal…"
    (two subjects, a capital mid-sentence): the undone line is quoted."""
    from frontera.play.selectors.core import render_message

    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    track_change(session=session, by=mayor, character=hero, track="health", amount=-1)
    table_undo(session=session, by=mayor)
    line = SessionEvent.objects.filter(session=session, kind="decision").order_by("-pk").first()
    with translation.override("es"):
        text = render_message(line.message, line.params)
    assert text.startswith("El Mayor deshace su última acción de mesa: «El Mayor cambia") and text.endswith("»")
    with translation.override("en"):  # no "his": a Mayor may be anyone (a walk's was a woman)
        assert render_message(line.message, line.params).startswith("The Mayor undoes the last table action: “")
