"""The session store of a deployment where several processes serve pages (``REDIS_URL``): Django's
database store, which holds every session in the database alone (no process may trust its own memory
of one: docs/deployment.md), with the read of every request written as SQL. (A live stream reads its
session once, when it opens, through Django's async read, the ORM's: not on a push's path.)

Why: issue #11. With the live bus on Redis, a request read its session through the ORM (a queryset
built and compiled anew each time, for a one-row statement), and its user as well
(:mod:`frontera.accounts.backends`): a Mayor's call reached its view ~0.9 ms later than on the
embedded default, and its push came that much later. The statement is the ORM's own (the session's
key, not expired); the row is loaded as ``Manager.raw()`` loads it (:func:`frontera.sql.load`).
"""

from functools import cache

from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.db import connection
from django.utils import timezone

from frontera.sql import column, load, table


class SessionStore(DBStore):
    def _get_session_from_db(self):
        model = self.model
        found = load(model, _session_sql(model),
                     (self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())))
        if found:
            return found[0]
        self._session_key = None  # as Django's store: an unknown or expired key makes a new session
        return None


@cache
def _session_sql(model) -> str:
    return (f"SELECT * FROM {table(model)} WHERE {column(model, 'session_key')} = %s "
            f"AND {column(model, 'expire_date')} > %s")
