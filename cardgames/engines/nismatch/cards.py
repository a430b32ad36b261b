"""The card pool and the preconstructed decks, loaded from ``cards.json`` (NM-4).

Cards are data: every ability is written in the effect vocabulary below and interpreted by
:mod:`.engine`, so a new card needs no code. ``load_pool`` validates the file; a broken card
raises ``ValueError`` at import time rather than misbehaving in a game.

A physical card in a game is a *code* ``"<key>.<owner>.<copy>"`` (``"revolver_de_vapor.0.2"``):
unique per game, and its key names the card definition.
"""

from __future__ import annotations

import json
from importlib import resources

ZONES: tuple[str, ...] = ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
RARITIES: tuple[str, ...] = ("chatarra", "vendible", "pura", "legendaria")
SPEEDS: tuple[str, ...] = ("pasiva", "normal", "relampago", "guerrilla", "disparado")
SPEED_TAGS = {"pasiva": "Pasiva", "normal": "Normal", "relampago": "Relámpago",
              "guerrilla": "Guerrilla", "disparado": "Disparado"}
STATS: tuple[str, ...] = ("fue", "def", "vel")
TRIGGERS: tuple[str, ...] = ("on_equip", "on_destroyed", "on_attacked")
DURATIONS: tuple[str, ...] = ("end_of_turn", "your_next_turn")

#: target kinds: which need a choice in the action, and what they designate
PART_TARGETS = ("self", "chosen_enemy_part", "chosen_own_part", "chosen_part", "each_enemy_part")
UNIT_TARGETS = ("own_unit", "chosen_enemy_unit", "each_enemy_unit")
GEAR_TARGETS = ("chosen_enemy_gear",)
TARGETS = ("none", *PART_TARGETS, *UNIT_TARGETS, *GEAR_TARGETS)
CHOSEN_TARGETS = ("chosen_enemy_part", "chosen_own_part", "chosen_part", "chosen_enemy_unit", "chosen_enemy_gear")
FILTERS = ("damaged",)

#: effect ops: what target family each needs (None: works on the controller, no target)
OPS = {
    "damage": "part", "destroy": "part", "demolish": "part", "to_workshop": "part", "repair": "part",
    "deactivate": "part", "negate": "gear", "draw": None, "recover": None, "charge": "unit", "modify": "unit",
}
PASSIVE_OPS = ("armor", "stat", "repair_bonus")
_FAMILY = {**dict.fromkeys(PART_TARGETS, "part"), **dict.fromkeys(UNIT_TARGETS, "unit"),
           **dict.fromkeys(GEAR_TARGETS, "gear"), "none": None}


def _check(cond: bool, key: str, what: str) -> None:
    if not cond:
        raise ValueError(f"card {key!r}: {what}")


def _check_ability(card: dict, ab: dict) -> None:
    key = card["key"]
    speed = ab.get("speed")
    _check(speed in SPEEDS, key, f"unknown speed {speed!r}")
    _check(SPEED_TAGS[speed] in card["tags"], key, f"tag {SPEED_TAGS[speed]} missing")
    _check(isinstance(ab.get("text"), str), key, "ability text missing")
    if speed == "pasiva":
        for eff in ab["effects"]:
            _check(eff.get("op") in PASSIVE_OPS, key, f"passive op {eff.get('op')!r}")
            _check(eff["op"] != "stat" or eff.get("stat") in STATS, key, "passive stat")
            _check(isinstance(eff.get("amount"), int), key, "passive amount")
        _check(card["kind"] == "part", key, "a support can't be passive")
        return
    target = ab.get("target")
    _check(target in TARGETS, key, f"unknown target {target!r}")
    _check(isinstance(ab.get("cost"), int) and ab["cost"] >= 0, key, "cost must be an int >= 0")
    _check(ab.get("filter") in (None, *FILTERS), key, "unknown filter")
    _check(set(ab.get("requires", {})) <= {"discard"}, key, "unknown requirement")
    _check(ab.get("requires", {}).get("discard", 1) in (0, 1), key, "discard is 0 or 1")
    _check(type(ab.get("per_turn", 1)) is int and ab.get("per_turn", 1) >= 1, key, "per_turn is an int >= 1")
    _check(card["kind"] == "part" or "per_turn" not in ab, key, "a support is used once anyway")
    if speed == "disparado":
        _check(ab.get("trigger") in TRIGGERS, key, "unknown trigger")
        _check(target not in CHOSEN_TARGETS and ab["cost"] == 0 and not ab.get("requires"), key,
               "triggered abilities choose nothing and cost nothing (NM-R6)")
        _check(card["kind"] == "part", key, "a support can't be triggered")
    if target == "self":
        _check(card["kind"] == "part", key, "a support has no self")
    for eff in ab["effects"]:
        op = eff.get("op")
        _check(op in OPS, key, f"unknown op {op!r}")
        _check(OPS[op] is None or OPS[op] == _FAMILY[target], key, f"op {op} can't use target {target}")
        if op in ("damage", "repair", "draw", "charge"):
            _check(isinstance(eff.get("amount"), int) and (op == "charge" or eff["amount"] > 0), key,
                   f"{op} amount")
        if op == "modify":
            _check(eff.get("stat") in STATS and isinstance(eff.get("amount"), int), key, "modify stat")
            _check(eff.get("until") in DURATIONS, key, "modify until")


