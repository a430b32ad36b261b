"""Trait checks, opposed checks, the dead man's hand and medical attention.

Rules: FR-CHK-1..6, FR-OPP-1..6 and the Achispado draw of FR-SOB-1. Everything here is a pure
function of its arguments; the one function that draws (:func:`draw_dead_mans_hand`) takes an
injected ``random.Random``.

A trait check in three steps (FR-CHK-1..3):

>>> cards_for_check(trait_score=4)                      # Policarpo: Sentidos 4, no Percepción
4
>>> record = check_open(trait="sentidos", drawn=["3C", "9D", "10S", "KS"], difficulty=8)
>>> record, events = check_choose(record, "3C")         # FR-CHK-4: right suit below 8
>>> record.outcome
'partial'

An opposed check (FR-OPP-1..5), the book's chase:

>>> opposed_outcome({"ulises": ("musculo", "8H"), "billy": ("musculo", "7H")})
{'ulises': 'win', 'billy': 'loss'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from frontera.rules.cards import (
    CABEZA,
    MANOS,
    MUSCULO,
    SENTIDOS,
    SUIT_COLOUR,
    TRAIT_SUIT,
    Card,
    as_card,
    check_trait,
)
from frontera.rules.dead_mans_hand import dead_mans_hand_card, physical_card
from frontera.rules.errors import RulesError, gettext_noop
from frontera.rules.tracks import draw_penalty

# Outcomes of a trait check (FR-CHK-3/4), of an opposed check (FR-OPP-2..5), of the dead man's
# hand (FR-CHK-6).
SUCCESS, PARTIAL, FAILURE = "success", "partial", "failure"
OUTCOMES: tuple[str, ...] = (SUCCESS, PARTIAL, FAILURE)
WIN, LOSS, TIE = "win", "loss", "tie"

SKILL_BONUS = 2  # FR-CHK-1
LOWEST_DIFFICULTY, HIGHEST_DIFFICULTY = 2, 15  # a difficulty is a card value (FR-CARD-1)

# Strength of a played card in an opposed check (FR-OPP-2..5): compared as tuples.
RIGHT_SUIT, RIGHT_COLOUR, NEITHER = 2, 1, 0
NO_STRENGTH: tuple[int, int] = (NEITHER, 0)

E_UNDECLARED_JOKER = gettext_noop("Say which suit the joker stands for (♠, ♥, ♣ or ♦) before playing it.")
E_BAD_DIFFICULTY = gettext_noop("The difficulty must be a card value from 2 to 15, not %(difficulty)s.")
E_BAD_NUMBER = gettext_noop("“%(value)s” is not a whole number.")
E_BAD_FLAG = gettext_noop("“%(value)s” is not yes or no.")
E_NEGATIVE_SCORE = gettext_noop("A trait score cannot be negative (got %(value)s).")
E_ACHISPADO_CARD_MISSING = gettext_noop(
    "An Achispado character draws a card from the dead man's hand before every check: say which one came out."
)
E_NOT_ACHISPADO = gettext_noop("Only an Achispado character draws from the dead man's hand before a check.")
E_DRAWN_TWICE = gettext_noop("%(card)s cannot be drawn twice in the same check.")
E_NOT_DRAWN = gettext_noop("%(card)s was not drawn in this check.")
E_ALREADY_RESOLVED = gettext_noop("This check is already resolved.")
E_FEW_PARTICIPANTS = gettext_noop("An opposed check needs at least two participants.")
E_BAD_PLAY = gettext_noop("%(who)s must play a trait and one card.")
E_UNKNOWN_NAMED_CHECK = gettext_noop(
    "“%(name)s” is not a named opposed check: use chase, stealth, pickpocket, challenge or provoke."
)
E_BAD_RESULTS = gettext_noop(
    "The %(name)s check needs one result (win, loss or tie) for each of its roles: %(roles)s."
)
E_BAD_OUTCOME = gettext_noop("“%(outcome)s” is not an outcome: use success, partial or failure.")
E_BAD_RECORD = gettext_noop("This check record does not match its cards.")


# --- validation helpers (the checked entry points call these) -----------------------------------


def check_whole_number(value: object) -> int:
    """Return ``value`` if it is an ``int`` (not a bool), else a readable error."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(E_BAD_NUMBER, value=value)
    return value


