"""Copying an engine's state: JSON data (dicts, lists, strings, numbers, booleans, ``None``).

Every engine function returns a new state and leaves its argument as it was, so it works on a
copy. :func:`copy.deepcopy` must handle any object (its memo, its dispatch, ``__deepcopy__``) and
took about 8 % of a fight's reveal, copying the fight's state four times (issue #11's profile).
"""

from __future__ import annotations

import copy

_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_json(value):
    """A deep copy of ``value``: every dict, list and tuple copied, every string, number, boolean
    and ``None`` shared (they never change; an item that is one is taken as it is, without a call);
    anything else is left to :func:`copy.deepcopy`. Unlike ``deepcopy``, a container met twice is
    copied twice, as a JSON round trip would."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _SCALARS else copy_json(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _SCALARS else copy_json(item) for item in value]
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return tuple(item if type(item) in _SCALARS else copy_json(item) for item in value)
    return copy.deepcopy(value)
