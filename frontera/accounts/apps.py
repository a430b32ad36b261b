from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "frontera.accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from frontera.accounts import backends, language  # noqa: F401  (connect their signals)