def check_difficulty(difficulty: object) -> int | None:
    """``None`` (no difficulty) or a card value from 2 to 15 (FR-CHK-4)."""
    if difficulty is None:
        return None
    if (
        not isinstance(difficulty, int)
        or isinstance(difficulty, bool)
        or not LOWEST_DIFFICULTY <= difficulty <= HIGHEST_DIFFICULTY
    ):
        raise RulesError(E_BAD_DIFFICULTY, difficulty=difficulty)
    return difficulty


def _check_flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise RulesError(E_BAD_FLAG, value=value)
    return value


def played_card(card: Card | str) -> Card:
    """A card as it is played (a Card, code or uid); a joker must carry its declared suit (FR-CARD-2)."""
    card = Card.from_uid(card) if isinstance(card, str) and ":" in card else as_card(card)
    if card.suit is None:
        raise RulesError(E_UNDECLARED_JOKER)
    return card


# --- FR-CHK-1: how many cards a check draws ------------------------------------------------------


def achispado_bonus(card: Card | str) -> int:
    """FR-SOB-1: the dead man's hand card an Achispado draws before a check: Ace +1, 8 −1."""
    card = dead_mans_hand_card(card)
    return 1 if card.rank == "A" else -1


def cards_for_check(
    *,
    trait_score: int,
    skill: bool = False,
    equipment_bonus: int = 0,
    health: int = 0,
    morale: int = 0,
    sobriety: int = 0,
    range_modifier: int = 0,
    achispado_card: Card | str | None = None,
) -> int:
    """Cards a check draws (FR-CHK-1), with the track penalties (FR-HLT-1, FR-MOR-1, FR-SOB-1).

    0 or less means an automatic failure and no card is drawn (FR-CHK-1 ruling). An Achispado
    character (sobriety −1) must pass the dead man's hand card drawn before the check.
    Raises if the character cannot act at all (Incapacitado, Muerto, Paralizado, En coma).

    >>> cards_for_check(trait_score=2, skill=True)                # Ulises: Músculo 2 + Agilidad
    4
    >>> cards_for_check(trait_score=3, health=-1, sobriety=-1, achispado_card="8C")
    1
    """
    check_whole_number(trait_score)
    if trait_score < 0:
        raise RulesError(E_NEGATIVE_SCORE, value=trait_score)
    _check_flag(skill)
    check_whole_number(equipment_bonus)
    check_whole_number(range_modifier)
    penalty = draw_penalty(health=health, morale=morale, sobriety=sobriety)
    if sobriety == -1:
        if achispado_card is None:
            raise RulesError(E_ACHISPADO_CARD_MISSING)
        achispado = achispado_bonus(achispado_card)
    elif achispado_card is not None:
        raise RulesError(E_NOT_ACHISPADO)
    else:
        achispado = 0
    skill_bonus = SKILL_BONUS if skill else 0
    return trait_score + skill_bonus + equipment_bonus - penalty + range_modifier + achispado


def is_automatic_failure(cards: int) -> bool:
    """FR-CHK-1 ruling: a check that would draw 0 cards or fewer fails without drawing."""
    return check_whole_number(cards) <= 0


# --- FR-CHK-3/4: the outcome of a played card ----------------------------------------------------


def outcome_for(suit: str, value: int, right_suit: str, difficulty: int | None) -> str:
    """FR-CHK-3/4 on validated data, unchecked (the fast path shared with the odds)."""
    if suit == right_suit:
        return SUCCESS if difficulty is None or value >= difficulty else PARTIAL
    if difficulty is None and SUIT_COLOUR[suit] == SUIT_COLOUR[right_suit]:
        return PARTIAL
    return FAILURE


def trait_outcome(card: Card | str, trait: str, difficulty: int | None = None) -> str:
    """The outcome of the card played in a trait check (FR-CHK-3, FR-CHK-4).

    Right suit → success; right colour → partial; other colour → failure. With a difficulty, a
    right-suit card below it is a partial and every other suit fails. A joker counts with its
    declared suit and value 15 (FR-CARD-2); an undeclared joker is refused.

    >>> trait_outcome("3C", "sentidos"), trait_outcome("3S", "sentidos"), trait_outcome("3H", "sentidos")
    ('success', 'partial', 'failure')
    >>> trait_outcome("3C", "sentidos", difficulty=8), trait_outcome("KS", "sentidos", difficulty=8)
    ('partial', 'failure')
    """
    card = played_card(card)
    right_suit = TRAIT_SUIT[check_trait(trait)]
    difficulty = check_difficulty(difficulty)
    return outcome_for(card.suit, card.value, right_suit, difficulty)  # type: ignore[arg-type]


