"""Cards, suits, traits and physical decks (FR-CARD-1..5).

A card is immutable. Its *code* is what people write (``"10S"``, ``"AH"``, ``"JK"``); its *uid*
tells physical copies apart in a multi-deck session (``"1:10S"``, ``"2:JK1"``). A joker has no suit
until its holder declares one when playing it (FR-CARD-2); the declared joker keeps its uid.

>>> c = Card.parse("10S")
>>> str(c), c.value, c.suit, c.colour
('10S', 10, 'S', 'black')
>>> j = Card.parse("JK").declare("H")
>>> str(j), j.value, j.suit, j.colour
('JK', 15, 'H', 'red')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from frontera.rules.errors import RulesError, gettext_noop

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "C", "D")
JOKER = "JK"

# FR-CARD-1
RANK_VALUES: dict[str, int] = {
    **{str(n): n for n in range(2, 11)},
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
    JOKER: 15,
}

# FR-CARD-3
BLACK = "black"
RED = "red"
SUIT_COLOUR: dict[str, str] = {"S": BLACK, "C": BLACK, "H": RED, "D": RED}
SUIT_SYMBOL: dict[str, str] = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}

MANOS, SENTIDOS, MUSCULO, CABEZA = "manos", "sentidos", "musculo", "cabeza"
TRAITS: tuple[str, ...] = (MANOS, SENTIDOS, MUSCULO, CABEZA)
TRAIT_SUIT: dict[str, str] = {MANOS: "S", SENTIDOS: "C", MUSCULO: "H", CABEZA: "D"}
SUIT_TRAIT: dict[str, str] = {suit: trait for trait, suit in TRAIT_SUIT.items()}

# FR-CARD-5
DEAD_MANS_HAND_CODES: tuple[str, ...] = ("AS", "AH", "8C", "8D")

E_BAD_CODE = gettext_noop("“%(code)s” is not a card: write a rank (2-10, J, Q, K, A) and a suit (♠, ♥, ♣, ♦), or JK for a joker.")
E_BAD_SUIT = gettext_noop("“%(suit)s” is not a suit: choose ♠, ♥, ♣ or ♦.")
E_NOT_JOKER = gettext_noop("Only a joker can be declared a suit; %(code)s already has one.")
E_BAD_TRAIT = gettext_noop("“%(trait)s” is not a trait: use manos, sentidos, musculo or cabeza.")
E_BAD_UID = gettext_noop("“%(uid)s” is not a physical card.")


def check_trait(trait: object) -> str:
    """Return ``trait`` if it is one of the four traits, else raise a readable error."""
    if trait not in TRAITS:
        raise RulesError(E_BAD_TRAIT, trait=trait)
    return trait  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. ``suit`` is ``None`` for a joker that has not been declared."""

    rank: str
    suit: str | None
    deck: int = 1
    copy: int = 1  # tells the jokers of one deck apart; 1 for every other card

    @classmethod
    def parse(cls, code: str, *, deck: int = 1, copy: int = 1) -> Card:
        """Parse a card code such as ``"10S"``, ``"AH"``, ``"A♥"`` or ``"JK"`` (FR-CARD-1)."""
        if isinstance(code, Card):
            return code
        if not isinstance(code, str):
            raise RulesError(E_BAD_CODE, code=code)
        text = code.strip().upper()
        for suit_letter, symbol in SUIT_SYMBOL.items():  # "Q♥" as well as "QH" (what a person types)
            text = text.replace(symbol, suit_letter)
        if text == JOKER:
            return cls(JOKER, None, deck, copy)
        rank, suit = text[:-1], text[-1:]
        if rank not in RANK_VALUES or rank == JOKER or suit not in SUITS:
            raise RulesError(E_BAD_CODE, code=code)
        return cls(rank, suit, deck, 1)

    @classmethod
    def from_uid(cls, uid: str) -> Card:
        """Inverse of :attr:`uid`: ``"2:10S"`` → the 10♠ of deck 2; ``"1:JK2"`` → joker 2."""
        try:
            deck_text, code = uid.split(":", 1)
            deck = int(deck_text)
        except (AttributeError, ValueError):
            raise RulesError(E_BAD_UID, uid=uid) from None
        if code.startswith(JOKER) and code[2:].isdigit():
            return cls(JOKER, None, deck, int(code[2:]))
        card = cls.parse(code, deck=deck)
        if card.is_joker:
            raise RulesError(E_BAD_UID, uid=uid)
        return card

    def __str__(self) -> str:
        return JOKER if self.is_joker else f"{self.rank}{self.suit}"

    @property
    def code(self) -> str:
        return str(self)

    @property
    def uid(self) -> str:
        """Physical identity, stable when a joker is declared: ``"deck:code"``."""
        if self.is_joker:
            return f"{self.deck}:{JOKER}{self.copy}"
        return f"{self.deck}:{self.rank}{self.suit}"

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def value(self) -> int:
        return RANK_VALUES[self.rank]

    @property
    def colour(self) -> str | None:
        return SUIT_COLOUR[self.suit] if self.suit else None

    @property
    def label(self) -> str:
        """Human label with suit symbols: ``10♠``, ``JK♥`` for a declared joker, ``JK``."""
        if self.is_joker:
            return JOKER + (SUIT_SYMBOL[self.suit] if self.suit else "")
        return f"{self.rank}{SUIT_SYMBOL[self.suit]}"

    def declare(self, suit: str) -> Card:
        """FR-CARD-2: the joker with the suit its holder declares."""
        if not self.is_joker:
            raise RulesError(E_NOT_JOKER, code=str(self))
        if suit not in SUITS:
            raise RulesError(E_BAD_SUIT, suit=suit)
        return replace(self, suit=suit)

    def undeclared(self) -> Card:
        """The physical card as it sits in a deck (a joker loses its declared suit)."""
        return replace(self, suit=None) if self.is_joker else self

    @property
    def in_dead_mans_hand(self) -> bool:
        return str(self) in DEAD_MANS_HAND_CODES


def as_card(card: Card | str) -> Card:
    """Accept a :class:`Card` or a code (the public functions take either)."""
    return card if isinstance(card, Card) else Card.parse(card)


def physical_deck(deck: int = 1, *, jokers: int = 2) -> list[Card]:
    """The 52 cards of deck number ``deck`` plus ``jokers`` jokers (FR-CARD-4), in a fixed order."""
    cards = [Card(rank, suit, deck) for suit in SUITS for rank in RANKS]
    cards += [Card(JOKER, None, deck, n) for n in range(1, jokers + 1)]
    return cards


def dead_mans_hand(deck: int = 1) -> list[Card]:
    """FR-CARD-5: A♠, A♥, 8♣, 8♦ of the given physical deck."""
    return [Card.parse(code, deck=deck) for code in DEAD_MANS_HAND_CODES]
