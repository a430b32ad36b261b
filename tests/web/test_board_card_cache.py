"""Issue #11: each card of the Mayor's board is rendered once for what it shows and kept
(templates/play/_cast.html); every rendering still gives its one-tap forms this request's own key
and CSRF input ({% stamped %}), so a kept card never repeats another rendering's key (issue #10:
one action per tap), and a card shows at once what changed on it (FR-HLT-1)."""

import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from frontera.play.templatetags.board import CSRF_MARK, TAP_MARK
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
HURT = re.compile(r'<form method="post" action="([^"]+)"[^>]*>(<input type="hidden" name="csrfmiddlewaretoken" '
                  r'value="[^"]+">)<input type="hidden" name="character" value="(\d+)"><input type="hidden" '
                  r'name="action" value="health"><input type="hidden" name="amount" value="-1"><input '
                  r'type="hidden" name="request_key" value="([^"]+)">')


def _board(client, session):
    text = client.get(session.get_absolute_url(), {"fragment": "board"}, **HX).text
    assert TAP_MARK not in text and CSRF_MARK not in text
    return text


def test_each_rendering_gives_the_kept_cards_its_own_tap_key_and_a_working_csrf_input():
    session, mayor, seated, minions = make_table(players=2, minions=1)
    hero = seated[0][1]
    caches["feed"].clear()
    client = Client(enforce_csrf_checks=True)  # the card's CSRF input must be this session's
    client.force_login(mayor)
    first, second = _board(client, session), _board(client, session)  # the second from the kept cards
    forms = [HURT.findall(text) for text in (first, second)]
    assert {int(f[2]) for f in forms[0]} == {h.pk for _, h in seated} | {m.pk for m in minions}
    keys = [{f[3].rsplit("-", 2)[0] for f in found} for found in forms]
    assert len(keys[0]) == len(keys[1]) == 1 and keys[0] != keys[1]  # one key a rendering, a new one each time
    action, csrf_input, _, key = next(f for f in forms[1] if int(f[2]) == hero.pk)
    token = re.search(r'value="([^"]+)"', csrf_input).group(1)
    data = {"csrfmiddlewaretoken": token, "character": hero.pk, "action": "health", "amount": -1, "request_key": key}
    assert client.post(action, data, **HX).status_code == 200
    assert client.post(action, data, **HX).status_code == 200  # the same tap again: one action
    hero.refresh_from_db()
    assert hero.sheet["tracks"]["health"] == -1


def test_a_card_shows_what_changed_on_it_and_the_others_stay_as_they_were(client):
    session, mayor, seated, _ = make_table(players=2, minions=0)
    (_, hero), (_, rival) = seated
    client.force_login(mayor)
    before = _board(client, session)

    def card(text, character):
        return re.search(rf'<li id="char-{character.pk}".*?</li>', text, re.DOTALL).group(0)

    def same(text):  # but for this rendering's own key and CSRF token
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", re.sub(r'value="[0-9a-f]{16}-', "", text))

    url = reverse("play_table_action", args=[session.pk])
    client.post(url, {"character": hero.pk, "action": "health", "amount": -1, "request_key": "t-1"}, **HX)
    after = _board(client, session)
    assert card(after, hero) != card(before, hero)
    assert 'class="lvl-1"' in card(after, hero) and 'class="lvl-1"' not in card(before, hero)  # its Salud
    assert same(card(after, rival)) == same(card(before, rival))
    caches["feed"].clear()
    assert _board(client, session).count('class="char-card') == after.count('class="char-card')
    assert same(card(_board(client, session), hero)) == same(card(after, hero))
