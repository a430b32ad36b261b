"""Hand-built Nismatch positions for scenario tests (boardgame.io style: start from a known state).

No tests here: the helpers are shared by the test_nismatch*.py files.
"""

from __future__ import annotations

import json
from collections import Counter

from cardgames.engines import nismatch as nm

CANON, FORJA = "cuadrilla_del_canon", "forja_de_san_vapor"


def board(decks=(CANON, FORJA), *, phase="main1", active=0, charge=(5, 5), seed=7) -> dict:
    """A game in round 1, ``active``'s turn (the other seat plays next), every card still in its
    owner's Arsenal.

    Place cards with :func:`hand` / :func:`put`, then call :func:`seal` to fill the War Spoils.
    """
    s = nm.new_game(2, seed, {"decks": list(decks)})
    for seat, p in enumerate(s["players"]):
        p["arsenal"] = nm.deck_codes(p["deck"], seat)
        p["hand"] = []
        p["ready"] = p["torso_done"] = True
        p["charge"] = charge[seat]
        p["turns"] = 1 if seat == active else 0
    s.update(phase=phase, round=1, turn=1, active=active, priority=active,
             order=[active, 1 - active], order_index=0)
    return s


def take(s: dict, seat: int, key: str) -> str:
    arsenal = s["players"][seat]["arsenal"]
    code = next(c for c in arsenal if nm.card_key(c) == key)
    arsenal.remove(code)
    return code


def hand(s: dict, seat: int, *keys: str) -> list[str]:
    codes = [take(s, seat, k) for k in keys]
    s["players"][seat]["hand"] += codes
    return codes


def put(s: dict, seat: int, key: str, *, damage: int = 0, active: bool = True) -> str:
    """Equip a Part directly (no Charge bookkeeping: set ``charge`` yourself). Returns its zone."""
    code = take(s, seat, key)
    zone = nm.card_def(code)["zone"]
    s["players"][seat]["unit"][zone] = {"card": code, "damage": damage, "active": active, "used": {}}
    return zone


def workshop(s: dict, seat: int, key: str, *, damage: int = 0, since: int = 0, name: str = "alfa") -> str:
    code = take(s, seat, key)
    s["players"][seat]["workshops"][name] = {"card": code, "damage": damage, "since": since}
    return code


def seal(s: dict, spoils=(5, 5)) -> dict:
    """Move cards from the bottom of each Arsenal to the War Spoils; returns ``s``."""
    for seat, p in enumerate(s["players"]):
        n = spoils[seat]
        p["spoils"] = p["arsenal"][:n]
        del p["arsenal"][:n]
    return s


def act(s: dict, seat: int, **action) -> dict:
    return nm.apply(s, seat, action)


def pass_all(s: dict) -> dict:
    """Everybody passes until the stack is empty (NM-8)."""
    while s["stack"] and nm.to_move(s) and nm.legal_actions(s, nm.to_move(s)[0])[0] == {"type": "pass"}:
        s = act(s, nm.to_move(s)[0], type="pass")
    return s


def all_codes(s: dict) -> Counter:
    return Counter(c for seat, p in enumerate(s["players"]) for c in nm.deck_codes(p["deck"], seat))


def located_codes(s: dict) -> Counter:
    """Every card wherever it is now (NM-3 zones, hand, stack)."""
    found: Counter = Counter()
    for p in s["players"]:
        for pile in ("arsenal", "hand", "spoils", "scrapyard", "demolition"):
            found.update(p[pile])
        found.update(slot["card"] for slot in p["unit"].values() if slot is not None)
        found.update(ws["card"] for ws in p["workshops"].values() if ws is not None)
        if p["facedown"] is not None:
            found[p["facedown"]] += 1
    found.update(g["card"] for g in s["stack"] if g["kind"] == "support")
    return found


def hidden_from(s: dict, seat: int | None) -> set[str]:
    """Codes ``seat`` may not see: Arsenals, Spoils, other hands, others' face-down Torso."""
    hidden: set[str] = set()
    for other, p in enumerate(s["players"]):
        hidden.update(p["arsenal"], p["spoils"])
        if other != seat:
            hidden.update(p["hand"])
            if p["facedown"] is not None:
                hidden.add(p["facedown"])
    return hidden


def leaked(s: dict, seat: int | None) -> list[str]:
    text = json.dumps(nm.view(s, seat))
    return [c for c in hidden_from(s, seat) if f'"{c}"' in text]
