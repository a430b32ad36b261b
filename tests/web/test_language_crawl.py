"""The two-language crawl (issue #12): every page and fragment of a full session, the wizard, the
sheet, the catalogue, the campaign and account pages, the history and its exports, read in Spanish
and in English. A page fails on any word of the other language (``language_lists``) and on any
internal key: a snake_case word, a bare card or suit code ("QH", "(S, H, C o D)"), or a rule ID
("FR-CMB-6"), the Mayor's "why" included: it says each rule in words.

What a person reads is the page's text plus its aria-label, title, alt, placeholder and button
values; scripts and styles are not read. The names people typed (characters, campaign) are the
same in both languages and are left out before the words are compared."""

import csv
import io
import json
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from frontera.characters.wizard import STEP_KEYS
from frontera.play.forms.checks import OPPOSED_PRESETS
from frontera.play.models import SessionEvent
from frontera.play.views.common import DASHBOARD_FRAGMENTS, PHONE_FRAGMENTS
from frontera.play.views.dialogs import TITLES
from tests.web.language_lists import ENGLISH_ONLY, KEPT_IN_PARENTHESES, PROPER_NOUNS, SPANISH_ONLY, USTED_FORMS
from tests.web.language_session import build_table

pytestmark = pytest.mark.django_db

READ_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
# A card code with a suit letter ("QH", "2:QH"); the joker's "JK" is what its card face shows.
CARD_CODE = re.compile(r"(?<![\w:])(?:[2-9]|10|[JQKA])[SHCD](?!\w)|(?<!\w)\d+:(?:[2-9]|10|[JQKA])[SHCD]\b")
SUIT_LETTERS = re.compile(r"(?<![\w])[SHCD](?:\s*,\s*[SHCD])+(?:,?\s*(?:o|or)\s*[SHCD])?(?![\w])")
RULE_ID = re.compile(r"\bFR-[A-Z]+-\d+")
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)
PARENTHESES = re.compile(r"\(([^()]*)\)")


class _Reader(HTMLParser):
    """Visible text and read attributes of a page, the Mayor's "why" included (it says the rules in
    words), and text marked as another language (``lang="es"`` on the language switch's "ES") left
    out."""

    def __init__(self, language: str = ""):
        super().__init__(convert_charrefs=True)
        self.language = language
        self.text: list[str] = []
        self._skip = 0
        self._stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        foreign = tag != "html" and bool(self.language) and attrs.get("lang", self.language) != self.language
        if tag in ("script", "style") or foreign:
            self._skip += 1
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "wbr", "col", "area", "base", "embed"):
            self._stack.append((tag, foreign))
        if self._skip:
            return
        for name in READ_ATTRIBUTES:
            if attrs.get(name):
                self.text.append(attrs[name])
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.text.append(attrs["value"])

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self._stack and self._stack[-1][0] == tag:
            _tag, foreign = self._stack.pop()
            self._skip -= foreign

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        while self._stack:
            open_tag, foreign = self._stack.pop()
            self._skip = max(0, self._skip - foreign)
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.text.append(data)


def read(html: str, language: str = "") -> str:
    reader = _Reader(language)
    reader.feed(html)
    return "\n".join(reader.text)


def findings(text: str, language: str, names: list[str]) -> list[str]:
    """What is wrong in ``text`` (read by a person) shown in ``language``."""
    found = []
    for pattern, what in ((SNAKE, "internal key"), (CARD_CODE, "card code"), (SUIT_LETTERS, "suit letters"),
                          (RULE_ID, "rule ID")):
        found += [f"{what}: {m.group(0)!r}" for m in pattern.finditer(text)]
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    if language == "en":
        text = PARENTHESES.sub(lambda m: " " if all(w.lower() in KEPT_IN_PARENTHESES for w in WORD.findall(m.group(1)))
                               else m.group(0), text)
    other = SPANISH_ONLY if language == "en" else ENGLISH_ONLY
    words = {w for w in WORD.findall(text) if w.lower() in other and w.lower() not in PROPER_NOUNS}
    found += [f"word of the other language: {w!r}" for w in sorted(words)]
    if language == "es":
        usted = {w for w in WORD.findall(text) if w.lower() in USTED_FORMS}
        found += [f"usted, not tú: {w!r}" for w in sorted(usted)]
    return found


