"""PoCoBOT rules engine: state, legal actions, apply, view (PB-1..PB-18).

The state is a plain JSON dict (see docs/cardgames/pocobot.md). Every list of cards is kept in deck
order (so within a zone ascending by value), except ``deck`` whose last element is the top card.

``apply`` accepts every legal action however it is spelled. ``legal_actions`` lists each of them up
to two canonicalisations: one modify action per distinct result (the shortest spelling), and fuel
attacks with inclusion-minimal payments declaring the largest X they pay for (the others only lose
cards or damage).
"""

from __future__ import annotations

import itertools
import json

from cardgames.engines import IllegalAction, draw_rng, gettext_noop, new_rng_state
from cardgames.engines.pocobot.cards import (
    _SUIT,
    _VALUE,
    DECK,
    INDEX,
    MODULES,
    is_ace,
    is_card,
    is_figure,
    is_numeric,
    order_rank,
    sort_cards,
    suit,
    total,
    value,
)
from cardgames.engines.pocobot.panel import (
    BASE_CAPACITY,
    BOOSTER_CAPACITY,
    CREW_CAPACITY,
    burns_clubs,
    capacities,
    capacity,
    copy_panel,
    is_mounted,
    new_panel,
    panel_cards,
    spade_total,
    take_damage,
)

GAME = "pocobot"
SEATS = 2
HAND_SIZE = 5
MAX_TURNS = 300  # PB-18
CREW_DRAW = 4  # PB-10
MAX_OPS = 2  # PB-8

ACTION, DODGE, OVER = "action", "dodge", "over"

E_SEATS = gettext_noop("PoCoBOT is a duel: it needs exactly %(needed)s seats, not %(seats)s.")
E_SEED = gettext_noop("The seed must be a whole number.")
E_OPTIONS = gettext_noop("PoCoBOT options must be a mapping.")
E_GAME_OVER = gettext_noop("The game is over.")
E_NOT_A_SEAT = gettext_noop("“%(seat)s” is not a seat at this table.")
E_NOT_YOUR_TURN = gettext_noop("It is not seat %(seat)s's turn to act.")
E_NOT_AN_ACTION = gettext_noop("That is not an action: send an object with a “type”.")
E_UNKNOWN_ACTION = gettext_noop("“%(type)s” is not an action you can take now.")
E_FIELDS = gettext_noop("“%(type)s” takes exactly the fields %(fields)s.")
E_NOT_A_CARD = gettext_noop("“%(card)s” is not a card of the deck.")
E_NOT_A_LIST = gettext_noop("“%(field)s” must be a list of cards.")
E_TWICE = gettext_noop("%(card)s is named twice.")
E_NOT_IN_HAND = gettext_noop("%(card)s is not in your hand.")
E_NOT_ON_PANEL = gettext_noop("%(card)s is not on your panel.")
E_DODGE_CARD = gettext_noop("Only a numeric ♦ from your hand can dodge; %(card)s cannot.")
E_OPS = gettext_noop("Modify the mecha with one or two operations.")
E_OP = gettext_noop("“%(op)s” is not an operation: use place, pilot, copilot, booster or remove.")
E_NOT_NUMERIC = gettext_noop("Only a numeric card (2-10) is placed in a module or as fuel; %(card)s is not.")
E_MODULE_FULL = gettext_noop("The %(module)s module is full (%(capacity)s cards).")
E_NOT_FIGURE = gettext_noop("The crew are figures (J, Q, K); %(card)s is not.")
E_PILOT_TAKEN = gettext_noop("There is already a Piloto on the panel.")
E_PILOT_SUIT = gettext_noop("The Piloto must be a ♠, ♥ or ♣ figure; %(card)s is not.")
E_COPILOT_TAKEN = gettext_noop("There is already a Copiloto on the panel.")
E_COPILOT_NEEDS_PILOT = gettext_noop("A Copiloto needs a Piloto on the panel.")
E_COPILOT_MODULE = gettext_noop("A ♦ Copiloto raises one module of your choice: S, H or C.")
E_MODULE_NOT_CHOSEN = gettext_noop("Only a ♦ Copiloto chooses a module; %(card)s raises its own suit.")
E_NOT_ACE = gettext_noop("The Potenciador is an Ace; %(card)s is not.")
E_BOOSTER_TAKEN = gettext_noop("There is already a Potenciador on the panel.")
E_PILOT_HAS_COPILOT = gettext_noop("Remove the Copiloto before the Piloto.")
E_FORCED_COUNT = gettext_noop(
    "The %(module)s module must drop exactly %(count)s card(s) to fit its new capacity."
)
E_FORCED_CARD = gettext_noop("%(card)s is not in a module that has to drop cards.")
E_BURN_CARD = gettext_noop("Only a numeric ♦ from your hand can be burned; %(card)s cannot.")
E_BURN_TWICE = gettext_noop("You burned fuel on your last turn: not twice in a row.")
E_CREW_NEEDED = gettext_noop("The full-crew manoeuvre needs a Piloto and a Copiloto on your panel.")
E_CREW_CARDS = gettext_noop("The full-crew manoeuvre discards exactly two figures from your hand.")
E_NOT_MOUNTED = gettext_noop(
    "A fuel attack needs a mounted mecha: a Piloto and 6 module cards, 3 of its suit."
)
E_ATTACK_VALUE = gettext_noop("Declare an attack from 1 to %(max)s, the ♠ total on your panel.")
E_EXTRA = gettext_noop("The extra projectile must be a ♠ on your panel; %(card)s is not.")
E_FUEL_KIND = gettext_noop(
    "Pay with ♦ from the Combustible zone or, with A♦ active, ♣ from the Armadura; one kind per attack."
)
E_FUEL_SHORT = gettext_noop("An attack of %(x)s needs at least %(need)s fuel; you paid %(paid)s.")
E_NO_FIRST_ATTACK = gettext_noop("Projectile attacks open once someone has made the game's first attack.")
E_PROJECTILE = gettext_noop("Fire a ♠ from your panel; %(card)s is not one.")
E_PASS_COUNT = gettext_noop("Passing discards exactly %(count)s card(s) from your hand.")
E_BAD_STATE = gettext_noop("That is not a saved PoCoBOT game.")

