"""Trait and opposed checks: the Mayor calls one, each participant draws, chooses, and it resolves.

Rules: FR-CHK-1..4 (how many cards, difficulty, outcomes), FR-OPP-1..5 (the secret choice, the one
reveal, winners, Tablas, another check), FR-CARD-2 (a joker's declared suit), FR-SOB-1 (Achispado
draws from the dead man's hand), FR-CHAR-5 (equipment from the campaign's catalogue), FR-MODE-4,
FR-MODE-7 and FR-MODE-8 (where played cards go).

A check started by another table action settles it through the follow-ups registered in
:mod:`frontera.play.services.follow_ups`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera import glossary
from frontera.campaigns.permissions import can_act_for, can_run_session, is_mayor_of, is_member_of
from frontera.characters.models import Character
from frontera.characters.selectors import campaign_catalogue
from frontera.messages import names as listed  # a list of names, joined the reader's way
from frontera.play.models import MAYOR_SEAT, Check, GameSession, Participant, seat_key
from frontera.play.services.core import (
    BOARD,
    CHECKS,
    E_NO_CHARACTERS,
    E_NOT_IN_CAMPAIGN,
    E_NOT_YOUR_HAND,
    FEED,
    N_CARDS,
    OUTCOME_LABELS,
    EventLog,
    NotAllowed,
    SessionError,
    explain_moves,
    load_state,
    lock_session,
    made_by_request,
    msg,
    new_rng,
    one_check,
    plays_own_seat,
    read_state,
    rules_message,
    save_state,
    seat_for,
    state_kept,
)
from frontera.play.services.follow_ups import AFTER_OPPOSED_REVEAL, AFTER_TRAIT_CHECK, TRAIT_WAITS
from frontera.rules import characters as rules_characters
from frontera.rules import checks as rules_checks
from frontera.rules import session as rules_session
from frontera.rules.cards import TRAIT_SUIT, TRAITS, Card, check_trait
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker
from frontera.rules.tracks import draw_penalty
from frontera.sql import column, rows, table, update

E_FEW_PARTICIPANTS = _("An opposed check needs at least two participants.")
E_SAME_CHARACTER_TWICE = _("%(name)s can take part only once in a check.")
E_WHO = _("%(name)s: %(reason)s")  # a refusal that names whom it is about
E_DRAW_FIRST = _("Draw the cards before choosing one.")
E_ALREADY_CHOSEN = _("A card was already chosen for %(name)s in this check.")
E_CHECK_RESOLVED = _("This check is already resolved.")
E_UNKNOWN_CARD = _("That card was not drawn in this check.")
STATUS_ORDER = [Check.Status.REQUESTED, Check.Status.DRAWN, Check.Status.CHOSEN, Check.Status.RESOLVED]
STATUS_ORDER_KEYS = tuple(str(status) for status in STATUS_ORDER)

# feed lines with plural forms: marked where the module loads, so that a process knows their forms
# before it logs one (a server just started read "2 carta")
N_CHECK_DRAW = ngettext("%(who)s draws %(count)s card %(source)s.", "%(who)s draws %(count)s cards %(source)s.")
# each loser by name (a walk read "Gana Sheriff Brannigan; el otro pierde" and had to work out who)
N_REVEAL_WIN = ngettext("Reveal: %(plays)s. %(winner)s wins; %(lost)s loses.",
                        "Reveal: %(plays)s. %(winner)s wins; %(lost)s lose.", "losers")
N_REVEAL_TIE = ngettext("Reveal: %(plays)s. Tablas between %(tied)s; %(lost)s loses.",
                        "Reveal: %(plays)s. Tablas between %(tied)s; %(lost)s lose.", "losers")
# the same before the losers were named, still in older sessions' logs: kept translated
LEGACY_REVEALS = (
    ngettext("Reveal: %(plays)s. %(winner)s wins; the other loses.",
             "Reveal: %(plays)s. %(winner)s wins; the others lose.", "losers"),
    ngettext("Reveal: %(plays)s. Tablas between %(tied)s; the other loses.",
             "Reveal: %(plays)s. Tablas between %(tied)s; the others lose.", "losers"),
)
REVEAL_TIE_ALL = gettext_noop("Reveal: %(plays)s. Tablas between %(tied)s.")


@dataclass(frozen=True)
class Entry:
    """One character called to a check, with what it draws for. ``character`` may be given by its
    id: :func:`create_check` reads every sheet again under the session's lock either way."""

    character: Character | int
    trait: str
    skill: str = ""
    modifier: int = 0
    equipment: int = 0  # equipment the skill's own bonus does not count (a healer's kit: FR-CHK-5)


