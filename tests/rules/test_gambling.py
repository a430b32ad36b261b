"""FR-GMB: la banca siempre gana, azar, cheating and skill contests."""

import copy
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules import RulesError
from frontera.rules import gambling as gmb
from frontera.rules.cards import Card, dead_mans_hand, physical_deck
from frontera.rules.checks import cards_for_check


def step(state, operation, *args, **kw):
    """Apply an operation; the input is untouched and the new state is plain JSON."""
    before = copy.deepcopy(state)
    new, events = operation(state, *args, **kw)
    assert state == before
    assert json.loads(json.dumps(new)) == new
    json.dumps(events)
    return new


def refused(state, operation, *args, match=None, **kw):
    before = copy.deepcopy(state)
    with pytest.raises(RulesError, match=match):
        operation(state, *args, **kw)
    assert state == before


def mayors_deck(*first):
    """The Mayor's deck (here a whole deck) with the dead man's hand, ``first`` on top."""
    top = [Card.parse(code, copy=2) if code == "JK" else Card.parse(code) for code in first]
    rest = [card for card in physical_deck(jokers=2) if card.uid not in {c.uid for c in top}]
    return top + rest


def played_rounds(state, count, rng=None):
    for _ in range(count):
        state = step(state, gmb.banca_round, rng or random.Random(0))
    return state


# --- FR-GMB-4: settlement --------------------------------------------------------------------------


def test_fr_gmb_4_worked_example_twelve_dollars_r_minus_six():
    """FR-GMB-4: $12, r = −6 → 12 (4 quarters) doubled twice = 48 winnings, leaves with $60."""
    assert gmb.banca_settlement(12, 2, 8) == 60


@pytest.mark.parametrize(
    ("r", "after"),
    [(0, 12), (1, 9), (2, 6), (4, 0), (5, -3), (7, -9),
     (-1, 15), (-3, 21), (-4, 24), (-5, 36), (-6, 60), (-7, 108)],
)
def test_fr_gmb_4_settlement_table(r, after):
    """FR-GMB-4: each point a quarter of the money; beyond 4 lost → debt; beyond 4 won → doubling."""
    bank, player = (r, 0) if r >= 0 else (0, -r)
    assert gmb.banca_settlement(12, bank, player) == after


def test_fr_gmb_4_settlement_is_exact():
    assert gmb.banca_settlement(10, 0, 1) == Fraction(25, 2)
    assert gmb.banca_settlement(Fraction(1, 2), 0, 6) == Fraction(5, 2)
    assert gmb.banca_settlement(0, 9, 0) == 0


@pytest.mark.parametrize(("money", "bank", "player", "exact", "whole"), [
    (10, 0, 1, Fraction(25, 2), 12),    # a win of $2.50 pays $2
    (10, 1, 0, Fraction(15, 2), 7),     # a loss of $2.50 costs $3
    (10, 6, 0, Fraction(-5, 1), -5),    # whole debts stay whole
    (6, 5, 0, Fraction(-3, 2), -2),     # a debt of $1.50 becomes $2
    (12, 2, 8, 60, 60),                 # the book's example is whole
])
def test_fr_gmb_4_the_banca_pays_whole_dollars_and_the_house_keeps_the_fraction(money, bank, player, exact, whole):
    """FR-GMB-4 ruling (docs/rules/combat.md): the book counts dollars and quarters, never cents;
    a sheet holds whole dollars, so the fraction of a dollar goes to the house (rounded down)."""
    state = gmb.banca_start(mayors_deck(), money)
    state = {**state, "bank": bank, "player": player, "status": "left", "rounds": [{"card": "1:2D"}]}
    result = gmb.banca_result(state)
    assert (result["money_exact"], result["money_after"]) == (exact, whole)
    assert isinstance(result["money_after"], int)
    assert result["money_after"] <= result["money_exact"] < result["money_after"] + 1


