"""Writes for accounts."""

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def user_create(*, username: str, email: str, password: str):
    """Create a user with a hashed password. Callers validate first (``SignupForm``)."""
    return get_user_model().objects.create_user(username=username, email=email, password=password)