# a called check's line: what its cards add up from, the parts that count (it read "0 del equipo, −0
# de los estados, modificador 0" on every line)
CALLED = gettext_noop("%(who)s is called to a %(what)s check: %(parts)s = %(cards)s.")


def called_parts(breakdown: dict) -> list[dict]:
    """The parts of FR-CHK-1's sum that are not 0 (the sheet's always), each a message."""
    parts = [msg(gettext_noop("%(n)s from the sheet"), n=breakdown["base"])]
    if breakdown["equipment"]:
        parts.append(msg(gettext_noop("+%(n)s from equipment"), n=breakdown["equipment"]))
    if breakdown["penalty"]:
        parts.append(msg(gettext_noop("−%(n)s from the tracks"), n=breakdown["penalty"]))
    if breakdown["modifier"]:
        parts.append(msg(gettext_noop("%(n)s modifier"), n=f"{breakdown['modifier']:+d}".replace("-", "−")))
    return parts


def count_cards(sheet: rules_characters.Character, trait: str, skill: str, modifier: int,
                achispado_card: str | None, *, catalogue: dict | None = None, equipment: int = 0) -> tuple[int, dict]:
    """FR-CHK-1: the cards a check draws, and the breakdown shown in the feed. Equipment bonuses
    come from the campaign's catalogue (FR-CHAR-5: the Mayor may have edited it); ``equipment``
    adds what the skill's own bonus does not count (a healer's kit)."""
    base = rules_characters.trait_cards(sheet, trait, skill or None)
    bonus = (rules_characters.equipment_bonus(sheet, skill, catalogue=catalogue) if skill else 0) + equipment
    penalty = draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    total = rules_checks.cards_for_check(
        trait_score=base, equipment_bonus=bonus, health=sheet.health, morale=sheet.morale,
        sobriety=sheet.sobriety, range_modifier=modifier, achispado_card=achispado_card,
    )
    return total, {"base": base, "equipment": bonus, "penalty": penalty, "modifier": modifier,
                   "achispado": total - (base + bonus - penalty + modifier)}


