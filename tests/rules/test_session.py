"""FR-MODE-1..12, FR-CARD-4/5, the dead man's hand as a zone: the session deck state machine."""

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from frontera.rules import RulesError
from frontera.rules.cards import Card, dead_mans_hand, physical_deck
from frontera.rules.dead_mans_hand import E_DEAD_MANS_HAND_COUNT
from frontera.rules.session import (
    E_BAD_CHECK_ID,
    E_BAD_COUNT,
    E_BAD_DECKS,
    E_BAD_HOURS,
    E_BAD_JOKERS,
    E_BAD_MODE,
    E_BAD_PER_PLAYER,
    E_BAD_TREASURE_CARDS,
    E_CHECK_PENDING,
    E_DECKS_FIXED,
    E_DMH_FROM_MAYOR,
    E_DUPLICATE_PLAYER,
    E_MAYOR_STAYS,
    E_NO_CARD_CHOSEN,
    E_NORMAL_SETUP_ONLY,
    E_NOT_DRAWN,
    E_NOT_ENOUGH_CARDS,
    E_NOT_IN_SESSION,
    E_NOT_PHASE_1,
    E_REPEATED_CARD,
    E_UNKNOWN_CHECK,
    E_UNDO_CARD_MOVED,
    E_UNKNOWN_PLAYER,
    E_WRONG_MODE,
    Session,
    all_cards,
    draw_dead_mans_hand,
    draw_for_check,
    draw_source,
    drawn_cards,
    join_from_players,
    join_with_new_deck,
    leave_game,
    new_session,
    owned_cards,
    play_cards,
    redact_events,
    rest,
    settle_check,
    switch_to_phase_2,
    take_back,
    view,
    visible_cards,
    zone_of,
    zones,
)

PLAYERS = ["ana", "bo", "cy"]
MAYOR = "mayor"
DMH_UIDS = {c.uid for c in dead_mans_hand(1)}


# --------------------------------------------------------------------------------------------
# Helpers shared with the other session/exchange test files
# --------------------------------------------------------------------------------------------


def rng(seed=0):
    return random.Random(seed)


def normal(seed=0, **options):
    return new_session("normal", PLAYERS, MAYOR, rng=rng(seed), **options)


def assert_invariants(state):
    """Every card of the session's decks is in exactly one zone; JSON round-trips losslessly."""
    placed = [uid for cards in zones(state).values() for uid in cards]
    assert Counter(placed) == Counter(all_cards(state))
    data = state.to_json()
    assert Session.from_json(json.loads(json.dumps(data))) == state
    assert Session.from_json(data).to_json() == data


def assert_rejects(operation, state, template, *args, **kwargs):
    """``operation`` raises ``template`` and leaves ``state`` as it was."""
    before = json.dumps(state.to_json())
    with pytest.raises(RulesError) as info:
        operation(state, *args, **kwargs)
    assert info.value.template == template
    assert str(info.value)  # a readable, fully formatted message
    assert json.dumps(state.to_json()) == before
    return info.value


def moved(events, reason=None):
    return [e["card"] for e in events if reason is None or e["reason"] == reason]


def play_first(state, player, check_id):
    return play_cards(state, player, check_id, drawn_cards(state, player, check_id)[:1])


def in_phase_2(seed=0):
    state, _ = switch_to_phase_2(normal(seed))
    return state


# --------------------------------------------------------------------------------------------
# Setup: FR-CARD-4, FR-CARD-5, FR-MODE-1, 2, 3, 6, 10, 11
# --------------------------------------------------------------------------------------------


def test_fr_mode_1_three_modes():
    for mode in ("normal", "sin_gestion", "con_desgaste"):
        state = new_session(mode, PLAYERS, MAYOR, rng=rng())
        assert state.mode == mode
        assert_invariants(state)
    with pytest.raises(RulesError) as info:
        new_session("casual", PLAYERS, MAYOR, rng=rng())
    assert info.value.template == E_BAD_MODE


def test_fr_card_4_one_deck_per_four_players_mayor_included():
    assert normal().decks == 1  # 3 protagonists + the Mayor = 4
    five = new_session("normal", PLAYERS + ["di"], MAYOR, rng=rng())
    assert five.decks == 2
    assert len(all_cards(five)) == 2 * 54
    assert_invariants(five)


def test_fr_card_4_gm_sets_decks_and_jokers():
    state = normal(decks=3, jokers=0)
    assert state.decks == 3
    assert not any(Card.from_uid(u).is_joker for u in all_cards(state))
    assert len(all_cards(state)) == 3 * 52
    assert_invariants(state)


@pytest.mark.parametrize(
    ("options", "template"),
    [
        ({"decks": 0}, E_BAD_DECKS),
        ({"decks": True}, E_BAD_DECKS),
        ({"jokers": 3}, E_BAD_JOKERS),
        ({"jokers": -1}, E_BAD_JOKERS),
        ({"treasure_cards": -1}, E_BAD_TREASURE_CARDS),
        ({"treasure_cards": 55}, E_BAD_TREASURE_CARDS),
    ],
)
def test_fr_card_4_bad_setup_options(options, template):
    with pytest.raises(RulesError) as info:
        normal(**options)
    assert info.value.template == template


