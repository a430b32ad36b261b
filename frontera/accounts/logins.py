"""Who is still logged in, for the sessions of many pages at once.

A session page's live stream lasts for hours, so each push's rendering of its regions checks its
viewer's log-in again, as every request does (:mod:`frontera.play.views.pushed`). Where the sessions
live in the database alone (``REDIS_URL``: several processes serve the pages), that was two
statements for each page of each push, its session and its user. The pages one push wakes read them
together here: every session with the user it names, in one statement, then each session is checked
by Django's own ``get_user`` (the account may still log in, the session still matches the user's
password), as for a request. On the embedded default the sessions and users are read from the
process's memory, page by page, as before.

Issue #11: at 12 players a push's rendering job made 24 of those reads.
"""

from types import SimpleNamespace

from django.conf import settings
from django.contrib.auth import get_user

from frontera.accounts import sessions
from frontera.accounts.backends import known_users


def reads_together() -> bool:
    """Whether the sessions are this project's database store's (:func:`logged_in` reads them)."""
    return settings.SESSION_ENGINE == sessions.__name__


def logged_in(keys) -> dict:
    """The user each of the session ``keys`` is logged in as, by key; a key whose session has ended,
    expired, or no longer matches its user is left out. For the database store
    (:func:`reads_together`)."""
    stores = sessions.read_many(sorted({key for key in keys if key}))
    read = {}
    for store in stores.values():
        read |= store.user_read  # by the key each row named: get_user asks by the key its data names
    users = {}
    with known_users(read):
        for key, store in stores.items():
            user = get_user(SimpleNamespace(session=store))
            if user.is_authenticated:
                users[key] = user
    return users