@pytest.mark.parametrize("args", [(-1, 0, 0), (12.5, 0, 0), (True, 0, 0), (12, -1, 0), (12, 0, "3")])
def test_fr_gmb_4_settlement_rejects_bad_input(args):
    with pytest.raises(RulesError):
        gmb.banca_settlement(*args)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1000), st.integers(0, 30), st.integers(0, 30))
def test_fr_gmb_4_settlement_is_monotonic_in_r(money, bank, player):
    """FR-GMB-4: one more point for the bank never leaves the player richer; r = 0 changes nothing."""
    after = gmb.banca_settlement(money, bank, player)
    assert gmb.banca_settlement(money, bank + 1, player) <= after
    assert gmb.banca_settlement(money, bank, player + 1) >= after
    assert gmb.banca_settlement(money, bank, bank) == money
    assert (after > money) == (money > 0 and player > bank)


def test_fr_gmb_4_exchange_result():
    """FR-GMB-4 → FR-EXCH-2: r = 0 tie, r > 0 defeat, r < 0 victory."""
    assert [gmb.banca_exchange(b, p) for b, p in ((3, 3), (4, 1), (1, 4))] == ["tie", "defeat", "victory"]


# --- FR-GMB-2 / -3: the banca night -----------------------------------------------------------------


def test_fr_gmb_2_points_and_sides():
    """FR-GMB-2: Joker 5, Ace 3, figures 2, the rest 1; ♠ (and the joker) for the player."""
    assert [gmb.card_points(c) for c in ("JK", "AH", "JS", "QD", "KC", "10S", "2H")] == [5, 3, 2, 2, 2, 1, 1]
    sides = [gmb.card_side(c) for c in ("AS", "JK", "AH", "8C", "8D")]
    assert sides == ["player", "player", "bank", "bank", "bank"]


def test_fr_gmb_3_clementines_casino_night():
    """The book's example (FR-GMB-2..4): A♠ +3 player, 6♥ +1 bank, 8♣ +1 bank; she tries to stop with
    Cabeza (Astucia), 5 cards, plays 5♥: Éxito parcial → one more round: Joker +5 player. Bank 2,
    Clementine 8, r = −6: she leaves with $60 and wins the card exchange."""
    state = gmb.banca_start(mayors_deck("AS", "6H", "8C", "JK"), 12)
    state = played_rounds(state, 1)
    assert (state["bank"], state["player"]) == (0, 3)
    state = played_rounds(state, 2)
    assert (state["bank"], state["player"]) == (2, 3)
    assert cards_for_check(trait_score=3, skill=True) == 5
    assert gmb.gambling_check() == ("cabeza", "astucia")
    state = step(state, gmb.banca_stop, "5H")
    assert state["status"] == "last_round"
    refused(state, gmb.banca_result, match="not left")
    refused(state, gmb.banca_stop, "JH", match="leaves after this round")
    state = played_rounds(state, 1)
    assert (state["bank"], state["player"], state["status"]) == (2, 8, "left")
    assert gmb.banca_result(state) == {"r": -6, "bank": 2, "player": 8, "money_before": 12, "money_after": 60,
                                       "money_exact": 60, "exchange": "victory"}
    refused(state, gmb.banca_round, random.Random(0), match="already left")
    refused(state, gmb.banca_stop, "AD", match="already left")


def test_fr_gmb_3_failure_keeps_playing():
    state = played_rounds(gmb.banca_start(mayors_deck("AS", "KH"), 12), 1)
    state = step(state, gmb.banca_stop, "KC")  # Fracaso
    assert state["status"] == "playing"
    refused(state, gmb.banca_stop, "KD", match="play another round")
    state = played_rounds(state, 1)
    state = step(state, gmb.banca_stop, "3D")  # Éxito: leaves now, the K♥ round counts
    assert state["status"] == "left" and (state["bank"], state["player"]) == (2, 3)
    assert gmb.banca_result(state)["money_after"] == 15


def test_fr_gmb_3_cannot_stop_before_a_round():
    refused(gmb.banca_start(mayors_deck(), 5), gmb.banca_stop, "AD", match="Play a round")


