"""Django's PostgreSQL backend, with a transaction's BEGIN sent together with its first statement.

psycopg starts a transaction with a round trip of its own: ``BEGIN`` is sent and answered before the
first statement goes out, in pipeline mode too (issue #11, sessions 27 and 31). Every action on a
session is a transaction whose first statement locks the session's row, so every action paid one
round trip to PostgreSQL that carried nothing.

Here the psycopg connection stays in autocommit, and Django's "not autocommit" (an atomic block) is
kept as a mode of the connection instead: the first statement run in that mode while the server is
outside a transaction goes out as ``BEGIN; <statement>`` in one message (the simple query protocol,
its values quoted by psycopg's client-side binding, as pgJDBC sends its BEGIN with the first
query). Every later statement of the transaction is sent as before (bound and prepared on the
server); COMMIT and ROLLBACK are psycopg's own, which look at the server's transaction status, not
at the connection's autocommit. A transaction that runs no statement sends nothing at all.
"""

from __future__ import annotations

from django.db.backends.postgresql import base
from psycopg import ClientCursor
from psycopg.pq import TransactionStatus

_IDLE = TransactionStatus.IDLE


def _in_transaction_mode(conn) -> bool:
    """True when Django asked for a transaction (an atomic block) on ``conn``."""
    return getattr(conn, "frontera_transaction_mode", False)


def _needs_begin(conn) -> bool:
    """True when ``conn``'s next statement must open Django's transaction (a transaction is asked
    for and the server is not in one: the block's first statement, or the first after a commit)."""
    return _in_transaction_mode(conn) and conn.info.transaction_status == _IDLE


def _begin(conn) -> None:
    """The transaction's BEGIN as a statement of its own (for what cannot carry it: several rows
    at once, a named cursor)."""
    conn.execute(b"BEGIN", prepare=False)


class BeginWithFirstCursor(base.ServerBindingCursor):
    """Django's server-binding cursor, whose statement opening a transaction carries its BEGIN."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        conn = self.connection
        if not _needs_begin(conn):
            return super().execute(query, params, prepare=prepare, binary=binary)
        if binary:  # binary results need the extended protocol: its BEGIN goes first, on its own
            _begin(conn)
            return super().execute(query, params, prepare=prepare, binary=binary)
        # quoted into the text: a message of several statements carries no bound values
        text = "BEGIN; " + ClientCursor(conn).mogrify(query, params)
        super().execute(text, prepare=False)
        self.nextset()  # the statement's own result, after BEGIN's
        return self

    def executemany(self, query, params_seq, *, returning=False):
        if _needs_begin(self.connection):
            _begin(self.connection)
        return super().executemany(query, params_seq, returning=returning)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL wrapper whose connections begin a transaction with its first statement
    (:class:`BeginWithFirstCursor`)."""

    def get_connection_params(self):
        params = super().get_connection_params()
        if params.get("cursor_factory") is base.ServerBindingCursor:
            params["cursor_factory"] = BeginWithFirstCursor
        return params

    def _set_autocommit(self, autocommit):
        conn = self.connection
        if not isinstance(conn.cursor_factory, type) or not issubclass(conn.cursor_factory, BeginWithFirstCursor):
            return super()._set_autocommit(autocommit)
        with self.wrap_database_errors:
            if not conn.autocommit:
                conn.autocommit = True
            conn.frontera_transaction_mode = not autocommit

    def create_cursor(self, name=None):
        # A named cursor (a queryset's iterator()) declares itself WITH HOLD, as Django does for
        # autocommit: it outlives the transaction's commit, which changes nothing for a cursor read
        # to its end inside the block.
        if name and _needs_begin(self.connection):
            _begin(self.connection)
        return super().create_cursor(name)