_OP_KEYS = {
    "place": ({"op", "card"}, set()),
    "pilot": ({"op", "card"}, set()),
    "copilot": ({"op", "card"}, {"module"}),
    "booster": ({"op", "card"}, set()),
    "remove": ({"op", "card"}, {"discard"}),
}
_ACTION_KEYS = {
    "modify": ({"type", "ops"}, set()),
    "burn": ({"type", "card"}, set()),
    "crew_draw": ({"type", "cards"}, set()),
    "fuel_attack": ({"type", "x", "fuel"}, {"extra"}),
    "projectile": ({"type", "card"}, set()),
    "pass": ({"type", "cards"}, set()),
}


# --------------------------------------------------------------------------- state


def other(seat: int) -> int:
    return 1 - seat


def copy_state(state: dict) -> dict:
    """A deep copy of a state (faster than ``copy.deepcopy``; the state is plain data)."""
    new = dict(state)
    new["rng"] = dict(state["rng"])
    for key in ("deck", "discard", "removed", "burned_last_turn", "events"):
        new[key] = list(state[key])
    new["hands"] = [list(h) for h in state["hands"]]
    new["panels"] = [copy_panel(p) for p in state["panels"]]
    if state["pending"] is not None:
        new["pending"] = dict(state["pending"])
    return new


def draw_cards(state: dict, seat: int, count: int) -> int:
    """Draw up to ``count`` cards into ``seat``'s hand (PB-7); returns how many were drawn.

    An empty pile is refilled from the shuffled discard only when a draw finds it empty; a draw
    larger than the pile takes only what is there.
    """
    if count <= 0:
        return 0
    if not state["deck"] and state["discard"]:
        deck = list(state["discard"])
        draw_rng(state).shuffle(deck)
        state["deck"] = deck
        state["discard"] = []
        state["events"].append({"type": "reshuffle", "cards": len(deck)})
    taken = min(count, len(state["deck"]))
    drawn = [state["deck"].pop() for _ in range(taken)]
    state["hands"][seat] = sort_cards(state["hands"][seat] + drawn)
    state["events"].append({"type": "draw", "seat": seat, "count": taken})
    return taken


def new_game(seats: int, seed: int, options: dict | None = None) -> dict:
    """Shuffle, deal 5 each and draw for the first turn, A high, ties redraw (PB-1).

    The starting player then draws the turn's card (PB-6).
    """
    if isinstance(seats, bool) or seats != SEATS:
        raise IllegalAction(E_SEATS, needed=SEATS, seats=seats)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise IllegalAction(E_SEED)
    if options is not None and not isinstance(options, dict):
        raise IllegalAction(E_OPTIONS)
    state = {
        "game": GAME,
        "rng": new_rng_state(seed),
        "deck": [],
        "discard": [],
        "removed": [],
        "hands": [[], []],
        "panels": [new_panel(), new_panel()],
        "current": 0,
        "phase": ACTION,
        "pending": None,
        "first_attack": False,
        "burned_last_turn": [False, False],
        "turn": 0,
        "winner": None,
        "draw": False,
        "events": [],
    }
    deck = list(DECK)
    draw_rng(state).shuffle(deck)
    state["deck"] = deck
    for seat in range(SEATS):
        state["hands"][seat] = sort_cards(deck.pop() for _ in range(HAND_SIZE))
    while True:
        if len(state["deck"]) < SEATS:  # only after an absurd run of ties
            state["deck"], state["discard"] = state["discard"] + state["deck"], []
            draw_rng(state).shuffle(state["deck"])
        order = [state["deck"].pop() for _ in range(SEATS)]
        state["discard"].extend(order)
        state["events"].append({"type": "order", "cards": order})
        ranks = [order_rank(c) for c in order]
        if ranks[0] != ranks[1]:
            break
    state["discard"] = sort_cards(state["discard"])
    state["current"] = 0 if ranks[0] > ranks[1] else 1
    draw_cards(state, state["current"], 1)
    return state


