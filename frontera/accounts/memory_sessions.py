"""The session store of the embedded default (no ``REDIS_URL``: one process serves every page):
Django's ``cached_db``, which answers a request from this process's memory and keeps each session
in the database for a restart (issue #13's push), writing the same rows as the store of a
deployment with several processes (:class:`~frontera.accounts.models.LogIn`,
:mod:`frontera.accounts.sessions`): a deployment that moves from one to the other keeps its log-ins.
"""

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore

from frontera.accounts.sessions import KeepsItsUser


class SessionStore(KeepsItsUser, CachedDBStore):
    pass