def create_check(
    *, session: GameSession, by, kind: str, entries: Sequence[Entry], difficulty: int | None, label: str | dict,
    request_key: str, regions: set[str] | None = None, mayor_only: bool = False,
) -> Check:
    """``label``: the Mayor's words, or a message (:func:`core.msg`) each reader reads in their own
    language. ``regions``: what the caller knows its whole action changes (a plain call: the checks and the
    feed); ``None`` (a banca, a duel, medical attention...) refreshes every region. ``mayor_only``:
    anybody but the session's Mayor is refused under the lock (:class:`core.NotAllowed`). The check
    made (or found) holds the locked session as its ``session``, read with ``by``'s role."""
    session = lock_session(session, by=by, may=can_run_session if mayor_only else None)
    state = read_state(session)  # a call moves no card: an Achispado's look at the dead man's hand puts it back
    rng, seed = new_rng()
    try:
        difficulty, called = _called(session, kind, entries, difficulty, state, rng)
    except SessionError:
        # a double submit whose table changed since the first (a character gone...) is still the first
        if (first := _first_call(session, request_key)) is None:
            raise
        return first
    prueba = Check(
        session=session, kind=kind, difficulty=difficulty, label="" if isinstance(label, dict) else label[:120],
        label_msg=label if isinstance(label, dict) else {}, request_key=request_key, created_by=by,
    )
    participants = [Participant(
        prueba=prueba, character=entry.character, seat=seat, trait=entry.trait, skill=entry.skill,
        modifier=entry.modifier, cards=count, achispado_card=achispado or "",
    ) for entry, seat, count, breakdown, achispado in called]
    log = EventLog(session, by, [])
    for participant, (entry, _seat, count, breakdown, achispado) in zip(participants, called, strict=True):
        what = check_what(entry.trait, entry.skill)
        if achispado:
            log.decide(
                gettext_noop("%(who)s is Achispado: %(card)s from the dead man's hand, %(effect)s."),
                rules=["FR-SOB-1"], prueba=prueba, who=entry.character.name, card=Card.parse(achispado).label,
                effect=msg(gettext_noop("one card more") if achispado.startswith("A") else gettext_noop("one card less")),
                seed=seed,
            )
        log.decide(
            CALLED, rules=["FR-CHK-1"] + (["FR-OPP-1"] if kind == Check.Kind.OPPOSED else []), prueba=prueba,
            who=entry.character.name, what=what, cards=msg(N_CARDS, n=count), parts=called_parts(breakdown),
        )
        if count <= 0:
            participant.status = Check.Status.RESOLVED if kind == Check.Kind.TRAIT else Check.Status.CHOSEN
            participant.outcome = "failure" if kind == Check.Kind.TRAIT else ""
            log.decide(gettext_noop("%(who)s would draw no card: automatic failure."), rules=["FR-CHK-1"],
                       prueba=prueba, who=entry.character.name)
    if regions is not None and not any(achispado for *_, achispado in called):
        log.regions = set(regions)  # not when an Achispado's card left the dead man's hand (zones)
        if CHECKS in log.regions:  # the new check shows in its participants' checks, at everyone else's table
            log.regions = (log.regions - {CHECKS}) | one_check(seat for _entry, seat, *_ in called)
    # the check, its participants and the log lines in one statement; a double submit of the same
    # form writes nothing: the key's unique constraint keeps the first check, instead of a read of
    # the key before (issue #11: each statement was a round trip before the push)
    if not log.flush(with_rows=participants, first=(prueba, "one_check_per_request")):
        return _first_call(session, request_key)
    statuses = [participant.status for participant in participants]
    _refresh_check(prueba, session, by, statuses)
    return prueba


def _first_call(session: GameSession, request_key: str) -> Check | None:
    """What a repeat of a call's form answers with: the check its first submit made, holding the
    locked session (read with the caller's role); ``None`` if the key made nothing yet."""
    first = made_by_request(session, Check, request_key)
    if first is not None:
        first.session = session
    return first


def _called(session: GameSession, kind: str, entries: Sequence[Entry], difficulty: int | None, state, rng):
    """The difficulty, and each entry as (entry, seat, cards, breakdown, Achispado's card) with its
    sheet read afresh; refused (:class:`SessionError`) unless every entry may be called."""
    if not entries:
        raise SessionError(E_NO_CHARACTERS)
    if kind == Check.Kind.OPPOSED and len(entries) < 2:
        raise SessionError(E_FEW_PARTICIPANTS)
    seats = set(state.players)
    ids = [getattr(e.character, "pk", e.character) for e in entries]
    fresh = Character.objects.by_id(ids)  # the sheets as they are now
    # one answer, before any other, for an id that names nothing and one of another campaign: the
    # answers must not tell whether a character exists elsewhere
    if len(fresh) < len(set(ids)) or any(c.campaign_id != session.campaign_id for c in fresh.values()):
        raise SessionError(E_NOT_IN_CAMPAIGN)
    entries = [Entry(fresh[pk], e.trait, e.skill, e.modifier, e.equipment) for pk, e in zip(ids, entries, strict=True)]
    # equipment counts only toward a skill (FR-CHAR-5): no catalogue to read for a bare trait
    catalogue = campaign_catalogue(session.campaign) if any(e.skill for e in entries) else None
    try:
        difficulty = rules_checks.check_difficulty(difficulty)
        called = []
        seen = set()
        for entry in entries:
            character = entry.character
            if character.pk in seen:
                raise SessionError(E_SAME_CHARACTER_TWICE % {"name": character.name})
            seen.add(character.pk)
            check_trait(entry.trait)
            seat = seat_for(session, character, seats)
            sheet = rules_characters.Character.from_json(character.sheet)
            achispado = None
            if sheet.sobriety == -1:  # FR-SOB-1: Achispado draws from the dead man's hand first
                achispado = Card.from_uid(rules_session.draw_dead_mans_hand(state, rng, 1)[0]).code
            try:
                count, breakdown = count_cards(sheet, entry.trait, entry.skill, entry.modifier, achispado,
                                               catalogue=catalogue, equipment=entry.equipment)
            except RulesError as err:  # which of the characters called (it said "This character…")
                raise SessionError(E_WHO % {"name": character.name, "reason": rules_message(err)}) from err
            called.append((entry, seat, count, breakdown, achispado))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    return difficulty, called


