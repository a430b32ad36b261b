"""Characters, skills, the equipment catalogue and character creation (FR-CHAR-1..6).

A character is plain data (:class:`Character`, JSON round-trip with ``to_json``/``from_json``).
Aguante and Confianza are derived, never stored (FR-CHAR-4). Creation is split into steps that a
wizard validates one at a time; :func:`create_character` runs them all (FR-CHAR-3).

>>> clementine = create_character(
...     name="Clementine", skills=["apuntar", "agilidad", "astucia"],
...     trait_points={"manos": 1, "sentidos": 3, "musculo": 2, "cabeza": 2},
...     extra_skill="percepcion", starting_weapon="revolver",
...     purchases={"rifle": 1, "ropa_de_trabajo": 1})
>>> clementine.aguante, clementine.confianza, clementine.money
(7, 8, 27)
>>> equipment_bonus(clementine.equipment, "agilidad"), range_modifier("rifle", "adyacente")
(1, -1)
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from types import MappingProxyType

from frontera.rules.cards import CABEZA, MANOS, MUSCULO, SENTIDOS, TRAITS, check_trait
from frontera.rules.errors import RulesError, gettext_noop
from frontera.rules.tracks import (
    HEALTH,
    MINION,
    MORALE,
    NPC,
    PROTAGONIST,
    SOBRIETY,
    check_kind,
    check_level,
    check_track,
    lose,
    recover,
    whole_number,
)

__all__ = [
    "ACTIONS", "BANDS", "GROUPS", "SKILLS", "STARTING_MONEY", "TRAIT_NAMES",
    "CatalogueError", "Character", "catalogue", "check_catalogue_entry", "create_character", "equipment_bonus", "item", "make_minion", "make_npc",
    "purchase_cost", "range_modifier", "trait_cards", "validate_equipment_step", "drinker", "lose_levels",
    "recover_levels", "check_skill", "Skill",
    "validate_extra_skill_step", "validate_skills_step", "validate_traits_step", "weapon_damage",
]

# ---------------------------------------------------------------------------------------------
# Traits and skills (FR-CHAR-1, FR-CHAR-2)
# ---------------------------------------------------------------------------------------------

TRAIT_NAMES = {MANOS: "Manos", SENTIDOS: "Sentidos", MUSCULO: "Músculo", CABEZA: "Cabeza"}

ARMAS, MECANICAS, EXPLORACION = "armas", "mecanicas", "exploracion"
GROUPS: tuple[str, ...] = (ARMAS, MECANICAS, EXPLORACION)
GROUP_NAMES = {ARMAS: "Armas", MECANICAS: "Mecánicas", EXPLORACION: "Exploración"}


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill: held or not, no score (FR-CHAR-2)."""

    key: str
    trait: str
    group: str
    name: str  # Spanish display name, as on the character sheet


SKILLS: Mapping[str, Skill] = MappingProxyType({
    s.key: s
    for s in (
        Skill("pelea", MANOS, ARMAS, "Pelea"),
        Skill("disparo_rapido", MANOS, ARMAS, "Disparo rápido"),
        Skill("apuntar", SENTIDOS, ARMAS, "Apuntar"),
        Skill("agilidad", MUSCULO, MECANICAS, "Agilidad"),
        Skill("fuerza", MUSCULO, MECANICAS, "Fuerza"),
        Skill("mana", MANOS, MECANICAS, "Maña"),
        Skill("percepcion", SENTIDOS, EXPLORACION, "Percepción"),
        Skill("saber", CABEZA, EXPLORACION, "Saber"),
        Skill("astucia", CABEZA, EXPLORACION, "Astucia"),
        Skill("labia", CABEZA, EXPLORACION, "Labia"),
    )
})

# Checks that are not a skill but may receive equipment bonuses (FR-CHK-5: the healer's kit).
ACTIONS: tuple[str, ...] = ("atencion_medica",)

SKILL_DRAW_BONUS = 2  # FR-CHK-1
STARTING_TRAIT = 1  # FR-CHAR-1
TRAIT_POINTS = 8  # FR-CHAR-3
AGUANTE_BASE = CONFIANZA_BASE = 4  # FR-CHAR-4
STARTING_MONEY = 50  # FR-CHAR-3

