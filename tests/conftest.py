"""Suites by folder: tests/services needs PostgreSQL + Redis + a Celery worker, tests/browser needs
Chromium. Both are marked here so ``-m "not services and not browser"`` selects the rest."""

import pytest


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
