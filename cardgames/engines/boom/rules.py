"""Boom: the rules engine (BO-1..BO-11).

Two to four seats attack each other's life storages with the cards in their hands. A turn is two
actions of the same seat: first ``change`` or ``skip_change`` (BO-4 step 1), then exactly one of
``attack``, ``boom`` or ``discard`` (BO-4 step 2), after which the seat draws (BO-9).

State (a plain JSON dict)::

    {"game": "boom", "rng": {"seed", "n"}, "seats": n, "decks": 1,
     "deck": [codes]                      # top of the deck = last element
     "discard": [codes],
     "hands": [[codes], ...],
     "boards": [[{"card": code, "on": [codes]}, ...], ...]   # life storages and the attacks on them
     "alive": [bool, ...], "turn": seat, "step": "change" | "main" | "over",
     "turns": completed turns, "result": None | {"winners": [...], "draw": bool}}

>>> s = new_game(3, seed=1)
>>> [len(h) for h in s["hands"]], [len(b) for b in s["boards"]]
([3, 3, 3], [3, 3, 3])
>>> legal_actions(s, s["turn"])[0]
{'type': 'skip_change'}
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from cardgames.engines import IllegalAction, draw_rng, gettext_noop, new_rng_state
from cardgames.engines.validation import is_legal, short

GAME = "boom"
MIN_SEATS, MAX_SEATS = 2, 4
MAX_DECKS = 3
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "C", "D")
FIGURES = ("J", "Q", "K")
VALUE = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 0, "Q": 0, "K": 0}  # BO-1
HAND_SIZE = STORAGES = 3  # BO-2
BOOM_FIGURES = 3  # BO-7
BOOM_NUMBERS = range(1, 11)  # BO-7
MAX_DISCARD = 3  # BO-8
BOOM_DRAW = 3  # BO-9
# RULING (book silent): a game still running after this many turns ends in a draw.
MAX_TURNS = 600

CHANGE, MAIN, OVER = "change", "main", "over"

E_SEATS = gettext_noop("Boom is for 2 to 4 players, not %(seats)s.")
E_OPTIONS = gettext_noop("Boom's only option is “decks” (1 to 3 decks).")
E_GAME_OVER = gettext_noop("The game is over.")
E_NOT_YOUR_TURN = gettext_noop("It is not seat %(seat)s's turn.")
E_MALFORMED = gettext_noop("That is not an action of Boom: %(action)s.")
E_CHANGE_FIRST = gettext_noop("First change a card with a storage, or skip the change.")
E_CHANGE_DONE = gettext_noop("The change step is over: attack, call Boom or discard.")
E_NOT_IN_HAND = gettext_noop("You have no %(card)s in your hand.")
E_NO_STORAGE = gettext_noop("There is no such life storage.")
E_STORAGE_ATTACKED = gettext_noop("You cannot change a storage that has a card on it.")
E_FIGURE_ATTACK = gettext_noop("A figure has value 0 and cannot attack.")
E_FIGURE_TARGET = gettext_noop("A figure stores no life and cannot be attacked.")
E_TOO_STRONG = gettext_noop("%(card)s is worth more than the %(life)s life left in that storage.")
E_OWN_TARGET = gettext_noop("Attack an opponent who is still in the game.")
E_NEED_FIGURES = gettext_noop("Boom needs three figures (J, Q, K) in your hand.")
E_BAD_NUMBER = gettext_noop("Call Boom on a number from 1 to 10, not %(number)s.")
E_DISCARD_COUNT = gettext_noop("Discard one to three cards from your hand.")
E_ILLEGAL = gettext_noop("That move is not allowed now: %(action)s.")


# -- cards -----------------------------------------------------------------------------------------

def value(code: str) -> int:
    """BO-1: A 1, 2-10 their face, figures 0."""
    return VALUE[code[:-1]]


def is_figure(code: str) -> bool:
    return code[:-1] in FIGURES


def full_deck(decks: int = 1) -> list[str]:
    """BO-1: ``decks`` 52-card decks without jokers, in a fixed order."""
    return [rank + suit for _ in range(decks) for suit in SUITS for rank in RANKS]


def life(storage: dict) -> int:
    """BO-3: the storage card's value minus the attacks on it."""
    left = VALUE[storage["card"][:-1]]
    for card in storage["on"]:
        left -= VALUE[card[:-1]]
    return left


def total_life(state: dict, seat: int) -> int:
    return sum(life(storage) for storage in state["boards"][seat])


# -- setup -----------------------------------------------------------------------------------------

