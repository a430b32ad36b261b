"""Engine messages as a person reads them, in Spanish (the default) and English: plural forms by
their number (1 vs 2) through Django's ``ngettext``, a whole sentence per track, roles listed
without an English "and" (frontera.messages)."""

import pytest
from django.utils import translation

from frontera.messages import engine_text, rules_message
from frontera.play.selectors.core import render_message
from frontera.play.services.core import SessionError
from frontera.play.services.sessions import session_start
from frontera.play.services.table_tools import DURATION_LABELS
from frontera.rules import checks, combat, exchanges, session, tracks
from frontera.rules.errors import RulesError
from tests.factories import make_campaign, make_protagonist, make_table, make_user

CASES = [  # template, params, Spanish, English
    (tracks.E_DMH_MISSING, {"count": 1},
     "Roba 1 carta de la mano del hombre muerto.", "Draw 1 card from the dead man's hand."),
    (tracks.E_DMH_MISSING, {"count": 2},
     "Roba 2 cartas de la mano del hombre muerto.", "Draw 2 cards from the dead man's hand."),
    (tracks.E_DMH_COUNT, {"count": 1, "given": 2},
     "Roba exactamente 1 carta de la mano del hombre muerto, no 2.",
     "Draw exactly 1 card from the dead man's hand, not 2."),
    (tracks.E_DMH_COUNT, {"count": 2, "given": 1},
     "Roba exactamente 2 cartas de la mano del hombre muerto, no 1.",
     "Draw exactly 2 cards from the dead man's hand, not 1."),
    (combat.E_TOO_MANY_PLAYS, {"key": "Djamal", "max": 1, "count": 2},
     "Djamal puede jugar como mucho 1 carta este turno, no 2.", "Djamal may play at most 1 card this turn, not 2."),
    (combat.E_TOO_MANY_PLAYS, {"key": "Djamal", "max": 2, "count": 3},
     "Djamal puede jugar como mucho 2 cartas este turno, no 3.", "Djamal may play at most 2 cards this turn, not 3."),
    (exchanges.E_GIVE_COUNT, {"player": "Ana", "count": 1, "given": 0},
     "Ana debe entregar a cambio 1 carta, no 0.", "Ana must give back 1 card, not 0."),
    (exchanges.E_GIVE_COUNT, {"player": "Ana", "count": 2, "given": 1},
     "Ana debe entregar a cambio 2 cartas, no 1.", "Ana must give back 2 cards, not 1."),
    (session.E_NOT_ENOUGH_CARDS, {"decks": 1, "players": 7},
     "Con 1 baraja no se pueden repartir 8 cartas a cada uno de los 7 jugadores: añade una baraja.",
     "1 deck is not enough to deal 8 cards to each of 7 players: add a deck."),
    (session.E_NOT_ENOUGH_CARDS, {"decks": 2, "players": 13},
     "Con 2 barajas no se pueden repartir 8 cartas a cada uno de los 13 jugadores: añade una baraja.",
     "2 decks are not enough to deal 8 cards to each of 13 players: add a deck."),
    (combat.X_SCARE, {"card": "9♠", "value": 9, "cmp": ">", "confianza": 5, "morale": -1},
     "9♠ (9) > Confianza 5: -1 nivel de Moral.", "9♠ (9) > Confidence 5: -1 morale level."),
    (combat.X_SCARE, {"card": "2♠", "value": 2, "cmp": "<", "confianza": 5, "morale": 0},
     "2♠ (2) < Confianza 5: 0 niveles de Moral.", "2♠ (2) < Confidence 5: 0 morale levels."),
    (combat.E_SELF_TARGET, {"key": "Djamal"}, "Djamal no puede ser su propio objetivo.",
     "Djamal cannot be their own target."),
]


# The engine's own text (its msgid) where the English UI says an English word for a book word
# (issue #12: locale/en translates "Confianza" into "Confidence").
ENGINE_TEXT = {"9♠ (9) > Confidence 5: -1 morale level.": "9♠ (9) > Confianza 5: -1 morale level.",
               "2♠ (2) < Confidence 5: 0 morale levels.": "2♠ (2) < Confianza 5: 0 morale levels."}


@pytest.mark.parametrize(("template", "params", "spanish", "english"), CASES)
def test_engine_messages_in_spanish_and_english_with_plural_forms(template, params, spanish, english):
    with translation.override("es"):
        assert engine_text(template, params) == spanish
        assert rules_message(RulesError(template, **params)) == spanish
    with translation.override("en"):
        assert engine_text(template, params) == english
    assert str(RulesError(template, **params)) == ENGINE_TEXT.get(english, english)


DAMAGE = {"card": "K♠", "value": 13, "cmp": ">", "aguante": 6, "aguante_base": 5, "cover_bonus": 1,
          "mount_bonus": 0, "damage": 2, "base": 1, "weapon": 1, "reduction": 0}


