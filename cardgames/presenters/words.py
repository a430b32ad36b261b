"""Shared words for the presenters: cards as rank and suit symbol, seats, a generic action label.

A card code (``"9S"``, ``"10H"``, ``"QD"``) becomes ``"9♠"`` to read and "9 of spades" /
"9 de picas" to hear; nothing here ever returns the code itself.
"""

from __future__ import annotations

import re
import threading
from contextlib import contextmanager

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import pgettext

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
_CARD_RE = re.compile(r"^(10|[2-9AJQK])([SHDC])$")


COLLAPSE_OVER = 12  # a section of actions longer than this starts closed on the page (its count shown)


def is_card_code(value: object) -> bool:
    return isinstance(value, str) and _CARD_RE.match(value) is not None


def suit_name(suit: str) -> str:
    """The suit's name in the active language (plural: "spades", "picas")."""
    return {
        "S": pgettext("suit", "spades"),
        "H": pgettext("suit", "hearts"),
        "D": pgettext("suit", "diamonds"),
        "C": pgettext("suit", "clubs"),
    }[suit]


def rank_name(rank: str) -> str:
    return {
        "A": pgettext("rank", "Ace"),
        "J": pgettext("rank", "Jack"),
        "Q": pgettext("rank", "Queen"),
        "K": pgettext("rank", "King"),
    }.get(rank, rank)


_MODE = threading.local()


@contextmanager
def spoken():
    """Inside this block :func:`card_text` gives the spoken name ("9 de picas"): the same label
    builders then give a button's accessible name."""
    before = getattr(_MODE, "spoken", False)
    _MODE.spoken = True
    try:
        yield
    finally:
        _MODE.spoken = before


def card_text(code: str) -> str:
    """``"9S"`` -> ``"9♠"`` (what a player reads on a label; "9 of spades" inside :func:`spoken`)."""
    if getattr(_MODE, "spoken", False):
        return card_spoken(code)
    match = _CARD_RE.match(code)
    if match is None:
        return _("a card")
    return match.group(1) + SUIT_SYMBOLS[match.group(2)]


def card_spoken(code: str) -> str:
    """``"9S"`` -> "9 of spades" / "9 de picas" (the accessible name)."""
    match = _CARD_RE.match(code)
    if match is None:
        return _("a card")
    return _("%(rank)s of %(suit)s") % {"rank": rank_name(match.group(1)), "suit": suit_name(match.group(2))}


def card(code: str | None) -> dict:
    """A card for a template: ``text`` to show, ``name`` to hear, ``red`` for its colour.

    ``None`` (a card this seat may not see) gives a face-down card.
    """
    if code is None or not is_card_code(code):
        return {"text": "", "name": _("a face-down card"), "red": False, "hidden": True}
    match = _CARD_RE.match(code)
    return {
        "text": card_text(code),
        "rank": match.group(1),
        "symbol": SUIT_SYMBOLS[match.group(2)],
        "name": card_spoken(code),
        "red": match.group(2) in RED_SUITS,
        "hidden": False,
    }


def cards_text(codes) -> str:
    """Several cards as "9♠, 3♣" (in the given order)."""
    return ", ".join(card_text(c) for c in codes)


def default_seat_name(seat: int) -> str:
    return _("Seat %(number)s") % {"number": seat + 1}


def join_words(words: list[str]) -> str:
    """"a", "a and b", "a, b and c" in the active language."""
    words = [w for w in words if w]
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


# Fallback words for an action type no presenter knows; a type outside this table is shown as
# "Move" with its values, never as its key.
_GENERIC_TYPES = {
    "pass": gettext_lazy("Pass"),
    "next": gettext_lazy("Continue"),
    "attack": gettext_lazy("Attack"),
    "discard": gettext_lazy("Discard"),
    "place": gettext_lazy("Place"),
    "change": gettext_lazy("Change"),
    "keep": gettext_lazy("Keep"),
}


def _value_words(value, seat_name) -> list[str]:
    if is_card_code(value):
        return [card_text(value)]
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        return [str(value)]
    if isinstance(value, (list, tuple)):
        out: list[str] = []
        for item in value:
            out.extend(_value_words(item, seat_name))
        return out
    if isinstance(value, dict):
        out = []
        for item in value.values():
            out.extend(_value_words(item, seat_name))
        return out
    return []  # free strings may be internal keys: never shown


def generic_label(action: dict, seat_name) -> str:
    """A readable label for any action: its kind in words and its card and number values."""
    kind = _GENERIC_TYPES.get(action.get("type"))
    head = str(kind) if kind is not None else _("Move")
    values = []
    for key, value in action.items():
        if key != "type":
            values.extend(_value_words(value, seat_name))
    if not values:
        return head
    return _("%(move)s: %(values)s") % {"move": head, "values": ", ".join(values)}


def name_of(seat: int, viewer: int | None, seat_name) -> str:
    """"you" for the viewer's own seat, else the seat's name."""
    return _("you") if seat == viewer else seat_name(seat)


def turn_text(to_move: list[int], viewer: int | None, seat_name, over: bool = False) -> str:
    """Whose turn it is, for the viewer."""
    if over or not to_move:
        return _("The game is over.")
    if viewer in to_move:
        if len(to_move) > 1:
            return _("Your move (everyone decides at the same time).")
        return _("Your move.")
    names = join_words([seat_name(s) for s in to_move])
    return _("Waiting for %(names)s.") % {"names": names}


def result_text(winners: list[int], draw: bool, viewer: int | None, seat_name) -> str:
    """The outcome in words, for the viewer."""
    if draw or not winners:
        return _("The game is a draw.")
    if viewer in winners:
        return _("You win!")
    if viewer is not None:
        return _("%(names)s wins. You lose.") % {"names": join_words([seat_name(s) for s in winners])}
    return _("%(names)s wins.") % {"names": join_words([seat_name(s) for s in winners])}


def groups_by_type(actions: list[dict], titles: dict, label) -> list[dict]:
    """Actions in titled sections by their ``type`` (``titles``: type → title), in the order each
    section first appears; ``label(action)`` words each one."""
    groups: dict[str, dict] = {}
    for action in actions:
        title = str(titles.get(action.get("type"), _("Other moves")))
        groups.setdefault(title, {"title": title, "actions": []})["actions"].append((action, label(action)))
    return list(groups.values())
