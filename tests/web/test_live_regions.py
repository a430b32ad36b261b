"""Live regions morph (issue #10, docs/sessions.md): htmx's idiomorph extension (vendored, no CDN)
and static/js/live-regions.js are served, loaded by every page after htmx with the page's CSP
nonce, and every live region swaps with ``morph``, so a push never waits and never wipes a form."""

import re

import pytest
from django.urls import reverse

from tests.factories import make_table


@pytest.mark.django_db
def test_the_morph_extension_and_the_live_regions_script_are_served(client):
    morph = client.get("/static/vendor/idiomorph/idiomorph-ext.min.js")
    assert morph.status_code == 200 and "javascript" in morph["Content-Type"]
    assert 'htmx.defineExtension("morph"' in b"".join(morph.streaming_content).decode()
    response = client.get("/static/js/live-regions.js")
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
    body = b"".join(response.streaming_content).decode()
    for needle in ("Idiomorph.defaults", "ignoreActiveValue", "beforeAttributeUpdated", '"htmx:beforeRequest"'):
        assert needle in body, needle
    for gone in ('"htmx:confirm"', '"pointerdown"', "DIRTY_MS"):  # no refresh is held back any more
        assert gone not in body, gone


@pytest.mark.django_db
def test_pages_with_live_regions_load_it_after_htmx_with_the_nonce(client):
    session, mayor, seated, _ = make_table()
    (player, hero), _ = seated
    pages = [(mayor, session.get_absolute_url()), (player, session.get_absolute_url()),
             (player, hero.get_absolute_url()), (player, reverse("campaign_detail", args=[session.campaign_id]))]
    for user, url in pages:
        client.force_login(user)
        response = client.get(url)
        html = response.text
        nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
        tag = re.search(r'<script src="/static/js/live-regions\.js"[^>]*>', html)
        assert tag, url
        assert f'nonce="{nonce}"' in tag.group(0) and "defer" in tag.group(0)
        assert html.index("htmx-2.min.js") < html.index("idiomorph-ext.min.js") < html.index("live-regions.js")
        assert html.index("live-regions.js") < html.index("</head>")
        assert re.search(r'<body[^>]*hx-ext="morph"', html), url
        # the script knows a region by its id (which survives the region's replacement)
        triggered = re.findall(r'<\w+\b[^>]*hx-trigger="sse:[^"]*"[^>]*>', html)
        assert triggered, url
        assert all(re.search(r'\sid="[\w-]+"', tag) for tag in triggered), (url, triggered)
        regions = [tag for tag in triggered if "data-live-regions" not in tag]
        for live in triggered:  # a session page's one live element: its regions swap out of band
            names = re.search(r'data-live-regions="([\w ]+)"', live)
            if names:
                assert 'hx-swap="none"' in live, (url, live)
                regions += [re.search(rf'<\w+\b[^>]*\sid="{name}"[^>]*>', html).group(0)
                            for name in names.group(1).split()]
        assert all('hx-swap="morph"' in region for region in regions), (url, regions)
