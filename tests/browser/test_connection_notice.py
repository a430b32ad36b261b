"""A page says when the server cannot be reached, and when it is back (static/js/connection.js).

A walk through a live session with the server stopped for a few seconds found nothing said: a tap
on the phone did nothing, with no word of it, and every page went on showing the table as it was.
Here the server is stopped and started again as a restart does (``tests.servers.AppServer`` serves
with a graceful stop, as ``scripts/run`` and the deployment do)."""

import re
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, PHONE, shot
from tests.browser.test_session_flow import log_in
from tests.browser.test_ui_race import SETUP
from tests.servers import ROOT, AppServer


def test_a_phone_says_the_server_is_unreachable_and_that_a_tap_may_not_be_done_until_it_is_back(browser, tmp_path):
    env = {"DATABASE_URL": "", "REDIS_URL": "", "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DEBUG": "false",
           "AXES_FAILURE_LIMIT": "50"}
    server = AppServer(env, ARTIFACTS / "connection-server.log")
    server.manage("migrate", "--no-input")
    server.start()
    handset = laptop = None
    try:
        out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(tag="cn")], cwd=ROOT,
                             env=server.env, check=True, capture_output=True, text=True).stdout
        laptop = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server.url, locale="es-ES")
        mayor = laptop.new_page()
        mayor.set_default_timeout(10_000)
        log_in(mayor, "alcalde_cn")
        mayor.goto(f"/sesiones/{int(out.split()[-1])}/")
        mayor.get_by_test_id("open-check").click()  # the Mayor is calling a check: his dialog is open
        call = mayor.get_by_test_id("dialog").locator("form.call-check")
        call.get_by_label("Djamal").check()
        call.get_by_label("Rasgo").select_option("cabeza")
        handset = browser.new_context(viewport=PHONE, base_url=server.url, locale="es-ES", is_mobile=True,
                                      has_touch=True)
        ana = handset.new_page()
        ana.set_default_timeout(10_000)
        log_in(ana, "ana_cn")
        ana.goto(f"/sesiones/{int(out.split()[-1])}/")
        draw = ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?"))
        draw.wait_for()
        notice = ana.get_by_test_id("connection")
        ana.wait_for_timeout(500)  # the stream is open
        expect(notice).to_be_empty()

        server.stop()
        # the stream is down: the page may be behind, and says so where a phone sees it first
        expect(notice).to_contain_text("Sin conexión con el servidor: puede que esta página no esté al día.")
        expect(notice).to_be_in_viewport()
        draw.click()  # a tap that gets no answer
        expect(notice).to_contain_text("No ha llegado respuesta del servidor: puede que no se haya hecho.")
        shot(ana, "connection-01-no-answer")
        # the Mayor's call gets no answer either: said in his dialog, which hides the rest of the page
        call.get_by_role("button", name="Pedir la prueba").click()
        expect(mayor.get_by_test_id("dialog").get_by_test_id("connection")).to_contain_text(
            "No ha llegado respuesta del servidor")
        expect(mayor.get_by_test_id("connection")).to_be_visible()
        shot(mayor, "connection-03-mayor-dialog")

        server.start()
        draw.click()  # tried again once the server is back: answered
        ana.locator("#checks .pcard-button").first.wait_for()
        expect(notice).to_be_empty()  # the tap was answered and the stream is open again
        shot(ana, "connection-02-back")
    finally:
        for context in (handset, laptop):
            if context is not None:
                context.close()
        server.stop()
