"""Checks for untrusted actions shared by the engines that validate by membership in
``legal_actions`` (En la palmera, Boom).

An action from a request is legal when it is a *flat* dict (so ``==`` is type-exact: ``True`` is
not ``1``, ``1.0`` is not ``1``) and equal to one of the legal actions.

>>> is_legal({"type": "place", "square": 3}, [{"type": "place", "square": 3}])
True
>>> is_legal({"type": "place", "square": True}, [{"type": "place", "square": 1}])
False
>>> len(short(["x" * 200] * 200)) <= 80
True
"""

from __future__ import annotations

import reprlib


def is_flat(action: object) -> bool:
    """True for a dict of string keys whose values are exactly ``str``, ``int`` (not ``bool``)
    or lists of ``str``: then ``==`` against the legal actions is type-exact."""
    if type(action) is not dict:
        return False
    for name, field in action.items():
        kind = type(field)
        if type(name) is not str:
            return False
        if kind is list:
            if not all(type(item) is str for item in field):
                return False
        elif kind is not str and kind is not int:
            return False
    return True


def is_legal(action: object, legal: list[dict]) -> bool:
    """True when ``action`` is flat and one of ``legal``."""
    return is_flat(action) and action in legal


def short(thing: object) -> str:
    """A bounded ``repr`` of untrusted input, safe to put in an error message."""
    text = reprlib.repr(thing)
    return text if len(text) <= 80 else text[:77] + "..."
