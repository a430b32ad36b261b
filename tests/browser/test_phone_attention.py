"""The phone brings what the table asks of its player into view (static/js/attention.js): a fight's
declaration, taller than the screen, from the fight's heading, not from its middle."""

from tests.browser.conftest import PHONE, set_up, shot
from tests.browser.test_session_flow import log_in

SETUP = """
from tests.factories import make_campaign, make_minion, make_protagonist, make_user
from frontera.play.services.sessions import session_start
mayor = make_user("alcalde_at")
player = make_user("p_at")
campaign = make_campaign(mayor, name="Atención", players=[player])
hero = make_protagonist(campaign, player, name="Clementine")
make_minion(campaign, name="Esbirro")
print(session_start(campaign=campaign, by=mayor, characters=[hero]).pk)
"""


def _in_view(page, selector: str) -> bool:
    return page.evaluate("""s => { const b = document.querySelector(s).getBoundingClientRect();
                                   return b.top >= 0 && b.bottom <= innerHeight; }""", selector)


def _fight_called(app_server, laptop, phone, suffix: str):
    """The player's phone open on the session, and the Mayor's laptop that has just started a fight
    of Clementine against the Esbirro (users ``p<suffix>`` and ``alcalde<suffix>``)."""
    session_url = f"/sesiones/{int(set_up(app_server, SETUP.replace('_at', suffix))[-1])}/"
    player = phone()
    log_in(player, f"p{suffix}")
    player.goto(session_url)
    player.locator("#checks").wait_for()
    mayor = laptop()
    log_in(mayor, f"alcalde{suffix}")
    mayor.goto(session_url)
    mayor.get_by_test_id("open-fight").click()
    form = mayor.get_by_test_id("dialog").locator("form.start-fight")
    form.locator("fieldset").nth(0).get_by_label("Clementine").check()
    form.locator("fieldset").nth(1).get_by_label("Esbirro").check()
    form.get_by_role("button", name="Empezar la pelea").click()
    return player, mayor


def test_a_fight_called_on_a_phone_shows_its_declaration_from_the_fights_heading(app_server, laptop, phone):
    """A walk through a fight found the phone scrolled to the middle of the declaration (centred,
    taller than the screen): its heading and first fields above the screen's top."""
    player, _mayor = _fight_called(app_server, laptop, phone, "_at")
    declaration = player.locator("#combat form.declare")
    declaration.wait_for()
    assert declaration.bounding_box()["height"] > PHONE["height"] / 2  # the case: taller than half the screen
    player.wait_for_function("() => scrollY > 0")
    player.wait_for_timeout(800)  # the smooth scroll's end
    shot(player, "phone-fight-called")
    assert _in_view(player, "#combat h2")  # "Pelea · turno 1"
    assert _in_view(player, "#combat form.declare select[name=technique]")


def test_after_a_declaration_on_the_phone_its_draw_button_comes_into_view(app_server, laptop, phone):
    """A walk's player declared and was left on the deck and the feed, the "Draw" button 510 px
    above the screen: the declaration gave way to the button, so the count of things asked stayed."""
    player, mayor = _fight_called(app_server, laptop, phone, "_dr")
    mayor.get_by_role("link", name="Declarar por Esbirro…").click()
    dialog = mayor.get_by_test_id("dialog")
    dialog.locator("select[name=technique]").select_option("other")
    dialog.get_by_role("button", name="Declarar").click()
    declaration = player.locator("#combat form.declare")
    declaration.wait_for()
    player.wait_for_function("() => !document.querySelector('#combat form.declare button[type=submit]').disabled")
    # only moving: no targets, no special, no patient on the form (a walk found them all still there)
    declaration.locator("select[name=technique]").select_option("move")
    assert declaration.locator("fieldset.targets").is_hidden()
    assert declaration.locator("select[name=special]").is_hidden()
    assert declaration.locator("select[name=patient]").is_hidden()
    declaration.locator("select[name=technique]").select_option("medical")
    assert declaration.locator("select[name=patient]").is_visible()
    declaration.locator("select[name=technique]").select_option("pelea")
    assert declaration.locator("fieldset.targets").is_visible() and declaration.locator("select[name=patient]").is_hidden()
    declaration.get_by_role("checkbox", name="Esbirro").check()
    declaration.get_by_role("button", name="Declarar").click()
    draw = player.locator("#combat button.draw")
    draw.wait_for()
    player.wait_for_timeout(800)  # the smooth scroll's end
    shot(player, "phone-fight-declared")
    assert _in_view(player, "#combat button.draw")
