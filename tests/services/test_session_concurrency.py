"""On PostgreSQL the session row lock serialises table actions: many phones drawing from the
phase-1 pile at the same instant never get the same card, and the cards are conserved (FR-MODE-4,
Design §6)."""

import threading
from collections import Counter

import pytest
from django.db import connection

from frontera.play.models import GameSession, Participant
from frontera.play.services.checks import check_choose, check_draw, check_request
from frontera.rules import session as rules_session
from tests.factories import make_table


@pytest.mark.django_db(transaction=True)
def test_fr_mode_4_concurrent_draws_from_the_pile_never_share_a_card():
    session, mayor, seated, minions = make_table(players=6, minions=6)
    characters = [c for _, c in seated] + minions
    check = check_request(session=session, by=mayor, characters=characters, trait="manos", modifier=1)
    participants = list(Participant.objects.filter(prueba=check).select_related("character"))
    owners = {c.pk: u for u, c in seated}
    barrier = threading.Barrier(len(participants))
    errors = []

    def draw(participant):
        try:
            barrier.wait()
            check_draw(participant=participant, by=owners.get(participant.character_id, mayor))
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=draw, args=(p,)) for p in participants]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    drawn = [uid for p in Participant.objects.filter(prueba=check) for uid in p.drawn]
    assert len(drawn) == sum(p.cards for p in participants)
    assert len(set(drawn)) == len(drawn)  # no card handed out twice
    state = rules_session.Session.from_json(GameSession.objects.get(pk=session.pk).state)
    pending = [uid for seat in state.pending.values() for entry in seat.values() for uid in entry["cards"]]
    assert Counter(pending) == Counter(drawn)
    held = [uid for cards in rules_session.zones(state).values() for uid in cards]
    assert Counter(held) == Counter(rules_session.all_cards(state))  # the multiset is conserved


@pytest.mark.django_db(transaction=True)
def test_concurrent_double_taps_on_one_card_play_it_once():
    session, mayor, seated, _ = make_table(players=1, minions=0)
    player, hero = seated[0]
    check = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    participant = check_draw(participant=check.participants.get(), by=player)
    card = participant.drawn[0]
    barrier = threading.Barrier(6)
    errors = []

    def tap():
        try:
            barrier.wait()
            check_choose(participant=participant, by=player, card=card, suit="S")
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    from frontera.play.models import SessionEvent

    assert SessionEvent.objects.filter(session=session, kind="card", reason="played").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_table_action_locks_its_session_not_its_campaign():
    """While an action holds its session's row, the campaign's row stays free: another session of
    the campaign and an edit of the campaign do not queue behind it."""
    import psycopg
    from django.db import transaction

    from frontera.campaigns.models import Campaign

    session, *_ = make_table()
    params = {k: v for k, v in connection.get_connection_params().items()
              if k in ("host", "port", "user", "password", "dbname")}
    with transaction.atomic():
        GameSession.objects.row(session.pk, lock=True)
        with psycopg.connect(**params, autocommit=True) as other:
            other.execute("SET lock_timeout = '200ms'")
            other.execute(f"SELECT id FROM {Campaign._meta.db_table} WHERE id = %s FOR UPDATE", (session.campaign_id,))
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute(f"SELECT id FROM {GameSession._meta.db_table} WHERE id = %s FOR UPDATE", (session.pk,))
