"""PoCoBOT in words: each mecha's panel (modules, capacities, crew, fuel), the attack waiting for
its dodge, what just happened, and every action in the book's terms.

Book words (seeds/000): módulos Proyectiles ♠, Defensa ♥, Armadura ♣; zona de Combustible ♦;
Piloto, Copiloto, Potenciador; "mecha montado"; quemar combustible; tripulación completa; pasar.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import pgettext

from cardgames.engines.pocobot.cards import suit, value
from cardgames.engines.pocobot.panel import MOUNT_CARDS, MOUNT_PILOT_SUIT, copy_panel, take_damage
from cardgames.presenters.words import (
    COLLAPSE_OVER,
    SUIT_SYMBOLS,
    card,
    card_text,
    cards_text,
    generic_label,
    join_words,
    result_text,
    turn_text,
)

MODULE_ORDER = ("S", "H", "C")


def module_name(zone: str) -> str:
    return {
        "S": pgettext("pocobot module", "Projectiles"),
        "H": pgettext("pocobot module", "Defence"),
        "C": pgettext("pocobot module", "Armour"),
        "D": pgettext("pocobot module", "Fuel"),
    }[zone]


def _module_role(zone: str) -> str:
    return {
        "S": _("attack"),
        "H": _("life"),
        "C": _("shield"),
        "D": _("pays for attacks"),
    }[zone]


def _zone_of(code: str) -> str:
    return suit(code)


def _mounted_text(panel: dict, mounted: bool) -> str:
    """Mounted, or how far the mecha is from it (PB-5)."""
    if mounted:
        return _("Mounted mecha: it can make fuel attacks.")
    if panel["pilot"] is None:
        return _("Not mounted yet: it needs a Pilot, then %(cards)s module cards, %(suit)s of the Pilot’s suit.") % {
            "cards": MOUNT_CARDS, "suit": MOUNT_PILOT_SUIT}
    pilot_suit = suit(panel["pilot"])
    symbol = SUIT_SYMBOLS[pilot_suit]
    have = sum(len(panel[m]) for m in MODULE_ORDER)
    have_suit = len(panel[pilot_suit])
    more_cards = max(0, MOUNT_CARDS - have)
    more_suit = max(0, MOUNT_PILOT_SUIT - have_suit)
    # what is still missing ("8 of 6 module cards" read as nonsense once there were enough); a
    # number and its suit symbol are joined by a no-break space (a lone "♠" wrapped on a phone)
    if not more_suit:
        missing = ngettext("it needs %(count)s more module card", "it needs %(count)s more module cards",
                           more_cards) % {"count": more_cards}
    elif more_suit >= more_cards:  # the cards of the Pilot's suit also make up the count
        missing = ngettext("it needs %(count)s more %(symbol)s card", "it needs %(count)s more %(symbol)s cards",
                           more_suit) % {"count": more_suit, "symbol": symbol}
    else:
        missing = ngettext("it needs %(count)s more module card, %(suit_cards)s among them",
                           "it needs %(count)s more module cards, %(suit_cards)s among them",
                           more_cards) % {"count": more_cards, "suit_cards": f"{more_suit}\u00a0{symbol}"}
    return ngettext("Not mounted yet: %(missing)s (it has %(have)s module card, %(have_suit)s).",
                    "Not mounted yet: %(missing)s (it has %(have)s module cards, %(have_suit)s).", have) % {
        "missing": missing, "have": have, "have_suit": f"{have_suit}\u00a0{symbol}"}


def _panel(view: dict, s: int, seat: int | None, seat_name) -> dict:
    panel = view["panels"][s]
    caps = view["capacities"][s]
    modules = []
    for zone in MODULE_ORDER:
        cards = panel[zone]
        modules.append({
            "symbol": SUIT_SYMBOLS[zone],
            "red": zone in "HD",
            "name": module_name(zone),
            "role": _module_role(zone),
            "cards": [card(c) for c in cards],
            "free": range(max(0, caps[zone] - len(cards))),
            "count_text": _("%(count)s of %(capacity)s") % {"count": len(cards), "capacity": caps[zone]},
            "total": sum(value(c) for c in cards),
        })
    fuel = panel["D"]
    copilot_note = ""
    if panel["copilot"] is not None and panel.get("copilot_module"):
        copilot_note = _("raises %(module)s") % {"module": module_name(panel["copilot_module"])}
    crew = [
        {"role": pgettext("pocobot crew", "Pilot"), "card": card(panel["pilot"]) if panel["pilot"] else None,
         "note": ""},
        {"role": pgettext("pocobot crew", "Co-pilot"),
         "card": card(panel["copilot"]) if panel["copilot"] else None, "note": copilot_note},
        {"role": pgettext("pocobot crew", "Booster"),
         "card": card(panel["booster"]) if panel["booster"] else None,
         "note": _("lets you pay fuel with ♣") if panel["booster"] == "AD" else ""},
    ]
    mounted = view["mounted"][s]
    return {
        "name": seat_name(s),
        "is_you": s == seat,
        "to_move": s in view["to_move"],
        "modules": modules,
        "fuel": {"symbol": SUIT_SYMBOLS["D"], "name": module_name("D"), "role": _module_role("D"),
                 "cards": [card(c) for c in fuel], "total": sum(value(c) for c in fuel)},
        "crew": crew,
        "mounted": mounted,
        "mounted_text": _mounted_text(panel, mounted),
        "attack": sum(value(c) for c in panel["S"]),
        "life": sum(value(c) for c in panel["H"]),
        "armour": sum(value(c) for c in panel["C"]),
        "summary": _("attack %(attack)s · life %(life)s · armour %(armour)s") % {
            "attack": sum(value(c) for c in panel["S"]),
            "life": sum(value(c) for c in panel["H"]),
            "armour": sum(value(c) for c in panel["C"])},
        "hand_text": ngettext("%(count)s card in hand", "%(count)s cards in hand", view["hand_counts"][s])
        % {"count": view["hand_counts"][s]},
    }


def _event_text(event: dict, seat: int | None, seat_name) -> str:
    kind = event.get("type")
    who = seat_name(event["seat"]) if "seat" in event else ""
    if kind == "draw":
        return ngettext("%(name)s draws %(count)s card.", "%(name)s draws %(count)s cards.",
                        event["count"]) % {"name": who, "count": event["count"]}
    if kind == "reshuffle":
        return _("The discard is shuffled into a new pile.")
    if kind == "order":
        return _("Cards drawn to decide who starts.")
    if kind == "modify":
        return _("%(name)s %(ops)s.") % {"name": who, "ops": _ops_done_text(event["ops"])}
    if kind == "burn":
        return _("%(name)s burns the %(card)s.") % {"name": who, "card": _maybe_card(event["card"])}
    if kind == "crew_draw":
        return _("%(name)s discards %(cards)s with the full crew and draws 4.") % {
            "name": who, "cards": _maybe_cards(event["cards"])}
    if kind == "attack":
        return _("%(name)s attacks with %(attack)s.") % {"name": who, "attack": event["attack"]}
    if kind == "pass":
        return _("%(name)s passes, discarding %(cards)s.") % {
            "name": who, "cards": _maybe_cards(event["cards"])}
    if kind == "damage":
        parts = []
        if event.get("dodge"):
            parts.append(_("dodges with the %(card)s") % {"card": card_text(event["dodge"])})
        parts.append(_("takes %(attack)s") % {"attack": event["attack"]})
        if event.get("armor_lost"):
            parts.append(_("loses %(cards)s from the Armour") % {"cards": _maybe_cards(event["armor_lost"])})
        if event.get("hearts_lost"):
            parts.append(_("loses %(cards)s from the Defence") % {
                "cards": _maybe_cards(event["hearts_lost"])})
        text = _("%(name)s %(what)s.") % {"name": who, "what": join_words(parts)}
        if event.get("collapsed"):
            text += " " + _("The mecha collapses!")
        return text
    if kind == "draw_game":
        return _("Turn %(turns)s ends without a collapse: a draw.") % {"turns": event["turns"]}
    return ""


def _maybe_card(code) -> str:
    return card_text(code) if code else _("a card")


def _maybe_cards(codes) -> str:
    return join_words([_maybe_card(c) for c in codes])


def present(view: dict, seat: int | None, seat_name) -> dict:
    over = view["phase"] == "over"
    panels = [_panel(view, s, seat, seat_name) for s in range(len(view["panels"]))]
    others = [p for p in panels if not p["is_you"]]
    mine = [p for p in panels if p["is_you"]]
    pending = view.get("pending")
    pending_text = ""
    if pending:
        attacker = seat_name(pending["attacker"])
        if seat is not None and pending["attacker"] != seat:
            pending_text = _(
                "%(name)s attacks you with %(attack)s. You may dodge with a ♦ from your hand."
            ) % {"name": attacker, "attack": pending["attack"]}
        else:
            pending_text = _("%(name)s attacks with %(attack)s; the defender may dodge.") % {
                "name": attacker, "attack": pending["attack"]}
    step_text = ""
    if not over and seat in view["to_move"] and view["phase"] == "action":
        step_text = _("You drew your card: now modify your mecha, draw, attack or pass.")
    events = [t for t in (_event_text(e, seat, seat_name) for e in view.get("events", [])) if t]
    if view.get("winner") is not None:
        result = result_text([view["winner"]], False, seat, seat_name)
    elif view.get("draw"):
        result = result_text([], True, seat, seat_name)
    else:
        result = ""
    return {
        "turn_text": turn_text(view["to_move"], seat, seat_name, over),
        "step_text": step_text,
        "pending_text": pending_text,
        "result_text": result,
        "over": over,
        "turn_count_text": _("Turn %(turn)s of %(max)s") % {
            "turn": view["turn"] + 1 if not over else view["turn"], "max": view["max_turns"]},
        "panels": others + mine,
        "hand": None if view["hand"] is None else [card(c) for c in view["hand"]],
        "events": events,
        "deck_text": ngettext("%(count)s card in the pile", "%(count)s cards in the pile", view["deck_count"])
        % {"count": view["deck_count"]},
        # the whole discard, in the engine's order (by suit and value): it keeps no "top", and its
        # last 8 read as the latest, with a card just fired missing (a walk on a phone)
        "discard": [card(c) for c in view["discard"]],
        "discard_text": ngettext("%(count)s card in the discard", "%(count)s cards in the discard",
                                 len(view["discard"])) % {"count": len(view["discard"])},
        "removed": [card(c) for c in view["removed"]],
    }


def _op_text(op: dict, view: dict | None) -> str:
    """One change of a panel, as an instruction ("put the 7♠ in Projectiles")."""
    kind = op.get("op")
    code = op.get("card")
    c = card_text(code) if code else _("a card")
    if kind == "place":
        if _zone_of(code) == "D":
            return _("put the %(card)s in the Fuel zone") % {"card": c}
        return _("put the %(card)s in %(module)s") % {"card": c, "module": module_name(_zone_of(code))}
    if kind == "pilot":
        return _("seat the %(card)s as Pilot") % {"card": c}
    if kind == "copilot":
        if op.get("module"):
            return _("seat the %(card)s as Co-pilot, raising %(module)s") % {
                "card": c, "module": module_name(op["module"])}
        return _("seat the %(card)s as Co-pilot") % {"card": c}
    if kind == "booster":
        return _("mount the %(card)s as Booster") % {"card": c}
    if kind == "remove":
        if op.get("discard"):
            return _("remove the %(card)s (and drop %(cards)s)") % {
                "card": c, "cards": cards_text(op["discard"])}
        return _("remove the %(card)s") % {"card": c}
    return _("change the panel")


def _op_done_text(op: dict) -> str:
    """One change of a panel, as told in the log ("puts the 7♠ in Projectiles")."""
    kind = op.get("op")
    code = op.get("card")
    c = card_text(code) if code else _("a card")
    if kind == "place":
        if code and _zone_of(code) == "D":
            return _("puts the %(card)s in the Fuel zone") % {"card": c}
        if code:
            return _("puts the %(card)s in %(module)s") % {"card": c, "module": module_name(_zone_of(code))}
    if kind == "pilot":
        return _("seats the %(card)s as Pilot") % {"card": c}
    if kind == "copilot":
        if op.get("module"):
            return _("seats the %(card)s as Co-pilot, raising %(module)s") % {
                "card": c, "module": module_name(op["module"])}
        return _("seats the %(card)s as Co-pilot") % {"card": c}
    if kind == "booster":
        return _("mounts the %(card)s as Booster") % {"card": c}
    if kind == "remove":
        if op.get("discard"):
            # a dropped card reshuffled into the pile in the same action is hidden (None) by then
            return _("removes the %(card)s (and drops %(cards)s)") % {
                "card": c, "cards": _maybe_cards(op["discard"])}
        return _("removes the %(card)s") % {"card": c}
    return _("changes the panel")


def _ops_text(ops: list[dict], view: dict | None) -> str:
    return join_words([_op_text(op, view) for op in ops])


def _ops_done_text(ops: list[dict]) -> str:
    return join_words([_op_done_text(op) for op in ops])


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _damage_result(view: dict, attack: int) -> str:
    """What an attack would do to the viewer's panel (PB-15, PB-16), in words."""
    seat = view.get("seat")
    if seat is None:
        return ""
    panel = copy_panel(view["panels"][seat])
    lost_c, lost_h, collapsed = take_damage(panel, attack)
    if collapsed:
        return _("your mecha collapses")
    if not lost_c and not lost_h:
        return _("you lose nothing")
    return _("you lose %(cards)s") % {"cards": join_words([card_text(c) for c in [*lost_c, *lost_h]])}


