"""What an account remembers besides Django's user: the language its person chose (issue #12)."""

from django.conf import settings
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
