"""Copying an engine's state: JSON data (dicts, lists, strings, numbers, booleans, ``None``).

Every engine function returns a new state and leaves its argument as it was, so it works on a
copy. :func:`copy.deepcopy` must handle any object (its memo, its dispatch, ``__deepcopy__``) and
took about 8 % of a fight's reveal, copying the fight's state four times (issue #11's profile).
"""

from __future__ import annotations

import copy


def copy_json(value):
    """A deep copy of ``value``: every dict, list and tuple copied, every string, number, boolean
    and ``None`` shared (they never change); anything else is left to :func:`copy.deepcopy`. Unlike
    ``deepcopy``, a container met twice is copied twice, as a JSON round trip would."""
    kind = type(value)
    if kind is dict:
        return {key: copy_json(item) for key, item in value.items()}
    if kind is list:
        return [copy_json(item) for item in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    if kind is tuple:
        return tuple(copy_json(item) for item in value)
    return copy.deepcopy(value)
