"""The bonus tables on a phone (390x844), as people use them (issue #13): a Palmera round against a
bot, a PoCoBOT game to its end against a bot, two people playing Boom live in two browser
contexts, a Nismatch turn with the response stack open. axe-core on each table; screenshots in
test-artifacts/screenshots/cardgames-*.png."""

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_accessible, shot
from tests.browser.test_join_campaign import sign_up
from tests.browser.test_live_region_pushes import WATCH_INDICATOR

pytestmark = pytest.mark.browser
TABLE_URL = re.compile(r".*/mesas/mesa/\d+/$")


def _person(phone, name):
    page = phone()
    page.goto("/cuentas/registro/")
    sign_up(page, name)
    page.wait_for_url("**/campanas/")
    return page


def _new_table(page, game, **options):
    """From the game's page: the one-tap form, or the form with options (``seat_1="random"``)."""
    page.goto(f"/mesas/{game}/")
    if not options:
        page.locator("form[data-new-table] button").click()
    else:
        page.get_by_text("Una mesa con otras opciones").click()
        for name, value in options.items():
            page.locator(f"select[name={name}]").select_option(value)
        page.get_by_role("button", name="Crear la mesa").click()
    page.wait_for_url(TABLE_URL)


STATE = "#table > .table-state"  # the live region's content: exactly one, whatever was morphed


def _version(page) -> int:
    return int(page.locator(STATE).get_attribute("data-version"))


def _moved_on(page, before: int, timeout: int = 20_000) -> None:
    """Wait until the table's region shows a version after ``before`` (no eval: the CSP forbids it)."""
    expect(page.locator(STATE)).not_to_have_attribute("data-version", str(before), timeout=timeout)


def _play(page, rng, *, label_matches=None):
    """Tap one legal action (the first whose label matches, or a random one); wait for the answer."""
    forms = page.locator("form[data-legal-action]")
    count = forms.count()
    assert count > 0
    index = rng.randrange(count)
    if label_matches:
        labels = [forms.nth(i).inner_text() for i in range(count)]
        index = next((i for i, text in enumerate(labels) if re.search(label_matches, text)), index)
    before = _version(page)
    form = forms.nth(index)
    _open_sections_around(form)
    form.locator("button").click()
    _moved_on(page, before)


def _open_sections_around(form):
    """What a person does to reach a move in a long list: open its section (and the section of its
    first change), outermost first, by tapping the section's title."""
    sections = form.locator("xpath=ancestor::details")
    for i in range(sections.count()):
        section = sections.nth(i)
        if section.get_attribute("open") is None:
            section.locator(":scope > summary").click()


def _until(page, predicate, rng, limit=400):
    for _ in range(limit):
        if predicate():
            return True
        if page.locator("[data-outcome]").count():
            return False
        # the seat's turn (its moves are on the page; the first may sit in a closed section of a
        # long list, as PoCoBOT's are: _play opens it as a person would), or the end of the game: a
        # bot's last move can arrive after this loop looked for the outcome (the page showed the
        # person's move, pushed before the bot's)
        page.locator("form[data-legal-action], [data-outcome]").first.wait_for(state="attached", timeout=20_000)
        if page.locator("[data-outcome]").count():
            return False
        _play(page, rng)
    return False


def test_a_palmera_round_against_the_strong_bot(phone):
    page = _person(phone, "palmerista")
    _new_table(page, "palmera")  # one tap: against the strong bot
    assert page.get_by_test_id("turn").inner_text().strip().startswith("Tu turno")
    shot(page, "cardgames-palmera-start")
    assert_accessible(page, "cardgames-palmera")
    rng = random.Random(1)
    assert _until(page, lambda: "Ronda 2" in page.locator("#table").inner_text() or page.locator("[data-outcome]").count() > 0,
                  rng) or page.locator("[data-outcome]").count()
    assert "Bot fuerte 2" in page.get_by_test_id("log").inner_text()
    shot(page, "cardgames-palmera-round-over")


def test_a_phone_is_kept_where_the_game_is(phone):
    """A walk through the tables on a phone found the move's buttons 2.5 screens below the turn
    line, and after a move the page left where the player had tapped (on the log, once the buttons
    were gone). The turn line links to the move, and when the turn changes hands the line is
    brought back into view; while the turn stays, nothing moves."""
    page = _person(phone, "palmerista2")
    _new_table(page, "palmera")
    page.get_by_test_id("to-actions").click()
    expect(page.get_by_test_id("actions")).to_be_in_viewport()
    expect(page.get_by_test_id("turn")).not_to_be_in_viewport()
    _play(page, random.Random(3))  # the bot answers: the turn goes to it and comes back
    expect(page.get_by_test_id("turn")).to_contain_text("Tu turno", timeout=20_000)
    expect(page.get_by_test_id("turn")).to_be_in_viewport()
    shot(page, "cardgames-palmera-after-a-move")


def test_a_pocobot_game_to_its_end_against_a_bot(phone):
    page = _person(phone, "mechanica")
    _new_table(page, "pocobot", seat_1="random")
    shot(page, "cardgames-pocobot-start")
    assert_accessible(page, "cardgames-pocobot")
    rng = random.Random(2)
    _until(page, lambda: False, rng, limit=600)
    outcome = page.locator("[data-outcome]")
    assert outcome.count() == 1
    expect(outcome).to_be_in_viewport()  # the result is brought into view (it was off screen at the top)
    shot(page, "cardgames-pocobot-over")
    assert_accessible(page, "cardgames-pocobot-over")
    page.get_by_test_id("replay-link").click()
    page.get_by_test_id("replay-forward").click()
    assert "paso=1" in page.url
    page.get_by_test_id("replay-back").click()
    assert "paso=0" in page.url
    shot(page, "cardgames-pocobot-replay")


