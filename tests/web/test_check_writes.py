"""Issue #11: a draw and a choice read what they need of the check's other participants with the
participant, under the session's lock, and write the state, the participant, the log and the
check's status together: in one statement on PostgreSQL (:func:`frontera.sql.write_together`), one
each elsewhere. The check's status and the regions its push names stay what they were (FR-CHK-1..4,
FR-OPP-1): the least advanced participant's status, every participant's seat."""

import pytest
from django.db import DataError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from frontera.play.models import Check, Participant, Seat, SessionEvent
from frontera.play.services import core
from frontera.play.services.checks import Entry, check_choose, check_draw, check_request, opposed_request
from frontera.play.services.core import SessionError
from frontera.play.services.gambling import banca_begin, banca_deal, banca_try_stop
from frontera.sql import insert_first_with, write_together
from tests.factories import assert_conserved, make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
POSTGRESQL = "postgresql"


def _writes(sqls):
    return [sql for sql in sqls if sql.startswith(("UPDATE", "INSERT", "WITH", "DELETE"))]


def _pushes(monkeypatch):
    published = []
    monkeypatch.setattr(core, "publish_on_commit",
                        lambda topic, version, regions=None, actor=None: published.append(set(regions or ())))
    return published


def test_a_draw_writes_state_participant_log_and_status_together(client):
    """FR-CHK-1, FR-MODE-4: a player's draw; its statements after the lock are one write on
    PostgreSQL, and no read of the other participants' statuses."""
    session, mayor, seated, _ = make_table()
    (p1, hero1), (p2, hero2) = seated
    first, second = (check_request(session=session, by=mayor, characters=[hero], trait="manos").participants.get()
                     for hero in (hero1, hero2))
    client.force_login(p1)
    client.post(reverse("play_draw", args=[session.pk, first.pk]), **HX)  # the statements' plans
    client.force_login(p2)
    with CaptureQueriesContext(connection) as queries:
        assert client.post(reverse("play_draw", args=[session.pk, second.pk]), **HX).status_code == 200
    sqls = [q["sql"] for q in queries.captured_queries]
    writes = _writes(sqls)
    if connection.vendor == POSTGRESQL:
        assert len(writes) == 1
        for part in ('UPDATE "play_gamesession"', 'UPDATE "play_participant"', 'INSERT INTO "play_sessionevent"',
                     'UPDATE "play_check"'):
            assert part in writes[0]
    else:
        assert len(writes) == 4  # the state, the participant, the log, the check
    assert not any(sql.startswith('SELECT "play_participant"."status"') for sql in sqls)
    second.refresh_from_db()
    assert second.status == "drawn" and len(second.drawn) == second.cards
    assert Check.objects.get(pk=second.prueba_id).status == "drawn"
    assert SessionEvent.objects.filter(prueba_id=second.prueba_id, kind="card").count() == second.cards
    assert_conserved(session)


def test_a_trait_choice_that_nothing_waits_on_writes_together(client):
    """FR-CHK-2..4: the card played resolves the check; on PostgreSQL the state, the participant,
    the log and the check are one statement, and no follow-up table is read."""
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    part = check_request(session=session, by=mayor, characters=[hero], trait="manos").participants.get()
    client.force_login(player)
    client.post(reverse("play_draw", args=[session.pk, part.pk]), **HX)
    part.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        assert client.post(reverse("play_choose", args=[session.pk, part.pk]), {"card": part.drawn[0], "suit": "S"},
                           **HX).status_code == 200
    sqls = [q["sql"] for q in queries.captured_queries]
    writes = _writes(sqls)
    assert len(writes) == (1 if connection.vendor == POSTGRESQL else 4)
    # the follow-ups' own reads (a banca's, a treatment's): nothing waits on this check
    assert not any(sql.startswith(('SELECT 1 FROM "play_gamble"', 'SELECT * FROM "play_treatment"')) for sql in sqls)
    # whether the player holds the cards (their character seated, and theirs) came with the participant
    before_the_write = sqls[:sqls.index(writes[0])]
    assert not any(sql.startswith('SELECT 1 FROM "play_seat"') for sql in before_the_write)
    part.refresh_from_db()
    assert part.status == "resolved" and part.played == part.drawn[0] and part.outcome
    assert Check.objects.get(pk=part.prueba_id).status == "resolved"
    assert_conserved(session)


