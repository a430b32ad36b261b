"""Issue #11: the feed's lines are rendered once each and kept (frontera/play/views/feed.py). What
comes from memory is what a fresh rendering gives, for each side of the table: the Mayor's lines
carry the rules behind them ("why", issue #12), a player's never do; a line is rendered again in
another language; the least recently shown lines are the ones dropped."""

import pytest
from django.utils import translation

from frontera.play.models import SessionEvent
from frontera.play.selectors.core import session_feed
from frontera.play.services.checks import check_request
from frontera.play.views import feed
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _feed(client, user, session) -> str:
    client.force_login(user)
    answer = client.get(session.get_absolute_url(), {"fragment": "feed"}, **HX)
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_kept_line_is_what_a_fresh_rendering_gives_and_never_the_other_sides(client):
    session, mayor, seated, _ = make_table(players=1)
    (player, hero), = seated
    check_request(session=session, by=mayor, characters=[hero], trait="manos", modifier=0)
    fresh_mayor, fresh_player = _feed(client, mayor, session), _feed(client, player, session)
    kept_mayor, kept_player = _feed(client, mayor, session), _feed(client, player, session)
    feed.forget()
    assert (kept_mayor, kept_player) == (fresh_mayor, fresh_player)
    assert (_feed(client, player, session), _feed(client, mayor, session)) == (fresh_player, fresh_mayor)
    assert "FR-CHK" in fresh_mayor and "data-why" in fresh_mayor
    assert "FR-" not in fresh_player and "data-why" not in fresh_player


def test_a_line_is_rendered_once_per_language_and_side(client, monkeypatch):
    session, mayor, seated, _ = make_table(players=1)
    (_player, hero), = seated
    check_request(session=session, by=mayor, characters=[hero], trait="manos", modifier=0)
    lines = session_feed(session)
    rendered = []
    real = feed.render_to_string
    monkeypatch.setattr(feed, "render_to_string", lambda *a, **k: rendered.append(a[1]["line"].pk) or real(*a, **k))
    with translation.override("es"):
        spanish = feed.feed_lines(lines, is_mayor=False)
        assert feed.feed_lines(lines, is_mayor=False) == spanish
    assert sorted(rendered) == sorted(line.pk for line in lines)
    with translation.override("en"):  # (a line's text is put in its reader's language once, when first read)
        english = feed.feed_lines(session_feed(session), is_mayor=False)
    with translation.override("es"):
        mayors = feed.feed_lines(session_feed(session), is_mayor=True)
    assert len(rendered) == 3 * len(lines)
    assert english != spanish and mayors != spanish


def test_the_least_recently_shown_lines_are_dropped_first(monkeypatch):
    session, mayor, seated, _ = make_table(players=1)
    (_player, hero), = seated
    for _ in range(3):
        check_request(session=session, by=mayor, characters=[hero], trait="manos", modifier=0)
    lines = session_feed(session)[:3]
    assert all(SessionEvent.objects.get(pk=line.pk).kind == SessionEvent.Kind.DECISION for line in lines)
    monkeypatch.setattr(feed, "LINES_KEPT", 2)
    with translation.override("es"):
        feed.feed_lines(lines[:2], is_mayor=False)  # the first two kept
        feed.feed_lines(lines[:1], is_mayor=False)  # the first shown again: the second is older now
        feed.feed_lines(lines[2:], is_mayor=False)  # a third: the second goes
        kept = {key[0] for key in feed._lines}
    assert kept == {lines[0].pk, lines[2].pk}
