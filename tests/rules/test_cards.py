"""FR-CARD: values, suits, colours, jokers, physical identity."""

import pytest

from frontera.rules import RulesError
from frontera.rules.cards import Card, dead_mans_hand, physical_deck


@pytest.mark.parametrize(
    ("code", "value"),
    [("2S", 2), ("10H", 10), ("JC", 11), ("QD", 12), ("KS", 13), ("AH", 14), ("JK", 15)],
)
def test_fr_card_1_values(code, value):
    assert Card.parse(code).value == value


def test_fr_card_2_joker_takes_declared_suit():
    joker = Card.parse("JK")
    assert joker.suit is None and joker.colour is None
    declared = joker.declare("D")
    assert declared.suit == "D" and declared.colour == "red" and str(declared) == "JK"
    assert declared.uid == joker.uid


def test_fr_card_2_only_jokers_are_declared():
    with pytest.raises(RulesError, match="Only a joker"):
        Card.parse("5S").declare("H")
    with pytest.raises(RulesError, match="not a suit"):
        Card.parse("JK").declare("X")


def test_fr_card_3_colours():
    assert [Card.parse(c).colour for c in ("3S", "3C", "3H", "3D")] == ["black", "black", "red", "red"]


@pytest.mark.parametrize("code", ["1S", "11H", "ZZ", "", "10", "S10", "JKS"])
def test_bad_codes_raise_readable_error(code):
    with pytest.raises(RulesError, match="is not a card"):
        Card.parse(code)


def test_fr_card_4_physical_deck_and_identity():
    deck = physical_deck(2, jokers=2)
    assert len(deck) == 54
    assert len({c.uid for c in deck}) == 54
    assert all(Card.from_uid(c.uid) == c for c in deck)
    assert len(physical_deck(1, jokers=0)) == 52


def test_fr_card_5_dead_mans_hand():
    assert sorted(str(c) for c in dead_mans_hand()) == ["8C", "8D", "AH", "AS"]
