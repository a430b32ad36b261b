"""A player's mecha panel: capacities, the mounted condition and damage (PB-2..PB-5, PB-14..PB-17).

A panel is a plain dict::

    {"S": [...], "H": [...], "C": [...], "D": [...],      # numeric cards, ascending
     "pilot": "KS" | None, "copilot": "QD" | None,
     "copilot_module": "S" | "H" | "C" | None,            # only for a ♦ Copiloto
     "booster": "AS" | None}

>>> p = new_panel(); p["pilot"] = "KS"; p["booster"] = "AC"
>>> capacity(p, "S"), capacity(p, "H"), capacity(p, "C")
(3, 2, 4)
>>> resolve_damage(12, 5, [7, 4, 2], [6, 3])
((2, 4), (), False)
"""

from __future__ import annotations

from cardgames.engines import IllegalAction, gettext_noop
from cardgames.engines.pocobot.cards import MODULES, suit, total, value

E_DAMAGE_INPUT = gettext_noop("Attack, dodge and card values must be whole numbers.")

BASE_CAPACITY = 2
CREW_CAPACITY = 3
BOOSTER_CAPACITY = 4
MOUNT_CARDS = 6
MOUNT_PILOT_SUIT = 3


def new_panel() -> dict:
    return {
        "S": [],
        "H": [],
        "C": [],
        "D": [],
        "pilot": None,
        "copilot": None,
        "copilot_module": None,
        "booster": None,
    }


def copy_panel(panel: dict) -> dict:
    return {
        **panel,
        "S": list(panel["S"]),
        "H": list(panel["H"]),
        "C": list(panel["C"]),
        "D": list(panel["D"]),
    }


def copilot_module(panel: dict) -> str | None:
    """The module the Copiloto raises: its suit, or the chosen one for a ♦ Copiloto (PB-3)."""
    copilot = panel["copilot"]
    if copilot is None:
        return None
    return panel["copilot_module"] if suit(copilot) == "D" else suit(copilot)


def capacity(panel: dict, module: str) -> int:
    """Cards the module may hold: 2; 3 with a crew member of its suit; 4 with its Ace (PB-3)."""
    booster = panel["booster"]
    if booster is not None and suit(booster) == module:
        return BOOSTER_CAPACITY
    pilot = panel["pilot"]
    if (pilot is not None and suit(pilot) == module) or copilot_module(panel) == module:
        return CREW_CAPACITY
    return BASE_CAPACITY


def capacities(panel: dict) -> dict[str, int]:
    return {m: capacity(panel, m) for m in MODULES}


def is_mounted(panel: dict) -> bool:
    """A Piloto and 6+ module cards, 3+ of them of the Piloto's suit (PB-5)."""
    pilot = panel["pilot"]
    if pilot is None:
        return False
    cards = sum(len(panel[m]) for m in MODULES)
    return cards >= MOUNT_CARDS and len(panel[suit(pilot)]) >= MOUNT_PILOT_SUIT


def spade_total(panel: dict, extra: str | None = None) -> int:
    """The ♠ total that bounds a fuel attack, without the extra projectile (PB-11 ruling)."""
    return total(c for c in panel["S"] if c != extra)


def panel_cards(panel: dict) -> list[str]:
    cards = [c for zone in ("S", "H", "C", "D") for c in panel[zone]]
    cards += [panel[k] for k in ("pilot", "copilot", "booster") if panel[k] is not None]
    return cards


def burns_clubs(panel: dict) -> bool:
    """A♦ active: ♣ from the Armadura may be paid as fuel (PB-3, PB-11)."""
    return panel["booster"] == "AD"


def resolve_damage(
    attack: int, dodge: int | None, armor, hearts
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Damage of one attack (PB-14, PB-15, PB-16); returns ``(armor_lost, hearts_lost, collapsed)``.

    ``dodge`` is the value of the ♦ discarded to dodge (or ``None``); ``armor`` and ``hearts`` the
    values on the panel in any order. Cards are taken lowest first and lost only if the remaining
    attack is strictly greater; the first survivor stops everything. A mecha collapses when it loses
    its last heart, or has none when damage reaches the hearts (PB-16 ruling).

    >>> resolve_damage(12, 5, [2, 4, 7], [3, 6])   # PB-17
    ((2, 4), (), False)
    >>> resolve_damage(10, None, [4], [5])
    ((4,), (5,), True)
    >>> resolve_damage(3, None, [3], [])
    ((), (), False)
    """
    numbers = [attack, 0 if dodge is None else dodge, *armor, *hearts]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise IllegalAction(E_DAMAGE_INPUT)
    remaining = attack - (dodge or 0)
    if remaining <= 0:
        return (), (), False
    lost: list[list[int]] = [[], []]
    for step, cards in enumerate((armor, hearts)):
        for card_value in sorted(cards):
            if remaining <= card_value:
                return tuple(lost[0]), tuple(lost[1]), False
            lost[step].append(card_value)
            remaining -= card_value
    return tuple(lost[0]), tuple(lost[1]), True


def take_damage(panel: dict, attack: int) -> tuple[list[str], list[str], bool]:
    """Apply an (already dodged) attack to ``panel`` in place; returns the lost ♣ and ♥ codes."""
    armor_lost, hearts_lost, collapsed = resolve_damage(
        attack, None, [value(c) for c in panel["C"]], [value(c) for c in panel["H"]]
    )
    lost_c = panel["C"][: len(armor_lost)]
    lost_h = panel["H"][: len(hearts_lost)]
    del panel["C"][: len(armor_lost)]
    del panel["H"][: len(hearts_lost)]
    return lost_c, lost_h, collapsed
