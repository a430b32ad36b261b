"""How the app talks to PostgreSQL (issue #11: every round trip and every parse counts).

Pooled connections are checked before use only after they sat idle: a connection handed out a
moment ago costs no extra round trip, and one broken while it waited is replaced before a request
gets it. Values travel as bound parameters, and a statement run again on a connection is prepared
there, so the server plans it once. A transaction's BEGIN goes out with its first statement
(``frontera/postgresql/base.py``), and the transaction is as real as psycopg's own."""

import time

import psycopg
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from psycopg import pq
from psycopg_pool import ConnectionPool

from frontera import dbpool


@pytest.fixture
def checks(monkeypatch):
    """The connections psycopg's own check was asked of, and a clock the test moves."""
    # an hour past the real clock: every connection stamped before the test counts as idle
    asked, now = [], [time.monotonic() + 3600]
    real = ConnectionPool.check_connection

    def counted(conn):
        asked.append(conn)
        real(conn)

    monkeypatch.setattr(dbpool.ConnectionPool, "check_connection", staticmethod(counted))
    monkeypatch.setattr(dbpool, "monotonic", lambda: now[0])  # this module's clock only
    return asked, now


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_connection_handed_out_again_at_once_is_not_checked_and_an_idle_one_is(checks):
    asked, now = checks
    assert connection.pool is not None, "the services suite runs on psycopg's pool (DATABASE_POOL)"
    pids = []
    for _ in range(12):  # the pool hands its connections out in turn
        connection.close()  # back to the pool: the next statement takes one out
        pids.append(_backend_pid())
        now[0] += 0.01
    assert len(asked) <= len(set(pids)) < len(pids)  # each connection checked once at most, not each time
    assert len({id(conn) for conn in asked}) == len(asked)
    checked = len(asked)
    connection.close()
    now[0] += dbpool.IDLE_CHECK_SECONDS + 1
    _backend_pid()
    assert len(asked) == checked + 1  # idle longer than the window: checked first


@pytest.mark.django_db(transaction=True)
def test_a_connection_broken_while_idle_fails_the_check_so_the_pool_replaces_it(checks):
    """The check raises for a connection whose server process went away while it sat idle; psycopg's
    pool then discards it and hands out another (its ``check`` contract). Within the window a
    connection is trusted: that is the round trip saved."""
    import psycopg

    asked, now = checks
    params = {k: v for k, v in connection.get_connection_params().items()
              if k in ("host", "port", "user", "password", "dbname")}
    with psycopg.connect(**params, autocommit=True) as pooled, psycopg.connect(**params, autocommit=True) as admin:
        dbpool.check_after_idle(pooled)  # new to the window: checked, and it works
        assert asked == [pooled]
        admin.execute("SELECT pg_terminate_backend(%s)", (pooled.info.backend_pid,))
        now[0] += dbpool.IDLE_CHECK_SECONDS / 2
        dbpool.check_after_idle(pooled)  # handed out again at once: trusted, not checked
        assert asked == [pooled]
        now[0] += dbpool.IDLE_CHECK_SECONDS + 1
        with pytest.raises(psycopg.OperationalError):
            dbpool.check_after_idle(pooled)  # idle past the window: checked, and found broken
        assert asked == [pooled, pooled]


@pytest.mark.django_db(transaction=True)
def test_a_statement_run_again_on_a_connection_is_prepared_there_with_bound_values():
    from frontera.play.models import GameSession
    from tests.factories import make_table

    session, mayor, _, _ = make_table()
    assert connection.settings_dict["OPTIONS"].get("server_side_binding") is True

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
            return [row[0] for row in cursor.fetchall()]

    connection.close()
    connection.ensure_connection()  # one connection for the rest of the test (no close in between)
    before = prepared()
    for _ in range(3):  # the session's row, as every request to a session reads it
        assert GameSession.objects.row(session.pk, role_of=mayor).viewer_role == "mayor"
    new = [sql for sql in prepared() if sql not in before]
    assert any('FROM "play_gamesession"' in sql and "$1" in sql for sql in new), new


class _Trace:
    """libpq's trace of every protocol message on the Django connection's socket (``F`` from the
    app, ``B`` from the server). Each ``ReadyForQuery`` closes one round trip."""

    def __init__(self, tmp_path):
        self.path = tmp_path / "libpq.trace"

    def __enter__(self):
        connection.ensure_connection()
        self.file = open(self.path, "w")
        self.pgconn = connection.connection.pgconn
        self.pgconn.trace(self.file.fileno())
        self.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        return self

    def __exit__(self, *exc):
        self.pgconn.untrace()
        self.file.close()
        self.lines = self.path.read_text().splitlines()

    @property
    def round_trips(self) -> int:
        return sum(1 for line in self.lines if line.startswith("B") and "\tReadyForQuery" in line)

    @property
    def sent(self) -> list[str]:
        """The statements' texts the app sent, in order (simple queries and parsed statements)."""
        return [line.split("\t", 3)[3].strip() for line in self.lines
                if line.startswith("F") and ("\tQuery\t" in line or "\tParse\t" in line)]