def test_setup_rejects_bad_and_duplicate_players():
    with pytest.raises(RulesError) as info:
        new_session("normal", ["ana", "ana"], MAYOR, rng=rng())
    assert info.value.template == E_DUPLICATE_PLAYER
    with pytest.raises(RulesError, match="not a valid player"):
        new_session("normal", ["ana", ""], MAYOR, rng=rng())
    with pytest.raises(RulesError, match="not a valid player"):
        new_session("normal", ["ana", 7], MAYOR, rng=rng())


def test_fr_card_4_not_enough_cards_to_deal():
    """Nine players cannot each get 8 of one deck's 50 cards: the GM is told to add a deck."""
    with pytest.raises(RulesError) as info:
        new_session("normal", [f"p{i}" for i in range(8)], MAYOR, decks=1, rng=rng())
    assert info.value.template == E_NOT_ENOUGH_CARDS


def test_fr_card_5_dead_mans_hand_set_aside_from_play_deck():
    state = normal()
    assert set(state.dead_mans_hand) == DMH_UIDS
    assert not DMH_UIDS & set(state.pile)
    assert_invariants(state)


def test_fr_card_5_dead_mans_hand_from_an_extra_deck():
    state = normal(dead_mans_hand_from_extra_deck=True)
    assert state.decks == 2
    assert state.dead_mans_hand == [c.uid for c in dead_mans_hand(2)]
    play_deck = {c.uid for c in physical_deck(1)}
    assert play_deck == set(state.pile) | {u for p in state.players for u in state.player_decks[p]}
    assert len(state.out_of_play) == 50  # the rest of the extra deck is put away
    assert_invariants(state)
    both = normal(dead_mans_hand_from_extra_deck=True, treasure_cards=50)  # one extra deck for both
    assert both.decks == 2 and both.out_of_play == [] and len(both.treasure) == 50
    assert_invariants(both)


def test_fr_mode_2_normal_deals_eight_face_down_to_everyone_mayor_included():
    state = normal()
    assert state.players == PLAYERS + [MAYOR]
    assert all(len(state.player_decks[p]) == 8 for p in state.players)
    assert len(state.pile) == 54 - 4 - 32
    assert state.phase == 1
    for p in state.players:
        assert not visible_cards(state, p) & set(state.player_decks[p])
        assert view(state, p)["seats"][p]["deck"] == {"count": 8, "cards": []}


def test_fr_mode_2_mayor_key_is_added_when_missing_and_kept_when_given():
    assert normal().mayor == MAYOR
    state = new_session("normal", ["ana", MAYOR, "bo"], MAYOR, rng=rng())
    assert state.players == ["ana", MAYOR, "bo"]


def test_fr_mode_3_treasure_starts_empty():
    assert normal().treasure == []


def test_fr_mode_3_gm_seeds_treasure_from_an_extra_deck():
    state = normal(treasure_cards=10)
    assert len(state.treasure) == 10
    assert all(Card.from_uid(u).deck == 2 for u in state.treasure)
    assert len(state.out_of_play) == 54 - 10
    assert set(state.dead_mans_hand) == DMH_UIDS  # still from the play deck
    assert_invariants(state)


def test_fr_mode_3_treasure_seed_is_normal_only():
    with pytest.raises(RulesError) as info:
        new_session("sin_gestion", PLAYERS, MAYOR, treasure_cards=3, rng=rng())
    assert info.value.template == E_NORMAL_SETUP_ONLY


def test_fr_mode_6_skip_phase_1_deals_every_card():
    state = normal(skip_phase_1=True)
    assert state.phase == 2 and state.pile == [] and state.treasure == []
    sizes = sorted(len(state.player_decks[p]) for p in state.players)
    assert sum(sizes) == 50 and sizes[-1] - sizes[0] <= 1
    assert set(state.player_decks["ana"]) <= visible_cards(state, "ana")  # phase 2: own deck seen
    assert_invariants(state)


def test_fr_mode_6_deal_is_random():
    hands = {tuple(sorted(normal(seed, skip_phase_1=True).player_decks["ana"])) for seed in range(5)}
    assert len(hands) == 5


def test_fr_mode_10_sin_gestion_one_shared_deck():
    state = new_session("sin_gestion", PLAYERS + ["di", "ed"], MAYOR, rng=rng())
    assert state.decks == 1 and state.phase is None
    assert len(state.pile) == 50 and set(state.dead_mans_hand) == DMH_UIDS
    assert all(state.player_decks[p] == [] for p in state.players)
    assert_invariants(state)


def test_fr_mode_11_con_desgaste_a_full_deck_each_mayor_minus_dead_mans_hand():
    state = new_session("con_desgaste", PLAYERS, MAYOR, rng=rng())
    assert state.decks == 4 and state.pile == []
    for number, p in enumerate(state.players, start=1):
        expected = {c.uid for c in physical_deck(number)}
        if p == MAYOR:
            expected -= {c.uid for c in dead_mans_hand(number)}
            assert set(state.dead_mans_hand) == {c.uid for c in dead_mans_hand(number)}
        assert set(state.player_decks[p]) == expected
    assert_invariants(state)


