"""Secrecy crawl (FR-MODE-2, FR-MODE-4, FR-OPP-1, FR-EXCH-7): a player requests EVERY URL of the sessions app
— pages, fragments, actions, the SSE stream — for every object of another player's and of the
Mayor's, and no card they may not see appears anywhere."""

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.urls import URLPattern, reverse

from frontera.play import urls
from frontera.play.models import Check, CombatRound, Exchange, Gamble, Participant
from frontera.play.services.checks import Entry, check_choose, check_draw, check_request, opposed_request
from frontera.play.services.combat import Fighter, combat_choose, combat_declare, combat_draw, combat_start
from frontera.play.services.duels import drinking_duel_start
from frontera.play.services.exchanges import exchange_choose, exchange_start
from frontera.play.services.gambling import banca_begin, banca_deal, banca_try_stop, gamble_contest
from frontera.play.services.medical import medical_request
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from tests.factories import engine, make_table, set_tracks

pytestmark = pytest.mark.django_db

FRAGMENTS = ["me", "zones", "checks", "feed", "board", "combat", "nothing"]
# every fragment, and the live regions a push makes a page fetch together (all, a phone's, the Mayor's)
QUERIES = [{}, *({"fragment": f} for f in FRAGMENTS),
           {"regions": ""}, {"regions": "me,zones,checks,feed,combat"}, {"regions": "board,checks"}]


def _table_with_secrets():
    """Phase 1 (everyone's 8 hidden), p2 with drawn cards pending, an opposed check where p2 and a
    minion have chosen face down while p1 has not drawn yet, the Mayor's minion with drawn cards."""
    session, mayor, seated, (minion, other_minion) = make_table(players=2, minions=2)
    (p1, hero), (p2, rival) = seated
    pending = check_request(session=session, by=mayor, characters=[rival, minion], trait="manos")
    for part, who in zip(pending.participants.order_by("pk"), [p2, mayor], strict=True):
        check_draw(participant=part, by=who)
    opposed = opposed_request(session=session, by=mayor, entries=[
        Entry(hero, "musculo"), Entry(rival, "musculo"), Entry(other_minion, "cabeza")])
    for part in opposed.participants.exclude(character=hero):
        who = p2 if part.character_id == rival.pk else mayor
        part = check_draw(participant=part, by=who)
        check_choose(participant=part, by=who, card=part.drawn[0], suit="H")
    done = check_request(session=session, by=mayor, characters=[rival], trait="sentidos")
    part = check_draw(participant=done.participants.get(), by=p2)
    check_choose(participant=part, by=p2, card=part.drawn[-1], suit="C")  # revealed: may be seen
    # a fight: the minion and p2 hold cards (p2 has locked in face down); p1 has declared only
    combat = combat_start(session=session, by=mayor, fighters=[
        Fighter(hero, "a"), Fighter(rival, "a"), Fighter(other_minion, "b")])
    combat_declare(combat=combat, by=mayor, character=other_minion, technique="pelea", target=rival,
                            band="adyacente")
    combat_draw(combat=combat, by=mayor, character=other_minion)
    combat_declare(combat=combat, by=p2, character=rival, technique="pelea", target=other_minion,
                            band="adyacente")
    combat_draw(combat=combat, by=p2, character=rival)
    combat.refresh_from_db()
    combat_choose(combat=combat, by=p2, character=rival, cards=combat.state["hands"][f"k{rival.pk}"][:1],
                           suit="S")
    combat_declare(combat=combat, by=p1, character=hero, technique="pelea", target=other_minion,
                            band="adyacente")
    # pending exchanges (FR-EXCH-2, -3): p1 chooses blind among p2's cards; p2 has taken one of p1's
    # face down and must still give; a duel between p2 and the Mayor (a minion's side) waits
    exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    waiting = exchange_start(session=session, by=mayor, kind="bet", first=rival, second=hero)
    exchange_choose(exchange=waiting, by=p2, step="take", picks=["#2"])
    exchange_start(session=session, by=mayor, kind="duel", first=other_minion, second=rival)
    # a banca in progress for p2 (FR-GMB-2, -3): two rounds turned, an attempt to leave drawn, unchosen
    banca = banca_begin(session=session, by=mayor, character=rival)
    banca_deal(gamble=banca, by=mayor)
    banca_deal(gamble=banca, by=mayor)
    stop = banca_try_stop(gamble=banca, by=p2)
    check_draw(participant=stop.participants.get(), by=p2)
    # an azar contest (FR-GMB-5) where the minion has chosen face down
    azar = gamble_contest(session=session, by=mayor, kind="azar", characters=[rival, minion])
    part = azar.prueba.participants.get(character=minion)
    part = check_draw(participant=part, by=mayor)
    check_choose(participant=part, by=mayor, card=part.drawn[0], suit="D")
    # a drinking duel in progress (FR-SOB-2) and medical attention called on p2 by p2 (FR-CHK-5)
    drinking_duel_start(session=session, by=mayor, characters=[rival, minion])
    set_tracks(rival, health=-1)
    medical_request(session=session, by=mayor, healer=rival, patient=rival)
    return session, p1, hero


