"""PoCoBOT rules (PB-1..PB-18): scenario tests from hand-built states."""

from __future__ import annotations

import pytest

from cardgames.engines import IllegalAction, get
from cardgames.engines import pocobot as pb
from cardgames.engines.pocobot import game as g
from cardgames.engines.pocobot.cards import DECK, sort_cards
from cardgames.engines.pocobot.panel import capacities, capacity, is_mounted, new_panel, panel_cards


def panel(*cards: str, pilot=None, copilot=None, module=None, booster=None) -> dict:
    p = new_panel()
    for card in cards:
        p[card[-1]].append(card)
    for zone in "SHCD":
        p[zone] = sort_cards(p[zone])
    p.update(pilot=pilot, copilot=copilot, copilot_module=module, booster=booster)
    return p


def build(
    hands=((), ()),
    panels=(None, None),
    *,
    deck=None,
    discard=(),
    removed=(),
    current=0,
    phase=g.ACTION,
    pending=None,
    first_attack=False,
    burned=(False, False),
    turn=10,
) -> dict:
    """A state with every card accounted for: the unlisted cards form the draw pile."""
    panels = [p or new_panel() for p in panels]
    complete = deck is None
    used = [*hands[0], *hands[1], *discard, *removed, *panel_cards(panels[0]), *panel_cards(panels[1])]
    if deck is None:
        deck = [c for c in DECK if c not in used]
    state = {
        "game": "pocobot",
        "rng": {"seed": 1, "n": 0},
        "deck": list(deck),
        "discard": sort_cards(discard),
        "removed": sort_cards(removed),
        "hands": [sort_cards(hands[0]), sort_cards(hands[1])],
        "panels": panels,
        "current": current,
        "phase": phase,
        "pending": pending,
        "first_attack": first_attack,
        "burned_last_turn": list(burned),
        "turn": turn,
        "winner": None,
        "draw": False,
        "events": [],
    }
    assert_conserved(state, allow_missing=not complete)
    return state


def all_cards(state: dict) -> list[str]:
    return [
        *state["deck"],
        *state["discard"],
        *state["removed"],
        *state["hands"][0],
        *state["hands"][1],
        *panel_cards(state["panels"][0]),
        *panel_cards(state["panels"][1]),
    ]


def assert_conserved(state: dict, allow_missing: bool = False) -> None:
    cards = all_cards(state)
    assert len(cards) == len(set(cards))
    if not allow_missing:
        assert sorted(cards) == sorted(DECK)


def modify(*ops) -> dict:
    return {"type": "modify", "ops": list(ops)}


def place(card: str) -> dict:
    return {"op": "place", "card": card}


def raises(template: str, state: dict, seat: int, action) -> IllegalAction:
    before = g.to_json(state)
    with pytest.raises(IllegalAction) as info:
        pb.apply(state, seat, action)
    assert info.value.template == template
    assert g.to_json(state) == before  # bad input never changes the state
    return info.value


def listed(state: dict, seat: int, action: dict) -> bool:
    return action in pb.legal_actions(state, seat)


# --------------------------------------------------------------------------- PB-1, PB-6 setup and turn


def test_pb_1_setup_deals_five_and_highest_order_card_starts():
    """PB-1: 5 cards each, one order card each to the discard, highest (A high) starts; PB-6: the
    starter draws the turn's card."""
    for seed in range(30):
        state = pb.new_game(2, seed)
        order = [e for e in state["events"] if e["type"] == "order"]
        last = order[-1]["cards"]
        ranks = [g.order_rank(c) for c in last]
        starter = state["current"]
        assert ranks[starter] > ranks[1 - starter]
        assert len(state["hands"][starter]) == 6 and len(state["hands"][1 - starter]) == 5
        assert sorted(state["discard"]) == sorted(c for e in order for c in e["cards"])
        assert_conserved(state)


def test_pb_1_ace_is_high_and_ties_redraw():
    """PB-1 ruling: A beats K; a tie on rank redraws and all order cards go to the discard."""
    assert g.order_rank("AS") > g.order_rank("KH") > g.order_rank("2C")
    tied = next(
        s
        for s in (pb.new_game(2, seed) for seed in range(400))
        if len([e for e in s["events"] if e["type"] == "order"]) > 1
    )
    order = [e["cards"] for e in tied["events"] if e["type"] == "order"]
    assert g.order_rank(order[0][0]) == g.order_rank(order[0][1])
    assert len(tied["discard"]) == 2 * len(order)