def test_fr_mode_11_con_desgaste_decks_are_not_chosen():
    with pytest.raises(RulesError) as info:
        new_session("con_desgaste", PLAYERS, MAYOR, decks=1, rng=rng())
    assert info.value.template == E_DECKS_FIXED
    with pytest.raises(RulesError) as info:
        new_session("con_desgaste", PLAYERS, MAYOR, dead_mans_hand_from_extra_deck=True, rng=rng())
    assert info.value.template == E_DMH_FROM_MAYOR


def test_same_seed_same_session():
    assert normal(7) == normal(7)
    assert normal(7) != normal(8)


# --------------------------------------------------------------------------------------------
# Phase 1: FR-MODE-4, FR-MODE-5
# --------------------------------------------------------------------------------------------


def test_fr_mode_4_phase_1_draws_from_the_top_of_the_shared_pile():
    state = normal()
    top3 = state.pile[-3:][::-1]
    new, events = draw_for_check(state, "ana", 3, "c1", rng())
    assert drawn_cards(new, "ana", "c1") == top3
    moves = [(e["from"], e["to"], e["reason"], e["check"]) for e in events]
    assert moves == [("pile", "pending:ana", "draw", "c1")] * 3
    assert len(new.pile) == len(state.pile) - 3
    assert_invariants(new)


def test_fr_mode_4_played_to_own_deck_unchosen_to_shared_discard():
    state, _ = draw_for_check(normal(), "ana", 4, "c1", rng())
    drawn = drawn_cards(state, "ana", "c1")
    new, events = play_cards(state, "ana", "c1", [drawn[2]])
    assert drawn[2] in new.player_decks["ana"] and len(new.player_decks["ana"]) == 9
    assert sorted(new.discard) == sorted(drawn[:2] + drawn[3:])
    assert [e["reason"] for e in events] == ["played", "unchosen", "unchosen", "unchosen"]
    assert {e["to"] for e in events if e["reason"] == "unchosen"} == {"discard"}
    assert new.pending["ana"] == {}
    assert_invariants(new)


def test_fr_mode_4_player_keeps_sight_of_cards_they_played_but_not_the_dealt_eight():
    state, _ = draw_for_check(normal(), "ana", 2, "c1", rng())
    drawn = drawn_cards(state, "ana", "c1")
    state, _ = play_cards(state, "ana", "c1", [drawn[0]])
    assert visible_cards(state, "ana") & set(state.player_decks["ana"]) == {drawn[0]}
    assert drawn[0] not in visible_cards(state, "bo")


def test_fr_chk_2_several_cards_may_be_played():
    state, _ = draw_for_check(normal(), "ana", 5, "c1", rng())
    drawn = drawn_cards(state, "ana", "c1")
    new, _ = play_cards(state, "ana", "c1", drawn[:3])
    assert set(drawn[:3]) <= set(new.player_decks["ana"]) and sorted(new.discard) == sorted(drawn[3:])


def test_fr_mode_5_short_pile_shuffles_the_discard_in():
    state = normal()
    pile_cards = list(state.pile)  # 18 cards
    state, _ = draw_for_check(state, "ana", 10, "c1", rng())
    state, _ = play_first(state, "ana", "c1")  # 9 to the discard, 8 left in the pile
    assert len(state.pile) == 8 and len(state.discard) == 9
    new, events = draw_for_check(state, "bo", 10, "c2", rng(1))
    assert new.phase == 1
    assert [e["card"] for e in events if e["reason"] == "reshuffle"] == state.discard
    assert new.discard == [] and len(new.pile) == 17 - 10
    assert set(new.pile) | set(drawn_cards(new, "bo", "c2")) == set(state.pile) | set(state.discard)
    assert set(pile_cards) >= set(new.pile) | set(drawn_cards(new, "bo", "c2"))
    assert_invariants(new)


def test_fr_mode_5_pile_and_discard_short_go_to_treasure_and_phase_2_begins():
    state = normal()
    state, _ = draw_for_check(state, "ana", 10, "c1", rng())
    state, _ = play_first(state, "ana", "c1")  # pile 8, discard 9
    mayor_deck = list(state.player_decks[MAYOR])
    new, events = draw_for_check(state, MAYOR, 18, "c2", rng(1))
    assert new.phase == 2
    assert sorted(new.treasure) == sorted(state.pile + state.discard)
    assert new.pile == [] and new.discard == []
    assert [e["reason"] for e in events[:17]] == ["phase_2"] * 17
    # the pending check is made in phase 2: from the Mayor's own deck, only what is there
    assert sorted(drawn_cards(new, MAYOR, "c2")) == sorted(mayor_deck)
    assert new.pending[MAYOR]["c2"]["phase"] == 2
    assert_invariants(new)


def test_fr_mode_5_exact_pile_is_drawn_without_reshuffle():
    state = normal()
    new, events = draw_for_check(state, "ana", len(state.pile), "c1", rng())
    assert new.pile == [] and new.phase == 1 and {e["reason"] for e in events} == {"draw"}