def to_move(state: dict) -> list[int]:
    if state["phase"] == OVER:
        return []
    if state["phase"] == DODGE:
        return [other(state["pending"]["attacker"])]
    return [state["current"]]


def outcome(state: dict) -> dict | None:
    """``None`` while playing; a collapse wins for the attacker (PB-16); turn 300 is a draw (PB-18).

    Scores are the ♥ values left on each panel, keyed by the seat as a string (JSON-safe).
    """
    if state["phase"] != OVER:
        return None
    scores = {str(seat): total(state["panels"][seat]["H"]) for seat in range(SEATS)}
    if state["draw"]:
        return {"winners": [], "draw": True, "scores": scores}
    return {"winners": [state["winner"]], "draw": False, "scores": scores}


def to_json(state: dict) -> dict:
    """A JSON-ready deep copy of the state (lossless: ``from_json(to_json(s)) == s``)."""
    return json.loads(json.dumps(state))


def from_json(data) -> dict:
    """The state stored by :func:`to_json` (a dict, or its JSON text)."""
    try:
        state = json.loads(data) if isinstance(data, str | bytes) else json.loads(json.dumps(data))
    except (TypeError, ValueError) as exc:
        raise IllegalAction(E_BAD_STATE) from exc
    if not isinstance(state, dict) or state.get("game") != GAME:
        raise IllegalAction(E_BAD_STATE)
    return state


# --------------------------------------------------------------------------- input checks


def _fields(data: dict, kind: str, table: dict) -> None:
    required, optional = table[kind]
    keys = set(data)
    if not required <= keys or not keys <= required | optional:
        raise IllegalAction(E_FIELDS, type=kind, fields=", ".join(sorted(required | optional)))


def _card(code: object) -> str:
    if not is_card(code):
        raise IllegalAction(E_NOT_A_CARD, card=str(code)[:20])
    return code  # type: ignore[return-value]


def _cards(codes: object, field: str) -> list[str]:
    if not isinstance(codes, list):
        raise IllegalAction(E_NOT_A_LIST, field=field)
    cards = [_card(c) for c in codes]
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise IllegalAction(E_TWICE, card=card)
    return cards


def _from_hand(hand: list[str], cards: list[str]) -> None:
    for card in cards:
        if card not in hand:
            raise IllegalAction(E_NOT_IN_HAND, card=card)


# --------------------------------------------------------------------------- modify (PB-3, PB-4, PB-8)


def _forced_discard(panel: dict, chosen: object) -> list[str]:
    """Cards a shrunk module must drop (PB-4): exactly its excess, chosen by the owner."""
    chosen = _cards([] if chosen is None else chosen, "discard")
    over = {m: len(panel[m]) - capacity(panel, m) for m in MODULES if len(panel[m]) > capacity(panel, m)}
    for card in chosen:
        if suit(card) not in over or card not in panel[suit(card)]:
            raise IllegalAction(E_FORCED_CARD, card=card)
    for module, excess in over.items():
        count = sum(1 for c in chosen if suit(c) == module)
        if count != excess:
            raise IllegalAction(E_FORCED_COUNT, module=module, count=excess)
        panel[module] = [c for c in panel[module] if c not in chosen]
    return chosen


def _unseat(panel: dict, card: str) -> None:
    """Take the Piloto, Copiloto or Potenciador ``card`` off the panel."""
    for key in ("pilot", "copilot", "booster"):
        if panel[key] == card:
            panel[key] = None
    if panel["copilot"] is None:
        panel["copilot_module"] = None


def _remove_op(panel: dict, card: str, op: dict) -> list[str]:
    """Remove ``card`` from the panel; returns every card that goes to the discard (PB-4, PB-8)."""
    if is_numeric(card) and card in panel[suit(card)]:
        panel[suit(card)].remove(card)
    elif card in (panel["pilot"], panel["copilot"], panel["booster"]):
        if card == panel["pilot"] and panel["copilot"] is not None:
            raise IllegalAction(E_PILOT_HAS_COPILOT)
        _unseat(panel, card)
    else:
        raise IllegalAction(E_NOT_ON_PANEL, card=card)
    return [card, *_forced_discard(panel, op.get("discard"))]


