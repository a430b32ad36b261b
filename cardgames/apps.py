from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardgamesConfig(AppConfig):
    name = "cardgames"
    verbose_name = _("Bonus tables")