def test_fr_mode_5_open_phase_1_check_sends_unchosen_to_treasure_after_the_switch():
    """RULING: a check drawn in phase 1 and closed in phase 2 keeps its played card(s) in the
    player's deck and sends the unchosen ones to the treasure (the shared discard is gone)."""
    state, _ = draw_for_check(normal(), "ana", 3, "c1", rng())
    drawn = drawn_cards(state, "ana", "c1")
    state, _ = switch_to_phase_2(state)
    new, events = play_cards(state, "ana", "c1", [drawn[1]])
    assert drawn[1] in new.player_decks["ana"]
    assert set(drawn) - {drawn[1]} <= set(new.treasure) and new.discard == []
    assert_invariants(new)


def test_fr_mode_5_gm_switches_to_phase_2():
    state, _ = draw_for_check(normal(), "ana", 3, "c1", rng())
    state, _ = play_first(state, "ana", "c1")
    new, events = switch_to_phase_2(state)
    assert new.phase == 2 and new.pile == [] and new.discard == []
    assert sorted(new.treasure) == sorted(state.pile + state.discard)
    assert {e["to"] for e in events} == {"treasure"}
    assert set(new.player_decks["ana"]) <= visible_cards(new, "ana")  # FR-MODE-2: seen from phase 2
    assert_rejects(switch_to_phase_2, new, E_NOT_PHASE_1)
    assert_invariants(new)


# --------------------------------------------------------------------------------------------
# Phase 2: FR-MODE-7, FR-MODE-8
# --------------------------------------------------------------------------------------------


def test_fr_mode_7_phase_2_draws_from_own_deck_played_to_own_discard_rest_back():
    state = in_phase_2()
    deck = set(state.player_decks["bo"])
    state2, events = draw_for_check(state, "bo", 3, "c1", rng())
    drawn = drawn_cards(state2, "bo", "c1")
    assert set(drawn) <= deck and {e["from"] for e in events} == {"deck:bo"}
    new, _ = play_cards(state2, "bo", "c1", [drawn[0]])
    assert new.player_discards["bo"] == [drawn[0]]
    assert set(new.player_decks["bo"]) == deck - {drawn[0]}
    assert_invariants(new)


def test_fr_mode_7_deck_is_shuffled_before_every_check():
    state = in_phase_2()
    firsts = {drawn_cards(draw_for_check(state, "bo", 1, "c", rng(s))[0], "bo", "c")[0] for s in range(12)}
    assert len(firsts) > 1  # not always the card that was on top


def test_fr_mode_8_draw_only_what_is_in_the_deck():
    state = in_phase_2()
    new, events = draw_for_check(state, "ana", 12, "c1", rng())
    assert len(drawn_cards(new, "ana", "c1")) == 8 and new.player_decks["ana"] == []


def test_fr_mode_8_discards_return_only_when_the_deck_is_empty_at_the_start():
    state = in_phase_2()
    state, _ = draw_for_check(state, "ana", 8, "c1", rng())
    state, _ = play_cards(state, "ana", "c1", drawn_cards(state, "ana", "c1")[:6])  # deck 2, discard 6
    assert len(state.player_decks["ana"]) == 2 and len(state.player_discards["ana"]) == 6
    short, events = draw_for_check(state, "ana", 5, "c2", rng())
    assert len(drawn_cards(short, "ana", "c2")) == 2 and len(short.player_discards["ana"]) == 6
    short, _ = play_first(short, "ana", "c2")  # deck 1, discard 7
    short, _ = draw_for_check(short, "ana", 1, "c3", rng())
    short, _ = play_first(short, "ana", "c3")  # deck 0, discard 8
    assert short.player_decks["ana"] == []
    new, events = draw_for_check(short, "ana", 3, "c4", rng())
    assert moved(events, "recycle") == short.player_discards["ana"]
    assert new.player_discards["ana"] == [] and len(drawn_cards(new, "ana", "c4")) == 3
    assert draw_source(short, "ana", 3) == short.player_discards["ana"]
    assert len(new.player_decks["ana"]) == 5
    assert_invariants(new)


def test_fr_odds_1_draw_source_names_the_cards_a_check_would_draw_from():
    """The odds need the actual cards a check will draw from (FR-ODDS-1, FR-MODE-5, 8)."""
    state = normal()
    assert draw_source(state, "ana", 3) == state.pile
    state, _ = draw_for_check(state, "ana", 10, "c1", rng())
    state, _ = play_first(state, "ana", "c1")  # pile 8, discard 9
    assert sorted(draw_source(state, "bo", 9)) == sorted(state.pile + state.discard)
    assert draw_source(state, "bo", 18) == state.player_decks["bo"]  # phase 2 would begin
    phase2 = in_phase_2()
    assert draw_source(phase2, "bo", 3) == phase2.player_decks["bo"]
    assert_rejects(draw_source, phase2, E_BAD_COUNT, "bo", -2)


def test_fr_chk_1_zero_count_draws_nothing_and_is_settled_as_automatic_failure():
    state = in_phase_2()
    new, events = draw_for_check(state, "ana", 0, "c1", rng())
    assert events == [] and drawn_cards(new, "ana", "c1") == []
    assert new.player_decks == state.player_decks
    closed, events = settle_check(new, "ana", "c1", "auto_failure")
    assert events == [] and closed.pending["ana"] == {}


