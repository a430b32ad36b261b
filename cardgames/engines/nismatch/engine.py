"""Nismatch rules (NM-1..NM-11 of RULINGS.md, house rulings NM-R1.. in docs/cardgames/nismatch.md).

The state is a plain dict (see the docs for its layout). Two paths, as in python-chess:
:func:`apply` validates untrusted input against :func:`legal_actions` and works on a copy;
:func:`step` is the fast, unchecked, in-place path the bots use on states they own.
"""

from __future__ import annotations

import json

from cardgames.engines import IllegalAction, draw_rng, gettext_noop, new_rng_state

from .cards import DECK_NAMES, DECKS, ZONES, card_def, card_key, deck_codes

WORKSHOPS: tuple[str, ...] = ("alfa", "beta")
HAND_SIZE = 7
SPOILS = 5
UNIT_CHARGE = 2
WORKSHOP_REPAIR = 2
NO_PARTS_SPOILS = 2
LOG_SIZE = 16
MAIN_PHASES = ("main1", "main2")

E_SEATS = gettext_noop("Nismatch is played by 2 seats for now (2v2 and battle royale are planned).")
E_OPTIONS = gettext_noop("Unknown game options.")
E_UNKNOWN_DECK = gettext_noop("There is no deck called “%(deck)s”.")
E_BAD_SEAT = gettext_noop("There is no seat %(seat)s at this table.")
E_GAME_OVER = gettext_noop("The game is over.")
E_NOT_YOUR_TURN = gettext_noop("It is not your turn to act.")
E_MALFORMED = gettext_noop("That is not a valid action.")
E_UNKNOWN_TYPE = gettext_noop("Unknown action “%(type)s”.")
E_NOT_NOW = gettext_noop("You can't do that now.")
E_NOT_IN_HAND = gettext_noop("That card is not in your hand.")
E_NOT_A_PART = gettext_noop("Only a Part can go on your Unit.")
E_ALREADY_ATTACHED = gettext_noop("You have already attached a Part from your hand this turn.")
E_DAMAGED_OCCUPANT = gettext_noop("The Part in that zone is damaged: send it to a Workshop instead of replacing it.")
E_NO_CHARGE = gettext_noop("Not enough Charge: %(cost)s needed, %(charge)s available.")
E_ABILITY_USED = gettext_noop("That ability has already been used this turn.")
E_WRONG_SPEED = gettext_noop("That ability or support can't be used at this moment (its speed is %(speed)s).")
E_BAD_TARGET = gettext_noop("That is not a valid target.")
E_NO_MULLIGAN = gettext_noop("No more mulligans: the next hand would be empty.")
E_WORKSHOP_NOT_READY = gettext_noop(
    "A Part returns from a Workshop only when fully repaired and after a turn there.")
E_WORKSHOP_FULL = gettext_noop("Both Workshops are occupied.")
E_NOT_DAMAGED = gettext_noop("Only a damaged Part goes to a Workshop.")
E_MUST_DEACTIVATE = gettext_noop("Your Charge is negative: deactivate a Part that spends Charge first.")
E_BAD_STATE = gettext_noop("That is not a Nismatch game.")

ACTION_TYPES = ("keep", "mulligan", "torso", "no_torso", "deactivate", "rebuild", "rebuild_done", "attach",
                "to_workshop", "from_workshop", "activate", "support", "pass", "next", "guerrilla",
                "damage_target")


# ---------------------------------------------------------------- small queries


def opponents(state: dict, seat: int) -> list[int]:
    """Seats on another team (NM-2: 1v1 now; teams keep 2v2 possible)."""
    team = next(t for t in state["teams"] if seat in t)
    return [s for s in state["seats"] if s not in team]


def _next_seat(state: dict, seat: int) -> int:
    order = state["order"]
    return order[(order.index(seat) + 1) % len(order)]


def _abilities(code: str) -> list[dict]:
    return card_def(code)["abilities"]


def _passive(slot: dict | None, op: str, stat: str | None = None) -> int:
    """Sum of an active Part's passive ``op`` amounts (NM-5: a deactivated Part gives nothing)."""
    if slot is None or not slot["active"]:
        return 0
    return sum(
        eff["amount"]
        for ab in _abilities(slot["card"]) if ab["speed"] == "pasiva"
        for eff in ab["effects"] if eff["op"] == op and (stat is None or eff.get("stat") == stat)
    )


def unit_stat(state: dict, seat: int, stat: str) -> int:
    """Total FUE/DEF/VEL of a Unit: active Parts, their passives and running modifiers (NM-4, NM-5)."""
    total = 0
    for slot in state["players"][seat]["unit"].values():
        if slot is not None and slot["active"]:
            total += card_def(slot["card"])[stat] + _passive(slot, "stat", stat)
    total += sum(m["amount"] for m in state["modifiers"] if m["seat"] == seat and m["stat"] == stat)
    return max(0, total)


def parts_on_unit(state: dict, seat: int) -> list[str]:
    return [z for z, slot in state["players"][seat]["unit"].items() if slot is not None]


