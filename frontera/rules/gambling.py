"""Gambling: La banca siempre gana, Azar and Habilidad (FR-GMB-1..7).

*Banca* is a small state machine over the Mayor's deck (dead man's hand included): one card per
round (:func:`banca_round`), optional attempts to stop (:func:`banca_stop`) and the settlement
(:func:`banca_result`, :func:`banca_settlement`). *Azar* and *Habilidad* are opposed checks
(:func:`azar_contest`, :func:`azar_settlement`, :func:`habilidad_contest`). The card exchange that
follows a bet (FR-EXCH-2) is given as a role: ``"victory"``, ``"defeat"``, ``"tie"`` or
``"caught_cheating"``.

Clementine's casino night (the book's example): $12, bank 2 − player 8 = −6 → she leaves with $60.

>>> banca_settlement(12, 2, 8)
60
>>> banca_settlement(12, 5, 0)   # 5 quarters lost: $3 of gambling debt
-3
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from frontera.rules.cards import CABEZA, DEAD_MANS_HAND_CODES, MANOS, MUSCULO, SENTIDOS, Card
from frontera.rules.checks import (
    LOSS,
    PARTIAL,
    SUCCESS,
    TIE,
    WIN,
    opposed_outcome,
    trait_outcome,
)
from frontera.rules.dead_mans_hand import (
    BETTER,
    dead_mans_hand_result,
    physical_card,
)
from frontera.rules.errors import RulesError, gettext_noop
from frontera.rules.state import copy_json

State = dict[str, Any]
Events = list[dict[str, Any]]
Money = int | Fraction

BANCA, AZAR, HABILIDAD = "banca", "azar", "habilidad"  # FR-GMB-1
FAMILIES: tuple[str, ...] = (BANCA, AZAR, HABILIDAD)
PLAYER, BANK = "player", "bank"
PLAYING, LAST_ROUND, LEFT = "playing", "last_round", "left"
# FR-EXCH-2 roles after a bet
VICTORY, DEFEAT, EVEN, CAUGHT = "victory", "defeat", "tie", "caught_cheating"

# FR-GMB-7: contest → (trait, skill); the drinking duel follows FR-SOB-2 instead.
DRINKING_DUEL = "duelo_bebida"
HABILIDAD_CONTESTS: dict[str, tuple[str, str] | None] = {
    "dardos": (MANOS, "pelea"),
    "lanzamiento_cuchillos": (MANOS, "pelea"),
    "pulso": (MUSCULO, "fuerza"),
    "carrera": (MUSCULO, "agilidad"),
    "ajedrez": (CABEZA, "astucia"),
    "damas": (CABEZA, "astucia"),
    "tiro_al_blanco": (SENTIDOS, "apuntar"),
    "tiro_al_plato": (MANOS, "disparo_rapido"),
    DRINKING_DUEL: None,
}

E_BAD_MONEY = gettext_noop("The money carried must be a whole, non-negative amount, not %(money)s.")
E_BAD_POINTS = gettext_noop("Points must be whole numbers of 0 or more, not %(points)s.")
E_EMPTY_DECK = gettext_noop("The banca needs the Mayor's deck.")
E_DEAD_MANS_HAND_MISSING = gettext_noop(
    "La banca is played with the dead man's hand in the deck: %(cards)s missing."
)
E_DUPLICATE_CARD = gettext_noop("%(card)s appears twice in the deck.")
E_LEFT = gettext_noop("The player has already left the table.")
E_NO_ROUND_YET = gettext_noop("Play a round before trying to leave.")
E_STOP_AGAIN = gettext_noop("The attempt to leave failed: play another round first.")
E_LEAVING = gettext_noop("The player leaves after this round; no check is needed.")
E_CANNOT_DROP = gettext_noop(
    "Only a success with a card of at least %(value)s lets the player ignore the last round."
)
E_STILL_PLAYING = gettext_noop("The player has not left the table yet.")
E_UNKNOWN_CONTEST = gettext_noop("“%(contest)s” is not a known contest.")
E_DRINKING_DUEL = gettext_noop("A drinking duel is settled by the drinking rules, not by one opposed check.")
E_FEW_PLAYERS = gettext_noop("A game needs at least two players.")
E_UNKNOWN_PLAYER = gettext_noop("%(player)s is not playing.")
E_MISSING_MONEY = gettext_noop("Missing money for %(players)s.")
E_MISSING_LUCK = gettext_noop("Missing a dead man's hand for %(players)s.")
E_NOT_NEEDED = gettext_noop("%(players)s draw no dead man's hand.")
E_BAD_STANDING = gettext_noop("“%(standing)s” is not a result of azar.")


# --- banca: points and settlement ------------------------------------------------------------------


def card_points(card: Card | str) -> int:
    """FR-GMB-2: Joker 5, Ace 3, J/Q/K 2, any other card 1.

    >>> [card_points(c) for c in ("JK", "AS", "QH", "7C")]
    [5, 3, 2, 1]
    """
    card = physical_card(card)
    if card.is_joker:
        return 5
    return {"A": 3, "J": 2, "Q": 2, "K": 2}.get(card.rank, 1)


def card_side(card: Card | str) -> str:
    """FR-GMB-2: ♠ scores for the player, any other suit for the bank; a joker for the player."""
    card = physical_card(card)
    return PLAYER if card.is_joker or card.suit == "S" else BANK


def _check_money(money: object) -> Money:
    if isinstance(money, bool) or not isinstance(money, (int, Fraction)) or money < 0:
        raise RulesError(E_BAD_MONEY, money=money)
    return money


def _check_points(points: object) -> int:
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RulesError(E_BAD_POINTS, points=points)
    return points


def _exact(amount: Fraction) -> Money:
    return amount.numerator if amount.denominator == 1 else amount


def banca_settlement(money: Money, bank_points: int, player_points: int) -> Money:
    """The money the player leaves with; negative = gambling debt (FR-GMB-4).

    r = bank − player. r = 0: unchanged. r > 0: loses r quarters of the money (beyond 4 quarters,
    debt). r < 0, p = −r: wins (money / 4) × min(p, 4) × 2^max(p − 4, 0). Exact: an ``int`` when
    whole, else a :class:`~fractions.Fraction`.

    >>> banca_settlement(12, 3, 3), banca_settlement(12, 3, 1), banca_settlement(12, 0, 4)
    (12, 6, 24)
    """
    r = _check_points(bank_points) - _check_points(player_points)
    quarter = Fraction(_check_money(money)) / 4
    if r >= 0:
        return _exact(quarter * 4 - quarter * r)
    p = -r
    return _exact(quarter * 4 + quarter * min(p, 4) * 2 ** max(p - 4, 0))


def banca_exchange(bank_points: int, player_points: int) -> str:
    """FR-GMB-4: r = 0 is a tie, r > 0 a defeat, r < 0 a victory for the FR-EXCH-2 exchange."""
    r = _check_points(bank_points) - _check_points(player_points)
    return EVEN if r == 0 else DEFEAT if r > 0 else VICTORY


def gambling_check(cheating: bool = False) -> tuple[str, str]:
    """The check for stopping at the banca and for azar: Cabeza (Astucia), or Manos (Maña) for a
    cheat (FR-GMB-3, FR-GMB-5, FR-GMB-6)."""
    return (MANOS, "mana") if cheating else (CABEZA, "astucia")


# --- banca: the state machine -----------------------------------------------------------------------


def banca_start(deck: Iterable[Card | str], money: int, *, cheating: bool = False) -> State:
    """A night at the banca (FR-GMB-2): ``deck`` is the Mayor's deck, dead man's hand included,
    in draw order (its first card is drawn first); ``money`` the whole dollars carried."""
    if isinstance(money, bool) or not isinstance(money, int) or money < 0:
        raise RulesError(E_BAD_MONEY, money=money)
    cards = [physical_card(card) for card in deck]
    if not cards:
        raise RulesError(E_EMPTY_DECK)
    seen: set[str] = set()
    for card in cards:
        if card.uid in seen:
            raise RulesError(E_DUPLICATE_CARD, card=card.label)
        seen.add(card.uid)
    missing = sorted(set(DEAD_MANS_HAND_CODES) - {card.code for card in cards})
    if missing:
        raise RulesError(E_DEAD_MANS_HAND_MISSING, cards=", ".join(missing))
    return {
        "money": money,
        "cheating": bool(cheating),
        "pile": [card.uid for card in cards],
        "drawn": [],
        "rounds": [],
        "bank": 0,
        "player": 0,
        "status": PLAYING,
        "may_stop": False,
        "dropped_last_round": False,
    }


def banca_round(state: State, rng: random.Random) -> tuple[State, Events]:
    """Play one round: the Mayor turns one card; its points go to the player or the bank (FR-GMB-2).

    When the deck runs out, every card drawn so far is shuffled with ``rng`` into a new deck.
    After the extra round an Éxito parcial allowed, the player leaves (FR-GMB-3).
    """
    if state["status"] == LEFT:
        raise RulesError(E_LEFT)
    new = copy_json(state)
    events: Events = []
    if not new["pile"]:
        new["pile"], new["drawn"] = new["drawn"], []
        rng.shuffle(new["pile"])
        events.append({"type": "banca_reshuffled", "cards": len(new["pile"])})
    uid = new["pile"].pop(0)
    new["drawn"].append(uid)
    side, points = card_side(uid), card_points(uid)
    new[side] += points
    new["rounds"].append({"card": uid, "side": side, "points": points})
    new["may_stop"] = True
    if new["status"] == LAST_ROUND:
        new["status"] = LEFT
    events.append({"type": "banca_round", "card": uid, "side": side, "points": points,
                   "bank": new["bank"], "player": new["player"], "status": new["status"]})
    return new, events


def banca_stop(
    state: State,
    card: Card | str,
    *,
    suit: str | None = None,
    drop_last_round: bool | None = None,
) -> tuple[State, Events]:
    """Try to leave the table with the card played in a Cabeza (Astucia) check, Manos (Maña) when
    cheating (FR-GMB-3, FR-GMB-6).

    Fracaso → keeps playing (next attempt after another round). Éxito parcial → leaves after one
    more round, which counts. Éxito → leaves now, the last round counts, unless the card's value is
    at least that of the last card drawn: then the player may leave as if the last round had not
    been played (``drop_last_round``; by default only when that round scored for the bank).
    """
    if state["status"] == LEFT:
        raise RulesError(E_LEFT)
    if state["status"] == LAST_ROUND:
        raise RulesError(E_LEAVING)
    if not state["rounds"]:
        raise RulesError(E_NO_ROUND_YET)
    if not state["may_stop"]:
        raise RulesError(E_STOP_AGAIN)
    played = _played((card, suit) if suit else card)
    trait, _skill = gambling_check(state["cheating"])
    outcome = trait_outcome(played, trait)
    last = state["rounds"][-1]
    may_drop = outcome == SUCCESS and played.value >= Card.from_uid(last["card"]).value
    if drop_last_round and not may_drop:
        raise RulesError(E_CANNOT_DROP, value=Card.from_uid(last["card"]).value)
    if drop_last_round is None:
        drop_last_round = may_drop and last["side"] == BANK
    new = copy_json(state)
    new["may_stop"] = False
    if outcome == PARTIAL:
        new["status"] = LAST_ROUND
    elif outcome == SUCCESS:
        new["status"] = LEFT
        if drop_last_round:
            new[last["side"]] -= last["points"]
            new["dropped_last_round"] = True
    event = {"type": "banca_stop", "card": played.uid, "suit": played.suit, "outcome": outcome,
             "status": new["status"], "dropped_last_round": new["dropped_last_round"]}
    return new, [event]


def whole_dollars(amount: Money) -> int:
    """The banca's settlement in the whole dollars a sheet holds (FR-GMB-4). RULING
    (docs/rules/combat.md): the book counts in dollars and quarters of the money carried and never
    in cents, so a fraction of a dollar goes to the house ("la banca siempre gana"): rounded down,
    which lowers winnings and deepens losses and debts.

    >>> whole_dollars(Fraction(15, 2)), whole_dollars(Fraction(-5, 2)), whole_dollars(60)
    (7, -3, 60)
    """
    return math.floor(amount)


def banca_result(state: State) -> dict[str, Any]:
    """The settlement of a finished night (FR-GMB-4), cheating included (FR-GMB-6).

    A cheat who wins gets twice the honest winnings; a cheat who loses is caught and loses all the
    money carried (a debt the honest result would have left still stands). ``money_after`` is in
    whole dollars (:func:`whole_dollars`); ``money_exact`` is the book's figure before rounding
    (an ``int`` or a :class:`~fractions.Fraction`).
    """
    if state["status"] != LEFT:
        raise RulesError(E_STILL_PLAYING)
    money, bank, player = state["money"], state["bank"], state["player"]
    after = banca_settlement(money, bank, player)
    exchange = banca_exchange(bank, player)
    if state["cheating"] and exchange == VICTORY:
        after = _exact(Fraction(money) + 2 * (Fraction(after) - money))
    elif state["cheating"] and exchange == DEFEAT:
        after, exchange = min(0, after), CAUGHT
    return {"r": bank - player, "bank": bank, "player": player, "money_before": money,
            "money_after": whole_dollars(after), "money_exact": after, "exchange": exchange}


# --- azar ----------------------------------------------------------------------------------------------


def azar_contest(plays: Mapping[str, Any], *, cheats: Iterable[str] = ()) -> dict[str, str]:
    """The skill factor of azar: opposed Cabeza (Astucia), Manos (Maña) for cheats (FR-GMB-5, -6).

    ``plays`` maps each player to the card played (``(card, suit)`` for a joker). Returns
    ``"victory"``, ``"defeat"``, ``"tie"`` (nothing changes: a two-player tie, or nobody beat
    anybody) or ``"caught_cheating"``. With more than two players, those who tie for the best card
    all win and the rest lose.
    """
    cheats = _players_subset(plays, cheats)
    if len(plays) < 2:
        raise RulesError(E_FEW_PLAYERS)
    outcome = opposed_outcome({
        key: (gambling_check(key in cheats)[0], _played(entry)) for key, entry in plays.items()
    })
    if all(result == TIE for result in outcome.values()) or (len(outcome) == 2 and TIE in outcome.values()):
        return dict.fromkeys(outcome, EVEN)
    standing = {key: VICTORY if result in (WIN, TIE) else DEFEAT for key, result in outcome.items()}
    return {key: CAUGHT if result == DEFEAT and key in cheats else result for key, result in standing.items()}


def azar_needs_luck(standing: Mapping[str, str]) -> list[str]:
    """Who draws a dead man's hand for the luck factor: every winner and every honest loser (FR-GMB-5)."""
    for result in standing.values():
        if result not in (VICTORY, DEFEAT, EVEN, CAUGHT):
            raise RulesError(E_BAD_STANDING, standing=result)
    return [key for key, result in standing.items() if result in (VICTORY, DEFEAT)]