def test_the_checks_status_is_its_least_advanced_participants_and_the_push_names_every_seat(monkeypatch):
    """FR-CHK-1: a check on two characters stays "requested" until both drew, "drawn" until both
    chose; each draw's push names both participants' checks."""
    session, mayor, seated, _ = make_table()
    (p1, hero1), (p2, hero2) = seated
    prueba = check_request(session=session, by=mayor, characters=[hero1, hero2], trait="manos")
    first, second = prueba.participants.order_by("pk")
    published = _pushes(monkeypatch)
    check_draw(participant=first, by=p1)
    assert Check.objects.get(pk=prueba.pk).status == "requested"
    assert {core.scoped(core.CHECKS, first.seat), core.scoped(core.CHECKS, second.seat)} <= published[-1]
    check_draw(participant=second, by=p2)
    assert Check.objects.get(pk=prueba.pk).status == "drawn"
    assert {core.scoped(core.CHECKS, first.seat), core.scoped(core.CHECKS, second.seat)} <= published[-1]
    first.refresh_from_db()
    check_choose(participant=first, by=p1, card=first.drawn[0], suit="S")
    assert Check.objects.get(pk=prueba.pk).status == "drawn"
    second.refresh_from_db()
    check_choose(participant=second, by=p2, card=second.drawn[0], suit="S")
    assert Check.objects.get(pk=prueba.pk).status == "resolved"
    assert_conserved(session)


def test_an_opposed_check_reveals_when_the_last_participant_chooses():
    """FR-OPP-1: the choices stay face down ("chosen") until the last one; then one reveal resolves
    the check and every participant."""
    session, mayor, seated, (minion,) = make_table()
    player, hero = seated[0]
    prueba = opposed_request(session=session, by=mayor, entries=[Entry(hero, "manos"), Entry(minion, "manos")])
    mine, theirs = prueba.participants.order_by("pk")
    check_draw(participant=mine, by=player)
    check_draw(participant=theirs, by=mayor)
    mine.refresh_from_db()
    check_choose(participant=mine, by=player, card=mine.drawn[0], suit="S")
    assert Check.objects.get(pk=prueba.pk).status == "drawn"
    assert Participant.objects.get(pk=mine.pk).status == "chosen"
    theirs.refresh_from_db()
    check_choose(participant=theirs, by=mayor, card=theirs.drawn[0], suit="S")
    assert Check.objects.get(pk=prueba.pk).status == "resolved"
    assert set(prueba.participants.values_list("status", flat=True)) == {"resolved"}
    assert all(p.outcome for p in prueba.participants.all())
    assert_conserved(session)


def test_a_check_that_a_banca_waits_on_still_settles_it():
    """FR-GMB-3: the attempt to leave a banca is a trait check whose follow-up settles the banca;
    the choice still runs it (the check's row of the banca is read under the lock)."""
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    banca = banca_begin(session=session, by=mayor, character=hero)
    banca_deal(gamble=banca, by=mayor)
    prueba = banca_try_stop(gamble=banca, by=mayor)
    part = prueba.participants.get()
    check_draw(participant=part, by=player)
    part.refresh_from_db()
    check_choose(participant=part, by=player, card=part.drawn[0], suit="S")
    assert any("FR-GMB-3" in rules for rules in SessionEvent.objects.filter(prueba=prueba).values_list("rules", flat=True))
    assert Check.objects.get(pk=prueba.pk).status == "resolved"


def test_write_together_updates_and_inserts_in_one_statement_on_postgresql():
    session, mayor, seated, _ = make_table()
    prueba = check_request(session=session, by=mayor, characters=[seated[0][1]], trait="manos")
    part = prueba.participants.get()
    part.status, prueba.label = "drawn", "together"
    events = [SessionEvent(session=session, actor=mayor, kind="decision", prueba=prueba, message=f"line {n}")
              for n in range(2)]
    with CaptureQueriesContext(connection) as queries:
        write_together([(part, ("status",)), (prueba, ("label",))], events)
    assert len(queries) == (1 if connection.vendor == POSTGRESQL else 3)
    assert Participant.objects.get(pk=part.pk).status == "drawn"
    assert Check.objects.get(pk=prueba.pk).label == "together"
    assert [e.pk for e in events] == sorted(e.pk for e in events) and all(events[n].pk for n in range(2))
    assert list(SessionEvent.objects.filter(pk__in=[e.pk for e in events]).order_by("pk").values_list(
        "message", flat=True)) == ["line 0", "line 1"]
    gone = Participant(pk=part.pk + 1000, status="drawn")
    count = SessionEvent.objects.count()
    with pytest.raises(Participant.DoesNotExist), transaction.atomic():  # as every action runs
        write_together([(gone, ("status",))],
                       [SessionEvent(session=session, actor=mayor, kind="decision", message="not written")])
    assert SessionEvent.objects.count() == count