def test_pb_1_needs_two_seats_and_an_int_seed():
    """PB-1: a two-player game."""
    with pytest.raises(IllegalAction):
        pb.new_game(3, 1)
    with pytest.raises(IllegalAction):
        pb.new_game(2, "seed")


def test_pb_6_turn_is_draw_then_one_action_and_pass_always_legal():
    """PB-6: after one action the turn passes and the next player draws one card."""
    state = build(hands=(["2H", "3H"], ["4H"]))
    after = pb.apply(state, 0, modify(place("2H")))
    assert after["current"] == 1 and after["hands"][1] == sort_cards(["4H", state["deck"][-1]])
    assert any(a["type"] == "pass" for a in pb.legal_actions(state, 0))
    assert pb.legal_actions(state, 1) == []
    raises(g.E_NOT_YOUR_TURN, state, 1, {"type": "pass", "cards": ["4H"]})


# --------------------------------------------------------------------------- PB-2, PB-3 zones and capacity


def test_pb_2_zones_take_their_cards():
    """PB-2: numerics to their suit's zone, ♦ to fuel without limit, figures crew, Aces boost."""
    diamonds = ["2D", "3D", "4D", "5D", "6D"]
    state = build(hands=(diamonds, []), panels=(panel("7D", "8D", "9D"), None))
    after = pb.apply(state, 0, modify(place("2D"), place("3D")))
    assert after["panels"][0]["D"] == ["2D", "3D", "7D", "8D", "9D"]
    state = build(hands=(["KS", "AS", "QD"], []))
    raises(g.E_NOT_NUMERIC, state, 0, modify(place("KS")))
    raises(g.E_NOT_FIGURE, state, 0, modify({"op": "pilot", "card": "AS"}))
    raises(g.E_NOT_ACE, state, 0, modify({"op": "booster", "card": "KS"}))
    raises(g.E_PILOT_SUIT, state, 0, modify({"op": "pilot", "card": "QD"}))


def test_pb_3_capacities():
    """PB-3: 2 base; Piloto or Copiloto suit 3; both on one module still 3; its Ace 4; A♦ none."""
    assert capacities(panel()) == {"S": 2, "H": 2, "C": 2}
    assert capacities(panel(pilot="KS", copilot="QH")) == {"S": 3, "H": 3, "C": 2}
    assert capacity(panel(pilot="KS", copilot="QS"), "S") == 3
    assert capacity(panel(pilot="KS", copilot="QS", booster="AS"), "S") == 4
    assert capacity(panel(booster="AC"), "C") == 4
    assert capacities(panel(pilot="KS", booster="AD")) == {"S": 3, "H": 2, "C": 2}


def test_pb_3_module_full_rejects_a_card():
    """PB-3: a third card in a 2-card module is illegal and not listed."""
    state = build(hands=(["4H"], []), panels=(panel("2H", "3H"), None))
    raises(g.E_MODULE_FULL, state, 0, modify(place("4H")))
    assert not listed(state, 0, modify(place("4H")))


def test_pb_3_diamond_copilot_chooses_its_module():
    """PB-3: a ♦ Copiloto raises the module its owner chooses when placing it."""
    state = build(hands=(["QD", "4H", "5H", "6H"], []), panels=(panel("2H", "3H", pilot="KS"), None))
    singles = [
        a["ops"][0] for a in pb.legal_actions(state, 0) if a["type"] == "modify" and len(a["ops"]) == 1
    ]
    assert sorted(op["module"] for op in singles if op["card"] == "QD") == ["C", "H", "S"]
    after = pb.apply(state, 0, modify({"op": "copilot", "card": "QD", "module": "H"}, place("4H")))
    assert after["panels"][0]["H"] == ["2H", "3H", "4H"] and capacity(after["panels"][0], "H") == 3
    raises(g.E_COPILOT_MODULE, state, 0, modify({"op": "copilot", "card": "QD"}))
    raises(g.E_COPILOT_MODULE, state, 0, modify({"op": "copilot", "card": "QD", "module": "D"}))
    state = build(hands=(["QH"], []), panels=(panel(pilot="KS"), None))
    raises(g.E_MODULE_NOT_CHOSEN, state, 0, modify({"op": "copilot", "card": "QH", "module": "S"}))


