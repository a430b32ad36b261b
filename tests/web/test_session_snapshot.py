"""Issue #11: what every page of a session reads alike at one state (its row, engine state, checks,
gambles, exchanges) is read once for the pages that ask after the same push
(frontera/play/selectors/snapshot.py), and each page still builds its own redacted view from it."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from frontera.play.models import Gamble
from frontera.play.selectors import snapshot
from frontera.play.selectors.core import feed_stamp
from frontera.play.services.checks import check_draw, check_request
from frontera.play.services.exchanges import exchange_start
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _refetch(client, session, regions="checks"):
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(session.get_absolute_url(), {"regions": regions}, **HX)
    assert answer.status_code == 200
    return answer.text, len(queries)


def test_the_pages_of_one_state_read_it_once_and_each_shows_only_its_own_cards(client):
    session, mayor, seated, minions = make_table(players=2, minions=1)
    (p1, hero1), (p2, hero2) = seated
    check = check_request(session=session, by=mayor, characters=[hero1, hero2, minions[0]], trait="manos")
    drawn = check_draw(participant=check.participants.get(character=hero1), by=p1)
    hidden = drawn.drawn  # Ana's hand: hers only
    client.force_login(p1)
    first, read = _refetch(client, session)
    client.force_login(p2)
    second, after = _refetch(client, session)
    client.force_login(mayor)
    third, mayors = _refetch(client, session)
    # the row (with whether a gamble or an exchange is open: none is), the checks (with the
    # withdrawals' owners) and their participants were read once, by the first page: 3 queries
    # fewer for each page after it
    assert read - after == 3, (read, after)
    assert mayors <= read
    # each page from the same snapshot, its own redaction: the hand shows on Ana's phone only
    for uid in hidden:
        assert f'value="{uid}"' in first
        assert f'value="{uid}"' not in second and f'value="{uid}"' not in third


def test_building_every_page_from_a_snapshot_leaves_it_as_it_was_read(client):
    """A snapshot is shared by the threads serving pages: nothing built from it may change it."""
    session, mayor, seated, minions = make_table(players=2, minions=1)
    (p1, hero1), (p2, _hero2) = seated
    check = check_request(session=session, by=mayor, characters=[hero1, minions[0]], trait="sentidos")
    check_draw(participant=check.participants.get(character=hero1), by=p1)
    for user, regions in [(p1, "checks,me,combat,feed"), (p2, "checks,me,combat,feed"),
                          (mayor, "board,checks,combat,feed")]:
        client.force_login(user)
        _refetch(client, session, regions)
    kept = snapshot.session_snapshot(session, feed_stamp(session.pk))
    assert json.dumps(kept.state.to_json(), sort_keys=True) == json.dumps(kept.fields["state"], sort_keys=True)
    session.refresh_from_db()
    assert kept.fields["state"] == session.state


def test_a_new_state_is_read_again_and_shows_the_change(client):
    session, mayor, seated, _minions = make_table(players=1, minions=0)
    (player, hero), = seated
    client.force_login(player)
    before, _ = _refetch(client, session)
    assert "Sentidos" not in before
    check_request(session=session, by=mayor, characters=[hero], trait="sentidos")  # a new state, a push
    after, _ = _refetch(client, session)
    assert "Sentidos" in after


def test_an_actions_checks_answer_reads_the_state_the_refetches_after_its_push_then_share(client):
    """The Mayor's call answers with ``#checks`` built from the snapshot of the state it left: the
    phones asking after that push read nothing of it again, and the answer shows the new check (on
    a phone outside it, among the others' open checks: ``#table``)."""
    session, mayor, seated, _minions = make_table(players=2, minions=0)
    (p1, hero1), (p2, _hero2) = seated
    check_request(session=session, by=mayor, characters=[hero1], trait="manos")
    client.force_login(p2)
    _cold, cold_queries = _refetch(client, session, "table")  # that state's snapshot, read by this page
    client.force_login(mayor)
    answer = client.post(f"{session.get_absolute_url()}pruebas/", {
        "characters": [str(hero1.pk)], "trait": "sentidos", "modifier": 0, "request_key": "snap-1"}, **HX)
    assert answer.status_code == 200 and "Sentidos" in answer.text
    assert int(answer["X-Live-Version"]) == int(feed_stamp(session.pk).split("-")[0])
    client.force_login(p2)
    after, warm_queries = _refetch(client, session, "table")
    assert "Sentidos" in after
    # the row, the checks (with the withdrawals' owners) and their participants: read by the
    # Mayor's answer, not again by the phone
    assert cold_queries - warm_queries == 3, (cold_queries, warm_queries)


def test_an_open_gamble_and_a_pending_exchange_are_read_into_the_snapshot_and_shown(client):
    """The snapshot asks for gambles and exchanges only when its row says one is open: when one is,
    every page built from it shows it (the banca on both phones, the exchange to its chooser)."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    client.force_login(mayor)
    client.post(reverse("play_gamble_new", args=[session.pk]),
                {"kind": "banca", "characters": [hero.pk], "request_key": "snap-banca"}, **HX)
    gamble = Gamble.objects.get(session=session)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    for user in (p1, p2):
        client.force_login(user)
        page, _ = _refetch(client, session)
        assert f'data-testid="banca-{gamble.pk}"' in page
        assert f'data-testid="exchange-{exchange.pk}"' in page
    client.force_login(mayor)
    page, _ = _refetch(client, session)
    assert f'data-testid="banca-{gamble.pk}"' in page and f'data-testid="exchange-{exchange.pk}"' in page