def test_settle_check_sends_every_drawn_card_the_unchosen_way():
    state, _ = draw_for_check(normal(), "ana", 3, "c1", rng())
    drawn = drawn_cards(state, "ana", "c1")
    new, events = settle_check(state, "ana", "c1")
    assert sorted(new.discard) == sorted(drawn) and {e["reason"] for e in events} == {"cancelled"}
    phase2, _ = draw_for_check(in_phase_2(), "ana", 3, "c1", rng())
    deck_before = len(phase2.player_decks["ana"])
    new, _ = settle_check(phase2, "ana", "c1")
    assert len(new.player_decks["ana"]) == deck_before + 3 and new.player_discards["ana"] == []


# --------------------------------------------------------------------------------------------
# Sin gestión and Con desgaste: FR-MODE-10, FR-MODE-11
# --------------------------------------------------------------------------------------------


def test_fr_mode_10_all_drawn_cards_return_and_the_deck_is_reshuffled():
    state = new_session("sin_gestion", PLAYERS, MAYOR, rng=rng())
    state, _ = draw_for_check(state, "ana", 5, "c1", rng(1))
    drawn = drawn_cards(state, "ana", "c1")
    new, events = play_cards(state, "ana", "c1", [drawn[0]])
    assert len(new.pile) == 50 and {e["to"] for e in events} == {"pile"}
    tops = {drawn_cards(draw_for_check(new, "bo", 1, "c", rng(s))[0], "bo", "c")[0] for s in range(10)}
    assert len(tops) > 1  # shuffled before the next draw
    assert_invariants(new)


def test_fr_mode_11_played_to_discard_unchosen_back_to_own_pile():
    state = new_session("con_desgaste", PLAYERS, MAYOR, rng=rng())
    state, events = draw_for_check(state, "cy", 4, "c1", rng(1))
    assert {e["from"] for e in events} == {"deck:cy"}
    drawn = drawn_cards(state, "cy", "c1")
    new, _ = play_cards(state, "cy", "c1", drawn[:2])
    assert new.player_discards["cy"] == drawn[:2] and len(new.player_decks["cy"]) == 52
    assert_invariants(new)


def test_fr_mode_11_discards_never_return_without_rest():
    state = new_session("con_desgaste", ["ana"], MAYOR, jokers=0, rng=rng())
    for n in range(6):  # play through the 52 cards
        state, _ = draw_for_check(state, "ana", 9, f"c{n}", rng(n))
        state, _ = play_cards(state, "ana", f"c{n}", drawn_cards(state, "ana", f"c{n}"))
    assert state.player_decks["ana"] == []
    new, events = draw_for_check(state, "ana", 3, "c9", rng())
    assert drawn_cards(new, "ana", "c9") == [] and events == []
    assert len(new.player_discards["ana"]) == 52


def test_fr_mode_11_each_hour_of_rest_returns_eight_random_discards():
    state = new_session("con_desgaste", ["ana"], MAYOR, rng=rng())
    state, _ = draw_for_check(state, "ana", 30, "c1", rng())
    state, _ = play_cards(state, "ana", "c1", drawn_cards(state, "ana", "c1")[:20])
    new, events = rest(state, "ana", 2, rng(5))
    assert len(events) == 16 and {e["reason"] for e in events} == {"rest"}
    assert len(new.player_discards["ana"]) == 4 and set(moved(events)) <= set(state.player_discards["ana"])
    new, events = rest(new, "ana", 1, rng(5))
    assert len(events) == 4 and new.player_discards["ana"] == []
    other, _ = rest(state, "ana", 2, rng(6))
    assert other.player_discards["ana"] != rest(state, "ana", 2, rng(5))[0].player_discards["ana"]
    assert_invariants(new)


def test_fr_mode_11_rest_is_con_desgaste_only_and_hours_are_checked():
    assert_rejects(rest, normal(), E_WRONG_MODE, "ana", 1, rng())
    state = new_session("con_desgaste", PLAYERS, MAYOR, rng=rng())
    assert_rejects(rest, state, E_BAD_HOURS, "ana", -1, rng())
    assert_rejects(rest, state, E_UNKNOWN_PLAYER, "zed", 1, rng())


# --------------------------------------------------------------------------------------------
# Late joiners (FR-MODE-9), death (FR-EXCH-4), dead man's hand (FR-CHK-6)
# --------------------------------------------------------------------------------------------


def test_fr_mode_9_new_deck_in_phase_1_newcomer_takes_eight_rest_to_pile():
    state = normal()
    new, events = join_with_new_deck(state, "di", rng(1))
    assert new.decks == 2 and new.players[-1] == "di"
    assert len(new.player_decks["di"]) == 8
    assert all(Card.from_uid(u).deck == 2 for u in new.player_decks["di"])
    assert len(new.pile) == len(state.pile) + 46
    assert {e["from"] for e in events} == {"box"} and len(events) == 54
    assert not visible_cards(new, "di") & set(new.player_decks["di"])  # still phase 1: face down
    assert_invariants(new)


