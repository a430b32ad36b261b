"""PoCoBOT bots: a position heuristic, a fast rule-of-thumb policy and the strong bot.

Everything here reads only what a seat may know: the strong bot works from ``view(state, seat)``
and samples the hidden cards (``determinize``); the policy and the heuristic, run on such a sampled
state, look at the acting seat's own hand and the public panels only.
"""

from __future__ import annotations

import itertools
import math
import random
import time

from cardgames.engines.pocobot.cards import MODULES, is_ace, is_figure, is_numeric, suit, total, value
from cardgames.engines.pocobot.game import (
    DODGE,
    apply,
    determinize,
    do_op,
    other,
    outcome,
    to_move,
)
from cardgames.engines.pocobot.panel import (
    burns_clubs,
    capacity,
    copy_panel,
    is_mounted,
    resolve_damage,
    spade_total,
)

# --------------------------------------------------------------------------- threat arithmetic


def kill_threshold(panel: dict) -> int:
    """An attack must be strictly greater than this to collapse the mecha (PB-15, PB-16)."""
    return total(panel["C"]) + total(panel["H"])


def best_fuel_attack(panel: dict, target: int | None = None) -> dict | None:
    """The cheapest fuel attack reaching ``target`` (or the strongest one) from this panel (PB-11).

    Returns an action dict or ``None`` when the mecha cannot fuel-attack.
    """
    if not is_mounted(panel):
        return None
    best = None
    spades = panel["S"]
    sources = [panel["D"], panel["C"]] if burns_clubs(panel) else [panel["D"]]
    for extra in [None, *spades]:
        bound = spade_total(panel, extra)
        if bound < 1:
            continue
        bonus = value(extra) if extra else 0
        for k, source in enumerate(sources):
            for size in range(1, len(source) + 1):
                for fuel in itertools.combinations(source, size):
                    paid = total(fuel)
                    x = min(bound, 2 * paid)
                    if paid - min(value(c) for c in fuel) >= (x + 1) // 2:
                        continue  # not minimal
                    attack = x + bonus
                    reach = attack if target is None else min(attack, target + 1)
                    # prefer reaching the target, then the cheapest payment (clubs cost armour)
                    cost = paid * (2 if k else 1) + bonus * 1.5
                    key = (reach, -cost)
                    if best is None or key > best[0]:
                        best = (
                            key,
                            {"type": "fuel_attack", "x": x, "fuel": list(fuel), "extra": extra},
                            attack,
                        )
    return None if best is None else best[1]


def max_threat(panel: dict, first_attack: bool) -> int:
    """The largest attack this panel could make on its next turn, ignoring dodges."""
    threat = max((value(c) for c in panel["S"]), default=0) if first_attack else 0
    if is_mounted(panel):
        fuel = total(panel["D"])
        if burns_clubs(panel):
            fuel = max(fuel, total(panel["C"]))
        spades = sorted(value(c) for c in panel["S"])
        if fuel and spades:
            top = spades[-1]
            threat = max(threat, min(sum(spades), 2 * fuel), min(sum(spades) - top, 2 * fuel) + top)
    return threat


# --------------------------------------------------------------------------- evaluation


def _side_score(state: dict, seat: int) -> float:
    panel = state["panels"][seat]
    hand = state["hands"][seat]
    foe = state["panels"][other(seat)]
    hearts = [value(c) for c in panel["H"]]
    armor = [value(c) for c in panel["C"]]
    score = 4.0 * len(hearts) + 0.5 * sum(hearts) + 1.2 * len(armor) + 0.3 * sum(armor)
    if is_mounted(panel):
        score += 4.0
    elif panel["pilot"] is not None:
        modules = sum(len(panel[m]) for m in MODULES)
        score += 1.5 + 0.3 * min(modules, 6) + 0.4 * min(len(panel[suit(panel["pilot"])]), 3)
    score += 0.8 * (panel["copilot"] is not None) + 0.8 * (panel["booster"] is not None)
    score += 0.25 * min(spade_total(panel), 30) + 0.25 * min(total(panel["D"]), 16)
    score += 0.4 * min(len(hand), 8) + 0.12 * min(total(c for c in hand if suit(c) == "D"), 20)
    threat = max_threat(foe, state["first_attack"] or is_mounted(foe))
    if threat > kill_threshold(panel):
        score -= 8.0
    elif threat:
        armor_lost, hearts_lost, _ = resolve_damage(threat, None, armor, hearts)
        score -= 2.0 * len(hearts_lost) + 0.4 * len(armor_lost)
    return score