def outcome_rank(outcome: str) -> int:
    """Order of outcomes for "keep the better": failure 0 < partial 1 < success 2."""
    if outcome not in OUTCOMES:
        raise RulesError(E_BAD_OUTCOME, outcome=outcome)
    return len(OUTCOMES) - 1 - OUTCOMES.index(outcome)


# --- FR-CHK-2: a check's record, from drawn cards to outcome --------------------------------------


@dataclass(frozen=True, slots=True)
class CheckRecord:
    """One trait check as plain data: the cards drawn (uids), then the card played and the outcome.

    ``outcome`` is set once the check is resolved; a check that drew no card is an automatic
    failure from the start (FR-CHK-1 ruling).
    """

    trait: str
    drawn: tuple[str, ...]
    difficulty: int | None = None
    played: str | None = None
    declared: str | None = None
    outcome: str | None = None
    unchosen: tuple[str, ...] = field(default=())

    @property
    def resolved(self) -> bool:
        return self.outcome is not None

    def to_json(self) -> dict:
        return {
            "trait": self.trait,
            "drawn": list(self.drawn),
            "difficulty": self.difficulty,
            "played": self.played,
            "declared": self.declared,
            "outcome": self.outcome,
            "unchosen": list(self.unchosen),
        }

    @classmethod
    def from_json(cls, data: Mapping) -> CheckRecord:
        """Rebuild a record, replaying the choice so that a tampered record is refused."""
        try:
            record = check_open(trait=data["trait"], drawn=data["drawn"], difficulty=data["difficulty"])
            if data["played"] is not None:
                record, _ = check_choose(record, data["played"], suit=data["declared"])
            matches = record.to_json() == dict(data)
        except (KeyError, TypeError):
            matches = False
        if not matches:
            raise RulesError(E_BAD_RECORD)
        return record


def check_open(*, trait: str, drawn: Iterable[Card | str], difficulty: int | None = None) -> CheckRecord:
    """Start a check with the cards drawn (Cards, uids, or codes of deck 1) (FR-CHK-1/2).

    With no card drawn the check is an automatic failure at once (FR-CHK-1 ruling).
    """
    check_trait(trait)
    check_difficulty(difficulty)
    uids: list[str] = []
    for card in drawn:
        uid = physical_card(card).uid
        if uid in uids:
            raise RulesError(E_DRAWN_TWICE, card=physical_card(card).label)
        uids.append(uid)
    return CheckRecord(trait, tuple(uids), difficulty, outcome=None if uids else FAILURE)


def check_choices(record: CheckRecord) -> list[str]:
    """The uids of the cards that may be played now (none once resolved) (FR-CHK-2)."""
    return [] if record.resolved else list(record.drawn)


def _find_drawn(record: CheckRecord, card: Card | str) -> str:
    """The uid of the drawn card the player means; a code picks the first drawn copy."""
    if isinstance(card, str) and ":" not in card:
        code = as_card(card).code
        uid = next((u for u in record.drawn if Card.from_uid(u).code == code), None)
    else:
        uid = physical_card(card).uid
        uid = uid if uid in record.drawn else None
    if uid is None:
        raise RulesError(E_NOT_DRAWN, card=physical_card(card).label)
    return uid


def check_choose(
    record: CheckRecord, card: Card | str, *, suit: str | None = None
) -> tuple[CheckRecord, list[dict]]:
    """Play one drawn card and resolve the check (FR-CHK-2..4); returns the new record and events.

    ``card`` is a Card, a uid or a code; a joker needs its suit, either declared on the Card or
    passed as ``suit`` (FR-CARD-2). The events are, in order: the card played, the unchosen cards,
    the outcome.
    """
    if record.resolved:
        raise RulesError(E_ALREADY_RESOLVED)
    uid = _find_drawn(record, card)
    chosen = Card.from_uid(uid)
    if suit is None and isinstance(card, Card) and card.is_joker:
        suit = card.suit
    if suit is not None:
        chosen = chosen.declare(suit)
    outcome = trait_outcome(chosen, record.trait, record.difficulty)
    unchosen = tuple(u for u in record.drawn if u != uid)
    declared = chosen.suit if chosen.is_joker else None
    new = replace(record, played=uid, declared=declared, outcome=outcome, unchosen=unchosen)
    events = [
        {"type": "card_played", "card": uid, "declared": declared},
        {"type": "cards_unchosen", "cards": list(unchosen)},
        {
            "type": "check_resolved",
            "trait": record.trait,
            "difficulty": record.difficulty,
            "outcome": outcome,
        },
    ]
    return new, events


