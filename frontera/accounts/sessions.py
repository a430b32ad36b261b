"""The session store of a deployment where several processes serve pages (``REDIS_URL``): Django's
database store, which holds every session in the database alone (no process may trust its own memory
of one: docs/deployment.md), with the read of every request written as SQL and made with its user's.
(A live stream reads its session once, when it opens, through Django's async read, the ORM's: not on
a push's path.)

Why: issue #11. With the live bus on Redis, a request read its session through the ORM (a queryset
built and compiled anew each time, for a one-row statement), and its user as well
(:mod:`frontera.accounts.backends`): a Mayor's call reached its view ~0.9 ms later than on the
embedded default, and its push came that much later. The statement is the ORM's own (the session's
key, not expired), its row loaded as ``Manager.raw()`` loads it (:func:`frontera.sql.load`), and the
user its row names comes in the same statement (:class:`~frontera.accounts.models.LogIn`'s column):
``request.user`` takes it (:mod:`frontera.accounts.middleware`) instead of a second round trip.
The pages one push wakes read theirs together (:func:`read_many`, :mod:`frontera.accounts.logins`).
The embedded default's store (:mod:`frontera.accounts.memory_sessions`) keeps the same rows.
"""

from functools import cache

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.db import connection
from django.utils import timezone

from frontera.accounts.backends import user_key
from frontera.sql import column, columns_as, load, table


class KeepsItsUser:
    """A database-backed store whose rows are :class:`~frontera.accounts.models.LogIn`'s: each save
    writes, beside the data, the user the data names (``None``: nobody is logged in)."""

    @classmethod
    def get_model_class(cls):
        from frontera.accounts.models import LogIn  # as Django's store: the apps are ready by then

        return LogIn

    def create_model_instance(self, data):
        row = super().create_model_instance(data)
        row.user_id = user_key(data.get(SESSION_KEY))
        return row

    async def acreate_model_instance(self, data):
        row = await super().acreate_model_instance(data)
        row.user_id = user_key(data.get(SESSION_KEY))
        return row


class SessionStore(KeepsItsUser, DBStore):
    #: The user its row named when it was read, by primary key (``None``: no such user); ``None``
    #: until then: what ``request.user`` takes instead of reading it (:mod:`frontera.accounts.middleware`).
    user_read: dict | None = None

    def _get_session_from_db(self):
        model = self.model
        found = load(model, _session_sql(model),
                     (self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())),
                     related={"user": get_user_model()})
        if found:
            self.user_read = _user_of(found[0])
            return found[0]
        self._session_key = None  # as Django's store: an unknown or expired key makes a new session
        return None


@cache
def _session_sql(model) -> str:
    return (f"{_with_user(model)} WHERE {column(model, 'session_key')} = %s "
            f"AND {column(model, 'expire_date')} > %s")


def _with_user(model) -> str:
    """Rows of ``model`` (a :class:`~frontera.accounts.models.LogIn`), each with its user's columns
    (``user__<column>``: :func:`frontera.sql.load`'s ``related``), NULL where there is none."""
    user = get_user_model()
    return (f"SELECT {table(model)}.*, {column(model, 'user')} AS named, {columns_as(user, 'user')} "
            f"FROM {table(model)} LEFT OUTER JOIN {table(user)} ON {column(user, 'pk')} = {column(model, 'user')}")


def _user_of(row) -> dict:
    """The user ``row`` names, by its key; ``None`` if nobody has that key (``row.named``: the
    column as read, which ``load`` empties with the user where the join found nobody)."""
    return {} if row.named is None else {row.named: row.user}


_SALT = "django.contrib.sessions." + SessionStore.__qualname__  # SessionBase.key_salt's, for SessionStore


class _Read(SessionStore):
    """A session read with others (:func:`read_many`): its data is that row's, decoded when first
    asked for, as the store decodes its own row. Anything else (a flush, a save) is the store's."""

    def __init__(self, row) -> None:
        super().__init__(row.session_key)
        self._session_data = row.session_data
        self.user_read = _user_of(row)

    @property
    def key_salt(self):
        return _SALT  # named after the class by Django: the store's, which signed the data

    def load(self):
        return self.decode(self._session_data)


def read_many(keys: list[str]) -> dict[str, SessionStore]:
    """The sessions of ``keys`` that exist and have not expired, each a store holding its row's data
    and its user (``user_read``, as a request's), read in one statement (the same condition as a
    request's read), by key."""
    if not keys:
        return {}
    model = SessionStore.get_model_class()
    found = load(model, _many_sql(model, len(keys)),
                 (*keys, connection.ops.adapt_datetimefield_value(timezone.now())),
                 related={"user": get_user_model()})
    return {row.session_key: _Read(row) for row in found}


@cache
def _many_sql(model, count: int) -> str:
    return (f"{_with_user(model)} WHERE {column(model, 'session_key')} IN ({', '.join(['%s'] * count)}) "
            f"AND {column(model, 'expire_date')} > %s")
