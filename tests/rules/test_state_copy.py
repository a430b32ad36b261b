"""The engines' state copy (frontera.rules.state): what every engine function works on."""

import copy
from fractions import Fraction

from frontera.rules.state import copy_json


def test_a_copy_shares_no_container_with_its_original():
    state = {"hands": {"c1": ["1:AS", "1:2H"]}, "plays": [[{"card": "1:AS", "target": "m3"}]], "turn": 2,
             "revealed": False, "cover": None, "pair": (["a"], "b"), "ratio": 0.5}
    copied = copy_json(state)
    assert copied == state
    copied["hands"]["c1"].append("1:3C")
    copied["plays"][0][0]["target"] = "m4"
    copied["pair"][0].append("c")
    assert state == {"hands": {"c1": ["1:AS", "1:2H"]}, "plays": [[{"card": "1:AS", "target": "m3"}]], "turn": 2,
                     "revealed": False, "cover": None, "pair": (["a"], "b"), "ratio": 0.5}
    assert type(copied["pair"]) is tuple


def test_anything_but_json_data_is_copied_as_deepcopy_copies_it():
    held = {"odds": Fraction(1, 3), "seen": {"1:AS"}}
    copied = copy_json(held)
    assert copied == held == copy.deepcopy(held)
    copied["seen"].add("1:2H")
    assert held["seen"] == {"1:AS"}


def test_a_sessions_json_is_what_asdict_gives_and_shares_nothing_with_it():
    import random
    from dataclasses import asdict

    from frontera.rules.session import Session, new_session

    session = new_session("normal", ["c1", "c2"], "mayor", rng=random.Random(3))
    data = session.to_json()
    assert data == asdict(session) and Session.from_json(data) == session
    data["pile"].pop()
    data["player_decks"]["c1"].append("x")
    assert data != asdict(session) and Session.from_json(session.to_json()) == session