def _static(state: dict, seat: int) -> float:
    diff = _side_score(state, seat) - _side_score(state, other(seat))
    return 1.0 / (1.0 + math.exp(-diff / 8.0))


def _terminal(state: dict, seat: int) -> float | None:
    result = outcome(state)
    if result is None:
        return None
    if result["draw"]:
        return 0.5
    return 1.0 if seat in result["winners"] else 0.0


def evaluate(state: dict, seat: int) -> float:
    """Heuristic value in [0, 1] of ``state`` for ``seat`` (1 = winning).

    Counts hearts and armour (life), the mounted mecha, ♠ and fuel (attack), crew, hand size and
    the ♦ in hand, minus the danger of the opponent's best next attack. While an attack waits for the
    dodge decision the defender's best dodge is assumed.
    """
    done = _terminal(state, seat)
    if done is not None:
        return done
    if state["phase"] == DODGE:
        defender = to_move(state)[0]
        results = []
        for action in _dodge_options(state, defender):
            after = apply(state, defender, action)
            done = _terminal(after, seat)
            results.append(done if done is not None else _static(after, seat))
        return max(results) if defender == seat else min(results)
    return _static(state, seat)


def _dodge_options(state: dict, seat: int) -> list[dict]:
    return [{"type": "dodge", "card": None}] + [
        {"type": "dodge", "card": c} for c in state["hands"][seat] if suit(c) == "D" and is_numeric(c)
    ]


# --------------------------------------------------------------------------- fast policy


def _choose_dodge(state: dict, seat: int) -> dict:
    """Dodge with the smallest ♦ that saves the most; never waste one that saves nothing (PB-14)."""
    attack = state["pending"]["attack"]
    panel = state["panels"][seat]
    armor = [value(c) for c in panel["C"]]
    hearts = [value(c) for c in panel["H"]]

    def loss(dodge: int | None) -> float:
        a, h, collapsed = resolve_damage(attack, dodge, armor, hearts)
        return 1000.0 * collapsed + 10.0 * len(h) + sum(h) + 2.0 * len(a) + 0.2 * sum(a)

    best, best_loss = None, loss(None)
    for card in sorted((c for c in state["hands"][seat] if suit(c) == "D" and is_numeric(c)), key=value):
        saved = best_loss - loss(value(card))
        if saved > 0.6 * value(card) or (saved > 0 and loss(value(card)) < 1000 <= best_loss):
            best, best_loss = card, loss(value(card))
    return {"type": "dodge", "card": best}


def _attack(state: dict, seat: int) -> dict | None:
    """A fuel or projectile attack worth making, or ``None`` (PB-11, PB-12)."""
    panel = state["panels"][seat]
    foe = state["panels"][other(seat)]
    armor = [value(c) for c in foe["C"]]
    hearts = [value(c) for c in foe["H"]]
    kill = kill_threshold(foe)
    options = []
    fuel = best_fuel_attack(panel, kill + 3)
    if fuel is not None:
        attack = fuel["x"] + (value(fuel["extra"]) if fuel["extra"] else 0)
        options.append((attack, total(fuel["fuel"]) + (value(fuel["extra"]) if fuel["extra"] else 0), fuel))
    if state["first_attack"] and panel["S"]:
        top = panel["S"][-1]
        for card in panel["S"]:
            if resolve_damage(value(card), None, armor, hearts) == resolve_damage(
                value(top), None, armor, hearts
            ):
                options.append((value(card), value(card) * 1.5, {"type": "projectile", "card": card}))
                break
    best = None
    for attack, cost, action in options:
        a, h, collapsed = resolve_damage(attack, None, armor, hearts)
        gain = 1000.0 * collapsed + 9.0 * len(h) + sum(h) + 1.5 * len(a) + 0.3 * sum(a) - 0.35 * cost
        if action["type"] == "projectile" and not (h or collapsed):
            continue  # a fired ♠ is gone: spend it only on hearts
        if (a or h or collapsed) and gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    return None if best is None else best[1]


