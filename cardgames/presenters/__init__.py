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
    ``[{"title": str, "actions": [(action, label), ...], "spoken": [str, ...], "collapsed": bool},
    ...]``: the legal actions in readable sections (e.g. "Attack", "Change a storage", "Discard"),
    every action exactly once (Nismatch: one button where two copies of a card make the same
    move), in the engine's order inside each section; ``spoken[i]`` is
    ``actions[i]``'s label with the cards in words (for ``aria-label``); ``collapsed``: the section
    is long (more than 12) and the page shows it closed, with its count. A long section may also
    carry ``"sections"``: the same actions nested, ``[{"title", "actions": [(action, label)],
    "spoken"}]`` (PoCoBOT's two-change moves by their first change: "First: put the 9♠ in
    Projectiles", each button the second change, its ``spoken`` the whole move).

``action_spoken(game, action, view, seat_name=None) -> str``
    The label with every card in words ("Ataca … con el 9 de picas"): a button's accessible name.

``move_text(game, seat_name, seat, action, viewer, events=None) -> str``
    One line of the log of moves: seat ``seat`` played ``action``; the text is for ``viewer``
    (a seat, or ``None`` for a spectator) and never says what ``viewer`` may not see (e.g. the
    cards a PoCoBOT player passed face down, a palm-tree bird placed face down). ``seat_name`` is
    the same callable as above (required here). For a game of ``LOGGED_GAMES``, ``events`` are
    what the move did, as ``engine.events_view(events, viewer)`` shows them (En la palmera: how
    the fight on the perch ended, a round's scores).

``error_message(game, err) -> str``
    An engine's refusal (:class:`~cardgames.engines.IllegalAction`) in the user's language with
    its card codes as symbols, PoCoBOT's module letters as module names and raw echoes of the
    refused input replaced by words (``frontera.messages.engine_text`` does the translating).

A game without a dedicated module falls back to a generic label: the action's type and values
in words, cards as rank and suit symbol, never a raw key.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from types import ModuleType

from django.utils.translation import gettext as _

from cardgames.engines import IllegalAction
from cardgames.engines.pocobot.game import E_COPILOT_MODULE
from cardgames.presenters.words import (
    COLLAPSE_OVER,
    card_text,
    default_seat_name,
    generic_label,
    is_card_code,
    spoken,
)
from frontera.messages import engine_text

SeatName = Callable[[int], str]

GAMES: tuple[str, ...] = ("pocobot", "palmera", "boom", "nismatch")
# games whose log lines also say what a move did (the engine's ``apply_logged`` / ``events_view``):
# En la palmera's fights are decided by cards the action does not name
LOGGED_GAMES: frozenset[str] = frozenset({"palmera"})


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
        groups = module.action_groups(actions, view, seat_name)
    elif not actions:
        return []
    else:
        groups = [{"title": _("Your options"),
                   "actions": [(a, action_label(game, a, view, seat_name)) for a in actions]}]
    for group in groups:
        group["spoken"] = [action_spoken(game, a, view, seat_name) for a, _label in group["actions"]]
        group.setdefault("collapsed", len(group["actions"]) > COLLAPSE_OVER)
        for section in group.get("sections", ()):
            section["spoken"] = [action_spoken(game, a, view, seat_name) for a, _label in section["actions"]]
    return groups


def action_spoken(game: str, action: dict, view: dict, seat_name: SeatName | None = None) -> str:
    """The label with every card said in words ("9 de picas"): a button's accessible name."""
    with spoken():
        return action_label(game, action, view, seat_name)


def move_text(game: str, seat_name: SeatName, seat: int, action: dict, viewer: int | None,
              events: list[dict] | None = None) -> str:
    """One line of the log of moves, as ``viewer`` may read it; ``events`` (a game in
    :data:`LOGGED_GAMES`): what the move did, already redacted for ``viewer``."""
    module = _module(game)
    if module is not None:
        if events is not None and game in LOGGED_GAMES:
            return module.move_text(seat_name, seat, action, viewer, events=events)
        return module.move_text(seat_name, seat, action, viewer)
    move = generic_label(action, seat_name) if viewer == seat else _("a move")
    return _("%(name)s: %(move)s") % {"name": seat_name(seat), "move": move}


def outcome_words(game: str, view: dict, seat_name: SeatName | None = None) -> dict:
    """For the result box of a finished game: ``{"reason": str, "score_label": str}``, why it
    ended (e.g. PoCoBOT's turn limit; empty when the winner's name says it all) and what
    ``outcome``'s scores count (PoCoBOT's hearts left, Nismatch's War Spoils...)."""
    seat_name = seat_name or default_seat_name
    module = _module(game)
    if module is not None and hasattr(module, "outcome_words"):
        return module.outcome_words(view, seat_name)
    return {"reason": "", "score_label": _("Score")}


def error_message(game: str, err: IllegalAction) -> str:
    """An engine's refusal for a player: no card code, module letter or echoed key in it."""
    template = err.template
    if "seat" in err.params and "turn" in template:  # the engines number seats from 0
        return _("It is not your turn.")
    if template == E_COPILOT_MODULE:
        return _("A ♦ Co-pilot raises one module of your choice: ♠ Projectiles, ♥ Defence or ♣ Armour.")
    params: dict[str, object] = {}
    for key, value in err.params.items():
        if is_card_code(value):
            value = card_text(value)
        elif game == "pocobot" and key == "module" and value in ("S", "H", "C", "D"):
            from cardgames.presenters.pocobot import module_name

            value = module_name(value)
        elif game == "nismatch" and key == "speed":
            from cardgames.presenters.nismatch import speed_word

            value = speed_word(str(value)) or _("another speed")
        elif _echoes_input(key, value):
            # the message would echo what was sent (keys, JSON): no page offers such a move
            return _("That move is not possible: choose one of the buttons.")
        params[key] = value
    return engine_text(template, params)


# parameters that echo a player's raw input (keys, JSON): never shown as they are
_ECHOES = frozenset({"action", "type", "op", "field", "fields", "deck", "name"})


def _echoes_input(key: str, value: object) -> bool:
    if key in _ECHOES or value in (None, "None", "True", "False"):
        return True
    if isinstance(value, (bool, list, tuple, dict)):
        return True
    return isinstance(value, str) and re.search(r"[_{}\[\]'\"]", value) is not None

__all__ = [
    "GAMES",
    "LOGGED_GAMES",
    "action_groups",
    "action_label",
    "action_spoken",
    "card_text",
    "error_message",
    "move_text",
    "outcome_words",
    "present",
]