def action_label(action: dict, view: dict, seat_name) -> str:
    kind = action.get("type")
    if kind == "modify":
        return _capitalise(_ops_text(action["ops"], view))
    if kind == "burn":
        return _("Burn the %(card)s: draw %(count)s") % {"card": card_text(action["card"]),
                                                      "count": value(action["card"])}
    if kind == "crew_draw":
        return _("Full crew: discard the %(cards)s, draw 4") % {"cards": join_words(
            [card_text(c) for c in action["cards"]])}
    if kind == "fuel_attack":
        fuel = join_words([card_text(c) for c in action["fuel"]])
        if action.get("extra"):
            total = action["x"] + value(action["extra"])
            return _("Fuel attack of %(total)s (%(x)s and the extra %(card)s), paying %(fuel)s") % {
                "total": total, "x": action["x"], "card": card_text(action["extra"]), "fuel": fuel}
        return _("Fuel attack of %(x)s, paying %(fuel)s") % {"x": action["x"], "fuel": fuel}
    if kind == "projectile":
        return _("Fire the %(card)s: an attack of %(value)s") % {"card": card_text(action["card"]),
                                                               "value": value(action["card"])}
    if kind == "pass":
        if not action["cards"]:
            return _("Pass")
        return _("Pass, discarding %(cards)s") % {
            "cards": join_words([card_text(c) for c in action["cards"]])}
    if kind == "dodge":
        pending = view.get("pending") or {}
        attack = pending.get("attack", 0)
        if action.get("card") is None:
            return _("Take the attack without dodging (%(result)s)") % {
                "result": _damage_result(view, attack)}
        left = max(0, attack - value(action["card"]))
        return _("Dodge with the %(card)s: the attack drops to %(left)s (%(result)s)") % {
            "card": card_text(action["card"]), "left": left, "result": _damage_result(view, left)}
    return generic_label(action, seat_name)


