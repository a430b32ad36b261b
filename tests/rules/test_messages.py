"""The engine's messages are whole, translatable sentences: plural forms chosen by a number
(``ngettext`` markers), no English "and" joining a list, no code standing in for a word, no
"themself". These run without Django: the English text is ``str(err)``."""

import importlib
import inspect
import json
import pkgutil
import re

import pytest

import frontera.rules
from frontera.rules import checks, combat, exchanges, session, tracks
from frontera.rules.errors import RulesError, english, ngettext, plural_form, plural_number


def _messages():
    """Every module-level message of the engine: ``E_*`` / ``X_*`` strings (or dicts of them)."""
    for info in pkgutil.iter_modules(frontera.rules.__path__, "frontera.rules."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if re.fullmatch(r"[EX]_[A-Z0-9_]+", name):
                for text in value.values() if isinstance(value, dict) else [value]:
                    if isinstance(text, str):
                        yield f"{info.name}.{name}", text


PLURALS = [
    (tracks.E_DMH_MISSING, {"count": 1}, "Draw 1 card from the dead man's hand."),
    (tracks.E_DMH_MISSING, {"count": 2}, "Draw 2 cards from the dead man's hand."),
    (tracks.E_DMH_COUNT, {"count": 1, "given": 3}, "Draw exactly 1 card from the dead man's hand, not 3."),
    (tracks.E_DMH_COUNT, {"count": 2, "given": 1}, "Draw exactly 2 cards from the dead man's hand, not 1."),
    (combat.E_TOO_MANY_PLAYS, {"key": "k1", "max": 1, "count": 2}, "k1 may play at most 1 card this turn, not 2."),
    (combat.E_TOO_MANY_PLAYS, {"key": "k1", "max": 2, "count": 3}, "k1 may play at most 2 cards this turn, not 3."),
    (exchanges.E_GIVE_COUNT, {"player": "c1", "count": 1, "given": 0}, "c1 must give back 1 card, not 0."),
    (exchanges.E_GIVE_COUNT, {"player": "c1", "count": 2, "given": 1}, "c1 must give back 2 cards, not 1."),
    (session.E_NOT_ENOUGH_CARDS, {"decks": 1, "players": 7},
     "1 deck is not enough to deal 8 cards to each of 7 players: add a deck."),
    (session.E_NOT_ENOUGH_CARDS, {"decks": 2, "players": 13},
     "2 decks are not enough to deal 8 cards to each of 13 players: add a deck."),
]


@pytest.mark.parametrize(("template", "params", "text"), PLURALS)
def test_plural_messages_take_the_english_form_of_their_number(template, params, text):
    assert str(RulesError(template, **params)) == text
    assert english(template, params) == text


def test_a_plural_message_is_its_singular_msgid_and_survives_json():
    """Explanations are stored as JSON (combat state, the session log): the template stays a plain
    string and its plural form is found again from it."""
    template = json.loads(json.dumps(combat.X_SCARE))
    assert type(template) is str and template.endswith("morale level.")
    plural, count = plural_form(template)
    assert plural.endswith("morale levels.") and count == "morale"
    params = {"card": "9♠", "value": 9, "cmp": ">", "confianza": 5}
    assert english(template, {**params, "morale": -1}).endswith("Confianza 5: -1 morale level.")
    assert english(template, {**params, "morale": 0}).endswith("Confianza 5: 0 morale levels.")
    assert plural_form(tracks.E_CANNOT_ACT) is None


def test_damage_explanation_counts_health_levels_FR_CMB_8():
    base = {"card": "K♠", "value": 13, "cmp": ">", "aguante": 6, "aguante_base": 6, "cover_bonus": 0,
            "mount_bonus": 0, "damage": 2, "base": 1, "weapon": 1, "reduction": 0}
    assert english(combat.X_DAMAGE, {**base, "taken": 1}).endswith("= 1 health level.")
    assert english(combat.X_DAMAGE, {**base, "taken": 2}).endswith("= 2 health levels.")


def test_plural_number_is_the_size_and_non_numbers_take_the_plural():
    assert [plural_number(v) for v in (1, -1, 0, 2, True, "1", None)] == [1, 1, 0, 2, 2, 2, 2]


def test_a_singular_cannot_be_marked_with_two_plurals():
    ngettext("%(count)s test thing.", "%(count)s test things.")
    assert ngettext("%(count)s test thing.", "%(count)s test things.") == "%(count)s test thing."
    with pytest.raises(ValueError):
        ngettext("%(count)s test thing.", "%(count)s test thingies.")


def test_fr_hlt_1_fr_mor_2_track_levels_are_named_by_a_whole_sentence_per_track():
    with pytest.raises(RulesError) as err:
        tracks.check_level(tracks.HEALTH, -5)
    assert str(err.value) == "-5 is not a health level (0 to -4)."
    assert "health" not in err.value.template.replace("health level", "")  # no code as a word
    with pytest.raises(RulesError) as err:
        tracks.check_level(tracks.SOBRIETY, 1)
    assert str(err.value) == "1 is not a sobriety level (0 to -3)."
    with pytest.raises(RulesError) as err:
        tracks.morale_recovery_time(0, ["AS"])
    assert str(err.value) == "Normal is the best morale level: there is nothing to recover."


def test_fr_opp_6_roles_are_listed_without_an_english_and():
    with pytest.raises(RulesError) as err:
        checks.morale_consequences("provoke", {"provoker": "win"})
    assert str(err.value) == (
        "The provoke check needs one result (win, loss or tie) for each of its roles: provoker, provoked."
    )


def test_fr_cmb_6_a_fighter_cannot_target_themselves():
    assert combat.E_SELF_TARGET == "%(key)s cannot be their own target."
    assert "themself" not in str(RulesError(combat.E_SELF_TARGET, key="k1"))


def test_no_engine_message_hedges_a_plural_or_says_themself():
    found = list(_messages())
    assert len(found) > 100
    bad = [(name, text) for name, text in found if "(s)" in text or "(es)" in text or "themself" in text]
    assert bad == []


def test_no_engine_message_joins_a_list_with_an_english_and():
    offenders = []
    for info in pkgutil.iter_modules(frontera.rules.__path__, "frontera.rules."):
        source = inspect.getsource(importlib.import_module(info.name))
        offenders += [info.name for _ in re.finditer(r"""["'] (and|or) ["']\.join""", source)]
    assert offenders == []
