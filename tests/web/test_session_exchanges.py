"""Card exchanges (FR-EXCH-1..7, FR-SOB-1): the Mayor starts them, the right person chooses on their
own phone (or the Mayor for them), face-down cards are offered by position only, nothing moves
until the last choice, double submits are no-ops, bad input changes nothing."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from frontera.play.models import MAYOR_SEAT, Exchange, GameSession, SessionEvent, seat_key
from frontera.play.selectors.core import render_message
from frontera.play.services.checks import check_request
from frontera.play.services.core import SessionError
from frontera.play.services.exchanges import exchange_choices, exchange_choose, exchange_start
from frontera.play.services.sessions import phase_switch
from frontera.play.services.table_tools import track_change
from frontera.play.services.treasure import treasure_share_start, treasure_share_swap, treasure_share_vote
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from tests.factories import assert_conserved, dead_for_good, engine, make_table, set_tracks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _snapshot(session):
    return GameSession.objects.get(pk=session.pk).state, SessionEvent.objects.filter(session=session).count()


def _labels(uids):
    return {Card.from_uid(u).label for u in uids}


def _options(session, exchange, actor):
    exchange.refresh_from_db()
    return exchange_choices(engine(session), exchange, actor)


def test_fr_exch_2_bet_winner_takes_blind_then_gives_by_face_on_their_phone_in_phase_1(client):
    """FR-EXCH-2 and FR-EXCH-7 (ruling, docs/rules/decks.md): in phase 1 the winner looks at their
    own deck as soon as the exchange opens, so the card they give is a real choice; the loser's
    deck stays face down; the loser sees neither deck."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    a, b = seat_key(hero.pk), seat_key(rival.pk)
    dealt = engine(session)
    assert not set(dealt.player_decks[a]) & rules_session.visible_cards(dealt, a)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    before = engine(session)
    assert exchange.status == "pending" and exchange.chooser == a and exchange.step == "take"
    assert set(before.player_decks[a]) <= rules_session.visible_cards(before, a)  # the look, at once
    assert not set(before.player_decks[b]) & rules_session.visible_cards(before, a)
    assert any("FR-EXCH-7" in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
    client.force_login(p1)
    page = client.get(session.get_absolute_url()).content.decode()
    assert f'data-testid="exchange-{exchange.pk}"' in page
    # FR-MODE-2 / FR-EXCH-7: in phase 1 the rival's 8 are offered face down, by position only
    for label in _labels(before.player_decks[b]) - _labels(rules_session.visible_cards(before, a)):
        assert f'aria-label="{label}"' not in page
    assert 'aria-label="face-down card 1"' in page
    client.force_login(p2)  # the loser sees the hint, no card of either deck
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert f'data-testid="exchange-{exchange.pk}"' in page and "xchoose" not in page
    for label in _labels(before.player_decks[a]) - _labels(rules_session.visible_cards(before, b)):
        assert f'aria-label="{label}"' not in page
    client.force_login(p1)
    url = reverse("play_exchange_choose", args=[session.pk, exchange.pk])
    client.post(url, {"step": "take", "picks": ["#3"]})
    exchange.refresh_from_db()
    assert exchange.step == "give" and engine(session).player_decks == before.player_decks  # nothing moved yet
    taken = exchange.chosen["take"][0]
    client.post(url, {"step": "take", "picks": ["#3"]})  # a double submit of the first step: no-op
    exchange.refresh_from_db()
    assert exchange.step == "give" and exchange.chosen["take"] == [taken]
    give_options = _options(session, exchange, a)
    assert {o["uid"] for o in give_options} == set(before.player_decks[a])  # by face: a real choice
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert f'data-testid="xpick-{Card.from_uid(give_options[0]["uid"]).label}"' in page
    give = give_options[0]["value"]
    client.post(url, {"step": "give", "picks": [give]})
    exchange.refresh_from_db()
    after = engine(session)
    given = exchange.chosen["give"][0]
    assert given == give
    assert exchange.status == "done"
    assert taken in after.player_decks[a] and given in after.player_decks[b]
    assert len(rules_session.owned_cards(after, a)) == 8 and len(rules_session.owned_cards(after, b)) == 8
    # FR-EXCH-7: the winner now sees their own deck; the loser's stays hidden
    assert set(after.player_decks[a]) <= rules_session.visible_cards(after, a)
    assert not set(after.player_decks[b]) & rules_session.visible_cards(after, a)
    assert SessionEvent.objects.filter(session=session, kind="card", reason="bet").count() == 2
    assert any("FR-EXCH-7" in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
    snapshot = _snapshot(session)
    client.post(url, {"step": "give", "picks": [give]})  # double submit of the last step: no-op
    assert _snapshot(session) == snapshot
    assert_conserved(session)


def test_fr_exch_2_only_the_chooser_or_the_mayor_may_choose(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    snapshot = _snapshot(session)
    with pytest.raises(SessionError, match="not yours"):
        exchange_choose(exchange=exchange, by=p2, step="take", picks=["#1"])
    client.force_login(p2)
    response = client.post(reverse("play_exchange_choose", args=[session.pk, exchange.pk]),
                           {"step": "take", "picks": ["#1"]}, HTTP_HX_REQUEST="true")
    assert "This choice is not yours to make." in response.content.decode()
    assert _snapshot(session) == snapshot
    # the Mayor acts for a player without a phone: still blind to cards he may not see
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "you choose for" in page
    exchange_choose(exchange=exchange, by=mayor, step="take", picks=["#2"])
    assert Exchange.objects.get(pk=exchange.pk).step == "give"


def test_fr_exch_2_bad_picks_are_refused_and_change_nothing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    hidden_uid = engine(session).player_decks[seat_key(rival.pk)][0]
    snapshot = _snapshot(session)
    for picks, message in ([hidden_uid], "among the cards offered"), (["#1", "#2"], "exactly one"), \
                          ([], "exactly one"), (["#99"], "among the cards offered"):
        with pytest.raises(SessionError, match=message):
            exchange_choose(exchange=exchange, by=p1, step="take", picks=picks)
    with pytest.raises(SessionError, match="already settled"):
        exchange_choose(exchange=exchange, by=p1, step="give", picks=["#1"])
    assert _snapshot(session) == snapshot


def test_fr_exch_2_fr_exch_7_in_phase_2_own_cards_are_chosen_by_face_the_losers_face_down():
    """Ruling (docs/rules/decks.md): nobody else's deck becomes visible in phase 2 either."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, skip_phase_1=True)
    a, b = seat_key(hero.pk), seat_key(rival.pk)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    take_options = _options(session, exchange, a)
    assert all(o["uid"] is None for o in take_options)  # the loser's deck: never by face
    assert all(o["uid"] is None for o in _options(session, exchange, MAYOR_SEAT))
    exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1"])
    exchange.refresh_from_db()
    taken = exchange.chosen["take"][0]
    give_options = _options(session, exchange, a)
    assert all(o["uid"] for o in give_options)  # phase 2: the winner sees their own deck
    give = give_options[0]["value"]
    exchange_choose(exchange=exchange, by=p1, step="give", picks=[give])
    assert give in engine(session).player_decks[b] and taken in engine(session).player_decks[a]
    assert_conserved(session)


def test_fr_exch_2_fr_gmb_6_caught_cheating_rival_takes_one_gives_nothing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = exchange_start(session=session, by=mayor, kind="cheat", first=hero, second=rival)
    exchange_choose(exchange=exchange, by=p1, step="take", picks=["#4"])
    state = engine(session)
    assert len(rules_session.owned_cards(state, seat_key(hero.pk))) == 9
    assert len(rules_session.owned_cards(state, seat_key(rival.pk))) == 7
    assert_conserved(session)


def test_fr_exch_2_tie_swaps_one_random_card_each_way_at_once():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = exchange_start(session=session, by=mayor, kind="bet_tie", first=hero, second=rival,
                                       request_key="k1")
    assert exchange.status == "done"
    assert SessionEvent.objects.filter(session=session, reason="bet_tie").count() == 2
    snapshot = _snapshot(session)
    again = exchange_start(session=session, by=mayor, kind="bet_tie", first=hero, second=rival,
                                    request_key="k1")
    assert again.pk == exchange.pk and _snapshot(session) == snapshot  # idempotent double submit
    assert_conserved(session)


def test_fr_exch_3_duel_winner_takes_up_to_two_and_gives_back_as_many():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = exchange_start(session=session, by=mayor, kind="duel", first=hero, second=rival)
    with pytest.raises(SessionError, match="up to 2"):
        exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1", "#2", "#3"])
    exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1", "#2"])
    mine = [o["value"] for o in _options(session, exchange, seat_key(hero.pk))]
    assert all(not v.startswith("#") for v in mine)  # FR-EXCH-7: the winner's own deck, by face
    with pytest.raises(SessionError, match="exactly 2"):
        exchange_choose(exchange=exchange, by=p1, step="give", picks=[mine[0]])
    exchange_choose(exchange=exchange, by=p1, step="give", picks=[mine[0], mine[4]])
    assert SessionEvent.objects.filter(session=session, reason="duel").count() == 4
    tie = exchange_start(session=session, by=mayor, kind="duel_tie", first=hero, second=rival)
    assert tie.status == "done" and SessionEvent.objects.filter(session=session, reason="duel_tie").count() == 4
    assert_conserved(session)


def test_fr_exch_3_the_duel_winners_give_back_reads_as_many_as_taken(client):
    """FR-EXCH-3: after taking 2 the winner gives back exactly 2; the legend read "Elige hasta 2
    cartas" and one card was refused with "Elige exactamente 2 cartas para devolver"."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange = exchange_start(session=session, by=mayor, kind="duel", first=hero, second=rival)
    client.force_login(p1)
    assert "Choose up to 2 cards" in client.get(session.get_absolute_url()).text  # taking: up to 2
    exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1", "#2"])
    page = client.get(session.get_absolute_url()).text
    assert "Choose 2 cards" in page and "Choose up to" not in page


def test_fr_exch_6_treasure_take_and_swap_and_the_mayor_never_takes_treasure():
    session, mayor, [(p1, hero), (p2, rival)], [minion] = make_table(players=2)
    with pytest.raises(SessionError, match="empty"):
        exchange_start(session=session, by=mayor, kind="treasure_take", first=hero)
    phase_switch(session=session, by=mayor)  # the pile goes to the Tesoro
    before = engine(session)
    exchange_start(session=session, by=mayor, kind="treasure_take", first=hero, count=2)
    after = engine(session)
    assert len(after.treasure) == len(before.treasure) - 2
    assert len(after.player_decks[seat_key(hero.pk)]) == 10
    with pytest.raises(SessionError, match="never takes treasure"):
        exchange_start(session=session, by=mayor, kind="treasure_take", first=minion)
    swap = exchange_start(session=session, by=mayor, kind="treasure_swap", first=hero, second=rival)
    assert swap.chooser == seat_key(hero.pk)
    mine = _options(session, swap, seat_key(hero.pk))[0]["value"]
    exchange_choose(exchange=swap, by=p1, step="give", picks=[mine])
    swap.refresh_from_db()
    assert swap.chooser == seat_key(rival.pk)  # now the other sharer chooses on their own phone
    theirs = _options(session, swap, seat_key(rival.pk))[0]["value"]
    exchange_choose(exchange=swap, by=p2, step="give_b", picks=[theirs])
    state = engine(session)
    assert mine in state.player_decks[seat_key(rival.pk)] and theirs in state.player_decks[seat_key(hero.pk)]
    assert_conserved(session)


def test_fr_exch_4_death_puts_every_card_into_the_treasure_and_leaves_the_table(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    pending = exchange_start(session=session, by=mayor, kind="bet", first=rival, second=hero)
    dead_for_good(session, hero)
    exchange_start(session=session, by=mayor, kind="death", first=hero)
    state = engine(session)
    assert seat_key(hero.pk) not in state.players and len(state.treasure) == 8
    pending.refresh_from_db()
    assert pending.status == "cancelled"
    client.force_login(mayor)
    assert client.get(session.get_absolute_url()).status_code == 200
    # the player's page says why it has no character any more (a walk's read only "none of yours")
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"{hero.name} murió para siempre y dejó la partida: sus cartas fueron al Tesoro." in page
    client.force_login(p2)
    assert "murió para siempre" not in client.get(session.get_absolute_url()).content.decode()
    assert_conserved(session)


def test_fr_exch_4_death_is_refused_during_an_open_check():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    check_request(session=session, by=mayor, characters=[hero], trait="manos")
    dead_for_good(session, hero)
    snapshot = _snapshot(session)
    with pytest.raises(SessionError, match="open check or fight"):
        exchange_start(session=session, by=mayor, kind="death", first=hero)
    assert _snapshot(session) == snapshot


@pytest.mark.parametrize("health", [0, -3, -4])
def test_fr_exch_4_death_is_refused_for_a_protagonist_who_has_not_died_for_good(health):
    """A walk through an evening made the death exchange on a character only Herido: she left the
    game and her cards went to the Tesoro. It is for one who died (FR-EXCH-4): a Muerto whose dead
    man's hand is still to come may yet live (FR-HLT-3)."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(hero, health=health)
    snapshot = _snapshot(session)
    with pytest.raises(SessionError, match=f"{hero.name} has not died"):
        exchange_start(session=session, by=mayor, kind="death", first=hero)
    assert _snapshot(session) == snapshot and not Exchange.objects.exists()


def test_fr_exch_1_exchanges_are_normal_mode_only():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, mode="sin_gestion")
    with pytest.raises(SessionError):
        exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    assert not Exchange.objects.exists()


def test_fr_sob_1_coma_exchange_is_the_mayors_real_choice(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, skip_phase_1=True)
    set_tracks(hero, sobriety=-2)
    track_change(session=session, by=mayor, character=hero, track="sobriety", amount=-1)
    exchange = Exchange.objects.get(session=session, kind="coma")
    assert exchange.chooser == MAYOR_SEAT and exchange.status == "pending"
    client.force_login(p1)  # the player sees that the Mayor must choose, and no card of his
    page = client.get(session.get_absolute_url()).content.decode()
    assert "The Mayor chooses a card to give back" in page and "xchoose" not in page
    assert f"<h4>Coma exchange · {hero.name} and the Mayor</h4>" in page  # it named "the Mayor" twice
    mayor_cards = set(engine(session).player_decks[MAYOR_SEAT])
    client.force_login(mayor)
    options = _options(session, exchange, MAYOR_SEAT)
    assert {o["uid"] for o in options} == mayor_cards  # phase 2: by face
    give = options[0]["value"]
    client.post(reverse("play_exchange_choose", args=[session.pk, exchange.pk]), {"step": "give", "picks": [give]})
    exchange.refresh_from_db()
    assert exchange.status == "done" and give in engine(session).player_decks[seat_key(hero.pk)]
    assert SessionEvent.objects.filter(session=session, reason="coma").count() == 2
    done = SessionEvent.objects.filter(session=session, kind="decision").order_by("-pk").first()
    with translation.override("es"):
        assert render_message(done.message, done.params).startswith(f"Cambio por coma entre {hero.name} y el Mayor: ")
    assert_conserved(session)


def test_the_mayor_starts_and_calls_off_an_exchange_from_the_dashboard(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    client.force_login(mayor)
    assert 'data-testid="open-exchange"' in client.get(session.get_absolute_url()).content.decode()
    page = client.get(reverse("play_action_form", args=[session.pk, "exchange"])).content.decode()
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
        exchange_choose(exchange=exchange, by=p1, step="take", picks=["#1"])


def test_pages_are_in_spanish_by_default(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    client.force_login(p1)
    with translation.override("es"):
        page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Intercambios de cartas" in page and "carta boca abajo 1" in page


# --- FR-EXCH-6: several sharers decide among themselves (ruling: unanimity, docs/rules/decks.md) ----


def _treasure_in_phase_1(session, count=5):
    """Scenario set-up: a GM-seeded Tesoro in phase 1 (FR-MODE-3), moved from the pile."""
    state = engine(session)
    state.treasure += state.pile[:count]
    del state.pile[:count]
    GameSession.objects.filter(pk=session.pk).update(state=state.to_json())


def _share_url(session, sharing):
    return reverse("play_treasure_share", args=[session.pk, sharing.pk])


def test_fr_exch_6_the_sharers_decide_on_their_phones_who_keeps_the_card(client):
    session, mayor, [(p1, hero), (p2, rival), (p3, third)], _ = make_table(players=3)
    phase_switch(session=session, by=mayor)  # phase 2: the pile went to the Tesoro
    a, b, c = seat_key(hero.pk), seat_key(rival.pk), seat_key(third.pk)
    client.force_login(mayor)
    page = client.get(reverse("play_action_form", args=[session.pk, "treasure"])).content.decode()
    assert 'data-testid="start-sharing"' in page
    client.post(reverse("play_treasure_new", args=[session.pk]),
                {"sharers": [hero.pk, rival.pk], "count": 1, "swaps": 1, "request_key": "t1"})
    client.post(reverse("play_treasure_new", args=[session.pk]),  # a double submit
                {"sharers": [hero.pk, rival.pk], "count": 1, "swaps": 1, "request_key": "t1"})
    sharing = Exchange.objects.get(session=session, kind="treasure_take")
    assert sharing.status == "pending" and sharing.step == "keeper"
    [card] = sharing.chosen["sharing"]["cards"]
    label = Card.from_uid(card).label
    before = engine(session)
    assert card in before.treasure  # nothing moves until they agree
    # phase 2: the sharers look at the card they decide on; the Mayor and a non-sharer do not
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert f'data-testid="sharing-{sharing.pk}"' in page and f'aria-label="{label}"' not in page
    assert "treasure card 1, face down" in page and "who keeps card 1</label>" in page
    client.force_login(p3)
    page = client.get(session.get_absolute_url()).content.decode()
    assert f'data-testid="sharing-{sharing.pk}"' not in page
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert f'aria-label="{label}"' in page
    assert f'data-testid="sharing-vote-{sharing.pk}-{hero.pk}"' in page
    assert f'data-testid="sharing-vote-{sharing.pk}-{rival.pk}"' not in page  # not theirs to say
    assert f"who keeps the {label}</label>" in page  # by its face, as they see it ("card 1" beside it)
    client.post(_share_url(session, sharing), {"action": "keeper", "character": hero.pk, "keeper": [rival.pk]})
    client.force_login(p2)
    client.post(_share_url(session, sharing), {"action": "keeper", "character": rival.pk, "keeper": [hero.pk]})
    sharing.refresh_from_db()
    assert sharing.step == "keeper" and engine(session).treasure == before.treasure  # they disagree
    assert sharing.chosen["sharing"]["votes"] == {a: [b], b: [a]}
    response = client.post(_share_url(session, sharing),  # p2 cannot speak for p1
                           {"action": "keeper", "character": hero.pk, "keeper": [hero.pk]})
    assert response.status_code == 404
    client.post(_share_url(session, sharing), {"action": "keeper", "character": rival.pk, "keeper": [rival.pk]})
    sharing.refresh_from_db()
    after = engine(session)
    assert sharing.step == "swap" and card in after.player_decks[b] and card not in after.treasure
    assert SessionEvent.objects.filter(session=session, kind="card", reason="treasure").count() == 1
    # the other sharer (hero) may swap one card with another sharer; the keeper may not
    assert sharing.chosen["sharing"]["left"] == {a: 1}
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert "sharing-swap-" not in page
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert f'data-testid="sharing-swap-{sharing.pk}-{hero.pk}"' in page
    key = f"share-{sharing.pk}-{a}-1"
    for _ in range(2):  # a double tap opens one swap
        client.post(_share_url(session, sharing), {"action": "swap", "character": hero.pk, "partner": rival.pk,
                                                   "request_key": key})
    sharing.refresh_from_db()
    swap = Exchange.objects.get(session=session, kind="treasure_swap")
    assert sharing.status == "done" and (swap.first, swap.second, swap.chooser) == (a, b, a)
    assert c not in (swap.first, swap.second)
    mine = _options(session, swap, a)[0]["value"]
    exchange_choose(exchange=swap, by=p1, step="give", picks=[mine])
    theirs = _options(session, swap, b)[0]["value"]
    exchange_choose(exchange=swap, by=p2, step="give_b", picks=[theirs])
    state = engine(session)
    assert mine in state.player_decks[b] and theirs in state.player_decks[a]
    assert any("FR-EXCH-6" in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
    assert_conserved(session)


def test_fr_exch_6_the_mayor_speaks_for_a_sharer_without_a_phone_and_phase_1_cards_stay_unseen(client):
    session, mayor, [(p1, hero), (p2, rival), (p3, third)], _ = make_table(players=3)
    _treasure_in_phase_1(session)
    a, b, c = seat_key(hero.pk), seat_key(rival.pk), seat_key(third.pk)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival, third], count=2,
                                            swaps=1)
    cards = sharing.chosen["sharing"]["cards"]
    assert len(cards) == 2
    client.force_login(p1)  # FR-MODE-4: in phase 1 nobody sees a treasure card, sharers included
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    for uid in cards:
        assert f'aria-label="{Card.from_uid(uid).label}"' not in page
    assert "treasure card 2, face down" in page
    with pytest.raises(SessionError, match="not yours"):
        treasure_share_vote(exchange=sharing, by=p1, sharer=rival, keepers=[hero, hero])
    with pytest.raises(SessionError, match="one keeper for each"):
        treasure_share_vote(exchange=sharing, by=p1, sharer=hero, keepers=[hero])
    snapshot = _snapshot(session)
    treasure_share_vote(exchange=sharing, by=p1, sharer=hero, keepers=[hero, third])
    treasure_share_vote(exchange=sharing, by=p1, sharer=hero, keepers=[hero, third])  # double submit
    assert SessionEvent.objects.filter(session=session).count() == snapshot[1] + 1
    client.force_login(mayor)  # the Mayor records the votes of the players without a phone
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert f'data-testid="sharing-vote-{sharing.pk}-{rival.pk}"' in page and "Say it for" in page
    client.post(_share_url(session, sharing), {"action": "keeper", "character": rival.pk,
                                               "keeper": [hero.pk, third.pk]})
    treasure_share_vote(exchange=sharing, by=p3, sharer=third, keepers=[hero, third])
    sharing.refresh_from_db()
    state = engine(session)
    assert cards[0] in state.player_decks[a] and cards[1] in state.player_decks[c]
    assert not set(cards) & (rules_session.visible_cards(state, a) | rules_session.visible_cards(state, c))
    assert sharing.chosen["sharing"]["left"] == {b: 1}  # only the one who kept nothing may swap
    # the agreement says which card goes to whom, by its place (it read "Hero, Third keep(s) the
    # Tesoro card(s)"), and the swap line takes its plural; no card is named
    agreed = SessionEvent.objects.get(session=session, message="The sharers agree: %(keepers)s.")
    swap_line = SessionEvent.objects.filter(session=session, message__contains="may swap up to").latest("pk")
    with translation.override("es"):
        assert render_message(agreed.message, agreed.params) == \
            f"Acuerdo en el reparto: la carta 1 para {hero.name}, la carta 2 para {third.name}."
        assert render_message(swap_line.message, swap_line.params) == \
            f"{rival.name} puede intercambiar hasta 1 carta con otro protagonista del reparto."
    assert render_message(agreed.message, agreed.params) == f"The sharers agree: card 1 to {hero.name}, card 2 to {third.name}."
    with pytest.raises(SessionError, match="no swap left"):
        treasure_share_swap(exchange=sharing, by=p1, sharer=hero, partner=rival)
    with pytest.raises(SessionError, match="already agreed"):
        treasure_share_vote(exchange=sharing, by=p1, sharer=hero, keepers=[third, third])
    treasure_share_swap(exchange=sharing, by=mayor, sharer=rival, partner=None)  # no swap
    sharing.refresh_from_db()
    assert sharing.status == "done" and not Exchange.objects.filter(kind="treasure_swap").exists()
    assert_conserved(session)


def test_fr_exch_6_an_empty_tesoro_lets_every_sharer_swap_and_bad_starts_are_refused():
    session, mayor, [(p1, hero), (p2, rival)], [minion] = make_table(players=2)
    assert not engine(session).treasure
    snapshot = _snapshot(session)
    for sharers, message in (([hero, minion], "not a protagonist"), ([], "at least one")):
        with pytest.raises(SessionError, match=message):
            treasure_share_start(session=session, by=mayor, sharers=sharers)
    with pytest.raises(SessionError, match="empty"):  # a lone finder and nothing in the Tesoro
        treasure_share_start(session=session, by=mayor, sharers=[hero])
    with pytest.raises(SessionError, match="nothing to share"):
        treasure_share_start(session=session, by=mayor, sharers=[hero, rival], swaps=0)
    assert _snapshot(session) == snapshot
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival])
    assert sharing.step == "swap" and sharing.chosen["sharing"]["left"] == {seat_key(hero.pk): 1,
                                                                          seat_key(rival.pk): 1}
    with pytest.raises(SessionError, match="already being shared"):
        treasure_share_start(session=session, by=mayor, sharers=[hero, rival])
    with pytest.raises(SessionError, match="another sharer"):
        treasure_share_swap(exchange=sharing, by=p1, sharer=hero, partner=hero)
    treasure_share_swap(exchange=sharing, by=p1, sharer=hero, partner=rival)
    treasure_share_swap(exchange=sharing, by=p2, sharer=rival, partner=hero)
    sharing.refresh_from_db()
    assert sharing.status == "done"
    assert Exchange.objects.filter(session=session, kind="treasure_swap", status="pending").count() == 2


def test_fr_exch_6_a_lone_finder_keeps_it_and_death_calls_off_the_sharing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    phase_switch(session=session, by=mayor)
    done = treasure_share_start(session=session, by=mayor, sharers=[hero], count=2)
    assert done.status == "done" and len(engine(session).player_decks[seat_key(hero.pk)]) == 10
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival])
    with pytest.raises(SessionError, match="already being shared"):
        exchange_start(session=session, by=mayor, kind="treasure_take", first=hero)
    dead_for_good(session, rival)
    exchange_start(session=session, by=mayor, kind="death", first=rival)
    sharing.refresh_from_db()
    assert sharing.status == "cancelled"
    with pytest.raises(SessionError):
        exchange_choose(exchange=sharing, by=p1, step="keeper", picks=["#1"])
    assert_conserved(session)


# --- FR-EXCH-7 (ruling): the loser's deck stays face down in phase 2 too — pages and fragments -----


def test_fr_exch_7_in_phase_2_no_page_or_fragment_shows_the_other_sides_deck(client):
    session, mayor, [(p1, hero), (p2, rival), (p3, third)], _ = make_table(players=3, skip_phase_1=True)
    a, b = seat_key(hero.pk), seat_key(rival.pk)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    state = engine(session)
    decks = {seat: _labels(state.player_decks[seat]) for seat in (a, b)}
    assert not decks[a] & decks[b]

    def pages(user):
        client.force_login(user)
        return [client.get(session.get_absolute_url(), {"fragment": f} if f else {}, **h).content.decode()
                for f in (None, "checks", "me", "board", "feed") for h in ({}, {"HTTP_HX_REQUEST": "true"})]

    for user, hidden in ((p1, decks[b]), (p2, decks[a]), (p3, decks[a] | decks[b])):
        for text in pages(user):
            for label in hidden - {"JK"}:
                assert f'aria-label="{label}"' not in text and f'xpick-{label}"' not in text, (user, label)
    client.force_login(p1)
    text = client.get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    assert f'data-testid="exchange-{exchange.pk}"' in text and 'aria-label="face-down card 1"' in text


def test_fr_exch_6_fr_mode_4_a_non_sharer_finds_no_treasure_card_at_any_url(client):
    """The drawn Tesoro card is shown to the sharers only (phase 2): a third player requests every
    exchange URL (pages, fragments, actions with the sharers' names) and finds no hidden card, and
    changes nothing."""
    from tests.web.test_session_secrecy import FRAGMENTS, _assert_clean, _forbidden

    session, mayor, [(p1, hero), (p2, rival), (p3, third)], _ = make_table(players=3)
    phase_switch(session=session, by=mayor)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival], count=2)
    treasure_share_vote(exchange=sharing, by=p1, sharer=hero, keepers=[rival, rival])
    bet = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    hidden, labels, _state = _forbidden(session, seat_key(third.pk))
    assert {Card.from_uid(u).label for u in sharing.chosen["sharing"]["cards"]} <= labels
    snapshot = _snapshot(session)
    client.force_login(p3)
    urls = [session.get_absolute_url()] + [
        reverse(name, args=[session.pk, x.pk]) for x in (sharing, bet)
        for name in ("play_exchange_choose", "play_exchange_cancel", "play_treasure_share")]
    urls.append(reverse("play_treasure_new", args=[session.pk]))
    for url in urls:
        for fragment in [None, *FRAGMENTS]:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                text = client.get(url, {"fragment": fragment} if fragment else {}, **headers).content.decode()
                _assert_clean(text, hidden, labels, ("GET", url, fragment))
        for who in (hero, rival, third):
            for data in ({"action": "keeper", "character": who.pk, "keeper": [who.pk, who.pk]},
                         {"action": "swap", "character": who.pk, "partner": hero.pk},
                         {"step": "take", "picks": ["#1"], "sharers": [hero.pk, third.pk], "count": 1, "swaps": 1}):
                for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                    text = client.post(url, data, follow=True, **headers).content.decode()
                    _assert_clean(text, hidden, labels, ("POST", url, data))
    assert _snapshot(session) == snapshot


def test_fr_exch_4_a_death_from_the_dialog_is_chosen_and_confirmed(client):
    """A walk through an evening killed a character with one click: the death exchange started on
    the list's first name (the form's default) and asked nothing. Now nobody is chosen beforehand,
    and a death needs its box ticked; refused, nothing changes."""
    from frontera.play.models import Seat
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    client.force_login(mayor)
    page = client.get(reverse("play_action_form", args=[session.pk, "exchange"]), HTTP_HX_REQUEST="true").text
    first = re.search(r'<select name="first"[^>]*>(.*?)</select>', page, re.DOTALL).group(1)
    assert re.search(r'<option value="" selected>', first)  # nobody chosen until the Mayor says
    assert re.search(r'name="confirm_death"[^>]*data-shown-for="death"', page)
    assert re.search(r'name="second"[^>]*data-shown-for="bet bet_tie cheat duel duel_tie"', page)
    url = reverse("play_exchange_new", args=[session.pk])
    events = SessionEvent.objects.filter(session=session).count()
    refused = client.post(url, {"kind": "death", "request_key": "d1"}, HTTP_HX_REQUEST="true")
    assert "First: who won, who caught the cheat, or who dies: This field is required." in refused.text
    refused = client.post(url, {"kind": "death", "first": rival.pk, "request_key": "d2"}, HTTP_HX_REQUEST="true")
    assert "A death cannot be undone: tick “Yes: the first dies and leaves the game (this cannot be undone)” " \
           "to confirm it." in refused.text
    assert refused.headers.get("X-Live-Refused")
    assert SessionEvent.objects.filter(session=session).count() == events
    assert Seat.objects.filter(session=session, character=rival).exists() and not Exchange.objects.exists()
    dead_for_good(session, rival)
    done = client.post(url, {"kind": "death", "first": rival.pk, "second": hero.pk, "confirm_death": "on",
                             "request_key": "d3"}, HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and not done.headers.get("X-Live-Refused")
    assert not Seat.objects.filter(session=session, character=rival).exists()
    assert Seat.objects.filter(session=session, character=hero).exists()  # the second is not read for a death
    assert_conserved(session)


def test_fr_exch_6_a_sharers_vote_names_nobody_until_they_choose(client):
    """A walk through an evening found every keeper menu starting on the list's first name: a
    sharer who tapped "say who keeps it" as it came gave every card to that name. Each menu starts
    on nobody and must be chosen; a vote that names nobody is refused and changes nothing."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    _treasure_in_phase_1(session)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival], count=2, swaps=0)
    client.force_login(p1)
    page = client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true").text
    menus = re.findall(r'<select name="keeper"[^>]*>(.*?)</select>', page, re.DOTALL)
    assert len(menus) == 2
    for menu in menus:
        assert menu.startswith('<option value="">—</option>') and "selected" not in menu
    assert all(" required>" in m for m in re.findall(r'<select name="keeper"[^>]*>', page))
    events = SessionEvent.objects.filter(session=session).count()
    answer = client.post(_share_url(session, sharing), {"action": "keeper", "character": hero.pk, "keeper": ["", ""]},
                         HTTP_HX_REQUEST="true")
    assert answer.headers.get("X-Live-Refused") and "Choose among the sharers." in answer.text
    sharing.refresh_from_db()
    assert SessionEvent.objects.filter(session=session).count() == events and not sharing.chosen["sharing"]["votes"]


def test_fr_exch_6_a_withdrawn_sharing_is_named_as_one():
    """A walk through an evening withdrew a treasure sharing and read "withdraws the exchange between
    …": the line names the sharing and its sharers."""
    from frontera.play.services.exchanges import exchange_cancel
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    _treasure_in_phase_1(session)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival], count=1, swaps=0)
    exchange_cancel(exchange=sharing, by=mayor)
    line = SessionEvent.objects.filter(session=session, kind="decision").latest("pk")
    with translation.override("es"):
        assert render_message(line.message, line.params) == \
            f"El Mayor retira el reparto del Tesoro entre {hero.name} y {rival.name}: no se había movido ninguna carta."
    assert_conserved(session)


def test_fr_exch_6_a_sharers_vote_and_the_sharers_read_as_sentences():
    """A vote read "Hero says Hero, Rival should keep the Tesoro card(s)" and the sharers were listed
    with a comma only: the vote says which card to whom, and names are joined the reader's way."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    _treasure_in_phase_1(session)
    treasure_share_start(session=session, by=mayor, sharers=[hero, rival], count=2, swaps=0)
    sharing = Exchange.objects.get(session=session, kind="treasure_take")
    treasure_share_vote(exchange=sharing, by=p1, sharer=hero, keepers=[hero, rival])
    lines = list(SessionEvent.objects.filter(session=session, kind="decision").order_by("-pk")[:2])
    with translation.override("es"):
        vote, start = (render_message(e.message, e.params) for e in lines)
    assert vote == f"{hero.name} dice: la carta 1 para {hero.name}, la carta 2 para {rival.name}."
    assert f"entre {hero.name} y {rival.name}:" in start
