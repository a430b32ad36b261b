"""Combat declarations the table makes (FR-CMB-6, -9, -10, -11, FR-CHK-5) and track changes made
outside the round's own resolution (the Mayor's override, the death roll: FR-HLT-1, FR-HLT-3)."""

import copy
import json

import pytest

from frontera.rules import RulesError
from frontera.rules import combat as cmb

REVOLVER = cmb.weapon("revolver", kind="ranged", damage=1,
                      bands={"adyacente": -1, "corto": 0, "medio": -1, "largo": None})


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


def step(state, operation, *args, **kw):
    before = copy.deepcopy(state)
    new, events = operation(state, *args, **kw)
    assert state == before
    json.dumps(new), json.dumps(events)
    return new, events


def _npcs_done(state, *keys):
    for key in keys:
        state, _ = step(state, cmb.declare, key, action="other")
    return state


def test_fr_cmb_6_11_each_target_has_its_own_band_and_the_draw_takes_the_worst():
    kid = pc("kid", traits=traits(manos=4), skills=["disparo_rapido"], weapons=[REVOLVER])
    state = _npcs_done(cmb.new_round([kid, minion("m1"), minion("m2")]), "m1", "m2")
    state, events = step(state, cmb.declare, "kid", technique="disparo_rapido", weapon="revolver",
                         targets={"m1": "corto", "m2": "medio"})
    assert state["declarations"]["kid"]["targets"] == {"m1": "corto", "m2": "medio"}
    assert cmb.cards_to_draw(state, "kid") == 4 + 2 - 1  # medio −1 is the worse of the two bands
    assert state["max_plays"]["kid"] == 3  # FR-CMB-6: 1 + Manos 4 // 2


def test_fr_cmb_9_10_declared_mount_and_holster_forbid_apuntar():
    aimer = pc("aimer", traits=traits(sentidos=3), skills=["apuntar"], weapons=[REVOLVER])
    state = _npcs_done(cmb.new_round([aimer, minion("m1")]), "m1")
    for situation in ({"mount": "trot"}, {"holstered": True}, {"cover": "total"}):
        with pytest.raises(RulesError):
            cmb.declare(state, "aimer", technique="apuntar", weapon="revolver", targets={"m1": "corto"}, **situation)
    state, _ = step(state, cmb.declare, "aimer", action="move", mount="gallop")
    assert state["declarations"]["aimer"]["mount"] == "gallop"


def test_fr_cmb_9_a_declared_mount_adds_to_the_targets_aguante_and_persists():
    kid = pc("kid", traits=traits(manos=2), skills=["disparo_rapido"], weapons=[REVOLVER])
    state = _npcs_done(cmb.new_round([kid, minion("m1", aguante=5)]), "m1")
    state, _ = step(state, cmb.declare, "kid", technique="disparo_rapido", weapon="revolver",
                    targets={"m1": "corto"}, mount="walk")
    state, _ = step(state, cmb.hand_in, "kid", ["6S", "2H", "3H", "4H"])
    state, _ = step(state, cmb.choose, "kid", ["6S"])
    state, _ = step(state, cmb.reveal)
    record = state["result"]["plays"][0]
    assert record["aguante"] == 6 and record["taken"] == 0  # 5 + 1 walking: 6 = 6 → 2 − 2
    state, _ = step(state, cmb.next_turn)
    assert state["combatants"]["kid"]["mount"] == "walk"


def test_fr_chk_5_medical_attention_takes_the_whole_turn():
    doc = pc("doc")
    state = _npcs_done(cmb.new_round([doc, pc("hurt", health=-2), minion("m1")]), "m1")
    with pytest.raises(RulesError):
        cmb.declare(state, "doc", action="medical", patient="hurt", move={"band": "adyacente"})
    with pytest.raises(RulesError):
        cmb.declare(state, "doc", action="medical", patient="nobody")
    state, events = step(state, cmb.declare, "doc", action="medical", patient="hurt")
    assert state["declarations"]["doc"]["patient"] == "hurt"
    assert state["required"]["doc"] == 0 and "doc" not in state["hands"]
    state, _ = step(state, cmb.declare, "hurt", action="other")
    assert cmb.phase(state) == "reveal"  # the healer draws nothing in the round


def test_fr_hlt_1_set_tracks_mid_turn_stops_a_fighter_who_can_no_longer_act():
    state = cmb.new_round([pc("kid"), minion("m1")])
    state, events = step(state, cmb.set_tracks, "m1", health=-3, morale=0, penalty=0)
    assert events[0]["before"] == {"health": 0, "morale": 0}
    state, _ = step(state, cmb.declare, "kid", action="other")
    assert cmb.phase(state) == "reveal"  # the incapacitated minion declares nothing


def test_fr_hlt_1_an_override_after_the_reveal_replaces_the_result_for_the_next_turn():
    kid = pc("kid", traits=traits(manos=2), skills=["pelea"])
    state = _npcs_done(cmb.new_round([kid, minion("m1", aguante=2)]), "m1")
    state, _ = step(state, cmb.declare, "kid", technique="pelea", targets={"m1": "adyacente"})
    state, _ = step(state, cmb.hand_in, "kid", ["KS", "2H", "3H", "4H"])
    state, _ = step(state, cmb.choose, "kid", ["KS"])
    state, _ = step(state, cmb.reveal)
    assert state["result"]["targets"]["m1"]["health_after"] == -1
    state, _ = step(state, cmb.set_tracks, "m1", health=0, morale=0, penalty=0)  # the Mayor overrides
    state, _ = step(state, cmb.next_turn)
    assert state["combatants"]["m1"]["health"] == 0 and state["combatants"]["m1"]["penalty"] == 0
