"""The session store of a deployment where several processes serve pages (``REDIS_URL``): Django's
database store, which holds every session in the database alone (no process may trust its own memory
of one: docs/deployment.md), with the read of every request written as SQL. (A live stream reads its
session once, when it opens, through Django's async read, the ORM's: not on a push's path.)

Why: issue #11. With the live bus on Redis, a request read its session through the ORM (a queryset
built and compiled anew each time, for a one-row statement), and its user as well
(:mod:`frontera.accounts.backends`): a Mayor's call reached its view ~0.9 ms later than on the
embedded default, and its push came that much later. The statement is the ORM's own (the session's
key, not expired); the row is loaded as ``Manager.raw()`` loads it (:func:`frontera.sql.load`).
The pages one push wakes read theirs together (:func:`read_many`, :mod:`frontera.accounts.logins`).
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


_SALT = "django.contrib.sessions." + SessionStore.__qualname__  # SessionBase.key_salt's, for SessionStore


class _Read(SessionStore):
    """A session read with others (:func:`read_many`): its data is that row's, decoded when first
    asked for, as the store decodes its own row. Anything else (a flush, a save) is the store's."""

    def __init__(self, session_key: str, session_data: str) -> None:
        super().__init__(session_key)
        self._session_data = session_data

    @property
    def key_salt(self):
        return _SALT  # named after the class by Django: the store's, which signed the data

    def load(self):
        return self.decode(self._session_data)


def read_many(keys: list[str]) -> dict[str, SessionStore]:
    """The sessions of ``keys`` that exist and have not expired, each a store holding its row's data,
    read in one statement (the same condition as a request's read), by key."""
    if not keys:
        return {}
    model = SessionStore.get_model_class()
    found = load(model, _many_sql(model, len(keys)),
                 (*keys, connection.ops.adapt_datetimefield_value(timezone.now())))
    return {row.session_key: _Read(row.session_key, row.session_data) for row in found}


@cache
def _many_sql(model, count: int) -> str:
    return (f"SELECT * FROM {table(model)} WHERE {column(model, 'session_key')} IN ({', '.join(['%s'] * count)}) "
            f"AND {column(model, 'expire_date')} > %s")