# --------------------------------------------------------------------------- PB-4 crew limits and forced discards


def test_pb_4_one_of_each_and_no_copilot_without_pilot():
    """PB-4: one Piloto, one Copiloto, one Potenciador; no Copiloto without a Piloto."""
    state = build(hands=(["QS", "JH", "AC"], []), panels=(panel(pilot="KS", booster="AH"), None))
    raises(g.E_PILOT_TAKEN, state, 0, modify({"op": "pilot", "card": "QS"}))
    raises(g.E_BOOSTER_TAKEN, state, 0, modify({"op": "booster", "card": "AC"}))
    state = build(hands=(["QS", "JH"], []))
    raises(g.E_COPILOT_NEEDS_PILOT, state, 0, modify({"op": "copilot", "card": "JH"}))
    after = pb.apply(state, 0, modify({"op": "pilot", "card": "QS"}, {"op": "copilot", "card": "JH"}))
    assert (after["panels"][0]["pilot"], after["panels"][0]["copilot"]) == ("QS", "JH")


def test_pb_4_pilot_stays_while_copilot_is_in_place():
    """PB-4 ruling: the Piloto cannot be removed while a Copiloto is in place."""
    state = build(panels=(panel(pilot="KS", copilot="QH"), None))
    raises(g.E_PILOT_HAS_COPILOT, state, 0, modify({"op": "remove", "card": "KS"}))
    after = pb.apply(state, 0, modify({"op": "remove", "card": "QH"}, {"op": "remove", "card": "KS"}))
    assert after["panels"][0]["pilot"] is None and {"KS", "QH"} <= set(after["discard"])


def test_pb_4_capacity_loss_forces_discards_of_the_owners_choice():
    """PB-4: removing A♠ shrinks Proyectiles from 4 to 2: the owner names the 2 cards to drop."""
    state = build(panels=(panel("2S", "5S", "8S", "10S", "3H", booster="AS"), None))
    raises(g.E_FORCED_COUNT, state, 0, modify({"op": "remove", "card": "AS"}))
    raises(g.E_FORCED_COUNT, state, 0, modify({"op": "remove", "card": "AS", "discard": ["2S"]}))
    raises(g.E_FORCED_CARD, state, 0, modify({"op": "remove", "card": "AS", "discard": ["2S", "3H"]}))
    after = pb.apply(state, 0, modify({"op": "remove", "card": "AS", "discard": ["2S", "10S"]}))
    assert after["panels"][0]["S"] == ["5S", "8S"]
    assert {"AS", "2S", "10S"} <= set(after["discard"])
    choices = [
        a["ops"][0]["discard"]
        for a in pb.legal_actions(state, 0)
        if a["type"] == "modify" and len(a["ops"]) == 1 and a["ops"][0]["card"] == "AS"
    ]
    assert len(choices) == 6  # C(4, 2)
    assert_conserved(after)


def test_pb_4_pilot_change_forces_a_discard_but_no_discard_when_it_fits():
    """PB-4: replacing a ♥ Piloto by a ♠ one shrinks Defensa from 3 to 2."""
    state = build(hands=(["KS"], []), panels=(panel("2H", "3H", "4H", pilot="QH"), None))
    after = pb.apply(
        state, 0, modify({"op": "remove", "card": "QH", "discard": ["3H"]}, {"op": "pilot", "card": "KS"})
    )
    assert after["panels"][0]["H"] == ["2H", "4H"] and after["panels"][0]["pilot"] == "KS"
    state = build(panels=(panel("2H", pilot="QH"), None))
    raises(g.E_FORCED_CARD, state, 0, modify({"op": "remove", "card": "QH", "discard": ["2H"]}))


# --------------------------------------------------------------------------- PB-5 mounted mecha


def test_pb_5_mounted_needs_pilot_six_cards_three_of_its_suit():
    """PB-5: Piloto + 6 module cards with 3 of the Piloto's suit."""
    assert is_mounted(panel("2S", "3S", "4S", "2H", "3H", "2C", pilot="KS"))
    assert not is_mounted(panel("2S", "3S", "4S", "2H", "3H", pilot="KS"))  # 5 cards
    assert not is_mounted(panel("2S", "3S", "2H", "3H", "2C", "3C", pilot="KS", copilot="QH", booster="AC"))
    assert not is_mounted(panel("2S", "3S", "4S", "2H", "3H", "2C"))  # no Piloto
    assert is_mounted(panel("2H", "3H", "4H", "2C", "3C", "2S", pilot="JH"))
    assert is_mounted(panel("2S", "3S", "2H", "3H", "4H", "2C", "3C", pilot="JH", copilot="QC"))


def test_pb_5_fuel_attack_needs_a_mounted_mecha():
    """PB-5, PB-11: five module cards are not a mounted mecha, so no fuel attack."""
    state = build(panels=(panel("9S", "10S", "8S", "2H", "3H", "9D", pilot="KS"), None))
    raises(g.E_NOT_MOUNTED, state, 0, {"type": "fuel_attack", "x": 10, "fuel": ["9D"], "extra": None})
    assert not any(a["type"] == "fuel_attack" for a in pb.legal_actions(state, 0))


# --------------------------------------------------------------------------- PB-7 deck exhaustion


def test_pb_7_short_pile_gives_what_it_has_and_is_not_refilled_at_once():
    """PB-7: burning 9♦ with 3 cards in the pile draws 3; the pile stays empty until the next draw,
    which shuffles the discard into a new pile."""
    rest = [c for c in DECK if c not in ("9D", "2S", "3S", "4S")]
    state = build(hands=(["9D"], []), deck=["2S", "3S", "4S"], discard=rest)
    after = pb.apply(state, 0, {"type": "burn", "card": "9D"})
    # 3 drawn by the burn; the opponent's turn draw then finds the pile empty and reshuffles
    assert after["hands"][0] == ["2S", "3S", "4S"]
    assert [e["type"] for e in after["events"]] == ["burn", "draw", "reshuffle", "draw"]
    assert after["events"][1]["count"] == 3
    assert len(after["hands"][1]) == 1 and len(after["deck"]) == len(rest)  # 42 + 9♦ - 1 drawn
    assert after["discard"] == []
    assert_conserved(after)


def test_pb_7_empty_pile_and_empty_discard_draw_nothing():
    """PB-7: with nothing to shuffle the draw takes nothing."""
    state = build(hands=(DECK[:26], DECK[26:]))
    after = pb.apply(state, 0, modify(place("2H")))
    assert after["deck"] == [] and len(after["hands"][1]) == 26
    assert after["events"][-1] == {"type": "draw", "seat": 1, "count": 0}
    assert_conserved(after)


# --------------------------------------------------------------------------- PB-8 modify


def test_pb_8_modify_one_or_two_operations():
    """PB-8: up to 2 operations (one allowed by ruling); removed cards go to the discard;
    replacing is remove + place."""
    state = build(hands=(["2H", "3H", "4C"], []), panels=(panel("9S"), None))
    raises(g.E_OPS, state, 0, modify())
    raises(g.E_OPS, state, 0, modify(place("2H"), place("3H"), place("4C")))
    after = pb.apply(state, 0, modify({"op": "remove", "card": "9S"}, place("4C")))
    assert after["panels"][0]["S"] == [] and after["panels"][0]["C"] == ["4C"] and "9S" in after["discard"]
    raises(g.E_NOT_ON_PANEL, state, 0, modify({"op": "remove", "card": "8S"}))
    raises(g.E_NOT_IN_HAND, state, 0, modify(place("5H")))
    raises(g.E_NOT_IN_HAND, state, 0, modify(place("2H"), place("2H")))


def test_pb_8_legal_modify_list_has_one_entry_per_distinct_result():
    """PB-8: the listed modify actions are legal and give pairwise distinct results."""
    state = build(hands=(["2H", "3H", "4C", "KS", "QD", "AS"], []), panels=(panel("9S", "5D"), None))
    mods = [a for a in pb.legal_actions(state, 0) if a["type"] == "modify"]
    results = set()
    for action in mods:
        after = pb.apply(state, 0, action)
        results.add(g.json.dumps([after["panels"][0], after["discard"]], sort_keys=True))
    assert len(results) == len(mods) > 30


# --------------------------------------------------------------------------- PB-9, PB-10 drawing


def test_pb_9_burn_draws_its_value():
    """PB-9: discard a numeric ♦ from hand, draw its value."""
    state = build(hands=(["6D", "KD"], []))
    after = pb.apply(state, 0, {"type": "burn", "card": "6D"})
    assert len(after["hands"][0]) == 1 + 6 and "6D" in after["discard"]
    raises(g.E_BURN_CARD, state, 0, {"type": "burn", "card": "KD"})
    raises(g.E_NOT_IN_HAND, state, 0, {"type": "burn", "card": "7D"})


def test_pb_9_burn_cooldown_not_two_turns_in_a_row():
    """PB-9: a player who burned on their last turn may not burn now; the turn after, they may."""
    state = build(hands=(["6D", "7D", "2H"], ["3H", "4H", "5H"]))
    state = pb.apply(state, 0, {"type": "burn", "card": "6D"})
    state = pb.apply(state, 1, modify(place("3H")))
    assert state["burned_last_turn"] == [True, False]
    raises(g.E_BURN_TWICE, state, 0, {"type": "burn", "card": "7D"})
    assert not any(a["type"] == "burn" for a in pb.legal_actions(state, 0))
    state = pb.apply(state, 0, modify(place("2H")))
    assert state["burned_last_turn"][0] is False
    state = pb.apply(state, 1, modify(place("4H")))
    assert {"type": "burn", "card": "7D"} in pb.legal_actions(state, 0)
    pb.apply(state, 0, {"type": "burn", "card": "7D"})


def test_pb_10_full_crew_discards_two_figures_draws_four():
    """PB-10: with Piloto and Copiloto on the panel, 2 figures from hand → 4 cards."""
    state = build(hands=(["JD", "QC", "2H"], []), panels=(panel(pilot="KS", copilot="QH"), None))
    after = pb.apply(state, 0, {"type": "crew_draw", "cards": ["QC", "JD"]})
    assert len(after["hands"][0]) == 1 + 4 and {"JD", "QC"} <= set(after["discard"])
    raises(g.E_CREW_CARDS, state, 0, {"type": "crew_draw", "cards": ["QC", "2H"]})
    raises(g.E_CREW_CARDS, state, 0, {"type": "crew_draw", "cards": ["QC"]})
    lonely = build(hands=(["JD", "QC"], []), panels=(panel(pilot="KS"), None))
    raises(g.E_CREW_NEEDED, lonely, 0, {"type": "crew_draw", "cards": ["QC", "JD"]})


# --------------------------------------------------------------------------- PB-11 fuel attack


def attacker() -> dict:
    """A mounted ♠ mecha: ♠ total 22, fuel 4♦ 5♦ 8♦."""
    return panel("6S", "7S", "9S", "2H", "3H", "2C", "4D", "5D", "8D", pilot="KS")


def fuel_attack(x, fuel, extra=None) -> dict:
    return {"type": "fuel_attack", "x": x, "fuel": fuel, "extra": extra}


def test_pb_11_fuel_attack_bound_and_payment():
    """PB-11: X <= ♠ total (22); pay >= ceil(X/2) in ♦ from Combustible; the ♠ stay."""
    state = build(panels=(attacker(), None))
    raises(g.E_ATTACK_VALUE, state, 0, fuel_attack(23, ["4D", "5D", "8D"]))
    raises(g.E_ATTACK_VALUE, state, 0, fuel_attack(0, ["4D"]))
    raises(g.E_FUEL_SHORT, state, 0, fuel_attack(19, ["4D", "5D"]))
    raises(g.E_FUEL_SHORT, state, 0, fuel_attack(5, []))
    after = pb.apply(state, 0, fuel_attack(17, ["4D", "5D"]))
    assert after["pending"] == {"attacker": 0, "attack": 17, "kind": "fuel"}
    assert after["panels"][0]["S"] == ["6S", "7S", "9S"] and after["panels"][0]["D"] == ["8D"]
    assert pb.to_move(after) == [1] and after["first_attack"]


def test_pb_11_overpayment_is_accepted_and_lost():
    """PB-11: paying more than needed is legal; the fuel is all discarded."""
    state = build(panels=(attacker(), None))
    after = pb.apply(state, 0, fuel_attack(4, ["5D", "8D"]))
    assert after["panels"][0]["D"] == ["4D"] and {"5D", "8D"} <= set(after["discard"])
    assert fuel_attack(4, ["5D", "8D"]) not in pb.legal_actions(state, 0)  # listed: minimal payments only
    assert fuel_attack(16, ["8D"], None) in pb.legal_actions(state, 0)


def test_pb_11_extra_projectile_adds_and_is_discarded_not_in_the_bound():
    """PB-11 ruling: the extra ♠ is discarded, adds its value and is not part of the bound."""
    state = build(panels=(attacker(), None))
    raises(g.E_ATTACK_VALUE, state, 0, fuel_attack(14, ["8D"], "9S"))  # bound is 6 + 7 = 13
    after = pb.apply(state, 0, fuel_attack(13, ["4D", "5D"], "9S"))
    assert after["pending"]["attack"] == 22 and after["panels"][0]["S"] == ["6S", "7S"]
    raises(g.E_EXTRA, state, 0, fuel_attack(5, ["4D"], "8S"))


def test_pb_11_ace_of_diamonds_burns_clubs_never_mixed():
    """PB-11, PB-3: with A♦ active, ♣ from the Armadura pay as fuel; never both kinds at once."""
    attacker = panel("6S", "7S", "9S", "2H", "3H", "5C", "9C", "4D", pilot="KS", booster="AD")
    state = build(panels=(attacker, None))
    after = pb.apply(state, 0, fuel_attack(18, ["9C"]))
    assert after["panels"][0]["C"] == ["5C"] and "9C" in after["discard"]
    raises(g.E_FUEL_KIND, state, 0, fuel_attack(18, ["9C", "4D"]))
    assert fuel_attack(18, ["9C"]) in pb.legal_actions(state, 0)
    without = build(panels=(dict(attacker, booster=None), None))
    raises(g.E_FUEL_KIND, without, 0, fuel_attack(18, ["9C"]))
    raises(g.E_FUEL_KIND, state, 0, fuel_attack(4, ["6S"]))