E_UNKNOWN_SKILL = gettext_noop("“%(skill)s” is not a skill. The skills are: %(choices)s.")
E_SKILL_TRAIT = gettext_noop("%(skill)s goes with %(skill_trait)s, not with %(trait)s.")


def check_skill(skill: object) -> Skill:
    """The :class:`Skill` called ``skill``, or a readable error."""
    if skill not in SKILLS:
        raise RulesError(E_UNKNOWN_SKILL, skill=skill, choices=", ".join(s.name for s in SKILLS.values()))
    return SKILLS[skill]  # type: ignore[index]


# ---------------------------------------------------------------------------------------------
# Equipment catalogue (FR-CHAR-5), shipped as data/equipment.json
# ---------------------------------------------------------------------------------------------

WEAPON = "weapon"
MELEE, THROWN, RANGED = "melee", "thrown", "ranged"
ADYACENTE, CORTO, MEDIO, LARGO = "adyacente", "corto", "medio", "largo"
BANDS: tuple[str, ...] = (ADYACENTE, CORTO, MEDIO, LARGO)

E_UNKNOWN_ITEM = gettext_noop("“%(item)s” is not in the equipment catalogue.")
E_NOT_WEAPON = gettext_noop("%(name)s is not a weapon.")
E_BAD_BAND = gettext_noop("“%(band)s” is not a range: use adyacente, corto, medio or largo.")
E_OUT_OF_RANGE = gettext_noop("%(name)s cannot be used at %(band)s range.")
E_UNKNOWN_CHECK = gettext_noop("“%(check)s” is neither a skill nor an action that equipment can help.")
E_BAD_QUANTITY = gettext_noop("%(quantity)s is not a number of %(name)s: use a whole number, 1 or more.")


Catalogue = Mapping[str, Mapping]


@cache
def _catalogue() -> Mapping[str, dict]:
    text = resources.files("frontera.rules.data").joinpath("equipment.json").read_text(encoding="utf-8")
    return MappingProxyType(json.loads(text)["items"])


def _chosen(catalogue: Catalogue | None) -> Catalogue:
    """The catalogue a caller passed (a campaign's own), or the built-in one."""
    return _catalogue() if catalogue is None else catalogue


def catalogue() -> dict[str, dict]:
    """A copy of the whole built-in catalogue: ``{item_id: entry}`` (FR-CHAR-5).

    Every function below that reads entries takes ``catalogue=`` to use another one instead (a
    campaign's, edited by its Mayor and checked with :func:`check_catalogue_entry`).
    """
    return copy.deepcopy(dict(_catalogue()))


def _entry(item_id: object, catalogue: Catalogue | None = None) -> Mapping:
    """The stored entry (callers must not modify it), or a readable error for an unknown item."""
    entries = _chosen(catalogue)
    if not isinstance(item_id, str) or item_id not in entries:
        raise RulesError(E_UNKNOWN_ITEM, item=item_id)
    return entries[item_id]


def item(item_id: str, *, catalogue: Catalogue | None = None) -> dict:
    """A copy of one catalogue entry, or a readable error for an unknown item."""
    return copy.deepcopy(dict(_entry(item_id, catalogue)))


def _weapon(item_id: str, catalogue: Catalogue | None = None) -> Mapping:
    entry = _entry(item_id, catalogue)
    if entry["category"] != WEAPON:
        raise RulesError(E_NOT_WEAPON, name=entry["name"])
    return entry


def range_modifier(weapon: str, band: str, *, in_hand: bool = False, catalogue: Catalogue | None = None) -> int:
    """Cards added to (or removed from) an attack with ``weapon`` at ``band`` (FR-CHAR-5, FR-CMB-11).

    The −1 of ranged and thrown weapons at Adyacente is already in the table. ``in_hand=True``
    wields a thrown weapon tagged ``melee`` (knife, tomahawk) as a melee weapon at Adyacente: 0.
    Raises if the weapon cannot reach that band.

    >>> range_modifier("revolver", "medio"), range_modifier("cuchillo", "adyacente", in_hand=True)
    (0, 0)
    """
    entry = _weapon(weapon, catalogue)
    if band not in BANDS:
        raise RulesError(E_BAD_BAND, band=band)
    if in_hand and "melee" in entry["tags"] and band == ADYACENTE:
        return 0
    modifier = entry["range"][band]
    if modifier is None:
        raise RulesError(E_OUT_OF_RANGE, name=entry["name"], band=band)
    return modifier


