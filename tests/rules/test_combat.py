"""FR-CMB: one combat turn as a pure state machine, the pistol duel, and the book's example."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules import RulesError
from frontera.rules import combat as cmb
from frontera.rules.cards import RANKS, Card

REVOLVER = cmb.weapon("revolver", kind="ranged", damage=1,
                      bands={"adyacente": -1, "corto": 0, "medio": 0, "largo": None})
RIFLE = cmb.weapon("rifle", kind="ranged", damage=2,
                   bands={"adyacente": -1, "corto": 0, "medio": 0, "largo": 0})
BOW = cmb.weapon("arco", kind="ranged", damage=1,
                 bands={"adyacente": -1, "corto": 0, "medio": 0, "largo": -1})
KNIFE = cmb.weapon("cuchillo", kind="thrown", damage=1, knife=True, bands={"adyacente": -1, "corto": 0})
DAGGER = cmb.weapon("daga", kind="melee", damage=1, knife=True)
LASSO = cmb.weapon("lazo", kind="thrown", lasso=True, bands={"adyacente": -1, "corto": 0})
WHIP = cmb.weapon("latigo", kind="thrown", whip=True, bands={"adyacente": 0, "corto": 0})
FAST_REVOLVER = {"technique": "disparo_rapido", "weapon": "revolver"}
FAST_RIFLE = {"technique": "disparo_rapido", "weapon": "rifle"}


def traits(manos=1, sentidos=1, musculo=1, cabeza=1):
    return {"manos": manos, "sentidos": sentidos, "musculo": musculo, "cabeza": cabeza}


def pc(key, **kw):
    kw.setdefault("traits", traits())
    kw.setdefault("aguante", 5)
    return cmb.combatant(key, side="posse", **kw)


def minion(key, **kw):
    kw.setdefault("cards", 3)
    kw.setdefault("aguante", 5)
    return cmb.combatant(key, side="gang", is_npc=True, **kw)


def djamal():
    return pc("djamal", traits=traits(manos=6, sentidos=2), skills=["disparo_rapido"], aguante=6,
              weapons=[REVOLVER])


def coyote():
    return pc("coyote", traits=traits(sentidos=4, manos=2), skills=["apuntar"], aguante=8, weapons=[BOW])


def gang():
    return [minion(f"m{n}", weapons=[RIFLE], cover="total") for n in (1, 2, 3)]


def step(state, operation, *args, **kw):
    """Apply an operation and check the input was not modified and the result is plain JSON."""
    before = copy.deepcopy(state)
    new, events = operation(state, *args, **kw)
    assert state == before
    assert json.loads(json.dumps(new)) == new
    json.dumps(events)
    return new


def refused(state, operation, *args, match=None, **kw):
    """The operation raises a readable RulesError and leaves the state unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(RulesError, match=match):
        operation(state, *args, **kw)
    assert state == before


def attack(state, key, cards, plays, **decl):
    state = step(state, cmb.declare, key, **decl)
    state = step(state, cmb.hand_in, key, cards)
    return step(state, cmb.choose, key, plays)


def duel_pair(a_kw=None, b_kw=None):
    a = pc("a", traits=traits(manos=3), skills=["disparo_rapido"], weapons=[REVOLVER], **(a_kw or {}))
    b = pc("b", traits=traits(manos=2), weapons=[RIFLE], **(b_kw or {}))
    return a, b


# --- FR-CMB-16: the book's example, corrected -------------------------------------------------------


def book_example_turn():
    state = cmb.new_round([djamal(), coyote(), *gang()])
    shots = {"m1": (["QC", "6S", "9C"], "6S", "coyote"), "m2": (["8H", "2H", "AC"], "AC", "djamal"),
             "m3": (["3C", "KC", "4S"], "4S", "djamal")}
    for key, (drawn, card, target) in shots.items():
        state = attack(state, key, drawn, [(card, target)], **FAST_RIFLE,
                       targets={target: "medio"})
    state = step(state, cmb.declare, "djamal", **FAST_REVOLVER,
                 targets={"m1": "medio", "m2": "medio"}, move={"band": "adyacente", "cover": "partial"})
    assert cmb.cards_to_draw(state, "djamal") == 8 and state["max_plays"]["djamal"] == 4
    state = step(state, cmb.hand_in, "djamal", ["6C", "5C", "9H", "5D", "7S", "6H", "JS", "QS"])
    state = step(state, cmb.choose, "djamal", [("QS", "m1"), ("JS", "m1"), ("7S", "m2"), ("5C", "m2")])
    state = attack(state, "coyote", ["9S", "JH", "9D", "3S", "KD", "5H"], [("9S", "m3")],
                   technique="apuntar", weapon="arco", targets={"m3": "medio"}, move={"cover": "partial"})
    assert state["required"]["coyote"] == 6
    return step(state, cmb.reveal)


def test_fr_cmb_16_djamal_against_the_minions():
    """FR-CMB-16: Q♠ and J♠ on minion 1 deal 2 + 2 = 4 → dead; 7♠ on minion 2 deals 2 − 2 = 0;
    the 4♠ that hits Djamal deals 3 − 3 = 0; minions have Aguante 5 + 2 (total cover) = 7."""
    result = book_example_turn()["result"]
    by_card = {rec["label"]: rec for rec in result["plays"]}
    for label in ("Q♠", "J♠"):
        assert by_card[label]["hit"] and by_card[label]["target"] == "m1"
        assert (by_card[label]["damage"], by_card[label]["aguante"], by_card[label]["taken"]) == (2, 7, 2)
    assert (by_card["7♠"]["damage"], by_card["7♠"]["aguante"], by_card["7♠"]["taken"]) == (2, 7, 0)
    assert not by_card["5♣"]["hit"]
    hit = by_card["4♠"]
    assert (hit["target"], hit["damage"], hit["aguante"], hit["taken"]) == ("djamal", 3, 6, 0)
    assert result["targets"]["m1"]["health_after"] == -4  # Muerto
    assert "m2" not in result["targets"] and "djamal" not in result["targets"]


def test_fr_cmb_16_rest_of_the_example():
    """FR-CMB-16 / FR-CMB-8: the 6♠ on Coyote (Aguante 8) deals 3 − 3 = 0; minion 2 misses with A♣."""
    result = book_example_turn()["result"]
    by_card = {rec["label"]: rec for rec in result["plays"]}
    assert (by_card["6♠"]["hit"], by_card["6♠"]["damage"], by_card["6♠"]["taken"]) == (True, 3, 0)
    assert not by_card["A♣"]["hit"]