def _place_op(panel: dict, kind: str, card: str, op: dict) -> None:
    if kind == "place":
        if not is_numeric(card):
            raise IllegalAction(E_NOT_NUMERIC, card=card)
        zone = suit(card)
        if zone != "D" and len(panel[zone]) >= capacity(panel, zone):
            raise IllegalAction(E_MODULE_FULL, module=zone, capacity=capacity(panel, zone))
        panel[zone] = sort_cards([*panel[zone], card])
    elif kind == "pilot":
        if not is_figure(card):
            raise IllegalAction(E_NOT_FIGURE, card=card)
        if panel["pilot"] is not None:
            raise IllegalAction(E_PILOT_TAKEN)
        if suit(card) == "D":
            raise IllegalAction(E_PILOT_SUIT, card=card)
        panel["pilot"] = card
    elif kind == "copilot":
        if not is_figure(card):
            raise IllegalAction(E_NOT_FIGURE, card=card)
        if panel["pilot"] is None:
            raise IllegalAction(E_COPILOT_NEEDS_PILOT)
        if panel["copilot"] is not None:
            raise IllegalAction(E_COPILOT_TAKEN)
        module = op.get("module")
        if suit(card) == "D":
            if module not in MODULES:
                raise IllegalAction(E_COPILOT_MODULE)
        elif module is not None:
            raise IllegalAction(E_MODULE_NOT_CHOSEN, card=card)
        panel["copilot"], panel["copilot_module"] = card, module
    else:  # booster
        if not is_ace(card):
            raise IllegalAction(E_NOT_ACE, card=card)
        if panel["booster"] is not None:
            raise IllegalAction(E_BOOSTER_TAKEN)
        panel["booster"] = card


def do_op(panel: dict, hand: list[str], op: object) -> tuple[dict, list[str]]:
    """One modify operation on ``panel``/``hand`` in place (PB-8); returns (canonical op, discarded)."""
    if not isinstance(op, dict) or not isinstance(op.get("op"), str) or op["op"] not in _OP_KEYS:
        raise IllegalAction(E_OP, op=str(op.get("op") if isinstance(op, dict) else op)[:20])
    kind = op["op"]
    _fields(op, kind, _OP_KEYS)
    card = _card(op["card"])
    if kind != "remove":
        _from_hand(hand, [card])
    discarded = _do_op_unchecked(panel, hand, op)
    canonical = {"op": kind, "card": card}
    if len(discarded) > 1:
        canonical["discard"] = sort_cards(discarded[1:])
    if kind == "copilot" and suit(card) == "D":
        canonical["module"] = op["module"]
    return canonical, discarded


def _do_op_unchecked(panel: dict, hand: list[str], op: dict) -> list[str]:
    """The fast path of :func:`do_op` for well-formed ops; still enforces the rules."""
    card = op["card"]
    if op["op"] == "remove":
        return _remove_op(panel, card, op)
    _place_op(panel, op["op"], card, op)
    hand.remove(card)
    return []


def _removals(panel: dict, card: str) -> list[dict]:
    """Removing a crew member or booster, one op per choice of forced discards (PB-4)."""
    trial = copy_panel(panel)
    _unseat(trial, card)
    for module in MODULES:
        excess = len(trial[module]) - capacity(trial, module)
        if excess > 0:  # one removal shrinks at most one module
            return [
                {"op": "remove", "card": card, "discard": list(combo)}
                for combo in itertools.combinations(trial[module], excess)
            ]
    return [{"op": "remove", "card": card}]


_ZONE_AT = {"S": 0, "H": 1, "C": 2, "D": 3}
_FIGURES = frozenset(code for code in DECK if is_figure(code))
_SLOT_AT = {"pilot": 4, "copilot": 5, "booster": 7}


def _panel_key(panel: dict) -> tuple:
    """A panel as one hashable tuple: the four zones, Piloto, Copiloto, its module, Potenciador."""
    return (
        tuple(panel["S"]),
        tuple(panel["H"]),
        tuple(panel["C"]),
        tuple(panel["D"]),
        panel["pilot"],
        panel["copilot"],
        panel["copilot_module"],
        panel["booster"],
    )


def _op_key(key: tuple, op: dict) -> tuple[tuple, tuple]:
    """The panel key after ``op`` and the cards it discards, for an op legal on that panel: what
    :func:`_do_op_unchecked` does to a copy, without the copy."""
    kind, card = op["op"], op["card"]
    new = list(key)
    if kind == "place":
        at = _ZONE_AT[suit(card)]
        new[at] = tuple(sort_cards((*key[at], card)))
        return tuple(new), ()
    if kind == "remove":
        if card in (key[4], key[5], key[7]):  # a crew member or the Potenciador: unseat it (PB-4)
            for at in (4, 5, 7):
                if key[at] == card:
                    new[at] = None
            if new[5] is None:
                new[6] = None
            dropped = tuple(op.get("discard") or ())
            if dropped:
                at = _ZONE_AT[suit(dropped[0])]
                new[at] = tuple(c for c in key[at] if c not in dropped)
            return tuple(new), (card, *dropped)
        at = _ZONE_AT[suit(card)]
        new[at] = tuple(c for c in key[at] if c != card)
        return tuple(new), (card,)
    new[_SLOT_AT[kind]] = card
    if kind == "copilot":
        new[6] = op.get("module")
    return tuple(new), ()