def _log(state: dict, **event) -> None:
    """A short public history for the table (card names by key: a code could follow a card into a
    hand, e.g. a recovered Part, and reveal which copy is there)."""
    state["log"].append(event)
    del state["log"][:-LOG_SIZE]


def _must_deactivate(state: dict, seat: int) -> list[str]:
    """Zones of active spending Parts the seat must choose from while its Charge is negative (NM-5)."""
    p = state["players"][seat]
    if p["charge"] >= 0:
        return []
    return [z for z, s in p["unit"].items() if s is not None and s["active"] and card_def(s["card"])["charge"] < 0]


# ---------------------------------------------------------------- setup


def new_game(seats: int, seed: int, options: dict | None = None) -> dict:
    """Shuffle, deal 7 and wait for the mulligan decisions (NM-2)."""
    if type(seats) is not int or seats != 2:
        raise IllegalAction(E_SEATS)
    if type(seed) is not int:
        raise IllegalAction(E_OPTIONS)
    options = {} if options is None else options
    if not isinstance(options, dict) or set(options) - {"decks"}:
        raise IllegalAction(E_OPTIONS)
    decks = options.get("decks", list(DECK_NAMES[:seats]))
    if not isinstance(decks, list) or len(decks) != seats:
        raise IllegalAction(E_OPTIONS)
    for deck in decks:
        if not isinstance(deck, str) or deck not in DECKS:
            raise IllegalAction(E_UNKNOWN_DECK, deck=str(deck))
    state = {
        "game": "nismatch",
        "rng": new_rng_state(seed),
        "seats": list(range(seats)),
        "teams": [[s] for s in range(seats)],
        "phase": "mulligan",
        "round": 0,
        "turn": 0,
        "order": list(range(seats)),
        "order_index": 0,
        "active": None,
        "priority": None,
        "passes": 0,
        "stack": [],
        "next_gear": 1,
        "triggers": [],
        "pending": None,
        "modifiers": [],
        "rebuild_left": 0,
        "guerrilla_done": False,
        "initiative_rolls": None,
        "winners": None,
        "end_reason": None,
        "log": [],
        "players": [_new_player(deck, s) for s, deck in enumerate(decks)],
    }
    for seat in state["seats"]:
        p = state["players"][seat]
        draw_rng(state).shuffle(p["arsenal"])
        _draw_cards(state, seat, HAND_SIZE)
    return state


def _new_player(deck: str, seat: int) -> dict:
    return {
        "deck": deck, "arsenal": deck_codes(deck, seat), "hand": [], "spoils": [], "scrapyard": [],
        "demolition": [], "workshops": dict.fromkeys(WORKSHOPS), "unit": dict.fromkeys(ZONES),
        "charge": 0, "lost": 0, "attached": False, "turns": 0, "mulligans": 0, "ready": False,
        "facedown": None, "torso_done": False,
    }


def _next_hand_size(p: dict) -> int:
    """NM-2: the first mulligan is free, each later one draws one card fewer."""
    return HAND_SIZE - p["mulligans"]


def _do_mulligan(state: dict, seat: int) -> None:
    """NM-2 (NM-R2): the hand goes back, the Arsenal is shuffled, a new hand is drawn."""
    p = state["players"][seat]
    size = _next_hand_size(p)
    p["arsenal"].extend(p["hand"])
    p["hand"] = []
    p["mulligans"] += 1
    draw_rng(state).shuffle(p["arsenal"])
    _draw_cards(state, seat, size)


def _do_keep(state: dict, seat: int) -> None:
    """NM-2: when everybody has kept, the top 5 of each Arsenal become its War Spoils."""
    state["players"][seat]["ready"] = True
    if all(state["players"][s]["ready"] for s in state["seats"]):
        for s in state["seats"]:
            p = state["players"][s]
            p["spoils"] = p["arsenal"][-SPOILS:]
            del p["arsenal"][-SPOILS:]
        state["phase"] = "torso"


def _do_torso(state: dict, seat: int, code: str | None) -> None:
    """NM-2: a Part face down in the Torso zone; all are revealed together (NM-R1: each goes to its own zone)."""
    p = state["players"][seat]
    if code is not None:
        p["hand"].remove(code)
    p["facedown"] = code
    p["torso_done"] = True
    if not all(state["players"][s]["torso_done"] for s in state["seats"]):
        return
    for s in state["seats"]:
        q = state["players"][s]
        if q["facedown"] is not None:
            q["unit"][card_def(q["facedown"])["zone"]] = _slot(q["facedown"])
            q["facedown"] = None
    _log(state, event="reveal")
    state["order"] = _first_initiative(state)
    state["round"] = 1
    _start_turn(state, 0)


def _slot(code: str, damage: int = 0) -> dict:
    return {"card": code, "damage": damage, "active": True, "used": {}}


# ---------------------------------------------------------------- initiative (NM-9)


