"""Issue #11: :func:`frontera.sql.load` loads the statements written as SQL as models, as
``Manager.raw()`` does, with its column plan worked out once per statement and connection."""

import datetime

import pytest
from django.core.exceptions import FieldDoesNotExist
from django.db import DataError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from frontera.characters.models import Character
from frontera.play.models import Check, CombatRound, GameSession, Participant, Seat, SessionEvent
from frontera.play.selectors.gambling import open_gambles
from frontera.play.services.checks import check_request
from frontera.play.services.combat import Fighter, combat_start
from frontera.play.services.gambling import banca_begin, banca_deal, banca_try_stop
from frontera.sql import (
    INSERT_BATCH,
    column,
    insert,
    insert_first,
    insert_first_with,
    insert_together,
    load,
    table,
    update,
    write_together,
)
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def _fields(instance):
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields
            if field.attname not in instance.get_deferred_fields()}


def test_a_whole_row_loads_as_raw_loads_it_converters_included():
    session, *_ = make_table(players=2)
    sql = f"SELECT * FROM {table(GameSession)} WHERE {column(GameSession, 'pk')} = %s"
    [loaded] = load(GameSession, sql, [session.pk])
    [raw] = GameSession.objects.raw(sql, [session.pk])
    assert _fields(loaded) == _fields(raw)
    assert isinstance(loaded.state, dict) and loaded.state == raw.state  # the JSON field's own decoding
    assert isinstance(loaded.date, datetime.date)
    assert loaded._state.adding is False and loaded._state.db == "default"
    assert loaded.get_deferred_fields() == set()


def test_columns_in_any_order_fill_their_fields_and_the_rest_is_deferred_or_an_attribute():
    _, _, seated, _ = make_table(players=2)
    hero = seated[0][1]
    # the name before the primary key, a field not selected, and a column that is no field
    sql = (f"SELECT {column(Character, 'name')}, {column(Character, 'pk')}, {column(Character, 'sheet')}, "
           f"UPPER({column(Character, 'name')}) AS shout FROM {table(Character)} WHERE {column(Character, 'pk')} = %s")
    [loaded] = load(Character, sql, [hero.pk])
    assert (loaded.pk, loaded.name, loaded.sheet) == (hero.pk, hero.name, hero.sheet)
    assert loaded.shout == hero.name.upper()
    assert "kind" in loaded.get_deferred_fields()
    with CaptureQueriesContext(connection) as queries:
        assert loaded.kind == hero.kind  # a deferred field loads when asked for, as with raw()
    assert len(queries) == 1


def test_many_rows_and_none():
    session, *_ = make_table(players=3)
    sql = (f"SELECT * FROM {table(Character)} WHERE {column(Character, 'campaign')} = %s "
           f"ORDER BY {column(Character, 'pk')}")
    loaded = load(Character, sql, [session.campaign_id])
    assert [c.pk for c in loaded] == [c.pk for c in Character.objects.raw(sql, [session.campaign_id])]
    assert len(loaded) >= 3
    assert load(Check, f"SELECT * FROM {table(Check)} WHERE {column(Check, 'pk')} = %s", [-1]) == []


def test_a_statement_without_the_primary_key_is_refused():
    _, _, seated, _ = make_table(players=2)
    sql = f"SELECT {column(Character, 'name')} FROM {table(Character)} WHERE {column(Character, 'pk')} = %s"
    with pytest.raises(FieldDoesNotExist):
        load(Character, sql, [seated[0][1].pk])


def test_each_run_reads_the_row_as_it_is_now():
    _, _, seated, _ = make_table(players=2)
    hero = seated[0][1]
    sql = f"SELECT * FROM {table(Character)} WHERE {column(Character, 'pk')} = %s"
    assert load(Character, sql, [hero.pk])[0].name == hero.name
    Character.objects.filter(pk=hero.pk).update(name="Otro nombre")
    assert load(Character, sql, [hero.pk])[0].name == "Otro nombre"


