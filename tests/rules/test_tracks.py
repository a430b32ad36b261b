"""FR-HLT, FR-MOR, FR-SOB-1: track levels, penalties, recovery, death, accidents, threats."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules import RulesError
from frontera.rules import tracks as t
from frontera.rules.cards import DEAD_MANS_HAND_CODES, Card, physical_deck
from frontera.rules.tracks import (
    HEALTH,
    MORALE,
    SOBRIETY,
    Duration,
    accident_damage,
    death_roll,
    draw_penalty,
    exchanges_due,
    health_recovery_time,
    incapacity,
    lose,
    morale_recovery_time,
    recover,
    resolve_dead_mans_hand,
    sobriety_recovery_time,
    threat,
)

# --- FR-HLT-1, FR-MOR-1, FR-SOB-1: levels and penalties -------------------------------------------


def test_fr_hlt_1_levels_and_penalties():
    assert t.HEALTH_NAMES == {0: "Sano", -1: "Herido", -2: "Malherido", -3: "Incapacitado", -4: "Muerto"}
    assert [draw_penalty(health=h) for h in (0, -1, -2)] == [0, 1, 2]
    assert incapacity(health=-3) == "Incapacitado" and incapacity(health=-4) == "Muerto"
    with pytest.raises(RulesError, match="cannot act: Incapacitado"):
        draw_penalty(health=-3)


def test_fr_hlt_1_never_below_minus_four():
    assert lose(HEALTH, 0, 3) == -3
    assert lose(HEALTH, -3, 1) == -4
    assert lose(HEALTH, -2, 10) == -4
    assert lose(HEALTH, -1, 0) == -1


def test_fr_mor_1_levels_penalties_never_below_minus_three():
    assert t.MORALE_NAMES[-3] == "Paralizado"
    assert [draw_penalty(morale=m) for m in (0, -1, -2)] == [0, 1, 2]
    assert incapacity(morale=-3) == "Paralizado"
    assert lose(MORALE, -2, 4) == -3
    assert draw_penalty(health=-1, morale=-2) == 3


def test_fr_sob_1_levels_and_penalties():
    assert t.SOBRIETY_NAMES == {0: "Sobrio", -1: "Achispado", -2: "Borracho", -3: "En coma"}
    assert [draw_penalty(sobriety=s) for s in (0, -1, -2)] == [0, 0, 2]
    assert incapacity(sobriety=-3) == "En coma"
    assert lose(SOBRIETY, -1, 7) == -3


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: lose("luck", 0, 1), "“luck” is not a track"),
        (lambda: lose(HEALTH, 0, -1), "-1 is not a number of levels"),
        (lambda: lose(HEALTH, 0, 1.5), "1.5 is not a number of levels"),
        (lambda: lose(MORALE, -4, 1), "-4 is not a morale level"),
        (lambda: recover(HEALTH, 1, 1), "1 is not a health level"),
        (lambda: recover(HEALTH, -4, 1), "A dead character does not heal with time"),
    ],
)
def test_fr_hlt_1_bad_track_input_is_refused(call, message):
    with pytest.raises(RulesError) as err:
        call()
    assert str(err.value).startswith(message)


@settings(max_examples=200, deadline=None)
@given(track=st.sampled_from([HEALTH, MORALE, SOBRIETY]), data=st.data())
def test_fr_hlt_1_fr_mor_1_levels_stay_in_range(track, data):
    level = data.draw(st.integers(t.LOWEST[track], 0))
    amount = data.draw(st.integers(0, 12))
    after = lose(track, level, amount)
    assert t.LOWEST[track] <= after <= level and after == max(t.LOWEST[track], level - amount)
    if not (track == HEALTH and level == -4):
        assert level <= recover(track, level, amount) <= 0


def test_fr_hlt_2_recovery_one_level_at_a_time():
    assert recover(HEALTH, -3) == -2 and recover(MORALE, -1) == 0 and recover(SOBRIETY, 0) == 0


# --- FR-HLT-2: recovery times -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "medical", "rest", "no_rest"),
    [
        (-1, Duration(1, "hour"), Duration(8, "hour"), Duration(1, "day")),
        (-2, Duration(8, "hour"), Duration(1, "day"), Duration(3, "day")),
        (-3, Duration(7, "day"), Duration(1, "month"), None),
    ],
)
def test_fr_hlt_2_recovery_table(level, medical, rest, no_rest):
    assert health_recovery_time(level, "medical") == medical
    assert health_recovery_time(level, "rest") == rest
    assert health_recovery_time(level, "no_rest") == no_rest


def test_fr_hlt_2_durations_in_hours_and_text():
    assert health_recovery_time(-2, "no_rest").hours == 72
    month = health_recovery_time(-3, "rest")
    assert month.text == "1 month" and month.hours == 720
    assert Duration.from_json(Duration(8, "hour").to_json()) == Duration(8, "hour")


def test_fr_hlt_2_nothing_to_recover_and_bad_care():
    with pytest.raises(RulesError, match="Sano is the best health level"):
        health_recovery_time(0, "rest")
    with pytest.raises(RulesError, match="“prayer” is not a kind of care"):
        health_recovery_time(-1, "prayer")
    with pytest.raises(RulesError, match="dead character does not heal with time"):
        health_recovery_time(-4, "medical")


# --- FR-HLT-3: death roll ---------------------------------------------------------------------


def test_fr_hlt_3_with_medical_attention_two_cards_keep_the_better():
    result, health, draw = death_roll(["8C", "AS"], medical_attention=True)
    assert (result, health, draw.kept) == ("incapacitado", -3, "AS")
    result, health, _ = death_roll(["8C", "8D"], medical_attention=True)
    assert (result, health) == ("permanente", -4)


def test_fr_hlt_3_without_medical_attention_one_card():
    assert death_roll(["AH"], medical_attention=False)[:2] == ("incapacitado", -3)
    assert death_roll(["8D"], medical_attention=False)[:2] == ("permanente", -4)
    with pytest.raises(RulesError, match="Draw exactly 1 card"):
        death_roll(["8D", "AH"], medical_attention=False)
    with pytest.raises(RulesError, match="Draw exactly 2 card"):
        death_roll(["AH"], medical_attention=True)


def test_fr_hlt_3_within_five_turns_only_for_the_dead():
    assert death_roll(["AS"], medical_attention=False, turns_since_death=5)[0] == "incapacitado"
    with pytest.raises(RulesError, match="within 5 combat turns"):
        death_roll(["AS"], medical_attention=False, turns_since_death=6)
    with pytest.raises(RulesError, match="-1 is not a number of combat turns"):
        death_roll(["AS"], medical_attention=False, turns_since_death=-1)
    with pytest.raises(RulesError, match="this one is Incapacitado"):
        death_roll(["AS"], medical_attention=False, health=-3)


def test_fr_hlt_3_medical_attention_improves_the_odds_exactly():
    """Over the 4 DMH cards: 1 card → 1/2 survive; 2 cards keep the better → 5/6 survive."""
    from itertools import combinations

    one = [death_roll([c], medical_attention=False)[0] for c in DEAD_MANS_HAND_CODES]
    two = [death_roll(list(p), medical_attention=True)[0] for p in combinations(DEAD_MANS_HAND_CODES, 2)]
    assert one.count("incapacitado") / len(one) == 1 / 2
    assert two.count("incapacitado") / len(two) == 5 / 6


def test_fr_hlt_3_rng_draw_is_reproducible():
    a = death_roll(medical_attention=True, rng=random.Random(7))
    b = death_roll(medical_attention=True, rng=random.Random(7))
    assert a == b and len(a[2].drawn) == 2 and set(a[2].drawn) <= set(DEAD_MANS_HAND_CODES)


# --- FR-CHK-6 dead man's hand as used by the tracks ----------------------------------------------


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["KS"], "K♠ is not a card of the dead man's hand"),
        (["JK"], "JK is not a card of the dead man's hand"),
        (["AS", "AS"], "A♠ was drawn twice"),
        (["zz"], "“zz” is not a card"),
    ],
)
def test_fr_chk_6_dead_mans_hand_cards_are_checked(cards, message):
    with pytest.raises(RulesError) as err:
        resolve_dead_mans_hand(cards, count=len(cards))
    assert str(err.value).startswith(message)


def test_fr_chk_6_dead_mans_hand_needs_cards_or_rng():
    with pytest.raises(RulesError, match="Draw 2 card"):
        resolve_dead_mans_hand(None, count=2)
    assert resolve_dead_mans_hand([Card.parse("8C", deck=2)], count=1).kept == "8C"
    assert resolve_dead_mans_hand(["8C", "AH"], count=2).to_json() == {"drawn": ["8C", "AH"], "kept": "AH",
                                                                     "better": True}


# --- FR-HLT-4: falls and accidents --------------------------------------------------------------


@pytest.mark.parametrize(
    ("cause", "metres", "agility", "levels"),
    [
        ("fall", 5, None, 1),
        ("fall", 12, None, 2),  # 1 level per full 5 m (RULING)
        ("fall", 4, None, 0),
        ("fall", 20, "partial", 3),
        ("fall", 20, "success", 2),
        ("fall", 20, "failure", 4),
        ("train", None, None, 4),
        ("train", None, "success", 2),
        ("coach", None, None, 2),
        ("horse", None, "partial", 1),
        ("horse", None, "success", 0),
        ("fall", 5, "success", 0),  # never below 0
    ],
)
def test_fr_hlt_4_accidents_and_agility_reduction(cause, metres, agility, levels):
    assert accident_damage(cause, metres=metres, agility=agility) == levels


def test_fr_hlt_4_bad_accident_input():
    with pytest.raises(RulesError, match="“meteor” is not an accident"):
        accident_damage("meteor")
    with pytest.raises(RulesError, match="how many metres"):
        accident_damage("fall")
    with pytest.raises(RulesError, match="“win” is not a check outcome"):
        accident_damage("train", agility="win")


def test_fr_hlt_4_train_kills_a_healthy_character_without_agility():
    assert lose(HEALTH, 0, accident_damage("train")) == -4


# --- FR-MOR-2: morale recovery by dead man's hand ---------------------------------------------------


@pytest.mark.parametrize(
    ("level", "better", "worse"),
    [
        (-1, Duration(8, "hour"), Duration(1, "day")),
        (-2, Duration(1, "hour"), Duration(8, "hour")),
        (-3, Duration(1, "turn"), Duration(1, "minute")),
    ],
)
def test_fr_mor_2_recovery_by_dead_mans_hand(level, better, worse):
    assert morale_recovery_time(level, ["AS"])[0] == better
    assert morale_recovery_time(level, ["AH"])[0] == better
    assert morale_recovery_time(level, ["8C"])[0] == worse
    assert morale_recovery_time(level, ["8D"])[0] == worse


def test_fr_mor_2_errors_and_rng():
    with pytest.raises(RulesError, match="Normal is the best morale level"):
        morale_recovery_time(0, ["AS"])
    with pytest.raises(RulesError, match="Draw 1 card"):
        morale_recovery_time(-1)
    duration, draw = morale_recovery_time(-3, rng=random.Random(3))
    assert duration in (Duration(1, "turn"), Duration(1, "minute")) and len(draw.drawn) == 1
    assert Duration(1, "turn").seconds == 6


# --- FR-MOR-3: threats ----------------------------------------------------------------------


def test_fr_mor_3_threat_beats_confianza():
    assert threat(0, "9S", confianza=8) == -1
    assert threat(0, "8S", confianza=8) == 0  # equal does not exceed
    assert threat(-1, "JK", confianza=14) == -2  # a joker is worth 15
    assert threat(-3, "AS", confianza=5) == -3  # never below −3


@settings(max_examples=200, deadline=None)
@given(morale=st.integers(-3, 0), code=st.sampled_from([c.code for c in physical_deck()]),
       confianza=st.integers(5, 13))
def test_fr_mor_3_threat_property(morale, code, confianza):
    after = threat(morale, code, confianza=confianza)
    if Card.parse(code).value > confianza:
        assert after == max(-3, morale - 1)
    else:
        assert after == morale


# --- FR-SOB-1: Achispado, recovery, exchanges due --------------------------------------------------


@pytest.mark.parametrize(("aguante", "hours"), [(5, 7), (7, 5), (11, 1), (12, 1), (13, 1)])
def test_fr_sob_1_achispado_recovers_in_twelve_minus_aguante_hours(aguante, hours):
    """12 − Aguante hours; RULING: at least 1 hour for Aguante 12 or 13."""
    assert sobriety_recovery_time(-1, aguante=aguante) == Duration(hours, "hour")


def test_fr_sob_1_borracho_and_coma_recovery():
    assert sobriety_recovery_time(-2, aguante=7, in_bed=True).text == "2 hours"
    assert sobriety_recovery_time(-2, aguante=7, in_bed=False).text == "4 hours"
    assert sobriety_recovery_time(-3, aguante=7, in_bed=True).text == "4 hours"
    assert sobriety_recovery_time(-3, aguante=7, in_bed=False).text == "6 hours"
    with pytest.raises(RulesError, match="Sobrio is the best sobriety level"):
        sobriety_recovery_time(0, aguante=7)
    with pytest.raises(RulesError, match="0 is not an Aguante"):
        sobriety_recovery_time(-1, aguante=0)


@pytest.mark.parametrize(
    ("before", "after", "due"),
    [
        (0, -1, []),
        (-1, -2, ["borracho_swap"]),
        (0, -2, ["borracho_swap"]),
        (-2, -3, ["coma_exchange"]),
        (-1, -3, ["borracho_swap", "coma_exchange"]),  # RULING: passing through Borracho
        (-3, -2, []),  # recovering into Borracho is no new swap
        (-2, -2, []),
    ],
)
def test_fr_sob_1_exchanges_due_when_getting_drunker(before, after, due):
    assert exchanges_due(before, after) == due


def test_fr_sob_1_exchanges_only_for_protagonists_in_normal_mode():
    assert exchanges_due(-1, -3, mode="sin_gestion") == []
    assert exchanges_due(-1, -3, mode="con_desgaste") == []
    assert exchanges_due(-1, -3, protagonist=False) == []
    with pytest.raises(RulesError, match="“party” is not a mode"):
        exchanges_due(-1, -3, mode="party")


def test_doctest_examples_hold():
    """The docstring examples of the tracks module are true (FR-HLT, FR-MOR, FR-SOB)."""
    import doctest

    result = doctest.testmod(t)
    assert result.attempted > 0 and result.failed == 0