def test_fr_gmb_3_success_at_least_the_last_card_ignores_the_last_round():
    """FR-GMB-3: Éxito with a card ≥ the last card drawn → leave as if the last round had not been played."""
    state = played_rounds(gmb.banca_start(mayors_deck("AS", "KH"), 12), 2)  # player 3, bank 2
    below = step(state, gmb.banca_stop, "QD")
    assert (below["bank"], below["player"], below["dropped_last_round"]) == (2, 3, False)
    refused(state, gmb.banca_stop, "QD", drop_last_round=True, match="at least 13")
    dropped = step(state, gmb.banca_stop, "KD")
    assert (dropped["bank"], dropped["player"], dropped["dropped_last_round"]) == (0, 3, True)
    assert gmb.banca_result(dropped)["money_after"] == 21
    kept = step(state, gmb.banca_stop, "AD", drop_last_round=False)
    assert (kept["bank"], kept["player"]) == (2, 3)
    joker = step(state, gmb.banca_stop, "JK", suit="D")
    assert joker["dropped_last_round"]
    refused(state, gmb.banca_stop, "JK", match="joker")


def test_fr_gmb_3_a_good_last_round_is_kept_by_default():
    state = played_rounds(gmb.banca_start(mayors_deck("2H", "5S"), 12), 2)
    left = step(state, gmb.banca_stop, "AD")
    assert (left["bank"], left["player"], left["dropped_last_round"]) == (1, 1, False)
    dropped = step(state, gmb.banca_stop, "AD", drop_last_round=True)
    assert (dropped["bank"], dropped["player"]) == (1, 0)


def test_fr_gmb_2_the_deck_is_reshuffled_when_it_runs_out():
    """FR-GMB-2: with the Mayor's deck exhausted, the drawn cards are shuffled (seeded rng) into a new one."""
    deck = dead_mans_hand() + [Card.parse("KS")]
    state = played_rounds(gmb.banca_start(deck, 8), 5)
    assert state["pile"] == [] and (state["bank"], state["player"]) == (5, 5)
    once, events = gmb.banca_round(state, random.Random(7))
    again, _ = gmb.banca_round(state, random.Random(7))
    assert once == again and events[0]["type"] == "banca_reshuffled"
    assert sorted(once["pile"] + once["drawn"]) == sorted(card.uid for card in deck)
    assert len(once["drawn"]) == 1


def test_fr_gmb_2_the_deck_must_hold_the_dead_mans_hand():
    with pytest.raises(RulesError, match="dead man's hand"):
        gmb.banca_start([Card.parse("2S")], 5)
    with pytest.raises(RulesError, match="appears twice"):
        gmb.banca_start(dead_mans_hand() * 2, 5)
    with pytest.raises(RulesError, match="needs the Mayor's deck"):
        gmb.banca_start([], 5)
    with pytest.raises(RulesError, match="money"):
        gmb.banca_start(dead_mans_hand(), -2)


# --- FR-GMB-6: cheating -------------------------------------------------------------------------------


def test_fr_gmb_6_cheating_at_the_banca():
    """FR-GMB-6: the cheat stops with Manos (Maña); a win pays double, a loss is caught and costs all."""
    assert gmb.gambling_check(cheating=True) == ("manos", "mana")
    state = played_rounds(gmb.banca_start(mayors_deck("AS", "6H", "8C", "JK"), 12, cheating=True), 3)
    assert step(state, gmb.banca_stop, "5D")["status"] == "playing"  # ♦ fails a Manos check
    state = step(state, gmb.banca_stop, "5C")  # ♣: same colour as ♠ → Éxito parcial
    result = gmb.banca_result(played_rounds(state, 1))
    assert (result["money_after"], result["exchange"]) == (12 + 2 * 48, "victory")
    losing = played_rounds(gmb.banca_start(mayors_deck("2H", "3H"), 12, cheating=True), 2)
    result = gmb.banca_result(step(losing, gmb.banca_stop, "2S"))
    assert (result["money_after"], result["exchange"]) == (0, "caught_cheating")
    deep = played_rounds(gmb.banca_start(mayors_deck("AH", "AD", "KH"), 12, cheating=True), 3)
    assert gmb.banca_result(step(deep, gmb.banca_stop, "2S", drop_last_round=False))["money_after"] == -12


