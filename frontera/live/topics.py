"""Which live topics exist, who may follow them, and their current version.

An app registers a topic kind (``"campaign"``) with two functions; a topic is ``"<kind>:<id>"``.

A kind may also be *composite*: it has no pushes of its own but ``follows`` other topics (the
character sheet follows the character's log and the session the character sits at). Its
``follows(id)`` names the bus topics to listen to, which may change over time (a new session);
its ``current_version(id)`` is read again after every push of any of them, and a subscriber is
told "changed" whenever that version differs from the last one it was sent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Rendered = tuple[list[str], str, int]  # a page's regions rendered, their HTML, the version they show


@dataclass(frozen=True)
class TopicKind:
    authorize: Callable[[object, int], bool]
    current_version: Callable[[int], int]
    follows: Callable[[int], list[str]] | None = None
    # the regions a push named, as its subscribers' pages show them: ``render(id, requests,
    # regions)`` reads what those pages share and gives one callable per request, in their order;
    # each renders that page: ``(the regions rendered, their HTML, the version they show)``, or
    # ``None`` if the page must fetch them
    render: Callable[[int, list, tuple[str, ...]], list[Callable[[], Rendered | None]]] | None = None


_KINDS: dict[str, TopicKind] = {}


def register(
    kind: str,
    *,
    authorize: Callable[[object, int], bool],
    current_version: Callable[[int], int],
    follows: Callable[[int], list[str]] | None = None,
    render: Callable[[int, list, tuple[str, ...]], list[Callable[[], Rendered | None]]] | None = None,
) -> None:
    _KINDS[kind] = TopicKind(authorize, current_version, follows, render)


def _parse(topic: str) -> tuple[TopicKind | None, int | None]:
    kind, _, raw_id = topic.partition(":")
    entry = _KINDS.get(kind)
    if entry is None or not raw_id.isdigit():
        return None, None
    return entry, int(raw_id)


def resolve(topic: str, user) -> int | None:
    """The topic's current version if ``user`` may follow it; ``None`` if not (or no such topic)."""
    entry, object_id = _parse(topic)
    if entry is None or not user.is_authenticated:
        return None
    if not entry.authorize(user, object_id):
        return None
    return entry.current_version(object_id)


def current_version(topic: str) -> int:
    entry, object_id = _parse(topic)
    return entry.current_version(object_id)


def is_composite(topic: str) -> bool:
    entry, _ = _parse(topic)
    return entry is not None and entry.follows is not None


def sources(topic: str) -> list[str]:
    """The bus topics whose pushes change ``topic``: itself, or what a composite kind follows."""
    entry, object_id = _parse(topic)
    if entry is None or entry.follows is None:
        return [topic]
    return list(dict.fromkeys(entry.follows(object_id)))


def renderer(topic: str):
    """``render(requests, regions)`` for ``topic``'s pages (see :class:`TopicKind`), or ``None`` if
    its kind renders none."""
    entry, object_id = _parse(topic)
    if entry is None or entry.render is None:
        return None
    return lambda requests, regions: entry.render(object_id, requests, regions)