def test_fr_cmb_5_book_apuntar_with_a_spade_misses():
    """FR-CMB-5 ruling: Coyote's Apuntar (Sentidos, ♣) with 9♠ misses, contrary to the book's example."""
    result = book_example_turn()["result"]
    shot = next(rec for rec in result["plays"] if rec["attacker"] == "coyote")
    assert not shot["hit"] and shot["taken"] == 0
    assert shot["explain"]["template"] == cmb.X_MISS
    assert shot["explain"]["params"]["suit"] == "♣"


def test_fr_cmb_8_each_hit_carries_its_explanation():
    """FR-CMB-7/8/9: the explanation data names card, Aguante with its cover, and the damage formula."""
    rec = next(r for r in book_example_turn()["result"]["plays"] if r["label"] == "7♠")
    params = rec["explain"]["params"]
    assert rec["explain"]["template"] == cmb.X_DAMAGE
    assert params.items() >= {"value": 7, "cmp": "=", "aguante": 7, "aguante_base": 5, "cover_bonus": 2,
                              "mount_bonus": 0, "damage": 2, "base": 1, "weapon": 1, "reduction": 2,
                              "taken": 0}.items()
    assert "7♠ (7) = Aguante 7 (5 + 2 cover + 0 mount)" in rec["explain"]["template"] % params


# --- FR-CMB-8 / -7: damage arithmetic --------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "value", "aguante", "taken"),
    [(4, 6, 8, 1), (3, 7, 7, 1), (2, 12, 7, 2), (3, 4, 6, 0), (2, 7, 7, 0), (5, 15, 14, 5), (1, 2, 9, 0)],
)
def test_fr_cmb_8_damage_taken(damage, value, aguante, taken):
    """FR-CMB-8: below Aguante −3, equal −2, above full damage, never below 0 (book: 4 → 1, 3 → 1)."""
    assert cmb.damage_taken(damage, value, aguante) == taken


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 12), st.integers(2, 15), st.integers(0, 20))
def test_fr_cmb_8_damage_taken_is_bounded_and_monotonic(damage, value, aguante):
    """FR-CMB-8: damage taken is never negative, never more than the damage, and grows with the card."""
    taken = cmb.damage_taken(damage, value, aguante)
    assert 0 <= taken <= damage
    if value < 15:
        assert cmb.damage_taken(damage, value + 1, aguante) >= taken
    assert cmb.damage_taken(damage, value, aguante + 1) <= taken


@pytest.mark.parametrize("args", [(-1, 5, 5), (2, -3, 5), (2, 5, "7"), (True, 5, 5)])
def test_fr_cmb_8_damage_taken_rejects_bad_input(args):
    with pytest.raises(RulesError):
        cmb.damage_taken(*args)


def test_fr_cmb_7_damage_dealt_per_technique():
    """FR-CMB-7: Pelea/melee/thrown base 1 (2 with Fuerza); Disparo rápido 1; Apuntar 3; + weapon;
    unarmed Pelea adds nothing."""
    plain = pc("p", weapons=[DAGGER, RIFLE, KNIFE])
    strong = pc("s", skills=["fuerza"], weapons=[DAGGER, KNIFE])
    assert cmb.damage_dealt(plain, "pelea", None) == 1
    assert cmb.damage_dealt(strong, "pelea", None) == 2
    assert cmb.damage_dealt(plain, "melee", DAGGER) == 2
    assert cmb.damage_dealt(strong, "thrown", KNIFE) == 3
    assert cmb.damage_dealt(plain, "disparo_rapido", RIFLE) == 3
    assert cmb.damage_dealt(strong, "disparo_rapido", REVOLVER) == 2
    assert cmb.damage_dealt(plain, "apuntar", RIFLE) == 5


# --- FR-CMB-1: order, secrecy, reveal ----------------------------------------------------------------


def test_fr_cmb_1_npcs_declare_and_draw_first():
    state = cmb.new_round([djamal(), *gang()[:1]])
    refused(state, cmb.declare, "djamal", action="other", match="non-player characters declare")
    refused(state, cmb.cards_to_draw, "djamal", match="not declared")
    state = step(state, cmb.declare, "m1", **FAST_RIFLE, targets={"djamal": "medio"})
    refused(state, cmb.declare, "djamal", action="other", match="waiting for m1")
    state = step(state, cmb.hand_in, "m1", ["2C", "3C", "4C"])
    state = step(state, cmb.declare, "djamal", action="other")
    assert state["order"] == ["m1", "djamal"]


def test_fr_cmb_1_choices_stay_secret_until_reveal():
    """FR-CMB-1: nobody sees another's chosen cards before the reveal; unchosen cards stay hidden after."""
    state = cmb.new_round([djamal(), *gang()[:1]])
    state = attack(state, "m1", ["2C", "3S", "4C"], [("3S", "djamal")], technique="disparo_rapido",
                   weapon="rifle", targets={"djamal": "medio"})
    state = attack(state, "djamal", ["QS", "2H"], [("QS", "m1")], technique="disparo_rapido",
                   weapon="revolver", targets={"m1": "medio"})
    djamal_view, mayor_view, spectator = (cmb.view(state, v) for v in ("djamal", ["m1"], None))
    assert djamal_view["hands"] == {"djamal": ["1:QS", "1:2H"]} and set(djamal_view["plays"]) == {"djamal"}
    assert mayor_view["hands"] == {"m1": ["1:2C", "1:3S", "1:4C"]} and set(mayor_view["plays"]) == {"m1"}
    assert spectator["hands"] == {} and spectator["plays"] == {}
    assert spectator["chosen"] == ["djamal", "m1"] and spectator["hand_sizes"] == {"m1": 3, "djamal": 2}
    assert spectator["declarations"]["m1"]["targets"] == {"djamal": "medio"}  # announced aloud
    assert "1:3S" not in json.dumps(djamal_view) and "1:QS" not in json.dumps(mayor_view)
    revealed = step(state, cmb.reveal)
    after = cmb.view(revealed, "djamal")
    assert after["plays"]["m1"][0]["card"] == "1:3S" and after["phase"] == "revealed"
    assert "m1" not in after["hands"] and "1:2C" not in json.dumps(after)


