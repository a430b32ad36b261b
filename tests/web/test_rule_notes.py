"""The Mayor's "why" says the rules in words (frontera/play/rule_notes.py): every rule of RULINGS.md has
its sentence in both languages, the feed's "why" shows the sentences and no rule ID, and a player's
feed has no "why" at all."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from frontera.play.rule_notes import NOTES
from frontera.play.services.checks import check_request
from frontera.play.views import feed
from tests.factories import make_table
from tests.web.test_language_crawl import findings

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT.parent / "shared" / "RULINGS.md"
RULE_ID = re.compile(r"\bFR-[A-Z]+-\d+\b")
HX = {"HTTP_HX_REQUEST": "true"}


def test_every_rule_of_the_rulings_and_every_rule_the_code_names_has_a_note():
    assert RULINGS.is_file(), f"{RULINGS} is missing: the project is checked with ../shared beside it (README)"
    ruled = re.findall(r"^- (FR-[A-Z]+-\d+) ", RULINGS.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert len(ruled) > 70
    named = {rule for path in (ROOT / "frontera").rglob("*.py") if path.name != "rule_notes.py"
             for rule in RULE_ID.findall(path.read_text(encoding="utf-8"))}
    named |= {rule for path in (ROOT / "templates").rglob("*.html")
              for rule in RULE_ID.findall(path.read_text(encoding="utf-8"))}
    assert set(ruled) == set(NOTES)
    assert named <= set(NOTES), sorted(named - set(NOTES))


def test_every_note_is_said_in_spanish_and_reads_clean_in_both_languages():
    """Each note passes the language crawl's reading: no word of the other language, no internal
    key, card code, suit letters or rule ID, and tú in Spanish."""
    for rule, note in NOTES.items():
        with translation.override("es"):
            spanish = str(note)
        with translation.override("en"):
            english = str(note)
        assert spanish != english, rule
        assert findings(spanish, "es", []) == [] and findings(english, "en", []) == [], (rule, spanish, english)


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("es", "Cartas: rasgo, +2 con habilidad"), ("en", "Cards: trait, +2 with the skill"),
])
def test_the_mayors_why_says_the_rule_and_a_player_has_none(client, language, words):
    """FR-CHK-1 behind a call's line: the Mayor reads what it decides, in his language."""
    session, mayor, seated, _ = make_table(players=1)
    (player, hero), = seated
    check_request(session=session, by=mayor, characters=[hero], trait="manos", modifier=0)
    feed.forget()
    pages = {}
    for who in (mayor, player):
        client.force_login(who)
        answer = client.get(session.get_absolute_url(), {"fragment": "feed"},
                            HTTP_ACCEPT_LANGUAGE=language, **HX)
        assert answer.status_code == 200
        pages[who] = answer.content.decode()
    with translation.override(language):
        said = str(NOTES["FR-CHK-1"])
    assert words in said
    mayors = pages[mayor]
    assert "data-why" in mayors and said in mayors
    visible = re.sub(r'data-rule="[^"]*"', "", mayors)
    assert not RULE_ID.search(visible)
    assert "data-why" not in pages[player] and str(NOTES["FR-CHK-1"]) not in pages[player]
