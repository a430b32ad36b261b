"""Nismatch in words: each Unit's Parts with their PG and damage, the Workshops, Charge, the War
Spoils, the response stack while it is open, and every action in the book's terms.

Book words (seeds/001): Unidad, Partes, Cartas de Apoyo, Carga (CAR), Puntos de Golpe (PG),
FUE/DEF/VEL, Talleres Alfa y Beta, Depósito de Chatarra, Zona de Demolición, Arsenal, Botines de
Guerra, marchas (gears on the stack), prioridad, fase de Guerrilla, Reconstrucción.
Card names are the cards' own (Spanish) names in both languages.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import pgettext

from cardgames.engines.nismatch.cards import DECKS, ZONES, card_def, card_key
from cardgames.engines.nismatch.engine import HAND_SIZE, SPOILS, unit_stat
from cardgames.presenters.words import COLLAPSE_OVER, generic_label, join_words, result_text, turn_text


def zone_name(zone: str) -> str:
    return {
        "head": pgettext("nismatch zone", "Head"),
        "torso": pgettext("nismatch zone", "Torso"),
        "left_arm": pgettext("nismatch zone", "Left Arm"),
        "right_arm": pgettext("nismatch zone", "Right Arm"),
        "left_leg": pgettext("nismatch zone", "Left Leg"),
        "right_leg": pgettext("nismatch zone", "Right Leg"),
    }.get(zone, _("a zone"))


def stat_name(stat: str) -> str:
    return {
        "fue": pgettext("nismatch stat", "STR"),
        "def": pgettext("nismatch stat", "DEF"),
        "vel": pgettext("nismatch stat", "SPD"),
    }.get(stat, "")


def workshop_name(key: str) -> str:
    return _("Workshop Alfa") if key == "alfa" else _("Workshop Beta")


def phase_name(phase: str) -> str:
    return {
        "mulligan": _("choosing hands"),
        "torso": _("placing the first Part"),
        "recharge": _("Recharge"),
        "draw": _("Draw"),
        "rebuild_start": _("Rebuild"),
        "rebuild": _("Rebuild"),
        "main1": _("Main phase 1"),
        "guerrilla": _("Guerrilla phase"),
        "main2": _("Main phase 2"),
        "end": _("End of turn"),
        "over": _("game over"),
    }.get(phase, "")


def name(code: str | None) -> str:
    if not code or code == "hidden":
        return _("a face-down Part")
    return card_def(code)["name"]


def _until(until: str) -> str:
    return _("until the end of the turn") if until == "end_of_turn" else _("until your next turn")


def effect_text(effect: dict) -> str:
    """One effect of an ability, e.g. "2 damage", "STR +2 until the end of the turn"."""
    op, amount = effect.get("op"), effect.get("amount", 0)
    if op == "damage":
        return ngettext("%(n)s damage", "%(n)s damage", amount) % {"n": amount}
    if op == "destroy":
        return _("destroy")
    if op == "demolish":
        return _("demolish (gone for good)")
    if op == "to_workshop":
        return _("send to a Workshop")
    if op == "repair":
        return ngettext("repair %(n)s PG", "repair %(n)s PG", amount) % {"n": amount}
    if op == "deactivate":
        return _("deactivate")
    if op == "negate":
        return _("cancel it")
    if op == "charge":
        return (_("+%(n)s Charge") if amount >= 0 else _("%(n)s Charge")) % {"n": amount}
    if op == "modify":
        return _("%(stat)s %(sign)s%(n)s %(until)s") % {
            "stat": stat_name(effect.get("stat")), "sign": "+" if amount >= 0 else "", "n": amount,
            "until": _until(effect.get("until"))}
    if op == "draw":
        return ngettext("draw %(n)s card", "draw %(n)s cards", amount) % {"n": amount}
    if op == "recover":
        return _("take back the last Part of your Scrapyard")
    if op == "armor":
        return ngettext("takes %(n)s less damage", "takes %(n)s less damage", amount) % {"n": amount}
    if op == "stat":
        return _("%(stat)s +%(n)s") % {"stat": stat_name(effect.get("stat")), "n": amount}
    if op == "repair_bonus":
        return _("Workshops repair %(n)s more") % {"n": amount}
    return ""


def speed_word(speed: str) -> str:
    return {
        "pasiva": _("Passive"),
        "normal": _("Normal"),
        "relampago": _("Lightning"),
        "guerrilla": _("Guerrilla"),
        "disparado": _("Triggered"),
    }.get(speed, "")


def _trigger_word(trigger: str | None) -> str:
    return {
        "on_equip": _("when attached"),
        "on_destroyed": _("when destroyed"),
        "on_attacked": _("when your Unit is attacked in a Guerrilla"),
    }.get(trigger, "")


def _target_word(target: str | None) -> str:
    return {
        "self": _("this Part"),
        "own_unit": _("your Unit"),
        "chosen_enemy_part": _("an enemy Part"),
        "chosen_own_part": _("one of your Parts"),
        "chosen_part": _("any Part"),
        "each_enemy_part": _("every enemy Part"),
        "chosen_enemy_unit": _("an enemy Unit"),
        "each_enemy_unit": _("every enemy Unit"),
        "chosen_enemy_gear": _("an enemy ability or Support"),
    }.get(target, "")


def ability_text(ability: dict) -> str:
    """An ability in words: speed, cost, effects and target (the printed text is Spanish only)."""
    effects = join_words([effect_text(e) for e in ability.get("effects", [])])
    target = _target_word(ability.get("target"))
    if target:
        effects = _("%(effects)s → %(target)s") % {"effects": effects, "target": target}
    bits = [speed_word(ability.get("speed"))]
    if ability.get("speed") == "disparado":
        bits.append(_trigger_word(ability.get("trigger")))
    if ability.get("cost"):
        bits.append(_("Charge %(n)s") % {"n": ability["cost"]})
    if ability.get("requires", {}).get("discard"):
        bits.append(_("discard a card"))
    head = ", ".join(b for b in bits if b)
    return _("%(head)s: %(effects)s") % {"head": head, "effects": effects}


def card_info(code: str) -> dict:
    """A card of the pool for a template: name, kind, zone, stats, abilities in words."""
    d = card_def(code)
    part = d["kind"] == "part"
    stats = ""
    if part:
        stats = _("PG %(pg)s · Charge %(charge)s · %(fue)s %(f)s · %(def)s %(d)s · %(vel)s %(v)s") % {
            "pg": d["pg"], "charge": ("+%s" % d["charge"]) if d["charge"] > 0 else d["charge"],
            "fue": stat_name("fue"), "f": d["fue"], "def": stat_name("def"), "d": d["def"],
            "vel": stat_name("vel"), "v": d["vel"]}
    return {
        "name": d["name"],
        "kind_text": ((_("Part for the %(zone)s") % {"zone": zone_name(d["zone"])}) if part
                      else _("Support card")),
        "stats": stats,
        "abilities": [ability_text(a) for a in d["abilities"]],
    }


def _part_slot(slot: dict | None, zone: str) -> dict:
    if slot is None:
        return {"zone": zone_name(zone), "empty": True}
    d = card_def(slot["card"])
    left = d["pg"] - slot["damage"]
    return {
        "zone": zone_name(zone),
        "empty": False,
        "info": card_info(slot["card"]),
        "pg_text": _("PG %(left)s of %(max)s") % {"left": left, "max": d["pg"]},
        "damage": slot["damage"],
        "damaged": slot["damage"] > 0,
        "active": slot["active"],
        "state_text": "" if slot["active"] else _("deactivated"),
        "pg_left": left,
        "pg_max": d["pg"],
    }


def _owned(seat_of: int, viewer: int | None, seat_name, thing: str) -> str:
    """"your Revólver de Vapor" / "Ana's Revólver de Vapor" (whole phrases: word order differs)."""
    if seat_of == viewer:
        return _("your %(thing)s") % {"thing": thing}
    return _("%(name)s’s %(thing)s") % {"name": seat_name(seat_of), "thing": thing}


def target_text(target, view: dict, viewer: int | None, seat_name) -> str:
    """A target dict in words: a Part, a Unit or a gear on the stack."""
    if not isinstance(target, dict):
        return ""
    if "gear" in target:
        gear = next((g for g in view.get("stack", []) if g.get("id") == target["gear"]), None)
        if gear is None:
            return _("a gear on the stack")
        return _("%(card)s on the stack") % {
            "card": _owned(gear["controller"], viewer, seat_name, name(gear.get("card")))}
    s = target.get("seat")
    if s is None:
        return ""
    if "zone" in target:
        slot = view["players"][s]["unit"].get(target["zone"])
        part = name(slot["card"]) if slot else _("the empty zone")
        return _("%(part)s (%(zone)s)") % {
            "part": _owned(s, viewer, seat_name, part), "zone": zone_name(target["zone"])}
    return _owned(s, viewer, seat_name, _("Unit"))


def _gear_text(gear: dict, view: dict, viewer: int | None, seat_name) -> str:
    who = seat_name(gear["controller"])
    if gear.get("kind") == "guerrilla":
        return _("%(name)s’s Guerrilla against %(target)s") % {
            "name": who, "target": seat_name(gear.get("defender", 1 - gear["controller"]))}
    ability = None
    try:
        ability = card_def(gear["card"])["abilities"][gear.get("ability", 0)]
    except (KeyError, IndexError, TypeError):
        ability = None
    effects = join_words([effect_text(e) for e in ability["effects"]]) if ability else ""
    text = _("%(name)s: %(card)s, %(effects)s") % {
        "name": who, "card": name(gear.get("card")), "effects": effects}
    if gear.get("target"):
        text += " → " + target_text(gear["target"], view, viewer, seat_name)
    if gear.get("negated"):
        text += " " + _("(cancelled)")
    return text


def _log_text(event: dict, view: dict, viewer: int | None, seat_name) -> str:
    kind = event.get("event")
    if kind == "activate":
        return _("%(name)s uses %(card)s.") % {"name": seat_name(event["seat"]), "card": name(event["card"])}
    if kind == "resolved":
        return _("An effect resolves.")
    if kind == "negated":
        return _("An effect is cancelled.")
    if kind == "fizzled":
        return _("An effect finds no target and does nothing.")
    if kind == "destroyed":
        return _("Part destroyed: %(card)s (%(zone)s).") % {
            "card": _owned(event["seat"], viewer, seat_name, name(event["card"])),
            "zone": zone_name(event["zone"])}
    if kind == "spoil":
        return _("%(name)s claims a War Spoil.") % {"name": seat_name(event["seat"])}
    if kind == "guerrilla":
        names = {"attacker": seat_name(event["attacker"]), "defender": seat_name(event["defender"])}
        if event["damage"] > 0:
            return ngettext("%(attacker)s’s Guerrilla against %(defender)s: %(n)s damage.",
                            "%(attacker)s’s Guerrilla against %(defender)s: %(n)s damage.",
                            event["damage"]) % {**names, "n": event["damage"]}
        if event["damage"] == 0:
            return _("%(attacker)s’s Guerrilla against %(defender)s does no damage.") % names
        return ngettext("%(attacker)s’s Guerrilla against %(defender)s backfires: %(n)s damage to %(attacker)s.",
                        "%(attacker)s’s Guerrilla against %(defender)s backfires: %(n)s damage to %(attacker)s.",
                        -event["damage"]) % {**names, "n": -event["damage"]}
    if kind == "no_parts":
        return _("%(name)s’s Unit has no Parts left.") % {"name": seat_name(event["seat"])}
    if kind == "reveal":
        return _("The face-down Torsos are revealed.")
    return ""


def _end_reason(view: dict) -> str:
    return (_("Five War Spoils claimed.") if view.get("end_reason") == "spoils"
            else _("An Arsenal ran out of cards.") if view.get("end_reason") == "empty_arsenal" else "")


def outcome_words(view: dict, seat_name) -> dict:
    """Why the game ended and what the result box's numbers count (NM-1: the War Spoils each
    seat claimed; the fifth wins)."""
    return {"reason": _end_reason(view), "score_label": _("War Spoils claimed (five win)")}


def present(view: dict, seat: int | None, seat_name) -> dict:
    over = view["phase"] == "over"
    players = []
    for s, p in enumerate(view["players"]):
        workshops = []
        for key in ("alfa", "beta"):
            ws = p["workshops"].get(key)
            if ws is None:
                workshops.append({"name": workshop_name(key), "empty": True})
            else:
                d = card_def(ws["card"])
                workshops.append({
                    "name": workshop_name(key), "empty": False, "part": d["name"],
                    "pg_text": _("PG %(left)s of %(max)s") % {"left": d["pg"] - ws["damage"], "max": d["pg"]},
                    "ready_text": _("repaired") if ws["damage"] == 0 else
                    ngettext("%(n)s damage to repair", "%(n)s damage to repair",
                             ws["damage"]) % {"n": ws["damage"]},
                })
        # the War Spoils are set aside when every hand is kept (NM-2): none claimed before that
        claimed = 0 if view["phase"] == "mulligan" else SPOILS - p["spoils_count"]
        facedown = p.get("facedown")
        players.append({
            "name": seat_name(s),
            "is_you": s == seat,
            "to_move": s in view["to_move"],
            "active": s == view.get("active") and not over,
            "deck": DECKS.get(p["deck"], {}).get("name", ""),
            "spoils_claimed": claimed,
            "spoils_text": _("War Spoils: %(n)s of 5 claimed") % {"n": claimed},
            "spoils_marks": [i < claimed for i in range(SPOILS)],
            "charge": p["charge"],
            "charge_text": _("Charge %(n)s") % {"n": p["charge"]},
            "stats": [{"name": stat_name(st), "value": unit_stat(view, s, st)}
                      for st in ("fue", "def", "vel")],
            "parts": [_part_slot(p["unit"].get(z), z) for z in ZONES],
            "workshops": workshops,
            "arsenal_text": ngettext("%(n)s card in the Arsenal", "%(n)s cards in the Arsenal",
                                     p["arsenal_count"]) % {"n": p["arsenal_count"]},
            "hand_text": ngettext("%(n)s card in hand", "%(n)s cards in hand",
                                  p["hand_count"]) % {"n": p["hand_count"]},
            "scrapyard": [name(c) for c in p["scrapyard"]],
            "demolition": [name(c) for c in p["demolition"]],
            "facedown_text": ("" if facedown is None else
                              _("A Part waits face down for the Torso zone.") if facedown == "hidden" else
                              _("Face-down Torso: %(card)s") % {"card": name(facedown)}),
        })
    others = [p for p in players if not p["is_you"]]
    mine = [p for p in players if p["is_you"]]
    me = view["players"][seat] if seat is not None else None
    stack = [{"text": _gear_text(g, view, seat, seat_name), "negated": g.get("negated", False)}
             for g in reversed(view.get("stack", []))]
    pending = view.get("pending")
    pending_text = ""
    if pending and pending.get("kind") == "guerrilla_damage":
        words = {"chooser": seat_name(pending["chooser"]), "victim": seat_name(pending["victim"]),
                 "n": pending["amount"]}
        if pending["chooser"] == seat and pending["victim"] != seat:
            pending_text = _("Choose which Part of %(victim)s takes %(n)s Guerrilla damage.") % words
        elif pending["chooser"] == seat:
            pending_text = _("Choose which of your Parts takes %(n)s Guerrilla damage.") % words
        elif pending["victim"] == seat:
            pending_text = _("%(chooser)s chooses which of your Parts takes %(n)s Guerrilla damage.") % words
        else:
            pending_text = _(
                "%(chooser)s chooses which Part of %(victim)s takes %(n)s Guerrilla damage.") % words
    phase_text = ""
    if view["phase"] in ("mulligan", "torso", "over"):
        phase_text = phase_name(view["phase"]).capitalize()
    elif view.get("active") is not None:
        phase_text = _("Round %(round)s · %(name)s’s turn · %(phase)s") % {
            "round": view["round"], "name": seat_name(view["active"]), "phase": phase_name(view["phase"])}
    winners = view.get("winners")
    result = ""
    reason = ""
    if over and winners is not None:
        result = result_text(list(winners), not winners, seat, seat_name)
        reason = _end_reason(view)
    # holding priority in another's turn: the table's line said "Your turn." under "Bot's turn"
    responding = (not over and seat is not None and seat in view["to_move"] and view.get("active") is not None
                  and view.get("active") != seat)
    return {
        "turn_text": turn_text(view["to_move"], seat, seat_name, over),
        "your_turn_text": _("Your answer: you hold priority in %(name)s’s turn.") % {
            "name": seat_name(view["active"])} if responding else "",
        "phase_text": phase_text,
        "result_text": result,
        "reason_text": reason,
        "over": over,
        "players": others + mine,
        "stack": stack,
        "stack_open": bool(stack),
        "pending_text": pending_text,
        "hand": None if me is None or me.get("hand") is None else [card_info(c) for c in me["hand"]],
        "log": [t for t in (_log_text(e, view, seat, seat_name) for e in view.get("log", [])[-8:]) if t],
    }


def _ability_of(view: dict, seat: int, action: dict) -> dict | None:
    try:
        if action.get("type") == "activate":
            slot = view["players"][seat]["unit"][action["zone"]]
            return card_def(slot["card"])["abilities"][action["ability"]]
        return card_def(action["card"])["abilities"][0]
    except (KeyError, IndexError, TypeError):
        return None


def _use_text(head: str, ability: dict | None, action: dict, view: dict, seat: int, seat_name) -> str:
    effects = join_words([effect_text(e) for e in ability["effects"]]) if ability else ""
    text = _("%(head)s: %(effects)s") % {"head": head, "effects": effects} if effects else head
    if "target" in action:
        text += " → " + target_text(action["target"], view, seat, seat_name)
    extras = []
    if ability and ability.get("cost"):
        extras.append(_("Charge %(n)s") % {"n": ability["cost"]})
    if action.get("discard"):
        extras.append(_("discard %(card)s") % {"card": name(action["discard"])})
    if extras:
        text += " (" + ", ".join(extras) + ")"
    return text


def action_label(action: dict, view: dict, seat_name) -> str:
    seat = view.get("viewer")
    kind = action.get("type")
    me = view["players"][seat] if seat is not None else None
    if kind == "keep":
        return _("Keep this hand")
    if kind == "mulligan":
        size = HAND_SIZE - (me["mulligans"] if me else 0)
        return ngettext("Mulligan: shuffle it back and draw %(n)s", "Mulligan: shuffle it back and draw %(n)s",
                        size) % {"n": size}
    if kind == "torso":
        return _("Place %(card)s face down as your first Part") % {"card": name(action["card"])}
    if kind == "no_torso":
        return _("Place no Part (your hand has none)")
    if kind == "deactivate":
        slot = me["unit"][action["zone"]] if me else None
        return _("Deactivate %(card)s (%(zone)s) to bring your Charge back to 0 or more") % {
            "card": name(slot["card"] if slot else None), "zone": zone_name(action["zone"])}
    if kind in ("attach", "rebuild"):
        d = card_def(action["card"])
        occupant = me["unit"].get(d["zone"]) if me else None
        verb = (_("Attach %(card)s to your %(zone)s") if kind == "attach"
                else _("Rebuild: attach %(card)s to your %(zone)s"))
        text = verb % {"card": d["name"], "zone": zone_name(d["zone"])}
        if occupant:
            text += " " + _("(replaces %(card)s)") % {"card": name(occupant["card"])}
        return text
    if kind == "rebuild_done":
        return _("Finish rebuilding")
    if kind == "to_workshop":
        slot = me["unit"][action["zone"]] if me else None
        return _("Send %(card)s (%(zone)s) to a Workshop for repair") % {
            "card": name(slot["card"] if slot else None), "zone": zone_name(action["zone"])}
    if kind == "from_workshop":
        ws = me["workshops"].get(action["workshop"]) if me else None
        return _("Bring %(card)s back from %(workshop)s") % {
            "card": name(ws["card"] if ws else None), "workshop": workshop_name(action["workshop"])}
    if kind == "activate":
        slot = me["unit"][action["zone"]] if me else None
        return _use_text(_("Use %(card)s") % {"card": name(slot["card"] if slot else None)},
                         _ability_of(view, seat, action), action, view, seat, seat_name)
    if kind == "support":
        return _use_text(pgettext("nismatch action", "Play %(card)s") % {"card": name(action["card"])},
                         _ability_of(view, seat, action), action, view, seat, seat_name)
    if kind == "guerrilla":
        foe = action["opponent"]
        mine = unit_stat(view, seat, "fue") if seat is not None else 0
        theirs = unit_stat(view, foe, "def")
        return _("Declare a Guerrilla against %(name)s (your %(fue)s %(a)s against their %(def)s %(b)s)") % {
            "name": seat_name(foe), "fue": stat_name("fue"), "a": mine, "def": stat_name("def"), "b": theirs}
    if kind == "damage_target":
        pending = view.get("pending") or {}
        victim = pending.get("victim", seat)
        return _("Put the damage on %(target)s") % {
            "target": target_text({"seat": victim, "zone": action["zone"]}, view, seat, seat_name)}
    if kind == "pass":
        return _("Pass: let the stack resolve")
    if kind == "next":
        phase = view.get("phase")
        if phase == "main1":
            return _("Go to the Guerrilla phase")
        if phase == "guerrilla":
            return _("No Guerrilla: go to Main phase 2")
        return _("End your turn")
    return generic_label(action, seat_name)


def copy_blind(action: dict) -> str:
    """The action with every card code reduced to its card (``"mazo.0.2"`` -> ``"mazo"``)."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        if isinstance(value, str) and value.count(".") == 2:
            return card_key(value)
        return value

    return json.dumps(strip(action), sort_keys=True)


