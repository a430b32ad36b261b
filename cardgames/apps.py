from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardgamesConfig(AppConfig):
    name = "cardgames"
    verbose_name = _("Bonus tables")

    def ready(self) -> None:
        from cardgames import live  # noqa: F401  (registers the "table" topic)