def weapon_damage(weapon: str, *, catalogue: Catalogue | None = None) -> int:
    """The damage a weapon adds to each hit (FR-CMB-7)."""
    return _weapon(weapon, catalogue)["damage"]


def _quantities(items: Mapping[str, int] | Iterable[str], catalogue: Catalogue | None = None) -> dict[str, int]:
    """``{item: quantity}`` from a mapping or a list of item ids (repeats count); validated."""
    pairs = items.items() if isinstance(items, Mapping) else ((name, 1) for name in items)
    result: dict[str, int] = {}
    for item_id, quantity in pairs:
        name = _entry(item_id, catalogue)["name"]
        result[item_id] = result.get(item_id, 0) + whole_number(quantity, 1, E_BAD_QUANTITY,
                                                                quantity=quantity, name=name)
    return result


def purchase_cost(purchases: Mapping[str, int] | Iterable[str], *, catalogue: Catalogue | None = None) -> int:
    """Total price in dollars of ``purchases`` (FR-CHAR-3, FR-CHAR-5).

    >>> purchase_cost({"rifle": 1}), purchase_cost({"rifle": 1}, catalogue={"rifle": {"name": "Rifle", "price": 25}})
    (20, 25)
    """
    entries = _chosen(catalogue)
    return sum(entries[name]["price"] * qty for name, qty in _quantities(purchases, entries).items())


def equipment_bonus(equipment: Character | Mapping[str, int] | Iterable[str], check: str, *,
                    catalogue: Catalogue | None = None) -> int:
    """Extra cards the equipment gives to a check of kind ``check`` (FR-CHAR-5, FR-CHK-1).

    ``equipment`` is a character, its ``{item_id: quantity}`` or a list of item ids. ``check`` is
    a skill key (the kind of action, whether or not the skill is held, e.g. ``"agilidad"`` for any
    Músculo (Agilidad) check) or an action in :data:`ACTIONS`.
    RULING: bonuses of different items add up; several copies of one item count once.
    """
    if check not in SKILLS and check not in ACTIONS:
        raise RulesError(E_UNKNOWN_CHECK, check=check)
    if isinstance(equipment, Character):
        equipment = equipment.equipment
    entries = _chosen(catalogue)
    return sum(entries[name].get("bonus", {}).get(check, 0) for name in _quantities(equipment, entries))


# An edited entry (a campaign's catalogue) is checked against FR-CHAR-5 and FR-CMB-11 before use.

CATEGORIES: tuple[str, ...] = (WEAPON, "gear", "mount")
WEAPON_KINDS: tuple[str, ...] = (MELEE, THROWN, RANGED)
BAND_NAMES = {ADYACENTE: "Adyacente", CORTO: "Corto", MEDIO: "Medio", LARGO: "Largo"}
MAX_MODIFIER = 5  # RULING: a band modifier is a few cards either way, never more than 5
MAX_BONUS_CARDS = 3  # RULING: equipment helps with a card or a few, never more than 3

E_BAD_ITEM_NAME = gettext_noop("Give the item a name.")
E_BAD_CATEGORY = gettext_noop("“%(category)s” is not a kind of equipment: use weapon, gear or mount.")
E_BAD_WEAPON_KIND = gettext_noop("“%(kind)s” is not a kind of weapon: use melee, thrown or ranged.")
E_BAD_PRICE = gettext_noop("The price of %(name)s must be a whole number of dollars, 0 or more, not %(price)s.")
E_BAD_DAMAGE = gettext_noop("The damage of %(name)s must be a whole number, 0 or more, not %(damage)s.")
E_BAD_MODIFIER = gettext_noop(
    "The modifier of %(name)s at %(band)s must be a whole number from −%(limit)s to +%(limit)s, "
    "or nothing if it cannot be used there; not %(modifier)s."
)
E_NO_USABLE_BAND = gettext_noop("%(name)s must be usable at one range band at least.")
E_MELEE_ONLY_ADJACENT = gettext_noop("%(name)s is a melee weapon: it can be used at Adyacente only.")
E_THROWN_UP_TO_SHORT = gettext_noop("%(name)s is a thrown weapon: it reaches Corto at most, not %(band)s.")
E_RANGE_GAP = gettext_noop("%(name)s reaches %(band)s, so it must also be usable at %(nearer)s.")
E_NOT_WEAPON_FIGURES = gettext_noop("%(name)s is not a weapon: it has no damage and no range.")
E_BAD_BONUS_CARDS = gettext_noop(
    "The bonus of %(name)s to %(check)s must be a whole number of cards from 1 to %(limit)s, not %(cards)s."
)
E_BAD_BONUS_CHECK = gettext_noop(
    "%(name)s cannot help “%(check)s”: equipment helps a skill or medical attention."
)