# The draw's wording before issue #12, still in the logs of older sessions: kept translated.
LEGACY_MESSAGES = (
    ngettext("%(who)s draws %(count)s card from %(source)s.", "%(who)s draws %(count)s cards from %(source)s."),
    gettext_noop("the pile"), gettext_noop("their own deck"), gettext_noop("the Mayor's deck"),
)


def check_what(trait: str, skill: str) -> dict:
    """What a check draws for, as a message: the trait, and the skill if any (frontera.glossary
    names them in the reader's language)."""
    if skill:
        return msg(gettext_noop("%(trait)s (%(skill)s)"), trait=trait, skill=skill)
    return msg(gettext_noop("%(trait)s"), trait=trait)


@transaction.atomic
def check_request(
    *, session: GameSession, by, characters: Sequence[Character | int], trait: str, skill: str = "",
    difficulty: int | None = None, modifier: int = 0, label: str = "", request_key: str = "",
) -> Check:
    """The Mayor calls a trait check on one or several characters, each drawing on their own
    (FR-CHK-1..4): cards = trait + 2 with the skill + equipment − track penalties ± modifier; an
    Achispado character draws from the dead man's hand first (FR-SOB-1); 0 or fewer cards is an
    automatic failure. A repeated ``request_key`` returns the check already made. ``characters``
    may be given by their ids (the sheets are read under the lock: one not of the campaign, or a
    protagonist not at the session, is refused). Only the session's Mayor may call
    (:class:`core.NotAllowed`); ``session`` may be a bare ``GameSession(pk=...)``."""
    entries = [Entry(c, trait, skill, modifier) for c in characters]
    return create_check(session=session, by=by, kind=Check.Kind.TRAIT, entries=entries, difficulty=difficulty,
                         label=label, request_key=request_key, regions={CHECKS, FEED}, mayor_only=True)


@transaction.atomic
def opposed_request(*, session: GameSession, by, entries: Sequence[Entry], label: str = "",
                    request_key: str = "") -> Check:
    """The Mayor calls an opposed check: every participant with their own trait and skill
    (FR-OPP-1); they draw, choose in secret and reveal together (:func:`check_choose`). As
    :func:`check_request`: only the Mayor, and the participants checked under the lock."""
    return create_check(session=session, by=by, kind=Check.Kind.OPPOSED, entries=entries, difficulty=None,
                         label=label, request_key=request_key, regions={CHECKS, FEED}, mayor_only=True)


