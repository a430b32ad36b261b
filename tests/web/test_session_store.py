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
    session_reads = [q["sql"] for q in done.captured_queries if '"accounts_login"' in q["sql"]]
    if settings.REDIS_URL:  # Django's database store, its read written as SQL (issue #11)
        assert settings.SESSION_ENGINE == "frontera.accounts.sessions"
        assert len(session_reads) == 1
    else:
        assert settings.SESSION_ENGINE == "frontera.accounts.memory_sessions"  # Django's cached_db
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
    return [q["sql"] for q in done.captured_queries
            if 'FROM "auth_user"' in q["sql"] or 'FROM "accounts_login" LEFT OUTER JOIN "auth_user"' in q["sql"]]


def test_a_page_reads_its_user_from_memory_on_the_embedded_default_and_with_its_session_with_redis():
    """Issue #11: with REDIS_URL the user comes in the statement that reads the session (one round
    trip, not two, before every view)."""
    make_user("ana")
    client = logged_in("ana")
    _user_reads(client)  # the first request after the log-in reads the row
    if settings.REDIS_URL:
        [read] = _user_reads(client)
        assert 'FROM "accounts_login" LEFT OUTER JOIN "auth_user"' in read
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

    from django.utils import timezone

    from frontera.accounts.backends import MemoryModelBackend
    from frontera.accounts.models import LogIn as Session
    from frontera.accounts.sessions import SessionStore

    user = make_user("ana")
    client = logged_in("ana")
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    store = SessionStore(key)
    assert store.load() == Session.objects.get(session_key=key).get_decoded() and store.session_key == key
    assert store.user_read == {user.pk: user} and store.user_read[user.pk].password == user.password
    Session.objects.filter(session_key=key).update(user_id=user.pk + 1000)  # a row naming nobody
    nobody = SessionStore(key)
    assert nobody.load() != {} and nobody.user_read == {user.pk + 1000: None}
    Session.objects.filter(session_key=key).update(user_id=user.pk)
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
    """What a push's pages ask (frontera/accounts/logins.py): every session with its user in one
    statement, each checked as a request's is. A session expired, one logged out, one whose
    password changed since and one of a closed account are not logged in; the others are, as
    themselves. (The database holds every session on either set-up.)"""
    from datetime import timedelta

    from django.utils import timezone

    from frontera.accounts.logins import logged_in as logged_in_users
    from frontera.accounts.models import LogIn as Session

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
    [read] = [sql for sql in reads if " IN (" in sql]  # every session, with every user they name
    assert 'FROM "accounts_login" LEFT OUTER JOIN "auth_user"' in read
    assert not any('FROM "auth_user"' in sql for sql in reads)
    # the session whose password changed is ended, as a request's check ends it (Django's flush: the
    # only other statements)
    assert not Session.objects.filter(session_key=keys[3]).exists()
    assert all('"accounts_login"' in sql for sql in sqls)


