"""Nismatch rules NM-1..NM-11 (RULINGS.md) and house rulings NM-R* (docs/cardgames/nismatch.md),
each proved on a hand-built position."""

from __future__ import annotations

import pytest

from cardgames.engines import IllegalAction
from cardgames.engines import nismatch as nm
from cardgames.engines.nismatch import engine
from tests.cardgames.test_nismatch_helpers import (
    CANON,
    FORJA,
    act,
    all_codes,
    board,
    hand,
    located_codes,
    pass_all,
    put,
    seal,
    workshop,
)

RIGHT_LEG_B = {"seat": 1, "zone": "right_leg"}


def raises(template: str, s: dict, seat: int, **action) -> None:
    before = engine.copy_state(s)
    with pytest.raises(IllegalAction) as err:
        nm.apply(s, seat, action)
    assert err.value.template == template
    assert s == before


# ---------------------------------------------------------------- NM-1 winning


def test_nm_1_fifth_war_spoil_wins():
    """NM-1: claiming the 5th War Spoil ends the game at once."""
    s = board()
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "bota_de_plomo", damage=4)
    seal(s, spoils=(1, 5))
    s = pass_all(act(s, 0, type="activate", zone="right_arm", ability=0, target=RIGHT_LEG_B))
    assert nm.outcome(s) == {"winners": [0], "draw": False, "scores": {"0": 5, "1": 0}}
    assert nm.to_move(s) == [] and nm.legal_actions(s, 0) == []
    assert s["end_reason"] == "spoils"


def test_nm_1_drawing_from_an_empty_arsenal_loses():
    """NM-1: the player who must draw from an empty Arsenal loses."""
    s = seal(board(active=1, phase="main2"))
    p0 = s["players"][0]
    p0["scrapyard"], p0["arsenal"] = p0["arsenal"], []
    s = act(s, 1, type="next")
    assert nm.outcome(s)["winners"] == [1]
    assert s["end_reason"] == "empty_arsenal"
    raises(engine.E_GAME_OVER, s, 0, type="next")


# ---------------------------------------------------------------- NM-2 setup


def test_nm_2_deal_seven_then_both_decide_mulligans():
    """NM-2: shuffle, draw 7; both seats decide (keep or mulligan) at the same time."""
    s = nm.new_game(2, 11)
    assert [len(p["hand"]) for p in s["players"]] == [7, 7]
    assert [len(p["arsenal"]) for p in s["players"]] == [33, 33]
    assert s["phase"] == "mulligan" and nm.to_move(s) == [0, 1]
    assert s["teams"] == [[0], [1]] and s["seats"] == [0, 1]


def test_nm_2_first_mulligan_free_each_later_one_card_fewer():
    """NM-2 (NM-R2): hands of 7, 7, 6, 5 ... while the new hand would hold at least one card."""
    s = nm.new_game(2, 12)
    sizes = []
    while {"type": "mulligan"} in nm.legal_actions(s, 0):
        s = act(s, 0, type="mulligan")
        sizes.append(len(s["players"][0]["hand"]))
    assert sizes == [7, 6, 5, 4, 3, 2, 1]
    assert len(s["players"][0]["arsenal"]) == 39
    raises(engine.E_NO_MULLIGAN, s, 0, type="mulligan")
    assert located_codes(s) == all_codes(s)


def test_nm_2_war_spoils_are_the_top_five_after_the_mulligans():
    """NM-2: once everybody keeps, the top 5 Arsenal cards go face down to the War Spoils."""
    s = nm.new_game(2, 13)
    top = s["players"][1]["arsenal"][-5:]
    s = act(act(s, 0, type="keep"), 1, type="keep")
    assert s["players"][1]["spoils"] == top
    assert [len(p["arsenal"]) for p in s["players"]] == [28, 28]
    assert s["phase"] == "torso" and nm.to_move(s) == [0, 1]
    assert nm.view(s, 0)["players"][1]["spoils_count"] == 5


def test_nm_2_torso_face_down_then_revealed_together_in_its_own_zone():
    """NM-2 (NM-R1): the face-down Part is hidden until both chose; revealed, it goes to its own zone."""
    s = board(phase="torso")
    for p in s["players"]:
        p["torso_done"] = False
    coyote = hand(s, 0, "pata_de_coyote")[0]
    mazo = hand(s, 1, "mazo_de_herrero", "balazo_certero")[0]
    seal(s)
    assert {"type": "torso", "card": mazo} in nm.legal_actions(s, 1)
    assert len(nm.legal_actions(s, 1)) == 1  # a Support can't go face down
    s = act(s, 0, type="torso", card=coyote)
    assert nm.view(s, 1)["players"][0]["facedown"] == "hidden"
    assert nm.view(s, 0)["players"][0]["facedown"] == coyote
    assert s["players"][0]["unit"]["right_leg"] is None
    s = act(s, 1, type="torso", card=mazo)
    assert s["players"][0]["unit"]["right_leg"]["card"] == coyote
    assert s["players"][1]["unit"]["right_arm"]["card"] == mazo
    assert s["phase"] == "main1"


def test_nm_2_no_part_in_hand_places_nothing():
    """NM-2 (NM-R1): with no Part in hand the only choice is to place none."""
    s = board(phase="torso")
    for p in s["players"]:
        p["torso_done"] = False
    hand(s, 0, "balazo_certero")
    seal(s)
    assert nm.legal_actions(s, 0) == [{"type": "no_torso"}]