class CatalogueError(RulesError):
    """A refused catalogue entry; ``field`` names the figure at fault (``"price"``, ``"damage"``,
    ``"range.corto"``, ``"bonus"``, ``"name"``, ``"category"``, ``"kind"``)."""

    def __init__(self, field: str, template: str, **params: object) -> None:
        self.field = field
        super().__init__(template, **params)


def _check_name(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise CatalogueError("name", E_BAD_ITEM_NAME)
    return text.strip()


def _whole(number: object) -> bool:
    return isinstance(number, int) and not isinstance(number, bool)


def check_catalogue_entry(entry: Mapping) -> dict:
    """A checked copy of an edited catalogue entry, or a :class:`CatalogueError` (FR-CHAR-5, FR-CMB-11).

    The price is a whole number of dollars, 0 or more. A weapon's damage is a whole number, 0 or
    more; it has a draw modifier for each band (``None`` = not usable), at least one usable band,
    no gaps (a weapon that reaches a band reaches the nearer ones; ``max_range`` is set to the
    farthest), melee weapons reach Adyacente only and thrown ones Corto at most. Bonus cards are
    1 to 3 for a skill or an action of :data:`ACTIONS`. Other keys (tags, notes...) are kept.

    >>> check_catalogue_entry({"name": "Rifle", "category": "weapon", "kind": "ranged", "damage": 3,
    ...     "range": {"adyacente": -1, "corto": 0, "medio": 1, "largo": None}, "price": 30})["max_range"]
    'medio'
    >>> try:
    ...     check_catalogue_entry({"name": "Sable", "category": "weapon", "kind": "melee", "damage": 2,
    ...         "range": {"adyacente": 0, "corto": 0, "medio": None, "largo": None}, "price": 15})
    ... except CatalogueError as err:
    ...     print(err.field, "·", err)
    range.corto · Sable is a melee weapon: it can be used at Adyacente only.
    """
    result = copy.deepcopy(dict(entry))
    name = result["name"] = _check_name(result.get("name"))
    category = result.get("category")
    if category not in CATEGORIES:
        raise CatalogueError("category", E_BAD_CATEGORY, category=category)
    price = result.get("price")
    if not _whole(price) or price < 0:
        raise CatalogueError("price", E_BAD_PRICE, name=name, price=price)
    if category == WEAPON:
        _check_weapon_figures(result, name)
    else:
        if result.get("damage") is not None or any(v is not None for v in (result.get("range") or {}).values()):
            raise CatalogueError("damage", E_NOT_WEAPON_FIGURES, name=name)
        for key in ("kind", "damage", "range", "max_range"):
            result.pop(key, None)
    bonus = result.get("bonus") or {}
    for check, cards in bonus.items():
        if check not in SKILLS and check not in ACTIONS:
            raise CatalogueError("bonus", E_BAD_BONUS_CHECK, name=name, check=check)
        if not _whole(cards) or not 1 <= cards <= MAX_BONUS_CARDS:
            label = SKILLS[check].name if check in SKILLS else check
            raise CatalogueError("bonus", E_BAD_BONUS_CARDS, name=name, check=label, cards=cards,
                                 limit=MAX_BONUS_CARDS)
    result["bonus"] = dict(bonus)
    result["tags"] = list(result.get("tags") or [])
    return result


def _check_weapon_figures(result: dict, name: str) -> None:
    kind = result.get("kind")
    if kind not in WEAPON_KINDS:
        raise CatalogueError("kind", E_BAD_WEAPON_KIND, kind=kind)
    damage = result.get("damage")
    if not _whole(damage) or damage < 0:
        raise CatalogueError("damage", E_BAD_DAMAGE, name=name, damage=damage)
    given = result.get("range") or {}
    bands = {}
    for band in BANDS:
        modifier = given.get(band)
        if modifier is not None and (not _whole(modifier) or abs(modifier) > MAX_MODIFIER):
            raise CatalogueError(f"range.{band}", E_BAD_MODIFIER, name=name, band=BAND_NAMES[band],
                                 modifier=modifier, limit=MAX_MODIFIER)
        bands[band] = modifier
    usable = [band for band in BANDS if bands[band] is not None]
    if not usable:
        raise CatalogueError(f"range.{ADYACENTE}", E_NO_USABLE_BAND, name=name)
    if kind == MELEE and usable != [ADYACENTE]:
        far = next(band for band in usable if band != ADYACENTE)
        raise CatalogueError(f"range.{far}", E_MELEE_ONLY_ADJACENT, name=name)
    if kind == THROWN and usable[-1] in (MEDIO, LARGO):
        raise CatalogueError(f"range.{usable[-1]}", E_THROWN_UP_TO_SHORT, name=name, band=BAND_NAMES[usable[-1]])
    farthest = usable[-1]
    for nearer in BANDS[:BANDS.index(farthest)]:
        if bands[nearer] is None:
            raise CatalogueError(f"range.{nearer}", E_RANGE_GAP, name=name, band=BAND_NAMES[farthest],
                                 nearer=BAND_NAMES[nearer])
    result["range"] = bands
    result["max_range"] = farthest


# ---------------------------------------------------------------------------------------------
# The character sheet (FR-CHAR-1, FR-CHAR-4, FR-CHAR-6)
# ---------------------------------------------------------------------------------------------


E_NO_NAME = gettext_noop("Give the character a name.")
E_BAD_TRAIT_SCORE = gettext_noop("%(trait)s must be a whole number of at least 1, not %(score)s.")
E_SKILL_TWICE = gettext_noop("%(skill)s is listed twice; a skill is held or not.")
E_BAD_MONEY = gettext_noop("%(money)s is not an amount of money: use a whole number of dollars.")
E_FLAT_ONLY_MINIONS = gettext_noop("Only minions may have a flat number of cards and a flat Aguante.")
E_MINION_NEEDS_NUMBERS = gettext_noop(
    "A minion needs either traits or both a flat number of cards per check and a flat Aguante."
)
E_FLAT_OR_TRAITS = gettext_noop("A minion has either traits or flat numbers, not both.")
E_BAD_FLAT = gettext_noop("%(what)s must be a whole number of at least 1, not %(value)s.")


@dataclass(frozen=True)
class Character:
    """A character sheet. Treat it as immutable: operations return a new one.

    ``traits`` is ``{trait: score}`` for all four traits, or ``None`` for a flat minion, which has
    ``cards_per_check`` and ``flat_aguante`` instead (FR-CHAR-6). ``equipment`` is
    ``{item_id: quantity}``. Build through :func:`create_character`, :func:`make_npc`,
    :func:`make_minion` or :meth:`from_json` (which validate).
    """

    name: str
    kind: str = PROTAGONIST
    traits: dict[str, int] | None = None
    skills: tuple[str, ...] = ()
    equipment: dict[str, int] = field(default_factory=dict)
    money: int = 0
    health: int = 0
    morale: int = 0
    sobriety: int = 0
    cards_per_check: int | None = None
    flat_aguante: int | None = None
    flat_confianza: int | None = None

    @property
    def aguante(self) -> int:
        """Músculo + 4, or a minion's flat Aguante (FR-CHAR-4, FR-CHAR-6)."""
        if self.traits is None:
            return self.flat_aguante  # type: ignore[return-value]
        return self.traits[MUSCULO] + AGUANTE_BASE

    @property
    def confianza(self) -> int:
        """Highest trait + 4 (FR-CHAR-4). A flat minion: its flat Confianza if given, else
        (RULING) its cards per check + 4, never below its Aguante."""
        if self.traits is None:
            if self.flat_confianza is not None:
                return self.flat_confianza
            return max(self.cards_per_check + CONFIANZA_BASE, self.flat_aguante)  # type: ignore[operator]
        return max(self.traits.values()) + CONFIANZA_BASE

    def has_skill(self, skill: str) -> bool:
        return skill in self.skills

    def track(self, track: str) -> int:
        return {HEALTH: self.health, MORALE: self.morale, SOBRIETY: self.sobriety}[check_track(track)]

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "traits": dict(self.traits) if self.traits is not None else None,
            "skills": list(self.skills),
            "equipment": dict(self.equipment),
            "money": self.money,
            "tracks": {HEALTH: self.health, MORALE: self.morale, SOBRIETY: self.sobriety},
            "cards_per_check": self.cards_per_check,
            "flat_aguante": self.flat_aguante,
            "flat_confianza": self.flat_confianza,
        }

    @classmethod
    def from_json(cls, data: Mapping, *, catalogue: Catalogue | None = None) -> Character:
        """The validated entry point for a stored or submitted sheet (its equipment must be in
        ``catalogue``, the built-in one by default)."""
        tracks = data.get("tracks", {})
        return _validated(cls(
            name=data.get("name"),
            kind=data.get("kind", PROTAGONIST),
            traits=dict(data["traits"]) if data.get("traits") is not None else None,
            skills=tuple(data.get("skills", ())),
            equipment=dict(data.get("equipment", {})),
            money=data.get("money", 0),
            health=tracks.get(HEALTH, 0),
            morale=tracks.get(MORALE, 0),
            sobriety=tracks.get(SOBRIETY, 0),
            cards_per_check=data.get("cards_per_check"),
            flat_aguante=data.get("flat_aguante"),
            flat_confianza=data.get("flat_confianza"),
        ), catalogue)