def test_each_log_in_keeps_the_user_its_data_names_and_ends_with_the_account():
    """A session's row (frontera.accounts.models.LogIn) holds, beside its signed data, the user that
    data names, written at every save on either set-up: nobody before the log-in, the person after
    it; the row goes at the log-out, and every row of an account goes when the account is deleted."""
    from importlib import import_module

    from asgiref.sync import async_to_sync
    from django.contrib.auth import SESSION_KEY

    from frontera.accounts.models import LogIn

    ana, bea = make_user("ana"), make_user("bea")
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["seen"] = True
    store.save()
    assert LogIn.objects.get(session_key=store.session_key).user_id is None
    store[SESSION_KEY] = str(bea.pk)
    store.save()
    assert LogIn.objects.get(session_key=store.session_key).user_id == bea.pk
    store[SESSION_KEY] = str(ana.pk)
    async_to_sync(store.asave)()  # Django's async save (a live stream's) writes it too
    assert LogIn.objects.get(session_key=store.session_key).user_id == ana.pk
    store[SESSION_KEY] = str(bea.pk)
    store.save()
    client = logged_in("ana")
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert LogIn.objects.get(session_key=key).user_id == ana.pk
    assert key not in str(LogIn.objects.get(session_key=key))  # the admin's lists show no pass
    assert client.post(reverse("logout")).status_code == 302
    assert not LogIn.objects.filter(session_key=key).exists()
    other = logged_in("ana")
    ana.delete()
    assert not LogIn.objects.filter(user_id=ana.pk).exists()
    response = other.get(reverse("campaign_list"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert LogIn.objects.filter(user=bea).count() == 1


def test_a_request_is_the_user_its_session_data_names_whatever_its_row_says():
    """The row's user is read with the session only to spare a statement (with REDIS_URL; the
    embedded default reads the user from memory, whatever the row says): a row that named another
    account (written by hand, or by a bug) does not make the request that account's. The request is
    the data's user, read as before; a row that names nobody, or an account that no longer exists,
    is the same."""
    from frontera.accounts.models import LogIn

    ana, bea = make_user("ana"), make_user("bea")
    client = logged_in("ana")
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    for named in (bea.pk, None, bea.pk + 1000):
        LogIn.objects.filter(session_key=key).update(user_id=named)
        if not settings.REDIS_URL:  # the embedded default: the row is read once the memory is emptied
            from django.core.cache import caches

            caches[settings.SESSION_CACHE_ALIAS].clear()
        response = client.get(reverse("campaign_list"))
        assert response.status_code == 200 and response.wsgi_request.user.pk == ana.pk, named


def test_the_sessions_of_before_the_log_ins_table_move_to_it_and_stay_logged_in():
    """The migration that made the log-ins' table moves Django's sessions into it, with their users:
    nobody is logged out by the deploy. An expired one is dropped; the move back restores them."""
    from datetime import timedelta
    from importlib import import_module
    from types import SimpleNamespace

    from django.apps import apps
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from frontera.accounts.models import LogIn

    migration = import_module("frontera.accounts.migrations.0002_log_ins")
    ana = make_user("ana")
    data = {SESSION_KEY: str(ana.pk), BACKEND_SESSION_KEY: "frontera.accounts.backends.MemoryModelBackend",
            HASH_SESSION_KEY: ana.get_session_auth_hash()}
    soon = timezone.now() + timedelta(days=1)
    Session.objects.create(session_key="a" * 32, session_data=DjangoStore().encode(data), expire_date=soon)
    Session.objects.create(session_key="b" * 32, session_data=DjangoStore().encode({"seen": 1}), expire_date=soon)
    Session.objects.create(session_key="c" * 32, session_data=DjangoStore().encode(data),
                           expire_date=timezone.now() - timedelta(minutes=30))
    editor = SimpleNamespace(connection=connection)
    migration.move(apps, editor)
    assert not Session.objects.exists()
    assert dict(LogIn.objects.values_list("session_key", "user_id")) == {"a" * 32: ana.pk, "b" * 32: None}
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = "a" * 32
    response = client.get(reverse("campaign_list"))
    assert response.status_code == 200 and response.wsgi_request.user.pk == ana.pk
    migration.move_back(apps, editor)
    assert not LogIn.objects.exists() and Session.objects.count() == 2
    assert Session.objects.get(session_key="a" * 32).get_decoded()[SESSION_KEY] == str(ana.pk)


def test_clearsessions_deletes_the_expired_log_ins_and_keeps_the_others():
    """docs/deployment.md's daily clean-up: Django's command, through whichever store the settings name."""
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from frontera.accounts.models import LogIn

    make_user("ana")
    key = logged_in("ana").cookies[settings.SESSION_COOKIE_NAME].value
    LogIn.objects.create(session_key="x" * 32, session_data="", expire_date=timezone.now() - timedelta(minutes=30))
    call_command("clearsessions")
    assert list(LogIn.objects.values_list("session_key", flat=True)) == [key]
