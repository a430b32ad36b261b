"""PostgreSQL's pooled connections are checked before use only after they sat idle (issue #11):
a connection handed out a moment ago costs no extra round trip, and one broken while it waited is
replaced before a request gets it."""

import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from frontera import dbpool


@pytest.fixture
def checks(monkeypatch):
    """The connections psycopg's own check was asked of, and a clock the test moves."""
    asked, now = [], [1000.0]
    real = ConnectionPool.check_connection

    def counted(conn):
        asked.append(conn)
        real(conn)

    monkeypatch.setattr(dbpool.ConnectionPool, "check_connection", staticmethod(counted))
    monkeypatch.setattr(dbpool.time, "monotonic", lambda: now[0])
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
def test_a_connection_broken_while_idle_is_replaced_before_a_request_gets_it(checks):
    _asked, now = checks
    connection.close()
    doomed = _backend_pid()
    connection.close()
    import psycopg

    admin = psycopg.connect(**{k: v for k, v in connection.get_connection_params().items()
                               if k in ("host", "port", "user", "password", "dbname")}, autocommit=True)
    with admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (doomed,))
    now[0] += dbpool.IDLE_CHECK_SECONDS + 1
    assert _backend_pid() != doomed  # the check found it broken; the pool handed out another