def azar_settlement(
    money: Mapping[str, int],
    standing: Mapping[str, str],
    luck: Mapping[str, Any],
    *,
    cheats: Iterable[str] = (),
) -> dict[str, dict[str, Any]]:
    """The luck factor of azar (FR-GMB-5, FR-GMB-6): each winner's and loser's dead man's hand.

    Winner: Ace doubles the money, 8 no loss. Loser: Ace no loss, 8 loses it all. A cheat who wins
    gets twice the honest winnings; a caught cheat loses everything and draws nothing. ``luck``
    maps each player of :func:`azar_needs_luck` to the card(s) drawn.
    """
    cheats = _players_subset(standing, cheats)
    needs = azar_needs_luck(standing)
    missing = [key for key in standing if key not in money]
    if missing:
        raise RulesError(E_MISSING_MONEY, players=", ".join(missing))
    for key in standing:
        _check_money(money[key])
    absent = [key for key in needs if key not in luck]
    if absent:
        raise RulesError(E_MISSING_LUCK, players=", ".join(absent))
    extra = [key for key in luck if key not in needs]
    if extra:
        raise RulesError(E_NOT_NEEDED, players=", ".join(map(str, extra)))
    settled = {}
    for key, result in standing.items():
        before = money[key]
        after = before
        lucky = dead_mans_hand_result(luck[key]) == BETTER if key in needs else None
        if result == VICTORY and lucky:
            after = before * (3 if key in cheats else 2)
        elif result == DEFEAT and not lucky or result == CAUGHT:
            after = 0
        settled[key] = {"money_before": before, "money_after": after, "exchange": result, "lucky": lucky}
    return settled


