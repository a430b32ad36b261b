"""Issue #11: a push names the regions its change can show in, and a phone refetches only those,
all in one request; a push that names none (a table tool) refreshes every region, so nothing stays
stale."""

import re
from urllib.parse import parse_qs, urlsplit

from tests.browser.conftest import shot
from tests.browser.test_ui_race import _call_djamal, _table


def _fragments(page):
    """The live regions this page fetches from now on, one list per request (``?regions=a,b`` or
    ``?fragment=<name>``)."""
    fetched = []

    def seen(request):
        query = parse_qs(urlsplit(request.url).query, keep_blank_values=True)
        if "regions" in query:
            fetched.append(sorted(query["regions"][-1].split(",")))
        elif "fragment" in query:
            fetched.append(query["fragment"])
    page.on("request", seen)
    return fetched


def _hurt_clementine(mayor, ana):
    """The Mayor's table tool (Salud −1 on Clementine), a push that names no region; returns once
    Ana's phone shows her new Salud."""
    health = ana.locator("#me .trackline li").first
    before = health.inner_text()
    mayor.locator("li.char-card", has_text="Clementine").locator('[data-testid^="hurt-"]').click()
    ana.wait_for_function("([el, text]) => el.innerText !== text", arg=[health.element_handle(), before],
                          timeout=1_500)


