"""A joker tapped before its suit is chosen (FR-CARD-2) is not sent: the phone points at the suit
to choose, where the player's finger is, instead of a refusal written at the top of the checks,
off the screen (a walk through a session found the tap doing nothing visible)."""

import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.test_session_flow import log_in
from tests.servers import ROOT

SETUP = """
from tests.factories import make_campaign, make_protagonist, make_user, stack_pile
from frontera.play.services.checks import check_request
from frontera.play.services.sessions import session_start
mayor, ana = make_user("alcalde_jk"), make_user("ana_jk")
campaign = make_campaign(mayor, name="Comodín", players=[ana])
clementine = make_protagonist(campaign, ana, name="Clementine")
session = session_start(campaign=campaign, by=mayor, characters=[clementine])
stack_pile(session, ["1:3S", "1:4S", "1:JK1"])
check_request(session=session, by=mayor, characters=[clementine], trait="cabeza")
print(session.pk)
"""


def test_fr_card_2_a_joker_tapped_without_its_suit_asks_for_the_suit_and_sends_nothing(app_server, phone):
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=app_server.env,
                         check=True, capture_output=True, text=True).stdout
    ana = phone()
    log_in(ana, "ana_jk")
    ana.goto(f"/sesiones/{int(out.split()[-1])}/")
    ana.get_by_role("button", name="Robar 3 cartas").click()
    joker = ana.locator("#checks .pcard-button").filter(has=ana.locator(".pcard.joker"))
    joker.wait_for()
    sent = []
    ana.on("request", lambda request: sent.append(request.url) if request.method == "POST" else None)
    joker.click()
    suit = ana.locator("#checks select[name=suit]")
    ana.wait_for_timeout(300)
    assert sent == []  # nothing sent: the browser asks for the suit first
    assert ana.evaluate("() => document.activeElement.name") == "suit"
    assert suit.evaluate("(select) => select.validity.valueMissing")
    expect(suit).to_be_in_viewport()
    assert "{#" not in ana.locator("#checks").inner_text()  # (a template comment over two lines shows as text)
    shot(ana, "joker-01-suit-asked")
    suit.select_option("D")
    joker.click()
    expect(ana.locator("#checks [data-testid^='outcome-']")).to_be_visible()
    assert len(sent) == 1
