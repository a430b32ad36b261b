"""On PostgreSQL the session row lock serialises exchange choices: the player on their phone and
the Mayor acting for them, tapping the same exchange's last step at once, move the cards exactly
once; a banca dealt from two screens at once turns one card (FR-EXCH-2, FR-GMB-2, Design §6)."""

import threading
from collections import Counter

import pytest
from django.db import connection

from frontera.play.models import Exchange, Gamble, GameSession, SessionEvent
from frontera.play.services.exchanges import (
    E_EXCHANGE_CLOSED,
    exchange_choices,
    exchange_choose,
    exchange_start,
)
from frontera.play.services.gambling import banca_begin, banca_deal
from frontera.rules import session as rules_session
from tests.factories import make_table


def _run_together(calls):
    barrier = threading.Barrier(len(calls))
    errors = []

    def run(call):
        try:
            barrier.wait()
            call()
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


@pytest.mark.django_db(transaction=True)
def test_fr_exch_2_concurrent_last_choices_move_the_cards_once():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1"])
    exchange.refresh_from_db()
    # FR-EXCH-7: the winner gives by face (their own deck); the Mayor acting for them, face down
    state = rules_session.Session.from_json(GameSession.objects.get(pk=session.pk).state)
    own = exchange_choices(state, exchange, exchange.first)[1]["value"]
    picks = {p1: [own], mayor: ["#2"]}
    calls = [lambda who=who: exchange_choose(exchange=exchange, by=who, step="give", picks=picks[who])
             for who in (p1, mayor, p1, mayor)]
    errors = _run_together(calls)
    # whoever is first completes it; every later tap is a no-op (same step, same picks) or refused
    assert all(getattr(e, "message", None) is E_EXCHANGE_CLOSED for e in errors), errors
    assert Exchange.objects.get(pk=exchange.pk).status == "done"
    assert SessionEvent.objects.filter(session=session, kind="card", reason="bet").count() == 2
    state = rules_session.Session.from_json(GameSession.objects.get(pk=session.pk).state)
    held = [uid for cards in rules_session.zones(state).values() for uid in cards]
    assert Counter(held) == Counter(rules_session.all_cards(state))


@pytest.mark.django_db(transaction=True)
def test_fr_gmb_2_a_banca_round_dealt_twice_at_once_turns_one_card():
    session, mayor, [(p1, hero)], _ = make_table(players=1, minions=0)
    gamble = banca_begin(session=session, by=mayor, character=hero)
    errors = _run_together([lambda: banca_deal(gamble=gamble, by=mayor, rounds_seen=0) for _ in range(5)])
    assert errors == []
    assert len(Gamble.objects.get(pk=gamble.pk).state["rounds"]) == 1