def _validated(character: Character, catalogue: Catalogue | None = None) -> Character:
    """Check the shape of a sheet (not the creation budget: NPCs are built freely)."""
    if not isinstance(character.name, str) or not character.name.strip():
        raise RulesError(E_NO_NAME)
    check_kind(character.kind)
    flat = {"Cartas por prueba": character.cards_per_check, "Aguante": character.flat_aguante,
            "Confianza": character.flat_confianza}
    has_flat = any(number is not None for number in flat.values())
    if has_flat and character.kind != MINION:
        raise RulesError(E_FLAT_ONLY_MINIONS)
    if has_flat and character.traits is not None:
        raise RulesError(E_FLAT_OR_TRAITS)
    if character.traits is None:
        if character.kind != MINION or character.cards_per_check is None or character.flat_aguante is None:
            raise RulesError(E_MINION_NEEDS_NUMBERS)
        for what, number in flat.items():
            if number is not None:
                whole_number(number, 1, E_BAD_FLAT, what=what, value=number)
    else:
        for trait in character.traits:
            check_trait(trait)
        for trait in TRAITS:
            score = character.traits.get(trait)
            whole_number(score, 1, E_BAD_TRAIT_SCORE, trait=TRAIT_NAMES[trait], score=score)
    for index, skill in enumerate(character.skills):
        if check_skill(skill).key in character.skills[:index]:
            raise RulesError(E_SKILL_TWICE, skill=SKILLS[skill].name)
    _quantities(character.equipment, catalogue)
    if not isinstance(character.money, int) or isinstance(character.money, bool):
        raise RulesError(E_BAD_MONEY, money=character.money)  # negative = a gambling debt (FR-GMB-4)
    check_level(HEALTH, character.health)
    check_level(MORALE, character.morale)
    check_level(SOBRIETY, character.sobriety)
    return character