@pytest.mark.parametrize(("taken", "spanish", "english"), [
    (1, "= 1 nivel de Salud.", "= 1 health level."),
    (2, "= 2 niveles de Salud.", "= 2 health levels."),
])
def test_fr_cmb_8_damage_explanation_in_the_feed_counts_levels(taken, spanish, english):
    """The feed stores the explanation as a message parameter; it is rendered with its plural."""
    params = {"who": "Djamal", "target": "Esbirro", "explain": {"_msg": combat.X_DAMAGE, **DAMAGE, "taken": taken}}
    with translation.override("es"):
        text = render_message("%(who)s → %(target)s: %(explain)s", params)
        assert text.startswith("Djamal → Esbirro: K♠ (13) > Aguante 6 (5 + 1 cobertura") and text.endswith(spanish)
    with translation.override("en"):
        assert render_message("%(who)s → %(target)s: %(explain)s", params).endswith(english)


def test_fr_hlt_1_track_levels_in_spanish():
    with pytest.raises(RulesError) as err:
        tracks.check_level(tracks.HEALTH, -5)
    with translation.override("es"):
        assert rules_message(err.value) == "-5 no es un nivel de Salud (de 0 a -4)."
    with pytest.raises(RulesError) as err:
        tracks.sobriety_recovery_time(0, aguante=4)
    with translation.override("es"):
        assert rules_message(err.value) == "Sobrio es el mejor nivel de Sobriedad: no hay nada que recuperar."
    with translation.override("en"):
        # issue #12: the level's English name, not the book's Spanish one
        assert rules_message(err.value) == "Sober is the best sobriety level: there is nothing to recover."


def test_fr_opp_6_roles_in_spanish_have_no_english_and():
    with pytest.raises(RulesError) as err:
        checks.morale_consequences("challenge", {})
    with translation.override("es"):
        text = rules_message(err.value)
    assert " and " not in text
    assert text.startswith("La prueba challenge necesita un resultado") and text.endswith(
        "para cada uno de sus papeles: challenger, challenged.")


@pytest.mark.django_db
def test_a_refused_session_start_says_it_in_spanish_with_the_right_plural_FR_CARD_4():
    """1 deck cannot deal 8 cards to 6 protagonists and the Mayor: the message a Mayor reads."""
    players = [make_user() for _ in range(6)]
    campaign = make_campaign(players=players)
    heroes = [make_protagonist(campaign, p) for p in players]
    with translation.override("es"), pytest.raises(SessionError) as err:
        session_start(campaign=campaign, by=campaign.mayor, characters=heroes, decks=1)
    assert str(err.value).startswith("Con 1 baraja no se pueden repartir 8 cartas a cada uno de los 7 jugadores")


@pytest.mark.parametrize(("unit", "n", "spanish", "english"), [
    ("hour", 1, "1 hora", "1 hour"), ("hour", 8, "8 horas", "8 hours"), ("day", 1, "1 día", "1 day"),
    ("day", 3, "3 días", "3 days"), ("month", 1, "1 mes", "1 month"), ("turn", 2, "2 turnos", "2 turns"),
    ("minute", 1, "1 minuto", "1 minute"),
])
def test_fr_hlt_2_recovery_times_in_the_feed_have_plural_forms(unit, n, spanish, english):
    params = {"medical": {"_msg": DURATION_LABELS[unit], "n": n}}
    with translation.override("es"):
        assert render_message("%(medical)s", params) == spanish
    with translation.override("en"):
        assert render_message("%(medical)s", params) == english


def _feed_plurals() -> list[str]:
    """Every message of the web layer marked with the engine's ``ngettext`` (a feed line's template)."""
    import ast
    from pathlib import Path
    found = []
    for path in sorted((Path(__file__).resolve().parents[2] / "frontera").rglob("*.py")):
        tree = ast.parse(path.read_text())
        if not any(isinstance(n, ast.ImportFrom) and n.module == "frontera.rules.errors"
                   and any(a.name == "ngettext" for a in n.names) for n in ast.walk(tree)):
            continue
        found += [node.args[0].value for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ngettext"
                  and node.args and isinstance(node.args[0], ast.Constant)]
    return found