# --- FR-CHK-5: medical attention ------------------------------------------------------------------

MEDICAL_TRAIT, MEDICAL_SKILL = CABEZA, "saber"
SELF_MEDICAL_DIFFICULTY = 8
HEALERS_KIT_BONUS = 1


def medical_cards(*, cabeza: int, saber: bool = False, healers_kit: bool = False, **tracks: object) -> int:
    """Cards drawn for medical attention: Cabeza (+2 with Saber) +1 with a healer's kit (FR-CHK-5).

    ``tracks`` are the keyword arguments of :func:`cards_for_check` (health, morale, sobriety,
    achispado_card).
    """
    _check_flag(healers_kit)
    bonus = HEALERS_KIT_BONUS if healers_kit else 0
    return cards_for_check(
        trait_score=cabeza, skill=saber, equipment_bonus=bonus, **tracks  # type: ignore[arg-type]
    )


def medical_attention(card: Card | str | None, *, on_self: bool = False) -> bool:
    """Whether medical attention speeds recovery (FR-CHK-5); it never restores a level by itself.

    On someone else only a full success (a ♦) counts, a partial does nothing. On oneself the
    difficulty is 8: a ♦ of 8 or more. ``None`` is a check that drew no card (automatic failure).

    >>> medical_attention("5D"), medical_attention("5H"), medical_attention("5D", on_self=True)
    (True, False, False)
    """
    _check_flag(on_self)
    if card is None:
        return False
    difficulty = SELF_MEDICAL_DIFFICULTY if on_self else None
    return trait_outcome(card, MEDICAL_TRAIT, difficulty) == SUCCESS


# --- FR-CHK-6: the dead man's hand lives in frontera.rules.dead_mans_hand (imported above) ---------


# --- FR-OPP-1..5: opposed checks -------------------------------------------------------------------


def opposed_strength(trait: str, card: Card | str | None) -> tuple[int, int]:
    """How strong a played card is in an opposed check for ``trait`` (FR-OPP-2..5).

    ``(2, value)`` with the trait's suit, ``(1, value)`` with its colour, ``(0, 0)`` otherwise;
    tuples compare as the rules do. ``None`` (a participant whose check drew no card, FR-CHK-1
    ruling) counts as a card of neither suit nor colour.
    """
    right_suit = TRAIT_SUIT[check_trait(trait)]
    if card is None:
        return NO_STRENGTH
    card = played_card(card)
    return strength_for(card.suit, card.value, right_suit)  # type: ignore[arg-type]


def strength_for(suit: str, value: int, right_suit: str) -> tuple[int, int]:
    """FR-OPP-2..5 strength on validated data, unchecked (the fast path shared with the odds)."""
    if suit == right_suit:
        return (RIGHT_SUIT, value)
    if SUIT_COLOUR[suit] == SUIT_COLOUR[right_suit]:
        return (RIGHT_COLOUR, value)
    return NO_STRENGTH


def _strengths(plays: Mapping) -> dict:
    if not isinstance(plays, Mapping) or len(plays) < 2:
        raise RulesError(E_FEW_PARTICIPANTS)
    strengths = {}
    for who, play in plays.items():
        if not isinstance(play, (tuple, list)) or len(play) != 2:
            raise RulesError(E_BAD_PLAY, who=who)
        strengths[who] = opposed_strength(*play)
    return strengths


