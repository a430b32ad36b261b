"""Secrecy of the choose-like endpoints against probing (FR-CMB-1, FR-OPP-1, FR-EXCH-6, FR-EXCH-7,
FR-MODE-2, FR-CMB-15, FR-GMB-3): whoever may not see a hand, or a card chosen from it, gets one and
the same answer whatever card code they post, and nothing changes; the holder's own double submit
stays a no-op.

Who holds what (docs/sessions.md, "Selectors and secrecy"): a participant's drawn cards are held
by the character's player, or by the Mayor for his NPCs and minions and for a draw he made himself
for a player without a phone; in a fight the Mayor never holds a protagonist's hand; in an exchange
the step's double submit belongs to the user who took it."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from frontera.play.models import Check, CombatRound, Exchange, GameSession, Participant, seat_key
from frontera.play.services.checks import Entry, check_choose, check_draw, check_request, opposed_request
from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start
from frontera.play.services.duels import pistol_duel_start
from frontera.play.services.exchanges import exchange_choices, exchange_choose, exchange_start
from frontera.play.services.gambling import banca_begin, banca_deal, banca_try_stop
from frontera.play.services.sessions import phase_switch
from frontera.play.services.treasure import treasure_share_start, treasure_share_swap, treasure_share_vote
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from tests.factories import engine, make_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
NOT_YOUR_HAND = "Only whoever holds the cards of %(name)s can choose among them."


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _client(user):
    client = Client()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    client.force_login(user)
    return client


def _errors(text, testid="error"):
    return tuple(re.findall(rf'data-testid="{testid}"[^>]*>([^<]*)', text))


def _snapshot(session):
    return (GameSession.objects.get(pk=session.pk).state,
            list(Participant.objects.filter(prueba__session=session).order_by("pk")
                 .values_list("status", "played", "declared")),
            list(CombatRound.objects.filter(session=session).values_list("state", flat=True)),
            list(Exchange.objects.filter(session=session).order_by("pk").values_list("status", "step", "chosen")))


def _outside(session, hand):
    return next(u for u in rules_session.all_cards(engine(session)) if u not in hand)


def _probe_choose(session, user, participant, cards):
    """Post each card (and once more with a joker's suit) to the participant's choose URL."""
    client = _client(user)
    url = reverse("play_choose", args=[session.pk, participant.pk])
    answers = {}
    for uid in cards:
        for suit in ("", "S"):
            response = client.post(url, {"card": uid, "suit": suit}, **HX)
            assert response.status_code == 200
            answers[(uid, suit)] = _errors(response.content.decode())
    return answers


def _opposed(session, mayor, hero, rival):
    prueba = opposed_request(session=session, by=mayor,
                                      entries=[Entry(hero, "manos"), Entry(rival, "manos")])
    return prueba.participants.get(character=hero), prueba.participants.get(character=rival)


def test_fr_opp_1_the_mayor_cannot_probe_a_players_face_down_choice_in_an_opposed_check():
    """FR-OPP-1: the player drew and chose on their phone; the rival has not chosen. The Mayor
    posting the chosen card, another card of the hand and a card outside it gets one refusal."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    part, other = _opposed(session, mayor, hero, rival)
    part = check_draw(participant=part, by=p1)
    check_draw(participant=other, by=p2)
    assert len(part.drawn) >= 2
    check_choose(participant=part, by=p1, card=part.drawn[0])
    before = _snapshot(session)
    answers = _probe_choose(session, mayor, part, [part.drawn[0], part.drawn[1], _outside(session, part.drawn)])
    assert set(answers.values()) == {(NOT_YOUR_HAND % {"name": hero.name},)}, answers
    assert _snapshot(session) == before
    # the player's own double submit is still a no-op; another card is refused as before
    client = _client(p1)
    url = reverse("play_choose", args=[session.pk, part.pk])
    assert _errors(client.post(url, {"card": part.drawn[0]}, **HX).content.decode()) == ()
    assert "already chosen" in " ".join(_errors(client.post(url, {"card": part.drawn[1]}, **HX).content.decode()))
    assert _snapshot(session) == before


def test_fr_chk_2_the_mayor_cannot_play_or_probe_a_hand_the_player_drew_on_their_phone():
    """A trait check drawn on the player's phone: the Mayor cannot see that hand, so he may not
    choose from it — one refusal for a card of the hand and for any other, and nothing is played."""
    session, mayor, [(p1, hero)], _ = make_table(players=1, minions=0)
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="sentidos")
    part = check_draw(participant=prueba.participants.get(), by=p1)
    before = _snapshot(session)
    answers = _probe_choose(session, mayor, part, [*part.drawn, _outside(session, part.drawn)])
    assert set(answers.values()) == {(NOT_YOUR_HAND % {"name": hero.name},)}, answers
    assert _snapshot(session) == before
    assert Participant.objects.get(pk=part.pk).status == Check.Status.DRAWN


def test_fr_chk_2_the_mayor_who_drew_for_a_player_without_a_phone_chooses_and_may_double_submit():
    """The convention of docs/sessions.md: the Mayor holds the cards he drew for a player without a
    phone, so he chooses among them; his double submit and the player's are no-ops."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    part, other = _opposed(session, mayor, hero, rival)
    part = check_draw(participant=part, by=mayor)
    check_draw(participant=other, by=p2)
    url = reverse("play_choose", args=[session.pk, part.pk])
    mayor_client = _client(mayor)
    assert _errors(mayor_client.post(url, {"card": part.drawn[1]}, **HX).content.decode()) == ()
    part.refresh_from_db()
    assert (part.status, part.played) == (Check.Status.CHOSEN, part.drawn[1])
    before = _snapshot(session)
    assert _errors(mayor_client.post(url, {"card": part.drawn[1]}, **HX).content.decode()) == ()
    assert _errors(_client(p1).post(url, {"card": part.drawn[1]}, **HX).content.decode()) == ()
    assert _snapshot(session) == before


def test_fr_cmb_15_the_mayor_cannot_probe_a_duellists_hand_or_choice_before_the_reveal():
    """A pistol duel is an opposed check (FR-CMB-15, FR-OPP-1): the same one refusal."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver",
                                      second=rival, second_weapon="revolver")
    part = check_draw(participant=duel.prueba.participants.get(character=hero), by=p1)
    check_draw(participant=duel.prueba.participants.get(character=rival), by=p2)
    outside = _outside(session, part.drawn)
    before = _snapshot(session)
    drawn_answers = _probe_choose(session, mayor, part, [*part.drawn, outside])
    check_choose(participant=part, by=p1, card=part.drawn[-1])
    chosen_answers = _probe_choose(session, mayor, part, [*part.drawn, outside])
    assert set(drawn_answers.values()) | set(chosen_answers.values()) == {(NOT_YOUR_HAND % {"name": hero.name},)}
    part.refresh_from_db()
    assert part.played == part.drawn[-1] and before[0] == _snapshot(session)[0]  # only the player's choice


def test_fr_gmb_3_the_mayor_cannot_probe_the_hand_of_an_attempt_to_leave_the_banca():
    """The banca's attempt to leave is a normal check (FR-GMB-3): the player drew it on their phone;
    the Mayor's posts get one refusal and the banca stays in the check. Another player may not try
    to leave for the character at all (404), whether an attempt is open or not."""
    session, mayor, [(p1, hero), (p2, _rival)], _ = make_table(players=2, minions=0)
    gamble = banca_begin(session=session, by=mayor, character=hero)
    banca_deal(gamble=gamble, by=mayor, rounds_seen=0)
    stop_url = reverse("play_gamble_step", args=[session.pk, gamble.pk, "plantarse"])
    assert _client(p2).post(stop_url, **HX).status_code == 404
    prueba = banca_try_stop(gamble=gamble, by=p1)
    assert _client(p2).post(stop_url, **HX).status_code == 404
    part = check_draw(participant=prueba.participants.get(), by=p1)
    before = _snapshot(session)
    answers = _probe_choose(session, mayor, part, [*part.drawn, _outside(session, part.drawn)])
    assert set(answers.values()) == {(NOT_YOUR_HAND % {"name": hero.name},)}, answers
    assert _snapshot(session) == before


