"""Pure-Python engines for the bonus tables (PoCoBOT, En la palmera, Boom, Nismatch).

Every engine module offers the same protocol (docs/cardgames.md):

- ``new_game(seats, seed, options=None)`` → state (a JSON-serialisable dict); seats are ``0..n-1``
- ``to_move(state)`` → list of seats that must act now (empty when the game is over)
- ``legal_actions(state, seat)`` → complete list of JSON-serialisable action dicts
- ``apply(state, seat, action)`` → new state (the input is never modified); bad input raises
  :class:`IllegalAction` and nothing else
- ``view(state, seat)`` → what that seat may see (``seat=None``: a spectator)
- ``outcome(state)`` → ``None`` or ``{"winners": [...], "draw": bool, "scores": {...}}``:
  ``winners`` is a list of int seats (empty for a draw); ``scores`` is keyed by the seat as a
  string (``{"0": ..., "1": ...}``) so it survives a JSON round trip unchanged
- ``to_json(state)`` / ``from_json(data)`` → lossless
- for the bots: ``determinize(view, seat, rng)`` → a full state consistent with that view, and
  ``evaluate(state, seat)`` → a heuristic in [0, 1] (1 = that seat is winning)

Randomness lives in the state as ``state["rng"] = {"seed": int, "n": int}`` and is drawn through
:func:`draw_rng`, so the same seed and the same actions always give the same states.
No Django and no I/O here.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

ENGINE_NAMES: tuple[str, ...] = ("pocobot", "palmera", "boom", "nismatch")


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it (picked up by makemessages)."""
    return message


class IllegalAction(ValueError):
    """An illegal or malformed action; the message is written for a player to read.

    ``template`` is an English msgid, ``params`` its named parameters: the web layer shows
    ``gettext(err.template) % err.params``.
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


E_UNKNOWN_GAME = gettext_noop("There is no game called “%(name)s”.")


def get(name: str) -> ModuleType:
    """The engine module for ``name`` (one of :data:`ENGINE_NAMES`)."""
    if name not in ENGINE_NAMES:
        raise IllegalAction(E_UNKNOWN_GAME, name=name)
    return importlib.import_module(f"cardgames.engines.{name}")


def new_rng_state(seed: int) -> dict[str, int]:
    return {"seed": int(seed), "n": 0}


def draw_rng(state: dict) -> random.Random:
    """A fresh generator for the next random event of ``state`` (mutates its counter).

    Call only on a state you own (a copy made inside ``apply``).
    """
    rng_state = state["rng"]
    rng_state["n"] += 1
    return random.Random(f"{rng_state['seed']}:{rng_state['n']}")
