"""Engine messages in the user's language: the one place the web layer translates a
:class:`~frontera.rules.errors.RulesError` (``template`` + ``params``), an engine explanation or a
logged feed message.

- A template marked with the engine's ``ngettext`` is translated with Django's ``ngettext`` and
  the number in its count parameter, so each language uses its own plural rule.
- A parameter that is itself a message (``{"_msg": msgid, **params}``, the feed's convention) is
  translated first; a number with decimals (``{"_decimal": "7.50"}``, a dollar figure) is written
  the reader's way ("7,50" in Spanish); a list of names (``{"_names": [...]}``) is joined the
  reader's way ("Ana, Bea y Carla"); a parameter that is an internal key of the game's vocabulary (a technique, a
  trait, a suit...) becomes its word in the user's language (:mod:`frontera.glossary`); a list of
  messages is translated item by item and joined with commas.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Mapping
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext, ngettext

import frontera.rules
from frontera.glossary import in_language, param_text
from frontera.rules.errors import RulesError, plural_form, plural_number

# Every engine module, so each plural message is known before any stored template is rendered.
for _module in pkgutil.iter_modules(frontera.rules.__path__, "frontera.rules."):
    importlib.import_module(_module.name)


def engine_text(template: str, params: Mapping[str, object] | None = None) -> str:
    """``template`` translated and formatted with ``params`` (a template with a parameter it
    cannot format is shown unformatted rather than failing the page)."""
    values = {}
    for key, value in (params or {}).items():
        if isinstance(value, Mapping) and "_msg" in value:
            value = engine_text(value["_msg"], {k: v for k, v in value.items() if k != "_msg"})
        elif isinstance(value, Mapping) and "_decimal" in value:
            value = decimal_text(value["_decimal"])
        elif isinstance(value, Mapping) and "_names" in value:
            value = names_text(value["_names"])
        elif isinstance(value, Mapping) and "_es" in value:
            value = in_language(value)
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) and "_msg" in v for v in value):
            value = ", ".join(engine_text(v["_msg"], {k: x for k, x in v.items() if k != "_msg"})
                              for v in value)
        else:  # a stored word: an internal key or the engine's Spanish name becomes the reader's word
            value = param_text(key, value)
        values[key] = value
    form = plural_form(template)
    if form is not None:
        text = ngettext(template, form[0], plural_number(values.get(form[1])))
    else:
        text = gettext(template)
    if not values:
        return text
    try:
        return _contract(text % values)
    except (KeyError, TypeError, ValueError):
        return text


def decimal(value, places: int = 2) -> dict:
    """A number with ``places`` decimals as a logged message's parameter: stored exact ("7.50"),
    written in the reader's language when the message is (:func:`engine_text`)."""
    return {"_decimal": f"{Decimal(str(value)):.{places}f}"}


def names(items) -> dict:
    """Names as a logged message's parameter, joined in the reader's language when the message is
    (:func:`engine_text`): "Ana, Bea y Carla", "Ana, Bea and Carla" (they were joined with commas
    only, "Tablas entre Clementine, Djamal")."""
    return {"_names": [str(item) for item in items]}


# Spanish writes "e" for "y" before a word that starts with the sound i ("Ana e Isabel", "Ana e
# Hilario"), not before a diphthong ("Ana y Iago", "y hielo")
_I_SOUND = re.compile(r"(?i)h?[ií](?![aeouáéóú])")


def names_text(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    rest, last = ", ".join(items[:-1]), items[-1]
    if (get_language() or "").startswith("es") and _I_SOUND.match(last):
        return gettext("%(rest)s e %(last)s") % {"rest": rest, "last": last}
    return gettext("%(rest)s and %(last)s") % {"rest": rest, "last": last}


def decimal_text(stored: str) -> str:
    places = len(stored.partition(".")[2])
    return number_format(Decimal(stored), places)


# Spanish contracts "de el" and "a el" (lower-case article) into "del" and "al"; a message glued
# from parts ("roba de %(source)s" + "el montón") must too. A proper name ("El Paso") keeps its
# capital and is left alone.
_CONTRACTIONS = re.compile(r"\b(de|a) el\b")


def _contract(text: str) -> str:
    if not (get_language() or "").startswith("es"):
        return text
    return _CONTRACTIONS.sub(lambda m: "del" if m.group(1) == "de" else "al", text)


def rules_message(err: RulesError) -> str:
    """A refused engine operation, for the user: ``err``'s message in their language."""
    return engine_text(err.template, err.params)
