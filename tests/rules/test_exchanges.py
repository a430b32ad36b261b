"""FR-EXCH-1..7 and the card swaps of FR-SOB-1: exchanges between players, Normal mode only."""

import pytest

from frontera.rules.errors import RulesError

from frontera.rules.exchanges import (
    E_BAD_TREASURE_COUNT,
    E_DUEL_TOO_MANY,
    E_GIVE_COUNT,
    E_MAYOR_NO_TREASURE,
    E_MAYOR_NOT_DRUNK,
    E_MUST_CHOOSE,
    E_NOT_A_LIST,
    E_NOT_IN_DECK,
    E_NOTHING_TO_GIVE,
    E_SAME_PLAYER,
    E_TREASURE_EMPTY,
    bet_caught_cheating,
    bet_tie,
    bet_win,
    coma_exchange,
    coma_options,
    drunk_swap,
    duel_tie,
    duel_win,
    exchange_options,
    E_FEW_IN_RING,
    E_FEW_SHARERS,
    E_NOT_A_SHARER,
    E_NOT_AGREED,
    E_NOT_IN_TREASURE,
    choice_visible,
    tie_ring,
    treasure_agreement,
    treasure_draw,
    treasure_keep,
    treasure_sharers,
    treasure_sharers_see,
    treasure_swap,
    treasure_swappers,
    treasure_take,
    winner_looks,
)
from frontera.rules.session import (
    E_REPEATED_CARD,
    E_UNKNOWN_PLAYER,
    E_WRONG_MODE,
    draw_for_check,
    drawn_cards,
    new_session,
    owned_cards,
    play_cards,
    switch_to_phase_2,
    visible_cards,
)
from tests.rules.test_session import (
    MAYOR,
    PLAYERS,
    assert_invariants,
    assert_rejects,
    in_phase_2,
    normal,
    rng,
)


def owned(state, player):
    return set(owned_cards(state, player))


def with_discard(state, player, played=3):
    """A phase-2 state where ``player`` has ``played`` cards in their own discard."""
    state, _ = draw_for_check(state, player, played, "x", rng())
    state, _ = play_cards(state, player, "x", drawn_cards(state, player, "x"))
    return state


def empty_handed(state, player, check_id="empty"):
    """``player`` owns nothing: every card of theirs is drawn and pending."""
    state, _ = draw_for_check(state, player, 60, check_id, rng())
    assert owned_cards(state, player) == []
    return state


def phase_1_with_treasure():
    return normal(treasure_cards=5)


# --------------------------------------------------------------------------------------------
# FR-EXCH-1: a player's deck is draw pile + own discard; received cards go to the draw pile
# --------------------------------------------------------------------------------------------


def test_fr_exch_1_deck_is_draw_pile_plus_own_discard():
    state = with_discard(in_phase_2(), "bo")
    assert owned(state, "bo") == set(state.player_decks["bo"]) | set(state.player_discards["bo"])
    assert set(exchange_options(state, "bo")) == owned(state, "bo")
    taken = state.player_discards["bo"][0]
    new, events = bet_win(state, "ana", "bo", take=taken, give=state.player_decks["ana"][0])
    assert taken in new.player_decks["ana"]  # a received card goes to the draw pile
    assert events[0]["from"] == "discard:bo" and events[0]["to"] == "deck:ana"
    assert_invariants(new)


def test_fr_exch_1_drawn_cards_are_not_in_the_deck():
    state, _ = draw_for_check(in_phase_2(), "bo", 2, "c1", rng())
    pending = drawn_cards(state, "bo", "c1")[0]
    assert pending not in exchange_options(state, "bo")
    give = state.player_decks["ana"][0]
    assert_rejects(bet_win, state, E_NOT_IN_DECK, "ana", "bo", take=pending, give=give)


# --------------------------------------------------------------------------------------------
# FR-EXCH-2: bets
# --------------------------------------------------------------------------------------------


def test_fr_exch_2_winner_takes_a_chosen_card_and_gives_one_of_theirs():
    state = normal()
    take, give = state.player_decks["bo"][3], state.player_decks["ana"][5]
    new, events = bet_win(state, "ana", "bo", take=take, give=give)
    assert owned(new, "ana") == owned(state, "ana") - {give} | {take}
    assert owned(new, "bo") == owned(state, "bo") - {take} | {give}
    assert [e["card"] for e in events] == [take, give] and {e["reason"] for e in events} == {"bet"}
    assert_invariants(new)


