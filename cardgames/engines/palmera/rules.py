"""En la palmera: the rules engine (PA-1..PA-10).

A two-seat game on ten squares valued 1-10. Seat 0 plays the 13 diamonds, seat 1 the 13 clubs.
Every turn the seat to move has drawn the top card of its pile (``hands[seat]``) and places it
face down on a square of its side; an occupied opposite side means a confrontation.

State (a plain JSON dict)::

    {"game": "palmera", "rng": {"seed", "n"}, "first": seat starting round 1, "round": 1 | 2,
     "turn": seat, "phase": "place" | "peek" | "over",
     "piles": [[codes], [codes]]          # top of the pile = last element
     "hands": [code | None, code | None]  # the drawn card of the seat to move
     "board": [[side0, side1] x 10]       # side = [entry, ...], two entries at most on square 8
     "out":   [[entry, ...], [entry, ...]]  # cards removed from play this round, by owner
     "scores": [[s0, s1], ...]}           # one pair per finished round

An entry is ``{"card": code, "up": bool, "peeked": bool}``: ``up`` means everybody has seen it,
``peeked`` that the opponent looked at it on square 3 (PA-7).

>>> s = new_game(2, seed=7)
>>> to_move(s) == [s["turn"]] and s["hands"][s["turn"]] is not None
True
>>> {"type": "place", "square": 5} in legal_actions(s, s["turn"])
True
"""

from __future__ import annotations

from cardgames.engines import IllegalAction, draw_rng, gettext_noop, new_rng_state
from cardgames.engines.validation import is_legal, short