def _lock_participant(participant: Participant, *, by=None, in_session: int | None = None, waits: tuple = (),
                      ) -> tuple[GameSession, Participant]:
    """Lock the session row first (every table action on a session is serialised), then reload.

    With ``in_session`` (a session's id; the participant may then be given by its id alone, as a
    request names it): ``by`` must be of the session's campaign and may act for the participant's
    character (``can_act_for``: its player, or the Mayor), and the participant must be of that
    session; :class:`NotAllowed` otherwise. The view then reads nothing first (issue #11). The
    locked participant's check holds the locked session; the participant holds what
    :meth:`~frontera.play.models.ParticipantManager.with_check` reads of the check's other
    participants (``others_rank``, ``seats``) and, with ``waits``, ``waited_on``."""
    if in_session is not None:
        session = lock_session(GameSession(pk=in_session), by=by, may=is_member_of)
        locked = Participant.objects.with_check(participant.pk, session_id=session.pk, statuses=STATUS_ORDER_KEYS,
                                                waits=waits)
        if locked is None:
            raise NotAllowed
        locked.character.campaign = session.campaign  # a participant's character is of the session's campaign
        if not can_act_for(by, locked.character):
            raise NotAllowed
    else:
        if Participant.prueba.is_cached(participant):  # the caller read it: its session is known
            session_id = participant.prueba.session_id
        else:
            session_id = Check.objects.filter(pk=participant.prueba_id).values_list("session_id", flat=True).get()
        session = lock_session(GameSession(pk=session_id))
        locked = Participant.objects.with_check(participant.pk, statuses=STATUS_ORDER_KEYS, waits=waits)
        if locked is None:
            raise Participant.DoesNotExist
    locked.prueba.session = session
    return session, locked


@transaction.atomic
def check_draw(*, participant: Participant, by, in_session: int | None = None) -> Participant:
    """Draw a participant's cards (FR-MODE-4, 5, 7, 8, 10, 11): from the pile in phase 1, from the
    own deck in phase 2; a short pile takes the discard or starts phase 2 first. Drawing again is a
    no-op (a double submit); a resolved check refuses. ``in_session``: who may draw is checked here
    (:func:`_lock_participant`)."""
    session, participant = _lock_participant(participant, by=by, in_session=in_session)
    if participant.status == Check.Status.DRAWN:
        return participant  # a double submit
    if participant.status == Check.Status.CHOSEN:
        raise SessionError(E_ALREADY_CHOSEN % {"name": participant.character.name})
    if participant.status == Check.Status.RESOLVED:
        raise SessionError(E_CHECK_RESOLVED)
    before = load_state(session)
    rng, seed = new_rng()
    try:
        state, events = rules_session.draw_for_check(
            before, participant.seat, participant.cards, participant.engine_check, rng
        )
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    participant.drawn = list(state.pending[participant.seat][participant.engine_check]["cards"])
    participant.drawn_by = by
    participant.status = Check.Status.DRAWN
    prueba = participant.prueba
    log = EventLog(session, by, [])
    explain_moves(log, events, prueba)
    # Whole phrases ("from the pile": "del montón"), so no language glues "de" + "el" (issue #12).
    from_pile = before.phase == 1 and state.phase == 1 or session.mode == "sin_gestion"
    source = msg(gettext_noop("from the pile")) if from_pile else msg(gettext_noop("from their own deck"))
    if participant.seat == MAYOR_SEAT and not from_pile:
        source = msg(gettext_noop("from the Mayor's deck"))
    log.decide(N_CHECK_DRAW,
               rules=["FR-MODE-4" if from_pile else "FR-MODE-7"], prueba=prueba,
               who=participant.character.name, count=len(participant.drawn), source=source, seed=seed)
    if not participant.drawn:
        state, more = rules_session.settle_check(state, participant.seat, participant.engine_check)
        events += more
        _close_without_card(participant, log)
    log.cards(events, before, state, prueba=prueba)
    # a draw moves cards and changes no track; the Mayor's table even when no card was left to draw
    # (his last table action can no longer be undone: frontera/play/selectors/pages.py, undo)
    log.regions = {*one_check(participant.seats), FEED, BOARD, *log.moved_regions()}
    _write_with_check(log, prueba, session, by, participant, [
        state_kept(session, state), (participant, ("drawn", "drawn_by", "status", "outcome"))])
    return participant