def test_fr_exch_2_winner_gives_from_what_they_had_before_taking():
    state = normal()
    take = state.player_decks["bo"][0]
    assert_rejects(bet_win, state, E_NOT_IN_DECK, "ana", "bo", take=take, give=take)


def test_fr_exch_2_choices_are_required_unless_a_deck_is_empty():
    state = normal()
    assert_rejects(bet_win, state, E_MUST_CHOOSE, "ana", "bo", take=None, give=state.player_decks["ana"][0])
    assert_rejects(bet_win, state, E_MUST_CHOOSE, "ana", "bo", take=state.player_decks["bo"][0], give=None)
    broke = empty_handed(in_phase_2(), "bo")
    new, events = bet_win(broke, "ana", "bo", take=None, give=broke.player_decks["ana"][0])
    assert len(events) == 1 and owned_cards(new, "bo") == [broke.player_decks["ana"][0]]


def test_fr_exch_2_tie_each_takes_a_random_card_of_the_rival():
    state = normal()
    new, events = bet_tie(state, "ana", MAYOR, rng(4))
    assert len(events) == 2 and {e["reason"] for e in events} == {"bet_tie"}
    to_ana = owned(new, "ana") - owned(state, "ana")
    to_mayor = owned(new, MAYOR) - owned(state, MAYOR)
    assert len(to_ana) == 1 and to_ana <= owned(state, MAYOR)
    assert len(to_mayor) == 1 and to_mayor <= owned(state, "ana")
    picks = {tuple(e["card"] for e in bet_tie(state, "ana", MAYOR, rng(s))[1]) for s in range(8)}
    assert len(picks) > 1  # random, from the injected generator
    assert bet_tie(state, "ana", MAYOR, rng(4)) == (new, events)
    assert_invariants(new)


def test_fr_exch_2_caught_cheating_rival_keeps_a_card_gives_nothing():
    state = normal()
    take = state.player_decks["cy"][2]
    new, events = bet_caught_cheating(state, "cy", MAYOR, take=take)
    assert owned(new, MAYOR) == owned(state, MAYOR) | {take}
    assert owned(new, "cy") == owned(state, "cy") - {take}
    assert len(events) == 1 and events[0]["reason"] == "cheat"
    assert_rejects(bet_caught_cheating, state, E_NOT_IN_DECK, "cy", MAYOR, take=state.player_decks["ana"][0])


def test_fr_exch_2_bad_partners():
    state = normal()
    card = state.player_decks["ana"][0]
    assert_rejects(bet_win, state, E_SAME_PLAYER, "ana", "ana", take=card, give=card)
    assert_rejects(bet_win, state, E_UNKNOWN_PLAYER, "ana", "zed", take=card, give=card)
    assert_rejects(bet_tie, state, E_UNKNOWN_PLAYER, "zed", "ana", rng())


# --------------------------------------------------------------------------------------------
# FR-EXCH-3: duels
# --------------------------------------------------------------------------------------------


def test_fr_exch_3_winner_takes_up_to_two_and_gives_as_many():
    state = normal()
    take, give = state.player_decks["bo"][:2], state.player_decks["ana"][:2]
    new, events = duel_win(state, "ana", "bo", take=take, give=give)
    assert owned(new, "ana") == owned(state, "ana") - set(give) | set(take)
    assert owned(new, "bo") == owned(state, "bo") - set(take) | set(give)
    assert len(events) == 4 and {e["reason"] for e in events} == {"duel"}
    one, events = duel_win(state, "ana", "bo", take=take[:1], give=give[1:])
    assert len(events) == 2 and owned(one, "bo") == owned(state, "bo") - {take[0]} | {give[1]}
    none, events = duel_win(state, "ana", "bo", take=[], give=[])
    assert events == [] and none.player_decks == state.player_decks
    assert_invariants(new)


def test_fr_exch_3_bad_duel_choices():
    state = normal()
    theirs, mine = state.player_decks["bo"], state.player_decks["ana"]
    assert_rejects(duel_win, state, E_DUEL_TOO_MANY, "ana", "bo", take=theirs[:3], give=mine[:3])
    assert_rejects(duel_win, state, E_GIVE_COUNT, "ana", "bo", take=theirs[:2], give=mine[:1])
    assert_rejects(duel_win, state, E_REPEATED_CARD, "ana", "bo", take=[theirs[0], theirs[0]], give=mine[:2])
    assert_rejects(duel_win, state, E_NOT_IN_DECK, "ana", "bo", take=[mine[0]], give=[mine[1]])
    assert_rejects(duel_win, state, E_NOT_A_LIST, "ana", "bo", take=theirs[0], give=mine[0])