def test_fr_cmb_1_reveal_waits_for_everyone():
    state = cmb.new_round([djamal(), *gang()[:1]])
    state = attack(state, "m1", ["2C", "3S", "4C"], [("3S", "djamal")], technique="disparo_rapido",
                   weapon="rifle", targets={"djamal": "medio"})
    assert cmb.phase(state) == "declare"
    refused(state, cmb.reveal, match="waiting for djamal")
    state = step(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"m1": "medio"})
    state = step(state, cmb.hand_in, "djamal", ["QS"])
    assert cmb.phase(state) == "choose"
    refused(state, cmb.reveal, match="djamal")
    state = step(state, cmb.choose, "djamal", ["QS"])
    assert cmb.phase(state) == "reveal"
    assert step(state, cmb.reveal)["revealed"]


def test_fr_cmb_1_every_step_validates_and_leaves_state_unchanged():
    """Choosing an undrawn card, two cards for a one-card technique, an undeclared target, choosing
    twice and acting after the reveal are refused (FR-CHK-2, FR-CMB-6)."""
    state = cmb.new_round([coyote(), *gang()[:2]])
    state = attack(state, "m1", ["2C"], [("2C", "coyote")], **FAST_RIFLE,
                   targets={"coyote": "medio"})
    state = attack(state, "m2", ["2D"], [("2D", "coyote")], **FAST_RIFLE,
                   targets={"coyote": "medio"})
    state = step(state, cmb.declare, "coyote", technique="apuntar", weapon="arco", targets={"m1": "medio"})
    refused(state, cmb.hand_in, "coyote", ["2S"] * 2, match="appears twice")
    refused(state, cmb.hand_in, "coyote", ["2C"], match="already in the hand of m1")
    refused(state, cmb.hand_in, "coyote", [f"{n}S" for n in range(2, 10)], match="draws 6 cards, not 8")
    refused(state, cmb.choose, "coyote", [("9C", "m1")], match="has not drawn yet")
    state = step(state, cmb.hand_in, "coyote", ["9C", "KC", "3H"])
    refused(state, cmb.hand_in, "coyote", ["4C"], match="already drawn")
    refused(state, cmb.choose, "coyote", [("10C", "m1")], match="was not drawn")
    refused(state, cmb.choose, "coyote", [("9C", "m1"), ("KC", "m1")], match="at most 1 card")
    refused(state, cmb.choose, "coyote", [("9C", "m2")], match="not declared as a target")
    refused(state, cmb.choose, "coyote", [("9C", "nobody")], match="not declared as a target")
    refused(state, cmb.choose, "coyote", [], match="at least one card")
    refused(state, cmb.choose, "coyote", [42], match="A play is")
    state = step(state, cmb.choose, "coyote", ["KC"])
    refused(state, cmb.choose, "coyote", ["9C"], match="already chosen")
    refused(state, cmb.choose, "m1", ["2C"], match="already chosen")
    refused(state, cmb.declare, "coyote", action="other", match="already declared")
    refused(state, cmb.declare, "ghost", action="other", match="nobody called ghost")
    refused(state, cmb.next_turn, match="not been revealed")
    state = step(state, cmb.reveal)
    for operation, args in ((cmb.declare, ("coyote",)), (cmb.hand_in, ("coyote", ["2H"])),
                            (cmb.choose, ("coyote", ["9C"])), (cmb.reveal, ())):
        refused(state, operation, *args, match="already revealed")


def test_fr_card_2_a_played_joker_needs_its_suit():
    """FR-CARD-2 in combat: the joker hits with the suit declared when played (value 15)."""
    state = cmb.new_round([djamal(), minion("m1", cards=0)])
    state = step(state, cmb.declare, "m1", action="other")
    state = step(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"m1": "corto"})
    state = step(state, cmb.hand_in, "djamal", [Card.parse("JK", copy=2), "2H"])
    refused(state, cmb.choose, "djamal", ["1:JK2"], match="which suit the joker")
    refused(state, cmb.choose, "djamal", [("2H", "m1", "S")], match="Only a joker")
    state = step(state, cmb.choose, "djamal", [{"card": "1:JK2", "target": "m1", "suit": "S"}])
    rec = step(state, cmb.reveal)["result"]["plays"][0]
    assert rec["hit"] and rec["value"] == 15 and rec["taken"] == 2


def test_fr_cmb_1_state_round_trips_through_json():
    state = book_example_turn()
    assert json.loads(json.dumps(state)) == state
    following = step(state, cmb.next_turn)
    assert json.loads(json.dumps(following)) == following


# --- FR-CMB-2 / -3: act or move; positions change at the end of the turn ----------------------------


def test_fr_cmb_2_move_only_reaches_corto_and_draws_nothing():
    state = cmb.new_round([djamal(), coyote()])
    state = step(state, cmb.declare, "djamal", action="move", move={"band": "corto", "cover": "total"})
    assert state["required"]["djamal"] == 0
    refused(state, cmb.hand_in, "djamal", ["2S"], match="draws no cards")
    refused(state, cmb.declare, "coyote", technique="apuntar", weapon="arco", targets={"djamal": "medio"},
            move={"band": "corto"}, match="adyacente only")
    refused(state, cmb.declare, "coyote", action="attack", match="not a combat technique")
    refused(state, cmb.declare, "coyote", action="dance", match="Declare an attack technique")


def test_the_next_turn_keeps_each_attack_declared_for_its_declaration_to_start_from():
    """The next turn carries what each fighter attacked with and whom (technique, weapon, special,
    targets at their bands), so the page's declaration starts from it; a fighter who only moved
    has none. No rule reads it: the turn's own declarations start empty (FR-CMB-3)."""
    state = attack(cmb.new_round([djamal(), minion("m1", weapons=[RIFLE])]), "m1", ["7S"], [("7S", "djamal")],
                   **FAST_RIFLE, targets={"djamal": "medio"})
    state = step(state, cmb.declare, "djamal", action="move", move={"band": "corto", "cover": "partial"})
    state = step(step(state, cmb.reveal), cmb.next_turn)
    assert state["previous"] == {"m1": {"technique": "disparo_rapido", "weapon": "rifle", "special": None,
                                        "targets": {"djamal": "medio"}}}
    assert state["declarations"] == {}


