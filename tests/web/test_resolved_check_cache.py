"""Issue #11: a resolved check's article is rendered once for what it shows and kept
(templates/play/_checks_list.html), and what comes from the cache is what a fresh rendering gives,
for every viewer: a player's own unplayed cards stay theirs (FR-OPP-1), and a change to what the
article shows (a character's new name) is shown at once."""

import pytest
from django.core.cache import caches

from frontera.characters.models import Character
from frontera.play.services.checks import Entry, check_choose, check_draw, check_request, opposed_request
from frontera.rules.cards import Card
from tests.factories import make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _resolved_opposed():
    """An opposed check between two players, resolved: each drew two or more cards and played one."""
    session, mayor, seated, _ = make_table(players=2)
    (p1, hero), (p2, rival) = seated
    opposed = opposed_request(session=session, by=mayor, entries=[Entry(hero, "musculo", "", 2),
                                                                  Entry(rival, "musculo", "", 2)])
    unplayed = {}
    for part, who in zip(opposed.participants.order_by("pk"), [p1, p2], strict=True):
        part = check_draw(participant=part, by=who)
        assert len(part.drawn) >= 2
        check_choose(participant=part, by=who, card=part.drawn[0], suit="H")
        unplayed[who] = {Card.from_uid(uid).label for uid in part.drawn[1:]} - {"JK"}
    opposed.refresh_from_db()
    assert opposed.status == "resolved"
    return session, mayor, p1, p2, opposed, unplayed


def _checks(client, user, session):
    client.force_login(user)
    answer = client.get(session.get_absolute_url(), {"fragment": "checks"}, **HX)
    assert answer.status_code == 200
    return answer


def test_every_viewer_gets_from_the_cache_what_a_fresh_rendering_gives(client):
    session, mayor, p1, p2, opposed, unplayed = _resolved_opposed()
    viewers = [p1, p2, mayor]
    fresh = {}
    for user in viewers:
        caches["feed"].clear()
        fresh[user] = _checks(client, user, session).text
    caches["feed"].clear()
    for user in viewers + list(reversed(viewers)):  # each after the others have filled the cache
        assert _checks(client, user, session).text == fresh[user], user
    # each player's unplayed cards are in their own article only (not the other player's)
    assert unplayed[p1] - unplayed[p2] and unplayed[p2] - unplayed[p1]
    for label in unplayed[p1] - unplayed[p2]:
        assert f'aria-label="{label}"' not in fresh[p2]
    for label in unplayed[p2] - unplayed[p1]:
        assert f'aria-label="{label}"' not in fresh[p1]
    assert f"check-{opposed.pk}" in fresh[p1] and f"check-{opposed.pk}" in fresh[mayor]


def test_a_resolved_check_is_rendered_once_and_an_open_one_every_time(client):
    session, mayor, p1, *_ = _resolved_opposed()
    caches["feed"].clear()
    first = _checks(client, mayor, session)
    assert [t.name for t in first.templates].count("play/_check.html") == 1
    again = _checks(client, mayor, session)
    assert [t.name for t in again.templates].count("play/_check.html") == 0
    assert again.text == first.text
    hero = Character.objects.get(owner=p1, campaign=session.campaign)
    check_request(session=session, by=mayor, characters=[hero], trait="musculo")
    for _ in range(2):  # the new open check, each time; the resolved one, from the cache
        assert [t.name for t in _checks(client, mayor, session).templates].count("play/_check.html") == 1


def test_what_a_resolved_check_shows_is_shown_as_it_is_now(client):
    session, mayor, p1, *_ = _resolved_opposed()
    before = _checks(client, mayor, session).text
    hero = Character.objects.get(owner=p1, campaign=session.campaign)
    assert hero.name in before
    Character.objects.filter(pk=hero.pk).update(name="Eulalia Renombrada")
    after = _checks(client, mayor, session).text
    assert "Eulalia Renombrada" in after and f"<strong>{hero.name}</strong>" not in after
