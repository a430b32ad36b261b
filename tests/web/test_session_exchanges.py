"""Card exchanges (FR-EXCH-1..7, FR-SOB-1): the Mayor starts them, the right person chooses on their
own phone (or the Mayor for them), face-down cards are offered by position only, nothing moves
until the last choice, double submits are no-ops, bad input changes nothing."""

import pytest
from django.urls import reverse
from django.utils import translation

from frontera.play import services
from frontera.play.models import MAYOR_SEAT, Exchange, GameSession, SessionEvent, seat_key
from frontera.play.services import SessionError
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from tests.factories import assert_conserved, engine, make_table, set_tracks

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    """Messages are matched in English here (pages too); Spanish is checked at the end."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


def _snapshot(session):
    return GameSession.objects.get(pk=session.pk).state, SessionEvent.objects.filter(session=session).count()


def _labels(uids):
    return {Card.from_uid(u).label for u in uids}


def _options(session, exchange, actor):
    exchange.refresh_from_db()
    return services.exchange_choices(engine(session), exchange, actor)


def test_fr_exch_2_bet_winner_takes_then_gives_on_their_phone_blind_in_phase_1(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    a, b = seat_key(hero.pk), seat_key(rival.pk)
    exchange = services.exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    before = engine(session)
    assert exchange.status == "pending" and exchange.chooser == a and exchange.step == "take"
    client.force_login(p1)
    page = client.get(session.get_absolute_url()).content.decode()
    assert f'data-testid="exchange-{exchange.pk}"' in page
    # FR-MODE-2 / FR-EXCH-7: in phase 1 the rival's 8 are offered face down, by position only
    for label in _labels(before.player_decks[b]) - _labels(rules_session.visible_cards(before, a)):
        assert f'aria-label="{label}"' not in page
    assert 'aria-label="face-down card 1"' in page
    url = reverse("play_exchange_choose", args=[session.pk, exchange.pk])
    client.post(url, {"step": "take", "picks": ["#3"]})
    exchange.refresh_from_db()
    assert exchange.step == "give" and engine(session).player_decks == before.player_decks  # nothing moved yet
    taken = exchange.chosen["take"][0]
    client.post(url, {"step": "take", "picks": ["#3"]})  # a double submit of the first step: no-op
    exchange.refresh_from_db()
    assert exchange.step == "give" and exchange.chosen["take"] == [taken]
    client.post(url, {"step": "give", "picks": ["#1"]})
    exchange.refresh_from_db()
    after = engine(session)
    given = exchange.chosen["give"][0]
    assert exchange.status == "done"
    assert taken in after.player_decks[a] and given in after.player_decks[b]
    assert len(rules_session.owned_cards(after, a)) == 8 and len(rules_session.owned_cards(after, b)) == 8
    # FR-EXCH-7: the winner now sees their own deck; the loser's stays hidden
    assert set(after.player_decks[a]) <= rules_session.visible_cards(after, a)
    assert not set(after.player_decks[b]) & rules_session.visible_cards(after, a)
    assert SessionEvent.objects.filter(session=session, kind="card", reason="bet").count() == 2
    assert any("FR-EXCH-7" in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
    snapshot = _snapshot(session)
    client.post(url, {"step": "give", "picks": ["#1"]})  # double submit of the last step: no-op
    assert _snapshot(session) == snapshot
    assert_conserved(session)


def test_fr_exch_2_only_the_chooser_or_the_mayor_may_choose(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = services.exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    snapshot = _snapshot(session)
    with pytest.raises(SessionError, match="not yours"):
        services.exchange_choose(exchange=exchange, by=p2, step="take", picks=["#1"])
    client.force_login(p2)
    response = client.post(reverse("play_exchange_choose", args=[session.pk, exchange.pk]),
                           {"step": "take", "picks": ["#1"]}, HTTP_HX_REQUEST="true")
    assert "This choice is not yours to make." in response.content.decode()
    assert _snapshot(session) == snapshot
    # the Mayor acts for a player without a phone: still blind to cards he may not see
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "you choose for" in page
    services.exchange_choose(exchange=exchange, by=mayor, step="take", picks=["#2"])
    assert Exchange.objects.get(pk=exchange.pk).step == "give"


def test_fr_exch_2_bad_picks_are_refused_and_change_nothing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = services.exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    hidden_uid = engine(session).player_decks[seat_key(rival.pk)][0]
    snapshot = _snapshot(session)
    for picks, message in ([hidden_uid], "among the cards offered"), (["#1", "#2"], "exactly one"), \
                          ([], "exactly one"), (["#99"], "among the cards offered"):
        with pytest.raises(SessionError, match=message):
            services.exchange_choose(exchange=exchange, by=p1, step="take", picks=picks)
    with pytest.raises(SessionError, match="already settled"):
        services.exchange_choose(exchange=exchange, by=p1, step="give", picks=["#1"])
    assert _snapshot(session) == snapshot


def test_fr_exch_2_in_phase_2_own_cards_are_chosen_by_face_the_rivals_face_down():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, skip_phase_1=True)
    a, b = seat_key(hero.pk), seat_key(rival.pk)
    exchange = services.exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    take_options = _options(session, exchange, a)
    assert all(o["uid"] is None for o in take_options)  # the loser's deck: never by face
    services.exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1"])
    give_options = _options(session, exchange, a)
    assert all(o["uid"] for o in give_options)  # phase 2: the winner sees their own deck
    give = give_options[0]["value"]
    services.exchange_choose(exchange=exchange, by=p1, step="give", picks=[give])
    assert give in engine(session).player_decks[b]
    assert_conserved(session)


def test_fr_exch_2_fr_gmb_6_caught_cheating_rival_takes_one_gives_nothing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = services.exchange_start(session=session, by=mayor, kind="cheat", first=hero, second=rival)
    services.exchange_choose(exchange=exchange, by=p1, step="take", picks=["#4"])
    state = engine(session)
    assert len(rules_session.owned_cards(state, seat_key(hero.pk))) == 9
    assert len(rules_session.owned_cards(state, seat_key(rival.pk))) == 7
    assert_conserved(session)


def test_fr_exch_2_tie_swaps_one_random_card_each_way_at_once():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = services.exchange_start(session=session, by=mayor, kind="bet_tie", first=hero, second=rival,
                                       request_key="k1")
    assert exchange.status == "done"
    assert SessionEvent.objects.filter(session=session, reason="bet_tie").count() == 2
    snapshot = _snapshot(session)
    again = services.exchange_start(session=session, by=mayor, kind="bet_tie", first=hero, second=rival,
                                    request_key="k1")
    assert again.pk == exchange.pk and _snapshot(session) == snapshot  # idempotent double submit
    assert_conserved(session)


def test_fr_exch_3_duel_winner_takes_up_to_two_and_gives_back_as_many():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = services.exchange_start(session=session, by=mayor, kind="duel", first=hero, second=rival)
    with pytest.raises(SessionError, match="up to 2"):
        services.exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1", "#2", "#3"])
    services.exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1", "#2"])
    with pytest.raises(SessionError, match="exactly 2"):
        services.exchange_choose(exchange=exchange, by=p1, step="give", picks=["#1"])
    services.exchange_choose(exchange=exchange, by=p1, step="give", picks=["#1", "#5"])
    assert SessionEvent.objects.filter(session=session, reason="duel").count() == 4
    tie = services.exchange_start(session=session, by=mayor, kind="duel_tie", first=hero, second=rival)
    assert tie.status == "done" and SessionEvent.objects.filter(session=session, reason="duel_tie").count() == 4
    assert_conserved(session)


def test_fr_exch_6_treasure_take_and_swap_and_the_mayor_never_takes_treasure():
    session, mayor, [(p1, hero), (p2, rival)], [minion] = make_table(players=2)
    with pytest.raises(SessionError, match="empty"):
        services.exchange_start(session=session, by=mayor, kind="treasure_take", first=hero)
    services.phase_switch(session=session, by=mayor)  # the pile goes to the Tesoro
    before = engine(session)
    services.exchange_start(session=session, by=mayor, kind="treasure_take", first=hero, count=2)
    after = engine(session)
    assert len(after.treasure) == len(before.treasure) - 2
    assert len(after.player_decks[seat_key(hero.pk)]) == 10
    with pytest.raises(SessionError, match="never takes treasure"):
        services.exchange_start(session=session, by=mayor, kind="treasure_take", first=minion)
    swap = services.exchange_start(session=session, by=mayor, kind="treasure_swap", first=hero, second=rival)
    assert swap.chooser == seat_key(hero.pk)
    mine = _options(session, swap, seat_key(hero.pk))[0]["value"]
    services.exchange_choose(exchange=swap, by=p1, step="give", picks=[mine])
    swap.refresh_from_db()
    assert swap.chooser == seat_key(rival.pk)  # now the other sharer chooses on their own phone
    theirs = _options(session, swap, seat_key(rival.pk))[0]["value"]
    services.exchange_choose(exchange=swap, by=p2, step="give_b", picks=[theirs])
    state = engine(session)
    assert mine in state.player_decks[seat_key(rival.pk)] and theirs in state.player_decks[seat_key(hero.pk)]
    assert_conserved(session)


def test_fr_exch_4_death_puts_every_card_into_the_treasure_and_leaves_the_table(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    pending = services.exchange_start(session=session, by=mayor, kind="bet", first=rival, second=hero)
    services.exchange_start(session=session, by=mayor, kind="death", first=hero)
    state = engine(session)
    assert seat_key(hero.pk) not in state.players and len(state.treasure) == 8
    pending.refresh_from_db()
    assert pending.status == "cancelled"
    client.force_login(mayor)
    assert client.get(session.get_absolute_url()).status_code == 200
    assert_conserved(session)


def test_fr_exch_4_death_is_refused_during_an_open_check():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    services.check_request(session=session, by=mayor, characters=[hero], trait="manos")
    snapshot = _snapshot(session)
    with pytest.raises(SessionError, match="open check or fight"):
        services.exchange_start(session=session, by=mayor, kind="death", first=hero)
    assert _snapshot(session) == snapshot


def test_fr_exch_1_exchanges_are_normal_mode_only():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, mode="sin_gestion")
    with pytest.raises(SessionError):
        services.exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    assert not Exchange.objects.exists()


def test_fr_sob_1_coma_exchange_is_the_mayors_real_choice(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, skip_phase_1=True)
    set_tracks(hero, sobriety=-2)
    services.track_change(session=session, by=mayor, character=hero, track="sobriety", amount=-1)
    exchange = Exchange.objects.get(session=session, kind="coma")
    assert exchange.chooser == MAYOR_SEAT and exchange.status == "pending"
    client.force_login(p1)  # the player sees that the Mayor must choose, and no card of his
    page = client.get(session.get_absolute_url()).content.decode()
    assert "The Mayor chooses one of his cards" in page and "xchoose" not in page
    mayor_cards = set(engine(session).player_decks[MAYOR_SEAT])
    client.force_login(mayor)
    options = _options(session, exchange, MAYOR_SEAT)
    assert {o["uid"] for o in options} == mayor_cards  # phase 2: by face
    give = options[0]["value"]
    client.post(reverse("play_exchange_choose", args=[session.pk, exchange.pk]), {"step": "give", "picks": [give]})
    exchange.refresh_from_db()
    assert exchange.status == "done" and give in engine(session).player_decks[seat_key(hero.pk)]
    assert SessionEvent.objects.filter(session=session, reason="coma").count() == 2
    assert_conserved(session)


def test_the_mayor_starts_and_calls_off_an_exchange_from_the_dashboard(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).content.decode()
    assert 'data-testid="start-exchange"' in page
    response = client.post(reverse("play_exchange_new", args=[session.pk]),
                           {"kind": "bet", "first": hero.pk, "second": rival.pk, "request_key": "abc"},
                           HTTP_HX_REQUEST="true")
    exchange = Exchange.objects.get(session=session)
    assert f'data-testid="exchange-{exchange.pk}"' in response.content.decode()
    response = client.post(reverse("play_exchange_new", args=[session.pk]),
                           {"kind": "bet", "first": hero.pk, "second": hero.pk, "request_key": "abd"},
                           HTTP_HX_REQUEST="true")
    assert "two different sides" in response.content.decode()
    client.post(reverse("play_exchange_cancel", args=[session.pk, exchange.pk]))
    exchange.refresh_from_db()
    assert exchange.status == "cancelled"
    with pytest.raises(SessionError, match="already settled"):
        services.exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1"])


def test_pages_are_in_spanish_by_default(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    services.exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    client.force_login(p1)
    with translation.override("es"):
        page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Intercambios de cartas" in page and "carta boca abajo 1" in page
