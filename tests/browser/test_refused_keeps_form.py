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


MORPH_EDITED_LIST = """() => {
  const region = document.createElement("div");
  region.id = "zz";
  region.innerHTML = '<form><select name="target"><option value="1">Uno</option><option value="2">Dos</option>' +
    '</select><input name="note" value=""></form>';
  document.body.appendChild(region);
  const select = region.querySelector("select"), note = region.querySelector("input");
  select.value = "2";
  select.dispatchEvent(new Event("change", {bubbles: true}));  // the person chose "Dos" and typed a note
  note.value = "a mano";
  note.dispatchEvent(new Event("input", {bubbles: true}));
  // a push morphs the region: "Uno" left the list, so "Dos" is first and "Tres" second
  htmx.swap(region, '<div id="zz"><form><select name="target"><option value="2">Dos</option>' +
    '<option value="3">Tres</option></select><input name="note" value=""></form></div>', {swapStyle: "morph:outerHTML"},
    {contextElement: region});
  const after = document.getElementById("zz");
  const chosen = after.querySelector("select").selectedOptions[0];
  return {value: chosen.value, text: chosen.textContent, note: after.querySelector("input").value};
}"""


def test_a_morph_keeps_which_option_was_chosen_but_never_an_options_value(app_server, phone):
    """An edited list keeps the option the person chose (by its place: idiomorph matches options so),
    but each option takes the value that comes with its text: what the page shows chosen is what is
    sent. An option's value was kept too, so a list that changed under an edit showed one target
    and sent another; a kept refused form lasts longer now, which made it likelier."""
    page = phone()
    page.goto("/cuentas/entrar/")
    page.wait_for_function("() => window.htmx && window.Idiomorph")
    assert page.evaluate(MORPH_EDITED_LIST) == {"value": "3", "text": "Tres", "note": "a mano"}