def test_fr_cmb_9_attack_refusal_says_what_declare_would_refuse_as_the_fighter_stands():
    """A page starts a declaration only from an attack the engine takes: Apuntar from total cover is
    refused (FR-CMB-9) as ``declare`` refuses it; the same shot from the open is not; nothing changes."""
    state = cmb.new_round([djamal(), minion("m1", weapons=[RIFLE], cover="total")])
    before = copy.deepcopy(state)
    aim = {"technique": "apuntar", "weapon": "rifle", "targets": {"djamal": "medio"}, "special": None}
    refusal = cmb.attack_refusal(state, "m1", **aim)
    assert refusal is not None and "total cover" in str(refusal.template)
    with pytest.raises(RulesError) as declared:
        cmb.declare(state, "m1", **aim)
    assert declared.value.template == refusal.template
    assert cmb.attack_refusal(state, "m1", **{**aim, "technique": "disparo_rapido"}) is None
    assert state == before


def test_fr_cmb_3_new_cover_counts_only_from_the_next_turn():
    """FR-CMB-3: Djamal ducks into partial cover this turn; a shot at him this turn still finds him
    exposed (Aguante 6), next turn his Aguante is 7."""
    def shoot_djamal(state):
        state = attack(state, "m1", ["7S"], [("7S", "djamal")], **FAST_RIFLE,
                       targets={"djamal": "medio"})
        return state

    state = shoot_djamal(cmb.new_round([djamal(), minion("m1", weapons=[RIFLE])]))
    state = step(state, cmb.declare, "djamal", action="move", move={"band": "corto", "cover": "partial"})
    state = step(state, cmb.reveal)
    rec = state["result"]["plays"][0]
    assert (rec["aguante"], rec["taken"]) == (6, 3)
    assert state["result"]["moves"]["djamal"]["cover"] == "partial"
    state = step(state, cmb.next_turn)
    assert state["turn"] == 2 and state["combatants"]["djamal"]["cover"] == "partial"
    assert state["combatants"]["djamal"]["health"] == -3
    refused(state, cmb.declare, "djamal", action="other", match="cannot act this turn: Incapacitado")


def test_fr_cmb_3_damage_carries_into_the_draw_penalty():
    """FR-CMB-3 and FR-HLT-1: a Herido character draws one card less next turn."""
    state = cmb.new_round([djamal(), minion("m1", weapons=[RIFLE])])
    state = attack(state, "m1", ["6S"], ["6S"], **FAST_RIFLE,
                   targets={"djamal": "corto"})
    state = step(state, cmb.declare, "djamal", action="other")
    state = step(cmb.reveal(state)[0], cmb.next_turn)
    assert state["combatants"]["djamal"]["health"] == -1 and state["combatants"]["djamal"]["penalty"] == 1
    state = step(state, cmb.declare, "m1", action="other")
    state = step(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"m1": "corto"})
    assert state["required"]["djamal"] == 7


def test_fr_hlt_1_health_lost_in_one_turn_stops_at_muerto():
    brute = pc("brute", traits=traits(manos=8), skills=["pelea", "fuerza"])
    state = cmb.new_round([brute, minion("m1", cards=0)])
    state = step(state, cmb.declare, "m1", action="other")
    state = attack(state, "brute", ["AS", "KS", "QS", "JS", "10S"], ["AS", "KS", "QS", "JS", "10S"],
                   technique="pelea", targets={"m1": "adyacente"})
    totals = step(state, cmb.reveal)["result"]["targets"]["m1"]
    assert (totals["damage"], totals["health_after"], totals["health_lost"]) == (10, -4, 4)


# --- FR-CMB-4 / -6: technique, cards drawn, cards played ----------------------------------------------


def test_fr_cmb_4_technique_fixes_trait_and_skill():
    hero = pc("hero", traits=traits(manos=3, sentidos=2), skills=["pelea", "apuntar"],
              weapons=[RIFLE, DAGGER])
    assert cmb.check_cards(hero, "pelea") == 5
    assert cmb.check_cards(hero, "melee") == 5
    assert cmb.check_cards(hero, "disparo_rapido") == 3
    assert cmb.check_cards(hero, "apuntar") == 4
    assert cmb.check_cards(minion("m", cards=3, penalty=1), "apuntar", -1) == 1


def test_fr_cmb_4_apuntar_hits_only_with_clubs_and_pelea_with_spades():
    state = cmb.new_round([pc("a", traits=traits(sentidos=3), weapons=[RIFLE]), pc("b", skills=["pelea"]),
                           minion("m", cards=0, aguante=0)])
    state = step(state, cmb.declare, "m", action="other")
    state = attack(state, "a", ["2C", "AS"], ["2C"], technique="apuntar", weapon="rifle",
                   targets={"m": "medio"})
    state = attack(state, "b", ["2S", "AC", "KH"], ["AC"], technique="pelea", targets={"m": "adyacente"})
    plays = step(state, cmb.reveal)["result"]["plays"]
    assert [(p["attacker"], p["hit"], p["taken"]) for p in plays] == [("a", True, 5), ("b", False, 0)]


def test_fr_cmb_5_no_partial_successes():
    """FR-CMB-5: a card of the technique's colour but another suit is simply a miss."""
    state = cmb.new_round([djamal(), minion("m1", cards=0)])
    state = step(state, cmb.declare, "m1", action="other")
    state = attack(state, "djamal", ["AC"], ["AC"], **FAST_REVOLVER,
                   targets={"m1": "corto"})
    rec = step(state, cmb.reveal)["result"]["plays"][0]
    assert not rec["hit"] and rec["taken"] == 0 and rec["damage"] == 0


@pytest.mark.parametrize(
    ("manos", "skills", "technique", "weapon", "thrown", "plays"),
    [
        (6, ["disparo_rapido"], "disparo_rapido", REVOLVER, 0, 4),
        (5, ["disparo_rapido"], "disparo_rapido", REVOLVER, 0, 3),
        (7, [], "disparo_rapido", REVOLVER, 0, 1),
        (7, ["pelea"], "disparo_rapido", REVOLVER, 0, 1),
        (4, ["pelea"], "pelea", None, 0, 3),
        (4, ["pelea"], "melee", DAGGER, 0, 3),
        (6, ["pelea"], "thrown", KNIFE, 2, 2),
        (6, ["pelea"], "thrown", KNIFE, 10, 4),
        (6, ["pelea"], "thrown", WHIP, 0, 4),
        (9, ["apuntar", "disparo_rapido"], "apuntar", RIFLE, 0, 1),
    ],
)
def test_fr_cmb_6_cards_played(manos, skills, technique, weapon, thrown, plays):
    """FR-CMB-6: one extra card per 2 full points of Manos with Pelea or Disparo rápido; thrown capped
    at the weapons carried (not a whip); Apuntar one."""
    spec = pc("x", traits=traits(manos=manos), skills=skills, thrown=thrown)
    assert cmb.max_plays(spec, technique, weapon) == plays