def test_related_rows_load_as_select_related_loads_them():
    session, mayor, seated, _ = make_table(players=2)
    hero = seated[0][1]
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="manos", label="Saltar la cerca")
    part = prueba.participants.get()
    with CaptureQueriesContext(connection) as queries:
        loaded = Participant.objects.with_check(part.pk)
        assert loaded.prueba.label == "Saltar la cerca" and loaded.character.name == hero.name
        assert loaded.prueba.session_id == session.pk and loaded.character.owner_id == seated[0][0].pk
    assert len(queries) == 1  # one statement, the check and the character with it
    expected = Participant.objects.select_related("prueba", "character").get(pk=part.pk)
    assert _fields(loaded) == _fields(expected)
    assert _fields(loaded.prueba) == _fields(expected.prueba)  # converters too: a datetime, a JSON field
    assert isinstance(loaded.prueba.created_at, datetime.datetime) and loaded.prueba.created_at == prueba.created_at
    assert _fields(loaded.character) == _fields(expected.character)
    assert Participant.objects.with_check(part.pk, session_id=session.pk).pk == part.pk
    other, *_ = make_table(players=1)
    assert Participant.objects.with_check(part.pk, session_id=other.pk) is None  # not of that session
    assert Participant.objects.with_check(-1) is None


def test_the_seats_and_characters_the_board_reads_are_those_the_orm_reads():
    session, mayor, seated, minions = make_table(players=3, minions=2)
    seats = Seat.objects.at(session.pk)
    expected = list(Seat.objects.filter(session=session).select_related("character__owner"))
    assert [s.pk for s in seats] == [s.pk for s in expected]
    assert [s.player for s in seats] == [s.character.owner.get_username() for s in expected]
    assert [_fields(s.character) for s in seats] == [_fields(s.character) for s in expected]
    player, hero = seated[1]
    assert [s.character_id for s in Seat.objects.at(session.pk, owner_id=player.pk)] == [hero.pk]
    assert Seat.objects.at(session.pk, owner_id=mayor.pk) == []
    everyone = Character.objects.of_campaign(session.campaign_id)
    assert [c.pk for c in everyone] == list(Character.objects.filter(campaign=session.campaign)
                                            .order_by("kind", "name", "pk").values_list("pk", flat=True))
    assert {c.pk for c in everyone} == {h.pk for _, h in seated} | {m.pk for m in minions}


def test_insert_and_update_write_what_the_orm_writes():
    session, mayor, seated, _ = make_table(players=2)
    hero = seated[0][1]
    made = insert([Check(session=session, kind="trait", label_msg={"_msg": "x", "n": 1}, request_key="k1",
                         created_by=mayor),
                   Check(session=session, kind="opposed", difficulty=7, created_by=mayor)])
    assert all(c.pk and not c._state.adding for c in made) and made[0].pk < made[1].pk
    assert isinstance(made[0].created_at, datetime.datetime)  # auto_now_add, as the ORM fills it
    again = {c.pk: c for c in Check.objects.filter(pk__in=[c.pk for c in made])}
    assert again[made[0].pk].label_msg == {"_msg": "x", "n": 1} and again[made[0].pk].request_key == "k1"
    assert again[made[1].pk].difficulty == 7 and again[made[1].pk].created_at == made[1].created_at
    [part] = insert([Participant(prueba=made[0], character=hero, seat="k1", trait="manos", cards=3)])
    assert Participant.objects.get(pk=part.pk).drawn == []  # the field's default, as JSON
    part.drawn, part.status = ["AS", "2H"], "drawn"
    update(part, ("drawn", "status"))
    stored = Participant.objects.get(pk=part.pk)
    assert (stored.drawn, stored.status, stored.cards) == (["AS", "2H"], "drawn", 3)
    many = insert([Participant(prueba=made[1], character=hero, seat="k1", trait="manos", cards=n)
                   for n in range(INSERT_BATCH + 3)])  # past one statement's batch
    assert [p.cards for p in Participant.objects.filter(prueba=made[1]).order_by("pk")] == list(range(INSERT_BATCH + 3))
    assert [p.pk for p in many] == sorted(p.pk for p in many)
    part.pk = -1
    with pytest.raises(Participant.DoesNotExist):
        update(part, ("status",))


def test_insert_first_inserts_once_what_a_unique_constraint_allows_once():
    """A form's key makes one check in a session: the second row is skipped by the constraint, with
    nothing written and the transaction still usable; an empty key, or another session, is no repeat."""
    session, mayor, _, _ = make_table(players=1)
    other, other_mayor, _, _ = make_table(players=1)
    key = "one_check_per_request"
    first = Check(session=session, kind="trait", request_key="k1", created_by=mayor)
    assert insert_first(first, key) is True and first.pk and not first._state.adding
    again = Check(session=session, kind="opposed", request_key="k1", created_by=mayor)
    with CaptureQueriesContext(connection) as queries:
        assert insert_first(again, key) is False
    assert len(queries) == 1 and again.pk is None and again._state.adding
    assert Check.objects.get(session=session, request_key="k1").kind == "trait"  # the first, untouched
    assert insert_first(Check(session=other, kind="trait", request_key="k1", created_by=other_mayor), key)
    assert all(insert_first(Check(session=session, kind="trait", created_by=mayor), key) for _ in range(2))
    assert Check.objects.filter(session=session).count() == 3


def test_insert_first_skips_only_what_its_own_constraint_refuses():
    """A session's start form key is its constraint; a row that breaks another unique constraint (the
    campaign's session number) is an error, as with any insert, not a repeat."""
    session, _, _, _ = make_table(players=1)
    GameSession.objects.filter(pk=session.pk).update(request_key="start-1")
    key = "one_session_per_start_request"

    def copy(**changes):
        row = GameSession.objects.get(pk=session.pk)
        row.pk, row._state.adding = None, True
        for name, value in changes.items():
            setattr(row, name, value)
        return row

    assert insert_first(copy(number=session.number + 1), key) is False  # the same start form: skipped
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_first(copy(request_key="start-2"), key)  # the same number: refused, not skipped
    assert insert_first(copy(number=session.number + 1, request_key="start-2"), key) is True
    assert GameSession.objects.filter(campaign=session.campaign).count() == 2


def test_insert_together_writes_each_list_as_insert_does_in_one_statement_on_postgresql():
    """A call's participants and its log lines: every row as the ORM would write it, each object with
    its key in the order of its list; one statement on PostgreSQL, one a list elsewhere."""
    session, mayor, seated, _ = make_table(players=2)
    [prueba] = insert([Check(session=session, kind="trait", created_by=mayor)])
    heroes = [hero for _, hero in seated]
    participants = [Participant(prueba=prueba, character=hero, seat=f"c{hero.pk}", trait="manos", cards=n + 1,
                                status="resolved" if n else "requested") for n, hero in enumerate(heroes)]
    events = [SessionEvent(session=session, actor=mayor, kind="decision", prueba=prueba, message=f"line {n}",
                           params={"n": n}, rules=["FR-CHK-1"]) for n in range(3)]
    with CaptureQueriesContext(connection) as queries:
        insert_together(participants, [], events)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
    assert all(p.pk and not p._state.adding for p in participants + events)
    stored = {p.pk: p for p in Participant.objects.filter(prueba=prueba)}
    assert [(stored[p.pk].character_id, stored[p.pk].cards, stored[p.pk].status) for p in participants] == [
        (heroes[0].pk, 1, "requested"), (heroes[1].pk, 2, "resolved")]
    lines = {e.pk: e for e in SessionEvent.objects.filter(prueba=prueba)}
    assert [(lines[e.pk].message, lines[e.pk].params) for e in events] == [(f"line {n}", {"n": n}) for n in range(3)]
    many = [Participant(prueba=prueba, character=heroes[0], seat="x", trait="manos", cards=n)
            for n in range(INSERT_BATCH + 1)]  # past one statement's batch: a list at a time
    insert_together(many, [SessionEvent(session=session, actor=mayor, kind="decision", message="more")])
    assert [p.cards for p in Participant.objects.filter(prueba=prueba, seat="x").order_by("pk")] == list(
        range(INSERT_BATCH + 1))


def test_many_rows_travel_as_one_array_a_column_on_postgresql_whatever_their_number():
    """Issue #11: listed row by row, a revealed fight's 21 log lines were 273 parameters, and psycopg
    parses a statement of more than 50 again every time it runs. On PostgreSQL, past 50 values, each
    column's values are one array: the same statement for 5 rows as for 30, with as many parameters
    as columns (a few rows stay listed); every value written as the ORM writes it (NULL, JSON,
    times), each object given its own row's key, and an over-long text refused, not cut short."""
    session, mayor, _seated, _ = make_table(players=2)
    [prueba] = insert([Check(session=session, kind="trait", created_by=mayor)])
    statements = []

    def seen(execute, sql, params, many, context):
        statements.append((sql, len(params or ())))
        return execute(sql, params, many, context)

    def lines(count, tag, check=None):
        return [SessionEvent(session=session, actor=mayor if n % 2 else None, kind="card",
                             prueba=check or (prueba if n % 3 else None), card=f"{n}:AS", from_zone="deck:c1",
                             to_zone="hand:c1", reason="draw", seen_by=["c1"] if n % 2 else ["*"],
                             params={"n": n, "tag": tag}, rules=["FR-CHK-1"]) for n in range(count)]

    two, five, thirty = lines(2, "two"), lines(5, "five"), lines(30, "thirty")
    called = Check(session=session, kind="trait", request_key="many", created_by=mayor)
    its_own = lines(30, "its own", called)
    session.tallies = {"seen": 1}
    with connection.execute_wrapper(seen):
        insert(two)
        insert(five)
        write_together([(session, ("tallies",))], thirty)
        assert insert_first_with(called, "one_check_per_request", its_own) is True
    for made in (two, five, thirty, its_own):
        assert all(e.pk and not e._state.adding for e in made) and [e.pk for e in made] == sorted(e.pk for e in made)
        stored = {e.pk: e for e in SessionEvent.objects.filter(pk__in=[e.pk for e in made])}
        assert [(stored[e.pk].card, stored[e.pk].actor_id, stored[e.pk].prueba_id, stored[e.pk].seen_by,
                 stored[e.pk].params, stored[e.pk].rules, stored[e.pk].created_at) for e in made] == [
            (e.card, e.actor_id, e.prueba_id, e.seen_by, e.params, ["FR-CHK-1"], e.created_at) for e in made]
        assert all(isinstance(e.created_at, datetime.datetime) for e in made)
    assert GameSession.objects.get(pk=session.pk).tallies == {"seen": 1}
    assert {e.prueba_id for e in its_own} == {called.pk} and called.pk
    nobody = [SessionEvent(session=session, actor=None, kind=SessionEvent.Kind.CARD if n % 2 else "card",
                           card=f"{n}:KH", message="") for n in range(6)]  # a column all NULL; choices and text
    insert(nobody)
    assert list(SessionEvent.objects.filter(pk__in=[e.pk for e in nobody]).order_by("pk").values_list(
        "actor_id", "prueba_id", "kind", "card")) == [(None, None, "card", f"{n}:KH") for n in range(6)]
    if connection.vendor == "postgresql":
        [(listed, listed_params), (alone, alone_params), (together, together_params),
         (first, first_params)] = statements
        assert listed_params == 2 * 13 and "unnest(" not in listed  # two rows: a parameter a value
        assert alone_params == 13 and together_params == 13 + 2  # a column each, and the session's update
        assert "unnest(" in alone and alone in together  # the insert of 5 rows is the insert of 30
        assert first_params == 10 + 12 and "unnest(" in first  # the check's values, and the lines' but its key
        count = SessionEvent.objects.count()
        with pytest.raises(DataError), transaction.atomic():
            insert(lines(5, "long") + [SessionEvent(session=session, kind="card", card="X" * 11)])
        assert SessionEvent.objects.count() == count


def test_an_outer_join_that_finds_no_related_row_gives_none():
    session, mayor, seated, _ = make_table(players=2)
    player, hero = seated[0]
    banca = banca_begin(session=session, by=mayor, character=hero)  # no check yet
    [loaded], characters = open_gambles(session)
    assert loaded.pk == banca.pk and loaded.prueba is None and hero.pk in characters
    banca_deal(gamble=banca, by=mayor)
    stop = banca_try_stop(gamble=banca, by=player)  # the attempt to leave is a check of the banca's
    [loaded], _ = open_gambles(session)
    assert loaded.prueba.pk == stop.pk and _fields(loaded.prueba) == _fields(Check.objects.get(pk=stop.pk))


def test_a_fight_is_read_only_within_its_own_session():
    session, mayor, seated, minions = make_table(players=1, minions=1)
    fight = combat_start(session=session, by=mayor, fighters=[Fighter(seated[0][1], "a"), Fighter(minions[0], "b")])
    loaded = CombatRound.objects.of_session(fight.pk, session.pk)
    assert _fields(loaded) == _fields(CombatRound.objects.get(pk=fight.pk))
    other, *_ = make_table(players=1)
    assert CombatRound.objects.of_session(fight.pk, other.pk) is None


def test_a_results_column_names_are_those_its_description_gives():
    """:func:`frontera.sql.load` reads the names from psycopg's result itself on PostgreSQL (its
    ``description`` makes an object of each column): the same names, quoted and aliased ones too."""
    from frontera.sql import _column_names

    quote = connection.ops.quote_name
    sql = (f"SELECT 1 AS {quote('prueba__id')}, 'x' AS {quote('Mayúsculas y acentos')}, 2 AS {quote('plain')} "
           f"FROM {table(GameSession)} WHERE 1 = %s")
    make_table(players=1)
    with connection.cursor() as cursor:
        cursor.execute(sql, [1])
        cursor.fetchall()
        assert _column_names(cursor) == tuple(column[0] for column in cursor.description) == (
            "prueba__id", "Mayúsculas y acentos", "plain")

