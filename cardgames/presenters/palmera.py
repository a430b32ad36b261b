"""En la palmera in words: the ten perches of the palm tree, both sides' birds as the seat may
see them, the drawn bird and where it may go.

Book words (seeds/002): "casilla"/"percha" (perch), "enfrentamiento" (fight), "atacante",
"defensor"; each card on the tree is a bird.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardgames.engines.palmera.rules import (
    DOUBLE_SCORE,
    DOUBLE_SQUARE,
    PEEK_SQUARE,
    STRENGTH,
    SUIT_OF_SEAT,
    TIEBREAK_SQUARE,
)
from cardgames.presenters.words import (
    card,
    card_text,
    generic_label,
    groups_by_type,
    join_words,
    result_text,
    turn_text,
)

SQUARES = 10


def _suit_word(seat: int) -> str:
    return _("diamonds ♦") if SUIT_OF_SEAT[seat] == "D" else _("clubs ♣")


def _perch_note(square: int) -> str:
    if square == TIEBREAK_SQUARE:
        return _("wins every tie")
    if square == PEEK_SQUARE:
        return _("taking it lets you look at a hidden bird")
    if square == DOUBLE_SQUARE:
        return _("room for two birds a side; two score %(points)s") % {"points": DOUBLE_SCORE}
    return ""


def _bird(entry: dict, owner: int, seat: int | None) -> dict:
    """One bird as this seat sees it; a note only where the picture alone does not say it."""
    mine = owner == seat
    code = entry["card"]
    out = {"card": card(code), "known": code is not None, "up": entry["up"], "mine": mine, "note": ""}
    if not entry["up"] and code is not None:
        if mine:
            out["note"] = (_("hidden; your rival has seen it") if entry["peeked"]
                           else _("hidden from your rival"))
        else:
            out["note"] = _("you looked at it")
    out["name"] = out["card"]["name"] if code is not None else _("a face-down bird")
    return out


def _side_owner(view: dict, square: int) -> int | None:
    sides = view["board"][square - 1]
    for owner in (0, 1):
        if sides[owner]:
            return owner
    return None


def _held_points(view: dict) -> list[int]:
    """What each side would score if the round ended now, as far as the view shows (a King this
    seat can see scores nothing: it leaves before scoring, PA-6)."""
    points = [0, 0]
    for square in range(1, SQUARES + 1):
        for owner in (0, 1):
            birds = [e for e in view["board"][square - 1][owner] if not (e["card"] or "").startswith("K")]
            if birds:
                points[owner] += DOUBLE_SCORE if square == DOUBLE_SQUARE and len(birds) == 2 else square
    return points


def _total_text(view: dict, seat: int, over: bool) -> str:
    """The seat's points from the rounds already scored (PA-10): all of them once the game is over,
    else the points carried over from the earlier round(s) ("52 de rondas terminadas" read badly)."""
    total = view["totals"][seat]
    if over:
        return _("%(n)s points in total") % {"n": total}
    # two rounds (PA-1): a game not over with a scored round is in round 2
    return ngettext("%(n)s point scored in round 1", "%(n)s points scored in round 1", total) % {"n": total}


def present(view: dict, seat: int | None, seat_name) -> dict:
    over = view["phase"] == "over"
    # columns: the rival on the left, the viewer on the right (a spectator: seat 1, seat 2)
    left, right = (1 - seat, seat) if seat in (0, 1) else (0, 1)
    perches = []
    for square in range(SQUARES, 0, -1):
        sides = view["board"][square - 1]
        holder = _side_owner(view, square)
        if holder is None:
            held = _("nobody holds it")
        elif holder == seat:
            held = _("you hold it")
        else:
            held = _("%(name)s holds it") % {"name": seat_name(holder)}
        perches.append({
            "number": square,
            "points": DOUBLE_SCORE if square == DOUBLE_SQUARE and len(sides[holder or 0]) == 2 else square,
            "note": _perch_note(square),
            "held_text": held,
            "held_by_you": holder is not None and holder == seat,
            "held_by_rival": holder is not None and holder != seat,
            "left": [_bird(e, left, seat) for e in sides[left]],
            "right": [_bird(e, right, seat) for e in sides[right]],
        })
    held_now = _held_points(view)
    sides_info = []
    for s in (left, right):
        sides_info.append({
            "name": seat_name(s),
            "is_you": s == seat,
            "suit_text": _suit_word(s),
            "pile_text": ngettext("%(count)s bird left to draw", "%(count)s birds left to draw",
                                  view["pile_counts"][s]) % {"count": view["pile_counts"][s]},
            "total": view["totals"][s],
            "now": held_now[s],
            "now_text": "" if over else ngettext("%(n)s point on the tree now", "%(n)s points on the tree now",
                                                  held_now[s]) % {"n": held_now[s]},
            "total_text": _total_text(view, s, over) if view["scores"] else "",
            "out": [_bird(e, s, seat) for e in view["out"][s]],
        })
    rounds = []
    for i, pair in enumerate(view["scores"]):
        # each score by whose it is ("ronda 1: 33 a 13" was read against the totals' order)
        rounds.append({"number": i + 1, "text": _("round %(n)s: %(left_name)s %(left)s, %(right_name)s %(right)s") % {
            "n": i + 1, "left_name": seat_name(left), "left": pair[left], "right_name": seat_name(right),
            "right": pair[right]}})
    step_text = ""
    if not over and seat in view["to_move"]:
        step_text = (_("You took perch 3: look at one of your rival’s face-down birds.")
                     if view["phase"] == "peek" else _("Choose a perch on your side for the bird you drew."))
    result = view.get("result")
    return {
        "turn_text": turn_text(view["to_move"], seat, seat_name, over),
        "step_text": step_text,
        "result_text": result_text(result["winners"], result["draw"], seat, seat_name) if result else "",
        "over": over,
        "round_text": _("Round %(round)s of 2") % {"round": view["round"]},
        "left": sides_info[0],
        "right": sides_info[1],
        "perches": perches,
        "rounds": rounds,
        "hand": card(view["hand"]) if view.get("hand") else None,
    }


def _defender_text(entry: dict) -> str:
    if entry["card"] is None:
        return _("a hidden bird")
    return card_text(entry["card"])


def _fight_hint(mine: str | None, entry: dict, view: dict | None = None, seat: int | None = None) -> str:
    """"you win" / "you lose" / a tie and who wins it (PA-5) when both birds are known; empty
    otherwise."""
    if mine is None or entry["card"] is None:
        return ""
    a, d = mine[:-1], entry["card"][:-1]
    if "K" in (a, d):
        return _("a King clears the perch")
    if STRENGTH[a] > STRENGTH[d]:
        return _("yours is higher")
    if STRENGTH[a] < STRENGTH[d]:
        return _("theirs is higher")
    # PA-5: the holder of perch 1 wins a tie, else the attacker ("(empate)" did not say who won)
    perch_1 = view["board"][0] if view is not None and seat in (0, 1) else None
    if perch_1 is not None and perch_1[1 - seat]:
        return _("a tie, which they win: they hold perch 1")
    if perch_1 is not None and perch_1[seat]:
        return _("a tie, which you win: you hold perch 1")
    if perch_1 is not None:
        return _("a tie, which you win as the attacker: nobody holds perch 1")
    return _("a tie")


def action_label(action: dict, view: dict, seat_name) -> str:
    seat = view.get("seat")
    kind = action.get("type")
    mine = view.get("hand")
    bird = card_text(mine) if mine else _("your bird")
    if kind == "place":
        square = action["square"]
        rival = view["board"][square - 1][1 - seat] if seat in (0, 1) else []
        own = view["board"][square - 1][seat] if seat in (0, 1) else []
        if not rival:
            if own:
                return _("Put %(bird)s on perch %(n)s, beside your other bird") % {"bird": bird, "n": square}
            return _("Put %(bird)s on perch %(n)s (free)") % {"bird": bird, "n": square}
        if "first" in action:
            first = rival[action["first"]]
            other = rival[1 - action["first"]] if len(rival) > 1 else first
            if first["card"] is None and other["card"] is None:  # two hidden birds: say which one
                defender = _("their hidden bird number %(slot)s") % {"slot": action["first"] + 1}
            else:
                defender = _defender_text(first)
            return _("Put %(bird)s on perch %(n)s and fight %(defender)s first") % {
                "bird": bird, "n": square, "defender": defender}
        hint = _fight_hint(mine, rival[0], view, seat)
        if hint:
            return _("Put %(bird)s on perch %(n)s and fight %(defender)s (%(hint)s)") % {
                "bird": bird, "n": square, "defender": _defender_text(rival[0]), "hint": hint}
        return _("Put %(bird)s on perch %(n)s and fight %(defender)s") % {
            "bird": bird, "n": square, "defender": _defender_text(rival[0])}
    if kind == "peek":
        square = action["square"]
        rival = view["board"][square - 1][1 - seat] if seat in (0, 1) else []
        if len(rival) > 1:
            return _("Look at their hidden bird number %(slot)s on perch %(n)s") % {
                "slot": action["slot"] + 1, "n": square}
        return _("Look at their hidden bird on perch %(n)s") % {"n": square}
    if kind == "discard":
        return _("Your side is full: %(bird)s leaves the game face down") % {"bird": bird}
    return generic_label(action, seat_name)


def action_groups(actions: list[dict], view: dict, seat_name) -> list[dict]:
    titles = {
        "place": _("Where does your bird go?"),
        "peek": _("Look at a hidden bird"),
        "discard": _("No room left"),
    }
    return groups_by_type(actions, titles, lambda action: action_label(action, view, seat_name))


def outcome_words(view: dict, seat_name) -> dict:
    """Why the game ended and what the result box's numbers count (PA-10: the points of both
    rounds)."""
    result = view.get("result") or {}
    reason = _("Both rounds are over and the points are equal.") if result.get("draw") else ""
    return {"reason": reason, "score_label": _("Points over both rounds")}


def move_text(seat_name, seat: int, action: dict, viewer: int | None, events: list[dict] | None = None) -> str:
    """Birds go face down: the log names the perch, never the bird placed. ``events``: what the
    move did (``engine.events_view(events, viewer)`` of :func:`~cardgames.engines.palmera.rules.apply_logged`,
    already redacted for ``viewer``): the fight on the perch and how it ended, a round's end."""
    who = seat_name(seat)
    kind = action.get("type")
    if kind == "place":
        text = _("%(name)s puts a bird on perch %(n)s.") % {"name": who, "n": action["square"]}
    elif kind == "peek":
        if viewer is not None and viewer != seat:
            text = _("%(name)s looks at your hidden bird on perch %(n)s.") % {
                "name": who, "n": action["square"]}
        else:
            text = _("%(name)s looks at a hidden bird on perch %(n)s.") % {"name": who, "n": action["square"]}
    elif kind == "discard":
        text = _("%(name)s has no room: a bird leaves the game face down.") % {"name": who}
    else:
        text = _("%(name)s moves.") % {"name": who}
    return " ".join([text, *(_event_text(e, seat_name) for e in events or ())])


