"""On PostgreSQL, simultaneous submits of one of the Mayor's one-button forms (a double click that
beat the button's disabling, the laptop and a tablet) do its action once: the key is checked under
the session's (or, to start a session, the campaign's) row lock (issue #10)."""

import threading

import pytest
from django.db import connection

from frontera.play.models import ActionKey, Check, CombatRound, GameSession
from frontera.play.services.checks import check_request
from frontera.play.services.combat import (
    Fighter,
    combat_declare,
    combat_next_turn,
    combat_reveal,
    combat_start,
)
from frontera.play.services.sessions import session_start
from tests.factories import make_table


def _at_once(submit, n: int = 4) -> list[Exception]:
    barrier, errors = threading.Barrier(n), []

    def run():
        try:
            barrier.wait()
            submit()
        except Exception as exc:  # noqa: BLE001 (reported by the caller)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


@pytest.mark.django_db(transaction=True)
def test_fr_cmb_3_simultaneous_next_turn_submits_move_on_one_turn():
    session, mayor, [(player, hero)], [minion] = make_table(players=1, minions=1)
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(minion, "b")])
    combat_declare(combat=combat, by=mayor, character=minion, technique="move", move_band="adyacente")
    combat_declare(combat=combat, by=player, character=hero, technique="move", move_band="adyacente")
    combat_reveal(combat=combat, by=mayor)
    errors = _at_once(lambda: combat_next_turn(combat=CombatRound.objects.get(pk=combat.pk), by=mayor,
                                               request_key="tap-next"))
    assert errors == []
    assert CombatRound.objects.get(pk=combat.pk).turn == 2
    assert ActionKey.objects.filter(session=session, key="tap-next").count() == 1


@pytest.mark.django_db(transaction=True)
def test_fr_mode_1_simultaneous_start_submits_start_one_session():
    session, mayor, [(_player, hero)], _ = make_table(players=1, minions=0)
    errors = _at_once(lambda: session_start(campaign=session.campaign, by=mayor, characters=[hero],
                                            request_key="start-1"))
    assert errors == []
    assert GameSession.objects.filter(campaign=session.campaign).count() == 2
    assert GameSession.objects.filter(campaign=session.campaign, request_key="start-1").count() == 1


@pytest.mark.django_db(transaction=True)
def test_fr_chk_1_simultaneous_submits_of_one_call_make_one_check():
    """Four submits of one call form at once (issue #10): the first makes the check, the others,
    waiting for the session's lock meanwhile, return it instead of failing on the key's uniqueness
    (issue #11 read the key in the locking statement, whose snapshot predates the first's commit)."""
    session, mayor, [(_player, hero)], _ = make_table(players=1, minions=0)
    made = []
    errors = _at_once(lambda: made.append(check_request(session=GameSession.objects.get(pk=session.pk), by=mayor,
                                                        characters=[hero.pk], trait="manos", request_key="call-1")))
    assert errors == []
    assert Check.objects.filter(session=session).count() == 1
    assert len(made) == 4 and len({c.pk for c in made}) == 1
