"""What a fight's reveal says of each hold (FR-CMB-13): a grappled pair fights over the hold with
opposed Músculo each turn, and the hold breaks only if the held one wins. The engine decided it
(``rules.combat``'s ``contests``); the feed had no line for it, so nobody saw whether a hold was
kept or broken."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from frontera.play.services.core import EventLog, msg
from frontera.rules.cards import Card

HOLD_KEPT = gettext_noop("%(holder)s keeps hold of %(held)s: %(holder_card)s against %(held_card)s (Músculo).")
HOLD_BROKEN = gettext_noop("%(held)s breaks free of %(holder)s: %(held_card)s against %(holder_card)s (Músculo).")
NO_CARD = gettext_noop("no card")


def log_contests(log: EventLog, state, names: dict[str, str]) -> None:
    """One feed line per hold contested at this revealed fight ``state`` (its cards were revealed
    with the rest; a joker with the suit its player declared)."""
    for contest in state["result"]["contests"]:
        cards = {key: _label(uid, state["plays"].get(key) or []) for key, uid in contest["cards"].items()}
        holder, held = contest["holder"], contest["held"]
        log.decide(HOLD_KEPT if contest["kept"] else HOLD_BROKEN, rules=["FR-CMB-13"],
                   holder=names[holder], held=names[held],
                   holder_card=cards[holder] or msg(NO_CARD), held_card=cards[held] or msg(NO_CARD))


def _label(uid: str | None, plays: list) -> str | None:
    if not uid:
        return None
    suit = next((play.get("suit") for play in plays if play["card"] == uid), None)
    card = Card.from_uid(uid)
    return (card.declare(suit) if suit and card.is_joker else card).label
