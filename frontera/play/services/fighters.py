"""Who enters a fight, as the combat engine takes them: a fight's fighters
(:mod:`~frontera.play.services.combat`) and a pistol duel's duellists
(:mod:`~frontera.play.services.duels`), from their sheets and the campaign's catalogue (FR-CHAR-5,
FR-CMB-2, FR-CMB-15)."""

from __future__ import annotations

from dataclasses import dataclass

from frontera.characters.models import Character
from frontera.play.models import combat_key
from frontera.rules import characters as rules_characters
from frontera.rules.errors import RulesError
from frontera.rules.tracks import draw_penalty


@dataclass(frozen=True)
class Fighter:
    """A character entering a fight, on a side, with its starting cover."""

    character: Character
    side: str
    cover: str = "exposed"


def carried_weapons(sheet: rules_characters.Character, catalogue: dict) -> tuple[list[dict], int, bool]:
    """The sheet's weapons as the combat engine wants them, with the campaign's figures
    (FR-CHAR-5), thrown weapons carried, and whether a knife holster is worn."""
    weapons, thrown = [], 0
    for item_id, quantity in sheet.equipment.items():
        try:
            entry = rules_characters.item(item_id, catalogue=catalogue)
        except RulesError:
            continue
        if entry.get("category") != "weapon":
            continue
        tags = entry.get("tags", [])
        weapons.append({"name": item_id, "kind": entry["kind"], "damage": entry.get("damage") or 0,
                        "bands": entry.get("range") or None, "lasso": "grapple" in tags,
                        "whip": "multi_attack" in tags, "knife": "knife" in tags,
                        "in_hand": entry["kind"] == "thrown" and "melee" in tags})
        if entry["kind"] == "thrown" and not ({"grapple", "multi_attack"} & set(tags)):
            thrown += quantity
    holster = any("holster" in key or key == "funda_de_cuchillos" for key in sheet.equipment)
    return weapons, thrown, holster


def combatant_spec(fighter: Fighter, catalogue: dict) -> dict:
    """A fighter as :func:`frontera.rules.combat.new_round` takes it, from its sheet as it is now
    (tracks, traits, skills, the weapons carried) and the campaign's catalogue."""
    sheet = rules_characters.Character.from_json(fighter.character.sheet)
    weapons, thrown, holster = carried_weapons(sheet, catalogue)
    try:
        penalty = draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    except RulesError:
        penalty = 0  # cannot act at all: the engine knows it from the tracks
    return {
        "key": combat_key(fighter.character.pk), "side": fighter.side, "aguante": sheet.aguante,
        "is_npc": fighter.character.kind != Character.Kind.PROTAGONIST,
        "traits": sheet.traits, "cards": sheet.cards_per_check if sheet.traits is None else None,
        "skills": list(sheet.skills), "confianza": sheet.confianza, "weapons": weapons, "thrown": thrown,
        "knife_holster": holster, "penalty": penalty, "health": sheet.health, "morale": sheet.morale,
        "cover": fighter.cover,
    }