def test_a_phone_is_sent_the_regions_a_push_names_with_it_and_fetches_every_region_otherwise(
        browser, app_server, phone):
    """Issue #11: the regions a push names come with the push, rendered for the phone's player
    (frontera/play/views/pushed.py): the phone shows the Mayor's call without asking for anything. A
    push that names no region (a table tool) is a notice: the phone fetches every region, in one
    request."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg1")
    try:
        fetched = _fragments(ana)
        lines = ana.locator("#feed li").count()
        _call_djamal(mayor)  # a check called: the checks and the feed change, nothing else
        ana.locator("#table").get_by_text("Djamal").first.wait_for(timeout=1_500)
        ana.wait_for_function("([n]) => document.querySelectorAll('#feed li').length > n", arg=[lines],
                              timeout=1_500)  # the feed came with it too
        ana.wait_for_timeout(500)  # any request would have left by now
        assert fetched == [], fetched  # both came with the push
        fetched.clear()
        # a table tool names no region: the phone refreshes them all, its character's Salud included
        _hurt_clementine(mayor, ana)
        ana.wait_for_timeout(500)
        # in one request, the page's live element's: every region, since the push named none
        assert fetched == [["checks", "combat", "feed", "me", "table", "zones"]], fetched
        shot(ana, "regions-01-hurt-shown")
    finally:
        laptop.close()


def _push(page, regions=None):
    """A push as the sse extension hands it to the live element: its message's data names the
    regions (or none: every region)."""
    page.evaluate("""(regions) => {
        const data = {topic: "session", version: 0};
        if (regions !== null) data.regions = regions;
        htmx.trigger(document.getElementById("live"), "sse:changed", {data: JSON.stringify(data)});
    }""", regions)


def test_pushes_meanwhile_are_gathered_a_failed_fetch_is_tried_again_and_a_refused_one_is_not(
        browser, app_server, phone):
    """static/js/live-regions.js: a push naming only regions the page does not have asks nothing;
    pushes that come while the live element's request is on its way are fetched together right
    after it, none lost; a request that fails (the server, the network) is tried again with the same
    regions; a refusal (404: the page may not have them any more) is not."""
    laptop, _mayor, ana = _table(browser, app_server, phone, "rg2")
    try:
        fetched = _fragments(ana)
        _push(ana, ["board"])  # the Mayor's table only: nothing on a phone changed
        ana.wait_for_timeout(400)
        assert fetched == [], fetched

        answers = []  # what each of the live element's requests is answered with, in order
        ana.route("**/sesiones/*/?regions=*", lambda route: answers.pop(0)(route) if answers else route.continue_())

        def slow(route):
            ana.wait_for_timeout(600)  # the request is on its way while two more pushes come
            route.continue_()
        answers.append(slow)
        _push(ana, ["checks"])
        ana.wait_for_timeout(150)
        _push(ana, ["me"])
        _push(ana, ["feed"])
        ana.wait_for_timeout(1_200)
        assert fetched == [["checks"], ["feed", "me"]], fetched

        fetched.clear()
        answers.append(lambda route: route.fulfill(status=500, body="down"))
        answers.append(lambda route: route.abort())  # the network: no answer at all
        _push(ana, ["me"])
        ana.wait_for_timeout(2_500)  # tried again after 0.5 s, then after 1 s more
        assert fetched == [["me"], ["me"], ["me"]], fetched
        ana.wait_for_timeout(600)
        assert len(fetched) == 3, fetched  # the third answered: nothing more to fetch

        fetched.clear()
        answers.append(lambda route: route.fulfill(status=404, body="no"))
        _push(ana, ["checks"])
        ana.wait_for_timeout(1_000)
        assert fetched == [["checks"]], fetched
        _push(ana, None)  # the next push fetches what it names (every region), as ever
        ana.wait_for_timeout(400)
        assert fetched == [["checks"], ["checks", "combat", "feed", "me", "table", "zones"]], fetched
    finally:
        laptop.close()


def test_the_page_that_acts_fetches_only_what_the_answer_to_its_action_does_not_bring(browser, app_server, phone):
    """Issue #11: the answer to a page's own action is the region it aimed at, as the action left it,
    with the session's version it shows; the action's push names that region too, and that page
    fetches only the push's other regions. Every other page is sent all the push names with it."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg3")
    try:
        feed = mayor.locator("#feed li")
        lines = feed.count()
        mayor_fetched, ana_fetched = _fragments(mayor), _fragments(ana)
        _call_djamal(mayor)  # the Mayor's answer is his #checks; the push names checks and feed
        ana.locator("#table").get_by_text("Djamal").first.wait_for(timeout=1_500)
        mayor.wait_for_function("([n]) => document.querySelectorAll('#feed li').length > n", arg=[lines],
                                timeout=1_500)  # the feed line of the call, from the push
        mayor.wait_for_timeout(600)  # longer than a region waits for its page's own answer
        assert mayor_fetched == [["feed"]], mayor_fetched
        assert ana_fetched == [], ana_fetched  # the push brought her checks and feed

        mayor_fetched.clear()
        ana_fetched.clear()
        lines = feed.count()
        ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).click()  # the phone's own draw
        ana.locator("#checks .pcard-button").first.wait_for()
        mayor.wait_for_function("([n]) => document.querySelectorAll('#feed li').length > n", arg=[lines],
                                timeout=1_500)  # the draw's line, with the push
        ana.wait_for_timeout(600)
        assert ana_fetched == [["feed", "me", "table", "zones"]], ana_fetched  # its #checks came with the answer
        assert mayor_fetched == [], mayor_fetched  # his board, checks and feed came with the push
        shot(mayor, "regions-02-own-answer")
    finally:
        laptop.close()


