"""Suites by folder: tests/services needs PostgreSQL + Redis + a Celery worker, tests/browser needs
Chromium. Both are marked here so ``-m "not services and not browser"`` selects the rest."""

import pytest
from django.utils import translation


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = str(item.path)
        if "/tests/services/" in path:
            item.add_marker(pytest.mark.services)
        elif "/tests/browser/" in path:
            item.add_marker(pytest.mark.browser)


def pytest_configure(config):
    """Fast password hashing in-process (the app servers the suites start keep the real one)."""
    from django.conf import settings

    if settings.configured:
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _reproducible_session_seeds(request, monkeypatch):
    """Every shuffle of a live session in a test comes from a seed derived from the test's id, so a
    failure reproduces. ``FRONTERA_TEST_SEED=random`` keeps the real random seeds, to hunt for
    tests that only pass on lucky deals (run it now and then; the seeds are in the session log)."""
    import os

    if os.environ.get("FRONTERA_TEST_SEED") == "random" or "/tests/web/" not in str(request.path):
        return
    import hashlib
    import importlib
    import itertools
    import pkgutil
    import random

    import frontera.play.services as services
    from frontera.play.services import core

    base = int.from_bytes(hashlib.sha256(request.node.nodeid.encode()).digest()[:7], "big")
    counter = itertools.count()

    def seeded_rng():
        seed = (base + next(counter)) % (1 << 63)
        return random.Random(seed), seed

    # Every module of table actions binds core.new_rng under its own name: replace each binding.
    original = core.new_rng
    for info in pkgutil.iter_modules(services.__path__):
        module = importlib.import_module(f"{services.__name__}.{info.name}")
        if getattr(module, "new_rng", None) is original:
            monkeypatch.setattr(module, "new_rng", seeded_rng)


@pytest.fixture(autouse=True)
def _no_user_in_memory():
    """Each test starts with no user kept in this process's memory (frontera/accounts/backends.py):
    a test's rows are rolled back, so the next test's users may come with the same ids."""
    from django.conf import settings
    from django.core.cache import caches

    alias = getattr(settings, "USER_CACHE_ALIAS", None) if settings.configured else None
    if alias:
        caches[alias].clear()
    yield


@pytest.fixture(autouse=True)
def _no_session_snapshot_kept():
    """Each test starts with no session snapshot in this process (frontera/play/selectors/snapshot.py),
    for the same reason: rolled-back sessions' ids come again."""
    from frontera.play.selectors import snapshot

    snapshot.forget()
    yield


@pytest.fixture(autouse=True)
def _no_feed_line_kept():
    """Each test starts with no feed line's HTML in this process (frontera/play/views/feed.py): a
    rolled-back session's events come again with the same ids."""
    from frontera.play.views import feed

    feed.forget()
    yield


@pytest.fixture
def english(client):
    """The test client and the code's translations in English, so that messages are matched as the
    code writes them (``pytest.mark.usefixtures("english")``); the Spanish pages are checked apart."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield
