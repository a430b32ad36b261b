"""The Mayor's screen (issue #10): at 1280x800, with 4 protagonists and 3 NPCs, what is open now,
every character as a compact card and the live feed are on screen without scrolling the page; it
works on a tablet in portrait and on a phone. Screenshots of each go to test-artifacts/screenshots/
(docs/sessions.md shows them); axe-core finds no serious or critical violation."""

import re
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import assert_accessible, set_up, shot
from tests.browser.test_session_flow import log_in
from tests.servers import ROOT

SETUP = """
from tests.factories import make_campaign, make_minion, make_protagonist, make_user
from frontera.play.services.checks import check_request
from frontera.play.services.combat import Fighter, combat_start
from frontera.play.services.sessions import session_start
mayor = make_user("alcalde_{tag}")
players = [make_user(f"p{{n}}_{tag}") for n in range(4)]
campaign = make_campaign(mayor, name="Pantalla {tag}", players=players)
names = ["Clementine", "Djamal", "Policarpo", "Eulalia"]
heroes = [make_protagonist(campaign, p, name=n) for p, n in zip(players, names)]
npcs = [make_minion(campaign, name=n) for n in ("Jeb Hartley", "Sheriff Moody", "Esbirro")]
session = session_start(campaign=campaign, by=mayor, characters=heroes)
check_request(session=session, by=mayor, characters=heroes[:2], trait="sentidos", skill="percepcion",
              label="Huellas en el barro")
combat_start(session=session, by=mayor, fighters=[Fighter(heroes[2], "a"), Fighter(npcs[0], "b")])
print(session.pk)
"""

VIEWPORTS = {"laptop": (1280, 800), "tablet": (768, 1024)}


def _inside(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"] + 1 \
        and box["y"] < size["height"]


def test_the_mayors_screen_at_a_laptop_a_tablet_and_a_phone(browser, app_server, phone):
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(tag="ms")], cwd=ROOT,
                         env=app_server.env, check=True, capture_output=True, text=True).stdout
    session_url = f"/sesiones/{int(out.split()[-1])}/"
    for name, (width, height) in VIEWPORTS.items():
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=app_server.url,
                                      locale="es-ES")
        context.set_default_timeout(10_000)
        try:
            mayor = context.new_page()
            errors = []  # the console's errors (a walk found the favicon's 404 on every page)
            mayor.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            log_in(mayor, "alcalde_ms")
            mayor.goto(session_url)
            cards = mayor.get_by_test_id("seats").locator("li.char-card")
            assert cards.count() == 8  # 4 protagonists, 3 NPCs and minions, the Mayor's cards
            shot(mayor, f"mayor-screen-{name}-{width}x{height}")
            assert_accessible(mayor, f"mayor-screen-{name}")
            assert errors == [], errors
            if name == "laptop":
                # nothing needs the page to scroll: the toolbar, what is open now, every character
                # card and the feed are all on the first screen
                lowest = mayor.evaluate("""() => [...document.querySelectorAll('body *')]
                    .filter(e => e.getBoundingClientRect().bottom > innerHeight + 2 && !e.closest('.dashboard > div'))
                    .map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().bottom))""")
                assert mayor.evaluate("document.documentElement.scrollHeight") <= height + 2, lowest
                assert _inside(mayor, mayor.get_by_test_id("toolbar"))
                assert _inside(mayor, mayor.locator("#checks"))
                assert _inside(mayor, mayor.get_by_test_id("feed"))
                for i in range(cards.count()):
                    box = cards.nth(i).bounding_box()
                    assert box["y"] + box["height"] <= height, (i, box)
                # a call opens a dialog, and the new check shows in the open-now column
                mayor.get_by_test_id("open-check").click()
                dialog = mayor.get_by_test_id("dialog")
                # its button in sight before any scrolling (a walk found it below the fold)
                button = dialog.get_by_test_id("call-check")
                box = button.bounding_box()
                assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
                dialog.locator("form.call-check").get_by_label("Eulalia").check()
                dialog.locator("select[name=trait]").select_option("cabeza")
                shot(mayor, "mayor-screen-laptop-dialog")
                assert_accessible(mayor, "mayor-screen-dialog")
                dialog.get_by_test_id("call-check").dblclick()  # a double click is one check
                dialog.wait_for(state="hidden")
                checks = mayor.locator("#checks article.check-trait")
                checks.filter(has_text="Eulalia").first.wait_for()
                assert checks.filter(has_text="Eulalia").count() == 1
                # the check is in the page from its swap on, and brought into view when the swap
                # has settled (static/js/dialogs.js, which then marks it "fresh"): the position is
                # read after that (read before it, it was below the column's fold in 5 of 60 local runs)
                expect(checks.filter(has_text="Eulalia").first).to_have_class(re.compile(r"\bfresh\b"))
                assert _inside(mayor, checks.filter(has_text="Eulalia").first)
                shot(mayor, "mayor-screen-laptop-after-call")
                # every other page of a session the Mayor meets, axe-checked too
                for path, shot_name in ((session_url + "terminar/", "confirm-end"),
                                        (session_url + "formularios/duel/", "form-page-duel"),
                                        (session_url + "historial/", "history"),
                                        (session_url + "historial/graficos/", "history-charts")):
                    mayor.goto(path)
                    if shot_name == "history-charts":  # drawn (static/js/history-charts.js) before axe reads it
                        expect(mayor.locator("[data-charts]")).to_have_attribute("data-charts", re.compile(r"\bdecks\b"))
                    shot(mayor, f"mayor-screen-{shot_name}")
                    assert_accessible(mayor, f"mayor-screen-{shot_name}")
        finally:
            context.close()
    player = phone()
    log_in(player, "p0_ms")
    player.goto(session_url)
    player.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).wait_for()
    header = player.locator("header.topbar").bounding_box()
    assert header["height"] <= 0.15 * 844, header  # a compact header on the phone
    draw = player.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).bounding_box()
    assert draw["y"] + draw["height"] <= 844  # what is asked of the player is on the first screen
    shot(player, "mayor-screen-phone-390x844")
    assert_accessible(player, "mayor-screen-phone")


def test_the_mayor_withdraws_a_check_and_undoes_a_drink_in_the_browser(browser, app_server):
    """Issue #10, in the browser at 1280x800: withdrawing a check asks first and the check closes as
    withdrawn; a drink given by mistake is undone from the table, and the undo is in the feed."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(tag="wu")], cwd=ROOT,
                         env=app_server.env, check=True, capture_output=True, text=True).stdout
    session_url = f"/sesiones/{int(out.split()[-1])}/"
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=app_server.url, locale="es-ES")
    context.set_default_timeout(10_000)
    try:
        mayor = context.new_page()
        log_in(mayor, "alcalde_wu")
        mayor.goto(session_url)
        check = mayor.locator("#checks article.check-trait").filter(has_text="Huellas en el barro")
        mayor.once("dialog", lambda dialog: dialog.accept())  # "Withdraw this check?"
        check.locator("button[data-testid^='withdraw-']").click()
        mayor.locator("[data-testid^='withdrawn-']").first.wait_for()
        mayor.get_by_test_id("feed").get_by_text(re.compile("El Mayor retira la prueba")).wait_for()
        shot(mayor, "mayor-screen-withdrawn")
        card = mayor.get_by_test_id("seats").locator("li.char-card").filter(has_text="Eulalia")
        card.locator("button[data-testid^='drink-']").click()
        mayor.get_by_test_id("undo").wait_for()
        mayor.get_by_test_id("undo").click()
        mayor.get_by_test_id("feed").get_by_text(re.compile("El Mayor deshace su última acción")).wait_for()
        assert mayor.get_by_test_id("undo").count() == 0
        shot(mayor, "mayor-screen-undone")
        # an undo outrun by a later change (a check called) goes from the page at once: it stayed,
        # and said "the table has moved on" when clicked (a walk through an evening)
        card.locator("button[data-testid^='drink-']").click()
        mayor.get_by_test_id("undo").wait_for()
        card.locator("[data-testid^='check-for-']").click()
        dialog = mayor.get_by_test_id("dialog")
        dialog.locator("select[name=trait]").select_option("cabeza")
        dialog.get_by_test_id("call-check").click()
        dialog.wait_for(state="hidden")
        expect(mayor.get_by_test_id("undo")).to_have_count(0)
    finally:
        context.close()


def test_ending_a_fight_asks_first(browser, app_server):
    """"End the fight" sat beside "Next turn" and ended the fight at one click, for good (a walk
    through a session ended one by mistake); it asks first, as withdrawing one does, and a "no"
    leaves the fight as it was."""
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP.format(tag="ef")], cwd=ROOT,
                         env=app_server.env, check=True, capture_output=True, text=True).stdout
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=app_server.url, locale="es-ES")
    context.set_default_timeout(10_000)
    try:
        mayor = context.new_page()
        log_in(mayor, "alcalde_ef")
        mayor.goto(f"/sesiones/{int(out.split()[-1])}/")
        asked = []

        def answer(dialog, accept):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        mayor.once("dialog", lambda dialog: answer(dialog, False))
        mayor.get_by_test_id("end-fight").click()
        mayor.wait_for_timeout(500)
        assert asked and asked[0].startswith("¿Terminar esta pelea?"), asked
        expect(mayor.get_by_test_id("end-fight")).to_be_visible()  # "no": the fight goes on
        mayor.once("dialog", lambda dialog: answer(dialog, True))
        mayor.get_by_test_id("end-fight").click()
        expect(mayor.get_by_test_id("end-fight")).to_have_count(0)
        assert len(asked) == 2
    finally:
        context.close()


def test_the_tools_dialog_shows_the_fields_of_the_chosen_action(app_server, laptop):
    """The tools dialog showed all its fields whatever the action (metres fallen beside a drink): it
    shows those the chosen action reads, the character and the note always; a value left in a field
    the action does not read (a Salud change of 9, beyond the form's limit) does not stop the form;
    the note ends the action's line in the feed."""
    session_url = f"/sesiones/{int(set_up(app_server, SETUP.format(tag='td'))[-1])}/"
    mayor = laptop()
    log_in(mayor, "alcalde_td")
    mayor.goto(session_url)
    mayor.get_by_test_id("open-tools").click()
    dialog = mayor.get_by_test_id("dialog")
    form = dialog.locator("form.table-action")

    def shown() -> set[str]:
        return set(form.locator("input:visible, select:visible").evaluate_all(
            "els => els.map(e => e.name).filter(n => n)"))

    form.locator("input[name=metres]").wait_for(state="attached")
    expect(form.locator("input[name=metres]")).to_be_hidden()
    assert shown() == {"character", "action", "amount", "note"}
    form.locator("input[name=amount]").fill("9")
    form.locator("select[name=action]").select_option("fall")
    assert shown() == {"character", "action", "metres", "agility", "note"}
    shot(mayor, "mayor-screen-tools-fall")
    form.locator("select[name=action]").select_option("drink")
    assert shown() == {"character", "action", "drinks", "note"}
    form.locator("select[name=character]").select_option(label="Eulalia")
    form.locator("input[name=drinks]").fill("2")
    form.locator("input[name=note]").fill("invita la casa")
    dialog.get_by_test_id("apply-action").click()
    dialog.wait_for(state="hidden")
    feed = mayor.get_by_test_id("feed")
    feed.get_by_text(re.compile(r"Eulalia bebe .*Motivo: invita la casa")).wait_for()
    assert feed.get_by_text("Motivo: invita la casa").count() == 1  # the first drink's line only
    assert mayor.get_by_test_id("undo").count() == 1  # and both drinks are undone as one


FIGHT_SETUP = """
from tests.factories import make_campaign, make_minion, make_protagonist, make_user
from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start
from frontera.play.services.sessions import session_start
mayor = make_user("alcalde_fe")
players = [make_user(f"p{n}_fe") for n in range(3)]
campaign = make_campaign(mayor, name="Pelea fe", players=players)
heroes = [make_protagonist(campaign, p, name=n) for p, n in zip(players, ["Clementine", "Djamal", "Policarpo"])]
minions = [make_minion(campaign, name=n) for n in ("Esbirro", "Jeb Hartley", "Sheriff Moody")]
session = session_start(campaign=campaign, by=mayor, characters=heroes)
combat = combat_start(session=session, by=mayor,
                      fighters=[*(Fighter(h, "a") for h in heroes), *(Fighter(m, "b") for m in minions)])
for minion in minions:
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=heroes[0])
    combat_draw(combat=combat, by=mayor, character=minion)
print(session.pk, minions[-1].pk)
"""


def test_a_refused_lock_in_shows_its_reason_where_the_mayor_looks(app_server, laptop):
    """A walk through a fight picked two cards for a minion that may play one: the refusal was
    written at the top of the fight, above the column's visible part, and nothing seemed to happen."""
    session_pk, minion_pk = (int(x) for x in set_up(app_server, FIGHT_SETUP)[-2:])
    mayor = laptop()
    log_in(mayor, "alcalde_fe")
    mayor.goto(f"/sesiones/{session_pk}/")
    fighter = mayor.get_by_test_id(f"fighter-{minion_pk}")
    picks = fighter.locator("label.pick")
    assert picks.count() >= 2
    picks.nth(0).click()
    picks.nth(1).click()
    fighter.get_by_test_id(f"lock-in-{minion_pk}").click()
    reason = mayor.get_by_test_id("combat-error")
    expect(reason).to_contain_text("como mucho 1 carta")
    mayor.wait_for_timeout(800)  # the smooth scroll's end
    shot(mayor, "mayor-screen-fight-refused")
    box = reason.bounding_box()
    column = mayor.locator(".col-open").bounding_box()
    assert box["y"] >= column["y"] and box["y"] + box["height"] <= min(column["y"] + column["height"], 800), \
        (box, column)
