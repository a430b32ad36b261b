"""A refused action leaves its form as the person filled it in (static/js/live-regions.js): a walk
through a fight had a lock-in of more cards than allowed refused and found every card unticked, to be
picked again. An action that is done still lets its answer reset the form."""

import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.test_session_flow import log_in
from tests.servers import ROOT

SETUP = """
from tests.factories import make_campaign, make_minion, make_protagonist, make_user
from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start
from frontera.play.services.sessions import session_start
mayor, ana = make_user("alcalde_rk"), make_user("ana_rk")
campaign = make_campaign(mayor, name="Rechazo", players=[ana])
clementine = make_protagonist(campaign, ana, name="Clementine")
bandit = make_minion(campaign, name="Bandido")
session = session_start(campaign=campaign, by=mayor, characters=[clementine])
combat = combat_start(session=session, by=mayor, fighters=[Fighter(clementine, "a"), Fighter(bandit, "b")])
combat_declare(combat=combat, by=mayor, character=bandit, technique="move")
combat_declare(combat=combat, by=ana, character=clementine, technique="pelea", target=bandit)
combat_draw(combat=combat, by=ana, character=clementine)
print(session.pk)
"""


def test_fr_cmb_6_a_refused_lock_in_keeps_the_cards_ticked(app_server, phone):
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=app_server.env,
                         check=True, capture_output=True, text=True).stdout
    ana = phone()
    log_in(ana, "ana_rk")
    ana.goto(f"/sesiones/{int(out.split()[-1])}/")
    picks = ana.locator("#combat input[name=cards]")
    picks.first.wait_for()
    assert picks.count() >= 3
    labels = ana.locator("#combat label.pick")  # a card is ticked by tapping it
    for n in (0, 1, 2):  # Pelea plays up to 2 cards
        labels.nth(n).click()
    ana.locator("#combat [data-testid^='lock-in-']").click()
    expect(ana.get_by_test_id("combat-error")).to_be_visible()  # at most 2
    shot(ana, "refused-01-lock-in-kept")
    assert [picks.nth(n).is_checked() for n in (0, 1, 2)] == [True, True, True]
    labels.nth(2).click()
    ana.locator("#combat [data-testid^='lock-in-']").click()  # now it is done
    expect(ana.locator("#combat input[name=cards]")).to_have_count(0)