# --- FR-GMB-5: azar ---------------------------------------------------------------------------------


def test_fr_gmb_5_azar_winner_and_loser_draw_the_dead_mans_hand():
    standing = gmb.azar_contest({"ana": "QD", "bob": "2D"})
    assert standing == {"ana": "victory", "bob": "defeat"}
    assert gmb.azar_needs_luck(standing) == ["ana", "bob"]
    money = {"ana": 20, "bob": 30}
    lucky = gmb.azar_settlement(money, standing, {"ana": "AS", "bob": "AH"})
    assert {k: v["money_after"] for k, v in lucky.items()} == {"ana": 40, "bob": 30}
    unlucky = gmb.azar_settlement(money, standing, {"ana": "8C", "bob": "8D"})
    assert {k: v["money_after"] for k, v in unlucky.items()} == {"ana": 20, "bob": 0}
    assert unlucky["ana"]["exchange"] == "victory" and unlucky["bob"]["exchange"] == "defeat"
    # the Mayor allows two cards: the better is kept
    two = gmb.azar_settlement(money, standing, {"ana": ["8C", "AH"], "bob": "8D"})
    assert two["ana"]["money_after"] == 40


def test_fr_gmb_5_azar_ties():
    """FR-GMB-5: a two-player tie changes nothing; with more, all tied for the best win, the rest lose."""
    assert gmb.azar_contest({"a": "9D", "b": Card.parse("9D", deck=2)}) == {"a": "tie", "b": "tie"}
    assert gmb.azar_contest({"a": "9D", "b": Card.parse("9D", deck=2), "c": "AH"}) == {
        "a": "victory", "b": "victory", "c": "defeat"}
    assert gmb.azar_contest({"a": "9S", "b": "3C", "c": "AC"}) == {"a": "tie", "b": "tie", "c": "tie"}
    standing = {"a": "tie", "b": "tie"}
    assert gmb.azar_needs_luck(standing) == []
    settled = gmb.azar_settlement({"a": 5, "b": 7}, standing, {})
    assert {k: (v["money_after"], v["exchange"]) for k, v in settled.items()} == {
        "a": (5, "tie"), "b": (7, "tie")}


def test_fr_gmb_6_cheating_at_azar():
    """FR-GMB-6: the cheat plays Manos (Maña): ♠ wins for him; double the honest win; caught if he loses."""
    standing = gmb.azar_contest({"cheat": "4S", "mark": "KH"}, cheats=["cheat"])
    assert standing == {"cheat": "victory", "mark": "defeat"}
    settled = gmb.azar_settlement({"cheat": 10, "mark": 10}, standing, {"cheat": "AH", "mark": "AS"},
                                  cheats=["cheat"])
    assert settled["cheat"]["money_after"] == 30
    caught = gmb.azar_contest({"cheat": "4D", "mark": "KD"}, cheats=["cheat"])
    assert caught == {"cheat": "caught_cheating", "mark": "victory"}
    assert gmb.azar_needs_luck(caught) == ["mark"]
    settled = gmb.azar_settlement({"cheat": 10, "mark": 10}, caught, {"mark": "8D"}, cheats=["cheat"])
    assert settled["cheat"] == {"money_before": 10, "money_after": 0, "exchange": "caught_cheating",
                                     "lucky": None}


