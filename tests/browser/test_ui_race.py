"""The live-refresh race (docs/sessions.md, "Live regions"): a push is on screen within a second,
always, and it eats neither a tap, nor the answer to a request on its way, nor a half-filled form.
Live regions morph (htmx's idiomorph extension, static/js/live-regions.js keeps edited fields).

Each test taps once, never again (no ``tap_until``)."""

import re
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.test_session_flow import lock_in, log_in
from tests.servers import ROOT

SETUP = """
from tests.factories import make_campaign, make_protagonist, make_user
from frontera.play.services.checks import check_request
from frontera.play.services.sessions import session_start
mayor = make_user("alcalde_{tag}")
ana, bruno = make_user("ana_{tag}"), make_user("bruno_{tag}")
campaign = make_campaign(mayor, name="Carrera {tag}", players=[ana, bruno])
clementine = make_protagonist(campaign, ana, name="Clementine")
djamal = make_protagonist(campaign, bruno, name="Djamal")
session = session_start(campaign=campaign, by=mayor, characters=[clementine, djamal])
check_request(session=session, by=mayor, characters=[clementine], trait="musculo", skill="agilidad")
print(session.pk)
"""


def _table(browser, app_server, phone, tag):
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(tag=tag)], cwd=ROOT,
                         env=app_server.env, check=True, capture_output=True, text=True).stdout
    session_url = f"/sesiones/{int(out.split()[-1])}/"
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=app_server.url, locale="es-ES")
    laptop.set_default_timeout(10_000)
    mayor = laptop.new_page()
    log_in(mayor, f"alcalde_{tag}")
    mayor.goto(session_url)
    ana = phone()
    log_in(ana, f"ana_{tag}")
    ana.goto(session_url)
    ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).wait_for()
    ana.wait_for_timeout(500)  # the SSE stream is open
    return laptop, mayor, ana


def _call_djamal(mayor, *also: str):
    """The Mayor calls a check on Djamal (and on ``also``): a push to every page of the session. A
    check on Djamal alone shows on Ana's phone among the others' open checks (``#table``); one on
    Clementine too is Ana's own (``#checks``)."""
    mayor.get_by_test_id("open-check").click()  # the forms open on demand, in a dialog (issue #10)
    calls = mayor.get_by_test_id("dialog").locator("form.call-check")
    for name in ("Djamal", *also):
        calls.get_by_label(name).check()
    calls.get_by_label("Rasgo").select_option("cabeza")
    calls.get_by_role("button", name="Pedir la prueba").click()
    mayor.locator("#checks").get_by_text("Djamal").first.wait_for()


def test_a_push_while_the_finger_is_down_shows_at_once_and_does_not_eat_the_tap(browser, app_server, phone):
    """Issue #10: a live region morphs (idiomorph): the push is on screen at once, even under a
    finger, and the button under the finger is the same element, so the tap lands on it."""
    laptop, mayor, ana = _table(browser, app_server, phone, "r1")
    try:
        draw = ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?"))
        draw.scroll_into_view_if_needed()
        box = draw.bounding_box()
        pressed = draw.element_handle()
        ana.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        ana.mouse.down()
        _call_djamal(mayor, "Clementine")  # Ana's own: the region under her finger changes
        # the region under the finger shows the new check within a second, without waiting
        ana.locator("#checks").get_by_text("Djamal").first.wait_for(timeout=1_500)
        assert draw.count() == 2  # the new check's button beside it
        assert pressed.evaluate("el => el.isConnected")  # the button pressed is the same element
        now, x, y = pressed.bounding_box(), box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert now["x"] <= x <= now["x"] + now["width"] and now["y"] <= y <= now["y"] + now["height"]  # under the finger
        ana.mouse.up()  # the tap lands on the button it started on
        ana.locator("#checks .pcard-button").first.wait_for()
        assert ana.locator("#checks .pcard-button").count() >= 1
        shot(ana, "race-01-tap-kept")
    finally:
        laptop.close()


def test_a_push_while_a_request_from_the_region_is_pending_shows_at_once_and_the_answer_follows(
        browser, app_server, phone):
    laptop, mayor, ana = _table(browser, app_server, phone, "r2")
    held = []
    ana.route(re.compile(r".*/participantes/\d+/robar/$"), lambda route: held.append(route))
    try:
        ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).click()
        for _ in range(50):  # the draw is on its way (held by the test: a slow network)
            if held:
                break
            ana.wait_for_timeout(100)
        assert held, "the draw request was not sent"
        _call_djamal(mayor, "Clementine")  # Ana's own: the region of her pending draw changes
        ana.locator("#checks").get_by_text("Djamal").first.wait_for(timeout=1_500)  # at once
        held[0].continue_()
        ana.locator("#checks .pcard-button").first.wait_for()  # the draw's own answer is shown
        assert ana.locator("#checks").get_by_text("Djamal").count() >= 1  # and the push stays
        shot(ana, "race-02-request-kept")
    finally:
        ana.unroute(re.compile(r".*/participantes/\d+/robar/$"))
        laptop.close()