def action_groups(actions: list[dict], view: dict, seat_name) -> list[dict]:
    """Sections in the order of a turn; the long two-change list comes last, collapsed."""
    order = ["dodge", "attack", "add", "remove", "draw", "pass", "two"]
    titles = {
        "dodge": _("Defend"),
        "attack": _("Attack"),
        "add": _("Build your mecha (one change)"),
        "remove": _("Take a card off your panel"),
        "draw": _("Draw cards"),
        "pass": _("Pass"),
        "two": _("Two changes in one turn"),
    }
    buckets: dict[str, list] = {k: [] for k in order}
    for action in actions:
        kind = action.get("type")
        if kind == "modify":
            if len(action["ops"]) > 1:
                key = "two"
            else:
                key = "remove" if action["ops"][0].get("op") == "remove" else "add"
        elif kind in ("fuel_attack", "projectile"):
            key = "attack"
        elif kind in ("burn", "crew_draw"):
            key = "draw"
        elif kind in ("pass", "dodge"):
            key = kind
        else:
            key = "pass"
        buckets[key].append((action, action_label(action, view, seat_name)))
    groups = [
        {"title": str(titles[k]), "actions": buckets[k], "collapsed": len(buckets[k]) > COLLAPSE_OVER}
        for k in order if buckets[k]
    ]
    for group in groups:
        if group["title"] == str(titles["two"]) and group["collapsed"]:
            group["sections"] = _by_first_change(group["actions"], view)
        elif group["title"] == str(titles["pass"]) and group["collapsed"]:
            group["sections"] = _by_first_discard(group["actions"])
    return groups