def _forbidden(session, viewer_seat):
    """Labels and uids of every card the viewer may not see now (one deck: labels are unique)."""
    state = engine(session)
    allowed = set(rules_session.visible_cards(state, viewer_seat))
    allowed |= {p.played for p in Participant.objects.filter(prueba__session=session, status="resolved") if p.played}
    # the banca's cards are turned face up for the table (docs/sessions.md, FR-GMB-2)
    allowed |= {r["card"] for g in Gamble.objects.filter(session=session) for r in g.state.get("rounds", [])}
    hidden = set(rules_session.all_cards(state)) - allowed
    allowed_labels = {Card.from_uid(u).label for u in allowed}
    labels = {Card.from_uid(u).label for u in hidden} - allowed_labels
    return hidden, labels, state


def _assert_clean(text, hidden, labels, where):
    for uid in hidden:
        assert f'"{uid}"' not in text and f">{uid}<" not in text, (where, uid)
    for label in labels:
        if label == "JK":
            assert 'aria-label="JK"' not in text, where
            continue
        # "K♣" inside a declared joker's "JK♣" is not that card
        assert not re.search(r"(?<![0-9A-Z])" + re.escape(label), text), (where, label)


def _urls(session, viewer_character):
    """Every URL pattern of the app, with every object of the session that is not the viewer's own
    (other players' and the Mayor's) in its arguments."""
    participants = list(
        Participant.objects.filter(prueba__session=session).exclude(character=viewer_character)
        .values_list("pk", flat=True)
    )
    found = []
    for pattern in urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        keys = set(pattern.pattern.converters)
        if keys == {"pk"} and pattern.name == "play_sessions":
            found.append(reverse(pattern.name, args=[session.campaign.pk]))
        elif keys == {"pk"}:
            found.append(reverse(pattern.name, args=[session.pk]))
        elif keys == {"pk", "participant_id"}:
            found += [reverse(pattern.name, args=[session.pk, p]) for p in participants]
        elif keys == {"pk", "combat_id", "character_id"}:
            found += [reverse(pattern.name, args=[session.pk, c.pk, int(key[1:])])
                      for c in CombatRound.objects.filter(session=session) for key in c.state["combatants"]
                      if int(key[1:]) != viewer_character.pk]
        elif keys == {"pk", "exchange_id"}:  # the viewer's own choices are theirs to make, not crawled
            found += [reverse(pattern.name, args=[session.pk, x.pk])
                      for x in Exchange.objects.filter(session=session).exclude(chooser=f"c{viewer_character.pk}")]
        elif keys == {"pk", "gamble_id", "step"}:
            found += [reverse(pattern.name, args=[session.pk, g.pk, step])
                      for g in Gamble.objects.filter(session=session) for step in ("repartir", "plantarse", "beber", "x")]
        elif keys == {"pk", "combat_id"}:  # the Mayor's death roll (FR-HLT-3): refused to a player
            found += [reverse(pattern.name, args=[session.pk, c.pk]) for c in CombatRound.objects.filter(session=session)]
        elif keys == {"pk", "combat_id", "step"}:
            found += [reverse(pattern.name, args=[session.pk, c.pk, step])
                      for c in CombatRound.objects.filter(session=session) for step in ("revelar", "siguiente", "terminar")]
        elif keys == {"pk", "check_id"}:  # the Mayor's withdrawal of a check: refused to a player
            found += [reverse(pattern.name, args=[session.pk, c.pk]) for c in Check.objects.filter(session=session)]
        elif keys == {"pk", "name"}:  # the Mayor's forms, opened on demand (refused to a player)
            from frontera.play.views.dialogs import TITLES

            found += [reverse(pattern.name, args=[session.pk, name]) for name in [*TITLES, "x"]]
        elif keys == {"pk", "uid"}:  # the history of one card: every third card of the session (of each
            # zone and kind: hidden and public; tests/web/test_session_history.py asks for every hidden one)
            found += [reverse(pattern.name, args=[session.pk, uid])
                      for uid in rules_session.all_cards(engine(session))[::3]]
        else:
            raise AssertionError(f"the crawl does not know {pattern}")
    return found