def test_fr_exch_3_winner_with_fewer_cards_gives_all_they_have():
    """RULING: a winner who owns fewer cards than they take gives back all of them."""
    state = in_phase_2()
    state, _ = draw_for_check(state, "ana", 7, "c1", rng())  # ana keeps 1 card in her deck
    mine = owned_cards(state, "ana")
    assert len(mine) == 1
    take = state.player_decks["bo"][:2]
    assert_rejects(duel_win, state, E_GIVE_COUNT, "ana", "bo", take=take, give=[])
    new, _ = duel_win(state, "ana", "bo", take=take, give=mine)
    assert owned(new, "ana") == set(take)


def test_fr_exch_3_tie_swaps_two_random_cards_each_way():
    state = normal()
    new, events = duel_tie(state, "ana", "bo", rng(2))
    assert len(events) == 4 and {e["reason"] for e in events} == {"duel_tie"}
    assert len(owned(new, "ana") - owned(state, "ana")) == 2
    assert len(owned(new, "bo") - owned(state, "bo")) == 2
    assert owned(new, "ana") | owned(new, "bo") == owned(state, "ana") | owned(state, "bo")
    assert_invariants(new)


# --------------------------------------------------------------------------------------------
# FR-EXCH-5 / FR-SOB-1: drunk and coma
# --------------------------------------------------------------------------------------------


def test_fr_sob_1_borracho_swaps_random_cards_with_the_mayor_face_down_in_phase_1():
    """FR-EXCH-5 / FR-SOB-1: the drunk swap is random both ways and face down in phase 1."""
    state = normal()
    new, events = drunk_swap(state, "bo", rng(1))
    assert [e["reason"] for e in events] == ["drunk", "drunk"]
    got = owned(new, "bo") - owned(state, "bo")
    gave = owned(state, "bo") - owned(new, "bo")
    assert len(got) == 1 and got <= owned(state, MAYOR) and len(gave) == 1 and gave <= owned(new, MAYOR)
    for viewer in new.players:  # face down: nobody sees either card
        assert not (got | gave) & visible_cards(new, viewer)
    assert_invariants(new)


def test_fr_sob_1_borracho_in_phase_2_each_sees_their_new_card():
    state = in_phase_2()
    new, _ = drunk_swap(state, "bo", rng(1))
    got = owned(new, "bo") - owned(state, "bo")
    assert got <= visible_cards(new, "bo") and not got & visible_cards(new, "ana")


def test_fr_sob_1_borracho_with_an_empty_deck_changes_nothing():
    """RULING: a swap needs a card on each side."""
    state = empty_handed(in_phase_2(), "bo")
    new, events = drunk_swap(state, "bo", rng())
    assert events == [] and new == state


def test_fr_sob_1_only_protagonists_drink_with_the_mayor():
    assert_rejects(drunk_swap, normal(), E_MAYOR_NOT_DRUNK, MAYOR, rng())
    assert_rejects(coma_exchange, normal(), E_MAYOR_NOT_DRUNK, MAYOR, give=None, rng=rng())


def test_fr_sob_1_en_coma_random_card_to_the_mayor_who_gives_one_he_chooses():
    """FR-EXCH-5 / FR-SOB-1: random card to the Mayor, the Mayor's choice back."""
    state = normal()
    give = coma_options(state, "cy")[4]
    assert set(coma_options(state, "cy")) == owned(state, MAYOR)
    new, events = coma_exchange(state, "cy", give=give, rng=rng(9))
    received = events[0]["card"]
    assert received in owned(state, "cy") and received in owned(new, MAYOR)
    assert give in owned(new, "cy") and give not in owned(new, MAYOR)
    assert [(e["from"], e["to"]) for e in events] == [("deck:cy", "deck:mayor"), ("deck:mayor", "deck:cy")]
    assert_invariants(new)