def _by_first_change(pairs: list[tuple[dict, str]], view: dict) -> list[dict]:
    """The two-change moves nested by their first change ("First: put the 9♠ in Projectiles"), each
    offering the second change; in the engine's order (a first change where it first appears)."""
    sections: dict[str, dict] = {}
    for action, _label in pairs:
        first, *rest = action["ops"]
        key = json.dumps(first, sort_keys=True)
        if key not in sections:
            title = _("First: %(change)s") % {"change": _op_text(first, view)}
            sections[key] = {"title": title, "actions": []}
        sections[key]["actions"].append((action, _("Then: %(change)s") % {"change": _ops_text(rest, view)}))
    return list(sections.values())


def _by_first_discard(pairs: list[tuple[dict, str]]) -> list[dict]:
    """Passing with a big hand offers every pair to discard: nested by the pair's first card (in
    the hand's order), each button the second card."""
    sections: dict[str, dict] = {}
    for action, label in pairs:
        cards = action["cards"]
        if len(cards) < 2:  # "Pass" alone, or with the one card left: a section of its own
            sections.setdefault(label, {"title": label, "actions": []})["actions"].append((action, label))
            continue
        first = cards[0]
        if first not in sections:
            sections[first] = {"title": _("Pass, discarding the %(card)s and…") % {"card": card_text(first)},
                               "actions": []}
        sections[first]["actions"].append(
            (action, _("…the %(cards)s") % {"cards": join_words([card_text(c) for c in cards[1:]])}))
    return list(sections.values())