def _first_initiative(state: dict) -> list[int]:
    """Highest VEL first; ties broken by d6 rolls, re-rolled while they tie (NM-9)."""
    vel = {s: unit_stat(state, s, "vel") for s in state["seats"]}
    rolls = {s: [] for s in state["seats"]}
    while True:
        keys = {s: (vel[s], *rolls[s]) for s in state["seats"]}
        tied = [s for s in state["seats"] if list(keys.values()).count(keys[s]) > 1]
        if not tied:
            break
        rng = draw_rng(state)
        for s in tied:
            rolls[s].append(rng.randint(1, 6))
    state["initiative_rolls"] = {str(s): r for s, r in rolls.items() if r}
    return sorted(state["seats"], key=lambda s: keys[s], reverse=True)


def _next_initiative(state: dict) -> list[int]:
    """VEL recomputed at the end of the round; a tie goes to whoever played later (NM-9)."""
    previous = state["order"]
    return sorted(state["seats"], key=lambda s: (-unit_stat(state, s, "vel"), -previous.index(s)))


# ---------------------------------------------------------------- turn structure (NM-10)


def _start_turn(state: dict, index: int) -> None:
    state["order_index"] = index
    seat = state["order"][index]
    state["active"] = seat
    state["priority"] = seat
    state["passes"] = 0
    state["phase"] = "recharge"
    state["guerrilla_done"] = False
    _advance(state)


def _recharge(state: dict, seat: int) -> None:
    """NM-10 Recharge: end "until your next turn" effects, lose leftover Charge, add 2 ± Parts (NM-5).

    NM-R3: every Part of the Unit is turned face up again before the count.
    """
    p = state["players"][seat]
    state["turn"] += 1
    p["turns"] += 1
    p["attached"] = False
    state["modifiers"] = [m for m in state["modifiers"] if not (m["until"] == "your_next_turn" and m["by"] == seat)]
    for slot in p["unit"].values():
        if slot is not None:
            slot["active"] = True
    p["charge"] = UNIT_CHARGE + sum(card_def(s["card"])["charge"] for s in p["unit"].values() if s is not None)


def _rebuild_start(state: dict, seat: int) -> None:
    """NM-10 Rebuild: Workshops repair 2 PG (+ passives); attach as many Parts as were destroyed."""
    p = state["players"][seat]
    bonus = sum(_passive(s, "repair_bonus") for s in p["unit"].values())
    for w in p["workshops"].values():
        if w is not None:
            w["damage"] = max(0, w["damage"] - WORKSHOP_REPAIR - bonus)
    state["rebuild_left"] = p["lost"]
    p["lost"] = 0


def _end_turn(state: dict) -> None:
    """NM-10 End: "until end of turn" effects end; the next seat plays, or a new round starts (NM-9)."""
    state["modifiers"] = [m for m in state["modifiers"] if m["until"] != "end_of_turn"]
    index = state["order_index"] + 1
    if index >= len(state["order"]):
        state["order"] = _next_initiative(state)
        state["round"] += 1
        index = 0
    _start_turn(state, index)


def _advance(state: dict) -> None:
    """Run the automatic steps until someone has a decision to make."""
    while state["phase"] != "over":
        if state["stack"] or state["pending"] is not None or any(_must_deactivate(state, s) for s in state["seats"]):
            return
        phase, seat = state["phase"], state["active"]
        if phase == "recharge":
            _recharge(state, seat)
            state["phase"] = "draw"
        elif phase == "draw":
            _draw_cards(state, seat, 1)
            if state["phase"] == "draw":
                state["phase"] = "rebuild_start"
        elif phase == "rebuild_start":
            _rebuild_start(state, seat)
            state["phase"] = "rebuild"
        elif phase == "rebuild":
            if state["rebuild_left"] > 0 and _attachable(state, seat):
                return
            state["rebuild_left"] = 0
            state["phase"] = "main1"
        elif phase == "guerrilla" and state["guerrilla_done"] and not state["stack"]:
            state["phase"] = "main2"
        elif phase == "end":
            _end_turn(state)
        else:
            return


# ---------------------------------------------------------------- card movements


def _draw_cards(state: dict, seat: int, n: int) -> None:
    """Draw ``n``; drawing from an empty Arsenal loses the game (NM-1)."""
    p = state["players"][seat]
    for _ in range(n):
        if not p["arsenal"]:
            _finish(state, opponents(state, seat), "empty_arsenal")
            return
        p["hand"].append(p["arsenal"].pop())


def _claim(state: dict, seat: int, n: int) -> None:
    """Take the top War Spoils into hand; the fifth one wins (NM-1, NM-6)."""
    p = state["players"][seat]
    for _ in range(n):
        if p["spoils"]:
            p["hand"].append(p["spoils"].pop())
            _log(state, event="spoil", seat=seat)
    if not p["spoils"] and state["phase"] != "over":
        _finish(state, [seat], "spoils")


def claimed(state: dict, seat: int) -> int:
    return SPOILS - len(state["players"][seat]["spoils"])


def _finish(state: dict, winners: list[int], reason: str) -> None:
    if state["phase"] == "over":
        return
    state["phase"] = "over"
    state["winners"] = sorted(winners)
    state["end_reason"] = reason
    state["priority"] = None
    state["pending"] = None