def test_fr_cmb_1_the_mayor_cannot_probe_a_protagonists_hand_before_it_is_locked_in():
    """FR-CMB-1: the hand is the player's; before they lock in, the Mayor's posts of a hand card and
    of any other card get one refusal and nothing is locked in. The Mayor's own minion and the
    player keep their double submits."""
    session, mayor, [(p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "posse"), Fighter(m1, "gang")])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=m1)  # NPCs declare and draw first
    combat_declare(combat=combat, by=p1, character=hero, technique="pelea", target=m1)
    combat_draw(combat=combat, by=p1, character=hero)  # drawn on the player's phone: not the Mayor's
    combat.refresh_from_db()
    hand, minion_hand = combat.state["hands"][f"k{hero.pk}"], combat.state["hands"][f"k{m1.pk}"]
    mayor_client = _client(mayor)
    url = reverse("play_combat_choose", args=[session.pk, combat.pk, hero.pk])
    minion_url = reverse("play_combat_choose", args=[session.pk, combat.pk, m1.pk])
    assert _errors(mayor_client.post(minion_url, {"cards": [minion_hand[0]]}, **HX).content.decode(),
                   "combat-error") == ()
    before = _snapshot(session)
    answers = {uid: _errors(mayor_client.post(url, {"cards": [uid]}, **HX).content.decode(), "combat-error")
               for uid in [*hand, _outside(session, hand)]}
    assert set(answers.values()) == {(NOT_YOUR_HAND % {"name": hero.name},)}, answers
    assert _errors(mayor_client.post(url, {"cards": hand[:2]}, **HX).content.decode(), "combat-error") \
        == (NOT_YOUR_HAND % {"name": hero.name},)
    assert _snapshot(session) == before
    assert f"k{hero.pk}" not in CombatRound.objects.get(pk=combat.pk).state["plays"]
    # the minion's double submit (the Mayor holds it) and a card outside the player's hand
    assert _errors(mayor_client.post(minion_url, {"cards": [minion_hand[0]]}, **HX).content.decode(),
                   "combat-error") == ()
    player = _client(p1)
    assert _errors(player.post(url, {"cards": [_outside(session, hand)]}, **HX).content.decode(),
                   "combat-error") == ("Choose among the cards you drew.",)
    assert _errors(player.post(url, {"cards": ["nonsense"]}, **HX).content.decode(),
                   "combat-error") == ("Choose among the cards you drew.",)
    assert _snapshot(session) == before


