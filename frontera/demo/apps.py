from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo data (``manage.py demo_seed``). The top layer: it may import every app it seeds."""

    name = "frontera.demo"
    verbose_name = _("Demo data")
