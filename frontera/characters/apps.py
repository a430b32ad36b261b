from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CharactersConfig(AppConfig):
    name = "frontera.characters"
    verbose_name = _("Characters")

    def ready(self) -> None:
        from frontera.campaigns import hooks as campaign_hooks
        from frontera.characters import live  # noqa: F401  (registers the "character" topic)
        from frontera.characters.services import catalogue_seed

        campaign_hooks.on_campaign_created(catalogue_seed)  # each campaign its own equipment catalogue