def test_a_plural_feed_line_reads_its_plural_in_a_server_just_started():
    """A server just (re)started showed "Clementine roba 2 carta del montón.": a feed line's plural
    form was known only once the process had itself logged such a line (the message was marked
    inside the function that logs it), and until then the line took its singular. In a fresh
    process that has loaded the site's URLs, as a server has before its first page, every such
    message is known and a stored draw of 2 cards reads "cartas"."""
    import json
    import os
    import subprocess
    import sys
    from tests.servers import ROOT
    messages = _feed_plurals()
    assert len(messages) >= 8
    script = (
        "import json, sys, django; django.setup()\n"
        "from django.urls import get_resolver; get_resolver().url_patterns\n"
        "from django.utils import translation\n"
        "from frontera.play.selectors.core import render_message\n"
        "from frontera.rules.errors import plural_form\n"
        "translation.activate('es')\n"
        "line = render_message('%(who)s draws %(count)s card %(source)s.',\n"
        "                      {'who': 'Clementine', 'count': 2, 'source': {'_msg': 'from the pile'}})\n"
        "print(json.dumps({'unknown': [m for m in json.load(sys.stdin) if plural_form(m) is None], 'line': line}))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "frontera.settings", "DATABASE_URL": "", "REDIS_URL": ""}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, input=json.dumps(messages),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["unknown"] == []
    assert out["line"] == "Clementine roba 2 cartas del montón."


@pytest.mark.django_db
def test_the_tables_words_read_right_in_both_languages():
    """Found in a walk through an evening: "1 punto(s) para la banca", an English page's "Trampa: …"
    and "Moral" where English says Morale."""
    from django.utils.translation import gettext

    from frontera.play.models import SessionEvent
    from frontera.play.services.gambling import N_BANCA_ROUND, banca_begin, banca_deal
    session, mayor, [(_p1, hero), _], _ = make_table(players=2)
    banca_deal(gamble=banca_begin(session=session, by=mayor, character=hero), by=mayor)
    line = SessionEvent.objects.filter(session=session, message=N_BANCA_ROUND).latest("pk")
    for points, es, en in ((1, "1 punto para", "1 point for"), (3, "3 puntos para", "3 points for")):
        params = {**line.params, "points": points}
        with translation.override("es"):
            assert es in render_message(line.message, params)
        with translation.override("en"):
            assert en in render_message(line.message, params) and "(s)" not in render_message(line.message, params)
    with translation.override("en"):
        assert gettext("Trampa: the first caught the second cheating (takes one, gives none)").startswith("Cheat: ")
        assert gettext("Moral: lose or recover levels") == "Morale: lose or recover levels"
        assert gettext("one level of Moral lost") == "one level of Morale lost"
        assert gettext("The loser loses 1 Moral.") == "The loser loses 1 level of Morale."


def test_fr_cmb_8_the_damage_explanation_says_what_aguante_absorbed():
    """A walk through a fight read "daño 1 (1 base + 0 arma) − 2 = 0" and could not tell what the 2
    was: the reduction is what Aguante absorbs (FR-CMB-8). A fight's stored explanation from before
    still reads with its plural."""
    params = {**DAMAGE, "cmp": "=", "reduction": 2, "taken": 0}
    with translation.override("es"):
        assert engine_text(combat.X_DAMAGE, params).endswith("daño 2 (1 base + 1 arma) − 2 absorbido = 0 niveles de Salud.")
        assert engine_text(combat.X_DAMAGE_BEFORE, {**params, "taken": 2}).endswith("= 2 niveles de Salud.")
    with translation.override("en"):
        assert engine_text(combat.X_DAMAGE, params).endswith("− 2 absorbed = 0 health levels.")


@pytest.mark.parametrize(("items", "spanish", "english"), [
    (["Ana"], "Ana", "Ana"),
    (["Ana", "Bea"], "Ana y Bea", "Ana and Bea"),
    (["Ana", "Bea", "Carla"], "Ana, Bea y Carla", "Ana, Bea and Carla"),
    (["Ana", "Isabel"], "Ana e Isabel", "Ana and Isabel"),
    (["Ana", "Hilario"], "Ana e Hilario", "Ana and Hilario"),
    (["Ana", "Iago"], "Ana y Iago", "Ana and Iago"),
])
def test_names_in_a_feed_line_are_joined_the_readers_way(items, spanish, english):
    """A walk through an evening read "Tablas entre Clementine, Djamal": a list of names is joined
    with "y" (or "e" before the sound i) in Spanish and "and" in English."""
    from frontera.messages import names
    params = {"tied": names(items)}
    with translation.override("es"):
        assert engine_text("%(tied)s", params) == spanish
    with translation.override("en"):
        assert engine_text("%(tied)s", params) == english


@pytest.mark.django_db
def test_fr_cmb_1_a_fights_first_line_names_its_sides_the_readers_way():
    """A walk read "Empieza una pelea: Clementine, Djamal vs Esbirro 1, Esbirro 2": each side's
    names are joined as a sentence joins them, and the sides by "contra" / "against"."""
    from frontera.play.models import SessionEvent
    from frontera.play.services.combat import FIGHT_BEGINS, combat_start
    from frontera.play.services.fighters import Fighter

    session, mayor, [(_p1, hero), (_p2, other)], minions = make_table(players=2, minions=2)
    combat_start(session=session, by=mayor, fighters=[Fighter(hero, "posse"), Fighter(other, "posse"),
                                                      *(Fighter(m, "gang") for m in minions)])
    line = SessionEvent.objects.get(session=session, message=FIGHT_BEGINS)
    a, b = f"{hero.name} y {other.name}", f"{minions[0].name} y {minions[1].name}"
    with translation.override("es"):
        assert render_message(line.message, line.params).startswith(f"Empieza una pelea: {a} contra {b}. ")
    with translation.override("en"):
        assert render_message(line.message, line.params).startswith(
            f"A fight begins: {a.replace(' y ', ' and ')} against {b.replace(' y ', ' and ')}. ")
