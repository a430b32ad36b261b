"""FR-ODDS-1 generalised (issue #12): every percentage a page shows is computed over the cards its
viewer has not seen, so swapping only cards the viewer cannot see — the pile's order, pile cards for
another player's face-down deck cards, a rival's face-down hand — changes no figure on any page or
fragment of theirs. Real sessions through the services, seeded; phase 1 and phase 2; a trait check
and opposed checks open; the phones of both players and the Mayor's dashboard. The old approach
(odds over what the pile or the rival's deck really holds) fails the same test: it is checked too."""

import random
import re

import pytest

from frontera.play.models import MAYOR_SEAT, GameSession, Participant, seat_key
from frontera.play.services.checks import Entry, check_draw, check_request, opposed_request
from frontera.play.services.sessions import phase_switch
from frontera.rules import odds as rules_odds
from frontera.rules import session as rules_session
from tests.factories import assert_conserved, engine, make_table, stack_pile

pytestmark = pytest.mark.django_db

PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)(?:&nbsp;|\u00a0| )%")
FOUR_SPADES = ["1:2S", "1:3S", "1:4S", "1:5S"]


def _shown(client, user, session) -> list[str]:
    """Every percentage on the viewer's page and on each fragment that shows checks, in order."""
    client.force_login(user)
    figures = []
    for params in ({}, {"fragment": "checks"}):
        response = client.get(session.get_absolute_url(), params)
        assert response.status_code == 200
        figures += PERCENT.findall(response.content.decode())
    return figures


def _seats(user, mayor, seated) -> set[str]:
    if user == mayor:
        return {MAYOR_SEAT}
    return {seat_key(character.pk) for player, character in seated if player == user}


def _held(session, user, mayor, seats) -> set[str]:
    """Drawn cards of open checks the viewer holds (their own seats; the Mayor's draws for others)."""
    held = set()
    for p in Participant.objects.filter(prueba__session=session).exclude(status="resolved"):
        if p.seat in seats or (user == mayor and p.drawn_by_id == mayor.pk):
            held.update(p.drawn)
    return held


def _swap_unseen(session, seats, held, seed) -> rules_session.Session:
    """Permute, in the stored state, every card the viewer cannot see among the places it may be:
    pile, shared discard, Tesoro, out of play, every deck and open hand they do not see. The engine's
    visibility is the one the pages use (tests/web/test_session_secrecy.py guards it); the drawn
    cards of participants follow the engine (a rival's face-down hand is swapped too)."""
    state = engine(session)
    seen = set(held)
    for seat in seats:
        seen |= rules_session.visible_cards(state, seat)
    places = [state.pile, state.discard, state.treasure, state.out_of_play]
    places += [state.player_decks[p] for p in state.players]
    places += [entry["cards"] for p in state.players for entry in state.pending[p].values()]
    slots = [(cards, i) for cards in places for i, uid in enumerate(cards) if uid not in seen]
    uids = [cards[i] for cards, i in slots]
    random.Random(seed).shuffle(uids)
    for (cards, i), uid in zip(slots, uids, strict=True):
        cards[i] = uid
    GameSession.objects.filter(pk=session.pk).update(state=state.to_json())
    for p in Participant.objects.filter(prueba__session=session, status="drawn"):
        p.drawn = list(state.pending[p.seat][p.engine_check]["cards"])
        p.save(update_fields=["drawn"])
    assert_conserved(session)
    return state


def _assert_invariant(client, session, user, mayor, seated, seed) -> tuple:
    seats = _seats(user, mayor, seated)
    before_state = engine(session)
    before = _shown(client, user, session)
    assert before, "the viewer is shown odds"
    after_state = _swap_unseen(session, seats, _held(session, user, mayor, seats), seed)
    assert _shown(client, user, session) == before, user
    return before, before_state, after_state


def _pile_of_four_spades(session) -> None:
    """Scenario set-up: the pile holds exactly 4 spades (the rest goes to the shared discard, face down)."""
    stack_pile(session, FOUR_SPADES)
    state = engine(session)
    state.discard.extend(state.pile[:-4])
    state.pile = state.pile[-4:]
    GameSession.objects.filter(pk=session.pk).update(state=state.to_json())
    assert_conserved(session)