def make_npc(name: str, *, traits: Mapping[str, int], skills: Iterable[str] = (),
             equipment: Mapping[str, int] | Iterable[str] = (), money: int = 0,
             kind: str = NPC, catalogue: Catalogue | None = None) -> Character:
    """An NPC (or a minion with traits) on the same sheet as a protagonist (FR-CHAR-6).

    RULING: the Mayor builds NPCs freely: traits of at least 1, no point budget.
    """
    return _validated(Character(name=name, kind=kind, traits=dict(traits), skills=tuple(skills),
                                equipment=_quantities(equipment, catalogue), money=money), catalogue)


def make_minion(name: str, *, cards_per_check: int, aguante: int, confianza: int | None = None,
                skills: Iterable[str] = (), equipment: Mapping[str, int] | Iterable[str] = (),
                catalogue: Catalogue | None = None) -> Character:
    """A minion with a flat number of cards per check and a flat Aguante (FR-CHAR-6).

    >>> make_minion("Esbirro 1", cards_per_check=3, aguante=5).aguante
    5
    """
    return _validated(Character(name=name, kind=MINION, skills=tuple(skills),
                                equipment=_quantities(equipment, catalogue), cards_per_check=cards_per_check,
                                flat_aguante=aguante, flat_confianza=confianza), catalogue)


