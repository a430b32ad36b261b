"""The one error type of the rules engine, and how its messages are written.

Messages are English msgids marked with ``gettext_noop`` (a local identity function, so this
package never imports Django) and formatted with named parameters. The web layer shows them
translated (:func:`frontera.messages.engine_text`); ``str(err)`` is the English text.

A message whose words depend on a number is marked with :func:`ngettext` instead: the singular
and plural msgids and the name of the parameter holding the number. Its template stays the
singular msgid (a plain string, so explanations stored as JSON keep working); the plural form is
found again with :func:`plural_form`, and the web layer picks the form with Django's ``ngettext``
(Spanish, English or any language's own plural rule). Every message is a whole sentence: no list
joined with an English "and", no code (``health``) standing in for a word.
"""

from __future__ import annotations

from collections.abc import Mapping


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it (picked up by makemessages)."""
    return message


_PLURALS: dict[str, tuple[str, str]] = {}


def ngettext(singular: str, plural: str, count: str = "count") -> str:
    """Mark a message with a singular and a plural form, chosen by the parameter ``count``.

    It translates nothing: it is named like gettext's plural function so that makemessages
    (xgettext's ``ngettext:1,2`` keyword) puts both forms into the catalogue as one plural entry.
    Returns the singular msgid, the message's template.

    >>> E = ngettext("Draw %(count)s card.", "Draw %(count)s cards.")
    >>> english(E, {"count": 1}), english(E, {"count": 3})
    ('Draw 1 card.', 'Draw 3 cards.')
    """
    known = _PLURALS.setdefault(singular, (plural, count))
    if known != (plural, count):
        raise ValueError(f"{singular!r} is already a plural message with other forms")
    return singular


def plural_form(template: str) -> tuple[str, str] | None:
    """``(plural msgid, count parameter)`` of a message marked with :func:`ngettext`, else ``None``."""
    return _PLURALS.get(template)


def plural_number(value: object) -> int:
    """The number that picks a plural form: its size (−1 level is "1 level"); a value that is not
    a whole number takes the plural (``"x"`` is not one thing)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return 2
    return abs(value)


def english(template: str, params: Mapping[str, object] | None = None) -> str:
    """The message in English (the msgids' language), its plural form chosen by English's rule."""
    params = dict(params or {})
    form = plural_form(template)
    if form is not None and plural_number(params.get(form[1])) != 1:
        template = form[0]
    return template % params if params else template


class RulesError(ValueError):
    """An illegal operation or bad input; the message is written for a player to read."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(english(template, params))
