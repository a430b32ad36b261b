"""En la palmera: the strong bot — determinised Monte Carlo with full-round policy rollouts.

The bot is handed only ``view(state, seat)``. Each iteration :func:`deal` samples one full position
consistent with that view (the opponent's face-down and unseen removed cards and both pile orders,
uniformly), then every root candidate is played on that *same* sample
(common random numbers: the candidates are compared on identical deals) and the round is played
out to its end with :func:`policy`, a fast heuristic that only uses what the simulated mover could
know. The end of the round is scored exactly (PA-6, PA-9); the value is the chance to win the game
that score difference gives (PA-10). The candidate with the best mean wins; weak candidates are
dropped halfway (successive halving) so the budget goes to the close ones.

The simulation uses a compact private representation (card = its strength 1..13, a square = its
holder, cards and "exposed" flags) so a whole round plays out in well under a millisecond.
:func:`play_round_from` is checked against the engine in the tests (same actions, same board and
scores).

Budgeted by ``iterations`` (deals) and ``seconds`` (wall clock, checked between deals).
"""

from __future__ import annotations

import math
import random
import time

from cardgames.engines.palmera.rules import DOUBLE_SCORE, RANKS, SQUARES

KING = 13
BIT = [0] + [1 << (s - 1) for s in range(1, 14)]  # strength -> bit in a 13-bit card mask
FULL = (1 << 13) - 1
BELOW = [0] + [(1 << (s - 1)) - 1 for s in range(1, 14)]  # strictly weaker cards
ABOVE = [0] + [FULL & ~((1 << s) - 1) for s in range(1, 14)]  # strictly stronger (the King too)
DOUBLE = 7  # index of square 8 (PA-8)
PEEK = 2  # index of square 3 (PA-7)
STRENGTH = {rank: i + 1 for i, rank in enumerate(RANKS)}


def code_strength(code: str) -> int:
    return STRENGTH[code[:-1]]


# -- a compact position -----------------------------------------------------------------------------
# owner[s]: -1 or the seat holding square s+1; cards[s]: the holder's strengths there (engine order);
# exp[s]: per card, True once the other seat has seen it (face up or peeked); hidden[p]: mask of
# p's cards the other seat has not seen (board, removed unseen, hand, pile); piles[p]: top = last.


def copy_pos(pos):
    owner, cards, exp, hidden, piles = pos
    return (owner[:], [c[:] for c in cards], [e[:] for e in exp], hidden[:], [piles[0][:], piles[1][:]])


def hold_chance(c: int, holder: int, pool: int, sq1: int) -> float:
    """How likely ``c`` keeps its square against ``pool`` (the attacker's unseen cards)."""
    n = pool.bit_count()
    if not n:
        return 1.0
    beats = (pool & ABOVE[c]).bit_count()
    if pool & BIT[c] and sq1 != holder:  # PA-5: the attacker wins the tie unless the holder has 1
        beats += 1
    return 1.0 - HOLD_WEIGHT * beats / n


HOLD_WEIGHT = 0.6


def attack_gain(c: int, p: int, value: float, pool: int, sq1: int) -> float:
    """Expected swing of attacking a defender drawn from ``pool`` with ``c`` (not a King)."""
    n = pool.bit_count()
    wins = (pool & BELOW[c]).bit_count()
    if pool & BIT[c] and (sq1 == -1 or sq1 == p):
        wins += 1
    kings = 1 if pool & BIT[KING] else 0
    if c == KING:
        kings = 0
    return (2.0 * value * wins + value * kings - LOSS_COST * (n - wins - kings)) / n


LOSS_COST = 0.5


def policy(pos, p: int, c: int) -> tuple[int, int]:
    """The rollout policy: the best immediate placement for seat ``p`` holding ``c``, judged only on
    what ``p`` knows (its own cards, exposed cards, the mask of the opponent's unseen cards).
    Returns ``(square index, first)`` or ``(-1, 0)`` for a discard."""
    owner, cards, exp, hidden, _ = pos
    o = 1 - p
    sq1 = owner[0]
    pool = hidden[o]
    hold = None
    best = -1e9
    move = (-1, 0)
    for s in range(SQUARES):
        w = owner[s]
        value = s + 1
        if w == -1:
            if c == KING:
                g = 0.2 * value
            else:
                if hold is None:
                    hold = hold_chance(c, p, pool, sq1)
                g = value * hold
            first = 0
        elif w == p:
            if s != DOUBLE or len(cards[s]) >= 2:
                continue
            if hold is None:
                hold = hold_chance(c, p, pool, sq1)
            g = (DOUBLE_SCORE - value) * hold if c != KING else 0.0
            first = 0
        else:
            defs = cards[s]
            if c == KING:
                g = float(value if len(defs) == 1 else (DOUBLE_SCORE if len(defs) == 2 else value))
                first = 0
            else:
                first = 0
                if len(defs) == 2:
                    e = exp[s]
                    # fight a known weaker defender first, else the unknown one
                    ga = attack_gain(c, p, value, BIT[defs[0]] if e[0] else pool, sq1)
                    gb = attack_gain(c, p, value, BIT[defs[1]] if e[1] else pool, sq1)
                    if gb > ga:
                        ga, first = gb, 1
                    g = ga * 0.6
                else:
                    g = attack_gain(c, p, value, BIT[defs[0]] if exp[s][0] else pool, sq1)
        if g > best:
            best = g
            move = (s, first)
    return move