def test_a_player_finds_no_hidden_card_at_any_url_fragment_action_or_stream(client):
    session, p1, hero = _table_with_secrets()
    hidden, labels, state = _forbidden(session, f"c{hero.pk}")
    assert any(Card.from_uid(u).label in labels for d in state.player_decks.values() for u in d)
    client.force_login(p1)
    requests = 0
    rival_pk = next(s.character_id for s in session.seats.exclude(character=hero))
    for url in _urls(session, hero):
        for params in QUERIES:
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                response = client.get(url, params, **headers)
                _assert_clean(response.content.decode(), hidden, labels, ("GET", url, params))
                requests += 1
        for card in sorted(hidden)[:3] + [""]:  # actions on others' objects, with cards they hold
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                data = {"card": card, "suit": "S", "step": "take", "picks": [card or "#1"], "round": "1",
                        "character": str(rival_pk)}
                response = client.post(url, data, follow=True, **headers)
                _assert_clean(response.content.decode(), hidden, labels, ("POST", url, card))
                requests += 1
    assert requests > 100
    assert any("/intercambios/" in url for url in _urls(session, hero))
    assert any("/juego/" in url for url in _urls(session, hero))
    after, _labels, _ = _forbidden(session, f"c{hero.pk}")
    assert after == hidden  # the crawl changed nothing a player could not


@pytest.mark.django_db(transaction=True)
def test_the_stream_carries_only_versions():
    session, p1, hero = _table_with_secrets()
    hidden, labels, _state = _forbidden(session, f"c{hero.pk}")
    client = AsyncClient()

    async def scenario():
        await sync_to_async(client.force_login)(p1)
        response = await client.get(reverse("live_stream", args=[f"session:{session.pk}"]), {"since": 0})
        iterator = response.streaming_content.__aiter__()
        chunks = [await asyncio.wait_for(iterator.__anext__(), 2) for _ in range(2)]
        await iterator.aclose()
        return "".join(c.decode() if isinstance(c, bytes) else c for c in chunks)

    text = asyncio.run(scenario())
    assert "event: changed" in text  # a phone that slept is told to refetch at once
    _assert_clean(text, hidden, labels, "SSE")


def test_the_mayor_does_not_see_a_players_drawn_cards_before_they_play(client):
    session, p1, hero = _table_with_secrets()
    mayor = session.campaign.mayor
    state = engine(session)
    players_pending = {
        uid for p in state.players if p != "mayor" for entry in state.pending[p].values() for uid in entry["cards"]
    }
    mine = set(rules_session.visible_cards(state, "mayor"))
    secret = {Card.from_uid(u).label for u in players_pending} - {Card.from_uid(u).label for u in mine}
    secret -= {"JK"}
    assert secret
    client.force_login(mayor)
    for fragment in [None, "board", "checks", "feed"]:
        text = client.get(session.get_absolute_url(), {"fragment": fragment} if fragment else {}).text
        for label in secret:
            assert f'aria-label="{label}"' not in text, (fragment, label)


def test_fr_exch_7_a_pending_exchange_offers_the_chooser_only_cards_they_may_see(client):
    """Phase 1: the chooser's options are face down by position; the page never names them, nor the
    other side's cards; the Mayor acting for a player sees no more than the Mayor may see."""
    session, p1, hero = _table_with_secrets()
    mayor = session.campaign.mayor
    state = engine(session)
    client.force_login(p1)
    text = client.get(session.get_absolute_url()).content.decode()
    assert 'aria-label="carta boca abajo 1"' in text  # Spanish, the default
    exchange = Exchange.objects.get(session=session, chooser=f"c{hero.pk}")
    client.force_login(mayor)
    mayor_sees = set(rules_session.visible_cards(state, "mayor"))
    mayor_sees |= {p.played for p in Participant.objects.filter(prueba__session=session, status="resolved")}
    for fragment in [None, "checks"]:
        text = client.get(session.get_absolute_url(), {"fragment": fragment} if fragment else {}).content.decode()
        assert f'data-testid="exchange-{exchange.pk}"' in text
        for p in state.players:
            if p == "mayor":
                continue
            for uid in set(state.player_decks[p]) - mayor_sees:
                assert f'value="{uid}"' not in text
                if not Card.from_uid(uid).is_joker:  # two jokers share the label "JK": the uid check covers them
                    assert f'aria-label="{Card.from_uid(uid).label}"' not in text, (fragment, uid)