def _panel_of(key: tuple) -> dict:
    """The panel dict of a :func:`_panel_key`."""
    return {
        "S": list(key[0]),
        "H": list(key[1]),
        "C": list(key[2]),
        "D": list(key[3]),
        "pilot": key[4],
        "copilot": key[5],
        "copilot_module": key[6],
        "booster": key[7],
    }


def _key_capacities(key: tuple) -> dict[str, int]:
    """:func:`capacities` of the panel of ``key`` (PB-3)."""
    pilot, copilot, booster = key[4], key[5], key[7]
    raised = (_SUIT[pilot] if pilot is not None else None,
              None if copilot is None else key[6] if _SUIT[copilot] == "D" else _SUIT[copilot])
    boosted = _SUIT[booster] if booster is not None else None
    return {
        m: BOOSTER_CAPACITY if m == boosted else CREW_CAPACITY if m in raised else BASE_CAPACITY
        for m in MODULES
    }


def _keyed_ops(key: tuple, hand: list[str]) -> list[tuple]:
    """Every operation legal on the panel of ``key`` (a :func:`_panel_key`) and ``hand`` (PB-8),
    forced-discard choices expanded, as ``(op, panel key after, cards discarded)``; ``op`` is a
    tuple ``(kind, card)`` or ``(kind, card, module)``, or already the op dict for a removal with
    forced discards."""
    ops: list[tuple] = []
    caps = _key_capacities(key)
    pilot, copilot, booster = key[4], key[5], key[7]
    for card in hand:
        zone = _SUIT[card]
        if card in _VALUE:  # numeric
            at = _ZONE_AT[zone]
            if zone == "D" or len(key[at]) < caps[zone]:
                new = list(key)
                new[at] = tuple(sorted((*key[at], card), key=INDEX.__getitem__))
                ops.append((("place", card), tuple(new), ()))
        elif card in _FIGURES:
            if pilot is None and zone != "D":
                ops.append((("pilot", card), (*key[:4], card, *key[5:]), ()))
            if pilot is not None and copilot is None:
                if zone == "D":
                    ops.extend(
                        (("copilot", card, m), (*key[:5], card, m, key[7]), ()) for m in MODULES
                    )
                else:
                    ops.append((("copilot", card), (*key[:5], card, None, key[7]), ()))
        elif booster is None:
            ops.append((("booster", card), (*key[:7], card), ()))
    for at in range(4):
        cards = key[at]
        for card in cards:
            new = list(key)
            new[at] = tuple(c for c in cards if c != card)
            ops.append((("remove", card), tuple(new), (card,)))
    crew = [copilot, booster] + ([pilot] if copilot is None else [])
    if crew != [None, None] and crew != [None, None, None]:
        panel = _panel_of(key)
        for card in crew:
            if card is not None:
                ops.extend((op, *_op_key(key, op)) for op in _removals(panel, card))
    return ops


def _op_dict(op) -> dict:
    """The op dict of a :func:`_keyed_ops` entry."""
    if type(op) is dict:
        return op
    if len(op) == 3:
        return {"op": op[0], "card": op[1], "module": op[2]}
    return {"op": op[0], "card": op[1]}


def _modify_actions(panel: dict, hand: list[str]) -> list[dict]:
    """One modify action per distinct result of one or two operations (PB-8).

    Results are told apart by the panel afterwards and the cards discarded (the hand afterwards
    follows from them); single operations come first, so the shortest spelling is the one listed.
    """
    seen: set = set()
    actions: list[dict] = []
    firsts = []
    for op1, key1, out1 in _keyed_ops(_panel_key(panel), hand):
        op1 = _op_dict(op1)  # single operations first: the shortest form is listed
        result = (key1, tuple(sorted(out1)))
        if result not in seen:
            seen.add(result)
            actions.append({"type": "modify", "ops": [op1]})
        firsts.append((op1, key1, out1))
    for op1, key1, out1 in firsts:
        h1 = list(hand)
        if op1["op"] != "remove":
            h1.remove(op1["card"])
        sorted1 = tuple(sorted(out1))
        for op2, key2, out2 in _keyed_ops(key1, h1):
            result = (key2, tuple(sorted(out1 + out2)) if out2 else sorted1)
            if result not in seen:
                seen.add(result)
                actions.append({"type": "modify", "ops": [op1, _op_dict(op2)]})
    return actions


# --------------------------------------------------------------------------- fuel attacks (PB-11)


def _fuel_sources(panel: dict) -> list[list[str]]:
    """The kinds of fuel this panel may pay with: its ♦, and its ♣ while A♦ is active."""
    return [panel["D"], panel["C"]] if burns_clubs(panel) else [panel["D"]]