def test_fr_sob_1_en_coma_in_phase_1_mayor_sees_his_deck_but_not_the_card_received():
    state = normal()
    new, events = coma_exchange(state, "cy", give=state.player_decks[MAYOR][0], rng=rng(9))
    received = events[0]["card"]
    seen = visible_cards(new, MAYOR)
    assert received not in seen
    assert set(new.player_decks[MAYOR]) - {received} <= seen
    assert set(new.player_decks["cy"]) <= seen  # RULINGS.md FR-SOB-1: the player's deck too
    assert not set(new.player_decks["cy"]) & visible_cards(new, "cy")  # cy sees nothing
    assert not set(new.player_decks["ana"]) & seen
    # a later coma exchange lets the Mayor see the earlier card (book, FR-SOB-1)
    later, events = coma_exchange(new, "ana", give=new.player_decks[MAYOR][0], rng=rng(3))
    assert received in later.player_decks[MAYOR] and received in visible_cards(later, MAYOR)
    assert events[0]["card"] not in visible_cards(later, MAYOR)


def test_fr_sob_1_en_coma_bad_choices():
    state = normal()
    assert_rejects(coma_exchange, state, E_NOT_IN_DECK, "cy", give=state.player_decks["cy"][0], rng=rng())
    assert_rejects(coma_exchange, state, E_MUST_CHOOSE, "cy", give=None, rng=rng())
    broke = empty_handed(in_phase_2(), "cy")
    give = broke.player_decks[MAYOR][0]
    assert_rejects(coma_exchange, broke, E_NOTHING_TO_GIVE, "cy", give=give, rng=rng())
    new, events = coma_exchange(broke, "cy", give=None, rng=rng())
    assert events == [] and new == broke


# --------------------------------------------------------------------------------------------
# FR-EXCH-6: treasure
# --------------------------------------------------------------------------------------------


def test_fr_exch_6_a_random_treasure_card_goes_to_the_keeper():
    state = phase_1_with_treasure()
    new, events = treasure_take(state, "ana", rng(2))
    assert len(events) == 1 and events[0]["from"] == "treasure" and events[0]["to"] == "deck:ana"
    assert events[0]["card"] in state.treasure and len(new.treasure) == 4
    picks = {treasure_take(state, "ana", rng(s))[1][0]["card"] for s in range(10)}
    assert len(picks) > 1
    assert_invariants(new)


def test_fr_mode_4_treasure_won_in_phase_1_stays_unseen_until_phase_2():
    state = phase_1_with_treasure()
    new, events = treasure_take(state, "ana", rng(2))
    card = events[0]["card"]
    assert card not in visible_cards(new, "ana")
    phase2, _ = switch_to_phase_2(new)
    assert card in visible_cards(phase2, "ana")


def test_fr_exch_6_valuable_treasure_gives_more_cards():
    state = phase_1_with_treasure()
    new, events = treasure_take(state, "bo", rng(), count=3)
    assert len(events) == 3 and len(new.treasure) == 2
    rest, events = treasure_take(new, "bo", rng(), count=3)
    assert len(events) == 2 and rest.treasure == []
    assert_rejects(treasure_take, rest, E_TREASURE_EMPTY, "bo", rng())
    assert_rejects(treasure_take, state, E_BAD_TREASURE_COUNT, "bo", rng(), count=0)


def test_fr_exch_6_the_mayor_never_takes_treasure():
    assert_rejects(treasure_take, phase_1_with_treasure(), E_MAYOR_NO_TREASURE, MAYOR, rng())
    state = normal()
    a, m = state.player_decks["ana"][0], state.player_decks[MAYOR][0]
    assert_rejects(treasure_swap, state, E_MAYOR_NO_TREASURE, "ana", MAYOR, give_a=a, give_b=m)


def test_fr_exch_6_sharing_protagonists_swap_one_card_each():
    state = normal()
    a, b = state.player_decks["ana"][1], state.player_decks["cy"][6]
    new, events = treasure_swap(state, "ana", "cy", give_a=a, give_b=b)
    assert b in owned(new, "ana") and a in owned(new, "cy")
    assert [e["reason"] for e in events] == ["treasure_swap"] * 2
    assert_rejects(treasure_swap, state, E_NOT_IN_DECK, "ana", "cy", give_a=b, give_b=a)
    assert_rejects(treasure_swap, state, E_SAME_PLAYER, "ana", "ana", give_a=a, give_b=a)
    assert_invariants(new)


# --------------------------------------------------------------------------------------------
# FR-EXCH-7: who looks at what after an exchange in phase 1
# --------------------------------------------------------------------------------------------


