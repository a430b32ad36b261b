from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "frontera.campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        from frontera import celery  # noqa: F401  (the Celery app, so tasks bind to it)
        from frontera.campaigns import live  # noqa: F401  (registers the "campaign" topic)