def _leave_unit(state: dict, seat: int, zone: str) -> dict:
    """Take a Part off its Unit; an active Part takes its Charge with it (NM-5, NM-R4)."""
    p = state["players"][seat]
    slot = p["unit"][zone]
    p["unit"][zone] = None
    if slot["active"]:
        p["charge"] -= card_def(slot["card"])["charge"]
    return slot


def _equip(state: dict, seat: int, code: str, damage: int = 0) -> None:
    """Put a Part on its zone (an occupant goes to the Scrapyard, NM-10/NM-11); fires on_equip."""
    p = state["players"][seat]
    zone = card_def(code)["zone"]
    if p["unit"][zone] is not None:
        p["scrapyard"].append(_leave_unit(state, seat, zone)["card"])
    p["unit"][zone] = _slot(code, damage)
    p["charge"] += card_def(code)["charge"]
    _queue_triggers(state, seat, zone, "on_equip")


def _destroy(state: dict, seat: int, zone: str, by: int | None, pile: str = "scrapyard") -> None:
    """NM-6: the Part goes to the Scrapyard (or Demolition); an opponent who destroyed it claims a Spoil."""
    p = state["players"][seat]
    was_active = p["unit"][zone]["active"]
    code = p["unit"][zone]["card"]
    if was_active:
        _queue_triggers(state, seat, zone, "on_destroyed")
    _leave_unit(state, seat, zone)
    p[pile].append(code)
    p["lost"] += 1
    _log(state, event="destroyed", seat=seat, zone=zone, card=card_key(code))
    if by is not None and by in opponents(state, seat):
        _claim(state, by, 1)


def _damage(state: dict, seat: int, zone: str, amount: int, by: int | None) -> None:
    """Damage a Part; reaching its PG destroys it (NM-6). Armour passives reduce it."""
    slot = state["players"][seat]["unit"][zone]
    amount = max(0, amount - _passive(slot, "armor"))
    if amount == 0:
        return
    slot["damage"] += amount
    if slot["damage"] >= card_def(slot["card"])["pg"]:
        _destroy(state, seat, zone, by)


def _free_workshop(p: dict) -> str | None:
    return next((w for w in WORKSHOPS if p["workshops"][w] is None), None)


def _to_workshop(state: dict, seat: int, zone: str) -> None:
    """Move a Part to a free Workshop of its owner (NM-3, NM-10); none free: nothing happens (NM-R8)."""
    p = state["players"][seat]
    w = _free_workshop(p)
    if w is None:
        return
    slot = _leave_unit(state, seat, zone)
    p["workshops"][w] = {"card": slot["card"], "damage": slot["damage"], "since": p["turns"]}


def _deactivate(state: dict, seat: int, zone: str) -> None:
    """Turn a Part over (NM-5): it keeps its place but gives no stats, Charge or abilities."""
    p = state["players"][seat]
    slot = p["unit"][zone]
    if slot["active"]:
        slot["active"] = False
        p["charge"] -= card_def(slot["card"])["charge"]


# ---------------------------------------------------------------- the stack (NM-7, NM-8)


def _queue_triggers(state: dict, seat: int, zone: str, event: str) -> None:
    """Disparado abilities of an active Part fire on their event (NM-7); they wait in a queue and go
    on the stack as soon as no effect is resolving (NM-R6)."""
    slot = state["players"][seat]["unit"][zone]
    if slot is None or not slot["active"]:
        return
    for i, ab in enumerate(_abilities(slot["card"])):
        if ab["speed"] == "disparado" and ab["trigger"] == event:
            target = {"seat": seat, "zone": zone, "card": slot["card"]} if ab["target"] == "self" else None
            state["triggers"].append({"kind": "trigger", "controller": seat, "card": slot["card"], "ability": i,
                                      "target": target, "negated": False})


def _push(state: dict, gear: dict, priority: int) -> None:
    gear["id"] = state["next_gear"]
    state["next_gear"] += 1
    state["stack"].append(gear)
    state["priority"] = priority
    state["passes"] = 0


def _flush_triggers(state: dict) -> None:
    """Put queued triggered abilities on the stack; the active player gets priority (NM-8)."""
    if not state["triggers"] or state["phase"] == "over":
        return
    active = state["active"]
    queued = sorted(state["triggers"], key=lambda g: g["controller"] != active)
    state["triggers"] = []
    for gear in queued:
        _push(state, gear, active)


def _gear_ability(gear: dict) -> dict:
    return _abilities(gear["card"])[gear["ability"]]


def _target_holds(state: dict, gear: dict, ab: dict) -> bool:
    """NM-8: the activation requirement still holds (the chosen target is still there)."""
    target = gear["target"]
    if target is None:
        return True
    if "gear" in target:
        return any(g["id"] == target["gear"] for g in state["stack"])
    if "zone" in target:
        slot = state["players"][target["seat"]]["unit"][target["zone"]]
        if slot is None or slot["card"] != target["card"]:
            return False
        return ab.get("filter") != "damaged" or slot["damage"] > 0
    return True


def _part_refs(state: dict, gear: dict, ab: dict) -> list[tuple[int, str]]:
    if ab["target"] == "each_enemy_part":
        return [(o, z) for o in opponents(state, gear["controller"]) for z in parts_on_unit(state, o)]
    return [(gear["target"]["seat"], gear["target"]["zone"])]


