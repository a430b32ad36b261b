"""The services suite talks to the real PostgreSQL, Redis and a Celery worker.

Outside CI it is skipped when they are not configured; with CI=true it is required and fails.
"""

import os

import pytest
from django.conf import settings


@pytest.fixture(autouse=True)
def require_services():
    missing = []
    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):  # Django's or frontera's
        missing.append("DATABASE_URL (PostgreSQL)")
    if not settings.REDIS_URL:
        missing.append("REDIS_URL")
    if missing:
        message = "services suite needs " + ", ".join(missing)
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (required when CI=true)")
        pytest.skip(message)


@pytest.fixture(scope="session", autouse=True)
def close_stray_connections(django_db_setup, django_db_blocker):
    """Worker threads and app server processes may still hold connections to the test database
    when the suite ends; close them so pytest-django can drop it."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