def _two_at_boom(phone, first: str, second: str):
    """Two people at one Boom table: the first makes it (the second seat for a person), the second
    joins by its invite link. Returns their pages once the game has started."""
    ana = _person(phone, first)
    _new_table(ana, "boom", seat_1="person")
    link = ana.get_by_test_id("invite-link").input_value()
    bea = _person(phone, second)
    bea.goto(link)
    bea.get_by_test_id("join").get_by_role("button").click()
    bea.wait_for_url(TABLE_URL)
    expect(ana.get_by_test_id("turn")).not_to_contain_text("Esperando a que se sienten", timeout=10_000)
    return ana, bea


def test_two_people_play_boom_live_in_two_browsers(phone):
    ana, bea = _two_at_boom(phone, "ana_boom", "bea_boom")
    ana.evaluate("window.__notReloaded = true")
    bea.evaluate("window.__notReloaded = true")
    rng = random.Random(3)
    for _ in range(6):  # whoever's turn it is moves; the other sees it without reloading
        mover, other = (ana, bea) if ana.locator("form[data-legal-action]").count() else (bea, ana)
        assert mover.locator("form[data-legal-action]").count() > 0
        assert other.locator("form[data-legal-action]").count() == 0
        seen = _version(other)
        _play(mover, rng)
        _moved_on(other, seen, timeout=10_000)
        if mover.locator("[data-outcome]").count():
            break
    assert ana.evaluate("window.__notReloaded") is True and bea.evaluate("window.__notReloaded") is True
    shot(ana, "cardgames-boom-ana")
    shot(bea, "cardgames-boom-bea")
    assert_accessible(bea, "cardgames-boom")


def test_the_other_players_move_shows_no_loading_pill_and_a_players_own_move_does(phone):
    """Issue #11: the "Loading…" pill is for what the person asked. The table's refetch at a push
    (the other player's move) is its own indicator; before, the pill faded in and out on the other
    phone at every move of the game. A move of one's own still shows it."""
    ana, bea = _two_at_boom(phone, "ana_pill", "bea_pill")
    rng = random.Random(5)
    for _ in range(3):
        mover, other = (ana, bea) if ana.locator("form[data-legal-action]").count() else (bea, ana)
        for page in (mover, other):
            page.evaluate(WATCH_INDICATOR)
        seen = _version(other)
        _play(mover, rng)
        _moved_on(other, seen, timeout=10_000)
        other.wait_for_timeout(200)
        assert mover.evaluate("() => window.__indicatorShown") is True  # their own move
        assert other.evaluate("() => window.__indicatorShown") is False  # the push's refetch
        if mover.locator("[data-outcome]").count():
            break


def test_a_nismatch_turn_with_the_stack_open(phone):
    page = _person(phone, "nismatchera")
    _new_table(page, "nismatch", seat_1="random")
    rng = random.Random(4)
    stack = page.locator("section.cg-stack")
    assert _until(page, lambda: stack.count() > 0, rng, limit=300), "no stack opened in the game"
    assert page.locator("form[data-legal-action]").count() > 0, "the stack is open and the player may respond"
    shot(page, "cardgames-nismatch-stack")
    assert_accessible(page, "cardgames-nismatch-stack")
    _play(page, rng, label_matches=r"Pasa|deja que se resuelvan")
    shot(page, "cardgames-nismatch-after-stack")


def test_a_long_pocobot_turn_on_a_phone_is_a_few_taps(phone):
    """Hundreds of moves in one turn: long sections start closed with their count, the two-change
    moves nest by their first change; a person opens the section, then the first change, and taps
    the second. Every move stays its own form (no JavaScript needed)."""
    page = _person(phone, "mecha_larga")
    _new_table(page, "pocobot", seat_1="random")
    rng = random.Random(5)
    big = page.locator("details.action-more").filter(has_text="Dos cambios en un turno")
    nested = big.locator("details.action-sub")
    assert _until(page, lambda: nested.count() > 0, rng, limit=200), "no turn with two-change moves"
    forms = page.locator("form[data-legal-action]")
    total = forms.count()
    summary = big.locator(":scope > summary")
    assert re.fullmatch(r"Dos cambios en un turno\s+\(\d+\)", summary.inner_text().strip())
    count = int(re.search(r"\((\d+)\)", summary.inner_text()).group(1))
    assert count == big.locator("form[data-legal-action]").count()
    assert big.get_attribute("open") is None
    assert page.locator("form[data-legal-action]:visible").count() < total  # the closed ones wait a tap away
    shot(page, "cardgames-pocobot-many-closed")
    summary.click()
    first = nested.first
    assert first.locator(":scope > summary").inner_text().startswith("Primero: ")
    first.locator(":scope > summary").click()
    move = first.locator("form[data-legal-action] button").first
    expect(move).to_be_visible()
    assert move.inner_text().startswith("Luego: ") and move.get_attribute("aria-label")
    shot(page, "cardgames-pocobot-many-open")
    assert_accessible(page, "cardgames-pocobot-many-open")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    before = _version(page)
    move.click()
    _moved_on(page, before)