def test_nm_2_formats_other_than_duel_are_refused_for_now():
    """NM-2: 1v1 is playable; the teams field leaves room for 2v2 and battle royale."""
    with pytest.raises(IllegalAction) as err:
        nm.new_game(4, 1)
    assert err.value.template == engine.E_SEATS
    with pytest.raises(IllegalAction):
        nm.new_game(2, 1, {"decks": ["nope", FORJA]})


# ---------------------------------------------------------------- NM-3 zones


def test_nm_3_every_zone_exists_for_each_player():
    """NM-3: Arsenal, War Spoils, Workshops Alfa and Beta, Scrapyard, Demolition and six Unit zones."""
    p = nm.new_game(2, 1)["players"][0]
    assert {"arsenal", "spoils", "workshops", "scrapyard", "demolition", "unit", "hand"} <= set(p)
    assert set(p["workshops"]) == {"alfa", "beta"}
    assert tuple(p["unit"]) == ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")


def test_nm_3_demolition_zone_takes_a_demolished_part():
    """NM-3: the Prensa de Desguace sends a damaged Part to Demolition (NM-6: it counts as destroyed)."""
    s = board(decks=(FORJA, CANON))
    prensa = hand(s, 0, "prensa_de_desguace")[0]
    put(s, 1, "pata_de_coyote", damage=1)
    seal(s)
    s = pass_all(act(s, 0, type="support", card=prensa, target=RIGHT_LEG_B))
    assert s["players"][1]["demolition"] == ["pata_de_coyote.1.1"]
    assert s["players"][0]["scrapyard"] == [prensa]
    assert nm.claimed(s, 0) == 1


# ---------------------------------------------------------------- NM-4 cards


def test_nm_4_pool_has_parts_for_every_zone_every_speed_rarity_and_supports():
    """NM-4: >= 30 distinct cards: Parts of all six zones, all speeds and rarities, Supports."""
    cards = nm.CARDS.values()
    assert len(nm.CARDS) >= 30
    parts = [c for c in cards if c["kind"] == "part"]
    assert {c["zone"] for c in parts} == set(nm.ZONES)
    assert {c["rarity"] for c in cards} == {"chatarra", "vendible", "pura", "legendaria"}
    assert {ab["speed"] for c in cards for ab in c["abilities"]} == {
        "pasiva", "normal", "relampago", "guerrilla", "disparado"}
    assert any(c["charge"] > 0 for c in parts) and any(c["charge"] < 0 for c in parts)
    assert sum(c["kind"] == "support" for c in cards) >= 8
    for deck in nm.DECKS.values():
        assert sum(deck["cards"].values()) == 40


def test_nm_4_a_broken_card_file_is_rejected():
    """NM-4: the pool is validated data; an unknown op or a missing speed tag fails to load."""
    from cardgames.engines.nismatch.cards import load_pool

    bad = ('{"cards": [{"key": "x", "name": "X", "kind": "support", "rarity": "pura", "tags": ["Normal"],'
           ' "abilities": [{"speed": "normal", "cost": 1, "target": "none", "effects": [{"op": "teleport"}],'
           ' "text": "?"}]}], "decks": {}}')
    with pytest.raises(ValueError, match="unknown op"):
        load_pool(bad)


def test_nm_4_support_goes_to_the_scrapyard_once_resolved():
    """NM-4: a Support card is discarded to the Scrapyard after resolving."""
    s = board()
    balazo = hand(s, 0, "balazo_certero")[0]
    put(s, 1, "bota_de_plomo")
    seal(s)
    s = act(s, 0, type="support", card=balazo, target=RIGHT_LEG_B)
    assert s["stack"][0]["card"] == balazo and balazo not in s["players"][0]["hand"]
    s = pass_all(s)
    assert s["players"][0]["scrapyard"] == [balazo]
    assert s["players"][1]["unit"]["right_leg"]["damage"] == 2
    assert s["players"][0]["charge"] == 4


# ---------------------------------------------------------------- NM-5 charge


def test_nm_5_recharge_adds_two_plus_generators_minus_spenders_and_drops_leftovers():
    """NM-5/NM-10 Recharge: 2 + generators − spenders; last turn's leftover is lost."""
    s = board(active=1, phase="main2", charge=(9, 0))
    for key in ("yelmo_de_hojalata", "revolver_de_vapor", "caldera_de_locomotora"):
        put(s, 0, key)
    seal(s)
    s = act(s, 1, type="next")
    assert s["active"] == 0 and s["phase"] == "main1"
    assert s["players"][0]["charge"] == 2 + 1 - 1 + 2


def test_nm_5_negative_charge_forces_deactivating_spenders():
    """NM-5: below 0 the owner deactivates Parts (its choice) until Charge is >= 0."""
    s = board(active=1, phase="main2")
    for key in ("yelmo_de_hojalata", "tenaza_hidraulica", "brazo_de_gatling"):
        put(s, 0, key)
    seal(s)
    s = act(s, 1, type="next")
    assert s["players"][0]["charge"] == -1 and s["phase"] == "draw"
    assert nm.to_move(s) == [0]
    assert nm.legal_actions(s, 0) == [{"type": "deactivate", "zone": "left_arm"},
                                      {"type": "deactivate", "zone": "right_arm"}]
    raises(engine.E_MUST_DEACTIVATE, s, 0, type="next")
    s = act(s, 0, type="deactivate", zone="right_arm")
    assert s["players"][0]["charge"] == 1 and s["phase"] == "main1"
    assert nm.unit_stat(s, 0, "fue") == 3  # the Gatling's 4 FUE is gone


def test_nm_5_losing_a_generator_at_any_moment_forces_deactivation():
    """NM-5: the opponent destroys a generator during MY opponent's turn: I deactivate at once."""
    s = board(decks=(CANON, FORJA), charge=(5, 0))
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "llave_de_mecanico", damage=2)
    put(s, 1, "oruga_del_desierto")
    seal(s)
    s = pass_all(act(s, 0, type="activate", zone="right_arm", ability=0, target={"seat": 1, "zone": "right_arm"}))
    assert s["players"][1]["charge"] == -1
    assert nm.to_move(s) == [1]
    s = act(s, 1, type="deactivate", zone="left_leg")
    assert s["players"][1]["charge"] == 0 and nm.to_move(s) == [0]
    assert nm.unit_stat(s, 1, "def") == 0


def test_nm_5_with_no_spender_left_the_charge_stays_negative():
    """NM-5 "or all that can be": without an active spender nothing more can be deactivated."""
    s = board(charge=(5, -1))
    put(s, 1, "yelmo_de_hojalata")
    put(s, 1, "oruga_del_desierto", active=False)
    seal(s)
    assert nm.to_move(s) == [0]


def test_nm_5_deactivated_part_can_be_damaged_but_gives_nothing():
    """NM-5: a deactivated Part is still a target, but gives no stats, no passive, no ability."""
    s = board(decks=(CANON, FORJA))
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "pecho_de_yunque", active=False)
    put(s, 1, "farol_del_predicador", active=False)
    seal(s)
    assert nm.unit_stat(s, 1, "def") == 0
    s = act(s, 0, type="activate", zone="right_arm", ability=0, target={"seat": 1, "zone": "torso"})
    assert nm.legal_actions(s, 1) == [{"type": "pass"}]  # the Farol can't negate
    s = pass_all(s)
    assert s["players"][1]["unit"]["torso"]["damage"] == 2  # no armour while deactivated


def test_nm_5_recharge_turns_parts_face_up_again():
    """NM-5 (NM-R3): deactivated Parts are reactivated at their owner's Recharge."""
    s = board(decks=(FORJA, CANON), active=1, phase="main2")
    put(s, 0, "oruga_del_desierto", active=False)
    seal(s)
    s = act(s, 1, type="next")
    assert s["players"][0]["unit"]["left_leg"]["active"] is True
    assert s["players"][0]["charge"] == 1


# ---------------------------------------------------------------- NM-6 destruction and spoils


def test_nm_6_destroyed_part_to_scrapyard_and_destroyer_claims_a_spoil():
    """NM-6: damage reaching PG destroys the Part; the destroyer takes the top War Spoil."""
    s = board()
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "bota_de_plomo", damage=4)
    seal(s)
    top = s["players"][0]["spoils"][-1]
    s = pass_all(act(s, 0, type="activate", zone="right_arm", ability=0, target=RIGHT_LEG_B))
    assert s["players"][1]["unit"]["right_leg"] is None
    assert s["players"][1]["scrapyard"] == ["bota_de_plomo.1.1"]
    assert top in s["players"][0]["hand"] and nm.claimed(s, 0) == 1
    assert s["players"][1]["lost"] == 1


def test_nm_6_guerrilla_against_a_unit_with_no_parts_takes_two_spoils():
    """NM-6: attacking a Unit with no Parts takes 2 War Spoils."""
    s = board(phase="guerrilla")
    put(s, 0, "garfio_de_minero")
    seal(s)
    s = pass_all(act(s, 0, type="guerrilla", opponent=1))
    assert nm.claimed(s, 0) == 2 and s["phase"] == "main2"


def test_nm_6_backfire_destruction_gives_the_defender_the_spoil():
    """NM-6 (NM-R9): Guerrilla backfire destroying an attacker's Part: the defender destroyed it."""
    s = board(phase="guerrilla")
    put(s, 0, "pata_de_coyote", damage=3)
    put(s, 1, "bota_de_plomo")
    seal(s)
    s = pass_all(act(s, 0, type="guerrilla", opponent=1))
    assert nm.to_move(s) == [1]
    s = act(s, 1, type="damage_target", zone="right_leg")
    assert nm.claimed(s, 1) == 1 and s["players"][0]["unit"]["right_leg"] is None


# ---------------------------------------------------------------- NM-7 speeds


def test_nm_7_normal_speed_only_in_own_main_phase_with_empty_stack():
    """NM-7: Normal abilities and supports never answer; Relámpago ones can."""
    s = board(decks=(CANON, FORJA))
    put(s, 0, "revolver_de_vapor")
    balazo = hand(s, 0, "balazo_certero")[0]
    put(s, 1, "bota_de_plomo")
    b_balazo, b_cable = hand(s, 1, "balazo_certero", "cable_de_arrastre")
    seal(s)
    assert any(a.get("card") == balazo for a in nm.legal_actions(s, 0))
    s = act(s, 0, type="activate", zone="right_arm", ability=0, target=RIGHT_LEG_B)
    b_actions = nm.legal_actions(s, 1)
    assert not any(a.get("card") == b_balazo for a in b_actions)
    assert any(a.get("card") == b_cable for a in b_actions)
    raises(engine.E_WRONG_SPEED, s, 1, type="support", card=b_balazo, target={"seat": 0, "zone": "right_arm"})
    s = act(s, 1, type="pass")
    assert not any(a.get("card") == balazo for a in nm.legal_actions(s, 0))


def test_nm_7_guerrilla_speed_only_in_the_guerrilla_phase():
    """NM-7: Guerrilla abilities are lightning abilities usable only in the Guerrilla phase."""
    s = board(decks=(CANON, CANON))
    emboscada = hand(s, 0, "emboscada_en_el_canon")[0]
    put(s, 0, "tenaza_hidraulica")
    b_emboscada = hand(s, 1, "emboscada_en_el_canon")[0]
    put(s, 1, "pata_de_mula")
    seal(s)
    raises(engine.E_WRONG_SPEED, s, 0, type="support", card=emboscada)
    assert {"type": "activate", "zone": "left_arm", "ability": 0} not in nm.legal_actions(s, 0)
    s = act(s, 0, type="next")
    assert s["phase"] == "guerrilla"
    assert {"type": "support", "card": emboscada} in nm.legal_actions(s, 0)
    s = act(s, 0, type="guerrilla", opponent=1)
    assert {"type": "support", "card": b_emboscada} in nm.legal_actions(s, 1)
    s = act(s, 1, type="pass")
    s = pass_all(act(s, 0, type="activate", zone="left_arm", ability=0))
    assert s["pending"] == {"kind": "guerrilla_damage", "chooser": 0, "victim": 1, "amount": 3 + 2 - 1}


def test_nm_7_passive_armour_is_always_on_and_costs_nothing():
    """NM-7 Pasiva: the Pecho de Yunque reduces every damage by 1 without paying anything."""
    s = board(decks=(CANON, FORJA), charge=(5, 0))
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "pecho_de_yunque")
    seal(s)
    s = pass_all(act(s, 0, type="activate", zone="right_arm", ability=0, target={"seat": 1, "zone": "torso"}))
    assert s["players"][1]["unit"]["torso"]["damage"] == 1
    assert s["players"][1]["charge"] == 0


def test_nm_7_triggered_on_equip_goes_on_the_stack_and_fires_each_time():
    """NM-7 Disparado: the Calavera de Cobre draws when equipped; the trigger is a gear (NM-R6)."""
    s = board()
    calavera = hand(s, 0, "calavera_de_cobre")[0]
    seal(s)
    s = act(s, 0, type="attach", card=calavera)
    assert [g["kind"] for g in s["stack"]] == ["trigger"] and nm.to_move(s) == [0]
    s = pass_all(s)
    assert len(s["players"][0]["hand"]) == 1 and s["players"][0]["charge"] == 4


def test_nm_7_triggered_on_destroyed_hits_every_enemy_part():
    """NM-7 Disparado: the Corazón de Dínamo explodes when destroyed."""
    s = board(decks=(FORJA, CANON))
    put(s, 0, "revolver_de_vapor")
    put(s, 0, "bota_de_plomo")
    put(s, 1, "corazon_de_dinamo", damage=4)
    seal(s)
    s = act(s, 0, type="activate", zone="right_arm", ability=0, target={"seat": 1, "zone": "torso"})
    s = act(act(s, 1, type="pass"), 0, type="pass")  # the Dínamo dies, its trigger goes on the stack
    assert [g["kind"] for g in s["stack"]] == ["trigger"]
    s = pass_all(s)
    assert s["players"][0]["unit"]["right_arm"]["damage"] == 1
    assert s["players"][0]["unit"]["right_leg"]["damage"] == 1


def test_nm_7_triggered_on_attacked_raises_defence_before_the_battle():
    """NM-7 Disparado: the Espolón de Jinete gives +1 DEF when a Guerrilla is declared on its Unit."""
    s = board(decks=(CANON, CANON), phase="guerrilla")
    put(s, 0, "garfio_de_minero")
    put(s, 1, "espolon_de_jinete")
    seal(s)
    s = pass_all(act(s, 0, type="guerrilla", opponent=1))
    assert s["pending"]["amount"] == 2 - 1


def test_nm_7_activated_ability_once_per_turn():
    """NM-7: an ability is used once per turn..."""
    s = board()
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "bota_de_plomo")
    seal(s)
    s = pass_all(act(s, 0, type="activate", zone="right_arm", ability=0, target=RIGHT_LEG_B))
    assert not any(a["type"] == "activate" for a in nm.legal_actions(s, 0))
    raises(engine.E_ABILITY_USED, s, 0, type="activate", zone="right_arm", ability=0, target=RIGHT_LEG_B)


def test_nm_7_unless_the_card_says_otherwise():
    """NM-7: ...unless the card says otherwise: the Ojo de Buitre fires twice per turn (per_turn: 2)."""
    s = board()
    put(s, 0, "ojo_de_buitre")
    put(s, 1, "bota_de_plomo")
    seal(s)
    for _ in range(2):
        s = pass_all(act(s, 0, type="activate", zone="head", ability=0, target=RIGHT_LEG_B))
    assert s["players"][1]["unit"]["right_leg"]["damage"] == 2
    raises(engine.E_ABILITY_USED, s, 0, type="activate", zone="head", ability=0, target=RIGHT_LEG_B)


def test_nm_7_costs_need_enough_charge():
    """NM-7/NM-8: the Charge cost must be payable."""
    s = board(charge=(0, 0))
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "bota_de_plomo")
    seal(s)
    raises(engine.E_NO_CHARGE, s, 0, type="activate", zone="right_arm", ability=0, target=RIGHT_LEG_B)


# ---------------------------------------------------------------- NM-8 the stack


def _duel() -> tuple[dict, dict]:
    s = board(decks=(CANON, FORJA))
    put(s, 0, "revolver_de_vapor")
    put(s, 1, "bota_de_plomo")
    cards = {"a_contra": hand(s, 0, "contraorden")[0]}
    cards["b_cable"], cards["b_contra"] = hand(s, 1, "cable_de_arrastre", "contraorden")
    seal(s)
    s = act(s, 0, type="activate", zone="right_arm", ability=0, target=RIGHT_LEG_B)
    return s, cards


def test_nm_8_cost_paid_then_gear_waits_and_priority_passes():
    """NM-8: activating pays the Charge, the effect waits on the stack, priority goes to the opponent."""
    s, _ = _duel()
    assert s["players"][0]["charge"] == 4
    assert [g["id"] for g in s["stack"]] == [1] and nm.to_move(s) == [1]
    assert s["players"][1]["unit"]["right_leg"]["damage"] == 0
    s = act(s, 1, type="pass")
    assert nm.to_move(s) == [0] and s["stack"]
    s = act(s, 0, type="pass")
    assert not s["stack"] and s["players"][1]["unit"]["right_leg"]["damage"] == 2
    assert nm.to_move(s) == [0] and s["phase"] == "main1"  # open state, active player's priority


def test_nm_8_effect_whose_target_left_resolves_with_no_effect():
    """NM-8 (book 6.1.1.1): M2 moves the target to a Workshop; M1 then resolves with no effect."""
    s, c = _duel()
    s = act(s, 1, type="support", card=c["b_cable"], target=RIGHT_LEG_B)
    s = act(act(s, 0, type="pass"), 1, type="pass")
    ws = s["players"][1]["workshops"]["alfa"]
    assert ws["card"] == "bota_de_plomo.1.1" and ws["damage"] == 0
    assert {"event": "fizzled", "gear": 1} in s["log"]
    assert s["players"][1]["scrapyard"] == [c["b_cable"]]


def test_nm_8_three_gears_negation_makes_the_middle_gear_resolve_with_no_effect():
    """NM-8 (book 4.7.2.1): M3 negates M2; M2 resolves with no effect; M1 resolves normally."""
    s, c = _duel()
    s = act(s, 1, type="support", card=c["b_cable"], target=RIGHT_LEG_B)
    s = act(s, 0, type="support", card=c["a_contra"], target={"gear": 2})
    assert [g["id"] for g in s["stack"]] == [1, 2, 3] and nm.to_move(s) == [1]
    s = act(act(s, 1, type="pass"), 0, type="pass")
    events = [e for e in s["log"] if e["event"] in ("resolved", "negated", "fizzled")]
    assert events == [{"event": "resolved", "gear": 3}, {"event": "negated", "gear": 2},
                      {"event": "resolved", "gear": 1}]
    assert s["players"][1]["unit"]["right_leg"]["damage"] == 2
    assert s["players"][1]["workshops"]["alfa"] is None


def test_nm_8_negating_the_negation_makes_the_targeted_effect_fizzle():
    """NM-8: M4 negates M3, so M2 moves the target away and the targeted M1 fizzles (LIFO)."""
    s, c = _duel()
    s = act(s, 1, type="support", card=c["b_cable"], target=RIGHT_LEG_B)
    s = act(s, 0, type="support", card=c["a_contra"], target={"gear": 2})
    s = act(s, 1, type="support", card=c["b_contra"], target={"gear": 3})
    s = act(act(s, 0, type="pass"), 1, type="pass")
    events = [e for e in s["log"] if e["event"] in ("resolved", "negated", "fizzled")]
    assert events == [{"event": "resolved", "gear": 4}, {"event": "negated", "gear": 3},
                      {"event": "resolved", "gear": 2}, {"event": "fizzled", "gear": 1}]
    assert s["players"][1]["workshops"]["alfa"]["damage"] == 0
    assert located_codes(s) == all_codes(s)


def test_nm_8_a_requirement_filter_rechecked_on_resolution():
    """NM-8 (NM-R11): the Prensa needs a damaged Part; repaired in response, it fizzles."""
    s = board(decks=(FORJA, FORJA))
    prensa = hand(s, 0, "prensa_de_desguace")[0]
    put(s, 1, "bota_de_plomo", damage=2)
    soldadura = hand(s, 1, "soldadura_rapida")[0]
    seal(s)
    s = act(s, 0, type="support", card=prensa, target=RIGHT_LEG_B)
    s = pass_all(act(s, 1, type="support", card=soldadura, target=RIGHT_LEG_B))
    assert s["players"][1]["unit"]["right_leg"] == {"card": "bota_de_plomo.1.1", "damage": 0, "active": True,
                                                    "used": {}}
    assert {"event": "fizzled", "gear": 1} in s["log"]


# ---------------------------------------------------------------- NM-9 initiative


def _torso_race(key0: str, key1: str, seed: int = 7) -> dict:
    s = board(phase="torso", seed=seed)
    for p in s["players"]:
        p["torso_done"] = False
    c0 = hand(s, 0, key0)[0]
    c1 = hand(s, 1, key1)[0]
    seal(s)
    return act(act(s, 1, type="torso", card=c1), 0, type="torso", card=c0)


def test_nm_9_highest_vel_plays_first():
    """NM-9: the Unit with more VEL starts the round."""
    assert _torso_race("mazo_de_herrero", "pata_de_coyote")["order"] == [1, 0]
    assert _torso_race("pata_de_coyote", "mazo_de_herrero")["order"] == [0, 1]


def test_nm_9_first_round_tie_broken_by_die_rolls():
    """NM-9: a first-round tie is settled by d6 rolls (re-rolled while tied)."""
    orders = set()
    for seed in range(12):
        s = _torso_race("mazo_de_herrero", "mazo_de_herrero", seed)
        rolls = s["initiative_rolls"]
        assert rolls["0"] != rolls["1"] and all(1 <= r <= 6 for r in rolls["0"] + rolls["1"])
        assert s["order"][0] == (0 if rolls["0"] > rolls["1"] else 1)
        orders.add(tuple(s["order"]))
    assert orders == {(0, 1), (1, 0)}


def test_nm_9_later_ties_go_to_who_played_later_and_vel_is_recomputed():
    """NM-9: at the end of a round VEL is recomputed; a tie goes to whoever played later."""
    s = seal(board(active=1, phase="main2"))
    s.update(order=[0, 1], order_index=1)
    s = act(s, 1, type="next")
    assert s["order"] == [1, 0] and s["round"] == 2 and s["active"] == 1
    s = board(active=1, phase="main2")
    s.update(order=[0, 1], order_index=1)
    put(s, 0, "pata_de_coyote")
    s = act(seal(s), 1, type="next")
    assert s["order"] == [0, 1] and s["active"] == 0


# ---------------------------------------------------------------- NM-10 the turn


def test_nm_10_turn_runs_recharge_draw_rebuild_then_main():
    """NM-10: Recharge, Draw 1 and Rebuild run before Main 1."""
    s = seal(board(active=1, phase="main2"))
    top = s["players"][0]["arsenal"][-1]
    s = act(s, 1, type="next")
    assert s["phase"] == "main1" and s["active"] == 0
    assert s["players"][0]["hand"] == [top] and s["turn"] == 2


def test_nm_10_phases_in_order_main1_guerrilla_main2_end():
    """NM-10: Main 1 → Guerrilla → Main 2 → End → the next player's turn."""
    s = seal(board())
    phases = []
    for _ in range(3):
        s = act(s, 0, type="next")
        phases.append(s["phase"])
    assert phases == ["guerrilla", "main2", "main1"] and s["active"] == 1


def test_nm_10_rebuild_attaches_as_many_parts_as_were_lost_and_workshops_repair():
    """NM-10 Rebuild: attach one Part per Part lost since the last Rebuild; Workshops recover 2 PG."""
    s = board(active=1, phase="main2")
    s["players"][0]["lost"] = 2
    workshop(s, 0, "mazo_de_herrero", damage=3)
    for key in ("garfio_de_minero", "pata_de_mula", "pata_de_coyote", "balazo_certero"):
        hand(s, 0, key)
    seal(s)
    s = act(s, 1, type="next")
    assert s["phase"] == "rebuild" and s["rebuild_left"] == 2
    assert s["players"][0]["workshops"]["alfa"]["damage"] == 1
    options = nm.legal_actions(s, 0)
    assert {a["type"] for a in options} == {"rebuild", "rebuild_done"} and len(options) == 4
    s = act(s, 0, type="rebuild", card="garfio_de_minero.0.1")
    s = act(s, 0, type="rebuild", card="pata_de_mula.0.1")
    assert s["phase"] == "main1" and s["players"][0]["lost"] == 0
    assert {"type": "attach", "card": "pata_de_coyote.0.1"} in nm.legal_actions(s, 0)  # still one attach


def test_nm_10_repair_bonus_passive_in_rebuild():
    """NM-10 + NM-7 Pasiva: the Caldera de Locomotora makes Workshops repair 1 more."""
    s = board(active=1, phase="main2")
    put(s, 0, "caldera_de_locomotora")
    workshop(s, 0, "mazo_de_herrero", damage=3)
    s = act(seal(s), 1, type="next")
    assert s["players"][0]["workshops"]["alfa"]["damage"] == 0


def test_nm_10_one_part_from_hand_per_turn():
    """NM-10: only one Part from hand per turn, in Main 1 or Main 2."""
    s = board()
    garfio, mula = hand(s, 0, "garfio_de_minero", "pata_de_mula")
    seal(s)
    s = act(s, 0, type="attach", card=garfio)
    assert s["players"][0]["unit"]["left_arm"]["card"] == garfio
    raises(engine.E_ALREADY_ATTACHED, s, 0, type="attach", card=mula)
    s = act(act(s, 0, type="next"), 0, type="next")
    assert s["phase"] == "main2"
    raises(engine.E_ALREADY_ATTACHED, s, 0, type="attach", card=mula)


def test_nm_10_replacing_sends_the_old_part_to_the_scrapyard_but_not_a_damaged_one():
    """NM-10: an undamaged occupant goes to the Scrapyard; a damaged one must go to a Workshop."""
    s = board()
    old = put(s, 0, "garfio_de_minero")
    tenaza = hand(s, 0, "tenaza_hidraulica")[0]
    seal(s)
    after = act(s, 0, type="attach", card=tenaza)
    assert after["players"][0]["unit"][old]["card"] == tenaza
    assert after["players"][0]["scrapyard"] == ["garfio_de_minero.0.1"]
    assert after["players"][0]["charge"] == 5 - 2  # the spender starts consuming at once (NM-R4)
    s["players"][0]["unit"][old]["damage"] = 1
    raises(engine.E_DAMAGED_OCCUPANT, s, 0, type="attach", card=tenaza)
    s = act(s, 0, type="to_workshop", zone=old)
    assert s["players"][0]["workshops"]["alfa"]["card"] == "garfio_de_minero.0.1"
    assert act(s, 0, type="attach", card=tenaza)["players"][0]["unit"][old]["card"] == tenaza


def test_nm_10_only_damaged_parts_go_to_a_workshop_and_two_at_most():
    """NM-10 (NM-R8): a player moves only damaged Parts; Workshops Alfa and Beta hold one each."""
    s = board()
    put(s, 0, "garfio_de_minero")
    for key in ("mazo_de_herrero", "pata_de_mula", "pata_de_coyote"):
        put(s, 0, key, damage=1)
    seal(s)
    raises(engine.E_NOT_DAMAGED, s, 0, type="to_workshop", zone="left_arm")
    s = act(act(s, 0, type="to_workshop", zone="right_arm"), 0, type="to_workshop", zone="left_leg")
    assert not any(a["type"] == "to_workshop" for a in nm.legal_actions(s, 0))
    raises(engine.E_WORKSHOP_FULL, s, 0, type="to_workshop", zone="right_leg")


def test_nm_10_workshop_return_needs_full_repair_and_a_turn_there():
    """NM-10: re-attach a fully repaired Part that spent a turn in the Workshop."""
    s = board()
    workshop(s, 0, "mazo_de_herrero", damage=0, since=1)
    workshop(s, 0, "pata_de_mula", damage=1, since=0, name="beta")
    seal(s)
    raises(engine.E_WORKSHOP_NOT_READY, s, 0, type="from_workshop", workshop="alfa")
    raises(engine.E_WORKSHOP_NOT_READY, s, 0, type="from_workshop", workshop="beta")
    s["players"][0]["workshops"]["alfa"]["since"] = 0
    s = act(s, 0, type="from_workshop", workshop="alfa")
    assert s["players"][0]["unit"]["right_arm"]["card"] == "mazo_de_herrero.0.1"
    assert s["players"][0]["attached"] is False  # not the attach of the turn


def test_nm_10_guerrilla_positive_damage_on_a_defender_part_chosen_by_the_attacker():
    """NM-10 Guerrilla: FUE − DEF > 0 → the attacker puts that damage on a defender Part."""
    s = board(phase="guerrilla")
    put(s, 0, "revolver_de_vapor")
    put(s, 0, "garfio_de_minero")
    put(s, 1, "bota_de_plomo")
    put(s, 1, "pata_de_mula")
    seal(s)
    s = pass_all(act(s, 0, type="guerrilla", opponent=1))
    assert nm.to_move(s) == [0]
    assert nm.legal_actions(s, 0) == [{"type": "damage_target", "zone": "left_leg"},
                                      {"type": "damage_target", "zone": "right_leg"}]
    s = act(s, 0, type="damage_target", zone="left_leg")
    assert s["players"][1]["unit"]["left_leg"]["damage"] == 5 - 3
    assert s["phase"] == "main2"
    assert not any(a["type"] == "guerrilla" for a in nm.legal_actions(s, 0))


def test_nm_10_guerrilla_negative_damage_on_an_attacker_part_chosen_by_the_defender():
    """NM-10 Guerrilla: FUE − DEF < 0 → the attacker takes the difference where the defender says."""
    s = board(phase="guerrilla")
    put(s, 0, "pata_de_coyote")
    put(s, 0, "ojo_de_buitre")
    put(s, 1, "bota_de_plomo")
    seal(s)
    s = pass_all(act(s, 0, type="guerrilla", opponent=1))
    assert nm.to_move(s) == [1] and s["pending"]["amount"] == 2 - 1
    s = act(s, 1, type="damage_target", zone="right_leg")
    assert s["players"][0]["unit"]["right_leg"]["damage"] == 1


def test_nm_10_until_end_of_turn_and_until_your_next_turn_effects_expire():
    """NM-10: "until end of turn" ends in the End phase; "until your next turn" at your Recharge."""
    s = board(decks=(FORJA, FORJA))
    put(s, 0, "escudo_de_diligencia")
    put(s, 0, "pata_de_coyote")  # VEL 2: plays first next round too
    placas = hand(s, 0, "placas_de_tren")[0]
    seal(s)
    s = pass_all(act(s, 0, type="activate", zone="left_arm", ability=0))
    s = pass_all(act(s, 0, type="support", card=placas))
    assert nm.unit_stat(s, 0, "def") == 2 + 2 + 2
    s = act(act(act(s, 0, type="next"), 0, type="next"), 0, type="next")
    assert s["active"] == 1 and nm.unit_stat(s, 0, "def") == 2 + 2
    s = act(act(act(s, 1, type="next"), 1, type="next"), 1, type="next")
    assert s["active"] == 0 and nm.unit_stat(s, 0, "def") == 2


# ---------------------------------------------------------------- NM-11 Workshop return replaces


def test_nm_11_workshop_return_replaces_the_occupant():
    """NM-11: a Part back from the Workshop may replace the Part in its zone (→ Scrapyard)."""
    s = board()
    put(s, 0, "mazo_de_herrero", damage=2)
    workshop(s, 0, "revolver_de_vapor", damage=0, since=0)
    seal(s)
    s = act(s, 0, type="from_workshop", workshop="alfa")
    assert s["players"][0]["unit"]["right_arm"]["card"] == "revolver_de_vapor.0.1"
    assert s["players"][0]["scrapyard"] == ["mazo_de_herrero.0.1"]
    assert s["players"][0]["charge"] == 5 - 1


# ---------------------------------------------------------------- house rulings


def test_nm_r4_attaching_a_generator_adds_charge_at_once():
    """NM-R4: a Part joining the Unit brings its Charge immediately; leaving takes it away."""
    s = board()
    caldera = hand(s, 0, "caldera_de_locomotora")[0]
    seal(s)
    s = act(s, 0, type="attach", card=caldera)
    assert s["players"][0]["charge"] == 7


