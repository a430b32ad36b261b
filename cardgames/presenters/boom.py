"""Boom in words: the life storages of every player with their life, the hand, the options.

Book words (seeds/004): "almacenador de vida" (life storage), "vida extra", "Boom", "figuras".
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardgames.engines.boom.rules import is_figure, value
from cardgames.presenters.words import (
    groups_by_type,
    card,
    card_text,
    cards_text,
    join_words,
    name_of,
    result_text,
    turn_text,
)


def _storage_text(storage: dict) -> str:
    """"7♥ (life 5)" or "J♠ (a figure, no life)"."""
    if is_figure(storage["card"]):
        return _("%(card)s (a figure, no life)") % {"card": card_text(storage["card"])}
    return _("%(card)s (life %(life)s)") % {"card": card_text(storage["card"]), "life": storage["life"]}


def present(view: dict, seat: int | None, seat_name) -> dict:
    over = view["step"] == "over"
    players = []
    for s, board in enumerate(view["boards"]):
        storages = []
        for storage in board:
            figure = is_figure(storage["card"])
            storages.append({
                "card": card(storage["card"]),
                "on": [card(c) for c in storage["on"]],
                "figure": figure,
                "life": storage["life"],
                "full_life": value(storage["card"]),
                "life_text": _("no life") if figure else _("life %(life)s") % {"life": storage["life"]},
                "attacked": bool(storage["on"]),
                "zero": not figure and storage["life"] == 0,
            })
        total = sum(st["life"] for st in board if not is_figure(st["card"]))
        players.append({
            "name": seat_name(s),
            "is_you": s == seat,
            "to_move": s in view["to_move"],
            "alive": view["alive"][s],
            "status": (_("out of the game") if not view["alive"][s] else
                       _("life %(total)s in total") % {"total": total}),
            "total_life": total,
            "storages": storages,
            "hand_count": view["hand_counts"][s],
            "hand_text": ngettext("%(count)s card in hand", "%(count)s cards in hand", view["hand_counts"][s])
            % {"count": view["hand_counts"][s]},
        })
    # the rivals in turn order from the viewer's left, the viewer's own board last (nearest the thumbs)
    start = (seat + 1) if seat is not None else 0
    order = [(start + i) % len(players) for i in range(len(players))]
    others = [players[s] for s in order if not players[s]["is_you"]]
    mine = [p for p in players if p["is_you"]]
    step_text = ""
    if not over and seat in view["to_move"]:
        step_text = (_("First you may swap a card of your hand with one of your storages that has no "
                       "card on it; or keep them.") if view["step"] == "change" else
                     _("Now attack, call a Boom or discard."))
    result = view.get("result")
    return {
        "turn_text": turn_text(view["to_move"], seat, seat_name, over),
        "step_text": step_text,
        "result_text": result_text(result["winners"], result["draw"], seat, seat_name) if result else "",
        "over": over,
        "players": others + mine,
        "hand": None if view["hand"] is None else [card(c) for c in view["hand"]],
        "deck_text": ngettext("%(count)s card in the deck", "%(count)s cards in the deck", view["deck_count"])
        % {"count": view["deck_count"]},
        "discard_text": ngettext("%(count)s card discarded", "%(count)s cards discarded",
                                 view["discard_count"]) % {"count": view["discard_count"]},
    }


def _owner_storage(view: dict, target: int, index: int, seat: int | None, seat_name) -> str:
    storage = view["boards"][target][index]
    if target == seat:
        return _("your %(storage)s") % {"storage": _storage_text(storage)}
    return _("%(name)s’s %(storage)s") % {"name": seat_name(target), "storage": _storage_text(storage)}


def action_label(action: dict, view: dict, seat_name) -> str:
    seat = view.get("seat")
    kind = action.get("type")
    if kind == "skip_change":
        return _("Keep your storages as they are")
    if kind == "change":
        storage = view["boards"][seat][action["storage"]]
        label = _("Put the %(card)s in place of your storage %(storage)s") % {
            "card": card_text(action["card"]), "storage": _storage_text(storage)}
        # BO-10: a swap that leaves no life is the end of the game for the one who makes it (a walk
        # swapped its last life for a figure, unwarned)
        life = sum(s["life"] for i, s in enumerate(view["boards"][seat]) if i != action["storage"]) + value(action["card"])
        return label + _(": you are out at once") if life <= 0 else label
    if kind == "attack":
        storage = view["boards"][action["target"]][action["storage"]]
        left = storage["life"] - value(action["card"])
        target = _owner_storage(view, action["target"], action["storage"], seat, seat_name)
        if left > 0:
            return _("Attack %(target)s with the %(card)s: life %(left)s left") % {
                "target": target, "card": card_text(action["card"]), "left": left}
        if value(action["card"]) == value(storage["card"]):
            return _("Attack %(target)s with the %(card)s: destroys it and wins you an extra life") % {
                "target": target, "card": card_text(action["card"])}
        return _("Attack %(target)s with the %(card)s: destroys it") % {
            "target": target, "card": card_text(action["card"])}
    if kind == "boom":
        hit = []
        for s, board in enumerate(view["boards"]):
            for i, storage in enumerate(board):
                if not is_figure(storage["card"]) and storage["life"] == action["number"]:
                    hit.append(_owner_storage(view, s, i, seat, seat_name))
        if not hit:
            return _("Boom on %(number)s: removes nothing") % {"number": action["number"]}
        return _("Boom on %(number)s: removes %(storages)s") % {
            "number": action["number"], "storages": join_words(hit)}
    if kind == "discard":
        return ngettext("Discard the %(cards)s and draw %(count)s",
                        "Discard the %(cards)s and draw %(count)s", len(action["cards"])) % {
            "cards": cards_text(action["cards"]), "count": len(action["cards"])}
    if kind == "pass":
        return _("Pass (you have nothing to play)")
    from cardgames.presenters.words import generic_label

    return generic_label(action, seat_name)


def action_groups(actions: list[dict], view: dict, seat_name) -> list[dict]:
    titles = {
        "skip_change": _("Swap a storage (optional)"),
        "change": _("Swap a storage (optional)"),
        "attack": _("Attack"),
        "boom": _("Boom"),
        "discard": _("Discard"),
        "pass": _("Pass"),
    }
    return groups_by_type(actions, titles, lambda action: action_label(action, view, seat_name))


def outcome_words(view: dict, seat_name) -> dict:
    """What the result box's numbers count (BO-10: each seat's life left)."""
    return {"reason": "", "score_label": _("Life left")}


def move_text(seat_name, seat: int, action: dict, viewer: int | None) -> str:
    """A Boom move for the log. Storages are public; a discard's cards are not named (the
    discard is a count in every view)."""
    who = seat_name(seat)
    kind = action.get("type")
    if kind == "skip_change":
        return _("%(name)s keeps their storages.") % {"name": who}
    if kind == "change":
        return _("%(name)s puts the %(card)s in place of a storage.") % {
            "name": who, "card": card_text(action["card"])}
    if kind == "attack":
        target = name_of(action["target"], viewer, seat_name)
        if action["target"] == viewer:
            return _("%(name)s attacks one of your storages with the %(card)s.") % {
                "name": who, "card": card_text(action["card"])}
        return _("%(name)s attacks a storage of %(target)s with the %(card)s.") % {
            "name": who, "target": target, "card": card_text(action["card"])}
    if kind == "boom":
        return _("%(name)s calls Boom on %(number)s!") % {"name": who, "number": action["number"]}
    if kind == "discard":
        if seat == viewer:
            # in the third person, as every other line of the log (it read "djamal ataca…" beside
            # "Descartas…" for the same player), but naming the cards to the one who knows them
            return _("%(name)s discards the %(cards)s.") % {"name": who, "cards": cards_text(action["cards"])}
        return ngettext("%(name)s discards %(count)s card.", "%(name)s discards %(count)s cards.",
                        len(action["cards"])) % {"name": who, "count": len(action["cards"])}
    if kind == "pass":
        return _("%(name)s passes.") % {"name": who}
    return _("%(name)s moves.") % {"name": who}
