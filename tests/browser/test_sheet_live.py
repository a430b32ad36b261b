"""The character sheet follows its character's session live (topic ``sheet:<id>``): the Mayor ends
phase 1 and the player's open sheet shows phase 2 and the deck by suit without a reload
(FR-MODE-5, FR-MODE-7)."""

import re
import subprocess
import sys

from tests.browser.conftest import shot
from tests.browser.test_live_region_pushes import WATCH_INDICATOR
from tests.browser.test_session_flow import log_in
from tests.servers import ROOT

SETUP = """
from tests.factories import make_campaign, make_protagonist, make_user
from frontera.play.services.sessions import session_start
mayor = make_user("alcalde_sheet")
ana = make_user("ana_sheet")
campaign = make_campaign(mayor, name="La hoja en vivo", players=[ana])
clementine = make_protagonist(campaign, ana, name="Clementine")
session = session_start(campaign=campaign, by=mayor, characters=[clementine])
print(session.get_absolute_url(), clementine.get_absolute_url())
"""


def _mayor_and_sheet(browser, app_server, phone, mayor_name, player_name):
    """The Mayor's session on a laptop and the player's open sheet on a phone, its stream open.
    Returns the laptop's context (to close), the Mayor's page, the player's page and their deck."""
    setup = SETUP.replace("alcalde_sheet", mayor_name).replace("ana_sheet", player_name)
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", setup], cwd=ROOT, env=app_server.env,
                         check=True, capture_output=True, text=True).stdout
    session_url, sheet_url = out.split()[-2:]
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=app_server.url, locale="es-ES")
    laptop.set_default_timeout(10_000)
    mayor = laptop.new_page()
    log_in(mayor, mayor_name)
    mayor.goto(session_url)
    ana = phone()
    log_in(ana, player_name)
    ana.goto(sheet_url)
    deck = ana.get_by_test_id("deck-summary")
    deck.get_by_text(re.compile(r"Fase 1 · 8 cartas en el mazo")).wait_for()
    ana.wait_for_timeout(500)  # the SSE stream is open
    return laptop, mayor, ana, deck


def _end_phase_one(mayor) -> None:
    mayor.get_by_test_id("phase-two").click()
    mayor.get_by_test_id("confirm-yes").click()  # ending phase 1 asks first (issue #10)


def test_the_sheet_shows_a_phase_switch_live_FR_MODE_7(browser, app_server, phone):
    laptop, mayor, ana, deck = _mayor_and_sheet(browser, app_server, phone, "alcalde_sheet", "ana_sheet")
    try:
        assert deck.get_by_label("Tu mazo por palos").count() == 0
        _end_phase_one(mayor)
        deck.get_by_text(re.compile(r"Fase 2 · 8 cartas en el mazo")).wait_for()
        deck.get_by_label("Tu mazo por palos").wait_for()
        shot(ana, "sheet-live-phase-2")
    finally:
        laptop.close()


def test_a_push_refreshes_the_open_sheet_without_the_loading_pill(browser, app_server, phone):
    """Issue #11: the sheet's refetch at a push is its own indicator, so the "Loading…" pill does
    not fade in and out on the player's phone at each change of the table."""
    laptop, mayor, ana, deck = _mayor_and_sheet(browser, app_server, phone, "alcalde_pill", "ana_pill_sheet")
    try:
        ana.evaluate(WATCH_INDICATOR)
        _end_phase_one(mayor)
        deck.get_by_text(re.compile(r"Fase 2 · 8 cartas en el mazo")).wait_for()
        ana.wait_for_timeout(200)
        assert ana.evaluate("() => window.__indicatorShown") is False
    finally:
        laptop.close()