def _fuel_attacks(panel: dict) -> list[dict]:
    """Canonical fuel attacks: each inclusion-minimal payment with the largest X it pays for.

    Paying more than a minimal set only loses cards, and a smaller X for the same payment only
    lowers the damage (damage is monotone in the attack), so the others are dominated; ``apply``
    still accepts every valid payment (PB-11).
    """
    if not is_mounted(panel):
        return []
    actions = []
    for extra in [None, *panel["S"]]:
        bound = spade_total(panel, extra)
        if bound < 1:
            continue
        for source in _fuel_sources(panel):
            for size in range(1, len(source) + 1):
                for fuel in itertools.combinations(source, size):
                    paid = total(fuel)
                    x = min(bound, 2 * paid)
                    need = (x + 1) // 2
                    if all(paid - value(c) < need for c in fuel):
                        actions.append({"type": "fuel_attack", "x": x, "fuel": list(fuel), "extra": extra})
    return actions


# --------------------------------------------------------------------------- legal actions


def _pass_actions(hand: list[str]) -> list[dict]:
    """Pass: discard 2 cards, or the whole hand if it holds fewer (PB-13 ruling)."""
    if len(hand) < 2:
        return [{"type": "pass", "cards": list(hand)}]
    return [{"type": "pass", "cards": list(pair)} for pair in itertools.combinations(hand, 2)]


def legal_actions(state: dict, seat: int) -> list[dict]:
    """Every legal action of ``seat`` now (``[]`` when it is not to move), up to the two
    canonicalisations in the module docstring (PB-6..PB-14)."""
    if seat not in to_move(state):
        return []
    hand = state["hands"][seat]
    if state["phase"] == DODGE:
        return [{"type": "dodge", "card": None}] + [
            {"type": "dodge", "card": c} for c in hand if suit(c) == "D" and is_numeric(c)
        ]
    panel = state["panels"][seat]
    actions = _modify_actions(panel, hand)
    if not state["burned_last_turn"][seat]:
        actions += [{"type": "burn", "card": c} for c in hand if suit(c) == "D" and is_numeric(c)]
    if panel["pilot"] is not None and panel["copilot"] is not None:
        figures = [c for c in hand if is_figure(c)]
        actions += [{"type": "crew_draw", "cards": list(pair)} for pair in itertools.combinations(figures, 2)]
    actions += _fuel_attacks(panel)
    if state["first_attack"]:
        actions += [{"type": "projectile", "card": c} for c in panel["S"]]
    return actions + _pass_actions(hand)


# --------------------------------------------------------------------------- apply


def _discard(state: dict, cards) -> None:
    state["discard"] = sort_cards([*state["discard"], *cards])


def _finish_turn(state: dict, seat: int, *, burned: bool = False) -> None:
    """End ``seat``'s turn; the other player starts theirs with a draw (PB-6) unless turn 300 ends
    the game in a draw (PB-18)."""
    state["burned_last_turn"][seat] = burned
    state["turn"] += 1
    state["pending"] = None
    if state["turn"] >= MAX_TURNS:
        state["phase"], state["draw"] = OVER, True
        state["events"].append({"type": "draw_game", "turns": state["turn"]})
        return
    state["current"], state["phase"] = other(seat), ACTION
    draw_cards(state, other(seat), 1)


def _modify(state: dict, seat: int, action: dict) -> None:
    """Action 1: one or two operations (PB-8), forced discards included (PB-4)."""
    ops = action["ops"]
    if not isinstance(ops, list) or not 1 <= len(ops) <= MAX_OPS:
        raise IllegalAction(E_OPS)
    panel, hand = state["panels"][seat], state["hands"][seat]
    done = []
    for op in ops:
        canonical, out = do_op(panel, hand, op)
        _discard(state, out)
        done.append(canonical)
    state["events"].append({"type": "modify", "seat": seat, "ops": done})
    _finish_turn(state, seat)


def _burn(state: dict, seat: int, action: dict) -> None:
    """Action 2A: discard a numeric ♦ from hand, draw its value; not on consecutive turns (PB-9)."""
    card = _card(action["card"])
    if suit(card) != "D" or not is_numeric(card):
        raise IllegalAction(E_BURN_CARD, card=card)
    _from_hand(state["hands"][seat], [card])
    if state["burned_last_turn"][seat]:
        raise IllegalAction(E_BURN_TWICE)
    state["hands"][seat].remove(card)
    _discard(state, [card])
    state["events"].append({"type": "burn", "seat": seat, "card": card})
    draw_cards(state, seat, value(card))
    _finish_turn(state, seat, burned=True)


