"""Combat: one combat turn (round) as a pure state machine (FR-CMB-1..16).

The engine never draws: it says how many cards each participant must draw, the caller draws them
from wherever the session's mode says and hands them in. A round is a plain JSON dict; every
operation returns ``(new_state, events)`` and never modifies its input.

Flow of one turn (FR-CMB-1):

1. :func:`new_round` with the combatants (plain data, see :func:`combatant` and :func:`weapon`).
2. On turn 5, 10, ... every participant first hands in a dead man's hand card (:func:`submit_jam`,
   FR-CMB-12); an 8 loses the whole turn.
3. :func:`declare`: NPCs declare and hand in their cards first, then the players in any order.
   :func:`cards_to_draw` says how many cards; :func:`hand_in` records the drawn cards.
4. :func:`choose`: each participant secretly picks the card(s) to play and one target per card.
   :func:`view` shows a participant only what they may see.
5. :func:`reveal`: all choices are revealed at once and resolved (hits, damage, scares, grapples).
6. :func:`next_turn`: positions, cover and tracks change only now (FR-CMB-3).

>>> from frontera.rules.combat import (combatant, weapon, new_round, declare, cards_to_draw,
...                                     hand_in, choose, reveal)
>>> colt = weapon("revolver", kind="ranged", damage=1, bands={"adyacente": -1, "corto": 0, "medio": 0})
>>> kid = combatant("kid", side="posse", traits={"manos": 2, "sentidos": 1, "musculo": 1, "cabeza": 1},
...                 skills=["disparo_rapido"], aguante=5, weapons=[colt])
>>> thug = combatant("thug", side="gang", is_npc=True, cards=3, aguante=5)
>>> state = new_round([kid, thug])
>>> state, _ = declare(state, "thug", action="other")
>>> state, _ = declare(state, "kid", technique="disparo_rapido", weapon="revolver", targets={"thug": "corto"})
>>> cards_to_draw(state, "kid")
4
>>> state, _ = hand_in(state, "kid", ["QS", "3H", "5C", "2D"])
>>> state, _ = choose(state, "kid", [("QS", "thug"), ("3H", "thug")])
>>> state, events = reveal(state)
>>> state["result"]["targets"]["thug"]["health_after"]
-2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from frontera.rules.cards import (
    MANOS,
    MUSCULO,
    SENTIDOS,
    SUIT_SYMBOL,
    TRAIT_SUIT,
    TRAITS,
    Card,
)
from frontera.rules.checks import (
    SKILL_BONUS,
    opposed_needs_another_check,
    opposed_outcome,
    played_card,
)
from frontera.rules.dead_mans_hand import (
    WORSE,
    dead_mans_hand_result,
)
from frontera.rules.errors import RulesError, gettext_noop, ngettext
from frontera.rules.state import copy_json
from frontera.rules.tracks import HEALTH, MORALE, clamp, incapacity

State = dict[str, Any]
Events = list[dict[str, Any]]

# --- vocabulary ----------------------------------------------------------------------------------

PELEA, MELEE, THROWN, DISPARO_RAPIDO, APUNTAR = "pelea", "melee", "thrown", "disparo_rapido", "apuntar"
TECHNIQUES: tuple[str, ...] = (PELEA, MELEE, THROWN, DISPARO_RAPIDO, APUNTAR)
GRAPPLE = "forcejeo"  # the opposed Músculo check a grappled pair makes each turn (FR-CMB-13)
APRESAR, ASUSTAR = "apresar", "asustar"
SPECIALS: tuple[str, ...] = (APRESAR, ASUSTAR)
ATTACK, MOVE, OTHER, MEDICAL = "attack", "move", "other", "medical"
ACTIONS: tuple[str, ...] = (ATTACK, MOVE, OTHER, MEDICAL)

ADYACENTE, CORTO, MEDIO, LARGO = "adyacente", "corto", "medio", "largo"
BANDS: tuple[str, ...] = (ADYACENTE, CORTO, MEDIO, LARGO)
COVER_BONUS: dict[str, int] = {"exposed": 0, "partial": 1, "total": 2}  # FR-CMB-9
MOUNT_BONUS: dict[str | None, int] = {None: 0, "walk": 1, "trot": 2, "gallop": 3}  # FR-CMB-9
WEAPON_KINDS: tuple[str, ...] = ("melee", "thrown", "ranged")

# FR-CMB-4: technique → (trait, skills that add 2 cards); the grapple contest takes either skill.
TECHNIQUE_CHECK: dict[str, tuple[str, tuple[str, ...]]] = {
    PELEA: (MANOS, ("pelea",)),
    MELEE: (MANOS, ("pelea",)),
    THROWN: (MANOS, ("pelea",)),
    DISPARO_RAPIDO: (MANOS, ("disparo_rapido",)),
    APUNTAR: (SENTIDOS, ("apuntar",)),
    GRAPPLE: (MUSCULO, ("fuerza", "agilidad")),
}
TECHNIQUE_WEAPON: dict[str, str | None] = {
    PELEA: None,
    MELEE: "melee",
    THROWN: "thrown",
    DISPARO_RAPIDO: "ranged",
    APUNTAR: "ranged",
}
JAM_EVERY = 5  # FR-CMB-12
DUEL_EXCHANGE: dict[str, str] = {"win": "victory", "loss": "defeat", "tie": "tie"}  # FR-EXCH-3 roles

# --- messages ------------------------------------------------------------------------------------

E_BAD_FIELD = gettext_noop("%(field)s cannot be “%(value)s”.")
E_NEEDS_TRAITS = gettext_noop("%(key)s needs either the four traits or a flat number of cards.")
E_DUPLICATE_COMBATANT = gettext_noop("Two combatants are called %(key)s.")
E_UNKNOWN_COMBATANT = gettext_noop("There is nobody called %(key)s in this combat.")
E_REVEALED = gettext_noop("The cards of this turn are already revealed; start the next turn.")
E_NOT_REVEALED = gettext_noop("The cards of this turn have not been revealed yet.")
E_JAMS_PENDING = gettext_noop("Turn %(turn)s is a jam turn: everyone draws a dead man's hand first.")
E_NOT_JAM_TURN = gettext_noop("Turn %(turn)s is not a jam turn.")
E_JAM_TWICE = gettext_noop("%(key)s already drew the dead man's hand this turn.")
E_CANNOT_ACT = gettext_noop("%(key)s cannot act this turn: %(reason)s.")
E_JAMMED = gettext_noop("%(key)s drew an 8 and loses this whole turn.")
E_GRAPPLED = gettext_noop("%(key)s is in a grapple and can only fight to keep or break it.")
E_ALREADY_DECLARED = gettext_noop("%(key)s has already declared this turn.")
E_NPCS_FIRST = gettext_noop("The non-player characters declare and draw first: waiting for %(keys)s.")
E_BAD_ACTION = gettext_noop("Declare an attack technique, a move only, or another action.")
E_MEDICAL_PATIENT = gettext_noop("Medical attention needs a patient in the fight.")
E_MEDICAL_WHOLE_TURN = gettext_noop("Medical attention takes the whole turn: no move with it.")
E_BAD_TECHNIQUE = gettext_noop("“%(technique)s” is not a combat technique.")
E_BAD_SPECIAL = gettext_noop("“%(special)s” is not a combat variant: use apresar or asustar.")
E_NO_TARGETS = gettext_noop("An attack needs at least one target with its range band.")
E_SELF_TARGET = gettext_noop("%(key)s cannot be their own target.")
E_BAD_BAND = gettext_noop("“%(band)s” is not a range band.")
E_UNARMED_WEAPON = gettext_noop("Pelea is fought without a weapon; use the melee technique for %(weapon)s.")
E_NEEDS_WEAPON = gettext_noop("The %(technique)s technique needs a weapon.")
E_NO_SUCH_WEAPON = gettext_noop("%(key)s carries no weapon called %(weapon)s.")
E_WRONG_WEAPON = gettext_noop("%(weapon)s cannot be used with the %(technique)s technique.")
E_ADJACENT_ONLY = gettext_noop("%(technique)s only reaches adjacent enemies; %(target)s is at %(band)s.")
E_THROWN_RANGE = gettext_noop("A thrown weapon only reaches corto; %(target)s is at %(band)s.")
E_OUT_OF_RANGE = gettext_noop("%(weapon)s cannot be used at %(band)s range.")
E_NO_THROWN = gettext_noop("%(key)s has no thrown weapons left.")
E_AIM_TOTAL_COVER = gettext_noop("Nobody can use Apuntar from total cover.")
E_AIM_MOUNTED = gettext_noop("Nobody can use Apuntar from a moving mount or vehicle.")
E_AIM_HOLSTERED = gettext_noop("With the weapons holstered at the start of the turn there is no Apuntar.")
E_APRESAR_TECHNIQUE = gettext_noop("Apresar needs Pelea, or a thrown lasso.")
E_APRESAR_ONE_TARGET = gettext_noop("Apresar is made against one target.")
E_MOVE_TOO_FAR = gettext_noop("Acting allows a move within adyacente only; a move alone reaches corto.")
E_HOLSTERED_NO_MOVE = gettext_noop(
    "Attacking with the weapons holstered leaves no time to move (knives with a holster excepted)."
)
E_NOTHING_TO_DRAW = gettext_noop("%(key)s draws no cards this turn.")
E_NOT_DECLARED = gettext_noop("%(key)s has not declared an attack yet.")
E_TAKE_BACK_DRAWN = gettext_noop("%(key)s has drawn already: the declaration stands for this turn.")
E_TAKE_BACK_PLAYERS = gettext_noop(
    "The players have declared knowing what %(key)s declared: it stands for this turn.")
E_ALREADY_DRAWN = gettext_noop("%(key)s has already drawn this turn.")
E_TOO_MANY_CARDS = gettext_noop("%(key)s draws %(required)s cards, not %(count)s.")
E_DUPLICATE_CARD = gettext_noop("%(card)s appears twice.")
E_CARD_ELSEWHERE = gettext_noop("%(card)s is already in the hand of %(owner)s.")
E_NOT_DRAWN_YET = gettext_noop("%(key)s has not drawn yet.")
E_ALREADY_CHOSEN = gettext_noop("%(key)s has already chosen this turn.")
E_NO_PLAYS = gettext_noop("Choose at least one card to play.")
E_TOO_MANY_PLAYS = ngettext(
    "%(key)s may play at most %(max)s card this turn, not %(count)s.",
    "%(key)s may play at most %(max)s cards this turn, not %(count)s.",
    "max",
)
E_NOT_DRAWN = gettext_noop("%(card)s was not drawn in this check.")
E_CARD_TWICE = gettext_noop("%(card)s cannot be played twice.")
E_NOT_A_TARGET = gettext_noop("%(target)s was not declared as a target.")
E_WHICH_TARGET = gettext_noop("Say which target %(card)s is played against.")
E_BAD_PLAY = gettext_noop("A play is a card, a target and (for a joker) a suit.")
E_NOT_READY = gettext_noop("Still waiting for %(keys)s.")
E_NO_RANGED_WEAPON = gettext_noop("Name the weapon %(key)s uses in the duel.")
E_DUEL_PAIR = gettext_noop("A pistol duel is between exactly two duellists.")

# explanations of resolved plays (rendered by the UI; same msgid + params convention)
X_MISS = gettext_noop("%(card)s misses: %(technique)s hits only with %(suit)s.")
# the reduction says what it is (a walk read "− 2" as unexplained): what Aguante absorbs (FR-CMB-8)
X_DAMAGE = ngettext(
    "%(card)s (%(value)s) %(cmp)s Aguante %(aguante)s (%(aguante_base)s + %(cover_bonus)s cover"
    " + %(mount_bonus)s mount): damage %(damage)s (%(base)s base + %(weapon)s weapon) − %(reduction)s"
    " absorbed = %(taken)s health level.",
    "%(card)s (%(value)s) %(cmp)s Aguante %(aguante)s (%(aguante_base)s + %(cover_bonus)s cover"
    " + %(mount_bonus)s mount): damage %(damage)s (%(base)s base + %(weapon)s weapon) − %(reduction)s"
    " absorbed = %(taken)s health levels.",
    "taken",
)
# the explanation as fights before it stored it (a fight keeps its explanations' templates)
X_DAMAGE_BEFORE = ngettext(
    "%(card)s (%(value)s) %(cmp)s Aguante %(aguante)s (%(aguante_base)s + %(cover_bonus)s cover"
    " + %(mount_bonus)s mount): damage %(damage)s (%(base)s base + %(weapon)s weapon) − %(reduction)s"
    " = %(taken)s health level.",
    "%(card)s (%(value)s) %(cmp)s Aguante %(aguante)s (%(aguante_base)s + %(cover_bonus)s cover"
    " + %(mount_bonus)s mount): damage %(damage)s (%(base)s base + %(weapon)s weapon) − %(reduction)s"
    " = %(taken)s health levels.",
    "taken",
)
X_SCARE = ngettext(
    "%(card)s (%(value)s) %(cmp)s Confianza %(confianza)s: %(morale)s morale level.",
    "%(card)s (%(value)s) %(cmp)s Confianza %(confianza)s: %(morale)s morale levels.",
    "morale",
)
X_GRAPPLE = gettext_noop("%(card)s hits: %(target)s is grappled (no damage, no absorption).")
X_ALREADY_GRAPPLED = gettext_noop("%(card)s hits, but %(target)s is already in a grapple.")

_STANDING = object()  # "not given": keep the combatant's standing position


# --- plain-data builders -------------------------------------------------------------------------


def _require(condition: bool, field: str, value: object) -> None:
    if not condition:
        raise RulesError(E_BAD_FIELD, field=field, value=value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def weapon(
    name: str,
    *,
    kind: str,
    damage: int = 0,
    bands: Mapping[str, int | None] | None = None,
    lasso: bool = False,
    whip: bool = False,
    knife: bool = False,
    in_hand: bool = False,
) -> dict[str, Any]:
    """A weapon as plain data (FR-CHAR-5, FR-CMB-11).

    ``bands`` maps each range band to its draw modifier, ``None`` (or missing) = not usable there;
    the −1 adjacent penalty of ranged and thrown weapons belongs inside it. Melee weapons may omit
    ``bands`` (they reach adyacente only, with no modifier). ``in_hand``: a thrown weapon that may
    also be wielded as a melee weapon (the catalogue's ``melee`` tag: a knife, a tomahawk), at
    adyacente with no modifier.
    """
    _require(isinstance(name, str) and bool(name), "weapon name", name)
    _require(kind in WEAPON_KINDS, "weapon kind", kind)
    _require(_is_int(damage) and damage >= 0, "weapon damage", damage)
    bands = dict(bands or {})
    for band, modifier in bands.items():
        _require(band in BANDS, "range band", band)
        _require(modifier is None or _is_int(modifier), "draw modifier", modifier)
    return {
        "name": name,
        "kind": kind,
        "damage": damage,
        "bands": {band: bands.get(band) for band in BANDS},
        "lasso": bool(lasso),
        "whip": bool(whip),
        "knife": bool(knife),
        "in_hand": bool(in_hand) and kind == "thrown",
    }


def combatant(
    key: str,
    *,
    side: str,
    aguante: int,
    is_npc: bool = False,
    traits: Mapping[str, int] | None = None,
    cards: int | None = None,
    skills: Iterable[str] = (),
    confianza: int | None = None,
    weapons: Iterable[Mapping[str, Any]] = (),
    thrown: int = 0,
    knife_holster: bool = False,
    penalty: int = 0,
    health: int = 0,
    morale: int = 0,
    cover: str = "exposed",
    mount: str | None = None,
    holstered: bool = False,
) -> dict[str, Any]:
    """A participant as plain data (FR-CHAR-4, FR-CHAR-6).

    Either ``traits`` (all four) or ``cards`` (a minion's flat number of cards per check).
    ``thrown`` is the number of thrown weapons carried; ``penalty`` the cards removed from every
    check by health, morale and sobriety; ``cover``/``mount``/``holstered`` the position at the
    start of the turn. ``confianza`` defaults to highest trait + 4 (FR-CHAR-4).
    """
    _require(isinstance(key, str) and bool(key), "combatant key", key)
    if (traits is None) == (cards is None):
        raise RulesError(E_NEEDS_TRAITS, key=key)
    if traits is not None:
        _require(set(traits) == set(TRAITS), "traits", dict(traits))
        for score in traits.values():
            _require(_is_int(score) and score >= 0, "trait score", score)
        traits = {trait: traits[trait] for trait in TRAITS}
    else:
        _require(_is_int(cards) and cards >= 0, "minion cards", cards)
    _require(_is_int(aguante) and aguante >= 0, "Aguante", aguante)
    if confianza is None:
        confianza = (max(traits.values()) if traits else 0) + 4
    _require(_is_int(confianza) and confianza >= 0, "Confianza", confianza)
    _require(_is_int(thrown) and thrown >= 0, "thrown weapons carried", thrown)
    _require(_is_int(penalty) and penalty >= 0, "penalty", penalty)
    _require(_is_int(health) and clamp(HEALTH, health) == health, "health", health)
    _require(_is_int(morale) and clamp(MORALE, morale) == morale, "morale", morale)
    _require(cover in COVER_BONUS, "cover", cover)
    _require(mount in MOUNT_BONUS, "mount speed", mount)
    weapon_list = [weapon(**w) for w in weapons]
    _require(len({w["name"] for w in weapon_list}) == len(weapon_list), "weapons", "duplicate names")
    return {
        "key": key,
        "side": str(side),
        "is_npc": bool(is_npc),
        "traits": traits,
        "cards": cards,
        "skills": sorted(set(skills)),
        "aguante": aguante,
        "confianza": confianza,
        "weapons": weapon_list,
        "thrown": thrown,
        "knife_holster": bool(knife_holster),
        "penalty": penalty,
        "health": health,
        "morale": morale,
        "cover": cover,
        "mount": mount,
        "holstered": bool(holstered),
    }


def new_round(
    combatants: Iterable[Mapping[str, Any]],
    *,
    turn: int = 1,
    grapples: Iterable[Mapping[str, str]] = (),
) -> State:
    """A fresh combat turn. ``grapples`` are holds made in earlier turns (FR-CMB-13)."""
    _require(_is_int(turn) and turn >= 1, "turn", turn)
    specs: dict[str, dict[str, Any]] = {}
    for data in combatants:
        spec = combatant(**data)
        if spec["key"] in specs:
            raise RulesError(E_DUPLICATE_COMBATANT, key=spec["key"])
        specs[spec["key"]] = spec
    state: State = {
        "turn": turn,
        "combatants": specs,
        "grapples": [],
        "jams": {},
        "declarations": {},
        "required": {},
        "max_plays": {},
        "hands": {},
        "plays": {},
        "order": [],
        "revealed": False,
        "result": None,
    }
    for hold in grapples:
        pair = (hold["holder"], hold["held"])
        for key, partner in (pair, pair[::-1]):
            spec = _combatant(state, key)
            if _grapple_of(state, key) or key == partner:
                raise RulesError(E_GRAPPLED, key=key)
            state["declarations"][key] = _grapple_declaration(spec, partner)
            state["required"][key] = max(0, check_cards(spec, GRAPPLE))
            state["max_plays"][key] = 1
            state["order"].append(key)
            if state["required"][key] == 0:
                state["hands"][key] = []
        state["grapples"].append({"holder": pair[0], "held": pair[1]})
    return state


def _grapple_declaration(spec: Mapping[str, Any], partner: str) -> dict[str, Any]:
    """FR-CMB-13: a grappled pair only fights over the hold (opposed Músculo, Fuerza or Agilidad)."""
    return {
        "action": ATTACK, "technique": GRAPPLE, "weapon": None, "special": None,
        "targets": {partner: ADYACENTE}, "cover": spec["cover"], "mount": spec["mount"],
        "holstered": spec["holstered"], "move": None, "bonus": 0, "patient": None,
    }


# --- rule arithmetic ------------------------------------------------------------------------------


def damage_taken(damage: int, card_value: int, aguante: int) -> int:
    """Health levels lost by one hit (FR-CMB-8).

    >>> damage_taken(4, 6, 8), damage_taken(3, 7, 7), damage_taken(2, 12, 7)
    (1, 1, 2)
    """
    for field, value in (("damage", damage), ("card value", card_value), ("Aguante", aguante)):
        _require(_is_int(value) and value >= 0, field, value)
    return max(0, damage - _reduction(card_value, aguante))


def _reduction(card_value: int, aguante: int) -> int:
    """FR-CMB-8: below Aguante −3, equal −2, above 0."""
    if card_value < aguante:
        return 3
    return 2 if card_value == aguante else 0


def damage_dealt(spec: Mapping[str, Any], technique: str, weapon_spec: Mapping[str, Any] | None) -> int:
    """Damage per hit = base + weapon (FR-CMB-7). Unarmed Pelea adds no weapon damage."""
    if technique == APUNTAR:
        base = 3
    elif technique == DISPARO_RAPIDO:
        base = 1
    else:
        base = 2 if "fuerza" in spec["skills"] else 1
    return base + (weapon_spec["damage"] if weapon_spec else 0)


def jam_turn(turn: int) -> bool:
    """FR-CMB-12: turn 5 and every 5th turn after it."""
    return turn % JAM_EVERY == 0


def check_cards(spec: Mapping[str, Any], technique: str, modifier: int = 0) -> int:
    """Cards drawn for a technique: trait + 2 with the skill ± modifiers − penalty (FR-CHK-1, FR-CMB-4).

    A minion's flat number of cards replaces trait and skill (FR-CHAR-6). May be ≤ 0 (automatic
    failure, no card drawn).
    """
    trait, skills = TECHNIQUE_CHECK[technique]
    if spec["traits"] is None:
        base = spec["cards"]
    else:
        base = spec["traits"][trait] + (SKILL_BONUS if any(s in spec["skills"] for s in skills) else 0)
    return base + modifier - spec["penalty"]


def max_plays(spec: Mapping[str, Any], technique: str, weapon_spec: Mapping[str, Any] | None = None,
              special: str | None = None) -> int:
    """How many cards the technique plays (FR-CMB-6, FR-CMB-13).

    One extra per 2 full points of Manos with Pelea (unarmed, melee, thrown) or Disparo rápido;
    thrown capped at the thrown weapons carried (a whip is not); Apuntar, Apresar, the grapple
    contest and minions without traits play one.
    """
    if special == APRESAR or technique in (APUNTAR, GRAPPLE) or spec["traits"] is None:
        return 1
    if TECHNIQUE_CHECK[technique][1][0] not in spec["skills"]:
        return 1
    count = 1 + spec["traits"][MANOS] // 2
    if technique == THROWN and not (weapon_spec and (weapon_spec["whip"] or weapon_spec["lasso"])):
        count = min(count, spec["thrown"])
    return count


def band_modifier(technique: str, weapon_spec: Mapping[str, Any] | None, band: str, target: str = "") -> int:
    """Draw modifier of a weapon at a range band; raises if it cannot reach (FR-CMB-11, FR-CHAR-5)."""
    if band not in BANDS:
        raise RulesError(E_BAD_BAND, band=band)
    if technique in (PELEA, MELEE) and band != ADYACENTE:
        raise RulesError(E_ADJACENT_ONLY, technique=technique, target=target, band=band)
    if technique == THROWN and band not in (ADYACENTE, CORTO):
        raise RulesError(E_THROWN_RANGE, target=target, band=band)
    if weapon_spec is None:
        return 0
    if weapon_spec["kind"] == "melee" and not any(v is not None for v in weapon_spec["bands"].values()):
        return 0
    if technique == MELEE and weapon_spec.get("in_hand"):
        return 0  # a knife or tomahawk held in hand: a melee weapon at adyacente (FR-CHAR-5)
    modifier = weapon_spec["bands"][band]
    if modifier is None:
        raise RulesError(E_OUT_OF_RANGE, weapon=weapon_spec["name"], band=band)
    return modifier


# --- state helpers --------------------------------------------------------------------------------


def _combatant(state: State, key: object) -> dict[str, Any]:
    try:
        return state["combatants"][key]
    except (KeyError, TypeError):
        raise RulesError(E_UNKNOWN_COMBATANT, key=key) from None


def _weapon_of(spec: Mapping[str, Any], name: str) -> dict[str, Any]:
    for item in spec["weapons"]:
        if item["name"] == name:
            return item
    raise RulesError(E_NO_SUCH_WEAPON, key=spec["key"], weapon=name)


def _grapple_of(state: State, key: str) -> dict[str, str] | None:
    for hold in state["grapples"]:
        if key in (hold["holder"], hold["held"]):
            return hold
    return None


def _as_card(card: Card | str) -> Card:
    """A Card, a uid (``"2:10S"``) or a code of deck 1 (``"10S"``)."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str) and ":" in card:
        return Card.from_uid(card)
    return Card.parse(card)


def _played(card: Card | str, suit: str | None) -> Card:
    """FR-CARD-2: a joker is played with the suit its holder declares (only a joker takes one)."""
    card = _as_card(card)
    return played_card(card if suit is None else card.undeclared().declare(suit))


def _card_of(uid: str, suit: str | None) -> Card:
    card = Card.from_uid(uid)
    return card.declare(suit) if suit else card


def _why_not_acting(state: State, key: str) -> str | None:
    """Why ``key`` takes no part this turn: incapacitated (FR-HLT-1, FR-MOR-1) or jammed (FR-CMB-12)."""
    reason = incapacity(**_tracks(state["combatants"][key]))
    if reason:
        return reason
    if key in state["jams"] and dead_mans_hand_result(state["jams"][key]) == WORSE:
        return "jam"
    return None


def why_not_acting(state: State, key: str) -> str | None:
    """``None`` if ``key`` takes part this turn, else why not: ``"jam"`` (FR-CMB-12) or the track
    that stops them (FR-HLT-1, FR-MOR-1)."""
    _combatant(state, key)
    return _why_not_acting(state, key)


def _check_acting(state: State, key: str) -> None:
    reason = _why_not_acting(state, key)
    if reason == "jam":
        raise RulesError(E_JAMMED, key=key)
    if reason:
        raise RulesError(E_CANNOT_ACT, key=key, reason=reason)


def _acting(state: State) -> list[str]:
    return [key for key in state["combatants"] if _why_not_acting(state, key) is None]


def _draws_cards(state: State, key: str) -> bool:
    decl = state["declarations"].get(key)
    return bool(decl) and decl["action"] == ATTACK and state["required"][key] > 0


def _has_drawn(state: State, key: str) -> bool:
    """Declared, and holding the drawn cards if the declaration draws any."""
    return key in state["declarations"] and (not _draws_cards(state, key) or key in state["hands"])


def _is_ready(state: State, key: str) -> bool:
    if key not in state["declarations"]:
        return False
    if not _draws_cards(state, key):
        return True
    hand = state["hands"].get(key)
    return hand is not None and (not hand or key in state["plays"])


def _jams_pending(state: State) -> list[str]:
    if not jam_turn(state["turn"]):
        return []
    return [
        key for key in state["combatants"]
        if key not in state["jams"] and incapacity(**_tracks(state["combatants"][key])) is None
    ]


def _tracks(spec: Mapping[str, Any]) -> dict[str, int]:
    return {"health": spec["health"], "morale": spec["morale"]}


def _open(state: State) -> None:
    if state["revealed"]:
        raise RulesError(E_REVEALED)


def phase(state: State) -> str:
    """``"jams"``, ``"declare"``, ``"choose"``, ``"reveal"`` (all chosen) or ``"revealed"``."""
    if state["revealed"]:
        return "revealed"
    if _jams_pending(state):
        return "jams"
    acting = _acting(state)
    if any(key not in state["declarations"] for key in acting):
        return "declare"
    if all(_is_ready(state, key) for key in acting):
        return "reveal"
    return "choose"


# --- operations -----------------------------------------------------------------------------------


def submit_jam(state: State, key: str, card: Card | str) -> tuple[State, Events]:
    """FR-CMB-12: on a jam turn each participant draws a dead man's hand; an 8 loses the turn."""
    _open(state)
    spec = _combatant(state, key)
    if not jam_turn(state["turn"]):
        raise RulesError(E_NOT_JAM_TURN, turn=state["turn"])
    reason = incapacity(**_tracks(spec))
    if reason:
        raise RulesError(E_CANNOT_ACT, key=key, reason=reason)
    if key in state["jams"]:
        raise RulesError(E_JAM_TWICE, key=key)
    drawn = _as_card(card)
    loses_turn = dead_mans_hand_result(drawn) == WORSE  # raises if not a dead man's hand card
    new = copy_json(state)
    new["jams"][key] = drawn.uid
    return new, [{"type": "jam", "key": key, "card": drawn.uid, "loses_turn": loses_turn}]


def npcs_to_draw(state: State) -> list[str]:
    """The non-player characters still to declare and draw this turn: players declare after them
    (FR-CMB-1)."""
    return [other for other in _acting(state) if state["combatants"][other]["is_npc"] and not _has_drawn(state, other)]


def declare(
    state: State,
    key: str,
    *,
    action: str | None = None,
    technique: str | None = None,
    weapon: str | None = None,
    targets: Mapping[str, str] | None = None,
    special: str | None = None,
    cover: Any = _STANDING,
    mount: Any = _STANDING,
    holstered: Any = _STANDING,
    move: Mapping[str, Any] | None = None,
    bonus: int = 0,
    patient: str | None = None,
) -> tuple[State, Events]:
    """Declare a participant's action for this turn (FR-CMB-1, -2, -4, -9, -10, -11, -13, -14).

    ``action`` is ``"attack"`` (implied by ``technique``), ``"move"`` (move only, within corto),
    ``"medical"`` (medical attention to ``patient``, a combatant, maybe oneself: it takes the whole
    turn, so no move; its Cabeza (Saber) check is made outside the round, FR-CHK-5) or
    ``"other"`` (any other action, drawing nothing here). ``targets`` maps each target to its range
    band at the start of the turn. ``cover``, ``mount`` and ``holstered`` state this participant's
    own situation at the start of the turn (default: the standing data); ``move`` records where
    they go (``{"band": "adyacente"|"corto", "cover": ..., "mount": ..., "to": "text"}``), applied
    only by :func:`next_turn` (FR-CMB-3). ``bonus`` adds equipment or Mayor's card bonuses.
    NPCs declare and hand in their cards before any player declares.
    """
    _open(state)
    spec = _combatant(state, key)
    if _jams_pending(state):
        raise RulesError(E_JAMS_PENDING, turn=state["turn"])
    _check_acting(state, key)
    if _grapple_of(state, key):
        raise RulesError(E_GRAPPLED, key=key)
    if key in state["declarations"]:
        raise RulesError(E_ALREADY_DECLARED, key=key)
    if not spec["is_npc"]:
        waiting = npcs_to_draw(state)
        if waiting:
            raise RulesError(E_NPCS_FIRST, keys=", ".join(waiting))

    cover = spec["cover"] if cover is _STANDING else cover
    mount = spec["mount"] if mount is _STANDING else mount
    holstered = spec["holstered"] if holstered is _STANDING else holstered
    _require(cover in COVER_BONUS, "cover", cover)
    _require(mount in MOUNT_BONUS, "mount speed", mount)
    _require(isinstance(holstered, bool), "holstered", holstered)
    _require(_is_int(bonus), "bonus", bonus)
    if action is None:
        action = ATTACK if technique is not None else None
    if action not in ACTIONS:
        raise RulesError(E_BAD_ACTION)

    decl: dict[str, Any] = {
        "action": action,
        "technique": None,
        "weapon": None,
        "special": None,
        "targets": {},
        "cover": cover,
        "mount": mount,
        "holstered": holstered,
        "move": _check_move(move, action),
        "bonus": bonus,
        "patient": None,
    }
    if action == MEDICAL:  # FR-CHK-5: in combat it takes the whole turn
        if decl["move"] is not None:
            raise RulesError(E_MEDICAL_WHOLE_TURN)
        if patient not in state["combatants"]:
            raise RulesError(E_MEDICAL_PATIENT)
        decl["patient"] = patient
    required = max_n = 0
    if action == ATTACK:
        weapon_spec = _check_attack(spec, technique, weapon, targets, special, cover, mount, holstered)
        for target in targets:
            _combatant(state, target)
        if decl["move"] and holstered and weapon_spec and not _knife_exception(spec, technique, weapon_spec):
            raise RulesError(E_HOLSTERED_NO_MOVE)
        # ruling: with targets at several bands the draw takes the worst modifier
        modifier = min(band_modifier(technique, weapon_spec, band, t) for t, band in targets.items())
        decl.update(technique=technique, weapon=weapon, special=special, targets=dict(targets))
        required = max(0, check_cards(spec, technique, modifier + bonus))
        max_n = max_plays(spec, technique, weapon_spec, special)

    new = copy_json(state)
    new["declarations"][key] = decl
    new["required"][key] = required
    new["max_plays"][key] = max_n
    new["order"].append(key)
    events: Events = [{"type": "declared", "key": key, **copy_json(decl), "cards": required}]
    if action == ATTACK and required == 0:
        new["hands"][key] = []
        events.append({"type": "automatic_failure", "key": key})  # FR-CHK-1 ruling
    return new, events


def _check_move(move: Mapping[str, Any] | None, action: str) -> dict[str, Any] | None:
    """FR-CMB-2: acting moves within adyacente; moving only reaches corto."""
    if move is None:
        return None
    _require(isinstance(move, Mapping), "move", move)
    band = move.get("band", ADYACENTE)
    if band not in (ADYACENTE, CORTO) or (band == CORTO and action != MOVE):
        raise RulesError(E_MOVE_TOO_FAR)
    result = {"band": band, "to": str(move.get("to", ""))}
    if "cover" in move:
        _require(move["cover"] in COVER_BONUS, "cover", move["cover"])
        result["cover"] = move["cover"]
    if "mount" in move:
        _require(move["mount"] in MOUNT_BONUS, "mount speed", move["mount"])
        result["mount"] = move["mount"]
    return result


def _knife_exception(spec: Mapping[str, Any], technique: str, weapon_spec: Mapping[str, Any] | None) -> bool:
    """FR-CMB-10: knives with a knife holster keep the 3 m move when drawn from the holster.

    (Ruling: unarmed Pelea draws nothing, so holstered weapons never cost its move.)
    """
    knives = bool(weapon_spec and weapon_spec["knife"]) and technique in (MELEE, THROWN)
    return knives and spec["knife_holster"]


def _check_attack(
    spec: Mapping[str, Any],
    technique: object,
    weapon_name: str | None,
    targets: object,
    special: object,
    cover: str,
    mount: str | None,
    holstered: bool,
) -> dict[str, Any] | None:
    """Validate an attack declaration; return the weapon used (FR-CMB-4, -9, -10, -11, -13)."""
    key = spec["key"]
    if technique not in TECHNIQUES:
        raise RulesError(E_BAD_TECHNIQUE, technique=technique)
    if special is not None and special not in SPECIALS:
        raise RulesError(E_BAD_SPECIAL, special=special)
    weapon_spec = None
    if technique == PELEA:
        if weapon_name is not None:
            raise RulesError(E_UNARMED_WEAPON, weapon=weapon_name)
    else:
        if weapon_name is None:
            raise RulesError(E_NEEDS_WEAPON, technique=technique)
        weapon_spec = _weapon_of(spec, weapon_name)
        held_as_melee = technique == MELEE and weapon_spec.get("in_hand", False)
        if weapon_spec["kind"] != TECHNIQUE_WEAPON[technique] and not held_as_melee:
            raise RulesError(E_WRONG_WEAPON, weapon=weapon_name, technique=technique)
    if technique == THROWN and not (weapon_spec["whip"] or weapon_spec["lasso"]) and spec["thrown"] < 1:
        raise RulesError(E_NO_THROWN, key=key)
    if technique == APUNTAR:
        if cover == "total":
            raise RulesError(E_AIM_TOTAL_COVER)
        if mount is not None:
            raise RulesError(E_AIM_MOUNTED)
        if holstered:
            raise RulesError(E_AIM_HOLSTERED)
    if special == APRESAR and not (technique == PELEA or (technique == THROWN and weapon_spec["lasso"])):
        raise RulesError(E_APRESAR_TECHNIQUE)
    if not targets or not isinstance(targets, Mapping):
        raise RulesError(E_NO_TARGETS)
    if special == APRESAR and len(targets) != 1:
        raise RulesError(E_APRESAR_ONE_TARGET)
    if key in targets:
        raise RulesError(E_SELF_TARGET, key=key)
    return weapon_spec


def attack_refusal(state: State, key: str, *, technique: str, weapon: str | None, targets: Mapping[str, str],
                   special: str | None) -> RulesError | None:
    """What :func:`declare` would refuse of this attack by ``key`` as the fighter stands (their cover,
    mount and holster now; FR-CMB-2, -4, -9, -10, -11, -13), or ``None``: for a page to start a
    declaration only from an attack it may make. When a fighter may declare (FR-CMB-1) is not asked."""
    spec = _combatant(state, key)
    try:
        _check_attack(spec, technique, weapon, targets, special, spec["cover"], spec["mount"], spec["holstered"])
    except RulesError as error:
        return error
    return None


def cards_to_draw(state: State, key: str) -> int:
    """How many cards ``key`` must draw for the declared action (FR-CHK-1, FR-CMB-4); 0 = none."""
    _combatant(state, key)
    if key not in state["declarations"]:
        raise RulesError(E_NOT_DECLARED, key=key)
    return state["required"][key]


def take_back(state: State, key: str) -> tuple[State, Events]:
    """A declaration taken back before its cards are drawn, to be declared again (a wrong target,
    the wrong fighter declared for): as if never made. RULING (FR-CMB-1): an NPC's only while no
    protagonist has declared this turn (they declare knowing what the NPCs do); a grappled pair's
    is the hold's, not theirs to take back."""
    refusal = _take_back_refusal(state, key)
    if refusal is not None:
        raise refusal
    new = copy_json(state)
    for field in ("declarations", "required", "max_plays", "hands"):
        new[field].pop(key, None)
    new["order"] = [other for other in new["order"] if other != key]
    return new, [{"type": "taken_back", "key": key}]


def may_take_back(state: State, key: str) -> bool:
    """Whether :func:`take_back` would take ``key``'s declaration back now (the pages offer it)."""
    return _take_back_refusal(state, key) is None


def _take_back_refusal(state: State, key: str) -> RulesError | None:
    if state["revealed"]:
        return RulesError(E_REVEALED)
    if key not in state["declarations"]:
        return RulesError(E_NOT_DECLARED, key=key)
    if _grapple_of(state, key):
        return RulesError(E_GRAPPLED, key=key)
    if state["hands"].get(key) or state["plays"].get(key):
        return RulesError(E_TAKE_BACK_DRAWN, key=key)
    # a hold's pair is declared by the hold itself (new_round), not by its players
    if state["combatants"][key]["is_npc"] and any(
            not state["combatants"][other]["is_npc"] and not _grapple_of(state, other) for other in state["declarations"]):
        return RulesError(E_TAKE_BACK_PLAYERS, key=key)
    return None


def hand_in(state: State, key: str, cards: Iterable[Card | str]) -> tuple[State, Events]:
    """Record the cards ``key`` drew for the declared technique (FR-CMB-1, FR-CHK-1).

    Fewer cards than required are accepted when the deck ran short (FR-MODE-8).
    """
    _open(state)
    _combatant(state, key)
    _check_acting(state, key)
    if key not in state["declarations"]:
        raise RulesError(E_NOT_DECLARED, key=key)
    if not _draws_cards(state, key):
        raise RulesError(E_NOTHING_TO_DRAW, key=key)
    if key in state["hands"]:
        raise RulesError(E_ALREADY_DRAWN, key=key)
    drawn = [_as_card(card).undeclared() for card in cards]
    required = state["required"][key]
    if len(drawn) > required:
        raise RulesError(E_TOO_MANY_CARDS, key=key, required=required, count=len(drawn))
    seen: set[str] = set()
    for card in drawn:
        if card.uid in seen:
            raise RulesError(E_DUPLICATE_CARD, card=card.label)
        seen.add(card.uid)
        for owner, hand in state["hands"].items():
            if card.uid in hand:
                raise RulesError(E_CARD_ELSEWHERE, card=card.label, owner=owner)
    new = copy_json(state)
    new["hands"][key] = [card.uid for card in drawn]
    return new, [{"type": "drawn", "key": key, "cards": [card.uid for card in drawn]}]


def choose(state: State, key: str, plays: Iterable[Any]) -> tuple[State, Events]:
    """Secretly choose the card(s) to play, one target per card (FR-CHK-2, FR-CMB-1, FR-CMB-6).

    Each play is ``(card, target)``, ``(card, target, suit)`` or a dict with those keys; the target
    may be left out when only one was declared; a joker needs its suit (FR-CARD-2).
    """
    _open(state)
    _combatant(state, key)
    _check_acting(state, key)
    if key not in state["declarations"] or state["declarations"][key]["action"] != ATTACK:
        raise RulesError(E_NOT_DECLARED, key=key)
    if key not in state["hands"]:
        raise RulesError(E_NOT_DRAWN_YET, key=key)
    if key in state["plays"]:
        raise RulesError(E_ALREADY_CHOSEN, key=key)
    decl = state["declarations"][key]
    hand = state["hands"][key]
    entries = [_parse_play(play) for play in plays]
    if not entries:
        raise RulesError(E_NO_PLAYS)
    limit = min(state["max_plays"][key], len(hand))
    if len(entries) > limit:
        raise RulesError(E_TOO_MANY_PLAYS, key=key, max=limit, count=len(entries))
    chosen: list[dict[str, Any]] = []
    for card_in, target, suit in entries:
        card = _played(card_in, suit)
        if card.uid not in hand:
            raise RulesError(E_NOT_DRAWN, card=card.label)
        if any(play["card"] == card.uid for play in chosen):
            raise RulesError(E_CARD_TWICE, card=card.label)
        if target is None:
            if len(decl["targets"]) != 1:
                raise RulesError(E_WHICH_TARGET, card=card.label)
            target = next(iter(decl["targets"]))
        if target not in decl["targets"]:
            raise RulesError(E_NOT_A_TARGET, target=target)
        chosen.append({"card": card.uid, "suit": card.suit if card.is_joker else None, "target": target})
    new = copy_json(state)
    new["plays"][key] = chosen
    return new, [{"type": "chosen", "key": key, "count": len(chosen)}]


def _parse_play(play: Any) -> tuple[Any, str | None, str | None]:
    if isinstance(play, Mapping):
        if "card" not in play:
            raise RulesError(E_BAD_PLAY)
        return play["card"], play.get("target"), play.get("suit")
    if isinstance(play, (Card, str)):
        return play, None, None
    if isinstance(play, (tuple, list)) and len(play) in (2, 3):
        return play[0], play[1], play[2] if len(play) == 3 else None
    raise RulesError(E_BAD_PLAY)


def reveal(state: State) -> tuple[State, Events]:
    """Reveal every chosen card at once and resolve the turn (FR-CMB-1, -5, -7, -8, -9, -13, -14).

    Each hit is resolved separately; health and morale are lowered per target and clamped at the
    bottom of their tracks. The new positions are not applied here (FR-CMB-3, see :func:`next_turn`).
    """
    _open(state)
    if _jams_pending(state):
        raise RulesError(E_JAMS_PENDING, turn=state["turn"])
    waiting = [key for key in _acting(state) if not _is_ready(state, key)]
    if waiting:
        raise RulesError(E_NOT_READY, keys=", ".join(waiting))
    new = copy_json(state)
    new["revealed"] = True
    new["result"] = _resolve(new)
    events: Events = [{"type": "revealed", "plays": copy_json(new["plays"])}]
    events += [{"type": "hit" if rec["hit"] else "miss", **rec} for rec in new["result"]["plays"]]
    events += [{"type": "grapple_contest", **contest} for contest in new["result"]["contests"]]
    events += [{"type": "tracks", "key": key, **totals} for key, totals in new["result"]["targets"].items()]
    return new, events


def _resolve(state: State) -> dict[str, Any]:
    records = [
        _resolve_play(state, key, play)
        for key in state["order"]
        if _why_not_acting(state, key) is None and state["declarations"][key]["technique"] != GRAPPLE
        for play in state["plays"].get(key, [])
    ]
    contests = [_grapple_contest(state, hold) for hold in state["grapples"]]
    holds = [{"holder": c["holder"], "held": c["held"]} for c in contests if c["kept"]]
    for rec in records:
        if rec["grapple"]:
            busy = {k for hold in holds for k in (hold["holder"], hold["held"])}
            if rec["attacker"] in busy or rec["target"] in busy:
                rec["grapple"] = False
                params = {"card": rec["label"], "target": rec["target"]}
                rec["explain"] = {"template": X_ALREADY_GRAPPLED, "params": params}
            else:
                holds.append({"holder": rec["attacker"], "held": rec["target"]})
    return {
        "plays": records,
        "targets": _track_totals(state, records),
        "contests": contests,
        "grapples": holds,
        "moves": {key: decl["move"] for key, decl in state["declarations"].items() if decl["move"]},
    }


def _resolve_play(state: State, key: str, play: Mapping[str, Any]) -> dict[str, Any]:
    """One played card against its target: hit or miss, then damage, scare or grapple."""
    spec = state["combatants"][key]
    decl = state["declarations"][key]
    target = state["combatants"][play["target"]]
    technique, special = decl["technique"], decl["special"]
    card = _card_of(play["card"], play["suit"])
    suit = TRAIT_SUIT[TECHNIQUE_CHECK[technique][0]]
    rec: dict[str, Any] = {
        "attacker": key,
        "target": target["key"],
        "card": card.uid,
        "suit": card.suit,
        "label": card.label,
        "value": card.value,
        "technique": technique,
        "special": special,
        "hit": card.suit == suit,  # FR-CMB-5: no partial successes
        "damage": 0,
        "aguante": None,
        "taken": 0,
        "morale_lost": 0,
        "grapple": False,
    }
    params: dict[str, Any] = {"card": card.label, "value": card.value, "target": target["key"]}
    if not rec["hit"]:
        params.update(technique=technique, suit=SUIT_SYMBOL[suit])
        template = X_MISS
    elif special == ASUSTAR:  # FR-CMB-14
        rec["morale_lost"] = 1 if card.value > target["confianza"] else 0
        params.update(cmp=_cmp(card.value, target["confianza"]), confianza=target["confianza"],
                      morale=-rec["morale_lost"])
        template = X_SCARE
    elif special == APRESAR:  # FR-CMB-13: no damage, no absorption
        rec["grapple"] = True
        template = X_GRAPPLE
    else:  # FR-CMB-7, -8, -9
        weapon_spec = _weapon_of(spec, decl["weapon"]) if decl["weapon"] else None
        target_decl = state["declarations"].get(target["key"])
        cover = target_decl["cover"] if target_decl else target["cover"]
        cover_bonus, mount_bonus = COVER_BONUS[cover], MOUNT_BONUS[decl["mount"]]
        aguante = target["aguante"] + cover_bonus + mount_bonus
        rec["damage"] = damage_dealt(spec, technique, weapon_spec)
        rec["aguante"] = aguante
        rec["taken"] = damage_taken(rec["damage"], card.value, aguante)
        params.update(
            cmp=_cmp(card.value, aguante), aguante=aguante, aguante_base=target["aguante"],
            cover_bonus=cover_bonus, mount_bonus=mount_bonus, damage=rec["damage"],
            base=rec["damage"] - (weapon_spec["damage"] if weapon_spec else 0),
            weapon=weapon_spec["damage"] if weapon_spec else 0,
            reduction=_reduction(card.value, aguante), taken=rec["taken"],
        )
        template = X_DAMAGE
    rec["explain"] = {"template": template, "params": params}
    return rec


def _cmp(value: int, threshold: int) -> str:
    return "<" if value < threshold else "=" if value == threshold else ">"


def _track_totals(state: State, records: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Health and morale of every target after all hits (FR-CMB-8, FR-CMB-14, FR-HLT-1, FR-MOR-1)."""
    totals: dict[str, dict[str, int]] = {}
    for rec in records:
        if not (rec["taken"] or rec["morale_lost"]):
            continue
        spec = state["combatants"][rec["target"]]
        fresh = {"health_before": spec["health"], "morale_before": spec["morale"], "damage": 0, "scares": 0}
        entry = totals.setdefault(rec["target"], fresh)
        entry["damage"] += rec["taken"]
        entry["scares"] += rec["morale_lost"]
    for entry in totals.values():
        entry["health_after"] = clamp(HEALTH, entry["health_before"] - entry["damage"])
        entry["morale_after"] = clamp(MORALE, entry["morale_before"] - entry["scares"])
        entry["health_lost"] = entry["health_before"] - entry["health_after"]
        entry["morale_lost"] = entry["morale_before"] - entry["morale_after"]
    return totals


def _grapple_contest(state: State, hold: Mapping[str, str]) -> dict[str, Any]:
    """FR-CMB-13: opposed Músculo; the hold breaks only if the held one wins.

    A participant who plays no card (jammed, no cards) loses the contest; ties keep the hold.
    """
    pair = (hold["holder"], hold["held"])
    cards = {
        key: _card_of(state["plays"][key][0]["card"], state["plays"][key][0]["suit"])
        if _why_not_acting(state, key) is None and state["plays"].get(key) else None
        for key in pair
    }
    outcome = opposed_outcome({key: (MUSCULO, card) for key, card in cards.items()})
    return {"holder": hold["holder"], "held": hold["held"],
            "cards": {key: card.uid if card else None for key, card in cards.items()},
            "outcome": outcome, "kept": outcome[hold["held"]] != "win"}


def next_turn(state: State) -> tuple[State, Events]:
    """End the revealed turn and start the next one (FR-CMB-3).

    Declared moves, cover and mounts take effect now; health, morale and the draw penalty carry
    over; weapons used are no longer holstered; each thrown card used one thrown weapon; holds
    kept or made carry into the next turn unless one of the pair can no longer act.
    """
    if not state["revealed"]:
        raise RulesError(E_NOT_REVEALED)
    result = state["result"]
    combatants = []
    for key, spec in state["combatants"].items():
        spec = copy_json(spec)
        totals = result["targets"].get(key)
        if totals:
            change = sum(
                _level_penalty(totals[f"{track}_after"]) - _level_penalty(totals[f"{track}_before"])
                for track in (HEALTH, MORALE)
            )
            spec["penalty"] = max(0, spec["penalty"] + change)
            spec["health"], spec["morale"] = totals["health_after"], totals["morale_after"]
        decl = state["declarations"].get(key)
        if decl and _why_not_acting(state, key) is None:
            spec.update(cover=decl["cover"], mount=decl["mount"], holstered=decl["holstered"])
            for field in ("cover", "mount"):
                if decl["move"] and field in decl["move"]:
                    spec[field] = decl["move"][field]
            if decl["weapon"]:
                spec["holstered"] = False
                weapon_spec = _weapon_of(spec, decl["weapon"])
                if decl["technique"] == THROWN and not (weapon_spec["whip"] or weapon_spec["lasso"]):
                    spec["thrown"] = max(0, spec["thrown"] - len(state["plays"].get(key, [])))
        combatants.append(spec)
    by_key = {spec["key"]: spec for spec in combatants}
    holds = [
        hold for hold in result["grapples"]
        if all(incapacity(**_tracks(by_key[k])) is None for k in (hold["holder"], hold["held"]))
    ]
    new = new_round(combatants, turn=state["turn"] + 1, grapples=holds)
    # each attack declared this turn, for the next turn's declaration to start from: a person
    # declaring the same attack again changes nothing (no rule reads it)
    new["previous"] = {
        key: {field: copy_json(decl[field]) for field in ("technique", "weapon", "special", "targets")}
        for key, decl in state["declarations"].items()
        if decl["action"] == ATTACK and decl["technique"] != GRAPPLE
    }
    return new, [{"type": "turn_started", "turn": new["turn"], "moves": copy_json(result["moves"]),
                  "grapples": copy_json(holds)}]


def set_tracks(state: State, key: str, *, health: int, morale: int, penalty: int) -> tuple[State, Events]:
    """Health, morale and draw penalty changed outside the round's own resolution: the Mayor's
    override of an automated result, a death roll (FR-HLT-3), a drink (FR-HLT-1, FR-MOR-1).

    The new levels are the combatant's from now on. After the reveal they replace that target's
    result too, so :func:`next_turn` does not apply the overridden damage on top of them. A
    declaration already made keeps its number of cards; a combatant who can no longer act takes
    no part in the reveal (FR-HLT-1).
    """
    spec = _combatant(state, key)
    _require(_is_int(health) and clamp(HEALTH, health) == health, "health", health)
    _require(_is_int(morale) and clamp(MORALE, morale) == morale, "morale", morale)
    _require(_is_int(penalty) and penalty >= 0, "penalty", penalty)
    new = copy_json(state)
    before = {"health": spec["health"], "morale": spec["morale"]}
    new["combatants"][key].update(health=health, morale=morale, penalty=penalty)
    totals = (new["result"] or {}).get("targets", {}).get(key) if new["revealed"] else None
    if totals:
        totals.update(health_before=health, health_after=health, morale_before=morale, morale_after=morale)
    return new, [{"type": "tracks_set", "key": key, "before": before, "health": health, "morale": morale}]


def _level_penalty(level: int) -> int:
    """Cards a health or morale level removes: −1 → 1, −2 → 2 (lower levels cannot act at all)."""
    return min(2, -level)


def view(state: State, viewer: str | Iterable[str] | None = None) -> dict[str, Any]:
    """What ``viewer`` may see of the round (FR-CMB-1).

    ``viewer`` is a combatant key, several keys (the Mayor sees the NPCs he runs) or ``None``
    (a spectator). Declarations are announced aloud and public. Drawn cards are seen only by
    their owner, also after the reveal (the unchosen ones are never shown); chosen cards are seen
    by their owner until the reveal, then by everyone.
    """
    own = set() if viewer is None else {viewer} if isinstance(viewer, str) else set(viewer)
    public = {k: copy_json(v) for k, v in state.items() if k not in ("hands", "plays")}
    public["phase"] = phase(state)
    public["hand_sizes"] = {key: len(hand) for key, hand in state["hands"].items()}
    public["hands"] = {key: list(hand) for key, hand in state["hands"].items() if key in own}
    public["chosen"] = sorted(state["plays"])
    public["plays"] = {
        key: copy_json(plays) for key, plays in state["plays"].items() if state["revealed"] or key in own
    }
    return public


# --- pistol duel ----------------------------------------------------------------------------------


def duel_cards(spec: Mapping[str, Any]) -> int:
    """Cards a duellist draws: Manos (Disparo rápido) − penalty (FR-CMB-15)."""
    return max(0, check_cards(combatant(**spec), DISPARO_RAPIDO))


def pistol_duel(
    duellists: Iterable[Mapping[str, Any]],
    cards: Mapping[str, Any],
    *,
    weapons: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """FR-CMB-15: opposed Manos (Disparo rápido); the loser takes one full-damage hit, no absorption.

    ``cards`` maps each duellist to the card played (``card`` or ``(card, suit)`` for a joker).
    ``weapons`` names each one's gun (default: their only ranged weapon). Tablas → both are hit.
    If neither card is black nobody can win (FR-OPP-5): ``"redraw"`` is True and nobody is hit.
    The result also gives the FR-EXCH-3 roles.
    """
    specs = [combatant(**spec) for spec in duellists]
    if len(specs) != 2 or specs[0]["key"] == specs[1]["key"]:
        raise RulesError(E_DUEL_PAIR)
    played = {}
    for spec in specs:
        key = spec["key"]
        if key not in cards:
            raise RulesError(E_NOT_READY, keys=key)
        entry = cards[key]
        card, suit = (entry if isinstance(entry, (tuple, list)) else (entry, None))
        played[key] = _played(card, suit)
    guns = {spec["key"]: _duel_weapon(spec, (weapons or {}).get(spec["key"])) for spec in specs}
    plays = {key: (MANOS, card) for key, card in played.items()}
    redraw = opposed_needs_another_check(plays)
    outcome = opposed_outcome(plays)
    result: dict[str, Any] = {
        "outcome": outcome, "redraw": redraw, "cards": {key: card.uid for key, card in played.items()},
        "damage": {}, "health_after": {}, "exchange": {},
    }
    for spec in specs:
        key = spec["key"]
        hit = not redraw and outcome[key] in ("loss", "tie")
        rival = _rival(specs, key)
        damage = damage_dealt(rival, DISPARO_RAPIDO, guns[rival["key"]]) if hit else 0
        result["damage"][key] = damage
        result["health_after"][key] = clamp(HEALTH, spec["health"] - damage)
        result["exchange"][key] = None if redraw else DUEL_EXCHANGE[outcome[key]]
    return result


def _rival(specs: list[dict[str, Any]], key: str) -> dict[str, Any]:
    return next(spec for spec in specs if spec["key"] != key)


def _duel_weapon(spec: Mapping[str, Any], name: str | None) -> dict[str, Any]:
    if name is not None:
        return _weapon_of(spec, name)
    ranged = [item for item in spec["weapons"] if item["kind"] == "ranged"]
    if len(ranged) != 1:
        raise RulesError(E_NO_RANGED_WEAPON, key=spec["key"])
    return ranged[0]