def test_fr_cmb_6_minions_and_apresar_play_one_card():
    spec = pc("x", traits=traits(manos=8), skills=["pelea"])
    assert cmb.max_plays(spec, "pelea", None, "apresar") == 1
    assert cmb.max_plays(minion("m", cards=9), "pelea", None) == 1


def test_fr_cmb_6_each_card_has_its_own_target_and_is_resolved_separately():
    state = cmb.new_round([djamal(), minion("m1", cards=0, aguante=9), minion("m2", cards=0, aguante=5)])
    for key in ("m1", "m2"):
        state = step(state, cmb.declare, key, action="other")
    state = attack(state, "djamal", ["9S", "9C", "AS", "2S"], [("9S", "m1"), ("AS", "m2"), ("2S", "m2")],
                   **FAST_REVOLVER, targets={"m1": "medio", "m2": "medio"})
    plays = step(state, cmb.reveal)["result"]["plays"]
    assert [(p["target"], p["taken"]) for p in plays] == [("m1", 0), ("m2", 2), ("m2", 0)]


def test_fr_cmb_6_thrown_needs_a_thrown_weapon_left():
    thrower = pc("t", traits=traits(manos=4), skills=["pelea"], weapons=[KNIFE], thrown=0)
    state = cmb.new_round([thrower, pc("v")])
    refused(state, cmb.declare, "t", technique="thrown", weapon="cuchillo", targets={"v": "corto"},
            match="no thrown weapons")


def test_fr_cmb_6_thrown_weapons_are_used_up():
    """FR-CMB-6 ruling: each thrown card leaves one thrown weapon on the ground."""
    thrower = pc("t", traits=traits(manos=4), skills=["pelea"], weapons=[KNIFE], thrown=3)
    state = cmb.new_round([thrower, pc("v")])
    state = step(state, cmb.declare, "v", action="other")
    state = attack(state, "t", ["2S", "3S", "4S", "5H"], ["2S", "3S"], technique="thrown", weapon="cuchillo",
                   targets={"v": "corto"})
    state = step(cmb.reveal(state)[0], cmb.next_turn)
    assert state["combatants"]["t"]["thrown"] == 1


# --- FR-CMB-9 / -10 / -11: cover, mounts, holsters, range -----------------------------------------


@pytest.mark.parametrize(
    ("cover", "mount", "aguante"),
    [("exposed", None, 5), ("partial", None, 6), ("total", None, 7), ("exposed", "walk", 6),
     ("partial", "trot", 8), ("total", "gallop", 10)],
)
def test_fr_cmb_9_cover_and_the_shooters_mount_add_to_aguante(cover, mount, aguante):
    """FR-CMB-9: the target's cover +0/+1/+2 and the shooter's mount speed +1/+2/+3."""
    rider = pc("rider", traits=traits(manos=3), weapons=[REVOLVER], mount=mount)
    state = cmb.new_round([rider, minion("m1", cards=0, cover=cover)])
    state = step(state, cmb.declare, "m1", action="other")
    state = attack(state, "rider", ["8S"], ["8S"], **FAST_REVOLVER,
                   targets={"m1": "corto"})
    rec = step(state, cmb.reveal)["result"]["plays"][0]
    assert rec["aguante"] == aguante
    assert rec["taken"] == cmb.damage_taken(2, 8, aguante)


def test_fr_cmb_9_cover_declared_for_the_turn_counts():
    """FR-CMB-9: a target who declares total cover for this turn has Aguante + 2."""
    state = cmb.new_round([djamal(), minion("m1", cards=1)])
    state = step(state, cmb.declare, "m1", action="other", cover="total")
    state = attack(state, "djamal", ["7S"], ["7S"], **FAST_REVOLVER,
                   targets={"m1": "medio"})
    assert step(state, cmb.reveal)["result"]["plays"][0]["aguante"] == 7


@pytest.mark.parametrize(
    ("situation", "message"),
    [({"cover": "total"}, "total cover"), ({"mount": "walk"}, "moving mount"),
     ({"mount": "gallop"}, "moving mount"), ({"holstered": True}, "holstered")],
)
def test_fr_cmb_9_and_10_no_apuntar(situation, message):
    """FR-CMB-9: no Apuntar from total cover or a moving mount; FR-CMB-10: nor with holstered weapons."""
    state = cmb.new_round([coyote(), pc("v")])
    refused(state, cmb.declare, "coyote", technique="apuntar", weapon="arco", targets={"v": "medio"},
            match=message, **situation)
    standing = cmb.new_round([pc("coyote", traits=traits(sentidos=4), weapons=[BOW], **situation), pc("v")])
    refused(standing, cmb.declare, "coyote", technique="apuntar", weapon="arco", targets={"v": "medio"},
            match=message)


def test_fr_cmb_10_holstered_attack_has_no_move_except_knives_with_a_holster():
    gunman = pc("g", traits=traits(manos=3), weapons=[REVOLVER, KNIFE], thrown=2, holstered=True)
    state = cmb.new_round([gunman, pc("v")])
    refused(state, cmb.declare, "g", **FAST_REVOLVER, targets={"v": "corto"},
            move={"band": "adyacente"}, match="holstered")
    refused(state, cmb.declare, "g", technique="thrown", weapon="cuchillo", targets={"v": "corto"},
            move={"band": "adyacente"}, match="holstered")
    assert step(state, cmb.declare, "g", **FAST_REVOLVER, targets={"v": "corto"})
    assert step(state, cmb.declare, "g", technique="pelea", targets={"v": "adyacente"},
                move={"band": "adyacente"})
    knifeman = cmb.new_round([{**gunman, "knife_holster": True}, pc("v")])
    state = step(knifeman, cmb.declare, "g", technique="thrown", weapon="cuchillo", targets={"v": "corto"},
                 move={"band": "adyacente"})
    assert state["declarations"]["g"]["move"]["band"] == "adyacente"


