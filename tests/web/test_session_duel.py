"""The pistol duel in live sessions (FR-CMB-15, FR-EXCH-3): the Mayor calls it with each
duellist's ranged weapon; it is an opposed Manos (Disparo rápido) check drawn on each duellist's
phone (the Mayor for NPCs) with the odds shown; one reveal; the loser takes one full-damage hit (no
absorption), Tablas hits both, nobody with suit or colour draws again (FR-OPP-5); then the duel's
card exchange opens through the exchange services."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from frontera.characters.services import npc_create
from frontera.play.models import (
    MAYOR_SEAT,
    Check,
    Exchange,
    GameSession,
    Participant,
    PistolDuel,
    SessionEvent,
    seat_key,
)
from frontera.play.selectors.core import render_message
from frontera.play.services.checks import check_choose, check_draw
from frontera.play.services.core import SessionError
from frontera.play.services.duels import pistol_duel_start
from frontera.play.services.exchanges import exchange_choices, exchange_choose
from frontera.play.services.fighters import Fighter, combatant_spec
from frontera.rules import characters as rules_characters
from frontera.rules import combat as rules_combat
from frontera.rules import odds as rules_odds
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from tests.factories import assert_conserved, engine, make_protagonist, make_table, set_tracks, stack_pile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _gunman(campaign, *, name="Bandido", manos=3, skills=("disparo_rapido",), equipment=None, aguante=None):
    traits = {"manos": manos, "sentidos": 2, "musculo": 2, "cabeza": 2}
    return npc_create(campaign=campaign, by=campaign.mayor, kind="npc", name=name, traits=traits, skills=list(skills),
                      equipment=equipment if equipment is not None else {"revolver": 1}, aguante=aguante)


def _pile(session, suit, count, *, low=True, exclude=()):
    """``count`` pile cards of ``suit`` (lowest or highest first); jokers never."""
    cards = sorted((u for u in engine(session).pile if Card.from_uid(u).suit == suit and u not in exclude),
                   key=lambda u: Card.from_uid(u).value, reverse=not low)
    return cards[:count]


def _draw_and_play(session, duel, character, who, uid, filler_suit="H"):
    """Stack the pile so ``character`` draws ``uid`` (and fillers of another suit), then play it."""
    duel.refresh_from_db()
    part = duel.prueba.participants.get(character=character)
    fillers = _pile(session, filler_suit, part.cards - 1, exclude=[uid])
    stack_pile(session, fillers + [uid])
    part = check_draw(participant=part, by=who)
    assert uid in part.drawn
    return check_choose(participant=part, by=who, card=uid)


def _health(character):
    character.refresh_from_db()
    return character.sheet["tracks"]["health"]


def _decisions(session, rule):
    return [e for e in SessionEvent.objects.filter(session=session, kind="decision").order_by("pk") if rule in e.rules]


def _snapshot(session):
    return (GameSession.objects.get(pk=session.pk).state, SessionEvent.objects.filter(session=session).count(),
            PistolDuel.objects.count(), Check.objects.count(), Exchange.objects.count())


def test_fr_cmb_15_duel_draws_manos_disparo_rapido_cards_per_fr_chk_1():
    """Cards = Manos + 2 with Disparo rápido − track penalties (FR-CHK-1), the engine's duel_cards."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    gunman = _gunman(session.campaign, manos=4)
    set_tracks(rival, health=-1)  # Herido: one card less
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver",
                                      second=gunman, second_weapon="revolver")
    parts = {p.character_id: p for p in duel.prueba.participants.all()}
    assert {(p.trait, p.skill) for p in parts.values()} == {("manos", "disparo_rapido")}
    assert parts[hero.pk].cards == 3 and parts[gunman.pk].cards == 4 + 2
    assert parts[hero.pk].seat == seat_key(hero.pk) and parts[gunman.pk].seat == MAYOR_SEAT
    other = pistol_duel_start(session=session, by=mayor, first=rival, first_weapon="revolver",
                                       second=gunman, second_weapon="revolver")
    assert other.prueba.participants.get(character=rival).cards == 3 - 1
    spec = combatant_spec(Fighter(gunman, "a"), {})
    assert rules_combat.duel_cards(spec) == parts[gunman.pk].cards  # the engine agrees (no equipment bonus)
    assert duel.prueba.kind == Check.Kind.OPPOSED
    from frontera.play.selectors.checks import check_label  # the label is read in the reader's language

    with translation.override("es"):
        assert "Revólver" in check_label(duel.prueba)
    assert "Revolver" in check_label(duel.prueba)


