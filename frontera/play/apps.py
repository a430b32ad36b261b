from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """Live sessions at the table. Label ``play``: ``sessions`` is django.contrib.sessions'."""

    name = "frontera.play"
    label = "play"
    verbose_name = _("Live sessions")

    def ready(self) -> None:
        from frontera.characters import hooks as character_hooks
        from frontera.play import live  # noqa: F401  (registers the "session" and "sheet" topics)
        from frontera.play.selectors.sheet import sheet_page_context
        from frontera.play.services.death import sheet_edited

        character_hooks.on_tracks_edited(sheet_edited)  # a Mayor's sheet edit reaches an open fight
        character_hooks.on_sheet_page(sheet_page_context)  # the sheet shows the session's deck