def _seen_name(entry: dict) -> str:
    """A bird as the reader may know it: its card, or "a face-down bird"."""
    return card_text(entry["card"]) if entry["card"] is not None else _("a face-down bird")


def _event_text(event: dict, seat_name) -> str:
    if event["type"] == "round_end":
        return _round_end_text(event, seat_name)
    attacker, defender = event["seat"], 1 - event["seat"]
    mine = card_text(event["card"])  # the attacking bird is turned face up (PA-4)
    names = {"name": seat_name(attacker), "owner": seat_name(defender), "attacker": mine, "n": event["square"]}
    parts = []
    if event["king"] and not event["duels"]:  # PA-8: an attacking King against two defenders
        if all(e["card"] is None for e in event["unseen"]):
            parts.append(_("%(name)s’s %(attacker)s is a King and empties perch %(n)s: it and %(owner)s’s "
                           "two face-down birds leave the game, theirs unrevealed.") % names)
        else:
            parts.append(_("%(name)s’s %(attacker)s is a King and empties perch %(n)s: it and %(owner)s’s "
                           "two birds (%(birds)s) leave the game, theirs unrevealed.") % {
                **names, "birds": join_words([_seen_name(e) for e in event["unseen"]])})
    for duel in event["duels"]:
        theirs = _seen_name(duel["defender"])
        if duel["winner"] is None:  # PA-6: a King on either side
            parts.append(_("%(name)s’s %(attacker)s meets %(owner)s’s %(defender)s: a King empties the perch, "
                           "and both leave the game.") % {**names, "defender": theirs})
            continue
        won = duel["winner"] == attacker
        words = {"winner_name": seat_name(duel["winner"]), "winner_card": mine if won else theirs,
                 "loser_name": seat_name(1 - duel["winner"]), "loser_card": theirs if won else mine}
        if not duel["tie"]:
            parts.append(_("%(winner_name)s’s %(winner_card)s beats %(loser_name)s’s %(loser_card)s: "
                           "the %(loser_card)s leaves the game.") % words)
        elif event["perch_1"] is None:  # PA-5: nobody holds perch 1, the attacker wins the tie
            parts.append(_("%(winner_name)s’s %(winner_card)s ties with %(loser_name)s’s %(loser_card)s and "
                           "wins as the attacker, as nobody holds perch 1: the %(loser_card)s leaves the game.")
                         % words)
        else:
            parts.append(_("%(winner_name)s’s %(winner_card)s ties with %(loser_name)s’s %(loser_card)s and "
                           "wins, as %(winner_name)s holds perch 1: the %(loser_card)s leaves the game.") % words)
    if event["king"] and event["duels"] and event["unseen"]:  # PA-8: the second defender goes unseen
        other = event["unseen"][0]
        if other["card"] is None:
            parts.append(_("%(owner)s’s other bird there also leaves the game, unrevealed.") % names)
        else:
            parts.append(_("%(owner)s’s other bird there, the %(bird)s, also leaves the game, unrevealed.") % {
                **names, "bird": card_text(other["card"])})
    if event["held"]:
        parts.append(_("%(name)s now holds perch %(n)s.") % names)
    return " ".join(parts)


def _round_end_text(event: dict, seat_name) -> str:
    """PA-6, PA-9: the round's scores, and the Kings that left the board before the scoring."""
    parts = []
    kings = [king for owner in (0, 1) for king in event["kings"][owner]]
    if kings:
        parts.append(ngettext("Before the scoring, a King leaves the board and empties its perch: %(cards)s.",
                              "Before the scoring, the Kings leave the board and empty their perches: %(cards)s.",
                              len(kings)) % {"cards": join_words([_seen_name(k) for k in kings])})
    scores = event["scores"]
    parts.append(_("Round %(n)s is over: %(first)s scores %(a)s, %(second)s %(b)s.") % {
        "n": event["round"], "first": seat_name(0), "a": scores[0], "second": seat_name(1), "b": scores[1]})
    return " ".join(parts)