def _client(user, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


def _export_text(url, body: str) -> str:
    """The columns of an export a person reads (the others are machine keys: ids, uids, kinds)."""
    human = ("actor", "card", "from", "to", "reason", "text")
    if url.endswith(".json"):
        rows = json.loads(body)["events"]
    else:
        rows = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
    return "\n".join(str(row[c]) for row in rows for c in human if row[c])


def _urls(table):
    """Every (user, url) a session's people read; fragments and dialogs included."""
    session, campaign = table.session, table.session.campaign
    mayor, players = table.mayor, table.players
    hx = {"HTTP_HX_REQUEST": "true"}
    out = []
    page = reverse("play_session", args=[session.pk])
    out.append((mayor, page, {}))
    out += [(mayor, f"{page}?fragment={f}", hx) for f in sorted(DASHBOARD_FRAGMENTS)]
    out.append((mayor, f"{page}?regions=", hx))  # every live region, as a push makes the page fetch them
    for name in TITLES:
        url = reverse("play_action_form", args=[session.pk, name])
        out += [(mayor, url, {}), (mayor, url, hx)]
    out += [(mayor, reverse("play_action_form", args=[session.pk, "opposed"]) + f"?preset={p}", hx)
            for p in OPPOSED_PRESETS]
    for player in players:
        out.append((player, page, {}))
        out += [(player, f"{page}?fragment={f}", hx) for f in sorted(PHONE_FRAGMENTS)]
        out.append((player, f"{page}?regions=", hx))
    history = reverse("play_history", args=[session.pk])
    cards = list(SessionEvent.objects.filter(session=session, kind="card", reason="played")  # seen by all
                 .values_list("card", flat=True).distinct()[:3])
    for user in (mayor, *players):
        out += [(user, history, {}), (user, reverse("play_history_charts", args=[session.pk]), {}),
                (user, reverse("play_history_csv", args=[session.pk]), {}),
                (user, reverse("play_history_json", args=[session.pk]), {})]
        out += [(user, reverse("play_history_card", args=[session.pk, uid]), {}) for uid in cards]
    out += [(mayor, f"{history}?kind=card", {}), (mayor, f"{history}?kind=decision", {})]
    out += [(mayor, reverse("play_sessions", args=[campaign.pk]), {}),
            (players[0], reverse("play_sessions", args=[campaign.pk]), {})]
    # campaigns
    out += [(mayor, reverse("campaign_list"), {}), (mayor, campaign.get_absolute_url(), {}),
            (players[0], campaign.get_absolute_url(), {})]
    out += [(mayor, f"{campaign.get_absolute_url()}?fragment={f}", hx) for f in ("members", "activity", "invites")]
    # characters: the wizard's steps, sheets, print, edit, the catalogue
    for step in STEP_KEYS:
        out.append((players[0], reverse("character_wizard_step", args=[campaign.pk, step]), {}))
    out += [(mayor, reverse("character_list", args=[campaign.pk]), {}),
            (mayor, reverse("npc_new", args=[campaign.pk]), {})]
    for character, owner in zip(table.characters, players, strict=True):
        for name in ("character_sheet", "character_print", "character_edit"):
            out.append((owner, reverse(name, args=[campaign.pk, character.pk]), {}))
        out.append((mayor, reverse("character_sheet", args=[campaign.pk, character.pk]), {}))
    out.append((mayor, reverse("character_sheet", args=[campaign.pk, table.minion.pk]), {}))
    out += [(mayor, reverse("character_catalogue", args=[campaign.pk]), {}),
            (players[0], reverse("character_catalogue", args=[campaign.pk]), {})]
    # accounts and the bonus tables
    out += [(None, reverse(n), {}) for n in ("login", "signup", "password_reset", "password_reset_done")]
    out += [(mayor, reverse("password_change"), {}), 
            (mayor, reverse("cardgames_index"), {})]
    out += [(mayor, reverse("cardgames_game", args=[game]), {}) for game in ("pocobot", "palmera", "boom", "nismatch")]
    return out


def crawl(language: str) -> tuple[list[str], int]:
    table = build_table()
    campaign = table.session.campaign
    names = ["Clementine", "Djamal", "Esbirro de los Hartley", "En la palmera", campaign.name, "clementine", "djamal",
             *[c.sheet.get("description", "") for c in table.characters if c.sheet.get("description")]]
    names += [u.username for u in (table.mayor, *table.players)]
    clients = {}
    problems, pages = [], 0
    for user, url, headers in _urls(table):
        key = user.pk if user else None
        client = clients.setdefault(key, _client(user, language))
        response = client.get(url, **headers)
        assert response.status_code == 200, (language, url, response.status_code)
        body = response.content.decode()
        pages += 1
        text = _export_text(url, body) if url.endswith((".csv", ".json")) else read(body, language)
        problems += [f"{language} {url}{' (htmx)' if headers else ''}: {f}" for f in findings(text, language, names)]
    return sorted(set(problems)), pages


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_page_of_a_session_reads_in_one_language_without_internal_keys(language):
    problems, pages = crawl(language)
    assert pages > 60
    assert problems == [], f"{len(problems)} findings:\n" + "\n".join(problems)


def test_the_reader_reads_the_why_too_and_finds_a_rule_id_anywhere():
    """The crawl's own reader: the Mayor's "why" is read like the rest (a rule's ID in it, or a word of
    the other language, is a finding); an attribute that is not read (``data-rule``) is not."""
    html = ('<p title="Pile">FR-CHK-1 <b>x</b></p><details data-why><summary>Why</summary>FR-CMB-6'
            '<span data-rule="FR-OPP-1">the mazo</span></details>'
            '<input type="submit" value="Draw"><script>var FR_X = 1;</script><button lang="es">ES</button>')
    text = read(html, "en")
    assert "FR-CHK-1" in text and "FR-CMB-6" in text and "Pile" in text and "Draw" in text
    assert "FR-OPP-1" not in text and "FR_X" not in text and "ES" not in text
    assert findings(text, "en", []) == ["rule ID: 'FR-CHK-1'", "rule ID: 'FR-CMB-6'", "word of the other language: 'mazo'"]
    assert findings("La carta QH (S, H, C o D) disparo_rapido", "es", []) == [
        "internal key: 'disparo_rapido'", "card code: 'QH'", "suit letters: 'S, H, C o D'"]
    assert findings("Pile (montón) of the mazo", "en", []) == ["word of the other language: 'mazo'"]
    assert findings("El montón de the deck", "es", []) == ["word of the other language: 'deck'",
                                                           "word of the other language: 'the'"]
    assert findings("Introduzca su clave", "es", []) == ["usted, not tú: 'Introduzca'"]


def _po_entries(path):
    """(msgid, msgstr) of a .po file; plural entries give their singular forms."""
    entries = []
    for block in path.read_text().split("\n\n"):
        fields, current = {}, None
        for line in block.splitlines():
            m = re.match(r'(msgctxt|msgid|msgid_plural|msgstr(?:\[0\])?) "(.*)"$', line)
            if m:
                current = m.group(1)
                fields[current] = m.group(2)
            elif line.startswith('"') and current:
                fields[current] += line[1:-1]
        if fields.get("msgid"):
            entries.append((fields["msgid"], fields.get("msgstr", fields.get("msgstr[0]", ""))))
    return entries


def test_the_english_catalogue_gives_english_words_for_every_source_string_that_carries_a_book_word():
    """Source strings are English, but some still carry one of the book's words ("Tesoro cards to
    share"): each has an English msgstr in locale/en, and no English msgstr carries a Spanish word
    outside the glossary's parentheses. (Every Spanish msgstr is checked by test_pages.)"""
    from pathlib import Path

    po = Path(__file__).resolve().parents[2] / "locale" / "en" / "LC_MESSAGES" / "django.po"
    placeholder = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
    missing, spanish = [], []
    for msgid, msgstr in _po_entries(po):
        if findings(placeholder.sub(" ", msgid), "en", ["En la palmera"]) and not msgstr:
            missing.append(msgid)
        elif msgstr and (found := findings(placeholder.sub(" ", msgstr), "en", ["En la palmera"])):
            spanish.append((msgstr, found))
    assert missing == []
    assert spanish == []


def _refusals(table) -> list[str]:
    """What people read when the table refuses something, in the active language: a weapon that
    does not fit its technique (the issue's "técnica melee"), a card code and a suit that are not
    one (the issue's "(S, H, C o D)"), a joker played without its suit, a trait that is not one."""
    from frontera.play.models import CombatRound
    from frontera.play.services.combat import combat_declare
    from frontera.play.services.core import SessionError, rules_message
    from frontera.rules.cards import Card
    from frontera.rules.checks import trait_outcome
    from frontera.rules.errors import RulesError

    combat = CombatRound.objects.filter(session=table.session).first()
    clementine, djamal = table.characters
    out = []
    try:  # Djamal's knife is a thrown weapon: not for Aim
        combat_declare(combat=combat, by=table.players[1], character=djamal, technique="apuntar",
                       target=table.minion, band="corto", weapon="cuchillo")
    except SessionError as err:
        out.append(str(err))
    for attempt in (lambda: Card.parse("QX"), lambda: Card.parse("JK").declare("X"),
                    lambda: trait_outcome("JK", "manos"), lambda: trait_outcome("QH", "pies")):
        try:
            attempt()
        except RulesError as err:
            out.append(rules_message(err))
    return out


@pytest.mark.parametrize("language", ["es", "en"])
def test_refusals_read_in_one_language_without_internal_keys(language):
    from django.utils import translation

    table = build_table()
    with translation.override(language):
        messages = _refusals(table)
    assert len(messages) == 5, messages
    problems = [(m, f) for m in messages for f in findings(m, language, ["QX", "X", "pies"])]
    assert problems == []