def _players_subset(players: Mapping[str, Any], subset: Iterable[str]) -> set[str]:
    chosen = set(subset)
    for key in chosen:
        if key not in players:
            raise RulesError(E_UNKNOWN_PLAYER, player=key)
    return chosen


# --- habilidad -----------------------------------------------------------------------------------------


def habilidad_check(contest: str) -> tuple[str, str]:
    """FR-GMB-7: the trait and skill of a skill contest (``"pulso"`` → Músculo (Fuerza))."""
    if contest not in HABILIDAD_CONTESTS:
        raise RulesError(E_UNKNOWN_CONTEST, contest=contest)
    check = HABILIDAD_CONTESTS[contest]
    if check is None:
        raise RulesError(E_DRINKING_DUEL)
    return check


def habilidad_contest(contest: str, plays: Mapping[str, Any]) -> dict[str, str]:
    """FR-GMB-7: resolve a skill contest as an opposed check; returns FR-EXCH-2 roles per player.

    RULING (docs/rules/combat.md): with more than two players, those who tie for the best result
    all win and the rest lose, as FR-GMB-5 says for azar; only a tie of everybody is Tablas.
    """
    trait, _skill = habilidad_check(contest)
    outcome = opposed_outcome({key: (trait, _played(entry)) for key, entry in plays.items()})
    if len(outcome) > 2 and LOSS in outcome.values():
        return {key: DEFEAT if result == LOSS else VICTORY for key, result in outcome.items()}
    return {key: {WIN: VICTORY, LOSS: DEFEAT, TIE: EVEN}[result] for key, result in outcome.items()}