def test_fr_cmb_10_a_weapon_used_is_no_longer_holstered():
    state = cmb.new_round([pc("g", traits=traits(manos=3), weapons=[REVOLVER], holstered=True), pc("v")])
    state = step(state, cmb.declare, "v", action="other")
    state = attack(state, "g", ["2H"], ["2H"], **FAST_REVOLVER, targets={"v": "corto"})
    state = step(cmb.reveal(state)[0], cmb.next_turn)
    assert state["combatants"]["g"]["holstered"] is False


@pytest.mark.parametrize(
    ("technique", "weapon", "band", "message"),
    [
        ("pelea", None, "corto", "only reaches adjacent"),
        ("melee", "daga", "medio", "only reaches adjacent"),
        ("thrown", "cuchillo", "medio", "only reaches corto"),
        ("disparo_rapido", "revolver", "largo", "cannot be used at"),
        ("disparo_rapido", "revolver", "lejisimos", "not a range band"),
        ("pelea", "daga", "adyacente", "without a weapon"),
        ("melee", None, "adyacente", "needs a weapon"),
        ("melee", "revolver", "adyacente", "cannot be used with"),
        ("apuntar", "escopeta", "corto", "no weapon called"),
        ("karate", None, "adyacente", "not a combat technique"),
    ],
)
def test_fr_cmb_11_range_and_weapon_checks(technique, weapon, band, message):
    """FR-CMB-11: Pelea and melee only adyacente, thrown up to corto, each weapon its bands."""
    fighter = pc("f", traits=traits(manos=3), skills=["pelea"], weapons=[REVOLVER, KNIFE, DAGGER], thrown=3)
    state = cmb.new_round([fighter, pc("v")])
    refused(state, cmb.declare, "f", technique=technique, weapon=weapon, targets={"v": band}, match=message)


def test_fr_cmb_11_band_modifier_changes_the_draw():
    """FR-CMB-11 / FR-CHAR-5: the revolver's −1 at adyacente is applied once; several targets use the
    worst band (ruling)."""
    state = cmb.new_round([djamal(), pc("v"), pc("w")])
    near = step(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"v": "adyacente"})
    far = step(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"v": "medio"})
    both = step(state, cmb.declare, "djamal", **FAST_REVOLVER,
                targets={"v": "medio", "w": "adyacente"})
    assert (near["required"]["djamal"], far["required"]["djamal"], both["required"]["djamal"]) == (7, 8, 7)


def test_fr_cmb_11_fr_char_5_a_knife_held_in_hand_is_a_melee_weapon_at_adyacente_with_no_modifier():
    """The catalogue: a knife (or tomahawk) held in hand is a melee weapon at adyacente with no
    modifier; thrown, it keeps its −1 at adyacente. A thrown weapon without that tag is not."""
    held = cmb.weapon("cuchillo", kind="thrown", damage=1, knife=True, in_hand=True,
                      bands={"adyacente": -1, "corto": 0})
    fighter = pc("f", traits=traits(manos=3), skills=["pelea"], weapons=[held, LASSO], thrown=3)
    state = cmb.new_round([fighter, pc("v")])
    melee = step(state, cmb.declare, "f", technique="melee", weapon="cuchillo", targets={"v": "adyacente"})
    thrown = step(state, cmb.declare, "f", technique="thrown", weapon="cuchillo", targets={"v": "adyacente"})
    assert melee["required"]["f"] == thrown["required"]["f"] + 1  # no −1 in hand
    refused(state, cmb.declare, "f", technique="melee", weapon="cuchillo", targets={"v": "corto"},
            match="only reaches adjacent")
    refused(state, cmb.declare, "f", technique="melee", weapon="lazo", targets={"v": "adyacente"},
            match="cannot be used with")
    assert KNIFE["in_hand"] is False and cmb.weapon("x", kind="ranged", in_hand=True)["in_hand"] is False


def test_fr_chk_1_no_cards_means_automatic_failure_in_combat():
    """FR-CHK-1 ruling in combat: a check of 0 cards or fewer draws nothing and cannot hit."""
    state = cmb.new_round([minion("m1", cards=1, penalty=2, weapons=[RIFLE]), pc("v")])
    state, events = cmb.declare(state, "m1", **FAST_RIFLE, targets={"v": "medio"})
    assert state["required"]["m1"] == 0 and events[-1]["type"] == "automatic_failure"
    refused(state, cmb.hand_in, "m1", [], match="draws no cards")
    state = step(state, cmb.declare, "v", action="other")
    assert step(state, cmb.reveal)["result"]["plays"] == []


def test_target_checks():
    state = cmb.new_round([djamal(), pc("v")])
    refused(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"djamal": "corto"},
            match="cannot be their own target")
    refused(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"zz": "corto"},
            match="nobody called zz")
    refused(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={},
            match="at least one target")


# --- FR-CMB-12: jams ------------------------------------------------------------------------------------


def test_fr_cmb_12_jam_turns():
    assert [turn for turn in range(1, 21) if cmb.jam_turn(turn)] == [5, 10, 15, 20]


def test_fr_cmb_12_an_eight_loses_the_whole_turn():
    state = cmb.new_round([djamal(), coyote(), minion("m1", weapons=[RIFLE])], turn=5)
    assert cmb.phase(state) == "jams"
    refused(state, cmb.declare, "m1", action="other", match="jam turn")
    refused(state, cmb.submit_jam, "m1", "7S", match="not a card of the dead man's hand")
    state = step(state, cmb.submit_jam, "m1", "8C")
    refused(state, cmb.submit_jam, "m1", "AS", match="already drew")
    state = step(state, cmb.submit_jam, "djamal", "AH")
    state = step(state, cmb.submit_jam, "coyote", "8D")
    refused(state, cmb.declare, "m1", action="other", match="loses this whole turn")
    refused(state, cmb.declare, "coyote", action="other", match="loses this whole turn")
    state = step(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"m1": "medio"})
    state = step(state, cmb.hand_in, "djamal", ["KS"])
    state = step(state, cmb.choose, "djamal", ["KS"])
    assert cmb.phase(state) == "reveal"
    assert step(state, cmb.reveal)["result"]["targets"]["m1"]["health_after"] == -2
    refused(cmb.new_round([djamal()], turn=4), cmb.submit_jam, "djamal", "AS", match="not a jam turn")
    fallen = cmb.new_round([pc("dead", health=-4), djamal()], turn=10)
    refused(fallen, cmb.submit_jam, "dead", "AS", match="Muerto")
    assert cmb.phase(step(fallen, cmb.submit_jam, "djamal", "AS")) == "declare"