def place(pos, p: int, c: int, s: int, first: int) -> bool:
    """PA-3/PA-4/PA-5/PA-6/PA-8 on the compact position; True when ``p`` took square 3."""
    owner, cards, exp, hidden, _ = pos
    o = 1 - p
    w = owner[s]
    if w != o:
        if w == -1:
            owner[s] = p
            cards[s] = [c]
            exp[s] = [False]
            return s == PEEK
        cards[s].append(c)
        exp[s].append(False)
        return False
    defs = cards[s]
    dexp = exp[s]
    order = (first, 1 - first) if len(defs) == 2 else (0,)
    sq1 = owner[0]
    hidden[p] &= ~BIT[c]  # the attacker is revealed
    owner[s] = -1
    cards[s] = []
    exp[s] = []
    if c == KING and len(defs) == 2:
        return False  # PA-8: both defenders leave unseen
    for i, idx in enumerate(order):
        d = defs[idx]
        hidden[o] &= ~BIT[d]
        if c == KING or d == KING:
            return False  # PA-6 (a second defender leaves unseen)
        if d < c or (d == c and (sq1 == -1 or sq1 == p)):
            continue
        owner[s] = o
        rest = order[i:]
        cards[s] = [defs[j] for j in rest]
        exp[s] = [True] + [dexp[j] for j in rest[1:]]
        return False
    owner[s] = p
    cards[s] = [c]
    exp[s] = [True]
    return s == PEEK


def peek_targets(pos, p: int) -> list[tuple[int, int]]:
    owner, _, exp, _, _ = pos
    o = 1 - p
    return [(s, i) for s in range(SQUARES) if owner[s] == o for i, e in enumerate(exp[s]) if not e]


def peek(pos, p: int, s: int, i: int) -> None:
    _, cards, exp, hidden, _ = pos
    exp[s][i] = True
    hidden[1 - p] &= ~BIT[cards[s][i]]


def policy_peek(pos, p: int) -> None:
    """Rollout peek: the face-down card on the most valuable square."""
    targets = peek_targets(pos, p)
    if targets:
        s, i = targets[-1]
        peek(pos, p, s, i)


def round_scores(pos) -> list[int]:
    """PA-6 then PA-9: Kings leave, each holder scores its squares (16 for two cards on 8)."""
    owner, cards, _, _, _ = pos
    scores = [0, 0]
    for s in range(SQUARES):
        w = owner[s]
        if w < 0:
            continue
        left = [x for x in cards[s] if x != KING]
        if left:
            scores[w] += DOUBLE_SCORE if s == DOUBLE and len(left) == 2 else s + 1
    return scores


def has_room(pos, p: int) -> bool:
    owner, cards, _, _, _ = pos
    return any(owner[s] != p or (s == DOUBLE and len(cards[s]) < 2) for s in range(SQUARES))


def play_turn(pos, p: int, c: int) -> None:
    """One simulated turn of ``p`` holding ``c`` with the rollout policy (discard when blocked)."""
    s, first = policy(pos, p, c)
    if s < 0:
        return  # blocked: the card leaves unseen (it stays in the hidden mask)
    if place(pos, p, c, s, first) and (pos[4][0] or pos[4][1]):
        policy_peek(pos, p)


def play_round_from(pos, nxt: int) -> list[int]:
    """Play the round out with the policy, ``nxt`` to move next; the round's scores."""
    piles = pos[4]
    p = nxt
    while piles[0] or piles[1]:
        if not piles[p]:
            p = 1 - p
        play_turn(pos, p, piles[p].pop())
        p = 1 - p
    return round_scores(pos)


# -- from the view ----------------------------------------------------------------------------------

