from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "frontera.characters"
    verbose_name = _("Characters")

    def ready(self) -> None:
        from frontera.characters import live  # noqa: F401  (registers the "character" topic)
