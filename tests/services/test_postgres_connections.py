"""How the app talks to PostgreSQL (issue #11: every round trip and every parse counts).

Pooled connections are checked before use only after they sat idle: a connection handed out a
moment ago costs no extra round trip, and one broken while it waited is replaced before a request
gets it. Values travel as bound parameters, and a statement run again on a connection is prepared
there, so the server plans it once."""

import time

import pytest
from django.db import connection
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