@pytest.mark.django_db(transaction=True)
def test_a_transactions_begin_goes_out_with_its_first_statement(tmp_path):
    """An atomic block of a locking read and a write is three round trips, not four: ``BEGIN`` is
    sent in one message with the first statement (frontera/postgresql/base.py)."""
    from django.contrib.auth.models import User

    user = User.objects.create(username="primera")
    with _Trace(tmp_path) as trace, transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        User.objects.filter(pk=locked.pk).update(first_name="Clementine")
    assert trace.round_trips == 3, trace.lines
    assert trace.sent[0].startswith('"BEGIN; SELECT'), trace.sent
    assert not any(text == '"BEGIN"' for text in trace.sent)
    assert User.objects.get(pk=user.pk).first_name == "Clementine"


@pytest.mark.django_db(transaction=True)
def test_a_mayors_call_pays_no_round_trip_for_its_begin(tmp_path):
    """A real action (the Mayor calls a check): one round trip per statement, COMMIT's included;
    Django's log names the transaction's BEGIN and COMMIT as statements of their own."""
    from frontera.play.services.checks import check_request
    from tests.factories import make_table

    session, mayor, seated, _ = make_table(players=3)
    heroes = [hero for _, hero in seated]
    check_request(session=session, by=mayor, characters=heroes[:1], trait="manos")  # plans, sheets warm
    with _Trace(tmp_path) as trace, CaptureQueriesContext(connection) as queries:
        check_request(session=session, by=mayor, characters=heroes, trait="manos")
    statements = [q["sql"] for q in queries.captured_queries]
    assert statements[0] == "BEGIN" and statements[-1] == "COMMIT", statements
    assert trace.round_trips == len(statements) - 1, (trace.sent, trace.round_trips)
    assert trace.sent[0].startswith('"BEGIN; '), trace.sent


@pytest.mark.django_db(transaction=True)
def test_the_first_statements_lock_holds_to_the_end_and_a_failed_block_leaves_nothing():
    """The transaction opened with the first statement is a real one: its row lock is held until
    the block ends (another connection cannot take it), a failure rolls back every write, a
    savepoint rolled back keeps the rest, and after the block the connection is back in autocommit."""
    from django.contrib.auth.models import User

    user = User.objects.create(username="segunda")
    other = psycopg.connect(_conninfo(), autocommit=True)
    try:
        with pytest.raises(LookupError), transaction.atomic():
            User.objects.select_for_update().get(pk=user.pk)
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE NOWAIT", (user.pk,))
            User.objects.filter(pk=user.pk).update(first_name="Djamal")
            try:
                with transaction.atomic():
                    User.objects.filter(pk=user.pk).update(last_name="borrado")
                    raise ValueError
            except ValueError:
                pass
            assert User.objects.get(pk=user.pk).last_name == ""  # the savepoint's write undone, the rest kept
            assert User.objects.get(pk=user.pk).first_name == "Djamal"
            raise LookupError("the block fails after its writes")
        assert other.execute("SELECT first_name FROM auth_user WHERE id = %s FOR UPDATE NOWAIT",
                             (user.pk,)).fetchone() == ("",)
    finally:
        other.close()
    assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE
    User.objects.filter(pk=user.pk).update(first_name="Policarpo")  # autocommit: seen at once elsewhere
    with psycopg.connect(_conninfo(), autocommit=True) as third:
        assert third.execute("SELECT first_name FROM auth_user WHERE id = %s", (user.pk,)).fetchone() == ("Policarpo",)


def _conninfo() -> str:
    """The test database's address, for a connection of the test's own."""
    params = connection.settings_dict
    return psycopg.conninfo.make_conninfo(dbname=params["NAME"], host=params["HOST"] or "127.0.0.1",
                                          port=params["PORT"] or 5432, user=params["USER"] or "postgres",
                                          password=params["PASSWORD"] or None)


@pytest.mark.django_db(transaction=True)
def test_a_first_statement_that_cannot_carry_begin_still_opens_the_transaction():
    """A statement asking for binary results (the extended protocol, no several statements in one
    message) and several rows at once (executemany) open the block's transaction with a BEGIN of
    their own: they never run in autocommit inside an atomic block."""
    for run in (lambda cursor: cursor.cursor.execute("SELECT 1", binary=True),
                lambda cursor: cursor.executemany("SELECT %s", [(1,), (2,)])):
        with transaction.atomic(), connection.cursor() as cursor:
            run(cursor)
            assert connection.connection.info.transaction_status == pq.TransactionStatus.INTRANS
        assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE
