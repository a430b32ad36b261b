"""Gambling nights (FR-GMB-2..7): the banca against the house from the Mayor's deck with the dead
man's hand, the attempt to leave as a real check, the settlement into the sheet's money and the
bet's exchange (FR-EXCH-2); azar and habilidad as opposed checks leading into the same exchange."""

import pytest
from django.urls import reverse
from django.utils import translation

from frontera.play.models import MAYOR_SEAT, Exchange, Gamble, SessionEvent, seat_key
from frontera.play.selectors.core import render_message
from frontera.play.services.checks import check_choose, check_draw
from frontera.play.services.core import SessionError
from frontera.play.services.exchanges import exchange_choices, exchange_choose
from frontera.play.services.gambling import banca_begin, banca_deal, banca_try_stop, gamble_contest
from frontera.rules.cards import Card
from tests.factories import assert_conserved, engine, make_table, stack_pile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _money(character):
    character.refresh_from_db()
    return character.sheet["money"]


def _order_banca(gamble, first_codes):
    """Scenario set-up: the banca's deck with the given cards (by code) turned first."""
    gamble.refresh_from_db()
    pile = gamble.state["pile"]
    front = [next(u for u in pile if Card.from_uid(u).code == code) for code in first_codes]
    gamble.state["pile"] = front + [u for u in pile if u not in front]
    Gamble.objects.filter(pk=gamble.pk).update(state=gamble.state)


def _pile_cards(session, suit, count, *, low=True):
    """``count`` cards of ``suit`` (lowest or highest first) to stack on the pile: from the pile, or
    from the players' undrawn decks when a deal left too few there (stack_pile swaps them in; the
    multiset is unchanged). Never a card being drawn, played or set aside."""
    state = engine(session)
    undrawn = list(state.pile) + [uid for p in state.players for uid in state.player_decks[p]]
    cards = sorted((u for u in undrawn if Card.from_uid(u).suit == suit),
                   key=lambda u: (u not in state.pile, Card.from_uid(u).value * (1 if low else -1)))
    chosen = cards[:count]
    return sorted(chosen, key=lambda u: Card.from_uid(u).value, reverse=not low)


def _stop(session, gamble, who, chosen_uid, filler):
    stack_pile(session, filler + [chosen_uid])
    prueba = banca_try_stop(gamble=gamble, by=who)
    part = check_draw(participant=prueba.participants.get(), by=who)
    assert chosen_uid in part.drawn
    return check_choose(participant=part, by=who, card=chosen_uid)


def test_fr_gmb_2_3_4_banca_win_is_settled_into_money_and_the_winner_chooses_the_exchange():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    money = _money(hero)
    gamble = banca_begin(session=session, by=mayor, character=hero)
    assert len(gamble.state["pile"]) == 8 + 4  # the Mayor's 8 and the dead man's hand (FR-GMB-2)
    _order_banca(gamble, ["AS"])
    with pytest.raises(SessionError, match="Play a round"):
        banca_try_stop(gamble=gamble, by=p1)
    banca_deal(gamble=gamble, by=mayor, rounds_seen=0)
    banca_deal(gamble=gamble, by=mayor, rounds_seen=0)  # a double submit: no second round
    gamble.refresh_from_db()
    assert (gamble.state["player"], gamble.state["bank"], len(gamble.state["rounds"])) == (3, 0, 1)
    diamonds = _pile_cards(session, "D", 1, low=False)
    _stop(session, gamble, p1, diamonds[0], _pile_cards(session, "C", 2))  # Éxito: leaves now (FR-GMB-3)
    gamble.refresh_from_db()
    assert gamble.status == "settled"
    assert _money(hero) == money + (money * 3) // 4  # r = −3: winnings (money / 4) × 3 (FR-GMB-4)
    exchange = Exchange.objects.get(session=session)
    assert (exchange.kind, exchange.first, exchange.second, exchange.chooser) == (
        "bet", seat_key(hero.pk), MAYOR_SEAT, seat_key(hero.pk))
    assert_conserved(session)


def test_fr_gmb_6_banca_cheat_caught_loses_all_and_the_mayor_takes_a_card():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    gamble = banca_begin(session=session, by=mayor, character=hero, cheating=True)
    _order_banca(gamble, ["8C"])
    banca_deal(gamble=gamble, by=mayor)
    prueba_part = _stop(session, gamble, p1, _pile_cards(session, "S", 1)[0], _pile_cards(session, "H", 2))
    assert prueba_part.trait == "manos" and prueba_part.skill == "mana"  # Manos (Maña) instead (FR-GMB-6)
    gamble.refresh_from_db()
    assert gamble.status == "settled" and gamble.state["result"]["exchange"] == "caught_cheating"
    assert _money(hero) == 0
    exchange = Exchange.objects.get(session=session)
    assert (exchange.kind, exchange.chooser, exchange.second) == ("cheat", MAYOR_SEAT, seat_key(hero.pk))
    before = engine(session)
    exchange_choose(exchange=exchange, by=mayor, step="take", picks=["#1"])
    state = engine(session)  # the rival takes one and gives nothing back (FR-EXCH-2)
    assert len(state.player_decks[MAYOR_SEAT]) == len(before.player_decks[MAYOR_SEAT]) + 1
    assert len(state.player_decks[seat_key(hero.pk)]) == len(before.player_decks[seat_key(hero.pk)]) - 1


def test_fr_gmb_3_no_round_while_an_attempt_to_leave_is_open_and_a_failed_attempt_keeps_playing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    gamble = banca_begin(session=session, by=mayor, character=hero)
    banca_deal(gamble=gamble, by=mayor)
    stack_pile(session, _pile_cards(session, "S", 5))  # Cabeza (♦): all spades → Fracaso
    prueba = banca_try_stop(gamble=gamble, by=p1)
    assert banca_try_stop(gamble=gamble, by=p1).pk == prueba.pk  # double submit
    before = Gamble.objects.get(pk=gamble.pk).state
    with pytest.raises(SessionError, match="attempt to leave"):
        banca_deal(gamble=gamble, by=mayor)
    assert Gamble.objects.get(pk=gamble.pk).state == before
    part = check_draw(participant=prueba.participants.get(), by=p1)
    check_choose(participant=part, by=p1, card=part.drawn[0])
    gamble.refresh_from_db()
    assert gamble.status == "open" and gamble.state["status"] == "playing" and not gamble.state["may_stop"]
    with pytest.raises(SessionError, match="another round"):
        banca_try_stop(gamble=gamble, by=p1)
    banca_deal(gamble=gamble, by=mayor)


def _contest_play(session, gamble, plays):
    """Each (user, character, suit of the card to play, high?, suit of the others) draws and plays it."""
    for who, character, suit, high, other in plays:
        part = gamble.prueba.participants.get(character=character)
        uid = _pile_cards(session, suit, 1, low=not high)[0]
        stack_pile(session, _pile_cards(session, other, 2) + [uid])
        part = check_draw(participant=part, by=who)
        check_choose(participant=part, by=who, card=uid)