def _unit_refs(state: dict, gear: dict, ab: dict) -> list[int]:
    kind = ab["target"]
    if kind == "own_unit":
        return [gear["controller"]]
    if kind == "each_enemy_unit":
        return opponents(state, gear["controller"])
    return [gear["target"]["seat"]]


def _apply_effect(state: dict, gear: dict, ab: dict, eff: dict) -> None:
    """The effect vocabulary (docs/cardgames/nismatch.md); new cards need no code."""
    op, me = eff["op"], gear["controller"]
    if op == "draw":
        _draw_cards(state, me, eff["amount"])
    elif op == "recover":
        p = state["players"][me]
        part = next((c for c in reversed(p["scrapyard"]) if card_def(c)["kind"] == "part"), None)
        if part is not None:
            p["scrapyard"].remove(part)
            p["hand"].append(part)
    elif op == "negate":
        target = next(g for g in state["stack"] if g["id"] == gear["target"]["gear"])
        target["negated"] = True
    elif op in ("charge", "modify"):
        for seat in _unit_refs(state, gear, ab):
            if op == "charge":
                state["players"][seat]["charge"] += eff["amount"]
            else:
                state["modifiers"].append({"seat": seat, "stat": eff["stat"], "amount": eff["amount"],
                                           "until": eff["until"], "by": me})
    else:
        for seat, zone in _part_refs(state, gear, ab):
            slot = state["players"][seat]["unit"][zone]
            if slot is None or state["phase"] == "over":
                continue
            if op == "damage":
                _damage(state, seat, zone, eff["amount"], me)
            elif op in ("destroy", "demolish"):
                _destroy(state, seat, zone, me, "scrapyard" if op == "destroy" else "demolition")
            elif op == "to_workshop":
                _to_workshop(state, seat, zone)
            elif op == "repair":
                slot["damage"] = max(0, slot["damage"] - eff["amount"])
            elif op == "deactivate":
                _deactivate(state, seat, zone)


def _resolve_gear(state: dict, gear: dict) -> None:
    if gear["kind"] == "guerrilla":
        if not gear["negated"]:
            _resolve_guerrilla(state, gear)
        return
    ab = _gear_ability(gear)
    if gear["negated"]:
        _log(state, event="negated", gear=gear["id"])
    elif not _target_holds(state, gear, ab):
        _log(state, event="fizzled", gear=gear["id"])
    else:
        _log(state, event="resolved", gear=gear["id"])
        for eff in ab["effects"]:
            if state["phase"] == "over":
                break
            _apply_effect(state, gear, ab, eff)
    if gear["kind"] == "support":
        state["players"][gear["controller"]]["scrapyard"].append(gear["card"])


def _resolve_stack(state: dict) -> None:
    """NM-8: last in, first out, until empty (or a player must choose where Guerrilla damage goes);
    then triggered abilities go on the stack, and the active player has priority again."""
    while state["stack"] and state["pending"] is None and state["phase"] != "over":
        _resolve_gear(state, state["stack"].pop())
    if state["pending"] is None and state["phase"] != "over":
        state["priority"] = state["active"]
        state["passes"] = 0
        _flush_triggers(state)


def _resolve_guerrilla(state: dict, gear: dict) -> None:
    """NM-10 Guerrilla: FUE − DEF; NM-6: a Unit with no Parts yields 2 Spoils."""
    att, dfn = gear["attacker"], gear["defender"]
    if not parts_on_unit(state, dfn):
        _log(state, event="no_parts", seat=dfn)
        _claim(state, att, NO_PARTS_SPOILS)
        return
    diff = unit_stat(state, att, "fue") - unit_stat(state, dfn, "def")
    _log(state, event="guerrilla", attacker=att, defender=dfn, damage=diff)
    if diff > 0:
        state["pending"] = {"kind": "guerrilla_damage", "chooser": att, "victim": dfn, "amount": diff}
    elif diff < 0 and parts_on_unit(state, att):
        state["pending"] = {"kind": "guerrilla_damage", "chooser": dfn, "victim": att, "amount": -diff}


# ---------------------------------------------------------------- legal actions


