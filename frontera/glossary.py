"""The game's words, one place per vocabulary (docs/glossary.md): the engine's internal keys mapped
to names a person reads, in their language. Spanish gets the book's words (``locale/es``); English
gets English words. No page, feed line, history row or error shows an internal key: they go
through :func:`name` (or :func:`choices` for a form), and :mod:`frontera.messages` runs the
parameters of every engine and feed message through :func:`param_text`.

A helper every layer may use (like :mod:`frontera.rules` and :mod:`frontera.messages`): it imports
the engine's constants only.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from frontera.rules import characters as rules_characters

TERMS: dict[str, dict[str, Promise]] = {
    # FR-CHAR-1: traits (the suit each goes with is shown beside them, SUIT_SYMBOL).
    "trait": {"manos": _("Hands"), "sentidos": _("Senses"), "musculo": _("Muscle"), "cabeza": _("Head")},
    # FR-CHAR-2: skills and their groups.
    "skill": {
        "pelea": _("Brawl"), "disparo_rapido": _("Quick draw"), "apuntar": _("Aim"), "agilidad": _("Agility"),
        "fuerza": _("Strength"), "mana": _("Knack"), "percepcion": _("Perception"), "saber": _("Lore"),
        "astucia": _("Cunning"), "labia": _("Smooth talk"), "atencion_medica": _("medical attention"),
    },
    "group": {"armas": _("Weapons"), "mecanicas": _("Mechanical"), "exploracion": _("Exploration")},
    # FR-CMB-4: techniques; FR-CMB-13, -14: the specials.
    "technique": {
        "pelea": _("Brawl"), "melee": _("melee weapon"), "thrown": _("thrown weapon"),
        "disparo_rapido": _("Quick draw"), "apuntar": _("Aim"), "forcejeo": _("grapple"),
        "move": _("move"), "other": _("another action"), "medical": _("medical attention"),
    },
    "special": {"apresar": _("Seize"), "asustar": _("Scare")},
    "weapon_kind": {"melee": _("melee"), "thrown": _("thrown"), "ranged": _("ranged")},
    # FR-CHAR-5, FR-CMB-8: range bands, and their short forms in the catalogue's table.
    "band": {"adyacente": _("Adjacent"), "corto": _("Short"), "medio": _("Medium"), "largo": _("Long")},
    "band_short": {
        "adyacente": pgettext_lazy("range band, abbreviated", "Adj"),
        "corto": pgettext_lazy("range band, abbreviated", "Sho"),
        "medio": pgettext_lazy("range band, abbreviated", "Med"),
        "largo": pgettext_lazy("range band, abbreviated", "Lon"),
    },
    "cover": {"exposed": _("exposed"), "partial": _("partial cover"), "total": _("total cover")},
    "mount": {"none": _("on foot"), "walk": _("at a walk"), "trot": _("at a trot"),
              "gallop": _("at a gallop")},
    # FR-HLT, FR-MOR, FR-SOB: the tracks.
    "track": {"health": _("Health"), "morale": _("Morale"), "sobriety": _("Sobriety")},
    # FR-CHK-3, FR-OPP: outcomes.
    "outcome": {"success": _("Success"), "partial": _("Partial success"), "failure": _("Failure"),
                "win": _("wins"), "loss": _("loses"), "tie": _("Tie")},
    # FR-CARD-3: suits, by their accessible names.
    "suit": {"S": _("spades"), "H": _("hearts"), "C": _("clubs"), "D": _("diamonds")},
    # FR-MODE: zones of the cards.
    "zone": {"pile": _("pile"), "discard": _("discard"), "treasure": _("treasure deck"), "deck": _("deck"),
             "dead_mans_hand": _("dead man's hand"), "pending": _("drawn"), "out_of_play": _("out of play"),
             "box": _("the box")},
    # FR-MODE-1: modes.
    "mode": {"normal": _("Normal"), "sin_gestion": _("No management"), "con_desgaste": _("Attrition")},
    # FR-GMB: gambling; FR-EXCH: exchanges.
    "gamble": {"banca": _("The house always wins"), "azar": _("Game of chance"),
               "habilidad": _("Game of skill"), "duelo_bebida": _("drinking duel")},
}
# FR-HLT-1, FR-MOR-1, FR-SOB-1: the levels of the tracks, keyed by the engine's Spanish names.
TERMS["level"] = {
    "Sano": _("Unhurt"), "Herido": _("Wounded"), "Malherido": _("Badly wounded"),
    "Incapacitado": _("Incapacitated"), "Muerto": _("Dead"),
    "Normal": pgettext_lazy("morale level", "Steady"), "Asustado": _("Scared"),
    "Aterrorizado": _("Terrified"), "Paralizado": _("Paralysed"),
    "Sobrio": _("Sober"), "Achispado": _("Tipsy"), "Borracho": _("Drunk"), "En coma": _("In a coma"),
}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}

# The engine's own Spanish display names (rules_characters), read back to their keys.
_ENGINE_NAMES: dict[str, tuple[str, str]] = {}
for _key, _name in rules_characters.TRAIT_NAMES.items():
    _ENGINE_NAMES[_name] = ("trait", _key)
for _key, _name in rules_characters.GROUP_NAMES.items():
    _ENGINE_NAMES[_name] = ("group", _key)
for _skill in rules_characters.SKILLS.values():
    _ENGINE_NAMES[_skill.name] = ("skill", _skill.key)
for _name in TERMS["level"]:
    _ENGINE_NAMES[_name] = ("level", _name)

# Message parameters that carry an internal key of a vocabulary (engine errors, feed lines).
PARAM_VOCABULARY = {
    "technique": "technique", "trait": "trait", "skill": "skill", "skill_trait": "trait", "band": "band",
    "suit": "suit", "track": "track", "special": "special", "group": "group", "cover": "cover",
    "mount": "mount", "mode": "mode", "outcome": "outcome", "kind": "weapon_kind",
}


def both(spanish: str, english: str) -> dict:
    """A name people typed in both languages (a catalogue entry's), as a message parameter: each
    reader reads their language's, or the other where it is empty (:mod:`frontera.messages`)."""
    return {"_es": spanish, "_en": english or spanish}


def in_language(value: dict) -> str:
    """The reader's side of :func:`both`."""
    return value["_en"] if (get_language() or "es").startswith("en") else (value["_es"] or value["_en"])


def name(vocabulary: str, key: str) -> str:
    """``key`` of ``vocabulary`` in the current language; an unknown key is returned as it is."""
    term = TERMS[vocabulary].get(key)
    return str(term) if term is not None else key


def lazy(vocabulary: str, key: str):
    """The lazy name (for labels built at import time), or the key itself if unknown."""
    return TERMS[vocabulary].get(key, key)


def choices(vocabulary: str, keys=None) -> list[tuple[str, Promise]]:
    """``(key, lazy name)`` pairs for a form's choices, in ``keys``' order (all by default)."""
    terms = TERMS[vocabulary]
    return [(k, terms[k]) for k in (keys if keys is not None else terms)]


def suit_text(suit: str) -> str:
    """A suit as a person reads it: its symbol and its name in the page's language ("♠ spades")."""
    return f"{SUIT_SYMBOL[suit]} {gettext(TERMS['suit'][suit])}" if suit in SUIT_SYMBOL else suit


def engine_name(text: str) -> str:
    """One of the engine's Spanish display names (a trait, a skill, a group) in the current language."""
    found = _ENGINE_NAMES.get(text)
    return name(*found) if found else text


def param_text(param: str, value):
    """A message parameter as a person reads it: an internal key of the parameter's vocabulary,
    or one of the engine's Spanish display names, becomes its name in the current language."""
    if not isinstance(value, str):
        return value
    vocabulary = PARAM_VOCABULARY.get(param)
    if vocabulary and value in TERMS[vocabulary]:
        return name(vocabulary, value)
    if value in _ENGINE_NAMES:
        return engine_name(value)
    return value



def money(amount) -> str:
    """Dollars the reader's way: "27 $" in Spanish (as every Spanish feed line and form says them),
    "$27" in English; a negative amount keeps its sign in front ("-5 $", "-$5")."""
    if amount is None or amount == "":
        return ""
    value = int(amount)
    sign = "-" if value < 0 else ""  # as the feed's numbers write it
    # translators: how a sum of dollars is written; %(n)s is the number
    return sign + pgettext("money", "$%(n)s") % {"n": abs(value)}