def _close_without_card(participant: Participant, log: EventLog) -> None:
    if participant.prueba.kind == Check.Kind.TRAIT:
        participant.status, participant.outcome = Check.Status.RESOLVED, "failure"
    else:
        participant.status = Check.Status.CHOSEN
    log.decide(gettext_noop("%(who)s has no card to draw: automatic failure."), rules=["FR-CHK-1", "FR-MODE-8"],
               prueba=participant.prueba, who=participant.character.name)


def why(card: Card, trait: str, difficulty: int | None, outcome: str) -> dict:
    """Why a played card gives its outcome (FR-CHK-3, FR-CHK-4), as a message."""
    suit = TRAIT_SUIT[trait]
    name = trait  # a key: frontera.glossary names it when the message is shown
    if card.suit == suit:
        if difficulty is not None and outcome == "partial":
            return msg(gettext_noop("the suit of %(trait)s, but below difficulty %(difficulty)s"),
                       trait=name, difficulty=difficulty)
        return msg(gettext_noop("the suit of %(trait)s"), trait=name)
    if outcome == "partial":
        return msg(gettext_noop("the colour of %(trait)s, not its suit"), trait=name)
    if difficulty is not None:
        return msg(gettext_noop("with a difficulty only the suit of %(trait)s counts"), trait=name)
    return msg(gettext_noop("not the colour of %(trait)s"), trait=name)


def _holds_drawn(session: GameSession, by, participant: Participant) -> bool:
    """Whether ``by`` may see a participant's drawn cards, and so choose among them — the rule of
    ``selectors._participant_row``: the character's player, or the Mayor for his own seat (NPCs,
    minions) and for a draw he made himself for a player without a phone. A player who drew on
    their own phone keeps their cards from the Mayor (docs/sessions.md, "Selectors and secrecy")."""

    if is_mayor_of(by, session.campaign):
        return participant.seat == MAYOR_SEAT or participant.drawn_by_id == by.pk
    if participant.seat == seat_key(participant.character_id) and hasattr(participant, "seated"):
        # what plays_own_seat asks, read with the participant under the lock (issue #11)
        return participant.seated and participant.character.owner_id == by.pk
    return plays_own_seat(session, by, participant.seat)