def new_game(seats: int, seed: int, options: dict | None = None) -> dict:
    """BO-1/BO-2: shuffle, deal 3 hand and 3 board cards to each seat, redeal all-figure boards."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise IllegalAction(E_SEATS, seats=seats)
    decks = _decks_option(options)
    state = {
        "game": GAME,
        "rng": new_rng_state(seed),
        "seats": seats,
        "decks": decks,
        "deck": full_deck(decks),
        "discard": [],
        "hands": [[] for _ in range(seats)],
        "boards": [[] for _ in range(seats)],
        "alive": [True] * seats,
        "turn": 0,
        "step": CHANGE,
        "turns": 0,
        "result": None,
    }
    draw_rng(state).shuffle(state["deck"])
    for seat in range(seats):
        state["hands"][seat] = [state["deck"].pop() for _ in range(HAND_SIZE)]
    for seat in range(seats):
        _deal_board(state, seat)
    state["turn"] = draw_rng(state).randrange(seats)
    return state


def _decks_option(options: object) -> int:
    if not options:
        return 1
    if not isinstance(options, dict) or set(options) != {"decks"}:
        raise IllegalAction(E_OPTIONS)
    decks = options["decks"]
    if type(decks) is not int or not 1 <= decks <= MAX_DECKS:
        raise IllegalAction(E_OPTIONS)
    return decks


def _deal_board(state: dict, seat: int) -> None:
    """BO-2: three storages; RULING: an all-figure board goes back into the deck, which is
    reshuffled, and the seat gets three new board cards (its hand is kept)."""
    while True:
        cards = [state["deck"].pop() for _ in range(STORAGES)]
        if not all(is_figure(card) for card in cards):
            state["boards"][seat] = [{"card": card, "on": []} for card in cards]
            return
        state["deck"].extend(cards)
        draw_rng(state).shuffle(state["deck"])


# -- queries ---------------------------------------------------------------------------------------

def to_move(state: dict) -> list[int]:
    return [] if state["step"] == OVER else [state["turn"]]


def _distinct(cards: list[str]) -> list[str]:
    return list(dict.fromkeys(cards))


def _discard_sets(hand: list[str]) -> list[list[str]]:
    """BO-8: every distinct choice of 1 to 3 hand cards, each sorted."""
    sets = {
        tuple(sorted(combo))
        for size in range(1, min(MAX_DISCARD, len(hand)) + 1)
        for combo in combinations(hand, size)
    }
    return [list(s) for s in sorted(sets, key=lambda s: (len(s), s))]


def _attack_targets(state: dict, seat: int, card: str) -> list[tuple[int, int]]:
    """BO-5: enemy non-figure storages with at least ``card``'s value of life left."""
    strength = value(card)
    if strength == 0:
        return []  # RULING: figures cannot attack
    return [
        (target, index)
        for target in range(state["seats"])
        if target != seat and state["alive"][target]
        for index, storage in enumerate(state["boards"][target])
        if not is_figure(storage["card"]) and life(storage) >= strength
    ]


