"""Session services: start, checks, opposed checks, phases, late joiners; bad input and double
submits change nothing. Each test goes through the real services; rule IDs are in the names."""

import pytest
from django.db import transaction
from django.utils import translation

from frontera.characters.models import Character
from frontera.play.models import MAYOR_SEAT, Check, Exchange, GameSession, SessionEvent, seat_key
from frontera.play.services.checks import (
    E_DRAW_FIRST,
    Entry,
    check_choose,
    check_draw,
    check_request,
    opposed_request,
)
from frontera.play.services.core import SessionError, lock_for_request
from frontera.play.services.sessions import phase_switch, session_join, session_start
from frontera.rules import checks as rules_checks
from frontera.rules import session as rules_session
from frontera.rules.cards import DEAD_MANS_HAND_CODES, Card
from tests.factories import assert_conserved, engine, make_minion, make_table, set_tracks, stack_pile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages are matched in English here; the Spanish ones are checked by the page tests."""
    with translation.override("en"):
        yield


def _logged(session, rule) -> bool:
    return any(rule in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))


def _state_snapshot(session):
    session = GameSession.objects.get(pk=session.pk)
    return session.state, SessionEvent.objects.filter(session=session).count()


def test_fr_mode_2_start_deals_8_face_down_to_everyone_and_sets_dead_mans_hand_aside():
    session, mayor, seated, _ = make_table(players=3)
    state = engine(session)
    assert session.number == 1 and session.phase == 1 and session.decks == 1
    assert set(state.players) == {MAYOR_SEAT, *(seat_key(c.pk) for _, c in seated)}
    assert all(len(state.player_decks[p]) == 8 for p in state.players)
    assert sorted(Card.from_uid(u).code for u in state.dead_mans_hand) == sorted(DEAD_MANS_HAND_CODES)
    assert state.treasure == []  # FR-MODE-3
    for p in state.players:  # FR-MODE-2: nobody sees their own 8
        assert not rules_session.visible_cards(state, p) & set(state.player_decks[p])
    assert SessionEvent.objects.filter(session=session, kind="card", reason="deal").count() == 4 * 8 + 4
    assert_conserved(session)


def test_fr_mode_6_skip_phase_1_deals_everything_and_starts_phase_2():
    session, *_ = make_table(players=2, skip_phase_1=True)
    state = engine(session)
    assert session.phase == 2 and state.pile == []
    assert sum(len(state.player_decks[p]) for p in state.players) == 50
    assert_conserved(session)


def test_session_numbers_follow_each_other_per_campaign():
    session, mayor, seated, _ = make_table()
    second = session_start(campaign=session.campaign, by=mayor, characters=[c for _, c in seated])
    assert second.number == 2


def test_fr_chk_1_card_count_from_trait_skill_and_track_penalties():
    session, mayor, seated, _ = make_table()
    (_, hero), _ = seated
    set_tracks(hero, health=-1, morale=-1)  # Herido −1, Asustado −1
    check = check_request(session=session, by=mayor, characters=[hero], trait="musculo", skill="agilidad",
                                   modifier=1)
    participant = check.participants.get()
    assert participant.cards == 3 + 2 - 1 - 1 + 1  # Músculo 3, Agilidad held, penalties, modifier
    assert participant.seat == seat_key(hero.pk)


def test_fr_chk_6_minions_draw_their_flat_cards_from_the_mayors_seat():
    session, mayor, _, (minion,) = make_table()
    participant = check_request(session=session, by=mayor, characters=[minion], trait="manos").participants.get()
    assert participant.cards == 3 and participant.seat == MAYOR_SEAT


def test_fr_chk_1_zero_cards_is_an_automatic_failure_without_drawing():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    check = check_request(session=session, by=mayor, characters=[hero], trait="cabeza", modifier=-10)
    participant = check.participants.get()
    assert participant.status == "resolved" and participant.outcome == "failure" and participant.drawn == []
    assert Check.objects.get(pk=check.pk).status == "resolved"
    assert engine(session).pending[seat_key(hero.pk)] == {}


def test_fr_sob_1_fr_opp_1_a_call_leaves_the_engine_state_as_it_was():
    """A call reads the engine's state without copying it (issue #11): an Achispado's look at the dead
    man's hand puts the card back, and an opposed check whose sides all fail at once is revealed in
    the same action, saving the state; what is saved is the state as it was before the call."""
    session, mayor, seated, (minion,) = make_table()
    hero = seated[0][1]
    set_tracks(hero, sobriety=-1)
    before = GameSession.objects.get(pk=session.pk).state
    prueba = opposed_request(session=session, by=mayor, entries=[Entry(hero, "manos", "", -10),
                                                                 Entry(minion, "manos", "", -10)])
    assert prueba.participants.get(character=hero).achispado_card in DEAD_MANS_HAND_CODES
    assert Check.objects.get(pk=prueba.pk).status == "resolved"  # revealed in the call itself
    assert GameSession.objects.get(pk=session.pk).state == before
    assert len(engine(session).dead_mans_hand) == len(rules_session.Session.from_json(before).dead_mans_hand) == 4


def test_fr_sob_1_achispado_draws_from_the_dead_mans_hand_before_the_check():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    set_tracks(hero, sobriety=-1)
    participant = check_request(session=session, by=mayor, characters=[hero], trait="manos").participants.get()
    assert participant.achispado_card in DEAD_MANS_HAND_CODES
    assert participant.cards == 3 + (1 if participant.achispado_card.startswith("A") else -1)
    assert _logged(session, "FR-SOB-1")


def test_incapacitated_character_cannot_be_called_and_nothing_changes():
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    set_tracks(hero, health=-3)
    before = _state_snapshot(session)
    with pytest.raises(SessionError, match="cannot act"):
        check_request(session=session, by=mayor, characters=[hero], trait="manos")
    assert _state_snapshot(session) == before and not Check.objects.exists()
    # called with another, the refusal says which one cannot (a walk read only "This character…")
    with pytest.raises(SessionError) as refused:
        check_request(session=session, by=mayor, characters=[seated[1][1], hero], trait="manos")
    assert str(refused.value).startswith(f"{hero.name}: ") and "cannot act" in str(refused.value)
    assert _state_snapshot(session) == before and not Check.objects.exists()


def test_fr_mode_4_phase_1_played_card_to_own_deck_unchosen_to_shared_discard():
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    stack_pile(session, ["1:7H", "1:KS", "1:2D", "1:9C", "1:QH"])  # the first five drawn
    check = check_request(session=session, by=mayor, characters=[hero], trait="musculo", skill="agilidad")
    participant = check_draw(participant=check.participants.get(), by=player)
    assert sorted(participant.drawn) == sorted(["1:7H", "1:KS", "1:2D", "1:9C", "1:QH"])
    participant = check_choose(participant=participant, by=player, card="1:7H")
    state = engine(session)
    assert "1:7H" in state.player_decks[seat_key(hero.pk)]
    assert {"1:KS", "1:2D", "1:9C", "1:QH"} <= set(state.discard)
    assert participant.outcome == "success"  # FR-CHK-3: ♥ is Músculo's suit
    assert Check.objects.get(pk=check.pk).status == "resolved"
    moves = SessionEvent.objects.filter(session=session, kind="card", prueba=check)
    assert moves.filter(card="1:7H", reason="played", to_zone=f"deck:{seat_key(hero.pk)}").exists()
    assert moves.filter(reason="unchosen", to_zone="discard").count() == 4
    assert_conserved(session)


@pytest.mark.parametrize(
    ("card", "difficulty", "outcome"),
    [("1:KS", None, "failure"), ("1:2D", None, "partial"), ("1:7H", 9, "partial"), ("1:QH", 9, "success"),
     ("1:2D", 9, "failure")],
)
def test_fr_chk_3_and_4_outcome_of_the_played_card(card, difficulty, outcome):
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    stack_pile(session, ["1:7H", "1:KS", "1:2D", "1:9C", "1:QH"])
    check = check_request(session=session, by=mayor, characters=[hero], trait="musculo", skill="agilidad",
                                   difficulty=difficulty)
    participant = check_draw(participant=check.participants.get(), by=player)
    assert check_choose(participant=participant, by=player, card=card).outcome == outcome


def test_fr_card_2_joker_needs_a_declared_suit_and_takes_it():
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    stack_pile(session, ["1:3S", "1:4S", "1:JK1"])
    participant = check_draw(
        participant=check_request(session=session, by=mayor, characters=[hero], trait="cabeza")
        .participants.get(), by=player)
    before = _state_snapshot(session)
    with pytest.raises(SessionError, match="joker"):
        check_choose(participant=participant, by=player, card="1:JK1")
    assert _state_snapshot(session) == before
    participant = check_choose(participant=participant, by=player, card="1:JK1", suit="D")
    assert participant.declared == "D" and participant.outcome == "success"


def test_bad_choices_are_refused_with_a_translated_message_and_change_nothing():
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    check = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    participant = check.participants.get()
    with pytest.raises(SessionError) as err:
        check_choose(participant=participant, by=player, card="1:AS")
    assert str(err.value) == str(E_DRAW_FIRST)
    participant = check_draw(participant=participant, by=player)
    not_drawn = next(u for u in engine(session).pile)
    before = _state_snapshot(session)
    with pytest.raises(SessionError):
        check_choose(participant=participant, by=player, card=not_drawn)
    with pytest.raises(SessionError):
        check_choose(participant=participant, by=player, card="rubbish")
    assert _state_snapshot(session) == before


def test_double_submits_are_idempotent_and_late_changes_refused():
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    first = check_request(session=session, by=mayor, characters=[hero], trait="manos", request_key="k1")
    again = check_request(session=session, by=mayor, characters=[hero], trait="manos", request_key="k1")
    assert first.pk == again.pk and Check.objects.count() == 1
    participant = check_draw(participant=first.participants.get(), by=player)
    snapshot = _state_snapshot(session)
    assert check_draw(participant=participant, by=player).drawn == participant.drawn
    assert _state_snapshot(session) == snapshot  # drawing twice draws nothing more
    card, other = participant.drawn[0], participant.drawn[1]
    check_choose(participant=participant, by=player, card=card)
    snapshot = _state_snapshot(session)
    check_choose(participant=participant, by=player, card=card)  # the same tap again
    assert _state_snapshot(session) == snapshot
    with pytest.raises(SessionError, match="already resolved"):
        check_choose(participant=participant, by=player, card=other)
    with pytest.raises(SessionError, match="already resolved"):
        check_draw(participant=participant, by=player)
    assert _state_snapshot(session) == snapshot


def test_a_repeated_request_key_returns_what_it_made_in_that_session_and_of_that_kind():
    """``lock_for_request``: the locked session and what a form's key already made; a key of another
    session, or of another kind of request, is a first submission."""
    session, mayor, seated, _ = make_table()
    _, hero = seated[0]
    other, other_mayor, other_seated, _ = make_table()
    first = check_request(session=session, by=mayor, characters=[hero], trait="manos", request_key="k1")
    check_request(session=other, by=other_mayor, characters=[other_seated[0][1]], trait="manos", request_key="k2")
    with transaction.atomic():
        locked, made = lock_for_request(session, Check, "")
        assert locked.pk == session.pk and made is None  # no key: nothing to look for
        locked, made = lock_for_request(session, Check, "k1")
        assert locked.pk == session.pk and made == first
        assert lock_for_request(session, Check, "k2")[1] is None  # the other session's key
        assert lock_for_request(session, Exchange, "k1")[1] is None  # not an exchange's key
    again = check_request(session=session, by=mayor, characters=[hero], trait="manos", request_key="k1")
    assert again == first and Check.objects.filter(session=session).count() == 1


def test_a_check_reads_its_characters_sheets_as_they_are_now_in_one_statement(django_assert_num_queries):
    """``Character.objects.by_id``: the sheets a table action reads under the lock, by id (a gone
    character is missing, a repeated id read once), as one statement; no ids, no statement."""
    _, _, seated, [minion] = make_table()
    _, hero = seated[0]
    Character.objects.filter(pk=hero.pk).update(sheet={**hero.sheet, "money": 7})
    with django_assert_num_queries(1):
        found = Character.objects.by_id([hero.pk, minion.pk, hero.pk, 10**9])
    assert set(found) == {hero.pk, minion.pk}
    assert found[hero.pk].sheet["money"] == 7 and found[hero.pk].name == hero.name
    with django_assert_num_queries(0):
        assert Character.objects.by_id([]) == {}


def test_fr_opp_1_opposed_choices_stay_secret_until_everyone_has_chosen_then_reveal_together():
    session, mayor, seated, (minion,) = make_table()
    (p1, hero), _ = seated
    stack_pile(session, ["1:3S", "1:5S", "1:6S", "1:9H", "1:4C", "1:KD", "1:10C", "1:2S"])
    check = opposed_request(session=session, by=mayor, entries=[
        Entry(hero, "musculo", "agilidad"), Entry(minion, "sentidos", "percepcion")])
    hero_part, minion_part = check.participants.order_by("pk")
    hero_part = check_draw(participant=hero_part, by=p1)  # 5 cards: 9H 4C KD 10C 2S
    minion_part = check_draw(participant=minion_part, by=mayor)  # 3 cards: 3S 5S 6S
    check_choose(participant=hero_part, by=p1, card="1:9H")
    state = engine(session)
    assert "1:9H" in state.pending[seat_key(hero.pk)][f"p{hero_part.pk}"]["cards"]  # not played yet
    assert Check.objects.get(pk=check.pk).status == "drawn"
    check_choose(participant=minion_part, by=mayor, card="1:5S")
    hero_part.refresh_from_db()
    minion_part.refresh_from_db()
    expected = rules_checks.opposed_outcome({"h": ("musculo", "9H"), "m": ("sentidos", "5S")})
    assert (hero_part.outcome, minion_part.outcome) == (expected["h"], expected["m"]) == ("win", "loss")  # FR-OPP-2
    assert Check.objects.get(pk=check.pk).status == "resolved"
    state = engine(session)
    assert "1:9H" in state.player_decks[seat_key(hero.pk)] and "1:5S" in state.player_decks[MAYOR_SEAT]
    assert _logged(session, "FR-OPP-2")
    assert_conserved(session)


def test_opposed_check_needs_two_participants():
    session, mayor, seated, _ = make_table()
    with pytest.raises(SessionError):
        opposed_request(session=session, by=mayor, entries=[Entry(seated[0][1], "manos")])


def test_absent_protagonist_cannot_be_called():
    session, mayor, seated, _ = make_table()
    from frontera.campaigns.services import campaign_add_player
    from tests.factories import make_protagonist, make_user

    newcomer = make_user()
    campaign_add_player(campaign=session.campaign, user=newcomer)
    late = make_protagonist(session.campaign, newcomer)
    with pytest.raises(SessionError, match="not at this session"):
        check_request(session=session, by=mayor, characters=[late], trait="manos")


def _play_until_phase_2(session, mayor, player, hero, limit=30):
    for _ in range(limit):
        if GameSession.objects.get(pk=session.pk).phase == 2:
            return
        check = check_request(session=session, by=mayor, characters=[hero], trait="manos", modifier=10)
        participant = check_draw(participant=check.participants.get(), by=player)
        if participant.drawn:
            check_choose(participant=participant, by=player, card=participant.drawn[0], suit="S")
    raise AssertionError("phase 2 never began")


def test_fr_mode_5_pile_runs_out_reshuffles_then_switches_to_phase_2_automatically():
    session, mayor, seated, _ = make_table()
    player, hero = seated[0]
    _play_until_phase_2(session, mayor, player, hero)
    log = [e.message for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-MODE-5" in e.rules]
    assert any(m.startswith("The pile ran short") for m in log)
    assert any(m.startswith("Pile and discard ran out") for m in log)
    state = engine(session)
    assert state.phase == 2 and state.pile == [] and state.discard == []
    assert_conserved(session)
    # FR-MODE-7: phase 2 draws from the own deck
    check = check_request(session=session, by=mayor, characters=[hero], trait="manos")
    participant = check_draw(participant=check.participants.get(), by=player)
    assert set(participant.drawn) <= set(state.player_decks[seat_key(hero.pk)])


def test_fr_mode_5_the_mayor_ends_phase_1_once():
    session, mayor, *_ = make_table()
    phase_switch(session=session, by=mayor)
    state = engine(session)
    assert state.phase == 2 and len(state.treasure) == 26 and state.pile == []
    with translation.override("en"), pytest.raises(SessionError, match="already in phase 2"):
        phase_switch(session=session, by=mayor)
    assert_conserved(session)


def test_fr_mode_9_late_joiner_with_a_new_deck_or_cards_from_the_others():
    session, mayor, seated, _ = make_table()
    from frontera.campaigns.services import campaign_add_player
    from tests.factories import make_protagonist, make_user

    users = [make_user(), make_user()]
    for user in users:
        campaign_add_player(campaign=session.campaign, user=user)
    first, second = (make_protagonist(session.campaign, u) for u in users)
    session_join(session=session, by=mayor, character=first, method="new_deck")
    state = engine(session)
    assert state.decks == 2 and len(state.player_decks[seat_key(first.pk)]) == 8
    session_join(session=session, by=mayor, character=second, method="from_players", per_player=2)
    state = engine(session)
    assert len(state.player_decks[seat_key(second.pk)]) == 2 * 4  # 2 from each of the 4 other seats
    with pytest.raises(SessionError, match="already at this session"):
        session_join(session=session, by=mayor, character=first, method="new_deck")
    assert_conserved(session)


def test_several_characters_in_one_trait_check_each_resolve_on_their_own():
    session, mayor, seated, (minion,) = make_table()
    (p1, hero), (p2, other) = seated
    check = check_request(session=session, by=mayor, characters=[hero, other, minion], trait="sentidos")
    parts = list(check.participants.order_by("pk"))
    for part, who in zip(parts, [p1, p2, mayor], strict=True):
        part = check_draw(participant=part, by=who)
        check_choose(participant=part, by=who, card=part.drawn[0], suit="C")
        assert Check.objects.get(pk=check.pk).status == ("resolved" if who == mayor else "requested")
    assert_conserved(session)


def test_every_action_publishes_its_latest_event_id(django_capture_on_commit_callbacks):
    session, mayor, seated, _ = make_table()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        check_request(session=session, by=mayor, characters=[seated[0][1]], trait="manos")
    assert len(callbacks) == 1


def test_fr_mode_10_sin_gestion_everything_returns_to_the_shared_deck():
    session, mayor, seated, _ = make_table(mode="sin_gestion")
    player, hero = seated[0]
    part = check_draw(participant=check_request(
        session=session, by=mayor, characters=[hero], trait="manos").participants.get(), by=player)
    check_choose(participant=part, by=player, card=part.drawn[0], suit="S")
    state = engine(session)
    assert len(state.pile) == 50 and all(not d for d in state.player_decks.values())


def test_minion_factory_is_a_minion():
    session, *_ = make_table(minions=0)
    assert make_minion(session.campaign).kind == "minion"


def test_fr_char_5_checks_use_the_campaigns_edited_catalogue():
    """A Mayor who makes work clothes worth +2 Agilidad cards sees it in the session's card count."""
    from frontera.characters.models import CatalogueItem
    from frontera.characters.services import catalogue_item_update
    from tests.factories import make_campaign, make_character, make_user

    player = make_user()
    campaign = make_campaign(players=[player])
    clementine = make_character(campaign, player)  # Músculo 3, Agilidad, work clothes
    clothes = CatalogueItem.objects.get(campaign=campaign, key="ropa_de_trabajo")
    session = session_start(campaign=campaign, by=campaign.mayor, mode="normal", characters=[clementine])
    before = check_request(session=session, by=campaign.mayor, characters=[clementine], trait="musculo",
                                    skill="agilidad").participants.get().cards
    catalogue_item_update(item=clothes, by=campaign.mayor, name=clothes.name, notes=clothes.notes, in_shop=True,
                          figures={"bonus": {"agilidad": 2}})
    after = check_request(session=session, by=campaign.mayor, characters=[clementine], trait="musculo",
                                   skill="agilidad").participants.get().cards
    assert (before, after) == (3 + 2 + 1, 3 + 2 + 2)