def to_move(state: dict) -> list[int]:
    """Who must act now (one seat at a time, except the simultaneous setup decisions of NM-2)."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "mulligan":
        return [s for s in state["seats"] if not state["players"][s]["ready"]]
    if phase == "torso":
        return [s for s in state["seats"] if not state["players"][s]["torso_done"]]
    for seat in [state["active"], *opponents(state, state["active"])]:
        if _must_deactivate(state, seat):
            return [seat]
    if state["pending"] is not None:
        return [state["pending"]["chooser"]]
    if phase == "rebuild" and not state["stack"]:
        return [state["active"]]
    return [state["priority"]]


def _attachable(state: dict, seat: int) -> list[str]:
    """Parts in hand that may go on the Unit: not over a damaged Part (NM-10)."""
    p = state["players"][seat]
    out = []
    for code in p["hand"]:
        d = card_def(code)
        if d["kind"] == "part":
            occupant = p["unit"][d["zone"]]
            if occupant is None or occupant["damage"] == 0:
                out.append(code)
    return out


def _speeds_now(state: dict, seat: int) -> tuple[str, ...]:
    """NM-7: Normal only in the active player's main phases with an empty stack; Relámpago at any
    priority; Guerrilla only in the Guerrilla phase."""
    speeds = ["relampago"]
    if state["phase"] == "guerrilla":
        speeds.append("guerrilla")
    if not state["stack"] and seat == state["active"] and state["phase"] in MAIN_PHASES:
        speeds.append("normal")
    return tuple(speeds)


def _target_options(state: dict, seat: int, ab: dict) -> list[dict | None]:
    kind = ab.get("target", "none")
    damaged_only = ab.get("filter") == "damaged"

    def parts(owners):
        return [{"seat": o, "zone": z} for o in owners for z in parts_on_unit(state, o)
                if not damaged_only or state["players"][o]["unit"][z]["damage"] > 0]

    if kind == "chosen_enemy_part":
        return parts(opponents(state, seat))
    if kind == "chosen_own_part":
        return parts([seat])
    if kind == "chosen_part":
        return parts(state["seats"])
    if kind == "chosen_enemy_unit":
        return [{"seat": o} for o in opponents(state, seat)]
    if kind == "chosen_enemy_gear":
        foes = opponents(state, seat)
        return [{"gear": g["id"]} for g in state["stack"]
                if g["controller"] in foes and g["kind"] != "guerrilla" and not g["negated"]]
    return [None]


def _with_choices(base: dict, state: dict, seat: int, ab: dict, hand_left: list[str]) -> list[dict]:
    out = []
    discards = hand_left if ab.get("requires", {}).get("discard") else [None]
    for target in _target_options(state, seat, ab):
        for discard in discards:
            action = dict(base)
            if target is not None:
                action["target"] = target
            if discard is not None:
                action["discard"] = discard
            out.append(action)
    return out


def _uses_this_turn(state: dict, slot: dict, index: int) -> int:
    turn, count = slot["used"].get(str(index), (None, 0))
    return count if turn == state["turn"] else 0


def _ability_used(state: dict, slot: dict, index: int) -> bool:
    """NM-7: once per turn unless the card says otherwise (``per_turn``); counted per Part on the
    Unit, in every player's turn (NM-R5)."""
    ab = _abilities(slot["card"])[index]
    return _uses_this_turn(state, slot, index) >= ab.get("per_turn", 1)


def _activations(state: dict, seat: int) -> list[dict]:
    p = state["players"][seat]
    speeds = _speeds_now(state, seat)
    out = []
    for zone, slot in p["unit"].items():
        if slot is None or not slot["active"]:
            continue
        for i, ab in enumerate(_abilities(slot["card"])):
            if ab["speed"] in speeds and ab["cost"] <= p["charge"] and not _ability_used(state, slot, i):
                out += _with_choices({"type": "activate", "zone": zone, "ability": i}, state, seat, ab, p["hand"])
    for code in p["hand"]:
        d = card_def(code)
        if d["kind"] == "support":
            ab = d["abilities"][0]
            if ab["speed"] in speeds and ab["cost"] <= p["charge"]:
                rest = [c for c in p["hand"] if c != code]
                out += _with_choices({"type": "support", "card": code}, state, seat, ab, rest)
    return out