def outcome_words(view: dict, seat_name) -> dict:
    """Why the game ended and what the result box's numbers count (``outcome``'s scores: the
    value of the ♥ cards left in each Defence)."""
    if view.get("draw"):
        reason = _("Turn %(turns)s ends without a collapse: a draw.") % {"turns": view["max_turns"]}
    elif view.get("winner") is not None:
        reason = _("%(name)s’s mecha collapsed.") % {"name": seat_name(1 - view["winner"])}
    else:
        reason = ""
    return {"reason": reason, "score_label": _("Life left: the value of the ♥ cards in each Defence")}


def move_text(seat_name, seat: int, action: dict, viewer: int | None) -> str:
    """Every PoCoBOT move is public (panels and the discard are face up) except what is drawn,
    which no action names."""
    who = seat_name(seat)
    kind = action.get("type")
    if kind == "modify":
        return _("%(name)s %(ops)s.") % {"name": who, "ops": _ops_done_text(action["ops"])}
    if kind == "burn":
        return _("%(name)s burns the %(card)s and draws %(count)s.") % {
            "name": who, "card": card_text(action["card"]), "count": value(action["card"])}
    if kind == "crew_draw":
        return _("%(name)s discards %(cards)s with the full crew and draws 4.") % {
            "name": who, "cards": join_words([card_text(c) for c in action["cards"]])}
    if kind == "fuel_attack":
        total = action["x"] + (value(action["extra"]) if action.get("extra") else 0)
        return _("%(name)s makes a fuel attack of %(attack)s.") % {"name": who, "attack": total}
    if kind == "projectile":
        return _("%(name)s fires the %(card)s.") % {"name": who, "card": card_text(action["card"])}
    if kind == "pass":
        return _("%(name)s passes, discarding %(cards)s.") % {
            "name": who, "cards": join_words([card_text(c) for c in action["cards"]]) or _("nothing")}
    if kind == "dodge":
        if action.get("card") is None:
            return _("%(name)s does not dodge.") % {"name": who}
        return _("%(name)s dodges with the %(card)s.") % {"name": who, "card": card_text(action["card"])}
    return _("%(name)s moves.") % {"name": who}