# --- FR-CMB-13: apresar -----------------------------------------------------------------------------------


def grappled_turn(holder_card, held_card):
    wrestler = pc("w", traits=traits(manos=3, musculo=3), skills=["pelea", "fuerza"])
    victim = pc("v", traits=traits(musculo=2), skills=["agilidad"])
    state = cmb.new_round([wrestler, victim, pc("x")])
    state = step(state, cmb.declare, "v", action="other")
    state = step(state, cmb.declare, "x", action="other")
    state = attack(state, "w", ["2S", "3H"], ["2S"], technique="pelea", special="apresar",
                   targets={"v": "adyacente"})
    first = step(state, cmb.reveal)
    state = step(first, cmb.next_turn)
    for key, card in (("w", holder_card), ("v", held_card)):
        state = step(state, cmb.hand_in, key, [card])
        state = step(state, cmb.choose, key, [card])
    state = step(state, cmb.declare, "x", action="other")
    return first, state


def test_fr_cmb_13_apresar_grapples_without_damage_or_absorption():
    """FR-CMB-13: a 2♠ (far below Aguante) still grapples; no damage."""
    first, second = grappled_turn("KH", "2H")
    rec = first["result"]["plays"][0]
    assert rec["hit"] and rec["grapple"] and rec["taken"] == 0 and rec["damage"] == 0
    assert first["result"]["grapples"] == [{"holder": "w", "held": "v"}]
    assert "v" not in first["result"]["targets"]
    assert second["grapples"] == [{"holder": "w", "held": "v"}]
    assert second["required"] == {"w": 5, "v": 4, "x": 0}
    refused(second, cmb.declare, "v", action="other", match="in a grapple")


def test_fr_cmb_13_opposed_musculo_keeps_or_breaks_the_hold():
    _, kept = grappled_turn("KH", "2H")
    assert step(kept, cmb.reveal)["result"]["grapples"] == [{"holder": "w", "held": "v"}]
    _, broken = grappled_turn("2H", "KH")
    result = step(broken, cmb.reveal)["result"]
    assert result["contests"][0]["outcome"] == {"w": "loss", "v": "win"} and result["grapples"] == []
    _, tied = grappled_turn("5S", "5C")  # FR-OPP-5: nobody with suit or colour → the hold stays
    assert step(tied, cmb.reveal)["result"]["grapples"] == [{"holder": "w", "held": "v"}]


def test_fr_cmb_13_apresar_needs_pelea_or_a_lasso():
    roper = pc("r", traits=traits(manos=3), skills=["pelea"], weapons=[LASSO, KNIFE, REVOLVER], thrown=2)
    state = cmb.new_round([roper, pc("v"), pc("w")])
    assert step(state, cmb.declare, "r", technique="thrown", weapon="lazo", special="apresar",
                targets={"v": "corto"})
    refused(state, cmb.declare, "r", technique="thrown", weapon="cuchillo", special="apresar",
            targets={"v": "corto"}, match="Apresar needs")
    refused(state, cmb.declare, "r", **FAST_REVOLVER, special="apresar",
            targets={"v": "corto"}, match="Apresar needs")
    refused(state, cmb.declare, "r", technique="pelea", special="apresar",
            targets={"v": "adyacente", "w": "adyacente"}, match="one target")
    refused(state, cmb.declare, "r", technique="pelea", special="robar", targets={"v": "adyacente"},
            match="not a combat variant")


# --- FR-CMB-14: asustar -------------------------------------------------------------------------------------


def test_fr_cmb_14_asustar_lowers_morale_per_hit_above_confianza():
    scarer = pc("s", traits=traits(manos=6), skills=["disparo_rapido"], weapons=[REVOLVER])
    target = pc("t", traits=traits(cabeza=4), morale=-1)  # Confianza 8
    assert target["confianza"] == 8
    state = cmb.new_round([scarer, target])
    state = step(state, cmb.declare, "t", action="other")
    state = attack(state, "s", ["9S", "8S", "KS", "AS"], ["9S", "8S", "KS", "AS"], technique="disparo_rapido",
                   weapon="revolver", special="asustar", targets={"t": "corto"})
    result = step(state, cmb.reveal)["result"]
    assert [rec["morale_lost"] for rec in result["plays"]] == [1, 0, 1, 1]
    assert all(rec["taken"] == 0 for rec in result["plays"])
    assert result["targets"]["t"].items() >= {"morale_after": -3, "morale_lost": 2, "health_after": 0}.items()
    state = step(state, cmb.reveal)
    assert state["result"]["plays"][1]["explain"]["params"]["cmp"] == "="
    refused(step(state, cmb.next_turn), cmb.declare, "t", action="other", match="Paralizado")


# --- FR-CMB-15: the pistol duel ----------------------------------------------------------------------


def test_fr_cmb_15_loser_takes_one_full_damage_hit():
    """FR-CMB-15: no absorption: a 2♠ wins and deals the full 1 + 2 (rifle) even against Aguante 5."""
    a, b = duel_pair()
    result = cmb.pistol_duel([a, b], {"a": "3H", "b": "2S"})
    assert result["outcome"] == {"a": "loss", "b": "win"}
    assert result["damage"] == {"a": 3, "b": 0} and result["health_after"] == {"a": -3, "b": 0}
    assert result["exchange"] == {"a": "defeat", "b": "victory"}
    assert cmb.duel_cards(a) == 5 and cmb.duel_cards(b) == 2


def test_fr_cmb_15_tablas_both_are_hit():
    a, b = duel_pair(b_kw={"health": -2})
    result = cmb.pistol_duel([a, b], {"a": "9S", "b": Card.parse("9S", deck=2)})
    assert result["outcome"] == {"a": "tie", "b": "tie"}
    assert result["damage"] == {"a": 3, "b": 2} and result["health_after"] == {"a": -3, "b": -4}
    assert result["exchange"] == {"a": "tie", "b": "tie"}


def test_fr_cmb_15_nobody_black_means_another_check():
    a, b = duel_pair()
    result = cmb.pistol_duel([a, b], {"a": "KH", "b": "QD"})
    assert result["redraw"] and result["damage"] == {"a": 0, "b": 0}


