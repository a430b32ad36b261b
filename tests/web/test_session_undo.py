"""The Mayor undoes his last table action (issue #10): a drink, a track change or an accident,
while nobody has acted since and it moved no card; the log says what was undone."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from frontera.play.models import SessionEvent
from frontera.play.services.checks import check_request
from frontera.play.services.core import SessionError
from frontera.play.services.table_tools import (
    E_NOTHING_TO_UNDO,
    E_UNDO_TOO_LATE,
    drink,
    table_undo,
    track_change,
    undoable,
)
from tests.factories import make_table

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