def _main_moves(state: dict, seat: int) -> list[dict]:
    """Attach one Part from hand, Workshop moves (NM-10, NM-11)."""
    p = state["players"][seat]
    out = []
    if not p["attached"]:
        out += [{"type": "attach", "card": c} for c in _attachable(state, seat)]
    if _free_workshop(p) is not None:
        out += [{"type": "to_workshop", "zone": z} for z, s in p["unit"].items() if s is not None and s["damage"] > 0]
    out += [{"type": "from_workshop", "workshop": w} for w, ws in p["workshops"].items()
            if ws is not None and ws["damage"] == 0 and ws["since"] < p["turns"]]
    return out


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every legal action of ``seat`` now, nothing else ([] when it is not to move)."""
    if seat not in to_move(state):
        return []
    p = state["players"][seat]
    phase = state["phase"]
    if phase == "mulligan":
        return [{"type": "keep"}] + ([{"type": "mulligan"}] if _next_hand_size(p) >= 1 else [])
    if phase == "torso":
        parts = [{"type": "torso", "card": c} for c in p["hand"] if card_def(c)["kind"] == "part"]
        return parts or [{"type": "no_torso"}]
    zones = _must_deactivate(state, seat)
    if zones:
        return [{"type": "deactivate", "zone": z} for z in zones]
    pending = state["pending"]
    if pending is not None:
        return [{"type": "damage_target", "zone": z} for z in parts_on_unit(state, pending["victim"])]
    if state["stack"]:
        return [{"type": "pass"}] + _activations(state, seat)
    if phase == "rebuild":
        return [{"type": "rebuild", "card": c} for c in _attachable(state, seat)] + [{"type": "rebuild_done"}]
    out = [{"type": "next"}]
    if phase in MAIN_PHASES:
        out += _main_moves(state, seat)
    elif not state["guerrilla_done"]:
        out += [{"type": "guerrilla", "opponent": o} for o in opponents(state, seat)]
    return out + _activations(state, seat)


# ---------------------------------------------------------------- applying actions


def _activate(state: dict, seat: int, action: dict) -> None:
    """NM-8: pay the Charge, meet the requirement (target, discard), then the effect waits on the stack."""
    p = state["players"][seat]
    if action["type"] == "activate":
        slot = p["unit"][action["zone"]]
        code, index, kind = slot["card"], action["ability"], "ability"
        slot["used"][str(index)] = [state["turn"], _uses_this_turn(state, slot, index) + 1]
    else:
        code, index, kind = action["card"], 0, "support"
        p["hand"].remove(code)
    ab = _abilities(code)[index]
    p["charge"] -= ab["cost"]
    if "discard" in action:
        p["hand"].remove(action["discard"])
        p["scrapyard"].append(action["discard"])
    target = action.get("target")
    if target is not None and "zone" in target:
        target = {**target, "card": state["players"][target["seat"]]["unit"][target["zone"]]["card"]}
    _log(state, event="activate", seat=seat, card=card_key(code), gear=state["next_gear"])
    _push(state, {"kind": kind, "controller": seat, "card": code, "ability": index, "target": target,
                  "negated": False}, _next_seat(state, seat))


def _pass(state: dict, seat: int) -> None:
    """NM-8: when everyone passes in a row, the stack resolves."""
    state["passes"] += 1
    if state["passes"] >= len(state["seats"]):
        _resolve_stack(state)
    else:
        state["priority"] = _next_seat(state, seat)


def _next_phase(state: dict) -> None:
    state["phase"] = {"main1": "guerrilla", "guerrilla": "main2", "main2": "end"}[state["phase"]]


def _declare_guerrilla(state: dict, seat: int, foe: int) -> None:
    """NM-10: declare a Guerrilla against one opponent; it waits on the stack so both sides may
    answer with Guerrilla/Relámpago abilities (NM-R7); the defender's on_attacked triggers fire."""
    state["guerrilla_done"] = True
    _push(state, {"kind": "guerrilla", "controller": seat, "attacker": seat, "defender": foe, "negated": False},
          _next_seat(state, seat))
    for zone in parts_on_unit(state, foe):
        _queue_triggers(state, foe, zone, "on_attacked")
    for gear in state["triggers"]:
        _push(state, gear, _next_seat(state, seat))
    state["triggers"] = []


def _damage_target(state: dict, zone: str) -> None:
    """NM-10: the chooser places the Guerrilla damage (and is its destroyer, NM-R9); resolution goes on."""
    pending = state["pending"]
    state["pending"] = None
    _damage(state, pending["victim"], zone, pending["amount"], pending["chooser"])
    _resolve_stack(state)


def step(state: dict, seat: int, action: dict) -> dict:
    """Apply a LEGAL action in place (no validation: the fast path for bots). Returns ``state``."""
    kind = action["type"]
    p = state["players"][seat]
    if kind == "mulligan":
        _do_mulligan(state, seat)
    elif kind == "keep":
        _do_keep(state, seat)
    elif kind == "torso":
        _do_torso(state, seat, action["card"])
    elif kind == "no_torso":
        _do_torso(state, seat, None)
    elif kind == "deactivate":
        _deactivate(state, seat, action["zone"])
    elif kind == "damage_target":
        _damage_target(state, action["zone"])
    elif kind == "rebuild":
        p["hand"].remove(action["card"])
        state["rebuild_left"] -= 1
        _equip(state, seat, action["card"])
    elif kind == "rebuild_done":
        state["rebuild_left"] = 0
    elif kind == "attach":
        p["hand"].remove(action["card"])
        p["attached"] = True
        _equip(state, seat, action["card"])
    elif kind == "to_workshop":
        _to_workshop(state, seat, action["zone"])
    elif kind == "from_workshop":
        ws = p["workshops"][action["workshop"]]
        p["workshops"][action["workshop"]] = None
        _equip(state, seat, ws["card"], ws["damage"])
    elif kind in ("activate", "support"):
        _activate(state, seat, action)
    elif kind == "pass":
        _pass(state, seat)
    elif kind == "next":
        _next_phase(state)
    elif kind == "guerrilla":
        _declare_guerrilla(state, seat, action["opponent"])
    if not state["stack"] and state["pending"] is None:
        _flush_triggers(state)
    _advance(state)
    return state


class _NotPlain(Exception):
    """Raised by :func:`_plain_copy` on anything a JSON round trip would change."""


_LEAVES = frozenset((str, int, bool, float, type(None)))


def _plain_copy(data):
    """A deep copy of plain JSON data (dicts with string keys, lists, str/int/bool/float/None),
    equal to ``json.loads(json.dumps(data))`` and about twice as fast."""
    kind = type(data)
    if kind is dict:
        out = {}
        for key, value in data.items():
            if type(key) is not str:
                raise _NotPlain
            out[key] = value if type(value) in _LEAVES else _plain_copy(value)
        return out
    if kind is list:
        return [value if type(value) in _LEAVES else _plain_copy(value) for value in data]
    if kind in _LEAVES:
        return data
    raise _NotPlain


