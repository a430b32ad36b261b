"""The one error type of the rules engine.

Messages are English msgids marked with ``gettext_noop`` (a local identity function, so this
package never imports Django) and formatted with named parameters. The web layer shows them
translated: ``gettext(err.template) % err.params``; ``str(err)`` is the English text.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it (picked up by makemessages)."""
    return message


class RulesError(ValueError):
    """An illegal operation or bad input; the message is written for a player to read."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)
