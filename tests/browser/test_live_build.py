"""Issue #11: a session page kept open across a deploy reloads itself onto the new pages, unless
the person is in the middle of a form; then it says so and they reload when ready
(static/js/live-regions.js, frontera/live/build.py). The deploy is a restart of the server with
another build (``FRONTERA_BUILD``), as a deployment names its builds; the pages' streams connect
again by themselves, and are greeted with "hello" (nothing happened meanwhile) or "changed" (the
table moved while the server was down)."""

import re
import subprocess
import sys

from tests.browser.conftest import ARTIFACTS, PHONE, shot
from tests.browser.test_session_flow import log_in
from tests.browser.test_ui_race import SETUP
from tests.servers import ROOT, AppServer

BEFORE = "window.__openedBeforeTheDeploy"
CALL = """
from frontera.characters.models import Character
from frontera.play.models import GameSession
from frontera.play.services.checks import check_request
session = GameSession.objects.get(pk={session})
djamal = Character.objects.get(campaign=session.campaign, name="Djamal")
check_request(session=session, by=session.campaign.mayor, characters=[djamal], trait="cabeza")
"""


def test_a_page_kept_open_across_a_deploy_reloads_itself_unless_a_form_is_being_filled(browser, tmp_path):
    env = {"DATABASE_URL": "", "REDIS_URL": "", "SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DEBUG": "false",
           "AXES_FAILURE_LIMIT": "50", "FRONTERA_BUILD": "build-a"}
    server = AppServer(env, ARTIFACTS / "deploy-server.log")
    server.manage("migrate", "--no-input")
    server.start()
    contexts = []
    try:
        out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(tag="dp")], cwd=ROOT,
                             env=server.env, check=True, capture_output=True, text=True).stdout
        session_url = f"/sesiones/{int(out.split()[-1])}/"
        laptop = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server.url, locale="es-ES")
        handset = browser.new_context(viewport=PHONE, base_url=server.url, locale="es-ES", is_mobile=True,
                                      has_touch=True)
        contexts += [laptop, handset]
        mayor, ana = laptop.new_page(), handset.new_page()
        for page, who in ((mayor, "alcalde_dp"), (ana, "ana_dp")):
            page.set_default_timeout(10_000)
            log_in(page, who)
            page.goto(session_url)
            assert page.locator("#live").get_attribute("data-build") == "build-a"
            page.evaluate(f"{BEFORE} = true")
        # the Mayor is calling a check: his dialog is open, a character ticked
        mayor.get_by_test_id("open-check").click()
        mayor.get_by_test_id("dialog").locator("form.call-check").get_by_label("Djamal").check()
        ana.wait_for_timeout(500)  # both streams are open

        server.stop()  # the deploy
        server.env["FRONTERA_BUILD"] = "build-b"
        server.start()

        # the phone reconnects, learns the new build and reloads itself onto it
        ana.wait_for_function(f"() => !{BEFORE} && document.getElementById('live').dataset.build === 'build-b'",
                              timeout=20_000)
        ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).wait_for()  # Clementine's check, as before
        assert ana.get_by_test_id("live-stale").is_hidden()
        shot(ana, "deploy-01-phone-reloaded")
        # the Mayor's page keeps his half-filled form and tells him
        stale = mayor.get_by_test_id("live-stale")
        stale.wait_for(state="visible", timeout=20_000)
        assert mayor.evaluate(f"{BEFORE} === true")
        assert mayor.get_by_test_id("dialog").locator("form.call-check").get_by_label("Djamal").is_checked()
        assert "Esta página ha cambiado desde que la abriste." in stale.inner_text()
        shot(mayor, "deploy-02-mayor-told")
        # once he closes the form, the link reloads his page onto the new build
        mayor.keyboard.press("Escape")
        shot(mayor, "deploy-03-mayor-banner")
        stale.get_by_role("link", name="Recárgala").click()
        mayor.wait_for_function(f"() => !{BEFORE} && document.getElementById('live').dataset.build === 'build-b'")
        assert mayor.get_by_test_id("live-stale").is_hidden()

        # a second deploy, and the Mayor calls a check on Djamal meanwhile (from a shell): the pages
        # come back behind, so their streams' first message is "changed"; it names the build too
        for page in (mayor, ana):
            page.evaluate(f"{BEFORE} = true")
        server.stop()
        subprocess.run([sys.executable, "manage.py", "shell", "-c", CALL.format(session=session_url.split("/")[2])],
                       cwd=ROOT, env=server.env, check=True, capture_output=True)
        server.env["FRONTERA_BUILD"] = "build-c"
        server.start()
        for page in (mayor, ana):
            page.wait_for_function(f"() => !{BEFORE} && document.getElementById('live').dataset.build === 'build-c'",
                                   timeout=20_000)
        ana.locator("#table").get_by_text("Djamal").first.wait_for()  # the check called meanwhile
    finally:
        for context in contexts:
            context.close()
        server.stop()