def _place_score(panel: dict, card: str) -> float:
    """How much placing the numeric ``card`` helps now; <= 0 when it cannot or should not go."""
    zone = suit(card)
    if zone == "D":
        if not panel["pilot"]:
            return 0.0
        return 0.5 + 0.15 * value(card) if total(panel["D"]) * 2 < spade_total(panel) else 0.0
    if len(panel[zone]) >= capacity(panel, zone):
        return 0.0
    score = {"H": 3.0, "C": 2.0, "S": 2.2}[zone] + 0.15 * value(card)
    if zone == "H" and not panel["H"]:
        score += 3.0
    pilot = panel["pilot"]
    if pilot is not None and suit(pilot) == zone and len(panel[zone]) < 3:
        score += 1.5
    return score


def _crew_ops(panel: dict, hand: list[str]) -> list[tuple[float, dict]]:
    ops = []
    figures = [c for c in hand if is_figure(c)]
    counts = {m: len(panel[m]) + sum(1 for c in hand if suit(c) == m and is_numeric(c)) for m in MODULES}
    if panel["pilot"] is None:
        for card in figures:
            if suit(card) != "D":
                ops.append(
                    (
                        4.0 + counts[suit(card)] + (1.0 if suit(card) == "S" else 0.0),
                        {"op": "pilot", "card": card},
                    )
                )
    elif panel["copilot"] is None:
        for card in figures:
            if suit(card) == "D":
                module = "S" if suit(panel["pilot"]) != "S" else "H"
                ops.append((2.5, {"op": "copilot", "card": card, "module": module}))
            else:
                ops.append((2.0 + 0.3 * counts[suit(card)], {"op": "copilot", "card": card}))
    if panel["booster"] is None:
        for card in hand:
            if is_ace(card):
                ops.append(
                    (
                        2.5 + (1.0 if card == "AD" and len(panel["C"]) > 1 else 0),
                        {"op": "booster", "card": card},
                    )
                )
    return ops


def _build_ops(panel: dict, hand: list[str]) -> list[dict]:
    """Up to two useful operations, chosen greedily one after the other (PB-8)."""
    panel, hand = copy_panel(panel), list(hand)
    chosen = []
    for _ in range(2):
        options = _crew_ops(panel, hand)
        options += [(_place_score(panel, c), {"op": "place", "card": c}) for c in hand if is_numeric(c)]
        options = [o for o in options if o[0] > 0.3]
        if not options:
            break
        _, op = max(options, key=lambda o: o[0])
        do_op(panel, hand, op)
        chosen.append(op)
    return chosen


def _card_worth(panel: dict, card: str) -> float:
    """How much a hand card is worth keeping (for passing)."""
    if is_numeric(card):
        return max(_place_score(panel, card), 1.0 + 0.2 * value(card) if suit(card) == "D" else 0.0)
    if is_ace(card):
        return 1.5
    return 1.0 if panel["pilot"] is None or panel["copilot"] is None else 0.3