FIGHT = """
from tests.factories import make_campaign, make_minion, make_protagonist, make_user
from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start
from frontera.play.services.sessions import session_start
mayor = make_user("alcalde_{tag}")
ana, bruno = make_user("ana_{tag}"), make_user("bruno_{tag}")
campaign = make_campaign(mayor, name="Duelo {tag}", players=[ana, bruno])
clementine = make_protagonist(campaign, ana, name="Clementine")
djamal = make_protagonist(campaign, bruno, name="Djamal")
bandit = make_minion(campaign, name="Bandido")
session = session_start(campaign=campaign, by=mayor, characters=[clementine, djamal])
combat = combat_start(session=session, by=mayor, fighters=[Fighter(clementine, "a"),
                                                                   Fighter(bandit, "b")])
combat_declare(combat=combat, by=mayor, character=bandit, technique="pelea", target=clementine)
combat_draw(combat=combat, by=mayor, character=bandit)  # NPCs first (FR-CMB-1)
print(session.pk, clementine.pk)
"""


def test_a_push_does_not_wipe_a_declaration_being_filled_in(browser, app_server, phone):
    """A half-filled combat declaration survives a push; sending it shows the region's news."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", FIGHT.format(tag="r3")], cwd=ROOT,
                         env=app_server.env, check=True, capture_output=True, text=True).stdout
    session_pk, hero_pk = (int(x) for x in out.split()[-2:])
    session_url = f"/sesiones/{session_pk}/"
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=app_server.url, locale="es-ES")
    laptop.set_default_timeout(10_000)
    try:
        mayor = laptop.new_page()
        log_in(mayor, "alcalde_r3")
        mayor.goto(session_url)
        ana = phone()
        log_in(ana, "ana_r3")
        ana.goto(session_url)
        ana.get_by_test_id(f"declare-{hero_pk}").wait_for()
        ana.wait_for_timeout(500)  # the SSE stream is open
        # the weapon list follows the technique (issue #10): Pelea offers no weapon, Disparo rápido the revolver
        ana.locator(f"#tech-{hero_pk}").select_option("pelea")
        assert ana.locator(f"#weapon-{hero_pk}").input_value() == ""
        assert ana.locator(f"#weapon-{hero_pk} option[value='revolver']").is_disabled()
        ana.locator(f"#tech-{hero_pk}").select_option("disparo_rapido")
        ana.locator(f"#weapon-{hero_pk}").select_option("revolver")
        ana.locator(f"#mount-{hero_pk}").select_option("trot")
        ana.locator(f"#special-{hero_pk}").select_option("asustar")
        bandit_locked = ana.get_by_test_id("lockstrip").get_by_text(re.compile("Bandido: elegido"))
        assert not bandit_locked.count()
        bandit = mayor.locator("#combat article.fighter").filter(has=mayor.locator("h3", has_text="Bandido"))
        lock_in(mayor, bandit, mayor.get_by_test_id("lockstrip").get_by_text(re.compile("Bandido: elegido")))
        # the push changed the region the form is in: it shows within a second (issue #10)...
        bandit_locked.wait_for(timeout=1_500)
        _call_djamal(mayor)
        ana.get_by_test_id("feed").get_by_text(re.compile("Djamal")).first.wait_for()
        # ...and the form being filled in kept what the player chose
        assert ana.locator(f"#mount-{hero_pk}").input_value() == "trot"
        assert ana.locator(f"#special-{hero_pk}").input_value() == "asustar"
        shot(ana, "race-03-declaration-kept")
        ana.get_by_test_id(f"declare-{hero_pk}").click()
        ana.get_by_test_id(f"declare-{hero_pk}").wait_for(state="detached")  # declared: the form is gone
        # The declaration's answer and the push's refetch both morph #combat (the push now comes
        # first: frontera/live/bus.py). CI once caught the page with two #combat at one instant; the
        # page must settle to one region (this fails if a second one stays) showing the declaration.
        expect(ana.locator("#combat")).to_have_count(1)
        expect(ana.locator("#combat")).to_contain_text("al trote")
    finally:
        laptop.close()


def test_a_refused_action_keeps_its_message_after_a_held_push(browser, app_server, phone):
    """The answer to a request that replaces its region (here a refusal) is not wiped by the
    refresh a push asked for while the form was being filled in."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", FIGHT.format(tag="r4")], cwd=ROOT,
                         env=app_server.env, check=True, capture_output=True, text=True).stdout
    session_pk, hero_pk = (int(x) for x in out.split()[-2:])
    laptop = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=app_server.url, locale="es-ES")
    laptop.set_default_timeout(10_000)
    try:
        mayor = laptop.new_page()
        log_in(mayor, "alcalde_r4")
        mayor.goto(f"/sesiones/{session_pk}/")
        ana = phone()
        log_in(ana, "ana_r4")
        ana.goto(f"/sesiones/{session_pk}/")
        ana.get_by_test_id(f"declare-{hero_pk}").wait_for()
        ana.wait_for_timeout(500)
        # the revolver at largo: refused (the weapon list follows the technique, so the old "Pelea
        # with the revolver" cannot be sent any more)
        ana.locator(f"#tech-{hero_pk}").select_option("disparo_rapido")
        ana.locator(f"#combat select[name^='band_']").first.select_option("largo")
        _call_djamal(mayor)
        ana.get_by_test_id("feed").get_by_text(re.compile("Djamal")).first.wait_for()
        ana.get_by_test_id(f"declare-{hero_pk}").click()
        ana.get_by_test_id("combat-error").wait_for()
        ana.wait_for_timeout(1000)
        assert ana.get_by_test_id("combat-error").count() == 1  # still there: not wiped by a refresh
        shot(ana, "race-04-refusal-kept")
    finally:
        laptop.close()


