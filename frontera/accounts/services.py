"""Writes for accounts."""

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def user_create(*, username: str, email: str, password: str):
    """Create a user with a hashed password. Callers validate first (``SignupForm``)."""
    return get_user_model().objects.create_user(username=username, email=email, password=password)


@transaction.atomic
def language_remember(*, user, language: str) -> None:
    """Remember the language ``user`` chose (``settings.LANGUAGES``; anything else is ignored)."""
    from django.conf import settings

    from frontera.accounts.models import Preferences

    if language not in {code for code, _name in settings.LANGUAGES}:
        return
    Preferences.objects.update_or_create(user=user, defaults={"language": language})