def test_fr_mode_9_new_deck_returns_the_session_to_phase_1():
    state = in_phase_2()
    new, _ = join_with_new_deck(state, "di", rng(1), return_to_phase_1=True)
    assert new.phase == 1 and len(new.pile) == 46
    assert new.player_decks["ana"] == state.player_decks["ana"]  # the others keep their decks
    assert set(new.player_decks["ana"]) <= visible_cards(new, "ana")  # already seen in phase 2
    assert not visible_cards(new, "di") & set(new.player_decks["di"])
    state2, _ = draw_for_check(new, "bo", 2, "c1", rng())
    assert {Card.from_uid(u).deck for u in drawn_cards(state2, "bo", "c1")} == {2}
    assert_invariants(state2)


def test_fr_mode_9_new_deck_in_phase_2_without_return_puts_the_rest_away():
    new, _ = join_with_new_deck(in_phase_2(), "di", rng(1))
    assert new.phase == 2 and len(new.out_of_play) == 46 and new.pile == []
    assert set(new.player_decks["di"]) <= visible_cards(new, "di")
    assert_invariants(new)


def test_fr_mode_9_new_deck_in_the_other_modes():
    sg, _ = join_with_new_deck(new_session("sin_gestion", PLAYERS, MAYOR, rng=rng()), "di", rng())
    assert len(sg.pile) == 50 + 54 and sg.player_decks["di"] == []
    cd, _ = join_with_new_deck(new_session("con_desgaste", PLAYERS, MAYOR, rng=rng()), "di", rng())
    assert set(cd.player_decks["di"]) == {c.uid for c in physical_deck(5)}
    assert_invariants(sg)
    assert_invariants(cd)


def test_fr_mode_9_newcomer_takes_random_cards_from_every_other_deck():
    state = normal()
    new, events = join_from_players(state, "di", 2, rng(3))
    assert len(new.player_decks["di"]) == 8
    for p in state.players:  # the Mayor included
        assert len(new.player_decks[p]) == 6
        assert len(set(state.player_decks[p]) & set(new.player_decks["di"])) == 2
    assert {e["reason"] for e in events} == {"late_joiner"}
    assert_invariants(new)


def test_fr_mode_9_newcomer_takes_what_there_is():
    state = in_phase_2()
    state, _ = draw_for_check(state, "ana", 7, "c1", rng())  # drawn cards are not in her deck
    state, _ = play_cards(state, "ana", "c1", drawn_cards(state, "ana", "c1")[:2])
    state, _ = draw_for_check(state, "ana", 7, "c2", rng())
    assert len(owned_cards(state, "ana")) == 2  # FR-EXCH-1: her discard is hers too
    state, _ = draw_for_check(state, "bo", 7, "c3", rng())
    assert len(owned_cards(state, "bo")) == 1
    new, _ = join_from_players(state, "di", 3, rng())
    assert len(new.player_decks["di"]) == 2 + 1 + 3 + 3
    assert owned_cards(new, "bo") == [] and drawn_cards(new, "bo", "c3") == drawn_cards(state, "bo", "c3")
    assert_invariants(new)


@pytest.mark.parametrize("count", [0, 4, -1, True, "2"])
def test_fr_mode_9_gm_chooses_one_to_three_cards(count):
    assert_rejects(join_from_players, normal(), E_BAD_PER_PLAYER, "di", count, rng())


def test_fr_mode_9_newcomer_name_must_be_new():
    assert_rejects(join_from_players, normal(), E_DUPLICATE_PLAYER, "ana", 1, rng())
    assert_rejects(join_with_new_deck, normal(), E_DUPLICATE_PLAYER, MAYOR, rng())


def test_fr_exch_4_death_sends_all_cards_to_treasure():
    state = in_phase_2()
    state, _ = draw_for_check(state, "cy", 3, "c1", rng())
    state, _ = play_first(state, "cy", "c1")
    state, _ = draw_for_check(state, "cy", 2, "c2", rng())  # open when cy dies
    cards = set(owned_cards(state, "cy")) | set(drawn_cards(state, "cy", "c2"))
    new, events = leave_game(state, "cy")
    assert "cy" not in new.players and "cy" not in new.player_decks
    assert set(new.treasure) - set(state.treasure) == cards and len(cards) == 8
    assert {e["to"] for e in events} >= {"treasure"}
    assert_invariants(new)


def test_fr_exch_4_mayor_never_leaves_and_unknown_players_are_rejected():
    assert_rejects(leave_game, normal(), E_MAYOR_STAYS, MAYOR)
    assert_rejects(leave_game, normal(), E_UNKNOWN_PLAYER, "zed")


def test_fr_exch_4_death_outside_normal_mode_puts_cards_out_of_play():
    state = new_session("con_desgaste", PLAYERS, MAYOR, rng=rng())
    new, _ = leave_game(state, "ana")
    assert len(new.out_of_play) == 54 and new.treasure == []
    assert_invariants(new)