def trait_cards(character: Character, trait: str, skill: str | None = None) -> int:
    """Cards from the sheet alone: trait score + 2 with a relevant held skill (FR-CHK-1, FR-CHAR-2);
    a flat minion draws its flat number whatever the trait (FR-CHAR-6).

    Equipment (:func:`equipment_bonus`), track penalties and range are added by the check.
    """
    check_trait(trait)
    if skill is not None and check_skill(skill).trait != trait:
        info = SKILLS[skill]
        raise RulesError(E_SKILL_TRAIT, skill=info.name, skill_trait=TRAIT_NAMES[info.trait],
                         trait=TRAIT_NAMES[trait])
    if character.traits is None:
        return character.cards_per_check  # type: ignore[return-value]
    held = skill is not None and character.has_skill(skill)
    return character.traits[trait] + (SKILL_DRAW_BONUS if held else 0)


def lose_levels(character: Character, track: str, amount: int = 1) -> Character:
    """The character after losing ``amount`` levels of ``track``, clamped (FR-HLT-1, FR-MOR-1)."""
    return replace(character, **{track: lose(track, character.track(track), amount)})


def recover_levels(character: Character, track: str, amount: int = 1) -> Character:
    """The character after recovering ``amount`` levels of ``track`` (FR-HLT-2, FR-MOR-2)."""
    return replace(character, **{track: recover(track, character.track(track), amount)})


def drinker(character: Character) -> dict:
    """The character as a drinker for :func:`tracks.drinking_duel`/:func:`tracks.heavy_drinking`."""
    return {"aguante": character.aguante, "sobriety": character.sobriety, "kind": character.kind}


# ---------------------------------------------------------------------------------------------
# Creation, step by step (FR-CHAR-3)
# ---------------------------------------------------------------------------------------------

E_GROUP_MISSING = gettext_noop("Choose one skill from the %(group)s group.")
E_GROUP_TWICE = gettext_noop("Choose only one skill from the %(group)s group, not %(first)s and %(second)s.")
E_TRAIT_POINTS_TYPE = gettext_noop("Points for %(trait)s must be a whole number, not %(points)s.")
E_TRAIT_POINTS_NEGATIVE = gettext_noop("You cannot take points away from %(trait)s.")
E_TRAIT_POINTS_TOTAL = gettext_noop("Spread exactly %(total)s points over the traits; you spread %(spent)s.")
E_EXTRA_HELD = gettext_noop("You already have %(skill)s; choose a skill you do not have yet.")
E_BAD_WEAPON_CHOICE = gettext_noop("Choose a revolver or 10 knives to start with.")
E_OVERSPENT = gettext_noop("These purchases cost $%(cost)s; you have only $%(budget)s to spend.")

HORSE = "caballo"
# FR-CHAR-3: a revolver OR 10 knives (the key is what the wizard offers)
STARTING_WEAPONS: Mapping[str, Mapping[str, int]] = MappingProxyType({
    "revolver": MappingProxyType({"revolver": 1}),
    "cuchillos": MappingProxyType({"cuchillo": 10}),
})


def validate_skills_step(skills: Iterable[str]) -> tuple[str, ...]:
    """Step 0: exactly one skill from each group (FR-CHAR-3). Returns them in group order."""
    chosen: dict[str, str] = {}
    for key in skills:
        skill = check_skill(key)
        if skill.group in chosen:
            raise RulesError(E_GROUP_TWICE, group=GROUP_NAMES[skill.group],
                             first=SKILLS[chosen[skill.group]].name, second=skill.name)
        chosen[skill.group] = key
    for group in GROUPS:
        if group not in chosen:
            raise RulesError(E_GROUP_MISSING, group=GROUP_NAMES[group])
    return tuple(chosen[group] for group in GROUPS)