def can_boom(hand: list[str]) -> bool:
    return sum(map(is_figure, hand)) >= BOOM_FIGURES  # BO-7


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every legal action of ``seat`` (BO-4..BO-8); ``[]`` when it is not to move."""
    if seat not in to_move(state):
        return []
    hand = state["hands"][seat]
    if state["step"] == CHANGE:
        free = [i for i, storage in enumerate(state["boards"][seat]) if not storage["on"]]
        return [{"type": "skip_change"}] + [
            {"type": "change", "card": card, "storage": i} for card in _distinct(hand) for i in free
        ]
    actions = [
        {"type": "attack", "card": card, "target": target, "storage": index}
        for card in _distinct(hand)
        for target, index in _attack_targets(state, seat, card)
    ]
    if can_boom(hand):
        actions += [{"type": "boom", "number": n} for n in BOOM_NUMBERS]
    actions += [{"type": "discard", "cards": cards} for cards in _discard_sets(hand)]
    # RULING (book silent): with an empty hand and nothing to do, the seat passes.
    return actions or [{"type": "pass"}]


# -- applying actions ------------------------------------------------------------------------------

def _normalised(action: object) -> object:
    """The discard list in canonical (sorted) order, so any order of the same cards is accepted."""
    if isinstance(action, dict) and isinstance(action.get("cards"), list):
        cards = action["cards"]
        if all(isinstance(card, str) for card in cards):
            return {**action, "cards": sorted(cards)}
    return action


def _check(state: dict, seat: object, action: object) -> dict:
    """The normalised action if it is legal for ``seat`` now, else a readable IllegalAction."""
    if state["step"] == OVER:
        raise IllegalAction(E_GAME_OVER)
    if type(seat) is not int or seat not in to_move(state):
        raise IllegalAction(E_NOT_YOUR_TURN, seat=short(seat))
    action = _normalised(action)
    if is_legal(action, legal_actions(state, seat)):
        return action
    raise _diagnose(state, seat, action)


def _diagnose(state: dict, seat: int, action: object) -> IllegalAction:
    """The most precise message for an illegal action."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in ("skip_change", "change", "attack", "boom", "discard", "pass"):
        return IllegalAction(E_MALFORMED, action=short(action))
    if state["step"] == CHANGE and kind not in ("skip_change", "change"):
        return IllegalAction(E_CHANGE_FIRST)
    if state["step"] == MAIN and kind in ("skip_change", "change"):
        return IllegalAction(E_CHANGE_DONE)
    hand = state["hands"][seat]
    card = action.get("card")
    if kind in ("change", "attack") and (not isinstance(card, str) or card not in hand):
        return IllegalAction(E_NOT_IN_HAND, card=short(card))
    if kind == "change":
        storage = _storage(state, seat, action.get("storage"))
        if storage is None:
            return IllegalAction(E_NO_STORAGE)
        if storage["on"]:
            return IllegalAction(E_STORAGE_ATTACKED)
    if kind == "attack":
        if is_figure(card):
            return IllegalAction(E_FIGURE_ATTACK)
        target = action.get("target")
        enemy = type(target) is int and target != seat and 0 <= target < state["seats"]
        if not enemy or not state["alive"][target]:
            return IllegalAction(E_OWN_TARGET)
        storage = _storage(state, target, action.get("storage"))
        if storage is None:
            return IllegalAction(E_NO_STORAGE)
        if is_figure(storage["card"]):
            return IllegalAction(E_FIGURE_TARGET)
        if life(storage) < value(card):
            return IllegalAction(E_TOO_STRONG, card=card, life=life(storage))
    if kind == "boom":
        if not can_boom(hand):
            return IllegalAction(E_NEED_FIGURES)
        number = action.get("number")
        if type(number) is not int or number not in BOOM_NUMBERS:
            return IllegalAction(E_BAD_NUMBER, number=short(number))
    if kind == "discard":
        return IllegalAction(E_DISCARD_COUNT)
    return IllegalAction(E_ILLEGAL, action=short(action))


def _storage(state: dict, seat: int, index: object) -> dict | None:
    storages = state["boards"][seat]
    return storages[index] if type(index) is int and 0 <= index < len(storages) else None