def _crew_draw(state: dict, seat: int, action: dict) -> None:
    """Action 2B: with Piloto and Copiloto, discard two figures from hand and draw 4 (PB-10)."""
    cards = _cards(action["cards"], "cards")
    panel = state["panels"][seat]
    if panel["pilot"] is None or panel["copilot"] is None:
        raise IllegalAction(E_CREW_NEEDED)
    if len(cards) != 2 or not all(is_figure(c) for c in cards):
        raise IllegalAction(E_CREW_CARDS)
    _from_hand(state["hands"][seat], cards)
    for card in cards:
        state["hands"][seat].remove(card)
    _discard(state, cards)
    state["events"].append({"type": "crew_draw", "seat": seat, "cards": sort_cards(cards)})
    draw_cards(state, seat, CREW_DRAW)
    _finish_turn(state, seat)


def _declare_attack(state: dict, seat: int, attack: int, kind: str, spent: list[str]) -> None:
    """An attack is declared: the defender now decides whether to dodge (PB-14)."""
    _discard(state, spent)
    state["first_attack"] = True
    state["pending"] = {"attacker": seat, "attack": attack, "kind": kind}
    state["phase"] = DODGE
    state["events"].append(
        {"type": "attack", "seat": seat, "kind": kind, "attack": attack, "spent": sort_cards(spent)}
    )


def _fuel_attack(state: dict, seat: int, action: dict) -> None:
    """Action 3A: mounted mecha, X <= ♠ total, pay >= ceil(X/2) of one fuel kind, optional extra ♠
    (PB-5, PB-11)."""
    panel = state["panels"][seat]
    if not is_mounted(panel):
        raise IllegalAction(E_NOT_MOUNTED)
    extra = action.get("extra")
    if extra is not None and (not is_card(extra) or extra not in panel["S"]):
        raise IllegalAction(E_EXTRA, card=str(extra)[:20])
    x = action["x"]
    bound = spade_total(panel, extra)
    if not isinstance(x, int) or isinstance(x, bool) or not 1 <= x <= bound:
        raise IllegalAction(E_ATTACK_VALUE, max=bound)
    fuel = _cards(action["fuel"], "fuel")
    source = next((s for s in _fuel_sources(panel) if fuel and all(c in s for c in fuel)), None)
    if fuel and source is None:
        raise IllegalAction(E_FUEL_KIND)
    paid, need = total(fuel), (x + 1) // 2
    if paid < need:
        raise IllegalAction(E_FUEL_SHORT, x=x, need=need, paid=paid)
    for card in fuel:
        source.remove(card)
    spent = list(fuel)
    if extra is not None:
        panel["S"].remove(extra)
        spent.append(extra)
    _declare_attack(state, seat, x + value(extra) if extra else x, "fuel", spent)


def _projectile(state: dict, seat: int, action: dict) -> None:
    """Action 3B: after the game's first attack, fire one ♠ from the panel (PB-12)."""
    if not state["first_attack"]:
        raise IllegalAction(E_NO_FIRST_ATTACK)
    card = _card(action["card"])
    panel = state["panels"][seat]
    if card not in panel["S"]:
        raise IllegalAction(E_PROJECTILE, card=card)
    panel["S"].remove(card)
    _declare_attack(state, seat, value(card), "projectile", [card])


def _pass(state: dict, seat: int, action: dict) -> None:
    """Action 4: discard 2 cards from hand, all of them if fewer (PB-6, PB-13)."""
    cards = _cards(action["cards"], "cards")
    hand = state["hands"][seat]
    count = min(2, len(hand))
    if len(cards) != count:
        raise IllegalAction(E_PASS_COUNT, count=count)
    _from_hand(hand, cards)
    for card in cards:
        hand.remove(card)
    _discard(state, cards)
    state["events"].append({"type": "pass", "seat": seat, "cards": sort_cards(cards)})
    _finish_turn(state, seat)


def _dodge(state: dict, seat: int, action: dict) -> None:
    """The defender may discard a numeric ♦ to lower the attack (PB-14); damage (PB-15) and
    collapse (PB-16) follow."""
    if set(action) != {"type", "card"}:
        raise IllegalAction(E_FIELDS, type="dodge", fields="card, type")
    card = action["card"]
    hand = state["hands"][seat]
    if card is not None:
        card = _card(card)
        if suit(card) != "D" or not is_numeric(card):
            raise IllegalAction(E_DODGE_CARD, card=card)
        _from_hand(hand, [card])
        hand.remove(card)
        _discard(state, [card])
    pending = state["pending"]
    attack = max(0, pending["attack"] - value(card) if card else pending["attack"])
    lost_c, lost_h, collapsed = take_damage(state["panels"][seat], attack)
    _discard(state, lost_c)
    state["removed"] = sort_cards([*state["removed"], *lost_h])
    state["events"].append(
        {
            "type": "damage",
            "seat": seat,
            "dodge": card,
            "attack": attack,
            "armor_lost": lost_c,
            "hearts_lost": lost_h,
            "collapsed": collapsed,
        }
    )
    if collapsed:
        state["phase"], state["winner"], state["pending"] = OVER, pending["attacker"], None
        return
    _finish_turn(state, pending["attacker"])