def test_the_regions_a_phones_action_sends_the_mayors_page_raise_no_script_error(browser, app_server, phone):
    """Issue #11: the regions a player's draw changes come to the Mayor's page with the push and are
    swapped there with htmx's own swap (static/js/live-regions.js), whose event names no target; the
    dialog's script read that target's id, and every such push threw an error on the Mayor's page."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg10")
    errors = []
    mayor.on("pageerror", lambda error: errors.append(str(error)))
    try:
        fetched = _fragments(mayor)
        lines = mayor.locator("#feed li").count()
        ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).click()
        mayor.wait_for_function("([n]) => document.querySelectorAll('#feed li').length > n", arg=[lines],
                                timeout=1_500)  # the draw's line, with the push
        mayor.locator("#checks").get_by_text(re.compile(r"\d+ cartas? robadas?")).first.wait_for(timeout=1_500)
        mayor.wait_for_timeout(300)
        assert fetched == [], fetched  # it came with the push: swapped by htmx.swap, not by a request
        assert errors == [], errors
    finally:
        laptop.close()


def test_an_answer_older_than_a_push_that_came_with_its_region_has_that_region_fetched_again(
        browser, app_server, phone):
    """Issue #11: another's push came with the phone's #checks at a newer state than the answer to
    the phone's own draw, which then put an older state of #checks back: the phone fetches #checks
    again, so what it shows is never older than what it was sent."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg8")
    try:
        _call_djamal(mayor)
        ana.locator("#table").get_by_text("Djamal").first.wait_for(timeout=1_500)
        ana.wait_for_timeout(300)
        fetched = _fragments(ana)
        # a push from the future came with #checks (empty HTML: nothing swapped)
        ana.evaluate("""() => document.getElementById("live-push").dispatchEvent(new CustomEvent(
            "htmx:sseBeforeMessage", {bubbles: true, cancelable: true,
            detail: {data: JSON.stringify({version: 1e9, regions: ["checks"], html: ""})}}))""")
        ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).click()  # the phone's own draw
        ana.locator("#checks .pcard-button").first.wait_for()
        ana.wait_for_timeout(600)
        assert ["checks"] in fetched, fetched  # fetched again after the older answer
        assert sorted(name for asked in fetched for name in asked) == ["checks", "feed", "me", "table", "zones"], fetched
    finally:
        laptop.close()


FAKE_PUSH_DURING_REFETCH = """() => document.addEventListener("htmx:beforeRequest", (evt) => {
  if (window.__faked || !evt.detail.elt || evt.detail.elt.id !== "live") return;
  window.__faked = true;  // the live element's request is on its way: a push comes with the feed
  setTimeout(() => document.getElementById("live-push").dispatchEvent(new CustomEvent(
    "htmx:sseBeforeMessage", {bubbles: true, cancelable: true,
    detail: {data: JSON.stringify({version: 1e9, regions: ["feed"], html: ""})}})), 0);
})"""


def test_a_refetch_answered_after_a_newer_push_came_with_its_region_has_that_region_fetched_again(
        browser, app_server, phone):
    """Issue #11: the phone's request for every region (a table tool's push names none) is on its
    way when another push comes with the feed at a newer state; the request's answer, read before,
    then puts an older feed back. The phone fetches the feed again, once."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg9")
    try:
        fetched = _fragments(ana)
        ana.evaluate(FAKE_PUSH_DURING_REFETCH)
        _hurt_clementine(mayor, ana)
        ana.wait_for_timeout(800)
        assert ana.evaluate("() => window.__faked") is True
        assert fetched == [["checks", "combat", "feed", "me", "table", "zones"], ["feed"]], fetched  # and no more after it
    finally:
        laptop.close()


RUNNING_ANIMATIONS = "() => document.getAnimations().filter((a) => a.playState === 'running').length"


def test_a_page_at_rest_runs_no_animation_and_the_loading_spinner_turns_only_while_it_shows(
        browser, app_server, phone):
    """Issue #11: the htmx loading indicator's spinner (hidden under opacity 0 between requests)
    turned for ever, so every page drew a frame every 16 ms all evening: CPU that the phones and a
    laptop running seven pages need for the pushes. It turns only while a request is in flight."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg4")
    try:
        for page in (mayor, ana):
            page.wait_for_function(f"() => ({RUNNING_ANIMATIONS})() === 0", timeout=2_000)
            # while a request is in flight htmx marks the indicator: the spinner turns
            page.evaluate("() => document.getElementById('loading').classList.add('htmx-request')")
            assert page.evaluate(RUNNING_ANIMATIONS) >= 1
            page.evaluate("() => document.getElementById('loading').classList.remove('htmx-request')")
            page.wait_for_function(f"() => ({RUNNING_ANIMATIONS})() === 0", timeout=2_000)
    finally:
        laptop.close()


INDICATOR_TIMING = """() => {
  const loading = document.getElementById("loading");
  loading.classList.add("htmx-request");
  const delays = (elt) => elt.getAnimations().map((a) => a.effect.getTiming().delay);
  return {pill: delays(loading), spinner: delays(loading.querySelector(".spinner"))};
}"""