def _check_card(card: dict) -> None:
    key = card.get("key")
    _check(isinstance(key, str) and key.isidentifier() and "." not in key, str(key), "bad key")
    _check(card.get("kind") in ("part", "support"), key, "kind")
    _check(card.get("rarity") in RARITIES, key, "rarity")
    _check(isinstance(card.get("name"), str), key, "name")
    if card["kind"] == "part":
        _check(card.get("zone") in ZONES, key, "zone")
        _check(isinstance(card.get("pg"), int) and card["pg"] > 0, key, "pg")
        for field in ("charge", *STATS):
            _check(isinstance(card.get(field), int), key, field)
        _check(card["charge"] <= 0 or "Generador" in card["tags"], key, "generator tag")
        _check(card["charge"] >= 0 or "Gastador" in card["tags"], key, "spender tag")
    else:
        _check(len(card["abilities"]) == 1, key, "a support has exactly one ability")
        _check(card["abilities"][0]["speed"] in ("normal", "relampago", "guerrilla"), key, "support speed")
    for ab in card["abilities"]:
        _check_ability(card, ab)


def load_pool(text: str | None = None) -> tuple[dict[str, dict], dict[str, dict]]:
    """The validated ``(cards by key, decks by key)`` of the pool file (or of ``text``)."""
    if text is None:
        text = resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    data = json.loads(text)
    cards: dict[str, dict] = {}
    for card in data["cards"]:
        _check_card(card)
        _check(card["key"] not in cards, card["key"], "duplicate key")
        cards[card["key"]] = card
    decks = data["decks"]
    for name, deck in decks.items():
        unknown = set(deck["cards"]) - set(cards)
        _check(not unknown, name, f"deck names unknown cards {sorted(unknown)}")
        size = sum(deck["cards"].values())
        _check(40 <= size <= 60, name, f"an Arsenal has 40-60 cards, not {size} (NM-2)")
    return cards, decks


CARDS, DECKS = load_pool()
DECK_NAMES: tuple[str, ...] = tuple(DECKS)


def card_key(code: str) -> str:
    return code.split(".", 1)[0]


_DEF_OF_CODE: dict[str, dict] = {}  # card_def's memo: a code's key never changes
_DEF_MEMO_SIZE = 4096


def card_def(code: str) -> dict:
    """The definition of a physical card code (or of a bare key)."""
    found = _DEF_OF_CODE.get(code)
    if found is None:
        found = CARDS[card_key(code)]
        if len(_DEF_OF_CODE) < _DEF_MEMO_SIZE:
            _DEF_OF_CODE[code] = found
    return found


def deck_codes(deck: str, owner: int) -> list[str]:
    """Every card code of ``deck`` when ``owner`` plays it, in a fixed order."""
    return [f"{key}.{owner}.{n}" for key, count in DECKS[deck]["cards"].items() for n in range(1, count + 1)]