def test_fr_chk_6_dead_mans_hand_draw_leaves_the_cards_in_place():
    state = normal()
    before = state.to_json()
    draws = [draw_dead_mans_hand(state, rng(s), 2) for s in range(10)]
    assert all(len(d) == 2 and set(d) <= DMH_UIDS and len(set(d)) == 2 for d in draws)
    assert len({tuple(d) for d in draws}) > 1
    assert len(draw_dead_mans_hand(state, rng(), 1)) == 1
    assert state.to_json() == before
    for count in (0, 3, True):
        with pytest.raises(RulesError) as info:
            draw_dead_mans_hand(state, rng(), count)
        assert info.value.template == E_DEAD_MANS_HAND_COUNT


# --------------------------------------------------------------------------------------------
# Bad input leaves the state unchanged
# --------------------------------------------------------------------------------------------


def test_bad_draws_raise_and_change_nothing():
    state = normal()
    assert_rejects(draw_for_check, state, E_UNKNOWN_PLAYER, "zed", 2, "c1", rng())
    assert_rejects(draw_for_check, state, E_BAD_COUNT, "ana", -1, "c1", rng())
    assert_rejects(draw_for_check, state, E_BAD_COUNT, "ana", 2.5, "c1", rng())
    assert_rejects(draw_for_check, state, E_BAD_CHECK_ID, "ana", 2, 3, rng())
    assert_rejects(draw_for_check, state, E_BAD_CHECK_ID, "ana", 2, " ", rng())
    state, _ = draw_for_check(state, "ana", 2, "c1", rng())
    assert_rejects(draw_for_check, state, E_CHECK_PENDING, "ana", 2, "c1", rng())


def test_bad_plays_raise_and_change_nothing():
    state, _ = draw_for_check(normal(), "ana", 3, "c1", rng())
    drawn = drawn_cards(state, "ana", "c1")
    not_drawn = state.pile[0]
    assert_rejects(play_cards, state, E_NOT_DRAWN, "ana", "c1", [not_drawn])
    assert_rejects(play_cards, state, E_NOT_DRAWN, "ana", "c1", [drawn[0], not_drawn])
    assert_rejects(play_cards, state, E_REPEATED_CARD, "ana", "c1", [drawn[0], drawn[0]])
    assert_rejects(play_cards, state, E_NO_CARD_CHOSEN, "ana", "c1", [])
    assert_rejects(play_cards, state, E_NO_CARD_CHOSEN, "ana", "c1", drawn[0])
    assert_rejects(play_cards, state, E_UNKNOWN_CHECK, "ana", "c2", [drawn[0]])
    assert_rejects(play_cards, state, E_UNKNOWN_CHECK, "bo", "c1", [drawn[0]])  # another player's check
    assert_rejects(play_cards, state, E_UNKNOWN_PLAYER, "zed", "c1", [drawn[0]])
    assert_rejects(settle_check, state, E_UNKNOWN_CHECK, "ana", "c2")
    played, _ = play_cards(state, "ana", "c1", [drawn[0]])
    assert_rejects(play_cards, played, E_UNKNOWN_CHECK, "ana", "c1", [drawn[0]])  # played twice
    err = assert_rejects(play_cards, state, E_NOT_DRAWN, "ana", "c1", [not_drawn])
    assert str(err) == f"{not_drawn} was not drawn in this check."


def test_zone_of_finds_every_card_and_rejects_strangers():
    state, _ = draw_for_check(normal(), "ana", 2, "c1", rng())
    assert zone_of(state, drawn_cards(state, "ana", "c1")[0]) == "pending:ana"
    assert zone_of(state, "1:AS") == "dead_mans_hand"
    with pytest.raises(RulesError) as info:
        zone_of(state, "7:AS")
    assert info.value.template == E_NOT_IN_SESSION


# --------------------------------------------------------------------------------------------
# Secrecy: visible_cards, view, redact_events
# --------------------------------------------------------------------------------------------


def test_visibility_pending_cards_only_for_the_drawer():
    state, _ = draw_for_check(normal(), "ana", 3, "c1", rng())
    drawn = set(drawn_cards(state, "ana", "c1"))
    assert drawn <= visible_cards(state, "ana")
    assert not drawn & visible_cards(state, "bo")
    assert not drawn & visible_cards(state, MAYOR)
    assert not drawn & visible_cards(state, None)
    assert view(state, "bo")["seats"]["ana"]["pending"] == {"c1": {"count": 3, "cards": []}}
    assert sorted(view(state, "ana")["seats"]["ana"]["pending"]["c1"]["cards"]) == sorted(drawn)


def test_visibility_hidden_shared_zones_and_public_dead_mans_hand():
    state, _ = draw_for_check(normal(), "ana", 3, "c1", rng())
    state, _ = play_first(state, "ana", "c1")
    for viewer in [*state.players, None]:
        seen = visible_cards(state, viewer)
        assert not seen & (set(state.pile) | set(state.discard) | set(state.treasure))
        assert DMH_UIDS <= seen
        v = view(state, viewer)
        assert v["pile"] == {"count": len(state.pile), "cards": []}
        assert v["discard"]["count"] == 2 and v["discard"]["cards"] == []