def test_the_loading_pill_shows_only_for_a_request_still_on_its_way_after_300_ms(browser, app_server, phone):
    """Issue #11: the pill faded in and out on every tap, ~20 frames each time on the device that
    needs them for the answer (bench/browser_bench.py: the Mayor's page drew them while the phones
    waited for the CPU). A request answered within 300 ms shows no pill (the tapped button dims at
    once); a slower one shows it, turning."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg7")
    try:
        for page in (mayor, ana):
            timing = page.evaluate(INDICATOR_TIMING)
            assert timing == {"pill": [300], "spinner": [300]}, timing  # the fade-in and the turning wait
            page.wait_for_function(
                "() => getComputedStyle(document.getElementById('loading')).opacity === '1'", timeout=2_000)
            page.evaluate("() => document.getElementById('loading').classList.remove('htmx-request')")
            page.wait_for_function(
                "() => getComputedStyle(document.getElementById('loading')).opacity === '0'", timeout=2_000)
    finally:
        laptop.close()


WATCH_INDICATOR = """() => {
  window.__indicatorShown = false;
  const loading = document.getElementById("loading");
  new MutationObserver(() => {
    if (loading.classList.contains("htmx-request")) window.__indicatorShown = true;
  }).observe(loading, {attributes: true, attributeFilter: ["class"]});
}"""


def test_a_push_refreshes_a_page_without_its_loading_indicator_and_the_pages_own_action_shows_it(
        browser, app_server, phone):
    """Issue #11: the "Loading…" pill is for what the person asked. A push's refetch is the table's
    news, not their request: on every push it faded in and out on every page of the table (about
    20 frames a push on each phone), so it is no longer shown for it. The page's own actions show
    it as before."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg5")
    try:
        ana.evaluate(WATCH_INDICATOR)
        fetched = _fragments(ana)
        _call_djamal(mayor)
        ana.locator("#table").get_by_text("Djamal").first.wait_for(timeout=1_500)
        ana.wait_for_timeout(300)
        assert fetched == [], fetched  # the push came with its regions...
        assert ana.evaluate("() => window.__indicatorShown") is False  # ...and showed no pill
        # a table tool names no region: the phone fetches them all, still without the pill
        _hurt_clementine(mayor, ana)
        ana.wait_for_timeout(300)
        assert fetched == [["checks", "combat", "feed", "me", "table", "zones"]], fetched
        assert ana.evaluate("() => window.__indicatorShown") is False
        ana.get_by_role("button", name=re.compile(r"Robar \d+ cartas?")).click()  # the phone's own action
        ana.locator("#checks .pcard-button").first.wait_for()
        assert ana.evaluate("() => window.__indicatorShown") is True
    finally:
        laptop.close()


def test_a_push_adds_its_line_to_the_feed_and_leaves_the_lines_already_shown_as_they_were(
        browser, app_server, phone):
    """Issue #11: each line of the feed is its own element (its event's id), so the morph of a push
    inserts the new line and keeps the others. Without ids idiomorph matched the lines by position:
    the new line at the top rewrote every line below it, on every page, at every push."""
    laptop, mayor, ana = _table(browser, app_server, phone, "rg6")
    try:
        for page in (mayor, ana):  # each line shown now, with its text
            page.evaluate("""() => { window.__lines = [...document.querySelectorAll('#feed li')]
                .map((li) => [li, li.textContent]); }""")
        lines = ana.locator("#feed li").count()
        _call_djamal(mayor)
        for page in (mayor, ana):
            page.wait_for_function("(n) => document.querySelectorAll('#feed li').length > n", arg=lines,
                                   timeout=2_000)
            page.wait_for_timeout(300)
            kept = page.evaluate("""() => window.__lines.filter(([li, text]) => li.isConnected)
                .map(([li, text]) => li.textContent === text)""")
            assert kept and all(kept), kept  # no line element now shows another line's words
            assert page.locator("#feed li").first.get_attribute("id").startswith("event-")
    finally:
        laptop.close()