def policy_action(state: dict, seat: int, rng: random.Random | None = None) -> dict:
    """A sensible action for ``seat`` built directly (no enumeration): dodge well, attack when it
    hurts, build the mecha, burn ♦ for cards, else pass the two least useful cards."""
    if state["phase"] == DODGE:
        return _choose_dodge(state, seat)
    attack = _attack(state, seat)
    if attack is not None:
        return attack
    panel, hand = state["panels"][seat], state["hands"][seat]
    diamonds = sorted((c for c in hand if suit(c) == "D" and is_numeric(c)), key=value)
    can_burn = diamonds and not state["burned_last_turn"][seat]
    if can_burn and value(diamonds[-1]) >= 4 and len(hand) <= 6:
        return {"type": "burn", "card": diamonds[-1]}
    ops = _build_ops(panel, hand)
    if ops:
        return {"type": "modify", "ops": ops}
    if can_burn:
        return {"type": "burn", "card": diamonds[-1]}
    figures = [c for c in hand if is_figure(c)]
    if panel["pilot"] and panel["copilot"] and len(figures) >= 2:
        return {"type": "crew_draw", "cards": figures[:2]}
    ranked = sorted(hand, key=lambda c: (_card_worth(panel, c), c))
    return {"type": "pass", "cards": ranked[:2]}


def rollout_action(state: dict, seat: int, actions: list[dict], rng: random.Random) -> dict:
    """Rollout policy for :class:`cardgames.engines.bots.MonteCarloBot` (the fast policy)."""
    return policy_action(state, seat, rng)


# --------------------------------------------------------------------------- strong bot


class PocobotBot:
    """Determinised Monte Carlo over a pruned set of root actions, with policy rollouts.

    Each iteration samples the hidden cards from the view, applies a candidate and plays the
    policy for ``depth`` plies (or to the end), where :func:`evaluate` scores the position.
    """

    name = "strong"

    def __init__(self, iterations: int = 600, seconds: float = 0.6, depth: int = 8, exploration: float = 0.5):
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration

    def candidates(self, view_: dict, seat: int, actions: list[dict], rng: random.Random) -> list[dict]:
        return candidate_actions(view_, seat, actions, rng)

    def choose(self, engine, view_: dict, seat: int, actions: list[dict], rng: random.Random) -> dict:
        cands = self.candidates(view_, seat, actions, rng)
        if len(cands) == 1:
            return cands[0]
        n = len(cands)
        visits = [0] * n
        values = [0.0] * n
        deadline = time.perf_counter() + self.seconds
        for it in range(self.iterations):
            if it >= 2 * n and time.perf_counter() > deadline:
                break
            if it < n:
                i = it
            else:
                log_n = math.log(it)
                i = max(
                    range(n),
                    key=lambda k: values[k] / visits[k] + self.exploration * math.sqrt(log_n / visits[k]),
                )
            state = apply(determinize(view_, seat, rng), seat, cands[i])
            values[i] += self._rollout(state, seat, rng)
            visits[i] += 1
        best = max(range(n), key=lambda k: (values[k] / visits[k] if visits[k] else -1.0, visits[k]))
        return cands[best]

    def _rollout(self, state: dict, seat: int, rng: random.Random) -> float:
        for _ in range(self.depth):
            movers = to_move(state)
            if not movers:
                break
            mover = movers[0]
            state = apply(state, mover, policy_action(state, mover, rng))
        return evaluate(state, seat)


def candidate_actions(
    view_: dict, seat: int, actions: list[dict], rng: random.Random | None = None
) -> list[dict]:
    """Root pruning: the policy's move, the projectiles, the biggest burn, and the 8 best other
    actions by a one-ply look on a sampled position (at most 14 candidates)."""
    if len(actions) <= 12:
        return actions
    rng = rng or random.Random(0)
    state = determinize(view_, seat, rng)
    keep = [policy_action(state, seat, rng)]
    burns = [a for a in actions if a["type"] == "burn"]
    if burns:
        keep.append(max(burns, key=lambda a: value(a["card"])))
    keep += [a for a in actions if a["type"] == "projectile"]
    scored = [
        (evaluate(apply(state, seat, a), seat), i, a)
        for i, a in enumerate(actions)
        if a["type"] in ("modify", "pass", "fuel_attack", "crew_draw")
    ]
    scored.sort(key=lambda t: (-t[0], t[1]))
    keep += [a for _, _, a in scored[:8]]
    unique = []
    for action in keep:
        if action not in unique:
            unique.append(action)
    return unique


def make_strong_bot() -> PocobotBot:
    return PocobotBot()