def action_groups(actions: list[dict], view: dict, seat_name) -> list[dict]:
    order = ["setup", "must", "stack", "guerrilla", "attach", "use", "play", "workshop", "next"]
    titles = {
        "setup": _("Before the game"),
        "must": _("Your Charge is negative"),
        "stack": _("Answer or let it resolve"),
        "guerrilla": _("Guerrilla"),
        "attach": _("Attach a Part"),
        "use": _("Use a Part’s ability"),
        "play": _("Play a Support card"),
        "workshop": _("Workshops"),
        "next": _("Continue"),
    }
    bucket_of = {
        "keep": "setup", "mulligan": "setup", "torso": "setup", "no_torso": "setup",
        "deactivate": "must", "pass": "stack", "guerrilla": "guerrilla", "damage_target": "guerrilla",
        "attach": "attach", "rebuild": "attach", "rebuild_done": "next", "activate": "use",
        "support": "play", "to_workshop": "workshop", "from_workshop": "workshop", "next": "next",
    }
    buckets: dict[str, list] = {k: [] for k in order}
    seen: set[str] = set()
    for action in actions:
        # two copies of the same card make the same move: one button (the first copy)
        twin = copy_blind(action)
        if twin in seen:
            continue
        seen.add(twin)
        bucket = buckets[bucket_of.get(action.get("type"), "next")]
        bucket.append((action, action_label(action, view, seat_name)))
    # with the stack open, answering comes first and "pass" is the way to let it resolve
    if view.get("stack"):
        order = ["stack", *[k for k in order if k != "stack"]]
    return [{"title": str(titles[k]), "actions": buckets[k], "collapsed": len(buckets[k]) > COLLAPSE_OVER}
            for k in order if buckets[k]]


