"""psycopg's pool check, asked only of a connection that has not been handed out for a while.

With ``CONN_HEALTH_CHECKS`` Django gives its pool psycopg's own check, an empty statement on every
connection the pool hands out: one more round trip to PostgreSQL on every request and every read of
a live stream (issue #11's push and actions count their round trips). A connection handed out a
moment ago has just worked; one that sat in the pool longer is checked as before, so a connection
broken while it waited (a restarted server, a dropped socket) is replaced before a request gets it.
"""

from __future__ import annotations

import threading
import weakref
from time import monotonic

from psycopg_pool import ConnectionPool

IDLE_CHECK_SECONDS = 2.0  # a connection not handed out for longer is checked first

_handed_out: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection → monotonic time
_lock = threading.Lock()


def check_after_idle(conn) -> None:
    """The pool's ``check``: psycopg's :meth:`ConnectionPool.check_connection` (which raises for a
    broken connection: the pool then discards it and hands out another) unless ``conn`` was handed
    out within :data:`IDLE_CHECK_SECONDS`."""
    now = monotonic()
    with _lock:
        last = _handed_out.get(conn)
    if last is None or now - last > IDLE_CHECK_SECONDS:
        ConnectionPool.check_connection(conn)
    with _lock:
        _handed_out[conn] = now
