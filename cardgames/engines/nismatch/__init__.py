"""Nismatch: a trading-card duel of Weird-West steam mecha (RULINGS.md NM-1..NM-11).

The card-game protocol of :mod:`cardgames.engines` plus the bot hooks. Cards are data
(``cards.json``, read through :mod:`.cards`); the rules live in :mod:`.engine`; views and
determinisation here; bots in :mod:`.bot`. Docs: docs/cardgames/nismatch.md.
"""

from __future__ import annotations

import random

from cardgames.engines import new_rng_state

from .bot import STRONG_BOT, candidate_actions, evaluate, make_strong_bot, rollout_action
from .cards import CARDS, DECK_NAMES, DECKS, ZONES, card_def, card_key, deck_codes
from .engine import (
    ACTION_TYPES,
    WORKSHOPS,
    apply,
    claimed,
    copy_state,
    from_json,
    legal_actions,
    new_game,
    opponents,
    outcome,
    step,
    to_json,
    to_move,
    unit_stat,
)
from . import engine as _engine

#: the player-readable messages (``E_*``), re-exported for tests and the web layer
MESSAGES = {k: v for k, v in vars(_engine).items() if k.startswith("E_")}
globals().update(MESSAGES)

_PUBLIC_PLAYER = ("deck", "scrapyard", "demolition", "workshops", "unit", "charge", "lost", "attached",
                  "turns", "mulligans", "ready", "torso_done")


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator). Hidden cards (Arsenals, War Spoils, other
    hands, a face-down Torso before the reveal) appear only as counts; the RNG is never shown."""
    out = {k: v for k, v in state.items() if k not in ("rng", "players")}
    out["viewer"] = seat
    out["to_move"] = to_move(state)
    out["players"] = []
    for s, p in enumerate(state["players"]):
        own = s == seat
        pv = {k: p[k] for k in _PUBLIC_PLAYER}
        pv["arsenal_count"] = len(p["arsenal"])
        pv["spoils_count"] = len(p["spoils"])
        pv["hand_count"] = len(p["hand"])
        pv["hand"] = list(p["hand"]) if own else None
        if p["facedown"] is None:
            pv["facedown"] = None
        else:
            pv["facedown"] = p["facedown"] if own else "hidden"
        out["players"].append(pv)
    return copy_state(out)


def _visible_codes(v: dict, seat: int | None) -> set[str]:
    seen: set[str] = set()
    for s, pv in enumerate(v["players"]):
        seen.update(pv["scrapyard"], pv["demolition"])
        seen.update(slot["card"] for slot in pv["unit"].values() if slot is not None)
        seen.update(ws["card"] for ws in pv["workshops"].values() if ws is not None)
        if s == seat:
            seen.update(pv["hand"])
            if pv["facedown"] is not None:
                seen.add(pv["facedown"])
    seen.update(g["card"] for g in [*v["stack"], *v["triggers"]] if "card" in g)
    return seen


def determinize(view_: dict, seat: int, rng: random.Random) -> dict:
    """A full state consistent with ``view_``: the cards ``seat`` can't see are dealt uniformly at
    random (from the public deck lists) into the hidden places."""
    seen = _visible_codes(view_, seat)
    state = {k: v for k, v in view_.items() if k not in ("viewer", "to_move", "players")}
    state["rng"] = new_rng_state(rng.randrange(2**62))
    state["players"] = []
    for s, pv in enumerate(view_["players"]):
        unknown = [c for c in deck_codes(pv["deck"], s) if c not in seen]
        rng.shuffle(unknown)
        p = {k: pv[k] for k in _PUBLIC_PLAYER}
        if s == seat:
            p["hand"] = list(pv["hand"])
            p["facedown"] = pv["facedown"]
        else:
            p["facedown"] = None
            if pv["facedown"] == "hidden":  # a face-down Torso is always a Part (NM-2)
                p["facedown"] = next(c for c in unknown if card_def(c)["kind"] == "part")
                unknown.remove(p["facedown"])
            p["hand"] = [unknown.pop() for _ in range(pv["hand_count"])]
        p["spoils"] = [unknown.pop() for _ in range(pv["spoils_count"])]
        p["arsenal"] = unknown
        state["players"].append(p)
    return copy_state(state)


__all__ = [
    "ACTION_TYPES", "CARDS", "DECKS", "DECK_NAMES", "STRONG_BOT", "WORKSHOPS", "ZONES", "apply", "candidate_actions",
    "card_def", "card_key", "claimed", "deck_codes", "determinize", "evaluate", "from_json", "legal_actions",
    "make_strong_bot", "new_game", "opponents", "outcome", "rollout_action", "step", "to_json", "to_move",
    "unit_stat", "view", *MESSAGES,
]