def test_fr_cmb_15_loser_takes_one_full_damage_hit_without_absorption_and_the_winner_none():
    """2♠ against a heart: the winner's 2 is far below the loser's Aguante 7, which in a fight would
    absorb the whole hit (FR-CMB-8: 2 − 3 → 0); in a duel the loser takes the full 1 + 1 = 2."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver",
                                      second=rival, second_weapon="revolver")
    low_spade = _pile(session, "S", 1)[0]
    aguante = rules_characters.Character.from_json(rival.sheet).aguante
    assert Card.from_uid(low_spade).value < aguante == 7
    _draw_and_play(session, duel, hero, p1, low_spade, filler_suit="D")
    assert _health(hero) == 0 and _health(rival) == 0  # nothing happens before the reveal
    high_heart = _pile(session, "H", 1, low=False)[0]
    _draw_and_play(session, duel, rival, p2, high_heart, filler_suit="D")
    duel.refresh_from_db()
    assert duel.status == "settled" and duel.result["redraw"] is False
    assert duel.result["damage"] == {f"k{hero.pk}": 0, f"k{rival.pk}": 2}
    assert _health(hero) == 0 and _health(rival) == -2  # Malherido: full damage, no absorption
    assert rules_combat.damage_taken(2, Card.from_uid(low_spade).value, 7) == 0  # what a fight would have done
    hits = [e for e in _decisions(session, "FR-CMB-15") if "weapon" in e.params]
    assert len(hits) == 1 and hits[0].params["who"] == rival.name and hits[0].params["damage"] == 2
    assert "no absorption" in render_message(hits[0].message, hits[0].params)
    assert {"FR-CMB-7", "FR-HLT-1"} <= set(hits[0].rules)
    assert Participant.objects.get(prueba=duel.prueba, character=hero).outcome == "win"
    assert_conserved(session)


def test_fr_cmb_15_tablas_both_take_a_full_damage_hit_and_fr_exch_3_swaps_two_random_cards_each_way():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0, decks=2)
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver",
                                      second=rival, second_weapon="revolver")
    state = engine(session)
    by_code = {}
    for uid in state.pile:
        card = Card.from_uid(uid)
        if card.suit == "S" and not card.is_joker:
            by_code.setdefault(card.code, []).append(uid)
    pair = next(uids for uids in by_code.values() if len(uids) == 2)  # the same ♠ of both decks
    _draw_and_play(session, duel, hero, p1, pair[0], filler_suit="H")
    before = engine(session)
    sizes = {s: len(rules_session.owned_cards(before, s)) for s in (seat_key(hero.pk), seat_key(rival.pk))}
    _draw_and_play(session, duel, rival, p2, pair[1], filler_suit="H")
    duel.refresh_from_db()
    assert duel.result["outcome"] == {f"k{hero.pk}": "tie", f"k{rival.pk}": "tie"}
    assert _health(hero) == -2 and _health(rival) == -2
    exchange = duel.exchange
    assert exchange.kind == Exchange.Kind.DUEL_TIE and exchange.status == "done"
    moved = SessionEvent.objects.filter(session=session, kind="card", reason="duel_tie")
    assert moved.count() == 4  # 2 random cards each way (FR-EXCH-3)
    after = engine(session)
    for seat, size in sizes.items():  # the played card joins its player's deck (FR-MODE-4); the swap keeps sizes
        assert len(rules_session.owned_cards(after, seat)) == size + 1
    assert_conserved(session)


def test_fr_exch_3_the_winner_gets_the_duel_exchange_on_their_phone_and_takes_up_to_two():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver",
                                      second=rival, second_weapon="revolver")
    _draw_and_play(session, duel, hero, p1, _pile(session, "H", 1)[0], filler_suit="D")
    _draw_and_play(session, duel, rival, p2, _pile(session, "C", 1)[0], filler_suit="D")  # ♣: colour wins
    duel.refresh_from_db()
    exchange = duel.exchange
    assert (exchange.kind, exchange.status, exchange.first, exchange.second, exchange.chooser, exchange.step) == (
        "duel", "pending", seat_key(rival.pk), seat_key(hero.pk), seat_key(rival.pk), "take")
    assert _health(hero) == -2 and _health(rival) == 0
    before = engine(session)
    loser_deck = len(before.player_decks[seat_key(hero.pk)])
    exchange_choose(exchange=exchange, by=p2, step="take", picks=["#1", "#2"])
    exchange.refresh_from_db()
    options = exchange_choices(engine(session), exchange, seat_key(rival.pk))
    exchange_choose(exchange=exchange, by=p2, step="give", picks=[o["value"] for o in options[:2]])
    exchange.refresh_from_db()
    assert exchange.status == "done"
    assert len(engine(session).player_decks[seat_key(hero.pk)]) == loser_deck
    assert_conserved(session)


def test_fr_cmb_15_fr_opp_5_nobody_with_suit_or_colour_fires_nobody_and_they_draw_again():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver",
                                      second=rival, second_weapon="revolver")
    first_round = duel.prueba
    _draw_and_play(session, duel, hero, p1, _pile(session, "H", 1, low=False)[0], filler_suit="D")
    _draw_and_play(session, duel, rival, p2, _pile(session, "D", 1, low=False)[0], filler_suit="H")
    duel.refresh_from_db()
    assert duel.status == "open" and duel.rounds == 2 and duel.prueba_id != first_round.pk
    assert duel.prueba.status == Check.Status.REQUESTED and duel.exchange is None
    assert _health(hero) == 0 and _health(rival) == 0
    assert _decisions(session, "FR-OPP-5")
    _draw_and_play(session, duel, hero, p1, _pile(session, "S", 1)[0], filler_suit="D")
    _draw_and_play(session, duel, rival, p2, _pile(session, "H", 1)[0], filler_suit="D")
    duel.refresh_from_db()
    assert duel.status == "settled" and _health(rival) == -2 and duel.exchange.kind == "duel"


def test_fr_cmb_15_an_npc_duellist_is_drawn_by_the_mayor_and_fr_exch_3_trades_with_the_mayors_deck():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    gunman = _gunman(session.campaign, equipment={"rifle": 1}, manos=1, skills=())
    duel = pistol_duel_start(session=session, by=mayor, first=gunman, first_weapon="rifle",
                                      second=hero, second_weapon="revolver")
    _draw_and_play(session, duel, gunman, mayor, _pile(session, "S", 1)[0], filler_suit="D")
    _draw_and_play(session, duel, hero, p1, _pile(session, "D", 1)[0], filler_suit="H")
    duel.refresh_from_db()
    assert _health(hero) == -3  # a rifle: 1 base + 2 weapon, in full
    exchange = duel.exchange
    assert (exchange.kind, exchange.first, exchange.second, exchange.chooser) == (
        "duel", MAYOR_SEAT, seat_key(hero.pk), MAYOR_SEAT)


def test_fr_exch_3_no_exchange_between_two_npcs_nor_outside_normal_mode():
    session, mayor, _seated, _ = make_table(players=1, minions=0)
    a, b = _gunman(session.campaign, name="Uno"), _gunman(session.campaign, name="Dos")
    duel = pistol_duel_start(session=session, by=mayor, first=a, first_weapon="revolver", second=b,
                                      second_weapon="revolver")
    _draw_and_play(session, duel, a, mayor, _pile(session, "S", 1, low=False)[0], filler_suit="D")
    _draw_and_play(session, duel, b, mayor, _pile(session, "S", 1)[0], filler_suit="D")
    duel.refresh_from_db()
    assert duel.status == "settled" and duel.exchange is None and _health(b) == -2
    assert not Exchange.objects.filter(session=session).exists()
    assert any("Mayor's cards" in e.message for e in _decisions(session, "FR-EXCH-3"))
    session2, mayor2, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0, mode="sin_gestion")
    duel = pistol_duel_start(session=session2, by=mayor2, first=hero, first_weapon="revolver",
                                      second=rival, second_weapon="revolver")
    for _round in range(6):  # Sin gestión shuffles before every check: play the best card until decided
        for character, who in ((hero, p1), (rival, p2)):
            duel.refresh_from_db()
            part = check_draw(participant=duel.prueba.participants.get(character=character), by=who)
            check_choose(participant=part, by=who, card=_best(part.drawn), suit="S")
        duel.refresh_from_db()
        if duel.status == "settled":
            break
    assert duel.status == "settled" and duel.exchange is None and not Exchange.objects.filter(session=session2).exists()
    assert any("Normal mode only" in e.message for e in _decisions(session2, "FR-EXCH-3"))


def _best(uids):
    """The strongest card for Manos: a joker or the highest ♠, else the highest ♣, else any."""
    def strength(uid):
        card = Card.from_uid(uid)
        return (2, 15) if card.is_joker else ({"S": 2, "C": 1}.get(card.suit, 0), card.value)
    return max(uids, key=strength)


def test_fr_cmb_15_refusals_are_clear_and_change_nothing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    unarmed = _gunman(session.campaign, name="Desarmado", equipment={"sable": 1})
    absent = make_protagonist(session.campaign, p1, name="Ausente")  # of the campaign, not seated
    start = dict(session=session, by=mayor)
    before = _snapshot(session)
    cases = [
        (dict(first=hero, first_weapon="revolver", second=hero, second_weapon="revolver"), "two different"),
        (dict(first=hero, first_weapon="rifle", second=rival, second_weapon="revolver"), "no ranged weapon called Rifle"),
        (dict(first=hero, first_weapon="revolver", second=unarmed, second_weapon="sable"),
         "no ranged weapon called Sable"),
        (dict(first=hero, first_weapon="", second=rival, second_weapon="revolver"), "Name the ranged weapon"),
        (dict(first=hero, first_weapon="revolver", second=absent, second_weapon="revolver"), "not at this session"),
    ]
    for kwargs, message in cases:
        with pytest.raises(SessionError, match=message):
            pistol_duel_start(**start, **kwargs)
        assert _snapshot(session) == before
    set_tracks(rival, health=-3)  # Incapacitado: no actions (FR-HLT-1)
    before = _snapshot(session)
    with pytest.raises(SessionError, match="Incapacitated"):  # the English level name (issue #12)
        pistol_duel_start(**start, first=hero, first_weapon="revolver", second=rival, second_weapon="revolver")
    assert _snapshot(session) == before
    other, other_mayor, [(q, stranger)], _ = make_table(players=1, minions=0)
    with pytest.raises(SessionError, match="Choose characters of this campaign"):
        pistol_duel_start(**start, first=hero, first_weapon="revolver", second=stranger,
                                   second_weapon="revolver")
    assert _snapshot(session) == before


def test_fr_cmb_15_double_submits_are_idempotent(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    client.force_login(mayor)
    url = reverse("play_duel_new", args=[session.pk])
    data = {"first": hero.pk, "first_weapon": "revolver", "second": rival.pk, "second_weapon": "revolver",
            "request_key": "duel-once"}
    client.post(url, data, HTTP_HX_REQUEST="true")
    client.post(url, data, HTTP_HX_REQUEST="true")
    duel = PistolDuel.objects.get(session=session)
    assert Check.objects.filter(session=session).count() == 1
    part = duel.prueba.participants.get(character=hero)
    spade = _pile(session, "S", 1, low=False)[0]
    stack_pile(session, _pile(session, "D", 2, exclude=[spade]) + [spade])
    part = check_draw(participant=part, by=p1)
    drawn = list(part.drawn)
    assert check_draw(participant=part, by=p1).drawn == drawn
    check_choose(participant=part, by=p1, card=spade)
    events = SessionEvent.objects.filter(session=session).count()
    check_choose(participant=part, by=p1, card=spade)
    assert SessionEvent.objects.filter(session=session).count() == events
    other = check_draw(participant=duel.prueba.participants.get(character=rival), by=p2)
    check_choose(participant=other, by=p2, card=other.drawn[0], suit="D")
    duel.refresh_from_db()
    assert duel.status == "settled"  # the pile's highest ♠ beats whatever the rival plays as ♦
    health = (_health(hero), _health(rival))
    events = SessionEvent.objects.filter(session=session).count()
    check_choose(participant=other, by=p2, card=other.drawn[0], suit="D")  # the same tap again
    assert SessionEvent.objects.filter(session=session).count() == events
    if len(other.drawn) > 1:
        with pytest.raises(SessionError, match="already resolved"):  # a stale other card after the reveal
            check_choose(participant=other, by=p2, card=other.drawn[-1], suit="D")
    assert (_health(hero), _health(rival)) == health
    assert Exchange.objects.filter(session=session).count() == 1
    assert PistolDuel.objects.filter(session=session).count() == 1


def _give(character, item):
    """Put one ``item`` of the catalogue into the character's equipment (scenario set-up)."""
    character.refresh_from_db()
    character.sheet = {**character.sheet, "equipment": {**character.sheet.get("equipment", {}), item: 1}}
    character.save(update_fields=["sheet"])