GAME = "palmera"
SQUARES = 10
SUIT_OF_SEAT = ("D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
STRENGTH = {rank: i + 1 for i, rank in enumerate(RANKS)}  # PA-4: A < 2 < ... < Q < K
KING = "K"
TIEBREAK_SQUARE = 1  # PA-5
PEEK_SQUARE = 3  # PA-7
DOUBLE_SQUARE = 8  # PA-8
DOUBLE_SCORE = 16  # PA-9
ROUNDS = 2  # PA-1

PLACE, PEEK, OVER = "place", "peek", "over"

E_SEATS = gettext_noop("En la palmera is for exactly two players, not %(seats)s.")
E_OPTIONS = gettext_noop("En la palmera has no options.")
E_GAME_OVER = gettext_noop("The game is over.")
E_NOT_YOUR_TURN = gettext_noop("It is not seat %(seat)s's turn.")
E_MALFORMED = gettext_noop("That is not an action of En la palmera: %(action)s.")
E_BAD_SQUARE = gettext_noop("There is no square %(square)s: choose a square from 1 to 10.")
E_OWN_SQUARE = gettext_noop("You already hold square %(square)s.")
E_SQUARE_FULL = gettext_noop("Square 8 already holds your two cards.")
E_CHOOSE_ORDER = gettext_noop("Two cards defend square 8: say which one you fight first (0 or 1).")
E_NOT_PEEKABLE = gettext_noop("There is no face-down card of your opponent to look at on square %(square)s.")
E_MUST_PEEK = gettext_noop("You hold square 3: look at one face-down card of your opponent first.")
E_MUST_PLACE = gettext_noop("Place the card you drew first.")
E_ILLEGAL = gettext_noop("That move is not allowed now: %(action)s.")


# -- cards -----------------------------------------------------------------------------------------

def rank_of(code: str) -> str:
    return code[:-1]


def strength(code: str) -> int:
    return STRENGTH[rank_of(code)]


def is_king(code: str) -> bool:
    return rank_of(code) == KING


def suit_cards(seat: int) -> list[str]:
    """PA-1: the 13 cards of one seat's suit, A to K."""
    return [rank + SUIT_OF_SEAT[seat] for rank in RANKS]


def _entry(card: str, up: bool = False) -> dict:
    return {"card": card, "up": up, "peeked": False}


# -- setup -----------------------------------------------------------------------------------------

def new_game(seats: int, seed: int, options: dict | None = None) -> dict:
    """PA-1: two seats, a random starter for round 1, each pile shuffled."""
    if type(seats) is not int or seats != 2:
        raise IllegalAction(E_SEATS, seats=seats)
    if options:
        raise IllegalAction(E_OPTIONS)
    state = {
        "game": GAME,
        "rng": new_rng_state(seed),
        "first": 0,
        "round": 1,
        "turn": 0,
        "phase": PLACE,
        "piles": [[], []],
        "hands": [None, None],
        "board": [],
        "out": [[], []],
        "scores": [],
    }
    state["first"] = draw_rng(state).randrange(2)
    _start_round(state, state["first"])
    return state


def _start_round(state: dict, starter: int) -> None:
    """PA-1: clear the board, reshuffle both suits, the starter draws."""
    state["board"] = [[[], []] for _ in range(SQUARES)]
    state["out"] = [[], []]
    state["hands"] = [None, None]
    for seat in (0, 1):
        pile = suit_cards(seat)
        draw_rng(state).shuffle(pile)
        state["piles"][seat] = pile
    state["turn"] = starter
    state["phase"] = PLACE
    _draw(state, starter)


def _draw(state: dict, seat: int) -> None:
    """PA-2: the seat to move draws its top card."""
    state["hands"][seat] = state["piles"][seat].pop()


# -- queries ---------------------------------------------------------------------------------------

def to_move(state: dict) -> list[int]:
    return [] if state["phase"] == OVER else [state["turn"]]


def controller(state: dict, square: int) -> int | None:
    """The seat with cards on ``square`` (at most one side is ever occupied), else ``None``."""
    sides = state["board"][square - 1]
    for seat in (0, 1):
        if sides[seat]:
            return seat
    return None


def _capacity(square: int) -> int:
    return 2 if square == DOUBLE_SQUARE else 1  # PA-8


def _peek_targets(state: dict, seat: int) -> list[tuple[int, int]]:
    """PA-7: the opponent's face-down cards on the board that ``seat`` has not looked at yet."""
    opponent = 1 - seat
    return [
        (square, slot)
        for square in range(1, SQUARES + 1)
        for slot, entry in enumerate(state["board"][square - 1][opponent])
        if not entry["up"] and not entry["peeked"]
    ]


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every legal action of ``seat`` (PA-2, PA-7, PA-8); ``[]`` when it is not to move."""
    if seat not in to_move(state):
        return []
    if state["phase"] == PEEK:
        return [{"type": "peek", "square": sq, "slot": slot} for sq, slot in _peek_targets(state, seat)]
    actions = []
    for square in range(1, SQUARES + 1):
        own = state["board"][square - 1][seat]
        defenders = state["board"][square - 1][1 - seat]
        if len(own) >= _capacity(square):
            continue
        if len(defenders) == 2:  # PA-8: the attacker picks the order
            actions += [{"type": "place", "square": square, "first": slot} for slot in (0, 1)]
        else:
            actions.append({"type": "place", "square": square})
    # RULING (book silent): a seat whose every square is full removes its drawn card face down.
    return actions or [{"type": "discard"}]


# -- applying actions ------------------------------------------------------------------------------

def _check(state: dict, seat: object, action: object) -> None:
    """Raise a readable :class:`IllegalAction` unless ``action`` is legal for ``seat`` now."""
    if state["phase"] == OVER:
        raise IllegalAction(E_GAME_OVER)
    if type(seat) is not int or seat not in to_move(state):
        raise IllegalAction(E_NOT_YOUR_TURN, seat=short(seat))
    if is_legal(action, legal_actions(state, seat)):
        return
    raise _diagnose(state, seat, action)


def _diagnose(state: dict, seat: int, action: object) -> IllegalAction:
    """The most precise message for an illegal action."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in ("place", "peek", "discard"):
        return IllegalAction(E_MALFORMED, action=short(action))
    if state["phase"] == PEEK and kind != "peek":
        return IllegalAction(E_MUST_PEEK)
    if state["phase"] == PLACE and kind == "peek":
        return IllegalAction(E_MUST_PLACE)
    square = action.get("square")
    if kind in ("place", "peek") and (type(square) is not int or not 1 <= square <= SQUARES):
        return IllegalAction(E_BAD_SQUARE, square=short(square))
    if kind == "peek":
        return IllegalAction(E_NOT_PEEKABLE, square=square)
    if kind == "place":
        own = state["board"][square - 1][seat]
        if len(own) >= _capacity(square):
            return IllegalAction(E_SQUARE_FULL if square == DOUBLE_SQUARE else E_OWN_SQUARE, square=square)
        if len(state["board"][square - 1][1 - seat]) == 2:
            return IllegalAction(E_CHOOSE_ORDER)
    return IllegalAction(E_ILLEGAL, action=short(action))


def copy_state(state: dict) -> dict:
    """A deep copy of a state (faster than :func:`copy.deepcopy` for this fixed layout)."""
    return {
        **state,
        "rng": dict(state["rng"]),
        "piles": [list(pile) for pile in state["piles"]],
        "hands": list(state["hands"]),
        "board": [[[dict(e) for e in side] for side in sides] for sides in state["board"]],
        "out": [[dict(e) for e in out] for out in state["out"]],
        "scores": [list(pair) for pair in state["scores"]],
    }


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after ``seat`` plays ``action`` (PA-2..PA-9); the input is left untouched."""
    return _applied(state, seat, action, None)


def apply_logged(state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]:
    """:func:`apply`, and what the move did that the action alone does not say (the log of moves
    reads it). The events, in order:

    - ``{"type": "fight", "seat": attacker, "square": n, "card": attacking code, "duels": [...],
      "unseen": [entry, ...], "king": bool, "held": bool, "perch_1": seat | None}`` (PA-4..PA-8): each duel is
      ``{"defender": entry, "winner": seat, "tie": bool}`` in the order fought; ``unseen`` are the
      defenders a King removed without revealing them; ``king``: a King emptied the perch;
      ``held``: the attacker holds the perch now; ``perch_1``: who held square 1 (PA-5, ties).
    - ``{"type": "round_end", "round": n, "scores": [s0, s1], "kings": [[entry, ...], [...]]}``
      (PA-6, PA-9): the Kings each seat had on the board, removed before scoring.

    Entries are copies as they were then (face up or not, peeked at or not): the events hold
    hidden cards, so show a seat only :func:`events_view` of them."""
    events: list[dict] = []
    return _applied(state, seat, action, events), events


def events_view(events: list[dict], seat: int | None) -> list[dict]:
    """``events`` (from :func:`apply_logged`) as ``seat`` may see them (``None``: a spectator):
    a defender removed unseen keeps its card only for its owner, or for the opponent who had
    looked at it (PA-7)."""
    out = []
    for event in events:
        if event["type"] == "fight":
            defender = 1 - event["seat"]
            out.append({**event,
                        "duels": [{**d, "defender": _seen_entry(d["defender"], defender, seat)} for d in event["duels"]],
                        "unseen": [_seen_entry(e, defender, seat) for e in event["unseen"]]})
        else:
            out.append({**event, "kings": [[{**e, **_seen_entry(e, owner, seat)} for e in event["kings"][owner]]
                                           for owner in (0, 1)]})
    return out


def _applied(state: dict, seat: int, action: dict, events: list[dict] | None) -> dict:
    """:func:`apply`; what happened is appended to ``events`` unless it is ``None``."""
    _check(state, seat, action)
    new = copy_state(state)
    kind = action["type"]
    if kind == "peek":
        _peek(new, seat, action["square"], action["slot"])
        _end_turn(new, seat, events)
    elif kind == "discard":
        new["out"][seat].append(_entry(new["hands"][seat]))
        new["hands"][seat] = None
        _end_turn(new, seat, events)
    else:
        took_peek_square = _place(new, seat, action["square"], action.get("first", 0), events)
        if took_peek_square and _peek_targets(new, seat) and not _round_over(new):
            new["phase"] = PEEK  # PA-7
        else:
            _end_turn(new, seat, events)
    return new


def _peek(state: dict, seat: int, square: int, slot: int) -> None:
    """PA-7: ``seat`` looks at one face-down card of the opponent."""
    state["board"][square - 1][1 - seat][slot]["peeked"] = True


def _place(state: dict, seat: int, square: int, first: int, events: list[dict] | None = None) -> bool:
    """PA-3/PA-4/PA-8: place the drawn card; True when ``seat`` takes control of square 3."""
    card = state["hands"][seat]
    state["hands"][seat] = None
    sides = state["board"][square - 1]
    if not sides[1 - seat]:
        sides[seat].append(_entry(card))  # PA-3 (or a second card of one's own on square 8)
        return square == PEEK_SQUARE  # one card per side there: it was empty
    won = _confront(state, seat, square, card, first, events)
    return won and square == PEEK_SQUARE


def _confront(state: dict, seat: int, square: int, card: str, first: int, events: list[dict] | None = None) -> bool:
    """PA-4..PA-6, PA-8: resolve an attack on ``square``; True when the attacker ends holding it.
    The fight is appended to ``events`` unless it is ``None`` (:func:`apply_logged`)."""
    opponent = 1 - seat
    sides = state["board"][square - 1]
    defenders = sides[opponent]
    order = [defenders[first], defenders[1 - first]] if len(defenders) == 2 else list(defenders)
    attacker = _entry(card, up=True)
    square_one = controller(state, TIEBREAK_SQUARE)  # before the defenders leave the square
    sides[opponent] = []
    fight = {"type": "fight", "seat": seat, "square": square, "card": card, "duels": [], "unseen": [],
             "king": False, "held": False, "perch_1": square_one}
    if events is not None:
        events.append(fight)
    if is_king(card) and len(order) == 2:
        # PA-8: an attacking King removes both defenders at once; they stay unseen.
        _remove(state, seat, [attacker])
        _remove(state, opponent, order)
        fight.update(king=True, unseen=[dict(e) for e in order])
        return False
    for i, defender in enumerate(order):
        defender["up"] = True
        if is_king(card) or is_king(defender["card"]):
            # PA-6: a King removes every card of the square; PA-8: a second defender stays unseen.
            _remove(state, seat, [attacker])
            _remove(state, opponent, order[i:])
            fight["duels"].append({"defender": dict(defender), "winner": None, "tie": False})
            fight.update(king=True, unseen=[dict(e) for e in order[i + 1:]])
            return False
        tie = strength(card) == strength(defender["card"])
        if attacker_wins(seat, card, defender["card"], square_one):
            _remove(state, opponent, [defender])
            fight["duels"].append({"defender": dict(defender), "winner": seat, "tie": tie})
        else:
            _remove(state, seat, [attacker])
            sides[opponent] = order[i:]
            fight["duels"].append({"defender": dict(defender), "winner": opponent, "tie": tie})
            return False
    sides[seat] = [attacker]
    fight["held"] = True
    return True


def attacker_wins(seat: int, attacking: str, defending: str, square_one: int | None) -> bool:
    """PA-4/PA-5: the higher card wins; a tie goes to the holder of square 1 (even defending it),
    else to the attacker."""
    if strength(attacking) != strength(defending):
        return strength(attacking) > strength(defending)
    return square_one is None or square_one == seat


def _remove(state: dict, owner: int, entries: list[dict]) -> None:
    state["out"][owner].extend(entries)


def _round_over(state: dict) -> bool:
    """PA-9: both seats have placed their last card."""
    return not any(state["piles"]) and not any(state["hands"])


def _end_turn(state: dict, seat: int, events: list[dict] | None = None) -> None:
    """Pass the turn; at the end of a round score it (PA-9) and start the next one (PA-1)."""
    state["phase"] = PLACE
    if not _round_over(state):
        nxt = 1 - seat if state["piles"][1 - seat] else seat
        state["turn"] = nxt
        _draw(state, nxt)
        return
    kings: list[list[dict]] = [[], []]
    state["scores"].append(_score_round(state, kings))
    if events is not None:
        events.append({"type": "round_end", "round": state["round"], "scores": list(state["scores"][-1]),
                       "kings": kings})
    if len(state["scores"]) < ROUNDS:
        state["round"] += 1
        _start_round(state, 1 - state["first"])
    else:
        state["phase"] = OVER


def _score_round(state: dict, removed: list[list[dict]] | None = None) -> list[int]:
    """PA-6: Kings still on the board leave first (copies appended to ``removed[seat]``, if
    given); PA-9: each seat scores the squares it holds."""
    scores = [0, 0]
    for square in range(1, SQUARES + 1):
        sides = state["board"][square - 1]
        for seat in (0, 1):
            kings = [e for e in sides[seat] if is_king(e["card"])]
            if kings:
                for king in kings:
                    king["up"] = True
                sides[seat] = [e for e in sides[seat] if not is_king(e["card"])]
                _remove(state, seat, kings)
                if removed is not None:
                    removed[seat].extend(dict(k, square=square) for k in kings)
        holder = controller(state, square)
        if holder is not None:
            doubled = square == DOUBLE_SQUARE and len(sides[holder]) == 2
            scores[holder] += DOUBLE_SCORE if doubled else square
    return scores


def totals(state: dict) -> list[int]:
    """PA-10: the scores of the finished rounds added up."""
    return [sum(pair[seat] for pair in state["scores"]) for seat in (0, 1)]


def outcome(state: dict) -> dict | None:
    """PA-10: the highest total after two rounds wins; equal totals are a draw."""
    if state["phase"] != OVER:
        return None
    score = totals(state)
    scores = {str(seat): score[seat] for seat in (0, 1)}  # str keys: JSON round-trips
    if score[0] == score[1]:
        return {"winners": [], "draw": True, "scores": scores}
    return {"winners": [0 if score[0] > score[1] else 1], "draw": False, "scores": scores}


# -- what a seat sees ------------------------------------------------------------------------------

def _seen_entry(entry: dict, owner: int, seat: int | None) -> dict:
    """An entry as ``seat`` sees it: its own cards, face-up cards, and the cards it peeked at."""
    visible = entry["up"] or owner == seat or (entry["peeked"] and seat == 1 - owner)
    return {"card": entry["card"] if visible else None, "up": entry["up"], "peeked": entry["peeked"]}


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator). Hidden cards show as ``"card": None``;
    the owner of a card the opponent peeked at sees ``"peeked": True`` (PA-7)."""
    return {
        "game": GAME,
        "seat": seat,
        "round": state["round"],
        "first": state["first"],
        "turn": state["turn"],
        "phase": state["phase"],
        "to_move": to_move(state),
        "hand": state["hands"][seat] if seat in (0, 1) else None,
        "hand_counts": [int(card is not None) for card in state["hands"]],
        "pile_counts": [len(pile) for pile in state["piles"]],
        "board": [
            [[_seen_entry(e, owner, seat) for e in sides[owner]] for owner in (0, 1)]
            for sides in state["board"]
        ],
        "out": [[_seen_entry(e, owner, seat) for e in state["out"][owner]] for owner in (0, 1)],
        "scores": [list(pair) for pair in state["scores"]],
        "totals": totals(state),
        "result": _public_result(state),
    }


def _public_result(state: dict) -> dict | None:
    result = outcome(state)
    return None if result is None else {"winners": result["winners"], "draw": result["draw"]}


def to_json(state: dict) -> dict:
    return copy_state(state)


def from_json(data: dict) -> dict:
    return copy_state(data)
