"""A session read in English (issue #12): the crawl's full session (checks, an opposed check, a
fight with declarations, a drink, a threat, an azar night, a bet exchange), opened by a browser
that asks for English — the Mayor's screen at 1280x800 and a player's phone at 390x844. The pages
are in English, show none of the book's Spanish zone words outside the glossary's parentheses,
and pass axe; the history, the catalogue and the sheet are shot too. The screenshots go to
test-artifacts/screenshots/ (CI artifacts)."""

import re
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS, assert_accessible, shot
from tests.factories import PASSWORD
from tests.servers import ROOT

# The shuffles are seeded, as in tests/conftest.py, so the same session is built every time.
SETUP = """
import importlib, itertools, pkgutil, random
import frontera.play.services as services
from frontera.play.services import core
counter = itertools.count()
def seeded_rng():
    seed = 1200 + next(counter)
    return random.Random(seed), seed
for info in pkgutil.iter_modules(services.__path__):
    module = importlib.import_module(f"{services.__name__}.{info.name}")
    if getattr(module, "new_rng", None) is core.new_rng:
        module.new_rng = seeded_rng
from tests.web.language_session import build_table
table = build_table()
print(table.mayor.username, table.players[0].username, table.session.pk, table.session.campaign_id,
      table.characters[0].pk)
"""
SPANISH_ZONES = re.compile(r"\b(montón|mazo|descartes|Tesoro|Salud|Esbirros)\b")


def _log_in(page, username):
    page.goto("/cuentas/entrar/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/campanas/")


def _english(page) -> None:
    assert page.locator("html").get_attribute("lang") == "en"
    text = page.locator("main").inner_text()
    assert not SPANISH_ZONES.search(text), SPANISH_ZONES.search(text).group(0)


def _fits(page) -> None:
    """Nothing wider than the screen: the page does not scroll sideways."""
    wide, screen = page.evaluate("[document.documentElement.scrollWidth, screen.width]")
    assert wide <= screen, f"{page.url}: {wide} px wide on a {screen} px screen"


def test_a_session_in_english_on_the_mayors_laptop_and_a_players_phone(browser, app_server):
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=app_server.env,
                         check=True, capture_output=True, text=True).stdout
    mayor_name, player_name, session_pk, campaign_pk, character_pk = out.split()[-5:]
    url = f"/sesiones/{int(session_pk)}/"

    laptop = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=app_server.url, locale="en-GB")
    phone = browser.new_context(viewport=PHONE, base_url=app_server.url, locale="en-US", is_mobile=True,
                                has_touch=True)
    try:
        for context in (laptop, phone):
            context.set_default_timeout(10_000)
        mayor = laptop.new_page()
        _log_in(mayor, mayor_name)
        mayor.goto(url)
        mayor.get_by_test_id("feed").wait_for()
        _english(mayor)
        assert "thrown weapon" in mayor.get_by_test_id("feed").inner_text()  # not "thrown"
        shot(mayor, "english-mayor-screen-1280x800")
        assert_accessible(mayor, "english-mayor-screen")
        mayor.goto(f"/sesiones/{int(session_pk)}/historial/")
        _english(mayor)
        shot(mayor, "english-history-1280x800")
        mayor.goto(f"/campanas/{int(campaign_pk)}/equipo/")
        _english(mayor)
        shot(mayor, "english-catalogue-1280x800")

        player = phone.new_page()
        _log_in(player, player_name)
        player.goto(url)
        _english(player)
        shot(player, "english-phone-390x844")  # the whole page
        player.screenshot(path=str(SCREENSHOTS / "english-phone-390x844-first-screen.png"))
        assert_accessible(player, "english-phone")
        player.goto(f"/campanas/{int(campaign_pk)}/personajes/{int(character_pk)}/")
        _english(player)
        player.screenshot(path=str(SCREENSHOTS / "english-sheet-390x844-first-screen.png"))
        shot(player, "english-sheet-390x844")
        # English is longer than Spanish: the wizard's steps ("choice needed" badges) and the charts'
        # tables of numbers made the phone's page scroll sideways (a walk on a 390 px screen)
        player.goto(f"/campanas/{int(campaign_pk)}/personajes/nuevo/")
        player.get_by_text("choice needed").first.wait_for()
        _fits(player)
        shot(player, "english-wizard-390x844")
        player.goto(f"/sesiones/{int(session_pk)}/historial/graficos/")
        # the charts are drawn by Chart.js (static/js/history-charts.js), in English, each as wide as
        # the phone and tall enough to read (the hand-drawn SVG before shrank its labels to 6 px)
        expect(player.locator("[data-charts]")).to_have_attribute(
            "data-charts", re.compile(r"^outcomes suits decks( \w+)+$"))
        assert player.evaluate("Chart.getChart(document.getElementById('decks-chart')).options.scales.y.title.text"
                               ) == "Cards in the deck"
        for canvas in player.locator("canvas").all():
            box = canvas.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["height"] >= 150, box
        for summary in player.locator("details.chart-data summary").all():
            summary.click()
        _fits(player)
        shot(player, "english-charts-390x844")
        assert_accessible(player, "english-charts")
    finally:
        laptop.close()
        phone.close()