def copy_state(state: dict) -> dict:
    """A deep copy of a state (faster than :func:`copy.deepcopy` for this fixed layout)."""
    result = state["result"]
    return {
        **state,
        "rng": dict(state["rng"]),
        "deck": list(state["deck"]),
        "discard": list(state["discard"]),
        "hands": [list(hand) for hand in state["hands"]],
        "boards": [[{"card": s["card"], "on": list(s["on"])} for s in board] for board in state["boards"]],
        "alive": list(state["alive"]),
        "result": None if result is None else {"winners": list(result["winners"]), "draw": result["draw"]},
    }


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after ``seat`` plays ``action`` (BO-4..BO-11); the input is left untouched.

    Validates the action first (:class:`IllegalAction` otherwise)."""
    return play(state, seat, _check(state, seat, action))


def play(state: dict, seat: int, action: dict) -> dict:
    """The unchecked fast path of :func:`apply` for an action taken from :func:`legal_actions`
    (the bots' simulations); the input is left untouched."""
    new = copy_state(state)
    kind = action["type"]
    if kind in ("change", "skip_change"):
        if kind == "change":
            _change(new, seat, action["card"], action["storage"])
        new["step"] = MAIN
        if _eliminate(new) and new["step"] != OVER and not new["alive"][seat]:
            _next_turn(new, seat)
        return new
    draws = {"attack": _attack, "boom": _boom, "discard": _discard, "pass": _pass}[kind](new, seat, action)
    _eliminate(new)
    if new["step"] != OVER:
        if new["alive"][seat]:
            _draw(new, seat, draws)
        _next_turn(new, seat)
    return new


def _change(state: dict, seat: int, card: str, index: int) -> None:
    """BO-4 (1): swap a hand card with an unattacked storage; the old card goes to the hand."""
    hand = state["hands"][seat]
    storage = state["boards"][seat][index]
    hand.remove(card)
    hand.append(storage["card"])
    storage["card"] = card


def _attack(state: dict, seat: int, action: dict) -> int:
    """BO-5/BO-6: put the card on the storage; at 0 it goes; an exact kill earns a new storage."""
    card = action["card"]
    state["hands"][seat].remove(card)
    storages = state["boards"][action["target"]]
    storage = storages[action["storage"]]
    storage["on"].append(card)
    if life(storage) == 0:
        storages.pop(action["storage"])
        state["discard"] += [storage["card"], *storage["on"]]
        if value(card) == value(storage["card"]):  # BO-6: destroyed in one exact attack
            extra = _take(state, 1)
            state["boards"][seat] += [{"card": c, "on": []} for c in extra]
    return 1  # BO-9


def _boom(state: dict, seat: int, action: dict) -> int:
    """BO-7: every storage whose life equals the number goes, the caller's own included."""
    hand = state["hands"][seat]
    figures = [card for card in hand if is_figure(card)][:BOOM_FIGURES]
    for card in figures:
        hand.remove(card)
    state["discard"] += figures
    for target in range(state["seats"]):
        kept = []
        for storage in state["boards"][target]:
            if not is_figure(storage["card"]) and life(storage) == action["number"]:
                state["discard"] += [storage["card"], *storage["on"]]
            else:
                kept.append(storage)
        state["boards"][target] = kept
    return BOOM_DRAW  # BO-9


def _discard(state: dict, seat: int, action: dict) -> int:
    """BO-8: discard 1 to 3 hand cards; BO-9: draw as many."""
    for card in action["cards"]:
        state["hands"][seat].remove(card)
    state["discard"] += action["cards"]
    return len(action["cards"])


def _pass(state: dict, seat: int, action: dict) -> int:
    return 0


def _take(state: dict, count: int) -> list[str]:
    """Take up to ``count`` cards from the deck; BO-11: an empty deck is refilled from the
    shuffled discard (a draw larger than both takes what there is)."""
    taken = []
    for _ in range(count):
        if not state["deck"]:
            if not state["discard"]:
                break
            state["deck"], state["discard"] = state["discard"], []
            draw_rng(state).shuffle(state["deck"])
        taken.append(state["deck"].pop())
    return taken


def _draw(state: dict, seat: int, count: int) -> None:
    state["hands"][seat] += _take(state, count)  # BO-9


def _eliminate(state: dict) -> bool:
    """BO-10: seats with no storages or no life left are out (their hand goes to the discard);
    the last seat with life wins, and if every remaining seat goes at once it is a draw."""
    out = [s for s in range(state["seats"]) if state["alive"][s] and total_life(state, s) == 0]
    if not out:
        return False
    for s in out:
        state["alive"][s] = False
        state["discard"] += state["hands"][s]
        state["hands"][s] = []
    living = [s for s in range(state["seats"]) if state["alive"][s]]
    if len(living) <= 1:
        _finish(state, living, draw=not living)
    return True


def _finish(state: dict, winners: list[int], draw: bool) -> None:
    state["step"] = OVER
    state["result"] = {"winners": winners, "draw": draw}


def _next_turn(state: dict, seat: int) -> None:
    """The next seat still in the game starts its change step."""
    state["turns"] += 1
    if state["turns"] >= MAX_TURNS:
        _finish(state, [], draw=True)
        return
    n = state["seats"]
    state["turn"] = next(s % n for s in range(seat + 1, seat + n + 1) if state["alive"][s % n])
    state["step"] = CHANGE


def outcome(state: dict) -> dict | None:
    """BO-10: ``None`` while playing; scores are each seat's life left."""
    if state["result"] is None:
        return None
    scores = {str(seat): total_life(state, seat) for seat in range(state["seats"])}  # JSON-safe keys
    return {"winners": list(state["result"]["winners"]), "draw": state["result"]["draw"], "scores": scores}


# -- what a seat sees ------------------------------------------------------------------------------

def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator): its own hand, every storage (face up),
    the other hands, the deck and the discard as counts only."""
    own = seat is not None and 0 <= seat < state["seats"]
    result = state["result"]
    return {
        "game": GAME,
        "seat": seat,
        "seats": state["seats"],
        "decks": state["decks"],
        "turn": state["turn"],
        "step": state["step"],
        "to_move": to_move(state),
        "hand": list(state["hands"][seat]) if own else None,
        "hand_counts": [len(hand) for hand in state["hands"]],
        "boards": [
            [{"card": s["card"], "on": list(s["on"]), "life": life(s)} for s in board]
            for board in state["boards"]
        ],
        "alive": list(state["alive"]),
        "deck_count": len(state["deck"]),
        "discard_count": len(state["discard"]),
        "turns": state["turns"],
        "result": None if result is None else {"winners": list(result["winners"]), "draw": result["draw"]},
    }


def to_json(state: dict) -> dict:
    return copy_state(state)


def from_json(data: dict) -> dict:
    return copy_state(data)


def card_count(state: dict) -> Counter:
    """Every card of the game wherever it is (for the conservation check)."""
    cards = state["deck"] + state["discard"]
    for seat in range(state["seats"]):
        cards += state["hands"][seat]
        for storage in state["boards"][seat]:
            cards += [storage["card"], *storage["on"]]
    return Counter(cards)
