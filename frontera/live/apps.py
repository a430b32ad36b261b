from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "frontera.live"
    verbose_name = "Live bus"