def validate_traits_step(points: Mapping[str, int]) -> dict[str, int]:
    """Step 1: spread exactly 8 points on top of the starting 1s (FR-CHAR-1, FR-CHAR-3).

    ``points`` gives the points added per trait (missing traits get 0); returns the scores.
    RULING: no cap beyond what 8 points allow, so a trait reaches at most 9.

    >>> validate_traits_step({"manos": 8})
    {'manos': 9, 'sentidos': 1, 'musculo': 1, 'cabeza': 1}
    """
    for trait, added in points.items():
        check_trait(trait)
        if not isinstance(added, int) or isinstance(added, bool):
            raise RulesError(E_TRAIT_POINTS_TYPE, trait=TRAIT_NAMES[trait], points=added)
        if added < 0:
            raise RulesError(E_TRAIT_POINTS_NEGATIVE, trait=TRAIT_NAMES[trait])
    spent = sum(points.values())
    if spent != TRAIT_POINTS:
        raise RulesError(E_TRAIT_POINTS_TOTAL, total=TRAIT_POINTS, spent=spent)
    return {trait: STARTING_TRAIT + points.get(trait, 0) for trait in TRAITS}


def validate_extra_skill_step(skills: Iterable[str], extra: str) -> tuple[str, ...]:
    """Step 2: one more skill from any group, not one already held (FR-CHAR-3)."""
    held = tuple(skills)
    skill = check_skill(extra)
    if extra in held:
        raise RulesError(E_EXTRA_HELD, skill=skill.name)
    return (*held, extra)


def validate_equipment_step(starting_weapon: str,
                            purchases: Mapping[str, int] | Iterable[str] = (), *,
                            catalogue: Catalogue | None = None) -> tuple[dict[str, int], int]:
    """Step 5: a horse, a revolver or 10 knives, and at most $50 of purchases (FR-CHAR-3, FR-CHAR-5).

    Returns ``(equipment, money)``. RULING: the dollars not spent stay with the character. Prices
    come from ``catalogue`` (a campaign's), the built-in one by default.

    >>> validate_equipment_step("cuchillos", {"funda_de_cuchillos": 1})
    ({'caballo': 1, 'cuchillo': 10, 'funda_de_cuchillos': 1}, 48)
    """
    if starting_weapon not in STARTING_WEAPONS:
        raise RulesError(E_BAD_WEAPON_CHOICE)
    bought = _quantities(purchases, catalogue)
    cost = purchase_cost(bought, catalogue=catalogue)
    if cost > STARTING_MONEY:
        raise RulesError(E_OVERSPENT, cost=cost, budget=STARTING_MONEY)
    equipment = {HORSE: 1}
    for name, quantity in (*STARTING_WEAPONS[starting_weapon].items(), *bought.items()):
        equipment[name] = equipment.get(name, 0) + quantity
    return equipment, STARTING_MONEY - cost


def create_character(*, name: str, skills: Iterable[str], trait_points: Mapping[str, int], extra_skill: str,
                     starting_weapon: str, purchases: Mapping[str, int] | Iterable[str] = (),
                     catalogue: Catalogue | None = None) -> Character:
    """A new protagonist: every creation step in the book's order (FR-CHAR-3); Aguante and
    Confianza follow from the traits (FR-CHAR-4). Raises on the first step that is wrong.
    Purchases are priced from ``catalogue`` (a campaign's), the built-in one by default."""
    if not isinstance(name, str) or not name.strip():
        raise RulesError(E_NO_NAME)
    first = validate_skills_step(skills)
    traits = validate_traits_step(trait_points)
    all_skills = validate_extra_skill_step(first, extra_skill)
    equipment, money = validate_equipment_step(starting_weapon, purchases, catalogue=catalogue)
    return _validated(Character(name=name.strip(), kind=PROTAGONIST, traits=traits, skills=all_skills,
                                equipment=equipment, money=money), catalogue)