def test_fr_gmb_5_azar_bad_input():
    with pytest.raises(RulesError, match="at least two"):
        gmb.azar_contest({"a": "2S"})
    with pytest.raises(RulesError, match="not playing"):
        gmb.azar_contest({"a": "2S", "b": "3S"}, cheats=["c"])
    with pytest.raises(RulesError, match="joker"):
        gmb.azar_contest({"a": "JK", "b": "3S"})
    standing = {"a": "victory", "b": "defeat"}
    with pytest.raises(RulesError, match="Missing a dead man's hand for b"):
        gmb.azar_settlement({"a": 1, "b": 1}, standing, {"a": "AS"})
    with pytest.raises(RulesError, match="Missing money for b"):
        gmb.azar_settlement({"a": 1}, standing, {"a": "AS", "b": "AS"})
    with pytest.raises(RulesError, match="draw no dead man's hand"):
        gmb.azar_settlement({"a": 1, "b": 1}, {"a": "tie", "b": "tie"}, {"a": "AS"})
    with pytest.raises(RulesError, match="dead man's hand"):
        gmb.azar_settlement({"a": 1, "b": 1}, standing, {"a": "KS", "b": "AS"})
    with pytest.raises(RulesError, match="not a result"):
        gmb.azar_needs_luck({"a": "won"})


# --- FR-GMB-7 / -1: habilidad and the three families ----------------------------------------------


@pytest.mark.parametrize(
    ("contest", "check"),
    [("dardos", ("manos", "pelea")), ("lanzamiento_cuchillos", ("manos", "pelea")),
     ("pulso", ("musculo", "fuerza")), ("carrera", ("musculo", "agilidad")),
     ("ajedrez", ("cabeza", "astucia")), ("damas", ("cabeza", "astucia")),
     ("tiro_al_blanco", ("sentidos", "apuntar")), ("tiro_al_plato", ("manos", "disparo_rapido"))],
)
def test_fr_gmb_7_contests(contest, check):
    assert gmb.habilidad_check(contest) == check


def test_fr_gmb_7_contest_is_an_opposed_check_of_its_trait():
    """FR-GMB-7: arm wrestling is Músculo: ♥ beats a higher ♠."""
    assert gmb.habilidad_contest("pulso", {"a": "2H", "b": "AS"}) == {"a": "victory", "b": "defeat"}
    assert gmb.habilidad_contest("tiro_al_blanco", {"a": "2H", "b": "AS"}) == {"a": "defeat", "b": "victory"}
    with pytest.raises(RulesError, match="drinking rules"):
        gmb.habilidad_check(gmb.DRINKING_DUEL)
    with pytest.raises(RulesError, match="not a known contest"):
        gmb.habilidad_contest("poker", {"a": "2H", "b": "AS"})


def test_fr_gmb_7_fr_gmb_5_several_players_tied_for_the_best_all_win():
    """FR-GMB-7 with FR-GMB-5's tie clause (ruling, docs/rules/combat.md): with more than two
    players, a tie for the best result is a victory for each of the tied and a defeat for the rest;
    only a tie of everybody is Tablas; two players tied stay Tablas."""
    # two 9♥ from two physical decks (uids "<deck>:<code>")
    roles = gmb.habilidad_contest("pulso", {"a": "1:9H", "b": "2:9H", "c": "1:KS"})
    assert roles == {"a": "victory", "b": "victory", "c": "defeat"}
    assert gmb.habilidad_contest("pulso", {"a": "1:9H", "b": "2:9H", "c": "1:8H"}) == {
        "a": "victory", "b": "victory", "c": "defeat"}
    assert set(gmb.habilidad_contest("pulso", {"a": "1:2S", "b": "1:3C", "c": "1:4S"}).values()) == {"tie"}
    assert gmb.habilidad_contest("pulso", {"a": "1:9H", "b": "2:9H"}) == {"a": "tie", "b": "tie"}


def test_fr_gmb_5_azar_luck_errors_are_separate_translatable_messages():
    """The engine's messages carry no English words as parameters (each is its own msgid)."""
    assert "%(what)s" not in gmb.E_MISSING_MONEY + gmb.E_MISSING_LUCK
    with pytest.raises(RulesError) as err:
        gmb.azar_settlement({"a": 1}, {"a": "victory", "b": "defeat"}, {"a": "AS", "b": "AS"})
    assert err.value.template == gmb.E_MISSING_MONEY and set(err.value.params) == {"players"}


# --- FR-EXCH-2 after a bet among several bettors -------------------------------------------------