def opposed_outcome(plays: Mapping[object, tuple[str, Card | str | None]]) -> dict[object, str]:
    """Each participant's result from ``{key: (trait, card)}`` (FR-OPP-1..5).

    The strongest card wins (right suit beats right colour beats neither; then value); a shared
    best is a tie among those who share it and everyone else loses. When nobody has suit or colour
    all tie and another check is needed (:func:`opposed_needs_another_check`).

    >>> opposed_outcome({"a": ("manos", "5S"), "b": ("sentidos", "5C"), "c": ("cabeza", "AH")})
    {'a': 'tie', 'b': 'tie', 'c': 'loss'}
    """
    strengths = _strengths(plays)
    best = max(strengths.values())
    if best == NO_STRENGTH:
        return dict.fromkeys(strengths, TIE)
    leaders = [who for who, strength in strengths.items() if strength == best]
    top = WIN if len(leaders) == 1 else TIE
    return {who: top if strength == best else LOSS for who, strength in strengths.items()}


def opposed_needs_another_check(plays: Mapping[object, tuple[str, Card | str | None]]) -> bool:
    """FR-OPP-5: nobody played their suit or colour, so the tie is settled by another check."""
    return max(_strengths(plays).values()) == NO_STRENGTH


# --- FR-OPP-6: named opposed checks -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a named opposed check: its role, trait and skill."""

    role: str
    trait: str
    skill: str


@dataclass(frozen=True, slots=True)
class NamedCheck:
    """A named opposed check (FR-OPP-6): ``sides[0]`` acts, ``sides[1]`` resists."""

    name: str
    sides: tuple[Side, Side]

    @property
    def roles(self) -> tuple[str, str]:
        return (self.sides[0].role, self.sides[1].role)

    def side(self, role: str) -> Side:
        return next(side for side in self.sides if side.role == role)


CHASE, STEALTH, PICKPOCKET, CHALLENGE, PROVOKE = "chase", "stealth", "pickpocket", "challenge", "provoke"

NAMED_CHECKS: dict[str, NamedCheck] = {
    check.name: check
    for check in (
        NamedCheck(CHASE, (Side("pursuer", MUSCULO, "agilidad"), Side("fleeing", MUSCULO, "agilidad"))),
        NamedCheck(STEALTH, (Side("stalker", MUSCULO, "agilidad"), Side("watcher", SENTIDOS, "percepcion"))),
        NamedCheck(PICKPOCKET, (Side("thief", MANOS, "mana"), Side("victim", SENTIDOS, "percepcion"))),
        NamedCheck(CHALLENGE, (Side("challenger", CABEZA, "labia"), Side("challenged", CABEZA, "astucia"))),
        NamedCheck(PROVOKE, (Side("provoker", CABEZA, "labia"), Side("provoked", CABEZA, "astucia"))),
    )
}


def named_check(name: str) -> NamedCheck:
    """The named opposed check ``name`` (FR-OPP-6)."""
    if name not in NAMED_CHECKS:
        raise RulesError(E_UNKNOWN_NAMED_CHECK, name=name)
    return NAMED_CHECKS[name]


def chase_needs_check(means_a: str, means_b: str) -> bool:
    """FR-OPP-6: a chase is an opposed check only between similar means of travel (else the faster wins)."""
    return means_a == means_b


def chase_caught(pursuer_wins: int, wins_required: int = 1) -> bool:
    """FR-OPP-6: the pursuer catches up after the number of wins the Mayor requires (default 1)."""
    wins = check_whole_number(pursuer_wins)
    return wins >= check_whole_number(wins_required)


def morale_consequences(
    name: str, results: Mapping[str, str], *, challenged_accepts: bool = False
) -> dict[str, int]:
    """Morale change per role after a named opposed check (FR-OPP-6).

    Challenge: a losing challenger loses 1 morale; a losing challenged party must face the
    challenge or lose 1 morale (``challenged_accepts``). Provoke: the loser loses 1 morale. Ties
    and the other named checks change nothing.

    >>> morale_consequences("provoke", {"provoker": "win", "provoked": "loss"})
    {'provoker': 0, 'provoked': -1}
    """
    check = named_check(name)
    if set(results) != set(check.roles) or any(r not in (WIN, LOSS, TIE) for r in results.values()):
        raise RulesError(E_BAD_RESULTS, name=name, roles=", ".join(check.roles))
    _check_flag(challenged_accepts)
    changes = dict.fromkeys(check.roles, 0)
    if name == PROVOKE:
        changes.update({role: -1 for role, result in results.items() if result == LOSS})
    elif name == CHALLENGE:
        if results["challenger"] == LOSS:
            changes["challenger"] = -1
        if results["challenged"] == LOSS and not challenged_accepts:
            changes["challenged"] = -1
    return changes
