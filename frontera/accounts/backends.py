"""The log-in backend: Django's :class:`~django.contrib.auth.backends.ModelBackend`, whose
``get_user`` (run on every request of a logged-in person, to turn the session's user id into
``request.user``) reads the user from this process's memory when the settings name a cache for it
(``USER_CACHE_ALIAS``: the embedded default, where one process serves every page), and from the
database otherwise, in a statement written as SQL (:func:`frontera.sql.load`).

Why: issue #13's push. A move's path to its commit spent ~0.17 ms of its ~1 ms before the service
on that one query; a push's refetches pay it once per page. Like the sessions of the embedded
default (settings: ``cached_db``), the memory holds a copy (the cache pickles it: no request shares
an instance with another), and every save or delete of a user in this process drops that copy, so a
password changed on one device still logs the others out at their next request (the session's hash
is checked against the user read here), and a deactivated account is out at once. A change made by
another process (``manage.py changepassword``) is seen within ``USER_CACHE_SECONDS``.

A session keeps the path of the backend that logged it in: sessions made before this backend
replaced ``ModelBackend`` in the settings (before 2026-11-26) are logged out once.
"""

import threading
from contextlib import contextmanager
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from frontera.sql import column, load, table

USER_CACHE_SECONDS = 60


def _key(user_id) -> str:
    return f"user:{user_id}"


def _cache():
    alias = getattr(settings, "USER_CACHE_ALIAS", None)
    return caches[alias] if alias else None


class MemoryModelBackend(ModelBackend):
    """``get_user`` from memory. ``aget_user`` (a live stream's, once when it opens) stays
    ModelBackend's: a query, in no hurry."""

    def get_user(self, user_id):
        known = getattr(_known, "users", None)
        if known is not None:
            key = user_key(user_id)
            if key in known:
                user = known[key]
                return user if user is not None and self.user_can_authenticate(user) else None
        cache = _cache()
        if cache is None:
            return self._read_user(user_id)
        user = cache.get(_key(user_id))
        if user is None:
            user = self._read_user(user_id)
            if user is not None:
                cache.set(_key(user_id), user, USER_CACHE_SECONDS)
        return user


    def _read_user(self, user_id):
        """``ModelBackend.get_user``: the user's row (``None`` if there is none, or the account may
        not log in), its statement written as SQL (:func:`frontera.sql.load`): with ``REDIS_URL``
        every request reads it (issue #11; the queryset took ~0.2 ms to build for a one-row read)."""
        key = user_key(user_id)
        if key is None:
            return None
        found = load(get_user_model(), _user_sql(get_user_model()), (key,))
        return found[0] if found and self.user_can_authenticate(found[0]) else None


def user_key(user_id):
    """The primary key a session names (a string), or ``None`` if it names none."""
    try:
        return get_user_model()._meta.pk.to_python(user_id)
    except ValidationError:
        return None


_known = threading.local()  # the users a thread's caller read for it (:func:`known_users`)


@contextmanager
def known_users(users: dict):
    """Within it, this thread's ``get_user`` takes a user of ``users`` (by primary key; ``None``: no
    such user) instead of reading it: the users read with their sessions, in the statement that read
    them (a request's: :mod:`frontera.accounts.middleware`; a push's pages':
    :mod:`frontera.accounts.logins`). Whether the account may log in is still asked of each, and
    Django's ``get_user`` still checks the session against the user's password."""
    previous = getattr(_known, "users", None)
    _known.users = users
    try:
        yield
    finally:
        _known.users = previous


@cache
def _user_sql(model) -> str:
    return f"SELECT * FROM {table(model)} WHERE {column(model, 'pk')} = %s"


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts.user_saved")
@receiver(post_delete, sender=get_user_model(), dispatch_uid="accounts.user_deleted")
def _forget(sender, instance, **kwargs):
    """A user saved (a new password, a log-in's ``last_login``, an account deactivated) or deleted:
    the copy in memory goes, so the next request reads the row as it is now. Again after the
    commit: a request that read the row before it (the old one) may have kept it meanwhile."""
    cache = _cache()
    if cache is not None:
        key = _key(instance.pk)
        cache.delete(key)
        transaction.on_commit(lambda: cache.delete(key))
