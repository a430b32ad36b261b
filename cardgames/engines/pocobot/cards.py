"""The 52 cards of a PoCoBOT deck as code strings (PB-1, PB-2).

>>> value("7D"), suit("7D"), is_numeric("7D"), is_figure("QH"), is_ace("AS")
(7, 'D', True, True, True)
>>> order_rank("AS") > order_rank("KH")
True
"""

from __future__ import annotations

NUMERIC_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
FIGURE_RANKS: tuple[str, ...] = ("J", "Q", "K")
RANKS: tuple[str, ...] = (*NUMERIC_RANKS, *FIGURE_RANKS, "A")
SUITS: tuple[str, ...] = ("S", "H", "C", "D")
MODULES: tuple[str, ...] = ("S", "H", "C")  # Proyectiles, Defensa, Armadura (PB-2)
FUEL = "D"  # the Combustible zone

DECK: tuple[str, ...] = tuple(rank + s for s in SUITS for rank in RANKS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(DECK)}
_RANK: dict[str, str] = {code: code[:-1] for code in DECK}
_SUIT: dict[str, str] = {code: code[-1] for code in DECK}
_VALUE: dict[str, int] = {code: int(r) for code, r in _RANK.items() if r in NUMERIC_RANKS}
_ORDER: dict[str, int] = {code: RANKS.index(r) + 2 for code, r in _RANK.items()}


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in INDEX


def suit(code: str) -> str:
    return _SUIT[code]


def value(code: str) -> int:
    """The value of a numeric card (2-10); 0 for figures and Aces, which have none in PoCoBOT."""
    return _VALUE.get(code, 0)


def is_numeric(code: str) -> bool:
    return code in _VALUE


def is_figure(code: str) -> bool:
    return _RANK[code] in FIGURE_RANKS


def is_ace(code: str) -> bool:
    return _RANK[code] == "A"


def order_rank(code: str) -> int:
    """Rank used to decide who starts: 2 … 10, J, Q, K, A high (PB-1 ruling)."""
    return _ORDER[code]


def sort_cards(cards) -> list[str]:
    """Cards in deck order (suit, then rank): the canonical order of every list in a state."""
    return sorted(cards, key=INDEX.__getitem__)


def total(cards) -> int:
    return sum(_VALUE.get(c, 0) for c in cards)