def test_pb_11_listed_fuel_attacks_are_minimal_and_maximal():
    """PB-11: each listed payment is inclusion-minimal and declares the largest X it pays for."""
    state = build(panels=(attacker(), None))
    attacks = [a for a in pb.legal_actions(state, 0) if a["type"] == "fuel_attack"]
    assert attacks
    for a in attacks:
        bound = sum(int(c[:-1]) for c in state["panels"][0]["S"] if c != a["extra"])
        paid = sum(int(c[:-1]) for c in a["fuel"])
        assert a["x"] == min(bound, 2 * paid)
        assert all(paid - int(c[:-1]) < (a["x"] + 1) // 2 for c in a["fuel"])
        pb.apply(state, 0, a)


# --------------------------------------------------------------------------- PB-12 projectile attack


def test_pb_12_projectile_only_after_the_games_first_attack():
    """PB-12: not before anyone has attacked; afterwards one ♠ from the panel, no mount, no fuel."""
    state = build(panels=(panel("8S"), None))
    raises(g.E_NO_FIRST_ATTACK, state, 0, {"type": "projectile", "card": "8S"})
    assert not any(a["type"] == "projectile" for a in pb.legal_actions(state, 0))
    state["first_attack"] = True
    assert {"type": "projectile", "card": "8S"} in pb.legal_actions(state, 0)
    after = pb.apply(state, 0, {"type": "projectile", "card": "8S"})
    assert after["pending"]["attack"] == 8 and "8S" in after["discard"] and after["panels"][0]["S"] == []
    raises(g.E_PROJECTILE, state, 0, {"type": "projectile", "card": "9S"})


def test_pb_12_the_first_attack_opens_projectiles_for_both_players():
    """PB-12: after seat 0's fuel attack, seat 1 may fire a projectile."""
    state = build(hands=((), ["2D"]), panels=(attacker(), panel("5S", "10H")))
    state = pb.apply(state, 0, fuel_attack(8, ["4D"]))
    state = pb.apply(state, 1, {"type": "dodge", "card": None})
    assert {"type": "projectile", "card": "5S"} in pb.legal_actions(state, 1)


# --------------------------------------------------------------------------- PB-13 pass


def test_pb_13_pass_discards_two_or_all():
    """PB-13: pass discards 2 cards from hand; all of them with fewer than 2 (ruling)."""
    state = build(hands=(["2H", "3H", "4H"], []))
    after = pb.apply(state, 0, {"type": "pass", "cards": ["4H", "2H"]})
    assert after["hands"][0] == ["3H"] and {"2H", "4H"} <= set(after["discard"])
    raises(g.E_PASS_COUNT, state, 0, {"type": "pass", "cards": ["2H"]})
    raises(g.E_TWICE, state, 0, {"type": "pass", "cards": ["2H", "2H"]})
    one = build(hands=(["2H"], []))
    assert pb.legal_actions(one, 0)[-1] == {"type": "pass", "cards": ["2H"]}
    empty = build()
    assert pb.legal_actions(empty, 0) == [{"type": "pass", "cards": []}]
    assert pb.apply(empty, 0, {"type": "pass", "cards": []})["current"] == 1


# --------------------------------------------------------------------------- PB-14..PB-17 defence and damage


def attacked(defender_panel, defender_hand=(), attack=12) -> dict:
    return build(
        hands=((), list(defender_hand)),
        panels=(None, defender_panel),
        phase=g.DODGE,
        pending={"attacker": 0, "attack": attack, "kind": "fuel"},
        first_attack=True,
    )


def test_pb_14_defender_may_dodge_with_one_hand_diamond():
    """PB-14: the defender moves next; one numeric ♦ from hand lowers the attack."""
    state = attacked(panel("4C"), ["5D", "KD", "3H"], attack=8)
    assert pb.to_move(state) == [1]
    assert pb.legal_actions(state, 1) == [{"type": "dodge", "card": None}, {"type": "dodge", "card": "5D"}]
    after = pb.apply(state, 1, {"type": "dodge", "card": "5D"})
    assert after["panels"][1]["C"] == ["4C"] and "5D" in after["discard"]  # 3 does not beat 4
    raises(g.E_DODGE_CARD, state, 1, {"type": "dodge", "card": "KD"})
    raises(g.E_DODGE_CARD, state, 1, {"type": "dodge", "card": "3H"})
    raises(g.E_NOT_IN_HAND, state, 1, {"type": "dodge", "card": "7D"})
    raises(g.E_UNKNOWN_ACTION, state, 1, {"type": "pass", "cards": []})
    raises(g.E_NOT_YOUR_TURN, state, 0, {"type": "dodge", "card": None})


def test_pb_15_armour_then_hearts_strictly_greater():
    """PB-15: lowest first, lost only if strictly greater; lost ♣ to the discard, ♥ leave the game."""
    state = attacked(panel("2C", "3C", "4H", "9H"), attack=10)
    after = pb.apply(state, 1, {"type": "dodge", "card": None})
    # 10 > 2 → 8 > 3 → 5 > 4 → 1 vs 9 survives
    assert after["panels"][1]["C"] == [] and after["panels"][1]["H"] == ["9H"]
    assert {"2C", "3C"} <= set(after["discard"]) and after["removed"] == ["4H"]
    assert "4H" not in after["discard"]
    assert pb.resolve_damage(4, None, [4], [2]) == ((), (), False)  # equal does not beat


def test_pb_16_losing_the_last_heart_collapses_and_ends_the_game():
    """PB-16: the attacker wins at once when the last heart falls."""
    state = attacked(panel("3C", "5H"), attack=9)
    after = pb.apply(state, 1, {"type": "dodge", "card": None})
    assert pb.outcome(after) == {"winners": [0], "draw": False, "scores": {"0": 0, "1": 0}}
    assert pb.to_move(after) == [] and pb.legal_actions(after, 0) == []
    raises(g.E_GAME_OVER, after, 0, {"type": "pass", "cards": []})


def test_pb_16_no_hearts_collapses_when_damage_reaches_them():
    """PB-16 ruling: no hearts + damage past the armour → collapse; stopped by armour → none."""
    assert pb.resolve_damage(1, None, [], []) == ((), (), True)
    assert pb.resolve_damage(5, None, [3], []) == ((3,), (), True)
    assert pb.resolve_damage(3, None, [3], []) == ((), (), False)
    assert pb.resolve_damage(5, 5, [], []) == ((), (), False)
    state = attacked(panel("2S"), attack=1)
    assert pb.outcome(pb.apply(state, 1, {"type": "dodge", "card": None}))["winners"] == [0]


def test_pb_17_worked_example():
    """PB-17: attack 12, dodge 5♦ → 7; armour 2♣ 4♣ 7♣: loses 2♣ and 4♣, 7♣ survives, hearts kept."""
    assert pb.resolve_damage(12, 5, [7, 2, 4], [6, 3]) == ((2, 4), (), False)
    state = attacked(panel("2C", "4C", "7C", "3H", "6H"), ["5D"], attack=12)
    after = pb.apply(state, 1, {"type": "dodge", "card": "5D"})
    assert after["panels"][1]["C"] == ["7C"] and after["panels"][1]["H"] == ["3H", "6H"]
    damage = next(e for e in after["events"] if e["type"] == "damage")
    assert damage["attack"] == 7 and damage["armor_lost"] == ["2C", "4C"]
    assert_conserved(after)


def test_pb_17_resolve_damage_rejects_non_numbers():
    """PB-17 API: resolve_damage takes whole numbers."""
    with pytest.raises(IllegalAction):
        pb.resolve_damage("12", None, [], [])


# --------------------------------------------------------------------------- PB-18 turn limit


def test_pb_18_draw_after_300_turns():
    """PB-18 ruling: the game is drawn when turn 300 ends without a collapse."""
    state = build(hands=(["2H"], []), turn=pb.MAX_TURNS - 1)
    after = pb.apply(state, 0, {"type": "pass", "cards": ["2H"]})
    assert pb.outcome(after) == {"winners": [], "draw": True, "scores": {"0": 0, "1": 0}}
    assert pb.to_move(after) == []
    early = build(hands=(["2H"], []), turn=pb.MAX_TURNS - 2)
    assert pb.outcome(pb.apply(early, 0, {"type": "pass", "cards": ["2H"]})) is None


def test_pb_18_an_attack_on_turn_300_resolves_before_the_draw():
    """PB-18: the 300th turn's attack is dodged and resolved; a collapse then still wins."""
    state = build(panels=(attacker(), panel("3C")), turn=pb.MAX_TURNS - 1)
    state = pb.apply(state, 0, fuel_attack(8, ["4D"]))
    assert pb.outcome(state) is None
    assert pb.outcome(pb.apply(state, 1, {"type": "dodge", "card": None}))["winners"] == [0]


# --------------------------------------------------------------------------- protocol


def test_doctests():
    """The docstring examples (PB-3 capacities, PB-17 damage, PB-1 ranks) hold."""
    import doctest

    from cardgames.engines.pocobot import cards, panel as panel_module

    for module in (pb, cards, panel_module):
        assert doctest.testmod(module).failed == 0


def test_registry_and_view_hides_hands_and_pile():
    """The engine is registered; a view shows the own hand, counts for the rest."""
    assert get("pocobot") is pb
    state = pb.new_game(2, 5)
    for seat in (0, 1):
        v = pb.view(state, seat)
        assert v["hand"] == state["hands"][seat]
        assert v["hand_counts"] == [len(h) for h in state["hands"]] and v["deck_count"] == len(state["deck"])
        assert "deck" not in v and "hands" not in v
    assert pb.view(state, None)["hand"] is None
    with pytest.raises(IllegalAction):
        pb.view(state, 5)


def test_json_round_trip_and_determinism():
    """to_json/from_json are lossless; the same seed and actions give the same states."""
    a, b = pb.new_game(2, 42), pb.new_game(2, 42)
    assert a == b and pb.from_json(pb.to_json(a)) == a
    assert pb.from_json(g.json.dumps(a)) == a
    with pytest.raises(IllegalAction):
        pb.from_json({"game": "boom"})
    assert pb.new_game(2, 43) != a