def test_fr_exch_7_phase_1_winner_sees_own_deck_nobody_else_s():
    state = normal()
    take, give = state.player_decks["bo"][0], state.player_decks["ana"][0]
    new, _ = bet_win(state, "ana", "bo", take=take, give=give)
    assert set(new.player_decks["ana"]) <= visible_cards(new, "ana")
    assert not set(new.player_decks["bo"]) & visible_cards(new, "ana")
    assert not set(new.player_decks["bo"]) & visible_cards(new, "bo")  # the loser sees nothing
    duel, _ = duel_win(state, "bo", "ana", take=[give], give=[take])
    assert set(duel.player_decks["bo"]) <= visible_cards(duel, "bo")
    cheat, _ = bet_caught_cheating(state, "cy", "bo", take=state.player_decks["cy"][0])
    assert set(cheat.player_decks["bo"]) <= visible_cards(cheat, "bo")


def test_fr_exch_7_a_tie_shows_nothing_and_later_cards_stay_hidden():
    state = normal()
    tie, _ = bet_tie(state, "ana", "bo", rng())
    assert not set(tie.player_decks["ana"]) & visible_cards(tie, "ana")
    won, _ = bet_win(state, "ana", "bo", take=state.player_decks["bo"][0], give=state.player_decks["ana"][0])
    swapped, events = drunk_swap(won, "ana", rng(3))  # a card received face down afterwards
    assert events[0]["card"] not in visible_cards(swapped, "ana")
    assert set(swapped.player_decks["ana"]) - {events[0]["card"]} <= visible_cards(swapped, "ana")


# --------------------------------------------------------------------------------------------
# Normal mode only
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["sin_gestion", "con_desgaste"])
def test_fr_exch_exchanges_are_normal_mode_only(mode):
    state = new_session(mode, PLAYERS, MAYOR, rng=rng())
    card = "1:2S"
    assert_rejects(bet_win, state, E_WRONG_MODE, "ana", "bo", take=card, give=card)
    assert_rejects(bet_tie, state, E_WRONG_MODE, "ana", "bo", rng())
    assert_rejects(bet_caught_cheating, state, E_WRONG_MODE, "ana", "bo", take=card)
    assert_rejects(duel_win, state, E_WRONG_MODE, "ana", "bo", take=[], give=[])
    assert_rejects(duel_tie, state, E_WRONG_MODE, "ana", "bo", rng())
    assert_rejects(drunk_swap, state, E_WRONG_MODE, "ana", rng())
    assert_rejects(coma_exchange, state, E_WRONG_MODE, "ana", give=None, rng=rng())
    assert_rejects(treasure_take, state, E_WRONG_MODE, "ana", rng())
    assert_rejects(treasure_swap, state, E_WRONG_MODE, "ana", "bo", give_a=card, give_b=card)
    assert_rejects(exchange_options, state, E_WRONG_MODE, "ana")


# --------------------------------------------------------------------------------------------
# FR-EXCH-7 timing and what a chooser sees (rulings in docs/rules/decks.md)
# --------------------------------------------------------------------------------------------


def test_fr_exch_7_the_winner_looks_at_their_own_deck_when_the_exchange_opens():
    """Phase 1: the winner sees their whole deck before choosing the card to give (the book's
    "elegirá una carta de su propio mazo"); the loser's deck stays hidden from everyone."""
    state = normal()
    assert not set(state.player_decks["ana"]) & visible_cards(state, "ana")
    looked = winner_looks(state, "ana")
    assert set(looked.player_decks["ana"]) <= visible_cards(looked, "ana")
    assert not set(looked.player_decks["bo"]) & visible_cards(looked, "ana")
    assert not set(looked.player_decks["ana"]) & visible_cards(looked, "bo")
    assert visible_cards(state, "ana") == frozenset(visible_cards(normal(), "ana"))  # input untouched
    phase2 = in_phase_2()
    assert winner_looks(phase2, "ana") == phase2


def test_fr_exch_7_phase_1_choices_from_the_losers_deck_are_blind():
    state = winner_looks(normal(), "ana")
    assert choice_visible(state, "ana", "bo") == frozenset()
    assert choice_visible(state, "ana", "ana") == frozenset(owned_cards(state, "ana"))
    assert choice_visible(normal(), "ana", "ana") == frozenset()  # not a winner: blind