_HANDLERS = {
    "modify": _modify,
    "burn": _burn,
    "crew_draw": _crew_draw,
    "fuel_attack": _fuel_attack,
    "projectile": _projectile,
    "pass": _pass,
}


def apply(state: dict, seat: int, action: dict) -> dict:
    """The state after ``seat`` plays ``action``; the input state is never modified.

    Raises :class:`IllegalAction` for any illegal or malformed input.
    """
    if state["phase"] == OVER:
        raise IllegalAction(E_GAME_OVER)
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(SEATS):
        raise IllegalAction(E_NOT_A_SEAT, seat=str(seat)[:20])
    if seat not in to_move(state):
        raise IllegalAction(E_NOT_YOUR_TURN, seat=seat)
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(E_NOT_AN_ACTION)
    kind = action["type"]
    new = copy_state(state)
    new["events"] = []
    if state["phase"] == DODGE:
        if kind != "dodge":
            raise IllegalAction(E_UNKNOWN_ACTION, type=kind[:20])
        _dodge(new, seat, action)
        return new
    if kind not in _HANDLERS:
        raise IllegalAction(E_UNKNOWN_ACTION, type=kind[:20])
    _fields(action, kind, _ACTION_KEYS)
    _HANDLERS[kind](new, seat, action)
    return new


# --------------------------------------------------------------------------- views


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` may see (``None``: a spectator): every panel, the discard and the removed
    hearts are public; hands and the draw pile are counts, except the seat's own hand."""
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(SEATS)):
        raise IllegalAction(E_NOT_A_SEAT, seat=str(seat)[:20])
    panels = [copy_panel(p) for p in state["panels"]]
    return {
        "game": GAME,
        "seat": seat,
        "turn": state["turn"],
        "max_turns": MAX_TURNS,
        "phase": state["phase"],
        "current": state["current"],
        "to_move": to_move(state),
        "pending": None if state["pending"] is None else dict(state["pending"]),
        "first_attack": state["first_attack"],
        "burned_last_turn": list(state["burned_last_turn"]),
        "panels": panels,
        "capacities": [capacities(p) for p in panels],
        "mounted": [is_mounted(p) for p in panels],
        "hand": None if seat is None else list(state["hands"][seat]),
        "hand_counts": [len(h) for h in state["hands"]],
        "deck_count": len(state["deck"]),
        "discard": list(state["discard"]),
        "removed": list(state["removed"]),
        "winner": state["winner"],
        "draw": state["draw"],
        "events": _redact(state["events"], _visible(state, seat)),
    }


def _visible(state: dict, seat: int | None) -> set[str]:
    seen = set(state["discard"]) | set(state["removed"])
    if seat is not None:
        seen.update(state["hands"][seat])
    for panel in state["panels"]:
        seen.update(panel_cards(panel))
    return seen


def _redact(data, visible: set[str]):
    """A copy of the last events with every card the viewer cannot see now replaced by ``None``
    (a card discarded and reshuffled into the pile within the same action)."""
    if isinstance(data, list):
        return [_redact(item, visible) for item in data]
    if isinstance(data, dict):
        return {key: _redact(item, visible) for key, item in data.items()}
    if is_card(data) and data not in visible:
        return None
    return data


def unseen_cards(view_: dict) -> list[str]:
    """Cards the viewer cannot see: the other hand and the draw pile together."""
    seen = set(view_["hand"] or []) | set(view_["discard"]) | set(view_["removed"])
    for panel in view_["panels"]:
        seen.update(panel_cards(panel))
    return [c for c in DECK if c not in seen]


def determinize(view_: dict, seat: int, rng) -> dict:
    """A full state consistent with ``view_``: the hidden cards dealt uniformly at random."""
    hidden = unseen_cards(view_)
    rng.shuffle(hidden)
    opponent = other(seat)
    count = view_["hand_counts"][opponent]
    hands = [None, None]
    hands[seat] = list(view_["hand"])
    hands[opponent] = sort_cards(hidden[:count])
    return {
        "game": GAME,
        "rng": new_rng_state(rng.getrandbits(62)),
        "deck": hidden[count:],
        "discard": list(view_["discard"]),
        "removed": list(view_["removed"]),
        "hands": hands,
        "panels": [copy_panel(p) for p in view_["panels"]],
        "current": view_["current"],
        "phase": view_["phase"],
        "pending": None if view_["pending"] is None else dict(view_["pending"]),
        "first_attack": view_["first_attack"],
        "burned_last_turn": list(view_["burned_last_turn"]),
        "turn": view_["turn"],
        "winner": view_["winner"],
        "draw": view_["draw"],
        "events": json.loads(json.dumps(view_["events"])),
    }
