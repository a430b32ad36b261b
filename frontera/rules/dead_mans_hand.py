"""The dead man's hand (FR-CARD-5, FR-CHK-6): A♠, A♥, 8♣ and 8♦, set aside before the session.

Drawing from it settles luck: draw 1 card (2 if the Mayor allows, keeping the better); an Ace gives
the better outcome, an 8 the worse. Checks (Achispado, FR-SOB-1), tracks (death, morale recovery,
drinking), combat (jams) and gambling (azar) all draw it through these functions.

>>> dead_mans_hand_result("8C"), dead_mans_hand_result(["8D", "AH"])
('worse', 'better')
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from frontera.rules.cards import Card, as_card, dead_mans_hand
from frontera.rules.errors import RulesError, gettext_noop

BETTER, WORSE = "better", "worse"

E_NOT_DEAD_MANS_HAND = gettext_noop("%(card)s is not a card of the dead man's hand (A♠, A♥, 8♣ or 8♦).")
E_DEAD_MANS_HAND_COUNT = gettext_noop(
    "The dead man's hand is drawn with 1 card, or 2 if the Mayor allows; not %(count)s."
)
E_DEAD_MANS_HAND_TWICE = gettext_noop("%(card)s was drawn twice from the dead man's hand.")


def physical_card(card: Card | str) -> Card:
    """A card as it sits in a deck: a :class:`Card`, a uid (``"2:10S"``) or a code (deck 1)."""
    if isinstance(card, str) and ":" in card:
        return Card.from_uid(card)
    return as_card(card).undeclared()


def dead_mans_hand_card(card: Card | str) -> Card:
    """``card`` as a :class:`Card` if it belongs to a dead man's hand (of any physical deck)."""
    card = physical_card(card)
    if not card.in_dead_mans_hand:
        raise RulesError(E_NOT_DEAD_MANS_HAND, card=card.label)
    return card


def check_dead_mans_hand_count(count: object) -> int:
    """1, or 2 if the Mayor allows (FR-CHK-6); else a readable error."""
    if not isinstance(count, int) or isinstance(count, bool) or count not in (1, 2):
        raise RulesError(E_DEAD_MANS_HAND_COUNT, count=count)
    return count


def draw_dead_mans_hand(rng: random.Random, count: int = 1, *, deck: int = 1) -> list[Card]:
    """Draw 1 (or 2 if the Mayor allows) of the four cards (FR-CHK-6, FR-CARD-5)."""
    return rng.sample(dead_mans_hand(deck), check_dead_mans_hand_count(count))


def dead_mans_hand_cards(cards: Card | str | Iterable[Card | str]) -> list[Card]:
    """Validate a draw: 1 or 2 distinct cards of a dead man's hand."""
    if isinstance(cards, (Card, str)):
        cards = [cards]
    drawn = [dead_mans_hand_card(card) for card in cards]
    check_dead_mans_hand_count(len(drawn))
    if len({card.uid for card in drawn}) != len(drawn):
        raise RulesError(E_DEAD_MANS_HAND_TWICE, card=drawn[0].label)
    return drawn


def dead_mans_hand_result(cards: Card | str | Iterable[Card | str]) -> str:
    """``"better"`` if an Ace was drawn (with 2 cards the better is kept), else ``"worse"`` (FR-CHK-6)."""
    return BETTER if any(card.rank == "A" for card in dead_mans_hand_cards(cards)) else WORSE
