"""What the characters app tells the apps above it, and what they add to its pages.

Apps depend one way (``docs/architecture.md``): characters imports campaigns, never play. Live
sessions (play) sit above; they register here from ``PlayConfig.ready()``:

- :func:`on_tracks_edited`: ``fn(*, character, by)`` after the commit of a sheet edit that changed
  the character's tracks (the Mayor's sheet form), so an open fight takes the new levels and the
  death roll's count (FR-HLT-3) starts or stops. Registered: ``frontera.play.services.death.sheet_edited``.
- :func:`on_sheet_page`: ``fn(character, user) -> dict`` adds to the context of the character sheet
  page: the cards of the session the character sits at (``deck``) and a live topic that follows it
  (``live_topic``, ``live_version``). Registered: ``frontera.play.selectors.sheet.sheet_page_context``.
  Without it the sheet follows only its own ``character:<id>`` topic and shows no deck.
"""

from __future__ import annotations

from collections.abc import Callable

from frontera.characters.selectors import character_version

_TRACKS_EDITED: list[Callable[..., object]] = []
_SHEET_PAGE: list[Callable[..., dict]] = []


def on_tracks_edited(fn: Callable[..., object]) -> Callable[..., object]:
    """Register ``fn(*, character, by)``; registering the same function twice keeps one."""
    if fn not in _TRACKS_EDITED:
        _TRACKS_EDITED.append(fn)
    return fn


def tracks_edited(*, character, by) -> None:
    """Called after commit by :func:`frontera.characters.services.character_update`."""
    for fn in _TRACKS_EDITED:
        fn(character=character, by=by)


def on_sheet_page(fn: Callable[..., dict]) -> Callable[..., dict]:
    """Register ``fn(character, user) -> dict`` (extra context for the sheet page)."""
    if fn not in _SHEET_PAGE:
        _SHEET_PAGE.append(fn)
    return fn


def sheet_page_context(character, user) -> dict:
    """The sheet page's live topic and whatever the apps above add (later registrations win)."""
    context: dict = {"deck": None}
    for fn in _SHEET_PAGE:
        context.update(fn(character, user))
    if "live_topic" not in context:
        context.update(live_topic=f"character:{character.pk}", live_version=character_version(character.pk))
    return context