@transaction.atomic
def check_choose(*, participant: Participant, by, card: str, suit: str = "", in_session: int | None = None,
                 ) -> Participant:
    """Play one drawn card (FR-CHK-2); a joker takes the declared suit (FR-CARD-2).

    Trait check: resolved at once (FR-CHK-3, 4) and the cards move (FR-MODE-4, 7, 10, 11).
    Opposed check: the choice stays secret until every participant has chosen; then all reveal at
    once and the engine decides (FR-OPP-1..5). Choosing the same card again is a no-op; another
    card after a choice, or any card of a resolved check, is refused.

    Only whoever holds the drawn cards (:func:`_holds_drawn`) chooses; anybody else — the Mayor for
    a player who drew on their phone — gets one and the same refusal whatever the card, so the
    answers tell neither the hand nor the face-down choice of an opposed check. The double submit
    is a holder's too: every holder sees the card played already. ``in_session``: who may choose
    at all is checked first (:func:`_lock_participant`)."""
    session, participant = _lock_participant(participant, by=by, in_session=in_session, waits=tuple(TRAIT_WAITS))
    prueba = participant.prueba
    if participant.status != Check.Status.REQUESTED and not _holds_drawn(session, by, participant):
        raise SessionError(E_NOT_YOUR_HAND % {"name": participant.character.name})
    if suit and card in participant.drawn and not Card.from_uid(card).is_joker:
        suit = ""  # the suit picker only matters for a joker (FR-CARD-2)
    if participant.status in (Check.Status.CHOSEN, Check.Status.RESOLVED):
        if participant.played and participant.played == card and (participant.declared or "") == (suit or ""):
            return participant
        if prueba.status == Check.Status.RESOLVED or participant.status == Check.Status.RESOLVED:
            raise SessionError(E_CHECK_RESOLVED)
        raise SessionError(E_ALREADY_CHOSEN % {"name": participant.character.name})
    if participant.status == Check.Status.REQUESTED:
        raise SessionError(E_DRAW_FIRST)
    if card not in participant.drawn:
        raise SessionError(E_UNKNOWN_CARD)
    try:
        record = rules_checks.check_open(trait=participant.trait, drawn=participant.drawn, difficulty=prueba.difficulty)
        record, _events = rules_checks.check_choose(record, card, suit=suit or None)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    participant.played = record.played
    participant.declared = record.declared or ""
    log = EventLog(session, by, [])
    updates = [(participant, ("played", "declared", "status", "outcome"))]
    if prueba.kind == Check.Kind.TRAIT:
        before = load_state(session)
        state, events = _play(before, participant)
        participant.status, participant.outcome = Check.Status.RESOLVED, record.outcome
        played = Card.from_uid(record.played)
        played = played.declare(record.declared) if record.declared else played
        log.cards(events, before, state, prueba=prueba)
        rules = ["FR-CHK-2", "FR-CHK-4" if prueba.difficulty else "FR-CHK-3"] + (["FR-CARD-2"] if record.declared else [])
        log.decide(gettext_noop("%(who)s plays %(card)s for %(what)s: %(outcome)s (%(why)s)."), rules=rules,
                   prueba=prueba, who=participant.character.name, card=played.label,
                   what=check_what(participant.trait, participant.skill), outcome=msg(OUTCOME_LABELS[record.outcome]),
                   why=why(played, participant.trait, prueba.difficulty, record.outcome))
        if getattr(participant, "waited_on", True):  # a check another table action waits on (or not
            # known to wait on nothing: no follow-up registered its model): its follow-ups settle it
            save_state(session, state)
            written = len(log.rows)
            for follow_up in AFTER_TRAIT_CHECK:
                follow_up(session, prueba, participant, played, log)
            if len(log.rows) == written:  # no follow-up acted (a banca, medical attention: anything may change)
                log.regions = {CHECKS, FEED, *log.moved_regions()}  # the card played moved, no track changed
            update(*updates[0])
            log.flush()
            _refresh_check(prueba, session, by)  # as the follow-ups left the check's participants
            return participant
        updates.append(state_kept(session, state))
        log.regions = {CHECKS, FEED, *log.moved_regions()}  # the card played moved, no track changed
    else:
        log.regions = {CHECKS, FEED}
        participant.status = Check.Status.CHOSEN
        log.decide(gettext_noop("%(who)s has chosen a card, face down until everyone reveals."),
                   rules=["FR-OPP-1"], prueba=prueba, who=participant.character.name)
    _write_with_check(log, prueba, session, by, participant, updates)
    return participant


def _write_with_check(log: EventLog, prueba: Check, session: GameSession, by, participant: Participant,
                      updates: list) -> None:
    """The end of a draw or a choice: its log, its ``updates`` and the check's new status written
    together (one statement on PostgreSQL: :meth:`EventLog.flush`), the status worked out from
    ``participant``'s own and what its lock read of the others (``others_rank``); an opposed check
    that everyone has chosen for reveals after that (:func:`_refresh_check`)."""
    lowest = participant.status
    if participant.others_rank is not None and participant.others_rank < STATUS_ORDER.index(lowest):
        lowest = STATUS_ORDER[participant.others_rank]
    reveals = prueba.kind == Check.Kind.OPPOSED and lowest == Check.Status.CHOSEN
    if not reveals and prueba.status != lowest:
        prueba.status = lowest
        updates = [*updates, (prueba, ("status",))]
    log.flush(updates=updates)
    if reveals:
        _refresh_check(prueba, session, by, [lowest])


def _play(state, participant: Participant):
    try:
        return rules_session.play_cards(state, participant.seat, participant.engine_check, [participant.played])
    except RulesError as err:
        raise SessionError(rules_message(err)) from err