def test_nm_r6_triggered_ability_can_be_negated():
    """NM-R6: a trigger is a gear like any other: a negation answers it."""
    s = board(decks=(CANON, FORJA))
    calavera = hand(s, 0, "calavera_de_cobre")[0]
    contra = hand(s, 1, "contraorden")[0]
    seal(s)
    s = act(act(s, 0, type="attach", card=calavera), 0, type="pass")
    s = pass_all(act(s, 1, type="support", card=contra, target={"gear": 1}))
    assert s["players"][0]["hand"] == []


def test_nm_r7_guerrilla_is_optional_and_once_per_turn_and_not_negatable():
    """NM-R7: declaring is optional; only once; a negation can't target the declaration."""
    s = board(decks=(CANON, FORJA), phase="guerrilla")
    put(s, 0, "garfio_de_minero")
    put(s, 1, "pata_de_mula")
    hand(s, 1, "contraorden")
    seal(s)
    assert {"type": "next"} in nm.legal_actions(s, 0)
    s = act(s, 0, type="guerrilla", opponent=1)
    assert nm.legal_actions(s, 1) == [{"type": "pass"}]


def test_nm_r8_effect_into_full_workshops_does_nothing():
    """NM-R8: with both Workshops busy an effect's move to a Workshop has no effect."""
    s = board(decks=(CANON, FORJA))
    put(s, 0, "brazo_lazo")
    put(s, 1, "bota_de_plomo")
    workshop(s, 1, "pata_de_mula", damage=1)
    workshop(s, 1, "mazo_de_herrero", damage=1, name="beta")
    seal(s)
    s = pass_all(act(s, 0, type="activate", zone="left_arm", ability=0, target=RIGHT_LEG_B))
    assert s["players"][1]["unit"]["right_leg"]["card"] == "bota_de_plomo.1.1"


def test_nm_r9_destroying_your_own_part_claims_nothing():
    """NM-R9: the controller of the effect is the destroyer; destroying your own Part claims nothing."""
    s = board(decks=(CANON, CANON), phase="guerrilla", charge=(5, 5))
    put(s, 0, "brazo_de_gatling")
    put(s, 1, "pata_de_mula", damage=4)
    seal(s)
    s = pass_all(act(s, 0, type="activate", zone="right_arm", ability=0))
    assert nm.claimed(s, 0) == 1 and nm.claimed(s, 1) == 0
    own = board()
    put(own, 0, "pata_de_coyote", damage=3)
    engine._damage(seal(own), 0, "right_leg", 1, by=0)
    assert own["players"][0]["unit"]["right_leg"] is None and nm.claimed(own, 0) == 0


def test_nm_r10_attaching_does_not_pass_priority():
    """NM-R10: a move that puts nothing on the stack keeps priority with the active player."""
    s = board(decks=(CANON, FORJA))
    garfio = hand(s, 0, "garfio_de_minero")[0]
    hand(s, 1, "cable_de_arrastre")
    seal(s)
    s = act(s, 0, type="attach", card=garfio)
    assert nm.to_move(s) == [0] and not s["stack"]


def test_nm_r5_once_per_turn_means_each_players_turn():
    """NM-R5: a Relámpago ability used in my turn can be used again in my opponent's turn."""
    s = board(decks=(CANON, FORJA))
    put(s, 0, "ojo_de_buitre")
    put(s, 0, "pata_de_coyote")
    put(s, 1, "bota_de_plomo")
    put(s, 1, "revolver_de_vapor")
    seal(s)
    s = pass_all(act(s, 0, type="activate", zone="head", ability=0, target=RIGHT_LEG_B))
    s = act(act(act(s, 0, type="next"), 0, type="next"), 0, type="next")
    assert s["active"] == 1
    s = act(s, 1, type="activate", zone="right_arm", ability=0, target={"seat": 0, "zone": "right_leg"})
    assert {"type": "activate", "zone": "head", "ability": 0, "target": RIGHT_LEG_B} in nm.legal_actions(s, 0)


def test_nm_r13_unit_stats_never_go_below_zero():
    """NM-R13: FUE, DEF and VEL totals are floored at 0."""
    s = board()
    put(s, 0, "garfio_de_minero")
    s["modifiers"].append({"seat": 0, "stat": "fue", "amount": -5, "until": "end_of_turn", "by": 1})
    assert nm.unit_stat(s, 0, "fue") == 0


def test_nm_r14_rebuild_is_optional_and_its_count_resets():
    """NM-R14: the Rebuild may stop early; the count of lost Parts starts again from 0."""
    s = board(active=1, phase="main2")
    s["players"][0]["lost"] = 2
    hand(s, 0, "garfio_de_minero")
    s = act(seal(s), 1, type="next")
    s = act(s, 0, type="rebuild_done")
    assert s["phase"] == "main1" and s["rebuild_left"] == 0 and s["players"][0]["lost"] == 0


def test_nm_r15_and_r16_first_turn_draws_and_default_decks():
    """NM-R15: the first player draws on turn 1; NM-R16: default decks are Cuadrilla vs Forja."""
    s = nm.new_game(2, 3)
    assert [p["deck"] for p in s["players"]] == [CANON, FORJA]
    s = act(act(s, 0, type="keep"), 1, type="keep")
    for seat in (0, 1):
        s = act(s, seat, **nm.legal_actions(s, seat)[0])
    first = s["order"][0]
    assert s["active"] == first and s["phase"] == "main1"
    placed = any(slot is not None for slot in s["players"][first]["unit"].values())
    assert len(s["players"][first]["hand"]) == 7 - placed + 1