def test_fr_exch_7_in_phase_2_the_losers_deck_stays_face_down_too():
    """Ruling (docs/rules/decks.md): "nobody else's deck becomes visible" holds in phase 2 too; the
    winner sees their own deck, and picks from the loser's by position."""
    state = with_discard(in_phase_2(), "bo")
    assert choice_visible(state, "ana", "bo") == frozenset(state.player_discards["bo"])  # public anyway
    assert choice_visible(state, "ana", "ana") == frozenset(owned_cards(state, "ana"))
    assert choice_visible(state, "bo", "bo") == frozenset(owned_cards(state, "bo"))


# --------------------------------------------------------------------------------------------
# FR-EXCH-6: several sharers decide who keeps the treasure
# --------------------------------------------------------------------------------------------


def test_fr_exch_6_drawn_treasure_moves_only_to_the_agreed_keepers():
    state = phase_1_with_treasure()
    cards = treasure_draw(state, rng(4), 2)
    assert len(cards) == 2 and set(cards) <= set(state.treasure)
    new, events = treasure_keep(state, ["ana", "bo"], cards)
    assert cards[0] in new.player_decks["ana"] and cards[1] in new.player_decks["bo"]
    assert [e["reason"] for e in events] == ["treasure", "treasure"]
    assert not set(cards) & (visible_cards(new, "ana") | visible_cards(new, "bo"))  # FR-MODE-4
    assert_rejects(treasure_keep, new, E_NOT_IN_TREASURE, "ana", cards[:1])
    assert_rejects(treasure_keep, state, E_MAYOR_NO_TREASURE, MAYOR, cards[:1])
    assert_rejects(treasure_keep, state, E_NOT_AGREED, ["ana"], cards)
    assert_invariants(new)
    assert treasure_take(state, "ana", rng(4), 2)[1] == treasure_keep(state, "ana", cards)[1]


def test_fr_exch_6_the_sharers_decide_unanimously():
    sharers = ["ana", "bo", "cy"]
    assert treasure_agreement(sharers, {"ana": ["bo"], "bo": ["bo"]}, 1) is None  # cy has not said
    assert treasure_agreement(sharers, {"ana": ["bo"], "bo": ["bo"], "cy": ["cy"]}, 1) is None
    assert treasure_agreement(sharers, {s: ["bo"] for s in sharers}, 1) == ["bo"]
    assert treasure_agreement(sharers, {s: ["bo", "cy"] for s in sharers}, 2) == ["bo", "cy"]
    for votes, template in (({"ana": ["mayor"]}, E_NOT_A_SHARER), ({"dee": ["ana"]}, E_NOT_A_SHARER),
                            ({"ana": ["bo", "cy"]}, E_NOT_AGREED)):
        with pytest.raises(RulesError) as info:
            treasure_agreement(sharers, votes, 1)
        assert info.value.template == template


def test_fr_exch_6_the_others_may_swap_and_the_mayor_takes_no_part():
    assert treasure_swappers(["ana", "bo", "cy"], ["bo"]) == ["ana", "cy"]
    assert treasure_swappers(["ana", "bo"], []) == ["ana", "bo"]  # empty treasure: everyone
    state = normal()
    assert treasure_sharers(state, ["ana", "bo", "ana"]) == ["ana", "bo"]
    assert_rejects(treasure_sharers, state, E_MAYOR_NO_TREASURE, ["ana", MAYOR])
    assert_rejects(treasure_sharers, state, E_FEW_SHARERS, ["ana"])
    assert not treasure_sharers_see(state) and treasure_sharers_see(in_phase_2())


# --------------------------------------------------------------------------------------------
# FR-EXCH-2: a tie among three or more bettors
# --------------------------------------------------------------------------------------------


def test_fr_exch_2_a_tie_among_three_is_a_ring_of_random_takes():
    state = in_phase_2()
    ring = ["ana", "bo", MAYOR]
    new, events = tie_ring(state, ring, rng(5))
    assert [(e["from"], e["to"]) for e in events] == [("deck:bo", "deck:ana"), ("deck:mayor", "deck:bo"),
                                                    ("deck:ana", "deck:mayor")]
    for player in ring:
        assert len(owned_cards(new, player)) == len(owned_cards(state, player))
    assert {e["reason"] for e in events} == {"bet_tie"}
    assert_invariants(new)
    assert_rejects(tie_ring, state, E_FEW_IN_RING, ["ana", "ana"], rng())
