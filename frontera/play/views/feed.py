"""The feed's lines as HTML, each rendered once (issue #11).

An event never changes, so a line's HTML is kept for its event, language and side of the table
(the Mayor's lines have their "why"). Every push re-renders the feed of every page, and the feed
shows the latest 25 lines: only the new one is rendered; the others are read back from a dict.
They were kept in the template's ``{% cache %}`` tag before, which hashed and unpickled each of the
25 lines on every rendering of the feed (half of the feed's time), while every page of the session
waited for that rendering.

The dict is this process's (like the ``feed`` cache it replaces for the lines), bounded, and
shared by the threads that render.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

LINES_KEPT = 5000  # the least recently shown are dropped first

_lines: OrderedDict[tuple, SafeString] = OrderedDict()
_lock = threading.Lock()


def feed_lines(lines, *, is_mayor: bool) -> list[SafeString]:
    """The HTML of each of ``lines`` (:class:`frontera.play.selectors.core.FeedLine`), in order."""
    language = get_language()
    return [_line(line, language, is_mayor) for line in lines]


def _line(line, language: str, is_mayor: bool) -> SafeString:
    key = (line.pk, line.at, language, is_mayor)
    with _lock:
        html = _lines.get(key)
        if html is not None:
            _lines.move_to_end(key)  # the least recently shown lines go first
    if html is None:
        html = render_to_string("play/_feed_line.html", {"line": line, "is_mayor": is_mayor})
        with _lock:
            _lines[key] = html
            while len(_lines) > LINES_KEPT:
                _lines.popitem(last=False)
    return html


def forget() -> None:
    """Drop every line kept (tests that change the time zone or the messages)."""
    with _lock:
        _lines.clear()