def deal(view: dict, seat: int, rng: random.Random):
    """A compact position consistent with ``view``: the cards ``seat`` cannot see are dealt
    uniformly at random — its own pile order, and the opponent's unseen cards into its face-down
    unpeeked board slots, its unseen removed cards and its pile. Every revealed card (face up,
    peeked at, removed in sight) is where the view shows it, so the deal is consistent with
    everything revealed."""
    o = 1 - seat
    owner = [-1] * SQUARES
    cards: list[list[int]] = [[] for _ in range(SQUARES)]
    exp: list[list[bool]] = [[] for _ in range(SQUARES)]
    hidden = [FULL, FULL]
    known = [0, 0]  # masks of cards ``seat`` can identify, per owner
    slots = []  # (square, index) of opponent cards to deal
    unseen_out = 0
    for s, sides in enumerate(view["board"]):
        for p in (0, 1):
            side = sides[p]
            if not side:
                continue
            owner[s] = p
            for e in side:
                card = e["card"]
                exposed = bool(e["up"] or e["peeked"])
                if card is None:
                    slots.append((s, len(cards[s])))
                    cards[s].append(0)
                else:
                    st = code_strength(card)
                    cards[s].append(st)
                    known[p] |= BIT[st]
                    if exposed:
                        hidden[p] &= ~BIT[st]
                exp[s].append(exposed)
    for p in (0, 1):
        for e in view["out"][p]:
            card = e["card"]
            if card is None:
                unseen_out += 1
                continue
            st = code_strength(card)
            known[p] |= BIT[st]
            if e["up"] or e["peeked"]:
                hidden[p] &= ~BIT[st]
    hand = view["hand"]
    if hand is not None:
        known[seat] |= BIT[code_strength(hand)]
    own_pile = [st for st in range(1, 14) if not known[seat] & BIT[st]]
    rng.shuffle(own_pile)
    unseen = [st for st in range(1, 14) if not known[o] & BIT[st]]
    rng.shuffle(unseen)
    for s, i in slots:
        cards[s][i] = unseen.pop()
    for _ in range(unseen_out):
        unseen.pop()
    if view["hand_counts"][o]:
        unseen.pop()  # never with the seat to move being ``seat``; kept for completeness
    piles = [None, None]
    piles[seat] = own_pile
    piles[o] = unseen
    return (owner, cards, exp, hidden, piles)


def round_value(banked_diff: int, diff: int, final: bool, edge: float = 0.0) -> float:
    """The chance to win (PA-10) given the score difference at the end of a round: exact after the
    last round (a draw ½, softened a little by the margin), after the first a logistic guess of
    the second round (``edge``: the seat's expected score difference in it)."""
    total = banked_diff + diff
    if final:
        step = 1.0 if total > 0 else (0.0 if total < 0 else 0.5)
        return (1.0 - MARGIN_SHARE) * step + MARGIN_SHARE / (1.0 + math.exp(-total / 6.0))
    return 1.0 / (1.0 + math.exp(-(total + edge) / ROUND_SCALE))


# Measured with the rollout policy playing both seats (4000 rounds): the score difference of a
# round has a standard deviation of about 11 points and the seat that starts a round ends it about
# 3.7 points behind (the other seat places the last card). A logistic of scale 6 is close to a
# normal of deviation 11.
ROUND_SCALE = 6.0
SECOND_MOVER_EDGE = 3.7
MARGIN_SHARE = 0.2


# -- the bot ----------------------------------------------------------------------------------------

class PalmeraBot:
    """Determinised Monte Carlo over the root actions with full-round policy rollouts."""

    name = "palmera-mc"

    def __init__(self, iterations: int = 300, seconds: float = 0.5, halve_at: int = 24):
        self.iterations = iterations
        self.seconds = seconds
        self.halve_at = halve_at
        self.last_iterations = 0

    def choose(self, engine, view, seat, actions, rng):
        if len(actions) == 1:
            return actions[0]
        deadline = time.perf_counter() + self.seconds
        o = 1 - seat
        banked = view["totals"][seat] - view["totals"][o]
        final = view["round"] == 2
        # round 2 is started by the seat that did not start round 1 (PA-1)
        edge = -SECOND_MOVER_EDGE if seat == 1 - view["first"] else SECOND_MOVER_EDGE
        hand = view["hand"]
        c = code_strength(hand) if hand is not None else 0
        alive = list(range(len(actions)))
        sums = [0.0] * len(actions)
        counts = [0] * len(actions)
        it = 0
        next_cut = self.halve_at
        while it < self.iterations and (it == 0 or time.perf_counter() < deadline):
            root = deal(view, seat, rng)
            for k in alive:
                pos = copy_pos(root)
                self._apply_root(pos, seat, c, actions[k])
                piles = pos[4]
                if piles[0] or piles[1]:
                    nxt = o if piles[o] else seat
                    scores = play_round_from(pos, nxt)
                else:
                    scores = round_scores(pos)
                sums[k] += round_value(banked, scores[seat] - scores[o], final, edge)
                counts[k] += 1
            it += 1
            if it == next_cut and len(alive) > 2:
                alive.sort(key=lambda k: -sums[k] / counts[k])
                alive = alive[: max(2, (len(alive) + 1) // 2)]
                next_cut *= 2
        self.last_iterations = it
        best = max(alive, key=lambda k: sums[k] / counts[k])
        return actions[best]

    @staticmethod
    def _apply_root(pos, seat: int, c: int, action: dict) -> None:
        kind = action["type"]
        if kind == "peek":
            peek(pos, seat, action["square"] - 1, action["slot"])
        elif kind == "discard":
            pass
        else:
            if place(pos, seat, c, action["square"] - 1, action.get("first", 0)):
                piles = pos[4]
                if piles[0] or piles[1]:
                    # the engine then asks for a peek: the rollout policy takes it here
                    policy_peek(pos, seat)


SEARCH_BUDGET = {"iterations": 300, "seconds": 0.5, "halve_at": 24}
"""The strong bot: up to 300 deals per move, at most 0.5 s (checked between deals)."""


def make_strong_bot() -> PalmeraBot:
    """The engine's strong bot (picked up by :func:`cardgames.engines.bots.strong_bot`)."""
    return PalmeraBot(**SEARCH_BUDGET)
