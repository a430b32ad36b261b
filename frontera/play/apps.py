from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """Live sessions at the table. Label ``play``: ``sessions`` is django.contrib.sessions'."""

    name = "frontera.play"
    label = "play"
    verbose_name = _("Live sessions")

    def ready(self) -> None:
        from frontera.play import live  # noqa: F401  (registers the "session" topic)
