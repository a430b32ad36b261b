"""On PostgreSQL, four simultaneous submits of one table-tools form (the Mayor's laptop and a
double tap on a tablet) apply the track change exactly once (Design §6: one action per key)."""

import threading

import pytest
from django.db import connection

from frontera.characters.models import Character
from frontera.play.models import ActionKey
from frontera.play.services.table_tools import table_action_once, track_change
from tests.factories import make_table


@pytest.mark.django_db(transaction=True)
def test_fr_hlt_1_simultaneous_submits_of_one_track_change_apply_once():
    session, mayor, seated, _ = make_table(players=1, minions=0)
    _player, hero = seated[0]
    barrier = threading.Barrier(4)
    errors = []

    def submit():
        try:
            barrier.wait()
            table_action_once(
                session=session, request_key="same-tap",
                run=lambda: track_change(session=session, by=mayor, character=Character.objects.get(pk=hero.pk),
                                                  track="health", amount=-1, note=""))
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert Character.objects.get(pk=hero.pk).sheet["tracks"]["health"] == -1
    assert ActionKey.objects.filter(session=session, key="same-tap").count() == 1
