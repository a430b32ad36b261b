"""Issue #11: a push names the regions its change can show in, and a phone refetches only those,
all in one request; a push that names none (a table tool) refreshes every region, so nothing stays
stale."""

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


def test_a_phone_refetches_only_the_regions_a_push_names_and_every_region_otherwise(browser, app_server, phone):
    laptop, mayor, ana = _table(browser, app_server, phone, "rg1")
    try:
        fetched = _fragments(ana)
        _call_djamal(mayor)  # a check called: the checks and the feed change, nothing else
        ana.locator("#checks").get_by_text("Djamal").first.wait_for(timeout=1_500)
        ana.wait_for_timeout(500)  # any other refetch would have left by now
        assert fetched == [["checks", "feed"]], fetched  # one push, one request, only what it named
        fetched.clear()
        health = ana.locator("#me .trackline li").first
        before = health.inner_text()
        # a table tool names no region: the phone refreshes them all, its character's Salud included
        mayor.locator("li.char-card", has_text="Clementine").locator('[data-testid^="hurt-"]').click()
        ana.wait_for_function("([el, text]) => el.innerText !== text", arg=[health.element_handle(), before],
                              timeout=1_500)
        ana.wait_for_timeout(500)
        # in one request: htmx's sse extension may hold two listeners for an element after it was
        # processed again, and each used to refetch (static/js/live-regions.js)
        assert fetched == [["checks", "combat", "feed", "me"]], fetched
        shot(ana, "regions-01-hurt-shown")
    finally:
        laptop.close()