def test_fr_gmb_5_azar_opposed_cabeza_then_luck_and_the_bet_exchange():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    m1, m2 = _money(hero), _money(rival)
    gamble = gamble_contest(session=session, by=mayor, kind="azar", characters=[hero, rival])
    assert {p.trait for p in gamble.prueba.participants.all()} == {"cabeza"}
    _contest_play(session, gamble, [(p1, hero, "D", True, "S"), (p2, rival, "S", False, "C")])
    gamble.refresh_from_db()
    assert gamble.status == "settled" and gamble.state["roles"] == {str(hero.pk): "victory", str(rival.pk): "defeat"}
    assert _money(hero) in (m1, 2 * m1) and _money(rival) in (m2, 0)  # dead man's hand: Ace or 8 (FR-GMB-5)
    lines = [e for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-GMB-5" in e.rules]
    assert len(lines) >= 3
    exchange = Exchange.objects.get(session=session)
    assert (exchange.kind, exchange.chooser, exchange.second) == ("bet", seat_key(hero.pk), seat_key(rival.pk))
    assert_conserved(session)


def test_fr_gmb_7_habilidad_contest_uses_the_contests_trait_and_skill():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    gamble = gamble_contest(session=session, by=mayor, kind="habilidad", characters=[hero, rival],
                                     contest="pulso")
    assert {(p.trait, p.skill) for p in gamble.prueba.participants.all()} == {("musculo", "fuerza")}
    with pytest.raises(SessionError, match="drinking"):
        gamble_contest(session=session, by=mayor, kind="habilidad", characters=[hero, rival],
                                contest="duelo_bebida")
    with pytest.raises(SessionError, match="two characters"):
        gamble_contest(session=session, by=mayor, kind="azar", characters=[hero])


def test_fr_gmb_6_azar_cheat_draws_manos_mana():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    gamble = gamble_contest(session=session, by=mayor, kind="azar", characters=[hero, rival],
                                     cheats=[rival.pk])
    traits = {p.character_id: (p.trait, p.skill) for p in gamble.prueba.participants.all()}
    assert traits == {hero.pk: ("cabeza", "astucia"), rival.pk: ("manos", "mana")}


def test_banca_on_the_pages_the_player_may_only_try_to_leave_their_own(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    client.force_login(mayor)
    response = client.post(reverse("play_gamble_new", args=[session.pk]),
                           {"kind": "banca", "characters": [hero.pk], "request_key": "b1"}, HTTP_HX_REQUEST="true")
    gamble = Gamble.objects.get(session=session)
    assert f'data-testid="banca-{gamble.pk}"' in response.text
    response = client.post(reverse("play_gamble_new", args=[session.pk]),
                           {"kind": "banca", "characters": [hero.pk, rival.pk], "request_key": "b2"},
                           HTTP_HX_REQUEST="true")
    assert "one character at a time" in response.text, response.text[:400]
    client.post(reverse("play_gamble_step", args=[session.pk, gamble.pk, "repartir"]), {"rounds": "0"})
    client.force_login(p2)
    page = client.get(session.get_absolute_url()).text
    assert f'data-testid="banca-{gamble.pk}"' in page and f"banca-stop-{gamble.pk}" not in page
    assert client.post(reverse("play_gamble_step", args=[session.pk, gamble.pk, "plantarse"])).status_code == 404
    assert client.post(reverse("play_gamble_step", args=[session.pk, gamble.pk, "repartir"])).status_code == 404
    client.force_login(p1)
    page = client.get(session.get_absolute_url()).text
    assert f"banca-stop-{gamble.pk}" in page
    client.post(reverse("play_gamble_step", args=[session.pk, gamble.pk, "plantarse"]))
    gamble.refresh_from_db()
    assert gamble.prueba is not None and gamble.prueba.participants.get().character_id == hero.pk


def test_fr_gmb_6_a_banca_cheat_is_open_at_the_table_every_page_says_so(client):
    """FR-GMB-6: the feed tells everyone that the player sits down cheating, and their attempt to
    leave is a Manos (Maña) check every page shows; the banca's own heading says it to every viewer
    too (it was the Mayor's only, so a player read it in the feed and not where the banca is)."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    honest = banca_begin(session=session, by=mayor, character=rival)
    cheat = banca_begin(session=session, by=mayor, character=hero, cheating=True)
    for user in (mayor, p1, p2):
        client.force_login(user)
        page = client.get(session.get_absolute_url()).text
        banca = page.split(f'data-testid="banca-{cheat.pk}"', 1)[1].split("</h3>", 1)[0]
        assert "cheating: Hands (Knack)" in banca, (user, banca)
        other = page.split(f'data-testid="banca-{honest.pk}"', 1)[1].split("</h3>", 1)[0]
        assert "cheating" not in other
        assert ", cheating:" in page  # the feed's line, as before


def test_fr_gmb_3_a_banca_its_player_cannot_leave_is_called_off_by_the_mayor_and_nothing_is_paid(client):
    """FR-GMB-3 with FR-CHK-1: a walk found Djamal (Cabeza 1, Herido) at a banca he could never
    leave: his attempt had no card to draw, failed at once ("0 cartas · Fracaso", no reason given)
    and kept him playing; the banca could not be called off, so the session could not end. The
    check now says why it failed, and the Mayor calls the banca off: money unchanged, no exchange,
    its open attempt to leave withdrawn with it, the session free to end; a player cannot."""
    from frontera.play.services.gambling import banca_withdraw
    from frontera.play.services.sessions import still_open
    from tests.factories import set_tracks

    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    money = _money(hero)
    hero.sheet = {**hero.sheet, "traits": {**hero.sheet["traits"], "cabeza": 1}}
    hero.save(update_fields=["sheet"])
    set_tracks(hero, health=-1)  # Herido: 1 − 1 = no card (FR-CHK-1)
    gamble = banca_begin(session=session, by=mayor, character=hero)
    banca_deal(gamble=gamble, by=mayor)
    prueba = banca_try_stop(gamble=gamble, by=p1)
    part = prueba.participants.get()
    assert (part.status, part.outcome) == ("resolved", "failure")
    client.force_login(p1)
    page = client.get(session.get_absolute_url()).text
    assert "no card to draw, so it fails without drawing" in page
    assert f"banca-withdraw-{gamble.pk}" not in page
    assert client.post(reverse("play_gamble_step", args=[session.pk, gamble.pk, "retirar"])).status_code == 404
    other = banca_begin(session=session, by=mayor, character=rival)  # its attempt to leave still open
    banca_deal(gamble=other, by=mayor)
    attempt = banca_try_stop(gamble=other, by=p2)
    client.force_login(mayor)
    assert f"banca-withdraw-{gamble.pk}" in client.get(session.get_absolute_url()).text
    client.post(reverse("play_gamble_step", args=[session.pk, gamble.pk, "retirar"]))
    client.post(reverse("play_gamble_step", args=[session.pk, gamble.pk, "retirar"]))  # a double submit
    gamble.refresh_from_db()
    assert gamble.status == "settled" and gamble.state["withdrawn"]
    assert _money(hero) == money and not Exchange.objects.filter(session=session).exists()
    assert set(still_open(session)) == {"a check", "a gambling game"}
    banca_withdraw(gamble=other, by=mayor)
    attempt.refresh_from_db()
    assert attempt.withdrawn and attempt.status == "resolved"
    assert still_open(session) == []
    lines = [e.message for e in SessionEvent.objects.filter(session=session, kind="decision").order_by("pk")]
    assert lines.count("The Mayor calls off %(who)s's banca: nothing is paid, and %(who)s keeps the $%(money)s "
                       "they sat down with.") == 2  # one per banca: the double submit added none


def _set_money(character, money):
    character.refresh_from_db()
    character.sheet = {**character.sheet, "money": money}
    character.save(update_fields=["sheet"])


def test_fr_gmb_4_the_banca_pays_whole_dollars_and_says_the_house_keeps_the_fraction():
    """FR-GMB-4 ruling (docs/rules/combat.md): $10 and r = 1 is $7.50 by the book; the sheet keeps
    whole dollars and the house keeps the fraction: $7, and the log says so."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    _set_money(hero, 10)
    gamble = banca_begin(session=session, by=mayor, character=hero)
    _order_banca(gamble, ["8C"])  # 1 point for the bank: r = 1
    banca_deal(gamble=gamble, by=mayor)
    _stop(session, gamble, p1, _pile_cards(session, "D", 1, low=True)[0], _pile_cards(session, "C", 2))
    gamble.refresh_from_db()
    assert gamble.status == "settled" and gamble.state["result"]["money_exact"] == "15/2"
    assert _money(hero) == 7
    note = SessionEvent.objects.get(session=session, kind="decision", message__contains="whole dollars")
    assert note.params["exact"] == {"_decimal": "7.50"} and note.params["after"] == 7 and "FR-GMB-4" in note.rules
    # the book's figure in the reader's way of writing a number (it was "$7.50" in Spanish too)
    with translation.override("es"):
        assert "serían 7,50 $;" in render_message(note.message, note.params)
    with translation.override("en"):
        assert "$7.50" in render_message(note.message, note.params)


def test_fr_exch_2_fr_gmb_5_azar_among_three_one_winner_settles_with_each_loser():
    """Every bettor stakes one card (ruling): the winner opens a bet with each loser and chooses in
    both, on their phone."""
    session, mayor, [(p1, hero), (p2, rival), (p3, third)], _ = make_table(players=3)
    gamble = gamble_contest(session=session, by=mayor, kind="azar", characters=[hero, rival, third])
    _contest_play(session, gamble, [(p1, hero, "D", True, "S"), (p2, rival, "S", False, "C"),
                                    (p3, third, "C", False, "S")])
    gamble.refresh_from_db()
    assert gamble.state["roles"] == {str(hero.pk): "victory", str(rival.pk): "defeat", str(third.pk): "defeat"}
    bets = list(Exchange.objects.filter(session=session, kind="bet").order_by("pk"))
    assert [(x.first, x.second, x.chooser) for x in bets] == [
        (seat_key(hero.pk), seat_key(rival.pk), seat_key(hero.pk)),
        (seat_key(hero.pk), seat_key(third.pk), seat_key(hero.pk))]
    assert any("FR-EXCH-2" in e.rules and "dealt by lot" in e.message
               for e in SessionEvent.objects.filter(session=session, kind="decision"))
    seats = (seat_key(hero.pk), seat_key(rival.pk), seat_key(third.pk))
    sizes = [len(engine(session).player_decks[s]) for s in seats]
    for bet in bets:
        exchange_choose(exchange=bet, by=p1, step="take", picks=["#1"])
        bet.refresh_from_db()
        mine = exchange_choices(engine(session), bet, seat_key(hero.pk))[0]["value"]
        exchange_choose(exchange=bet, by=p1, step="give", picks=[mine])
    state = engine(session)
    assert [len(state.player_decks[s]) for s in seats] == sizes  # a card taken, a card given, each time
    assert SessionEvent.objects.filter(session=session, kind="card", reason="bet").count() == 4
    assert_conserved(session)


def test_fr_exch_2_fr_gmb_5_azar_among_three_all_in_tablas_is_a_ring_of_random_takes():
    session, mayor, [(p1, hero), (p2, rival), (p3, third)], _ = make_table(players=3)
    gamble = gamble_contest(session=session, by=mayor, kind="azar", characters=[hero, rival, third])
    # nobody plays a red card: FR-OPP-5, everybody in Tablas
    _contest_play(session, gamble, [(p1, hero, "S", True, "C"), (p2, rival, "C", True, "S"),
                                    (p3, third, "S", False, "C")])
    gamble.refresh_from_db()
    assert set(gamble.state["roles"].values()) == {"tie"}
    ring = Exchange.objects.get(session=session, kind="bet_tie")
    assert ring.status == "done" and ring.chosen["ring"] == [seat_key(c.pk) for c in (hero, rival, third)]
    moves = SessionEvent.objects.filter(session=session, kind="card", reason="bet_tie").order_by("pk")
    assert [(m.from_zone, m.to_zone) for m in moves] == [
        (f"deck:c{rival.pk}", f"deck:c{hero.pk}"), (f"deck:c{third.pk}", f"deck:c{rival.pk}"),
        (f"deck:c{hero.pk}", f"deck:c{third.pk}")]
    assert not Exchange.objects.filter(session=session, status="pending").exists()
    assert_conserved(session)


def test_fr_exch_2_fr_gmb_7_habilidad_among_three_an_npc_loser_stakes_the_mayors_deck():
    """A habilidad contest among three (FR-GMB-7): each loser stakes one card; the NPC's comes from
    the Mayor's deck and the exchange names the NPC."""
    session, mayor, [(p1, hero), (p2, rival)], [minion] = make_table(players=2)
    gamble = gamble_contest(session=session, by=mayor, kind="habilidad", characters=[hero, rival, minion],
                                     contest="pulso")
    _contest_play(session, gamble, [(p1, hero, "H", True, "S"), (p2, rival, "S", False, "C"),
                                    (mayor, minion, "C", False, "S")])
    gamble.refresh_from_db()
    roles = gamble.state["roles"]
    assert roles == {str(hero.pk): "victory", str(rival.pk): "defeat", str(minion.pk): "defeat"}
    bets = Exchange.objects.filter(session=session, kind="bet").order_by("pk")
    assert [(x.first, x.second) for x in bets] == [(seat_key(hero.pk), seat_key(rival.pk)),
                                                   (seat_key(hero.pk), MAYOR_SEAT)]
    assert bets[1].second_name == minion.name


def test_fr_gmb_6_a_cheat_ticked_who_does_not_play_is_refused_by_name(client):
    """A walk ticked a cheat who did not play: the game started honest and the tick was dropped."""
    session, mayor, [(p1, hero), (p2, rival), (p3, third)], _ = make_table(players=3)
    client.force_login(mayor)
    answer = client.post(reverse("play_gamble_new", args=[session.pk]),
                         {"kind": "azar", "characters": [hero.pk, rival.pk], "cheats": [third.pk], "request_key": "a1"},
                         HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es")
    assert f"Solo hace trampa quien juega: {third.name} no juega." in answer.content.decode()
    assert not Gamble.objects.filter(session=session).exists()


def test_fr_gmb_5_withdrawing_an_azar_contests_check_calls_the_game_off(client):
    """An azar started by mistake could only be played through (its check refused a withdrawal and
    nothing else called it off): withdrawing its check calls the game off, nothing paid or lost."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    money = (_money(hero), _money(rival))
    gamble = gamble_contest(session=session, by=mayor, kind="azar", characters=[hero, rival])
    check_draw(participant=gamble.prueba.participants.get(character=hero), by=p1)
    client.force_login(mayor)
    checks = client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true",
                        HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Retirar la prueba y anular la partida" in checks
    client.post(reverse("play_check_withdraw", args=[session.pk, gamble.prueba.pk]), HTTP_HX_REQUEST="true")
    gamble.refresh_from_db()
    assert gamble.status == "settled" and gamble.state.get("withdrawn") is True
    assert gamble.prueba.withdrawn and (_money(hero), _money(rival)) == money
    assert not Exchange.objects.filter(session=session).exists()
    line = SessionEvent.objects.filter(session=session, kind="decision").order_by("-pk").first()
    with translation.override("es"):
        assert render_message(line.message, line.params) == (
            "El Mayor anula el juego de azar con su prueba: no se paga ni se pierde nada.")
    assert_conserved(session)


def test_fr_opp_5_an_azar_tablas_calls_for_no_other_check():
    """Nobody on their suit or colour: the azar settles as a tie (its exchange opens), and the reveal
    no longer says "another opposed check is needed" (a walk waited for one that never came)."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    gamble = gamble_contest(session=session, by=mayor, kind="azar", characters=[hero, rival])
    for player, who, card in ((p1, hero, "1:9S"), (p2, rival, "1:9C")):  # Cabeza is ♦, red: both black
        stack_pile(session, [card])
        part = check_draw(participant=gamble.prueba.participants.get(character=who), by=player)
        check_choose(participant=part, by=player, card=card)
    line = SessionEvent.objects.filter(session=session, kind="decision", message__startswith="Reveal").latest("pk")
    with translation.override("es"):
        text = render_message(line.message, line.params)
    assert text.endswith("Nadie jugó su palo ni su color: Tablas."), text


def test_fr_gmb_7_a_habilidad_contest_is_called_off_with_its_check_and_a_bancas_attempt_is_not(client):
    """The contest kinds are withdrawn with their check; a banca's attempt to leave stays the banca's
    to call off (the SQL splits gambles by kind: a later edit to the list is caught here)."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    contest = gamble_contest(session=session, by=mayor, kind="habilidad", characters=[hero, rival],
                             contest="dardos")
    client.force_login(mayor)
    client.post(reverse("play_check_withdraw", args=[session.pk, contest.prueba.pk]), HTTP_HX_REQUEST="true")
    contest.refresh_from_db()
    assert contest.status == "settled" and contest.state.get("withdrawn") is True
    banca = banca_begin(session=session, by=mayor, character=hero)
    banca_deal(gamble=banca, by=mayor)
    attempt = banca_try_stop(gamble=Gamble.objects.get(pk=banca.pk), by=p1)  # the attempt to leave: a check
    checks = client.get(session.get_absolute_url(), {"fragment": "checks"}, HTTP_HX_REQUEST="true").content.decode()
    assert f'data-testid="withdraw-{attempt.pk}"' not in checks
    answer = client.post(reverse("play_check_withdraw", args=[session.pk, attempt.pk]), HTTP_HX_REQUEST="true",
                         HTTP_ACCEPT_LANGUAGE="es")
    assert "anula eso en su lugar" in answer.content.decode()
    attempt.refresh_from_db()
    assert not attempt.withdrawn


def test_fr_gmb_6_a_cheat_refusal_waits_for_who_plays_and_says_them_all(client):
    session, mayor, [(p1, hero), (p2, rival), (p3, third), (p4, fourth)], _ = make_table(players=4)
    client.force_login(mayor)
    url = reverse("play_gamble_new", args=[session.pk])
    answer = client.post(url, {"kind": "azar", "characters": ["999999"], "cheats": [third.pk], "request_key": "c1"},
                         HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Solo hace trampa quien juega" not in answer  # only the real refusal: who plays
    answer = client.post(url, {"kind": "azar", "characters": [hero.pk, rival.pk], "cheats": [third.pk, fourth.pk],
                               "request_key": "c2"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"Solo hace trampa quien juega: {third.name}, {fourth.name} no juegan." in answer
