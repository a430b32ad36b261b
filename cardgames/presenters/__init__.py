"""How each bonus game's position and actions are drawn and worded for a player.

The engines speak in keys and codes (``{"type": "attack", "card": "9S", "target": 1}``); a player
reads words and suit symbols ("Ataca el almacén de 7 de Ana con el 9♠"). This package turns one
seat's view (never the state) into what a board template shows, and every legal action into a
label in the game's own words. Everything it returns is already translated into the active
language: call it inside the request's ``translation.override`` / locale middleware.

The API the web layer uses (all pure functions of their arguments, no database):

``present(game, view, seat, seat_name=None) -> dict``
    Everything ``cardgames/boards/<game>.html`` needs, already worded (the template only loops
    and tests prepared values). ``view`` is ``engine.view(state, seat)`` (``seat=None`` for a
    spectator). ``seat_name(i) -> str`` names seat ``i`` (a player's or bot's name); without it
    seats are "Seat 1", "Seat 2"... Always contains ``"game"`` (the game's key) and
    ``"template"`` (the board template's path).

``action_label(game, action, view, seat_name=None) -> str``
    One legal action (a dict from ``legal_actions``) as a button label in the game's words.

``action_groups(game, actions, view, seat_name=None) -> list[dict]``
    ``[{"title": str, "actions": [(action, label), ...]}, ...]``: the legal actions in readable
    sections (e.g. "Attack", "Change a storage", "Discard"), every action exactly once, in the
    engine's order inside each section.

``move_text(game, seat_name, seat, action, viewer) -> str``
    One line of the log of moves: seat ``seat`` played ``action``; the text is for ``viewer``
    (a seat, or ``None`` for a spectator) and never says what ``viewer`` may not see (e.g. the
    cards a PoCoBOT player passed face down, a palm-tree bird placed face down). ``seat_name`` is
    the same callable as above (required here).

A game without a dedicated module falls back to a generic label: the action's type and values
in words, cards as rank and suit symbol, never a raw key.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

from django.utils.translation import gettext as _

from cardgames.presenters.words import card_text, default_seat_name, generic_label

SeatName = Callable[[int], str]

GAMES: tuple[str, ...] = ("pocobot", "palmera", "boom", "nismatch")


def _module(game: str) -> ModuleType | None:
    if game not in GAMES:
        return None
    try:
        return importlib.import_module(f"cardgames.presenters.{game}")
    except ModuleNotFoundError:
        return None


def present(game: str, view: dict, seat: int | None, seat_name: SeatName | None = None) -> dict:
    """The board's context for ``seat`` (see the module docstring)."""
    seat_name = seat_name or default_seat_name
    module = _module(game)
    if module is not None:
        board = module.present(view, seat, seat_name)
    else:
        board = {"to_move": [seat_name(s) for s in view.get("to_move", [])]}
    board.setdefault("game", game)
    board.setdefault("template", f"cardgames/boards/{game}.html")
    return board


def action_label(game: str, action: dict, view: dict, seat_name: SeatName | None = None) -> str:
    """A button label for ``action`` in the game's own words."""
    seat_name = seat_name or default_seat_name
    module = _module(game)
    if module is not None:
        return module.action_label(action, view, seat_name)
    return generic_label(action, seat_name)


def action_groups(
    game: str, actions: list[dict], view: dict, seat_name: SeatName | None = None
) -> list[dict]:
    """The legal actions in titled sections, each with its label."""
    seat_name = seat_name or default_seat_name
    module = _module(game)
    if module is not None and hasattr(module, "action_groups"):
        return module.action_groups(actions, view, seat_name)
    if not actions:
        return []
    return [{"title": _("Your options"), "actions": [(a, action_label(game, a, view, seat_name)) for a in actions]}]


def move_text(game: str, seat_name: SeatName, seat: int, action: dict, viewer: int | None) -> str:
    """One line of the log of moves, as ``viewer`` may read it."""
    module = _module(game)
    if module is not None:
        return module.move_text(seat_name, seat, action, viewer)
    move = generic_label(action, seat_name) if viewer == seat else _("a move")
    return _("%(name)s: %(move)s") % {"name": seat_name(seat), "move": move}


__all__ = ["GAMES", "action_groups", "action_label", "card_text", "move_text", "present"]
