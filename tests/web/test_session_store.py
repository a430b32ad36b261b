"""Where a request's session comes from: this process's memory on the embedded default (one
process serves the pages; the database keeps the session for a restart), the database alone when
several processes serve pages (REDIS_URL). Either way logging out, or changing the password on
another device, ends the session at once: the suite runs once on each set-up."""

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def logged_in(username: str) -> Client:
    client = Client()
    assert client.post(reverse("login"), {"username": username, "password": PASSWORD}).status_code == 302
    return client


def test_a_page_reads_its_session_from_memory_on_the_embedded_default_and_from_the_database_with_redis():
    make_user("ana")
    client = logged_in("ana")
    with CaptureQueriesContext(connection) as done:
        assert client.get(reverse("campaign_list")).status_code == 200
    session_reads = [q["sql"] for q in done.captured_queries if "django_session" in q["sql"]]
    if settings.REDIS_URL:  # Django's database store, its read written as SQL (issue #11)
        assert settings.SESSION_ENGINE == "frontera.accounts.sessions"
        assert len(session_reads) == 1
    else:
        assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
        assert session_reads == []


def test_a_session_logged_out_is_gone_even_if_its_cookie_comes_back():
    make_user("ana")
    client = logged_in("ana")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert client.post(reverse("logout")).status_code == 302
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie
    response = client.get(reverse("campaign_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_password_changed_on_one_device_logs_the_other_out():
    make_user("ana")
    phone, laptop = logged_in("ana"), logged_in("ana")
    assert laptop.get(reverse("campaign_list")).status_code == 200  # its session is read (and kept)
    new = "otra-clave-mas-larga-9"
    response = phone.post(reverse("password_change"),
                          {"old_password": PASSWORD, "new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert phone.get(reverse("campaign_list")).status_code == 200  # the device that changed it stays in
    response = laptop.get(reverse("campaign_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_session_outlives_a_restart_of_the_process_memory():
    """The database keeps what the process's memory holds: after a restart (the memory emptied) the
    person is still logged in, on either set-up."""
    from django.core.cache import caches

    make_user("ana")
    client = logged_in("ana")
    caches[settings.SESSION_CACHE_ALIAS].clear()
    assert client.get(reverse("campaign_list")).status_code == 200


def _user_reads(client: Client) -> list[str]:
    with CaptureQueriesContext(connection) as done:
        assert client.get(reverse("campaign_list")).status_code == 200
    return [q["sql"] for q in done.captured_queries if 'FROM "auth_user"' in q["sql"]]


def test_a_page_reads_its_user_from_memory_on_the_embedded_default_and_from_the_database_with_redis():
    make_user("ana")
    client = logged_in("ana")
    _user_reads(client)  # the first request after the log-in reads the row
    if settings.REDIS_URL:
        assert len(_user_reads(client)) == 1
    else:
        assert _user_reads(client) == []


def test_an_account_deactivated_is_logged_out_at_its_next_request():
    user = make_user("ana")
    client = logged_in("ana")
    assert client.get(reverse("campaign_list")).status_code == 200  # its user is read (and kept)
    user.is_active = False
    user.save()
    response = client.get(reverse("campaign_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_user_changed_while_a_request_read_the_old_row_is_read_again_after_the_commit():
    """A request that read the user's row before another's commit may keep the old row in memory
    after the save dropped it: the commit drops it again."""
    from django.core.cache import caches

    from frontera.accounts.backends import MemoryModelBackend

    user = make_user("ana")
    client = logged_in("ana")
    alias = getattr(settings, "USER_CACHE_ALIAS", None)  # none with REDIS_URL: nothing is kept
    old = MemoryModelBackend().get_user(user.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        user.set_password("otra-clave-mas-larga-9")
        user.save()
        if alias:
            caches[alias].set(f"user:{user.pk}", old)  # the slow request keeps what it read before
    response = client.get(reverse("campaign_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_with_redis_a_request_reads_its_session_and_its_user_as_the_orm_would():
    """The session store and the log-in backend of a deployment with several processes read their
    rows in statements written as SQL: an unknown or expired session is a new, empty one, and an
    inactive account is logged out (as Django's database store and ModelBackend do)."""
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from frontera.accounts.backends import MemoryModelBackend
    from frontera.accounts.sessions import SessionStore

    user = make_user("ana")
    client = logged_in("ana")
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    store = SessionStore(key)
    assert store.load() == Session.objects.get(session_key=key).get_decoded() and store.session_key == key
    assert SessionStore("no-such-session-key").load() == {}
    # half an hour either side of now: a comparison in local time instead of UTC would be caught
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() + timedelta(minutes=30))
    assert SessionStore(key).load() == Session.objects.get(session_key=key).get_decoded() != {}
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(minutes=30))
    expired = SessionStore(key)
    assert expired.load() == {} and expired.session_key is None
    backend = MemoryModelBackend()
    assert backend._read_user(user.pk).pk == user.pk and backend._read_user(str(user.pk)).pk == user.pk
    assert backend._read_user(user.pk + 1000) is None and backend._read_user("not a key") is None
    user.is_active = False
    user.save()
    assert backend._read_user(user.pk) is None



def test_the_log_ins_of_many_pages_read_together_are_each_what_a_request_would_find():
    """What a push's pages ask (frontera/accounts/logins.py): every session in one statement, every
    user in another, each checked as a request's is. A session expired, one logged out, one whose
    password changed since and one of a closed account are not logged in; the others are, as
    themselves. (The database holds every session on either set-up.)"""
    from datetime import timedelta

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from frontera.accounts.logins import logged_in as logged_in_users

    users = [make_user(name) for name in ("ana", "bea", "cid", "dan", "eva", "fede")]
    keys = [logged_in(user.username).cookies[settings.SESSION_COOKIE_NAME].value for user in users]
    Session.objects.filter(session_key=keys[1]).update(expire_date=timezone.now() - timedelta(minutes=30))
    Session.objects.filter(session_key=keys[2]).delete()
    users[3].set_password("otra-clave-mas-larga-9")
    users[3].save()
    users[4].is_active = False
    users[4].save()
    with CaptureQueriesContext(connection) as done:
        found = logged_in_users([*keys, "no-such-session-key", ""])
    assert {key: user.pk for key, user in found.items()} == {keys[0]: users[0].pk, keys[5]: users[5].pk}
    sqls = [q["sql"] for q in done.captured_queries]
    reads = [sql for sql in sqls if sql.startswith("SELECT")]
    assert sum('FROM "django_session"' in sql and " IN (" in sql for sql in reads) == 1  # every session
    assert sum('FROM "auth_user"' in sql for sql in reads) == 1  # every user they name
    # the session whose password changed is ended, as a request's check ends it (Django's flush: the
    # only other statements)
    assert not Session.objects.filter(session_key=keys[3]).exists()
    assert all("django_session" in sql for sql in sqls if 'FROM "auth_user"' not in sql)