def test_fr_exch_7_the_loser_of_a_bet_cannot_find_out_which_of_their_cards_the_winner_took():
    """FR-EXCH-7 / ruling 13: the winner picks the loser's card face down; the loser (and the Mayor,
    who did not take the step) posting the taken step with every position and every card code gets
    the answer of any stale step. The winner's own double submit is a no-op."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    phase_switch(session=session, by=mayor)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    offered = exchange_choices(engine(session), exchange, seat_key(hero.pk))
    url = reverse("play_exchange_choose", args=[session.pk, exchange.pk])
    winner = _client(p1)
    assert _errors(winner.post(url, {"step": "take", "picks": ["#2"]}, **HX).content.decode()) == ()
    exchange.refresh_from_db()
    assert exchange.step == "give"
    before = _snapshot(session)
    assert _errors(winner.post(url, {"step": "take", "picks": ["#2"]}, **HX).content.decode()) == ()
    deck = engine(session).player_decks[seat_key(rival.pk)]
    tries = [f"#{i + 1}" for i in range(len(offered))] + list(deck)
    for user in (p2, mayor):
        client = _client(user)
        answers = {pick: _errors(client.post(url, {"step": "take", "picks": [pick]}, **HX).content.decode())
                   for pick in tries}
        assert set(answers.values()) == {("This exchange is already settled.",)}, answers
    assert _snapshot(session) == before


def test_fr_exch_6_the_mayor_cannot_find_out_the_card_a_swapper_gave_by_face():
    """A Tesoro swap in phase 2 (FR-EXCH-6): the swapper gives a card of their own deck by face,
    which the Mayor does not see; his posts of that step answer the same for every card. The
    swapper's double submit is a no-op; once the partner gives too the swap is done and the stale
    step still answers the same to the partner."""
    session, mayor, [(p1, a), (p2, b)], _ = make_table(players=2, minions=0)
    phase_switch(session=session, by=mayor)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[a, b], count=1, swaps=1,
                                            request_key="share")
    for sharer, user in ((a, p1), (b, p2)):
        treasure_share_vote(exchange=sharing, by=user, sharer=sharer, keepers=[a])
    treasure_share_swap(exchange=sharing, by=p2, sharer=b, partner=a, request_key="swap")
    swap = Exchange.objects.get(session=session, kind="treasure_swap")
    own = [o["uid"] for o in exchange_choices(engine(session), swap, seat_key(b.pk)) if o["uid"]]
    url = reverse("play_exchange_choose", args=[session.pk, swap.pk])
    swapper = _client(p2)
    assert _errors(swapper.post(url, {"step": "give", "picks": [own[0]]}, **HX).content.decode()) == ()
    before = _snapshot(session)
    assert _errors(swapper.post(url, {"step": "give", "picks": [own[0]]}, **HX).content.decode()) == ()
    mayor_client = _client(mayor)
    answers = {uid: _errors(mayor_client.post(url, {"step": "give", "picks": [uid]}, **HX).content.decode())
               for uid in own}
    assert set(answers.values()) == {("This exchange is already settled.",)}, answers
    assert _snapshot(session) == before
    partner_own = [o["uid"] for o in exchange_choices(engine(session), Exchange.objects.get(pk=swap.pk),
                                                      seat_key(a.pk)) if o["uid"]]
    exchange_choose(exchange=swap, by=p1, step="give_b", picks=[partner_own[0]])
    assert Exchange.objects.get(pk=swap.pk).status == Exchange.Status.DONE
    partner = _client(p1)
    answers = {uid: _errors(partner.post(url, {"step": "give", "picks": [uid]}, **HX).content.decode())
               for uid in own[:3]}
    assert set(answers.values()) == {("This exchange is already settled.",)}, answers


def test_fr_exch_6_a_vote_for_another_sharer_is_refused_alike_whatever_it_names():
    """Treasure votes carry no card, and the permission comes before the double submit: a sharer's
    player posting, for the other sharer, exactly the vote that sharer made or another one gets the
    same 404 and nothing changes."""
    session, mayor, [(p1, a), (p2, b)], _ = make_table(players=2, minions=0)
    phase_switch(session=session, by=mayor)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[a, b], count=1, swaps=1,
                                            request_key="share")
    treasure_share_vote(exchange=sharing, by=p2, sharer=b, keepers=[b])
    before = _snapshot(session)
    url = reverse("play_treasure_share", args=[session.pk, sharing.pk])
    client = _client(p1)
    for keeper in (b, a):
        vote = {"action": "keeper", "character": b.pk, "keeper": [keeper.pk]}
        assert client.post(url, vote, **HX).status_code == 404
    assert _snapshot(session) == before


def test_a_card_code_never_changes_the_answer_to_a_non_holder_in_a_trait_check_with_a_joker():
    """A joker's suit picker is looked at only after the holder check: posting a joker with a suit,
    a plain card with a suit, or a code that is no card at all gives the Mayor the same answer."""
    session, mayor, [(p1, hero)], _ = make_table(players=1, minions=0)
    jokers = [u for u in rules_session.all_cards(engine(session)) if Card.from_uid(u).is_joker]
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    part = check_draw(participant=prueba.participants.get(), by=p1)
    before = _snapshot(session)
    answers = _probe_choose(session, mayor, part, [*part.drawn, *jokers, "9:ZZ"])
    assert set(answers.values()) == {(NOT_YOUR_HAND % {"name": hero.name},)}, answers
    assert _snapshot(session) == before