def copy_state(state: dict) -> dict:
    """A deep copy, exactly as a JSON round trip makes it (which it falls back to for anything
    that is not plain JSON data, e.g. a tuple or an int key)."""
    try:
        return _plain_copy(state)
    except _NotPlain:
        return json.loads(json.dumps(state))


def _canonical(action: object) -> str | None:
    try:
        return json.dumps(action, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


def apply(state: dict, seat: int, action: dict) -> dict:
    """The validated entry point: a NEW state, or :class:`IllegalAction` (the input is untouched)."""
    if state.get("phase") == "over":
        raise IllegalAction(E_GAME_OVER)
    if type(seat) is not int or seat not in state["seats"]:
        raise IllegalAction(E_BAD_SEAT, seat=str(seat))
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(E_MALFORMED)
    wanted = _canonical(action)
    if wanted is None:
        raise IllegalAction(E_MALFORMED)
    if action["type"] not in ACTION_TYPES:
        raise IllegalAction(E_UNKNOWN_TYPE, type=action["type"][:40])
    if seat not in to_move(state):
        raise IllegalAction(E_NOT_YOUR_TURN)
    legal = next((a for a in legal_actions(state, seat) if _canonical(a) == wanted), None)
    if legal is None:
        template, params = _explain(state, seat, action)
        raise IllegalAction(template, **params)
    return step(copy_state(state), seat, legal)


def _explain(state: dict, seat: int, action: dict) -> tuple[str, dict]:
    """The most helpful reason an action with a known type is illegal now."""
    p = state["players"][seat]
    kind = action["type"]
    if _must_deactivate(state, seat) and kind != "deactivate":
        return E_MUST_DEACTIVATE, {}
    if kind == "mulligan" and state["phase"] == "mulligan":
        return E_NO_MULLIGAN, {}
    card = action.get("card")
    if kind in ("attach", "rebuild", "support", "torso") and (not isinstance(card, str) or card not in p["hand"]):
        return E_NOT_IN_HAND, {}
    if kind in ("attach", "rebuild", "torso") and card_def(card)["kind"] != "part":
        return E_NOT_A_PART, {}
    if kind == "attach" and state["phase"] in MAIN_PHASES and not state["stack"]:
        if p["attached"]:
            return E_ALREADY_ATTACHED, {}
        occupant = p["unit"][card_def(card)["zone"]]
        if occupant is not None and occupant["damage"] > 0:
            return E_DAMAGED_OCCUPANT, {}
    if kind == "to_workshop" and action.get("zone") in ZONES and p["unit"][action["zone"]] is not None:
        if p["unit"][action["zone"]]["damage"] == 0:
            return E_NOT_DAMAGED, {}
        if _free_workshop(p) is None:
            return E_WORKSHOP_FULL, {}
    if kind == "from_workshop" and action.get("workshop") in WORKSHOPS and p["workshops"][action["workshop"]]:
        return E_WORKSHOP_NOT_READY, {}
    ab = _action_ability(state, seat, action)
    if ab is not None:
        if ab["speed"] not in _speeds_now(state, seat):
            return E_WRONG_SPEED, {"speed": ab["speed"]}
        if ab["cost"] > p["charge"]:
            return E_NO_CHARGE, {"cost": ab["cost"], "charge": p["charge"]}
        slot = p["unit"].get(action.get("zone")) if kind == "activate" else None
        if slot is not None and _ability_used(state, slot, action["ability"]):
            return E_ABILITY_USED, {}
        return E_BAD_TARGET, {}
    return E_NOT_NOW, {}


def _action_ability(state: dict, seat: int, action: dict) -> dict | None:
    p = state["players"][seat]
    if action["type"] == "support" and action.get("card") in p["hand"]:
        d = card_def(action["card"])
        return d["abilities"][0] if d["kind"] == "support" else None
    if action["type"] == "activate" and action.get("zone") in ZONES and type(action.get("ability")) is int:
        slot = p["unit"][action["zone"]]
        if slot is not None and slot["active"] and 0 <= action["ability"] < len(_abilities(slot["card"])):
            ab = _abilities(slot["card"])[action["ability"]]
            return ab if ab["speed"] not in ("pasiva", "disparado") else None
    return None


# ---------------------------------------------------------------- outcome, JSON


def outcome(state: dict) -> dict | None:
    """NM-1: 5 War Spoils, or an opponent who had to draw from an empty Arsenal."""
    if state["phase"] != "over":
        return None
    return {"winners": list(state["winners"]), "draw": not state["winners"],
            "scores": {str(s): claimed(state, s) for s in state["seats"]}}


def to_json(state: dict) -> dict:
    return copy_state(state)


def from_json(data: dict) -> dict:
    if not isinstance(data, dict) or data.get("game") != "nismatch":
        raise IllegalAction(E_BAD_STATE)
    return copy_state(data)