def test_visibility_phase_2_own_deck_yes_others_no_discards_public():
    state = in_phase_2()
    state, _ = draw_for_check(state, "ana", 3, "c1", rng())
    state, _ = play_first(state, "ana", "c1")
    assert set(owned_cards(state, "ana")) <= visible_cards(state, "ana")
    assert not set(state.player_decks["ana"]) & visible_cards(state, "bo")
    assert set(state.player_discards["ana"]) <= visible_cards(state, "bo")
    assert set(state.player_discards["ana"]) <= visible_cards(state, None)


def test_view_counts_every_card_and_never_shows_pile_order():
    state = in_phase_2()
    v = view(state, "ana")
    counted = sum(v[z]["count"] for z in ("pile", "discard", "treasure", "dead_mans_hand", "out_of_play"))
    counted += sum(s["deck"]["count"] + s["discard"]["count"] for s in v["seats"].values())
    assert counted == len(all_cards(state))
    shown = v["seats"]["ana"]["deck"]["cards"]
    assert sorted(shown) == sorted(state.player_decks["ana"])
    reshuffled = state.copy()
    reshuffled.player_decks["ana"].reverse()
    assert view(reshuffled, "ana") == v
    json.dumps(v)


def test_view_rejects_unknown_viewer():
    assert_rejects(view, normal(), E_UNKNOWN_PLAYER, "zed")


def test_redact_events_hides_cards_the_viewer_never_saw():
    state = normal()
    after, events = draw_for_check(state, "ana", 2, "c1", rng())
    assert [e["card"] for e in redact_events(events, state, after, "ana")] == moved(events)
    hidden = redact_events(events, state, after, "bo")
    assert [e["card"] for e in hidden] == [None, None]
    assert [e["to"] for e in hidden] == ["pending:ana"] * 2
    died, events = leave_game(in_phase_2(), "ana")
    assert all(e["card"] for e in redact_events(events, in_phase_2(), died, "ana"))
    assert not any(e["card"] for e in redact_events(events, in_phase_2(), died, "bo"))


# --------------------------------------------------------------------------------------------
# FR-MODE-12: outside exchanges, nobody's cards change owner
# --------------------------------------------------------------------------------------------


def test_fr_mode_12_checks_never_move_cards_between_players():
    state = normal(skip_phase_1=True)
    owners = {p: set(owned_cards(state, p)) for p in state.players}
    for n in range(30):
        p = state.players[n % 4]
        state, _ = draw_for_check(state, p, 3, f"c{n}", rng(n))
        if n % 3:
            state, _ = play_first(state, p, f"c{n}")
        else:
            state, _ = settle_check(state, p, f"c{n}")
        assert {q: set(owned_cards(state, q)) for q in state.players} == owners


# --------------------------------------------------------------------------------------------
# Purity and documentation
# --------------------------------------------------------------------------------------------


def test_engine_modules_import_no_django():
    import subprocess
    import sys

    code = "import sys, frontera.rules.session, frontera.rules.exchanges; print('django' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert result.stdout.strip() == "False"


def test_doctest_examples_hold():
    import doctest

    from frontera.rules import exchanges, session

    for module in (session, exchanges):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed


# --------------------------------------------------------------------------------------------
# The Mayor's undo takes card movements back (issue #10; FR-MOR-3, FR-MODE-4, FR-MODE-11)
# --------------------------------------------------------------------------------------------


def test_fr_mode_4_take_back_returns_a_played_card_to_the_pile_shuffled_in():
    """A one-card check played in phase 1 (the threat of FR-MOR-3: pile → the Mayor's deck) is taken
    back: the card is in the pile again, the pile is shuffled, every card is still in one zone."""
    before = normal(3)
    state, events = draw_for_check(before, MAYOR, 1, "t1", rng(1))
    card = drawn_cards(state, MAYOR, "t1")[0]
    state, more = play_cards(state, MAYOR, "t1", [card])
    state, undone = take_back(state, events + more, rng(2))
    assert [(e["card"], e["from"], e["to"], e["reason"]) for e in undone] == [(card, f"deck:{MAYOR}", "pile", "undo")]
    assert sorted(state.pile) == sorted(before.pile) and state.player_decks == before.player_decks
    assert state.pile != before.pile  # shuffled: the shown card does not sit on top
    assert_invariants(state)


def test_fr_mode_11_take_back_a_rest_and_refuse_a_card_that_moved_since():
    state = new_session("con_desgaste", PLAYERS, MAYOR, rng=rng(0))
    for n in range(2):
        state, _ = play_first(*draw_for_check(state, "ana", 3, f"c{n}", rng(n))[:1], "ana", f"c{n}")
    before = state
    state, events = rest(state, "ana", 1, rng(5))
    back, undone = take_back(state, events, rng(6))
    assert Counter(back.player_discards["ana"]) == Counter(before.player_discards["ana"])
    assert Counter(back.player_decks["ana"]) == Counter(before.player_decks["ana"])
    assert {e["reason"] for e in undone} == {"undo"}
    assert_invariants(back)
    moved_on, _ = draw_for_check(state, "ana", len(state.player_decks["ana"]), "c9", rng(7))
    assert_rejects(take_back, moved_on, E_UNDO_CARD_MOVED, events, rng(8))