def test_fr_cmb_15_through_the_pages_with_odds_and_secrecy_before_the_reveal(client):
    """The Mayor calls the duel from the dashboard; each player sees the exact odds of their own
    draw (FR-ODDS-1) and draws and taps a card on their phone; until the one reveal neither the
    rival nor the Mayor sees a player's cards on any page or fragment; bad input gets a message."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    client.force_login(mayor)
    assert 'data-testid="open-duel"' in client.get(session.get_absolute_url()).content.decode()
    page = client.get(reverse("play_action_form", args=[session.pk, "duel"])).content.decode()  # on demand
    assert 'data-testid="start-duel"' in page and 'value="revolver"' in page
    url = reverse("play_duel_new", args=[session.pk])
    bad = client.post(url, {"first": hero.pk, "first_weapon": "sable", "second": rival.pk,
                            "second_weapon": "revolver", "request_key": "x1"}, HTTP_HX_REQUEST="true")
    assert 'data-testid="error"' in bad.content.decode() and not PistolDuel.objects.exists()
    page = client.get(reverse("play_action_form", args=[session.pk, "duel"])).content.decode()
    assert 'value="rifle"' not in page  # the list offers only what someone carries (issue #10)
    _give(rival, "rifle")  # now the rifle is offered (the rival's), and the hero still carries none
    page = client.get(reverse("play_action_form", args=[session.pk, "duel"])).content.decode()
    assert re.search(r'value="rifle">Rifle — [^<]*' + rival.name, page)
    wrong = client.post(url, {"first": hero.pk, "first_weapon": "rifle", "second": rival.pk,
                              "second_weapon": "revolver", "request_key": "x2"}, HTTP_HX_REQUEST="true")
    assert "carries no ranged weapon called Rifle" in wrong.content.decode() and not PistolDuel.objects.exists()
    client.post(url, {"first": hero.pk, "first_weapon": "revolver", "second": rival.pk, "second_weapon": "revolver",
                      "request_key": "x3"}, HTTP_HX_REQUEST="true")
    duel = PistolDuel.objects.get()
    mine = duel.prueba.participants.get(character=hero)
    client.force_login(p1)
    phone = client.get(session.get_absolute_url()).content.decode()
    # FR-ODDS-1 generalised, FR-OPP-1..5: the chance to win / tie / lose over the cards p1 has not
    # seen, both drawing from the one pile (issue #12: no longer trait odds from the real pile)
    state = engine(session)
    seen = rules_session.visible_cards(state, seat_key(hero.pk))
    unseen = [uid for uid in rules_session.all_cards(state) if uid not in seen]
    pile = rules_odds.Source(hidden=len(state.pile), zone="pile")
    theirs = duel.prueba.participants.get(character=rival)
    odds = rules_odds.opposed_odds_seen(unseen, rules_odds.Party(pile, mine.cards, "manos"),
                                        [rules_odds.Party(pile, theirs.cards, "manos")])
    shown = re.search(r'data-testid="odds">(.*?)</p>', phone, re.S).group(1)
    for key in ("win", "tie", "loss"):
        assert f"{float(odds[key]) * 100:.1f}" in shown
    assert "Win" in shown and "Lose" in shown and f'data-testid="draw-{mine.pk}"' in phone
    # the rival draws and chooses on their phone
    client.force_login(p2)
    theirs = duel.prueba.participants.get(character=rival)
    client.post(reverse("play_draw", args=[session.pk, theirs.pk]), HTTP_HX_REQUEST="true")
    theirs.refresh_from_db()
    secret = {Card.from_uid(u).label for u in theirs.drawn}
    client.post(reverse("play_choose", args=[session.pk, theirs.pk]), {"card": theirs.drawn[0]},
                HTTP_HX_REQUEST="true")
    theirs.refresh_from_db()
    assert theirs.status == "chosen"
    client.force_login(p1)  # the rival's face-down hand is a part of p1's unseen cards: same odds
    after = client.get(session.get_absolute_url()).content.decode()
    assert re.search(r'data-testid="odds">(.*?)</p>', after, re.S).group(1) == shown
    client.force_login(p2)  # the holder sees them (so the checks below look for something real)
    assert any(f'aria-label="{label}"' in client.get(session.get_absolute_url()).content.decode()
               for label in secret - {"JK"})
    for viewer in (p1, mayor):
        client.force_login(viewer)
        for fragment in (None, "checks", "feed", "board", "me"):
            response = client.get(session.get_absolute_url(), {"fragment": fragment} if fragment else {})
            text = response.content.decode()
            for label in secret - {"JK"}:
                assert f'aria-label="{label}"' not in text, (viewer, fragment, label)
    # the one reveal: p1 draws and taps on the phone, then everyone sees both played cards
    client.force_login(p1)
    client.post(reverse("play_draw", args=[session.pk, mine.pk]), HTTP_HX_REQUEST="true")
    mine.refresh_from_db()
    response = client.post(reverse("play_choose", args=[session.pk, mine.pk]), {"card": mine.drawn[0], "suit": "S"},
                           HTTP_HX_REQUEST="true")
    duel.refresh_from_db()
    assert duel.prueba_id != mine.prueba_id or duel.status == "settled"
    text = response.content.decode()
    assert f'data-testid="outcome-{theirs.pk}"' in text
    played = Card.from_uid(theirs.played).label
    if played != "JK":
        assert f'aria-label="{played}"' in text


def test_fr_cmb_15_secrecy_crawl_no_url_fragment_or_action_shows_a_duellists_cards_before_the_reveal(client):
    """The secrecy crawl of tests/web/test_session_secrecy.py over a table with duels in progress:
    p2 has drawn and chosen face down against p1 (who has not drawn); the Mayor has drawn for an NPC
    in a second duel against p1. p1 requests every URL of the app (the duel form included), with
    every fragment, GET and POST, and sees neither p2's nor the Mayor's duel cards."""
    from tests.web.test_session_secrecy import FRAGMENTS, _assert_clean, _forbidden, _urls

    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    gunman = _gunman(session.campaign)
    duel = pistol_duel_start(session=session, by=mayor, first=hero, first_weapon="revolver", second=rival,
                                      second_weapon="revolver")
    part = check_draw(participant=duel.prueba.participants.get(character=rival), by=p2)
    check_choose(participant=part, by=p2, card=part.drawn[0], suit="S")
    other = pistol_duel_start(session=session, by=mayor, first=gunman, first_weapon="revolver",
                                       second=hero, second_weapon="revolver")
    check_draw(participant=other.prueba.participants.get(character=gunman), by=mayor)
    hidden, labels, _state = _forbidden(session, seat_key(hero.pk))
    duel_cards = {Card.from_uid(u).label for p in Participant.objects.exclude(character=hero) for u in p.drawn}
    assert duel_cards - {"JK"} and duel_cards - {"JK"} <= labels  # the crawl looks for them
    urls = _urls(session, hero)
    assert reverse("play_duel_new", args=[session.pk]) in urls
    client.force_login(p1)
    for url in urls:
        for fragment in [None, *FRAGMENTS]:
            text = client.get(url, {"fragment": fragment} if fragment else {}, HTTP_HX_REQUEST="true").content.decode()
            _assert_clean(text, hidden, labels, ("GET", url, fragment))
        for card in sorted(hidden)[:2] + [""]:
            data = {"card": card, "suit": "S", "first": hero.pk, "first_weapon": "revolver", "second": rival.pk,
                    "second_weapon": "revolver", "request_key": "crawl"}
            text = client.post(url, data, follow=True).content.decode()
            _assert_clean(text, hidden, labels, ("POST", url, card))
    assert PistolDuel.objects.count() == 2  # a player cannot call a duel
    after, _labels, _ = _forbidden(session, seat_key(hero.pk))
    assert after == hidden


def test_fr_cmb_15_a_full_hit_can_kill_the_loser_stops_at_muerto_and_calls_the_fr_hlt_3_death_roll():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2, minions=0)
    gunman = _gunman(session.campaign, equipment={"rifle": 1})
    set_tracks(hero, health=-2)  # Malherido: Manos 3 − 2 = 1 card
    duel = pistol_duel_start(session=session, by=mayor, first=gunman, first_weapon="rifle",
                                      second=hero, second_weapon="revolver")
    assert duel.prueba.participants.get(character=hero).cards == 1
    _draw_and_play(session, duel, gunman, mayor, _pile(session, "C", 1)[0], filler_suit="D")
    _draw_and_play(session, duel, hero, p1, _pile(session, "H", 1, low=False)[0])
    duel.refresh_from_db()
    assert duel.result["damage"][f"k{hero.pk}"] == 3 and _health(hero) == -4  # −2 − 3, never below Muerto
    assert [e.params["who"] for e in _decisions(session, "FR-HLT-3")] == [hero.name]