def _reveal(prueba: Check, session: GameSession, by) -> None:
    """FR-OPP-1..5: every chosen card is revealed at once and the engine names winner and losers."""
    participants = list(prueba.participants.select_related("character").select_for_update())
    before = load_state(session)
    state, events = before, []
    plays = {}
    for p in participants:
        if p.played:
            state, more = _play(state, p)
            events += more
            card = Card.from_uid(p.played)
            plays[p.pk] = (p.trait, card.declare(p.declared) if p.declared else card)
        else:
            plays[p.pk] = (p.trait, None)
    results = rules_checks.opposed_outcome(plays)
    again = rules_checks.opposed_needs_another_check(plays)
    log = EventLog(session, by, [])
    log.cards(events, before, state, prueba=prueba)
    shown = []
    for p in participants:
        p.outcome = results[p.pk]
        p.status = Check.Status.RESOLVED
        p.save(update_fields=["outcome", "status"])
        card = plays[p.pk][1]
        shown.append(msg(gettext_noop("%(who)s %(card)s (%(trait)s)"), who=p.character.name,
                         card=card.label if card else "—", trait=p.trait))
    winners = [p.character.name for p in participants if p.outcome == "win"]
    tied = [p.character.name for p in participants if p.outcome == "tie"]
    if again:  # a game's contest settles a Tablas as a tie: no other check is called for it
        said = (gettext_noop("Reveal: %(plays)s. Nobody played their suit or colour: Tablas.") if prueba.gambles.exists()
                else gettext_noop("Reveal: %(plays)s. Nobody played their suit or colour: Tablas, another opposed "
                                  "check is needed."))
        log.decide(said, rules=["FR-OPP-5"], prueba=prueba, plays=shown)
    elif winners:
        rule = "FR-OPP-2" if sum(1 for (t, c) in plays.values() if c and c.suit == TRAIT_SUIT[t]) == 1 else (
            "FR-OPP-3" if any(c and c.suit == TRAIT_SUIT[t] for (t, c) in plays.values()) else "FR-OPP-4")
        # "the others lose" with one other read wrong: the losers' number says which
        lost = [p.character.name for p in participants if p.outcome != "win"]
        log.decide(N_REVEAL_WIN, rules=["FR-OPP-1", rule], prueba=prueba, plays=shown, winner=winners[0],
                   losers=len(lost), lost=listed(lost))
    else:
        lost = [p.character.name for p in participants if p.outcome != "tie"]
        # a tie on the suit (FR-OPP-3) or, nobody on it, on the colour (FR-OPP-4): the "why" says which
        rule = "FR-OPP-3" if any(c and c.suit == TRAIT_SUIT[t] for (t, c) in plays.values()) else "FR-OPP-4"
        log.decide(N_REVEAL_TIE if lost else REVEAL_TIE_ALL, rules=["FR-OPP-1", rule], prueba=prueba,
                   plays=shown, tied=listed(tied), losers=len(lost), lost=listed(lost))
    save_state(session, state)
    log.flush()


@cache
def _statuses_sql() -> str:
    """A check's participants' statuses and seats (asked by a choice that a follow-up settles and by a
    withdrawal; a draw and any other choice have them from their lock's read; the queryset took
    ~0.2 ms to build; issue #11)."""
    return (f"SELECT {column(Participant, 'status')}, {column(Participant, 'seat')} FROM {table(Participant)} "
            f"WHERE {column(Participant, 'prueba')} = %s")


def _refresh_check(prueba: Check, session: GameSession, by, statuses: Sequence[str] | None = None) -> None:
    """The check's status is its least advanced participant's; an opposed check reveals when all chose.
    ``statuses``: the participants' statuses when the caller holds them all (a check just made)."""
    if statuses is None:
        statuses = [status for status, _seat in rows(_statuses_sql(), (prueba.pk,))]
    lowest = min(statuses, key=STATUS_ORDER.index)
    if prueba.kind == Check.Kind.OPPOSED and lowest == Check.Status.CHOSEN:
        _reveal(prueba, session, by)
        lowest = Check.Status.RESOLVED
        for follow_up in AFTER_OPPOSED_REVEAL:
            follow_up(session, prueba, by)
    if prueba.status != lowest:
        prueba.status = lowest
        update(prueba, ("status",))


TRAIT_CHOICES = glossary.choices("trait", TRAITS)