def test_fr_odds_1_generalised_phase_1_no_figure_changes_when_unseen_cards_are_swapped(client):
    """FR-ODDS-1 generalised, FR-MODE-4, FR-OPP-1: phase 1, a Manos check on the first hero drawing 3
    from a 4-card pile of spades (the real pile says Éxito 100 %), an opposed Músculo check of the
    second hero against a minion (the Mayor's seat). Each viewer's figures survive a permutation of
    every card they cannot see, before and after the second hero draws face down."""
    session, mayor, seated, [minion] = make_table(players=2, minions=1)
    (p1, hero1), (p2, hero2) = seated
    _pile_of_four_spades(session)
    trait = check_request(session=session, by=mayor, characters=[hero1], trait="manos")
    entries = [Entry(hero2, "musculo"), Entry(minion, "musculo")]
    opposed = opposed_request(session=session, by=mayor, entries=entries)
    mine = trait.participants.get()
    assert mine.cards == 3

    # the leak: over the real pile the check is a certain Éxito; the phone does not say so
    state = engine(session)
    leaked = rules_odds.check_odds(rules_session.draw_source(state, mine.seat, 3), 3, "manos")
    assert leaked["success"] == 1
    shown, _, _ = _assert_invariant(client, session, p1, mayor, seated, seed=1)
    assert "100.0" not in shown and "100" not in shown
    # the pile's 4 spades for 4 red cards of the second hero's and the Mayor's face-down decks: the
    # phone's figures stay; the old figure (over the real pile) falls from 100 % to 0 %
    state = engine(session)
    hidden_decks = state.player_decks[seat_key(hero2.pk)] + state.player_decks[MAYOR_SEAT]
    reds = [uid for uid in hidden_decks if uid[-1] in "HD"][:4]
    assert len(reds) == 4
    for i, uid in enumerate(reds):
        owner = state.player_decks[rules_session.zone_of(state, uid).split(":")[1]]
        owner[owner.index(uid)], state.pile[i] = state.pile[i], uid
    GameSession.objects.filter(pk=session.pk).update(state=state.to_json())
    assert_conserved(session)
    assert _shown(client, p1, session) == shown
    real_pile = rules_session.draw_source(engine(session), mine.seat, 3)
    assert rules_odds.check_odds(real_pile, 3, "manos")["success"] == 0

    _assert_invariant(client, session, p2, mayor, seated, seed=2)
    _assert_invariant(client, session, mayor, mayor, seated, seed=3)

    # the second hero draws face down: the others' figures still depend on nothing they cannot see
    check_draw(participant=opposed.participants.get(character=hero2), by=p2)
    _assert_invariant(client, session, mayor, mayor, seated, seed=4)
    _assert_invariant(client, session, p1, mayor, seated, seed=5)
    _assert_invariant(client, session, p2, mayor, seated, seed=6)  # their own odds while choosing
    # the Mayor draws for the first hero (a player without a phone): he holds those cards now, and
    # his minion's figures are over what he sees, that hand included
    check_draw(participant=mine, by=mayor)
    _assert_invariant(client, session, mayor, mayor, seated, seed=12)


def test_fr_odds_1_generalised_phase_2_no_figure_changes_when_unseen_cards_are_swapped(client):
    """FR-ODDS-1 generalised, FR-MODE-7, FR-OPP-1: phase 2, each hero knows their own deck but not
    the rival's: a Sentidos check on the first hero, an opposed Músculo check between the heroes and
    one of the minion against the first hero. Swapping the rival's deck cards with the Mayor's and
    the Tesoro's changes no figure on the viewer's pages; the odds over the real decks would change."""
    session, mayor, seated, [minion] = make_table(players=2, minions=1)
    (p1, hero1), (p2, hero2) = seated
    phase_switch(session=session, by=mayor)
    session.refresh_from_db()
    check_request(session=session, by=mayor, characters=[hero1], trait="sentidos")
    heroes = [Entry(hero1, "musculo"), Entry(hero2, "musculo")]
    duel = opposed_request(session=session, by=mayor, entries=heroes)
    opposed_request(session=session, by=mayor, entries=[Entry(minion, "musculo"), Entry(hero1, "musculo")])
    a, b = duel.participants.get(character=hero1), duel.participants.get(character=hero2)

    def real_duel_odds(state):  # the old way: over the rival's real deck
        return rules_odds.opposed_odds(state.player_decks[a.seat], a.cards, "musculo",
                                       state.player_decks[b.seat], b.cards, "musculo")

    _, before, after = _assert_invariant(client, session, p1, mayor, seated, seed=7)
    assert real_duel_odds(after) != real_duel_odds(before)  # the swap did reach the rival's deck
    _assert_invariant(client, session, p2, mayor, seated, seed=8)
    _assert_invariant(client, session, mayor, mayor, seated, seed=9)
    check_draw(participant=b, by=p2)  # the rival draws face down
    _assert_invariant(client, session, p1, mayor, seated, seed=10)
    _assert_invariant(client, session, mayor, mayor, seated, seed=11)
