"""What an account remembers besides Django's user: the language its person chose (issue #12), and
its log-ins (Django's sessions, with the user each is logged in as)."""

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils.translation import gettext_lazy as _


class Preferences(models.Model):
    """One row per account that chose something; no row means "follow the browser"."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="preferences")
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES, blank=True)

    class Meta:
        verbose_name = _("account preferences")
        verbose_name_plural = _("account preferences")

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"


class LogIn(AbstractBaseSession):
    """A Django session (its key, its signed data, its expiry) with the user its data names, kept in
    step by the session stores at every save (:mod:`frontera.accounts.sessions`).

    Why the user is a column: where the sessions live in the database alone (``REDIS_URL``), a
    request read its session, then its user, in two statements (issue #11: a round trip to the
    database before every action's service); the column lets one statement read both. It is only a
    hint: the user a request runs as is still the one the signed data names, checked by Django's
    ``get_user`` (the account may log in, the session matches its password). No constraint in the
    database (a session saved as its account is deleted stays a session of nobody); deleting a user
    through Django ends their log-ins."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             db_constraint=False, related_name="+")

    class Meta(AbstractBaseSession.Meta):
        verbose_name = _("log-in")
        verbose_name_plural = _("log-ins")

    def __str__(self) -> str:
        # not Django's (the session's key: a pass to the account, shown by the admin's pages that
        # list what deleting a user deletes)
        return f"log-in of {self.user_id}" if self.user_id is not None else "log-in of nobody"

    @classmethod
    def get_session_store_class(cls):
        from frontera.accounts.sessions import SessionStore

        return SessionStore