def move_text(seat_name, seat: int, action: dict, viewer: int | None) -> str:
    """A Nismatch move for the log. Hidden: the card placed face down as the Torso (until the
    reveal, which the board shows) and the mulligan's hands; everything else is played face up."""
    who = seat_name(seat)
    kind = action.get("type")
    if kind == "keep":
        return _("%(name)s keeps their hand.") % {"name": who}
    if kind == "mulligan":
        return _("%(name)s takes a mulligan.") % {"name": who}
    if kind in ("torso", "no_torso"):
        return _("%(name)s places their first Part face down.") % {"name": who} if kind == "torso" else \
            _("%(name)s has no Part to place.") % {"name": who}
    if kind == "deactivate":
        return _("%(name)s deactivates a Part (%(zone)s).") % {"name": who, "zone": zone_name(action["zone"])}
    if kind in ("attach", "rebuild"):
        d = card_def(action["card"])
        return _("%(name)s attaches %(card)s (%(zone)s).") % {
            "name": who, "card": d["name"], "zone": zone_name(d["zone"])}
    if kind == "rebuild_done":
        return _("%(name)s finishes rebuilding.") % {"name": who}
    if kind == "to_workshop":
        return _("%(name)s sends the %(zone)s Part to a Workshop.") % {
            "name": who, "zone": zone_name(action["zone"])}
    if kind == "from_workshop":
        return _("%(name)s brings a Part back from %(workshop)s.") % {
            "name": who, "workshop": workshop_name(action["workshop"])}
    if kind == "activate":
        return _("%(name)s uses the ability of the %(zone)s Part.") % {
            "name": who, "zone": zone_name(action["zone"])}
    if kind == "support":
        return _("%(name)s plays %(card)s.") % {"name": who, "card": name(action["card"])}
    if kind == "guerrilla":
        return _("%(name)s declares a Guerrilla against %(foe)s.") % {
            "name": who, "foe": seat_name(action["opponent"])}
    if kind == "damage_target":
        return _("%(name)s puts the Guerrilla damage on the %(zone)s.") % {
            "name": who, "zone": zone_name(action["zone"])}
    if kind == "pass":
        return _("%(name)s passes.") % {"name": who}
    if kind == "next":
        return _("%(name)s moves on.") % {"name": who}
    return _("%(name)s moves.") % {"name": who}