def test_fr_cmb_15_joker_and_bad_input():
    a, b = duel_pair()
    assert cmb.pistol_duel([a, b], {"a": ("JK", "S"), "b": "AS"})["outcome"] == {"a": "win", "b": "loss"}
    with pytest.raises(RulesError, match="which suit the joker"):
        cmb.pistol_duel([a, b], {"a": "JK", "b": "AS"})
    with pytest.raises(RulesError, match="exactly two"):
        cmb.pistol_duel([a], {"a": "AS"})
    with pytest.raises(RulesError, match="waiting for b"):
        cmb.pistol_duel([a, b], {"a": "AS"})
    gunslinger = pc("c", weapons=[REVOLVER, RIFLE])
    with pytest.raises(RulesError, match="Name the weapon"):
        cmb.pistol_duel([a, gunslinger], {"a": "AS", "c": "2S"})
    result = cmb.pistol_duel([a, gunslinger], {"a": "2S", "c": "AS"}, weapons={"c": "rifle"})
    assert result["damage"]["a"] == 3


# --- plain data -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "message"),
    [({"traits": None}, "either the four traits"), ({"cards": 3}, "either the four traits"),
     ({"traits": {"manos": 1}}, "traits cannot"), ({"aguante": -1}, "Aguante cannot"),
     ({"health": -5}, "health cannot"), ({"cover": "bunker"}, "cover cannot"),
     ({"mount": "fly"}, "mount speed"),
     ({"weapons": [REVOLVER, REVOLVER]}, "weapons cannot")],
)
def test_fr_char_6_combatant_data_is_validated(kw, message):
    """FR-CHAR-6: a combatant has traits or a minion's flat cards; every field is checked."""
    with pytest.raises(RulesError, match=message):
        pc("x", **kw)


def test_fr_char_4_confianza_defaults_to_highest_trait_plus_four():
    assert pc("x", traits=traits(cabeza=5)).get("confianza") == 9


def test_new_round_rejects_duplicates():
    with pytest.raises(RulesError, match="Two combatants"):
        cmb.new_round([pc("x"), pc("x")])
    with pytest.raises(RulesError, match="in a grapple"):
        holds = [{"holder": "x", "held": "y"}, {"holder": "z", "held": "y"}]
        cmb.new_round([pc("x"), pc("y"), pc("z")], grapples=holds)
    with pytest.raises(RulesError, match="weapon kind"):
        cmb.weapon("spear", kind="pointy")


CODES = [f"{rank}{suit}" for suit in "SHCD" for rank in RANKS]


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.sampled_from(CODES), min_size=1, max_size=8, unique=True),
    played=st.integers(1, 4),
    cover=st.sampled_from(["exposed", "partial", "total"]),
    health=st.integers(-2, 0),
)
def test_fr_cmb_5_and_8_any_round_keeps_the_rules(hand, played, cover, health):
    """FR-CMB-5/8/9, FR-HLT-1: hit iff ♠ for Disparo rápido; each hit loses damage_taken(2, value,
    Aguante + cover); the target's track drops by the sum, never below −4; input never mutated."""
    state = cmb.new_round([djamal(), minion("m1", cards=0, cover=cover, health=health)])
    state = step(state, cmb.declare, "m1", action="other")
    state = step(state, cmb.declare, "djamal", **FAST_REVOLVER, targets={"m1": "medio"})
    state = step(state, cmb.hand_in, "djamal", hand)
    state = step(state, cmb.choose, "djamal", hand[:played])
    result = step(state, cmb.reveal)["result"]
    aguante = 5 + cmb.COVER_BONUS[cover]
    expected = [
        cmb.damage_taken(2, Card.parse(c).value, aguante) if c.endswith("S") else 0 for c in hand[:played]
    ]
    assert [rec["hit"] for rec in result["plays"]] == [c.endswith("S") for c in hand[:played]]
    assert [rec["taken"] for rec in result["plays"]] == expected
    after = result["targets"].get("m1", {"health_after": health})["health_after"]
    assert after == max(-4, health - sum(expected))


def test_combat_and_gambling_are_pure_python():
    """DESIGN: engines import nothing from Django."""
    import subprocess
    import sys

    code = ("import sys, frontera.rules.combat, frontera.rules.gambling; "
            "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_fr_cmb_1_a_declaration_is_taken_back_before_its_draw_and_declared_again():
    """Ruling: a declaration may be taken back until its cards are drawn (a wrong target ticked),
    then declared again, as if never made; not once drawn, not an NPC's once a protagonist has
    declared on it (FR-CMB-1), and never a grappled pair's (FR-CMB-13)."""
    state = cmb.new_round([djamal(), *gang()[:1]])
    first = step(state, cmb.declare, "m1", **FAST_RIFLE, targets={"djamal": "medio"})
    undone = step(first, cmb.take_back, "m1")
    assert undone == state  # as if never declared
    again = step(undone, cmb.declare, "m1", action="other")
    assert again["declarations"]["m1"]["action"] == "other" and again["order"] == ["m1"]
    drawn = step(first, cmb.hand_in, "m1", ["2C", "3C", "4C"])
    refused(drawn, cmb.take_back, "m1", match="drawn already")
    declared = step(drawn, cmb.declare, "djamal", action="other")
    assert step(declared, cmb.take_back, "djamal")["order"] == ["m1"]  # a player's, before any draw
    npc_other = step(state, cmb.declare, "m1", action="other")  # draws nothing: players may declare
    players_in = step(npc_other, cmb.declare, "djamal", action="other")
    refused(players_in, cmb.take_back, "m1", match="players have declared")
    refused(state, cmb.take_back, "djamal", match="not declared")


def test_fr_cmb_13_a_grappled_pairs_declaration_is_not_taken_back():
    state = cmb.new_round([pc("a", traits=traits(musculo=3)), pc("b", traits=traits(musculo=3))],
                          grapples=[{"holder": "a", "held": "b"}])
    refused(state, cmb.take_back, "a", match="grappl")


def test_fr_cmb_13_a_held_protagonist_does_not_stop_an_npcs_take_back():
    """The hold declares its pair at the start of the turn: that is no protagonist declaring on what
    the NPCs did (FR-CMB-1), so an NPC's declaration may still be taken back."""
    state = cmb.new_round([pc("a", traits=traits(musculo=3)), pc("b", traits=traits(musculo=3)), *gang()[:1]],
                          grapples=[{"holder": "a", "held": "b"}])
    declared = step(state, cmb.declare, "m1", action="other")
    assert cmb.may_take_back(declared, "m1")
    assert "m1" not in step(declared, cmb.take_back, "m1")["declarations"]