def test_fr_exch_2_two_bettors_make_exactly_one_exchange():
    seats = {"a": "c1", "b": "c2"}
    rng = random.Random(0)
    assert gmb.bet_exchanges({"a": "defeat", "b": "victory"}, seats, rng) == [
        {"kind": "bet", "first": "c2", "second": "c1", "winner": "b", "loser": "a"}]
    assert gmb.bet_exchanges({"a": "caught_cheating", "b": "victory"}, seats, rng) == [
        {"kind": "cheat", "first": "c2", "second": "c1", "winner": "b", "loser": "a"}]
    assert gmb.bet_exchanges({"a": "tie", "b": "tie"}, seats, rng) == [{"kind": "tie", "first": "c1", "second": "c2"}]
    assert gmb.bet_exchanges({"a": "victory", "b": "defeat"}, {"a": "mayor", "b": "mayor"}, rng) == []


def test_fr_exch_2_one_winner_settles_a_bet_with_every_loser():
    """Every bettor stakes one card (ruling): one winner and three losers → three bets, each loser
    once, the winner choosing in each."""
    standing = {"a": "defeat", "b": "victory", "c": "defeat", "d": "caught_cheating"}
    seats = {k: f"c{i}" for i, k in enumerate(standing)}
    out = gmb.bet_exchanges(standing, seats, random.Random(3))
    assert [(x["kind"], x["winner"], x["loser"]) for x in out] == [
        ("bet", "b", "a"), ("bet", "b", "c"), ("cheat", "b", "d")]


@given(winners=st.integers(1, 4), losers=st.integers(1, 5), seed=st.integers(0, 10**6))
@settings(max_examples=60, deadline=None)
def test_fr_exch_2_losers_are_dealt_evenly_and_each_stakes_one_card(winners, losers, seed):
    standing = {f"w{i}": "victory" for i in range(winners)} | {f"l{i}": "defeat" for i in range(losers)}
    seats = {k: f"c{k}" for k in standing}
    out = gmb.bet_exchanges(standing, seats, random.Random(seed))
    assert sorted(x["loser"] for x in out) == sorted(k for k in standing if k.startswith("l"))
    load = [sum(1 for x in out if x["winner"] == w) for w in standing if w.startswith("w")]
    assert max(load) - min(load) <= 1
    assert all(x["kind"] == "bet" and x["first"] == seats[x["winner"]] for x in out)


def test_fr_exch_2_losers_are_dealt_by_lot_and_never_to_their_own_deck():
    standing = {"w1": "victory", "w2": "victory", "l1": "defeat"}
    seats = {"w1": "c1", "w2": "c2", "l1": "c3"}
    chosen = {gmb.bet_exchanges(standing, seats, random.Random(s))[0]["winner"] for s in range(20)}
    assert chosen == {"w1", "w2"}
    npcs = {"w1": "mayor", "w2": "c2", "l1": "mayor"}
    assert {gmb.bet_exchanges(standing, npcs, random.Random(s))[0]["winner"] for s in range(20)} == {"w2"}


def test_fr_exch_2_everybody_tied_makes_a_ring_in_table_order():
    standing = {"a": "tie", "b": "tie", "c": "tie", "d": "tie"}
    seats = {"a": "c1", "b": "mayor", "c": "c3", "d": "mayor"}
    assert gmb.bet_exchanges(standing, seats, random.Random(0)) == [
        {"kind": "tie_ring", "players": ["c1", "mayor", "c3"]}]
    with pytest.raises(RulesError, match="not a result"):
        gmb.bet_exchanges({"a": "won"}, {"a": "c1"}, random.Random(0))


def test_fr_gmb_1_three_families_three_resolutions():
    """FR-GMB-1: the banca against the house, azar and habilidad between players."""
    assert gmb.FAMILIES == ("banca", "azar", "habilidad")
    assert gmb.banca_exchange(0, 5) == "victory"
    assert gmb.azar_contest({"a": "2D", "b": "2H"}) == {"a": "victory", "b": "defeat"}
    assert gmb.habilidad_contest("ajedrez", {"a": "2D", "b": "2H"}) == {"a": "victory", "b": "defeat"}