# --- the bet's card exchanges (FR-EXCH-2) -----------------------------------------------------------


BET, CHEAT, TIE_SWAP, TIE_RING = "bet", "cheat", "tie", "tie_ring"


def bet_exchanges(
    standing: Mapping[str, str], seats: Mapping[str, str], rng: random.Random
) -> list[dict[str, Any]]:
    """The card exchanges that follow a bet among any number of bettors (FR-EXCH-2).

    ``standing`` maps each bettor to its role (in the order of the table), ``seats`` each bettor to
    the engine player whose deck it stakes (NPCs stake the Mayor's). Returns the exchanges:
    ``{"kind": "bet", "first": winner, "second": loser}`` (the winner chooses),
    ``{"kind": "cheat", "first": rival, "second": cheat}``, ``{"kind": "tie", "first", "second"}``
    (a random card each way) or ``{"kind": "tie_ring", "players": [...]}`` (each takes a random
    card of the next one's deck, :func:`frontera.rules.exchanges.tie_ring`); ``winner``/``loser``
    name the bettors of a pair.

    RULINGS (docs/rules/combat.md): every bettor stakes one card (the book: "estará apostando una
    carta de su mazo"), so every loser and every caught cheat settles exactly one exchange, with
    one winner. Losers are dealt to the winners by lot (``rng``) and evenly; a loser is never dealt
    to a winner staking the same deck (two NPCs of the Mayor), and is left out if only such winners
    remain. Everybody tied: two decks swap a random card each way, three or more form a ring in
    table order. Two bettors give exactly FR-EXCH-2's one exchange.

    >>> bet_exchanges({"a": "victory", "b": "defeat"}, {"a": "c1", "b": "c2"}, random.Random(1))
    [{'kind': 'bet', 'first': 'c1', 'second': 'c2', 'winner': 'a', 'loser': 'b'}]
    """
    for result in standing.values():
        if result not in (VICTORY, DEFEAT, EVEN, CAUGHT):
            raise RulesError(E_BAD_STANDING, standing=result)
    missing = [key for key in standing if key not in seats]
    if missing:
        raise RulesError(E_UNKNOWN_PLAYER, player=", ".join(missing))
    if all(result == EVEN for result in standing.values()):
        decks = list(dict.fromkeys(seats[key] for key in standing))
        if len(decks) == 2:
            return [{"kind": TIE_SWAP, "first": decks[0], "second": decks[1]}]
        return [{"kind": TIE_RING, "players": decks}] if len(decks) > 2 else []
    winners = [key for key, result in standing.items() if result == VICTORY]
    rng.shuffle(winners)
    load = dict.fromkeys(winners, 0)
    exchanges = []
    for loser, result in standing.items():
        if result not in (DEFEAT, CAUGHT):
            continue
        others = [w for w in winners if seats[w] != seats[loser]]
        if not others:
            continue
        winner = min(others, key=lambda w: load[w])
        load[winner] += 1
        exchanges.append({"kind": CHEAT if result == CAUGHT else BET, "first": seats[winner],
                          "second": seats[loser], "winner": winner, "loser": loser})
    return exchanges


# --- cards -----------------------------------------------------------------------------------------------


def _played(entry: Any) -> Card:
    """A played card: a Card (a joker already declared), a code or uid, or ``(card, suit)`` (FR-CARD-2)."""
    if isinstance(entry, (tuple, list)) and len(entry) == 2:
        card, suit = entry
        return physical_card(card).declare(suit)
    return entry if isinstance(entry, Card) else physical_card(entry)
