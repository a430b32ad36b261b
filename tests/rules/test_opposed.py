"""FR-OPP-1..6: opposed checks between any number of participants, and the named opposed checks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules.cards import RANKS, SUITS, TRAIT_SUIT, TRAITS, Card
from frontera.rules.checks import (
    CHALLENGE,
    CHASE,
    E_BAD_PLAY,
    E_BAD_RESULTS,
    E_FEW_PARTICIPANTS,
    E_UNDECLARED_JOKER,
    E_UNKNOWN_NAMED_CHECK,
    LOSS,
    NAMED_CHECKS,
    PICKPOCKET,
    PROVOKE,
    STEALTH,
    TIE,
    WIN,
    cards_for_check,
    chase_caught,
    chase_needs_check,
    morale_consequences,
    named_check,
    opposed_needs_another_check,
    opposed_outcome,
    opposed_strength,
)
from frontera.rules.errors import RulesError

CODES = [f"{rank}{suit}" for suit in SUITS for rank in RANKS]


def test_fr_opp_6_chase_book_example_ulises_catches_billy():
    """FR-OPP-6 / FR-OPP-3, the book's chase: Ulises (Músculo 2 + Agilidad) draws 4 and plays 8♥;
    Billy Bala (Músculo 4 + Agilidad) draws 6 and plays 7♥; the 8♥ wins."""
    assert cards_for_check(trait_score=2, skill=True) == 4
    assert cards_for_check(trait_score=4, skill=True) == 6
    chase = named_check(CHASE)
    plays = {"ulises": (chase.side("pursuer").trait, "8H"), "billy": (chase.side("fleeing").trait, "7H")}
    assert opposed_outcome(plays) == {"ulises": WIN, "billy": LOSS}
    assert chase_caught(1)  # the Mayor asked for one win


def test_fr_opp_1_each_participant_uses_their_own_traits_suit():
    """FR-OPP-1: stealth, Músculo (♥) against Sentidos (♣): both have their suit, value decides."""
    assert opposed_outcome({"stalker": ("musculo", "9H"), "watcher": ("sentidos", "10C")}) == {
        "stalker": LOSS,
        "watcher": WIN,
    }
    # The same ♣ played for Músculo is of neither suit nor colour.
    assert opposed_outcome({"stalker": ("musculo", "2D"), "watcher": ("musculo", "10C")}) == {
        "stalker": WIN,
        "watcher": LOSS,
    }


def test_fr_opp_2_only_one_with_the_right_suit_wins():
    plays = {"a": ("manos", "2S"), "b": ("manos", "AC"), "c": ("manos", "KH"), "d": ("cabeza", "AH")}
    assert opposed_outcome(plays) == {"a": WIN, "b": LOSS, "c": LOSS, "d": LOSS}


def test_fr_opp_3_several_with_suit_highest_wins_shared_highest_ties():
    assert opposed_outcome({"a": ("manos", "9S"), "b": ("manos", "QS"), "c": ("cabeza", "3D")}) == {
        "a": LOSS,
        "b": WIN,
        "c": LOSS,
    }
    plays = {"a": ("manos", "QS"), "b": ("sentidos", "QC"), "c": ("cabeza", "2D"), "d": ("manos", "AC")}
    assert opposed_outcome(plays) == {"a": TIE, "b": TIE, "c": LOSS, "d": LOSS}
    assert not opposed_needs_another_check(plays)


def test_fr_opp_3_jokers_declared_to_the_suit_tie_at_15():
    joker_s, joker_h = Card.parse("JK").declare("S"), Card.parse("JK", deck=2).declare("H")
    assert opposed_outcome({"a": ("manos", joker_s), "b": ("musculo", joker_h), "c": ("manos", "AS")}) == {
        "a": TIE,
        "b": TIE,
        "c": LOSS,
    }


def test_fr_opp_4_nobody_with_suit_highest_of_the_colour_wins():
    assert opposed_outcome({"a": ("manos", "10C"), "b": ("manos", "9C"), "c": ("manos", "AH")}) == {
        "a": WIN,
        "b": LOSS,
        "c": LOSS,
    }
    assert opposed_outcome({"a": ("musculo", "JD"), "b": ("cabeza", "JH"), "c": ("cabeza", "10H")}) == {
        "a": TIE,
        "b": TIE,
        "c": LOSS,
    }


def test_fr_opp_5_nobody_with_suit_or_colour_ties_and_needs_another_check():
    plays = {"a": ("manos", "AH"), "b": ("cabeza", "KS"), "c": ("musculo", "2C")}
    assert opposed_outcome(plays) == {"a": TIE, "b": TIE, "c": TIE}
    assert opposed_needs_another_check(plays)


def test_fr_opp_5_ruling_no_card_counts_as_neither_suit_nor_colour():
    """RULING (FR-CHK-1 + FR-OPP-5): a participant whose check drew no card plays None."""
    assert opposed_outcome({"a": ("manos", None), "b": ("manos", "2C")}) == {"a": LOSS, "b": WIN}
    assert opposed_outcome({"a": ("manos", None), "b": ("manos", "2H")}) == {"a": TIE, "b": TIE}
    assert opposed_needs_another_check({"a": ("manos", None), "b": ("manos", None)})


def test_fr_opp_bad_input_is_refused():
    with pytest.raises(RulesError) as info:
        opposed_outcome({"a": ("manos", "2S")})
    assert info.value.template == E_FEW_PARTICIPANTS
    with pytest.raises(RulesError) as info:
        opposed_outcome({"a": ("manos", "2S"), "b": "2C"})
    assert info.value.template == E_BAD_PLAY
    with pytest.raises(RulesError) as info:
        opposed_outcome({"a": ("manos", "JK"), "b": ("manos", "2C")})
    assert info.value.template == E_UNDECLARED_JOKER
    with pytest.raises(RulesError, match="is not a trait"):
        opposed_outcome({"a": ("hands", "2S"), "b": ("manos", "2C")})
    with pytest.raises(RulesError, match="is not a card"):
        opposed_outcome({"a": ("manos", "1S"), "b": ("manos", "2C")})


plays_strategy = st.dictionaries(
    st.integers(0, 9),
    st.tuples(st.sampled_from(TRAITS), st.sampled_from([*CODES, "JK"])),
    min_size=2,
    max_size=6,
)


def _declared(plays):
    """Jokers are declared to a random-looking but fixed suit so that every rule branch is hit."""
    return {
        who: (trait, Card.parse(code).declare(SUITS[who % 4]) if code == "JK" else code)
        for who, (trait, code) in plays.items()
    }


@given(plays_strategy)
@settings(max_examples=300, deadline=None)
def test_fr_opp_2_to_5_against_a_literal_reading_of_the_rules(plays):
    """FR-OPP-2..5 restated step by step (suit holders, else colour holders, else all tie)."""
    plays = _declared(plays)
    cards = {who: Card.parse(card) if isinstance(card, str) else card for who, (_, card) in plays.items()}
    suit = {who for who, (trait, _) in plays.items() if cards[who].suit == TRAIT_SUIT[trait]}
    colour = {
        who
        for who, (trait, _) in plays.items()
        if who not in suit and cards[who].colour == Card.parse("2" + TRAIT_SUIT[trait]).colour
    }
    contenders = suit or colour
    if not contenders:
        expected = dict.fromkeys(plays, TIE)
    else:
        top = max(cards[who].value for who in contenders)
        leaders = {who for who in contenders if cards[who].value == top}
        result = WIN if len(leaders) == 1 else TIE
        expected = {who: result if who in leaders else LOSS for who in plays}
    assert opposed_outcome(plays) == expected
    assert opposed_needs_another_check(plays) == (not contenders)
    assert sum(r == WIN for r in expected.values()) <= 1


@given(plays_strategy)
@settings(max_examples=100, deadline=None)
def test_fr_opp_1_result_does_not_depend_on_order(plays):
    plays = _declared(plays)
    reordered = dict(reversed(list(plays.items())))
    assert opposed_outcome(reordered) == opposed_outcome(plays)


def test_fr_opp_strength_orders_suit_above_colour_above_neither():
    strength = {card: opposed_strength("cabeza", card) for card in ("2D", "AD", "AH", "2H", "AS", "2C", None)}
    assert strength["AD"] > strength["2D"] > strength["AH"] > strength["2H"] > strength["AS"]
    assert strength["AS"] == strength["2C"] == strength[None]


# --- FR-OPP-6 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "first", "second"),
    [
        (CHASE, ("musculo", "agilidad"), ("musculo", "agilidad")),
        (STEALTH, ("musculo", "agilidad"), ("sentidos", "percepcion")),
        (PICKPOCKET, ("manos", "mana"), ("sentidos", "percepcion")),
        (CHALLENGE, ("cabeza", "labia"), ("cabeza", "astucia")),
        (PROVOKE, ("cabeza", "labia"), ("cabeza", "astucia")),
    ],
)
def test_fr_opp_6_named_checks_traits_and_skills(name, first, second):
    check = named_check(name)
    assert [(side.trait, side.skill) for side in check.sides] == [first, second]
    assert check is NAMED_CHECKS[name]


def test_fr_opp_6_unknown_named_check():
    with pytest.raises(RulesError) as info:
        named_check("duel")
    assert info.value.template == E_UNKNOWN_NAMED_CHECK


@pytest.mark.parametrize(
    ("challenger", "challenged", "accepts", "expected"),
    [
        (WIN, LOSS, True, {"challenger": 0, "challenged": 0}),
        (WIN, LOSS, False, {"challenger": 0, "challenged": -1}),
        (LOSS, WIN, False, {"challenger": -1, "challenged": 0}),
        (TIE, TIE, False, {"challenger": 0, "challenged": 0}),
    ],
)
def test_fr_opp_6_challenge_morale(challenger, challenged, accepts, expected):
    """FR-OPP-6: challenged loser accepts or loses 1 morale; challenger loser loses 1 morale."""
    results = {"challenger": challenger, "challenged": challenged}
    assert morale_consequences(CHALLENGE, results, challenged_accepts=accepts) == expected


@pytest.mark.parametrize(
    ("provoker", "provoked", "expected"),
    [(WIN, LOSS, (0, -1)), (LOSS, WIN, (-1, 0)), (TIE, TIE, (0, 0))],
)
def test_fr_opp_6_provoke_loser_loses_a_morale_level(provoker, provoked, expected):
    changes = morale_consequences(PROVOKE, {"provoker": provoker, "provoked": provoked})
    assert (changes["provoker"], changes["provoked"]) == expected


def test_fr_opp_6_other_named_checks_leave_morale_alone_and_results_are_validated():
    assert morale_consequences(STEALTH, {"stalker": WIN, "watcher": LOSS}) == {"stalker": 0, "watcher": 0}
    for bad in ({"stalker": WIN}, {"stalker": WIN, "watcher": "lost"}, {"a": WIN, "b": LOSS}):
        with pytest.raises(RulesError) as info:
            morale_consequences(STEALTH, bad)
        assert info.value.template == E_BAD_RESULTS


def test_fr_opp_6_chase_between_different_means_of_travel_needs_no_check():
    assert chase_needs_check("horse", "horse")
    assert not chase_needs_check("foot", "train")


def test_fr_opp_6_mayor_may_require_several_wins():
    assert not chase_caught(1, wins_required=2)
    assert chase_caught(2, wins_required=2)