DUEL = """
from tests.factories import make_campaign, make_protagonist, make_user
from frontera.play.services.duels import pistol_duel_start
from frontera.play.services.sessions import session_start
mayor = make_user("alcalde_{tag}")
ana, bruno = make_user("ana_{tag}"), make_user("bruno_{tag}")
campaign = make_campaign(mayor, name="Duelo {tag}", players=[ana, bruno])
clementine = make_protagonist(campaign, ana, name="Clementine")
djamal = make_protagonist(campaign, bruno, name="Djamal")
session = session_start(campaign=campaign, by=mayor, characters=[clementine, djamal])
pistol_duel_start(session=session, by=mayor, first=clementine, first_weapon="revolver", second=djamal,
                  second_weapon="revolver")
print(session.pk)
"""


def test_after_a_pistol_duel_the_mayors_table_and_feed_tell_the_truth_within_a_second(browser, app_server, phone):
    """Issue #10's stale-duel case: both duellists choose on their phones; within 1.5 s of the
    reveal the Mayor's table and feed say what a fresh page says (the loser's new level, the
    reveal's lines), however the Mayor was using the page meanwhile: a half-filled form in the
    dialog while the players draw, then, the dialog closed, his finger (the mouse button) down on
    the table when the reveal lands, as a Mayor waiting to mark the hit does. The hold-back script
    this replaced (07cb713) kept the table as it was while a pointer was down in it (up to 10 s):
    the loser stayed "Sano" on the Mayor's screen."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", DUEL.format(tag="r5")], cwd=ROOT,
                         env=app_server.env, check=True, capture_output=True, text=True).stdout
    session_url = f"/sesiones/{int(out.split()[-1])}/"
    laptop = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=app_server.url, locale="es-ES")
    laptop.set_default_timeout(10_000)
    try:
        mayor = laptop.new_page()
        log_in(mayor, "alcalde_r5")
        mayor.goto(session_url)
        players = []
        for name in ("ana_r5", "bruno_r5"):
            page = phone()
            log_in(page, name)
            page.goto(session_url)
            page.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).wait_for()
            players.append(page)
        mayor.wait_for_timeout(500)  # the SSE streams are open
        mayor.get_by_test_id("open-check").click()  # the Mayor is busy with a form meanwhile
        mayor.get_by_test_id("dialog").locator("select[name=trait]").select_option("cabeza")
        for page in players:
            page.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).click()
            page.locator("#checks .pcard-button").first.wait_for()
            if page.get_by_label("Palo del joker").count():
                page.get_by_label("Palo del joker").select_option("H")
        players[0].locator("#checks .pcard-button").first.click()
        players[0].locator("#checks .played").first.wait_for()
        assert mayor.get_by_test_id("dialog").locator("select[name=trait]").input_value() == "cabeza"
        mayor.keyboard.press("Escape")  # he leaves the call for later...
        mayor.get_by_test_id("dialog").wait_for(state="hidden")
        card = mayor.locator("#board .char-card", has_text="Clementine").locator(".char-head strong")
        box = card.bounding_box()
        mayor.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        mayor.mouse.down()  # ...and keeps a finger on the table, on a duellist's card, for the outcome
        players[1].locator("#checks .pcard-button").first.click()  # the second choice: the one reveal
        players[1].locator("#checks .outcome").first.wait_for()
        revealed_at = mayor.evaluate("Date.now()")
        truth = laptop.new_page()
        truth.goto(session_url)
        board = truth.locator("#board .cast").inner_text()
        feed = truth.get_by_test_id("feed").inner_text()
        truth.close()
        for _ in range(30):
            if mayor.locator("#board .cast").inner_text() == board and mayor.get_by_test_id("feed").inner_text() == feed:
                break
            mayor.wait_for_timeout(100)
        waited = mayor.evaluate("Date.now()") - revealed_at
        assert mayor.locator("#board .cast").inner_text() == board
        assert mayor.get_by_test_id("feed").inner_text() == feed
        assert waited < 1_500, f"the Mayor's page took {waited} ms to tell the truth"
        shot(mayor, "race-05-duel-truth")
        mayor.mouse.up()
    finally:
        laptop.close()
