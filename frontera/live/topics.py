"""Which live topics exist, who may follow them, and their current version.

An app registers a topic kind (``"campaign"``) with two functions; a topic is ``"<kind>:<id>"``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class TopicKind:
    authorize: Callable[[object, int], bool]
    current_version: Callable[[int], int]


_KINDS: dict[str, TopicKind] = {}


def register(kind: str, *, authorize: Callable[[object, int], bool], current_version: Callable[[int], int]) -> None:
    _KINDS[kind] = TopicKind(authorize, current_version)


def resolve(topic: str, user) -> int | None:
    """The topic's current version if ``user`` may follow it; ``None`` if not (or no such topic)."""
    kind, _, raw_id = topic.partition(":")
    entry = _KINDS.get(kind)
    if entry is None or not raw_id.isdigit() or not user.is_authenticated:
        return None
    object_id = int(raw_id)
    if not entry.authorize(user, object_id):
        return None
    return entry.current_version(object_id)


def current_version(topic: str) -> int:
    kind, _, raw_id = topic.partition(":")
    return _KINDS[kind].current_version(int(raw_id))
