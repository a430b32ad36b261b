"""Health, morale and sobriety tracks (FR-HLT, FR-MOR, FR-SOB), drinking included.

Levels are integers from 0 downwards, as on the character sheet: health 0..-4, morale 0..-3,
sobriety 0..-3. Everything here is a pure function of plain data: losing and recovering levels,
recovery times (:class:`Duration`), the death roll, accidents, threats, and the two drinking
mechanics as state machines (``operation(state, ..., cards | rng) -> (new_state, events)``).
Dead man's hand cards are drawn by the caller and passed in, or drawn from an injected
``random.Random``. The card exchanges that Borracho and En coma call for are only *reported*
(:func:`exchanges_due`); the decks engine performs them.

>>> state = heavy_drinking(aguante=5, alcohol=5)
>>> state, events = heavy_drink(state, ["8C"])
>>> state["sobriety"], events[0]["automatic"], events[0]["result"], events[0]["due"]
(-2, -1, 'drops', ['borracho_swap'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from frontera.rules.cards import Card, as_card
from frontera.rules.dead_mans_hand import dead_mans_hand_cards, draw_dead_mans_hand
from frontera.rules.errors import RulesError, gettext_noop, ngettext
from frontera.rules.state import copy_json

HEALTH, MORALE, SOBRIETY = "health", "morale", "sobriety"

# FR-HLT-1, FR-MOR-1, FR-SOB-1: lowest level of each track
LOWEST = {HEALTH: -4, MORALE: -3, SOBRIETY: -3}

HEALTH_NAMES = {0: "Sano", -1: "Herido", -2: "Malherido", -3: "Incapacitado", -4: "Muerto"}
MORALE_NAMES = {0: "Normal", -1: "Asustado", -2: "Aterrorizado", -3: "Paralizado"}
SOBRIETY_NAMES = {0: "Sobrio", -1: "Achispado", -2: "Borracho", -3: "En coma"}

E_BAD_LEVEL = {  # one whole sentence per track: no code ("health") inside a message
    HEALTH: gettext_noop("%(level)s is not a health level (0 to %(lowest)s)."),
    MORALE: gettext_noop("%(level)s is not a morale level (0 to %(lowest)s)."),
    SOBRIETY: gettext_noop("%(level)s is not a sobriety level (0 to %(lowest)s)."),
}
E_CANNOT_ACT = gettext_noop("This character cannot act: %(reason)s.")


def check_level(track: str, level: object) -> int:
    """Return ``level`` if it is a valid level of ``track``; else a readable error."""
    if not isinstance(level, int) or isinstance(level, bool) or not LOWEST[track] <= level <= 0:
        raise RulesError(E_BAD_LEVEL[track], level=level, track=track, lowest=LOWEST[track])
    return level


def clamp(track: str, level: int) -> int:
    """A level moved past the bottom stays at the bottom (FR-HLT-1: never below −4, etc.)."""
    return max(LOWEST[track], min(0, level))


def draw_penalty(*, health: int = 0, morale: int = 0, sobriety: int = 0) -> int:
    """Cards removed from every check by the tracks (FR-HLT-1, FR-MOR-1, FR-SOB-1).

    Herido −1, Malherido −2; Asustado −1, Aterrorizado −2; Borracho −2. Achispado has no fixed
    penalty (its dead man's hand draw is applied by the check, FR-SOB-1). Raises if the character
    cannot act at all (see :func:`incapacity`).
    """
    reason = incapacity(health=health, morale=morale, sobriety=sobriety)
    if reason:
        raise RulesError(E_CANNOT_ACT, reason=reason)
    return -health + -morale + (2 if sobriety == -2 else 0)


def incapacity(*, health: int = 0, morale: int = 0, sobriety: int = 0) -> str | None:
    """Why a character can take no actions, or ``None`` (FR-HLT-1, FR-MOR-1, FR-SOB-1)."""
    check_level(HEALTH, health)
    check_level(MORALE, morale)
    check_level(SOBRIETY, sobriety)
    if health == -4:
        return HEALTH_NAMES[-4]
    if health == -3:
        return HEALTH_NAMES[-3]
    if morale == -3:
        return MORALE_NAMES[-3]
    if sobriety == -3:
        return SOBRIETY_NAMES[-3]
    return None


# ---------------------------------------------------------------------------------------------
# Losing and recovering levels (FR-HLT-1, FR-MOR-1, FR-SOB-1)
# ---------------------------------------------------------------------------------------------

TRACK_NAMES = {HEALTH: HEALTH_NAMES, MORALE: MORALE_NAMES, SOBRIETY: SOBRIETY_NAMES}

E_BAD_TRACK = gettext_noop("“%(track)s” is not a track: use health, morale or sobriety.")
E_BAD_AMOUNT = gettext_noop("%(amount)s is not a number of levels: use a whole number, 0 or more.")
E_NOTHING_TO_RECOVER = {
    HEALTH: gettext_noop("%(name)s is the best health level: there is nothing to recover."),
    MORALE: gettext_noop("%(name)s is the best morale level: there is nothing to recover."),
    SOBRIETY: gettext_noop("%(name)s is the best sobriety level: there is nothing to recover."),
}
E_DEAD_NEEDS_ROLL = gettext_noop(
    "A dead character does not heal with time: draw the dead man's hand within 5 combat turns."
)
E_BAD_CARE = gettext_noop("“%(care)s” is not a kind of care: use medical, rest or no_rest.")


def check_track(track: object) -> str:
    """Return ``track`` if it is one of the three tracks; else a readable error."""
    if track not in LOWEST:
        raise RulesError(E_BAD_TRACK, track=track)
    return track  # type: ignore[return-value]


def whole_number(number: object, minimum: int, error: str, /, **params: object) -> int:
    """``number`` if it is an int (not a bool) of at least ``minimum``; else ``error`` with ``params``."""
    if not isinstance(number, int) or isinstance(number, bool) or number < minimum:
        raise RulesError(error, **params)
    return number


def _check_amount(amount: object) -> int:
    return whole_number(amount, 0, E_BAD_AMOUNT, amount=amount)


def lose(track: str, level: int, amount: int = 1) -> int:
    """The level after losing ``amount`` levels, clamped at the bottom (FR-HLT-1, FR-MOR-1, FR-SOB-1).

    >>> lose(HEALTH, -2, 5), lose(MORALE, 0, 1)
    (-4, -1)
    """
    check_level(check_track(track), level)
    return clamp(track, level - _check_amount(amount))


def recover(track: str, level: int, amount: int = 1) -> int:
    """The level after recovering ``amount`` levels, never above 0 (FR-HLT-2, FR-MOR-2, FR-SOB-1).

    A dead character (health −4) only comes back through :func:`death_roll` (FR-HLT-3).
    """
    check_level(check_track(track), level)
    if track == HEALTH and level == LOWEST[HEALTH] and amount:
        raise RulesError(E_DEAD_NEEDS_ROLL)
    return clamp(track, level + _check_amount(amount))


# ---------------------------------------------------------------------------------------------
# Durations (recovery times)
# ---------------------------------------------------------------------------------------------

TURN, MINUTE, HOUR, DAY, MONTH = "turn", "minute", "hour", "day", "month"
# A combat turn is about 6 s (FR-CMB-1). RULING: a month is 30 days.
UNIT_SECONDS = {TURN: 6, MINUTE: 60, HOUR: 3600, DAY: 86400, MONTH: 30 * 86400}


@dataclass(frozen=True, slots=True)
class Duration:
    """A recovery time as the book writes it: ``Duration(8, "hour")``.

    >>> Duration(8, HOUR).text, Duration(1, DAY).hours
    ('8 hours', 24.0)
    """

    amount: int
    unit: str

    @property
    def seconds(self) -> int:
        return self.amount * UNIT_SECONDS[self.unit]

    @property
    def hours(self) -> float:
        return self.seconds / 3600

    @property
    def text(self) -> str:
        return f"{self.amount} {self.unit}{'' if self.amount == 1 else 's'}"

    def to_json(self) -> dict[str, object]:
        return {"amount": self.amount, "unit": self.unit}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Duration:
        return cls(int(data["amount"]), str(data["unit"]))  # type: ignore[arg-type]


# FR-HLT-2: recovery of one health level by kind of care (None = impossible)
MEDICAL, REST, NO_REST = "medical", "rest", "no_rest"
CARE = (MEDICAL, REST, NO_REST)
HEALTH_RECOVERY: dict[int, dict[str, Duration | None]] = {
    -1: {MEDICAL: Duration(1, HOUR), REST: Duration(8, HOUR), NO_REST: Duration(1, DAY)},
    -2: {MEDICAL: Duration(8, HOUR), REST: Duration(1, DAY), NO_REST: Duration(3, DAY)},
    -3: {MEDICAL: Duration(7, DAY), REST: Duration(1, MONTH), NO_REST: None},
}

# FR-MOR-2: recovery of one morale level, (better, worse) by dead man's hand
MORALE_RECOVERY: dict[int, tuple[Duration, Duration]] = {
    -1: (Duration(8, HOUR), Duration(1, DAY)),
    -2: (Duration(1, HOUR), Duration(8, HOUR)),
    -3: (Duration(1, TURN), Duration(1, MINUTE)),
}

# FR-SOB-1: recovery of one sobriety level (in bed / not in bed); Achispado depends on Aguante
SOBRIETY_RECOVERY: dict[int, tuple[Duration, Duration]] = {
    -2: (Duration(2, HOUR), Duration(4, HOUR)),  # in bed / active without drinking
    -3: (Duration(4, HOUR), Duration(6, HOUR)),  # in bed / on the floor
}
ACHISPADO_BASE_HOURS = 12


def _check_recoverable(track: str, level: int) -> None:
    check_level(track, level)
    if level == 0:
        raise RulesError(E_NOTHING_TO_RECOVER[track], name=TRACK_NAMES[track][0], track=track)


def health_recovery_time(level: int, care: str) -> Duration | None:
    """Time to recover one health level from ``level`` with ``care`` (FR-HLT-2).

    ``care`` is ``"medical"`` (medical attention was given, FR-CHK-5), ``"rest"`` or ``"no_rest"``.
    ``None`` means it cannot be recovered that way (Incapacitado without rest).

    >>> health_recovery_time(-2, MEDICAL).text
    '8 hours'
    """
    _check_recoverable(HEALTH, level)
    if care not in CARE:
        raise RulesError(E_BAD_CARE, care=care)
    if level == LOWEST[HEALTH]:
        raise RulesError(E_DEAD_NEEDS_ROLL)
    return HEALTH_RECOVERY[level][care]


def morale_recovery_time(level: int, cards: Sequence[Card | str] | None = None, *,
                         rng: random.Random | None = None) -> tuple[Duration, DeadMansHandDraw]:
    """Time to recover one morale level, decided by a dead man's hand of 1 card (FR-MOR-2).

    An Ace gives the shorter time, an 8 the longer one.

    >>> morale_recovery_time(-1, ["8C"])[0].text
    '1 day'
    """
    _check_recoverable(MORALE, level)
    draw = resolve_dead_mans_hand(cards, count=1, rng=rng)
    better, worse = MORALE_RECOVERY[level]
    return (better if draw.better else worse), draw


def sobriety_recovery_time(level: int, *, aguante: int, in_bed: bool = True) -> Duration:
    """Time to recover one sobriety level (FR-SOB-1).

    Achispado: 12 − Aguante hours (RULING: at least 1 hour, for an Aguante of 12 or more).
    Borracho: 2 h in bed, 4 h active without drinking. En coma: 4 h in bed, 6 h on the floor.

    >>> sobriety_recovery_time(-1, aguante=7).text
    '5 hours'
    """
    _check_recoverable(SOBRIETY, level)
    if level == -1:
        return Duration(max(1, ACHISPADO_BASE_HOURS - _check_aguante(aguante)), HOUR)
    in_bed_time, other_time = SOBRIETY_RECOVERY[level]
    return in_bed_time if in_bed else other_time


# ---------------------------------------------------------------------------------------------
# Dead man's hand draws used by the tracks (FR-CARD-5, FR-CHK-6)
# ---------------------------------------------------------------------------------------------

E_DMH_MISSING = ngettext(
    "Draw %(count)s card from the dead man's hand.", "Draw %(count)s cards from the dead man's hand."
)
E_DMH_COUNT = ngettext(
    "Draw exactly %(count)s card from the dead man's hand, not %(given)s.",
    "Draw exactly %(count)s cards from the dead man's hand, not %(given)s.",
)
E_DMH_UNEXPECTED = gettext_noop("No dead man's hand is drawn now.")


@dataclass(frozen=True, slots=True)
class DeadMansHandDraw:
    """The cards drawn from the dead man's hand and the one kept (the better: an Ace if any)."""

    drawn: tuple[str, ...]

    @property
    def kept(self) -> str:
        return max(self.drawn, key=lambda code: code.startswith("A"))

    @property
    def better(self) -> bool:
        """True for the better resolution (an Ace), False for the worse (an 8) (FR-CHK-6)."""
        return self.kept.startswith("A")

    def to_json(self) -> dict[str, object]:
        return {"drawn": list(self.drawn), "kept": self.kept, "better": self.better}


def resolve_dead_mans_hand(cards: Sequence[Card | str] | None = None, *, count: int,
                           rng: random.Random | None = None) -> DeadMansHandDraw:
    """Validate ``cards`` drawn by the caller, or draw ``count`` of the four cards with ``rng``.

    >>> resolve_dead_mans_hand(["8D", "AH"], count=2).kept
    'AH'
    """
    if cards is None:
        if rng is None:
            raise RulesError(E_DMH_MISSING, count=count)
        drawn = draw_dead_mans_hand(rng, count)
    else:
        drawn = dead_mans_hand_cards(cards)
        if len(drawn) != count:
            raise RulesError(E_DMH_COUNT, count=count, given=len(drawn))
    return DeadMansHandDraw(tuple(card.code for card in drawn))


# ---------------------------------------------------------------------------------------------
# Death, accidents, threats (FR-HLT-3, FR-HLT-4, FR-MOR-3)
# ---------------------------------------------------------------------------------------------

INCAPACITADO, PERMANENTE = "incapacitado", "permanente"
DEATH_ROLL_TURNS = 5
E_BAD_TURNS = gettext_noop("%(turns)s is not a number of combat turns: use a whole number, 0 or more.")
E_NOT_DEAD = gettext_noop("Only a dead character draws for survival; this one is %(name)s.")
E_DEATH_ROLL_LATE = gettext_noop(
    "The dead man's hand for survival must be drawn within %(turns)s combat turns of dying: "
    "it is too late, the death is permanent."
)


def death_roll(cards: Sequence[Card | str] | None = None, *, medical_attention: bool,
               health: int = -4, turns_since_death: int = 0,
               rng: random.Random | None = None) -> tuple[str, int, DeadMansHandDraw]:
    """Survival of a dead character: dead man's hand (Incapacitado / Permanente) (FR-HLT-3).

    With medical attention 2 cards are drawn and the better kept, without it 1. Returns the result,
    the new health level (−3 if the character survives, else −4 for good) and the draw.
    RULING: the draw must come within 5 combat turns; later it raises (the death is permanent).

    >>> death_roll(["8C", "AS"], medical_attention=True)[:2]
    ('incapacitado', -3)
    """
    check_level(HEALTH, health)
    if health != LOWEST[HEALTH]:
        raise RulesError(E_NOT_DEAD, name=HEALTH_NAMES[health])
    if whole_number(turns_since_death, 0, E_BAD_TURNS, turns=turns_since_death) > DEATH_ROLL_TURNS:
        raise RulesError(E_DEATH_ROLL_LATE, turns=DEATH_ROLL_TURNS)
    draw = resolve_dead_mans_hand(cards, count=2 if medical_attention else 1, rng=rng)
    if draw.better:
        return INCAPACITADO, -3, draw
    return PERMANENTE, LOWEST[HEALTH], draw


FALL, TRAIN, COACH, HORSE = "fall", "train", "coach", "horse"
ACCIDENT_LEVELS = {TRAIN: 4, COACH: 2, HORSE: 2}  # FR-HLT-4; a fall is 1 level per 5 m
FALL_METRES_PER_LEVEL = 5
AGILITY_REDUCTION = {"success": 2, "partial": 1, "failure": 0}  # FR-HLT-4

E_BAD_CAUSE = gettext_noop("“%(cause)s” is not an accident: use fall, train, coach or horse.")
E_BAD_METRES = gettext_noop("Say how many metres the character fell (a whole number, 0 or more).")
E_BAD_OUTCOME = gettext_noop("“%(outcome)s” is not a check outcome: use success, partial or failure.")


def accident_damage(cause: str, *, metres: int | None = None, agility: str | None = None) -> int:
    """Health levels lost to a fall or an accident (FR-HLT-4).

    A fall costs 1 level per full 5 m (RULING: a fall under 5 m costs nothing); a train 4, a coach
    or a horse 2. A Músculo (Agilidad) check reduces it: ``"success"`` by 2, ``"partial"`` by 1,
    ``"failure"`` (or no check, ``None``) by 0; never below 0.

    >>> accident_damage(FALL, metres=12), accident_damage(TRAIN, agility="success")
    (2, 2)
    """
    if cause == FALL:
        damage = whole_number(metres, 0, E_BAD_METRES) // FALL_METRES_PER_LEVEL
    elif cause in ACCIDENT_LEVELS:
        damage = ACCIDENT_LEVELS[cause]
    else:
        raise RulesError(E_BAD_CAUSE, cause=cause)
    if agility is not None and agility not in AGILITY_REDUCTION:
        raise RulesError(E_BAD_OUTCOME, outcome=agility)
    return max(0, damage - AGILITY_REDUCTION.get(agility, 0))  # type: ignore[arg-type]


def threat(morale: int, card: Card | str, *, confianza: int) -> int:
    """The morale level after a threat: the Mayor's random card beats Confianza → −1 (FR-MOR-3).

    >>> threat(0, "9S", confianza=8), threat(0, "8S", confianza=8)
    (-1, 0)
    """
    check_level(MORALE, morale)
    card = as_card(card)
    return lose(MORALE, morale, 1) if card.value > confianza else morale


# ---------------------------------------------------------------------------------------------
# Drinking (FR-SOB-1..3): state machines over plain dicts
# ---------------------------------------------------------------------------------------------

BORRACHO_SWAP = "borracho_swap"  # FR-SOB-1: random card ↔ random card of the Mayor's deck
COMA_EXCHANGE = "coma_exchange"  # FR-SOB-1: random card to the Mayor, who gives one of his choice
STAYS, DROPS = "stays", "drops"
NORMAL_MODE = "normal"
MODES = (NORMAL_MODE, "sin_gestion", "con_desgaste")  # FR-MODE-1
PROTAGONIST, NPC, MINION = "protagonist", "npc", "minion"
KINDS = (PROTAGONIST, NPC, MINION)  # FR-CHAR-6
WIN, LOSS, TIE = "win", "loss", "tie"

E_BAD_AGUANTE = gettext_noop("%(aguante)s is not an Aguante: use a whole number of 1 or more.")
E_IN_COMA = gettext_noop("%(who)s is in a coma and cannot drink.")
E_COMA_NO_DRINK = gettext_noop("A character in a coma cannot drink.")
E_NO_DRINKER = gettext_noop("“%(who)s” is not taking part in this drinking duel.")
E_DUEL_OVER = gettext_noop("The drinking duel is over.")
E_DRANK_THIS_ROUND = gettext_noop("%(who)s has already drunk this round; wait for the others.")
E_BAD_ALCOHOL = gettext_noop("%(alcohol)s is not an alcohol level: use a whole number, 0 or more.")
E_FEW_DRINKERS = gettext_noop("A drinking duel needs at least two drinkers.")
E_BAD_MODE = gettext_noop("“%(mode)s” is not a mode: use normal, sin_gestion or con_desgaste.")
E_BAD_KIND = gettext_noop("“%(kind)s” is not a kind of character: use protagonist, npc or minion.")


def check_mode(mode: object) -> str:
    if mode not in MODES:
        raise RulesError(E_BAD_MODE, mode=mode)
    return mode  # type: ignore[return-value]


def check_kind(kind: object) -> str:
    if kind not in KINDS:
        raise RulesError(E_BAD_KIND, kind=kind)
    return kind  # type: ignore[return-value]


def _check_aguante(aguante: object) -> int:
    return whole_number(aguante, 1, E_BAD_AGUANTE, aguante=aguante)


def exchanges_due(before: int, after: int, *, mode: str = NORMAL_MODE, protagonist: bool = True) -> list[str]:
    """The card exchanges a sobriety change calls for (FR-SOB-1, FR-EXCH-5).

    Only for a protagonist in Normal mode, and only when getting drunker. RULING: a change that
    passes through Borracho on its way to En coma calls for both, in that order.

    >>> exchanges_due(-1, -3)
    ['borracho_swap', 'coma_exchange']
    """
    check_level(SOBRIETY, before)
    check_level(SOBRIETY, after)
    if check_mode(mode) != NORMAL_MODE or not protagonist:
        return []
    return [name for level, name in ((-2, BORRACHO_SWAP), (-3, COMA_EXCHANGE)) if after <= level < before]


def _half(aguante: int) -> int:
    return -(-aguante // 2)


def _cards_due(sobriety: int, automatic: int, dmh_cards: int) -> int:
    """No check once the automatic level (or an earlier drop) has reached En coma."""
    return dmh_cards if min(sobriety, automatic) > LOWEST[SOBRIETY] else 0


def _drink_step(drinker: dict, *, automatic: int, dmh_cards: int, cards, rng, mode: str) -> dict:
    """Apply one drink to ``drinker`` (mutated; the caller owns the copy) and return its event."""
    before = drinker["sobriety"]
    level = min(before, automatic)
    draw = None
    if _cards_due(before, automatic, dmh_cards):
        draw = resolve_dead_mans_hand(cards, count=dmh_cards, rng=rng)
        if not draw.better:
            level -= 1
    elif cards:
        raise RulesError(E_DMH_UNEXPECTED)
    drinker["sobriety"] = level
    return {
        "type": "drink",
        "dmh": draw.to_json() if draw else None,
        "result": None if draw is None else (STAYS if draw.better else DROPS),
        "sobriety": {"from": before, "to": level},
        "due": exchanges_due(before, level, mode=mode, protagonist=drinker["kind"] == PROTAGONIST),
    }


def _new_drinker(aguante: int, sobriety: int, kind: str) -> dict:
    check_level(SOBRIETY, sobriety)
    return {"aguante": _check_aguante(aguante), "sobriety": sobriety, "kind": check_kind(kind)}


# FR-SOB-2 drinking duel ------------------------------------------------------------------------

def duel_dmh_cards(aguante: int, drinks: int) -> int:
    """Dead man's hand cards called for by a duel's ``drinks``-th drink (FR-SOB-2): 0, 2 or 1.

    From ceil(Aguante / 2) drinks up to Aguante: 2 (keep the better); from Aguante + 1 on: 1.

    >>> [duel_dmh_cards(7, n) for n in range(1, 10)]
    [0, 0, 0, 2, 2, 2, 2, 1, 1]
    """
    _check_aguante(aguante)
    if drinks < _half(aguante):
        return 0
    return 2 if drinks <= aguante else 1


def drinking_duel(drinkers: dict[str, dict], *, mode: str = NORMAL_MODE) -> dict:
    """A new drinking duel (FR-SOB-2, FR-GMB-7): ``{name: {"aguante", "sobriety"=0, "kind"}}``.

    The duel goes in rounds (RULING): every drinker drinks once per round, in any order; after a
    round in which someone reached En coma the duel is over — those in a coma lose, the others win,
    and if everybody is in a coma it is Tablas.
    """
    if len(drinkers) < 2:
        raise RulesError(E_FEW_DRINKERS)
    state = {"mode": check_mode(mode), "round": 1, "drank": [], "result": None, "drinkers": {}}
    for name, data in drinkers.items():
        drinker = _new_drinker(data["aguante"], data.get("sobriety", 0), data.get("kind", PROTAGONIST))
        if drinker["sobriety"] == LOWEST[SOBRIETY]:
            raise RulesError(E_IN_COMA, who=name)
        state["drinkers"][str(name)] = {**drinker, "drinks": 0}
    return state


def duel_drink(state: dict, who: str, cards: Sequence[Card | str] | None = None, *,
               rng: random.Random | None = None) -> tuple[dict, list[dict]]:
    """``who`` drinks one more in a drinking duel (FR-SOB-2); returns the new state and events.

    The caller passes the dead man's hand cards it drew (when :func:`duel_dmh_cards` says some are
    due), or an ``rng`` to draw them. The input state is never modified.
    """
    if state["result"] is not None:
        raise RulesError(E_DUEL_OVER)
    if who not in state["drinkers"]:
        raise RulesError(E_NO_DRINKER, who=who)
    if who in state["drank"]:
        raise RulesError(E_DRANK_THIS_ROUND, who=who)
    new = copy_json(state)
    drinker = new["drinkers"][who]
    drinker["drinks"] += 1
    event = _drink_step(drinker, automatic=0, dmh_cards=duel_dmh_cards(drinker["aguante"], drinker["drinks"]),
                        cards=cards, rng=rng, mode=new["mode"])
    events = [{**event, "who": who, "drinks": drinker["drinks"]}]
    new["drank"].append(who)
    if len(new["drank"]) == len(new["drinkers"]):
        events += _end_duel_round(new)
    return new, events


def _end_duel_round(state: dict) -> list[dict]:
    in_coma = [name for name, d in state["drinkers"].items() if d["sobriety"] == LOWEST[SOBRIETY]]
    if not in_coma:
        state["round"] += 1
        state["drank"] = []
        return [{"type": "round", "round": state["round"]}]
    everyone = len(in_coma) == len(state["drinkers"])
    state["result"] = {
        name: TIE if everyone else (LOSS if name in in_coma else WIN) for name in state["drinkers"]
    }
    return [{"type": "duel_over", "result": dict(state["result"])}]


def duel_next_dmh_cards(state: dict, who: str) -> int:
    """How many dead man's hand cards ``who``'s next drink in the duel will need (0, 1 or 2)."""
    if who not in state["drinkers"]:
        raise RulesError(E_NO_DRINKER, who=who)
    drinker = state["drinkers"][who]
    return _cards_due(drinker["sobriety"], 0, duel_dmh_cards(drinker["aguante"], drinker["drinks"] + 1))


def duel_outcome(state: dict) -> dict[str, str] | None:
    """``None`` while the duel goes on, else ``{name: "win" | "loss" | "tie"}`` (FR-SOB-2)."""
    return None if state["result"] is None else dict(state["result"])


# FR-SOB-3 heavy drinking -----------------------------------------------------------------------

def heavy_automatic_level(aguante: int, alcohol: int) -> int:
    """The automatic sobriety level for an alcohol level (FR-SOB-3 with its RULING).

    Above Aguante: −1; above 2 × Aguante: −2; above 3 × Aguante: −3 (En coma). Otherwise 0.

    >>> [heavy_automatic_level(5, n) for n in (5, 6, 10, 11, 15, 16)]
    [0, -1, -1, -2, -2, -3]
    """
    _check_aguante(aguante)
    return -min(3, max(0, (alcohol - 1) // aguante))


def heavy_dmh_cards(aguante: int, alcohol: int) -> int:
    """Dead man's hand cards after a drink at ``alcohol`` (FR-SOB-3): 1 above ceil(Aguante / 2).

    None above 3 × Aguante (straight to En coma).
    """
    return 1 if _half(aguante) < alcohol <= 3 * aguante else 0


def heavy_drinking(*, aguante: int, sobriety: int = 0, alcohol: int = 0, kind: str = PROTAGONIST,
                   mode: str = NORMAL_MODE) -> dict:
    """A new heavy-drinking tally for one character (FR-SOB-3)."""
    drinker = _new_drinker(aguante, sobriety, kind)
    alcohol = whole_number(alcohol, 0, E_BAD_ALCOHOL, alcohol=alcohol)
    return {**drinker, "alcohol": alcohol, "mode": check_mode(mode)}


def heavy_next_dmh_cards(state: dict) -> int:
    """How many dead man's hand cards the next drink will need (0 or 1) (FR-SOB-3)."""
    aguante, alcohol = state["aguante"], state["alcohol"] + 1
    automatic = heavy_automatic_level(aguante, alcohol)
    return _cards_due(state["sobriety"], automatic, heavy_dmh_cards(aguante, alcohol))


def heavy_drink(state: dict, cards: Sequence[Card | str] | None = None, *,
                rng: random.Random | None = None) -> tuple[dict, list[dict]]:
    """One more drink (FR-SOB-3): alcohol + 1, the automatic level, then the check if due.

    RULING: the automatic drops are targets, not repeated per drink: the new level is the lower of
    the current level and :func:`heavy_automatic_level`, then −1 if the dead man's hand gives an 8.
    """
    if state["sobriety"] == LOWEST[SOBRIETY]:
        raise RulesError(E_COMA_NO_DRINK)
    new = copy_json(state)
    new["alcohol"] += 1
    aguante, alcohol = new["aguante"], new["alcohol"]
    automatic = heavy_automatic_level(aguante, alcohol)
    event = _drink_step(new, automatic=automatic, dmh_cards=heavy_dmh_cards(aguante, alcohol),
                        cards=cards, rng=rng, mode=new["mode"])
    return new, [{**event, "alcohol": alcohol, "automatic": automatic}]