def test_a_player_whose_character_left_the_table_no_longer_holds_its_cards():
    """FR-MODE-2: the cards drawn are their player's while the character is seated; once the seat is
    gone (read with the participant under the lock), the choice gets the one refusal everybody gets."""
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    part = check_request(session=session, by=mayor, characters=[hero], trait="manos").participants.get()
    check_draw(participant=part, by=player)
    part.refresh_from_db()
    Seat.objects.filter(session=session, character=hero).delete()
    with pytest.raises(SessionError) as refused:
        check_choose(participant=Participant(pk=part.pk), by=player, card=part.drawn[0], suit="S",
                     in_session=session.pk)
    assert "Solo quien tiene las cartas" in str(refused.value)
    assert Participant.objects.get(pk=part.pk).status == "drawn"


def test_write_together_refuses_two_updates_of_one_row():
    """PostgreSQL applies only one of two data-modifying WITHs on one row: never asked for."""
    session, mayor, seated, _ = make_table()
    part = check_request(session=session, by=mayor, characters=[seated[0][1]], trait="manos").participants.get()
    with pytest.raises(ValueError, match="each row once"):
        write_together([(part, ("status",)), (Participant(pk=part.pk), ("outcome",))])



def test_a_call_writes_its_check_participants_and_log_in_one_statement_on_postgresql():
    """FR-CHK-1, FR-OPP-1: a call's check, each participant and the log lines of the call are one
    statement on PostgreSQL (one each elsewhere), every row naming the new check."""
    session, mayor, seated, _ = make_table()
    heroes = [hero for _player, hero in seated[:2]]
    with CaptureQueriesContext(connection) as queries:
        prueba = opposed_request(session=session, by=mayor, entries=[Entry(h, "manos", "", 0) for h in heroes])
    writes = _writes([q["sql"] for q in queries.captured_queries])
    assert len(writes) == (1 if connection.vendor == POSTGRESQL else 3)
    made = Check.objects.get(pk=prueba.pk)
    participants = list(made.participants.order_by("pk"))
    assert [p.character_id for p in participants] == [h.pk for h in heroes]
    assert all(p.cards > 0 and p.status == Check.Status.REQUESTED for p in participants)
    lines = SessionEvent.objects.filter(session=session, prueba=made)
    assert lines.count() == 2 and all(line.message.startswith("%(who)s is called") for line in lines)
    assert {p.prueba_id for p in prueba.participants.all()} == {prueba.pk}


def test_insert_first_with_writes_nothing_when_its_constraint_refuses_the_first_row():
    """A repeated form's check: refused by its key's unique constraint, and with it every row that
    would have named it; the rows of a list naming it in some rows only are written apart, each row
    naming what it named."""
    session, mayor, seated, _ = make_table()
    first = check_request(session=session, by=mayor, characters=[seated[0][1]], trait="manos", request_key="k1")
    count = SessionEvent.objects.count()
    again = Check(session=session, kind="trait", request_key="k1", created_by=mayor)
    lines = [SessionEvent(session=session, actor=mayor, kind="decision", prueba=again, message="not written")]
    assert insert_first_with(again, "one_check_per_request", lines) is False
    assert again.pk is None and lines[0].pk is None and SessionEvent.objects.count() == count
    new = Check(session=session, kind="trait", request_key="k2", created_by=mayor)
    mixed = [SessionEvent(session=session, actor=mayor, kind="decision", prueba=new, message="its own"),
             SessionEvent(session=session, actor=mayor, kind="decision", prueba=first, message="the first's"),
             SessionEvent(session=session, actor=None, kind="decision", message="no check")]
    assert insert_first_with(new, "one_check_per_request", mixed) is True
    assert [e.prueba_id for e in mixed] == [new.pk, first.pk, None]
    assert mixed[0].prueba is new  # the row keeps the very check it named
    another = Check(session=session, kind="trait", request_key="k4", created_by=mayor)
    own = [SessionEvent(session=session, actor=mayor, kind="decision", prueba=another, message=f"line {n}")
           for n in range(2)]  # every row names it: one statement on PostgreSQL
    assert insert_first_with(another, "one_check_per_request", own) is True
    assert all(e.prueba is another and e.prueba_id == another.pk for e in own)
    assert list(SessionEvent.objects.filter(pk__in=[e.pk for e in mixed]).order_by("pk").values_list(
        "message", "prueba_id")) == [("its own", new.pk), ("the first's", first.pk), ("no check", None)]
    if connection.vendor == POSTGRESQL:  # an over-long value is refused, not cut short (SQLite keeps it whole)
        longer = Check(session=session, kind="trait", request_key="k3", created_by=mayor)
        count = SessionEvent.objects.count()
        with pytest.raises(DataError), transaction.atomic():
            insert_first_with(longer, "one_check_per_request",
                              [SessionEvent(session=session, actor=mayor, kind="card", prueba=longer, card="X" * 11)])
        assert SessionEvent.objects.count() == count and not Check.objects.filter(request_key="k3").exists()
