"""Every write of a live session: one function per thing a person does at the table.

Each function is keyword-only and atomic; it locks the session row (``select_for_update``: on
PostgreSQL two phones drawing at once are serialised; SQLite's IMMEDIATE transactions do the same),
calls the rules engine (:mod:`frontera.rules`), stores the engine's new state, appends every card
movement and rule decision to :class:`~frontera.play.models.SessionEvent` and publishes the
``session:<id>`` topic after commit. Preconditions a person can get wrong raise :class:`SessionError`
with a message in the user's language; nothing has changed then.

Feed messages are stored as English msgids (marked with ``gettext_noop``) plus parameters and are
translated when shown (:func:`frontera.play.selectors.render_message`). A parameter may itself be a
message: ``{"_msg": msgid, **params}``.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace
from datetime import date as date_cls

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from frontera.campaigns.models import Campaign
from frontera.characters.models import Character
from frontera.characters.selectors import campaign_catalogue
from frontera.live.bus import publish_on_commit
from frontera.messages import engine_text
from frontera.play.models import (
    MAYOR_SEAT,
    ActionKey,
    Check,
    CombatRound,
    Exchange,
    Gamble,
    GameSession,
    Participant,
    PistolDuel,
    Seat,
    SessionEvent,
    Treatment,
    combat_key,
    seat_key,
)
from frontera.rules import characters as rules_characters
from frontera.rules import checks as rules_checks
from frontera.rules import combat as rules_combat
from frontera.rules import session as rules_session
from frontera.rules.cards import TRAIT_SUIT, TRAITS, Card, check_trait
from frontera.rules.dead_mans_hand import dead_mans_hand_result
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker
from frontera.rules.tracks import draw_penalty

E_SESSION_ENDED = _("This session has ended.")
E_NOT_PROTAGONIST = _("%(name)s is not a protagonist of this campaign.")
E_NOT_PRESENT = _("%(name)s is not at this session. Add them as a late joiner first.")
E_ALREADY_PRESENT = _("%(name)s is already at this session.")
E_NOT_IN_CAMPAIGN = _("Choose characters of this campaign.")
E_NO_CHARACTERS = _("Choose at least one character.")
E_FEW_PARTICIPANTS = _("An opposed check needs at least two participants.")
E_SAME_CHARACTER_TWICE = _("%(name)s can take part only once in a check.")
E_DRAW_FIRST = _("Draw the cards before choosing one.")
E_ALREADY_CHOSEN = _("A card was already chosen for %(name)s in this check.")
E_CHECK_RESOLVED = _("This check is already resolved.")
E_UNKNOWN_CARD = _("That card was not drawn in this check.")
E_BAD_JOIN = _("Choose how the late joiner gets cards: a new deck, or cards from the other players.")

# Seats of the dead man's hand are public, so the deal's log can show it.
OUTCOME_LABELS = {
    "success": gettext_noop("Éxito"),
    "partial": gettext_noop("Éxito parcial"),
    "failure": gettext_noop("Fracaso"),
    "win": gettext_noop("wins"),
    "loss": gettext_noop("loses"),
    "tie": gettext_noop("Tablas"),
}
MODE_LABELS = {
    "normal": gettext_noop("Normal"),
    "sin_gestion": gettext_noop("Sin gestión"),
    "con_desgaste": gettext_noop("Con desgaste"),
}
STATUS_ORDER = [Check.Status.REQUESTED, Check.Status.DRAWN, Check.Status.CHOSEN, Check.Status.RESOLVED]


class SessionError(ValueError):
    """A refused table action; ``str(err)`` is a message for the user, in their language."""

    def __init__(self, message) -> None:
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.message)


def rules_message(err: RulesError) -> str:
    """An engine error in the user's language (plural forms included: :mod:`frontera.messages`)."""
    return engine_text(err.template, err.params)


# Counted phrases for the feed, each with its plural forms (rendered by frontera.messages).
N_CARDS = ngettext("%(n)s card", "%(n)s cards", "n")
N_DECKS = ngettext("%(n)s deck", "%(n)s decks", "n")
N_JOKERS = ngettext("%(n)s joker", "%(n)s jokers", "n")
N_LEVELS = ngettext("%(n)s level", "%(n)s levels", "n")
N_DISCARDED = ngettext("%(n)s discarded card", "%(n)s discarded cards", "n")

# The decisions that delimit a fight and its turns (the history reads fights from them).
FIGHT_BEGINS = gettext_noop("A fight begins: %(sides)s. NPCs declare and draw first; everyone chooses in secret.")
FIGHT_TURN = gettext_noop("Turn %(turn)s of the fight.")
FIGHT_OVER = gettext_noop("The fight is over.")


def msg(msgid: str, **params) -> dict:
    """A translatable message to store in the log (translated when it is shown)."""
    return {"_msg": msgid, **params}


def session_topic(session_id: int) -> str:
    return f"session:{session_id}"


def _rng() -> tuple[random.Random, int]:
    """A fresh generator and its seed (logged, so an action can be replayed from the log)."""
    seed = secrets.randbits(63)
    return random.Random(seed), seed


def card_label(uid: str, declared: str | None = None) -> str:
    card = Card.from_uid(uid)
    if declared:
        card = card.declare(declared)
    return card.label


# --- the log -----------------------------------------------------------------------------------


@dataclass
class _Log:
    """Events of one action, written together; the topic is published once after commit."""

    session: GameSession
    actor: object
    rows: list

    def decide(self, message: str, *, rules: Sequence[str] = (), prueba: Check | None = None, **params) -> None:
        self.rows.append(
            SessionEvent(
                session=self.session, actor=self.actor, kind=SessionEvent.Kind.DECISION, prueba=prueba,
                message=message, params=params, rules=list(rules),
            )
        )

    def cards(self, events: Iterable[dict], before, after, *, prueba: Check | None = None) -> None:
        """Card movements from the engine, each with who may see that card (before or after)."""
        seats: list[str | None] = [None, *after.players]
        visible = {}
        for seat in seats:
            shown = set(_visible(after, seat))
            if before is not None:
                shown |= _visible(before, seat)
            visible[seat] = shown
        for event in events:
            uid = event["card"]
            seen_by = ["*"] if uid in visible[None] else [s for s in after.players if uid in visible[s]]
            self.rows.append(
                SessionEvent(
                    session=self.session, actor=self.actor, kind=SessionEvent.Kind.CARD, prueba=prueba,
                    card=uid, from_zone=event["from"], to_zone=event["to"], reason=event["reason"],
                    seen_by=seen_by,
                )
            )

    def flush(self) -> None:
        created = SessionEvent.objects.bulk_create(self.rows)
        last = max((e.pk for e in created if e.pk), default=None)
        if last is None:  # backends without RETURNING ids
            last = SessionEvent.objects.filter(session=self.session).aggregate(m=Max("pk"))["m"]
        if last:
            publish_on_commit(session_topic(self.session.pk), last)
        self.rows = []


def _visible(state, seat) -> frozenset[str]:
    if seat is not None and seat not in state.players:
        return frozenset()
    return rules_session.visible_cards(state, seat)


def _lock(session: GameSession) -> GameSession:
    locked = GameSession.objects.select_for_update().select_related("campaign").get(pk=session.pk)
    if locked.status != GameSession.Status.ACTIVE:
        raise SessionError(E_SESSION_ENDED)
    return locked


def _engine(session: GameSession) -> rules_session.Session:
    return rules_session.Session.from_json(session.state)


def _save_state(session: GameSession, state: rules_session.Session) -> None:
    session.state = state.to_json()
    session.phase = state.phase
    session.decks = state.decks
    session.save(update_fields=["state", "phase", "decks"])


def _explain_moves(log: _Log, events: list[dict], prueba: Check | None) -> None:
    """Decisions the engine took on its own while moving cards (FR-MODE-5, FR-MODE-8)."""
    reasons = {e["reason"] for e in events}
    if "reshuffle" in reasons:
        log.decide(
            gettext_noop("The pile ran short: the shared discard was shuffled into it."),
            rules=["FR-MODE-5"], prueba=prueba,
        )
    if "phase_2" in reasons:
        log.decide(
            gettext_noop("Pile and discard ran out: what was left went to the Tesoro and phase 2 begins."),
            rules=["FR-MODE-5"], prueba=prueba,
        )
    if "recycle" in reasons:
        log.decide(
            gettext_noop("An empty deck: its owner's discards were shuffled back into it."),
            rules=["FR-MODE-8"], prueba=prueba,
        )


# --- starting a session and joining late --------------------------------------------------------


@transaction.atomic
def session_start(
    *,
    campaign: Campaign,
    by,
    mode: str = GameSession.Mode.NORMAL,
    characters: Iterable[Character],
    decks: int | None = None,
    jokers: int = 2,
    skip_phase_1: bool = False,
    date: date_cls | None = None,
) -> GameSession:
    """Start session N+1 of ``campaign`` with the protagonists present (FR-MODE-1, 2, 3, 6, 10, 11,
    FR-CARD-4, 5): the engine deals 8 face-down cards to every player, the Mayor included, and sets
    the dead man's hand aside; ``skip_phase_1`` deals every card and starts phase 2."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)  # numbers are per campaign
    present = list(characters)
    for character in present:
        if character.campaign_id != campaign.pk or character.kind != Character.Kind.PROTAGONIST:
            raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    rng, seed = _rng()
    try:
        state = rules_session.new_session(
            mode, [seat_key(c.pk) for c in present], MAYOR_SEAT,
            decks=decks, jokers=jokers, skip_phase_1=skip_phase_1, rng=rng,
        )
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    number = (GameSession.objects.filter(campaign=campaign).aggregate(m=Max("number"))["m"] or 0) + 1
    session = GameSession.objects.create(
        campaign=campaign, number=number, date=date or timezone.localdate(), mode=mode, phase=state.phase,
        decks=state.decks, jokers=jokers, state=state.to_json(), created_by=by,
    )
    Seat.objects.bulk_create([Seat(session=session, character=c) for c in present])
    log = _Log(session, by, [])
    dealt = [
        {"card": uid, "from": "box", "to": rules_session.deck_zone(p), "reason": "deal"}
        for p in state.players
        for uid in state.player_decks[p]
    ]
    dealt += [{"card": uid, "from": "box", "to": "dead_mans_hand", "reason": "deal"} for uid in state.dead_mans_hand]
    dealt += [{"card": uid, "from": "box", "to": "treasure", "reason": "deal"} for uid in state.treasure]
    log.cards(dealt, None, state)
    rules = ["FR-MODE-1", "FR-CARD-4", "FR-CARD-5"]
    if mode == GameSession.Mode.NORMAL:
        rules += ["FR-MODE-6"] if skip_phase_1 else ["FR-MODE-2", "FR-MODE-3"]
    else:
        rules += ["FR-MODE-10"] if mode == GameSession.Mode.SIN_GESTION else ["FR-MODE-11"]
    log.decide(
        gettext_noop("Session %(number)s starts in %(mode)s mode with %(decks)s and %(jokers)s "
                     "per deck; the dead man's hand (A♠ A♥ 8♣ 8♦) is set aside."),
        rules=rules, number=number, mode=msg(MODE_LABELS[mode]), decks=msg(N_DECKS, n=state.decks),
        jokers=msg(N_JOKERS, n=jokers), seed=seed,
    )
    if mode == GameSession.Mode.NORMAL and skip_phase_1:
        log.decide(gettext_noop("Phase 1 is skipped: every card is dealt among the players; phase 2 starts."),
                   rules=["FR-MODE-6"])
    elif mode == GameSession.Mode.NORMAL:
        log.decide(gettext_noop("Everyone, the Mayor included, gets 8 cards face down. Nobody may look at them "
                                "until phase 2."), rules=["FR-MODE-2"])
    log.flush()
    return session


@transaction.atomic
def session_join(
    *, session: GameSession, by, character: Character, method: str, per_player: int = 1,
    return_to_phase_1: bool = False,
) -> Seat:
    """A late joiner (FR-MODE-9): ``method`` ``"new_deck"`` (8 random cards of a new deck; the
    session may return to phase 1) or ``"from_players"`` (1-3 random cards from every other deck)."""
    session = _lock(session)
    if character.campaign_id != session.campaign_id or character.kind != Character.Kind.PROTAGONIST:
        raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    if Seat.objects.filter(session=session, character=character).exists():
        raise SessionError(E_ALREADY_PRESENT % {"name": character.name})
    before = _engine(session)
    rng, seed = _rng()
    key = seat_key(character.pk)
    try:
        if method == "new_deck":
            state, events = rules_session.join_with_new_deck(before, key, rng, return_to_phase_1=return_to_phase_1)
        elif method == "from_players":
            state, events = rules_session.join_from_players(before, key, per_player, rng)
        else:
            raise SessionError(E_BAD_JOIN)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    _save_state(session, state)
    seat = Seat.objects.create(session=session, character=character, joined_late=True)
    log = _Log(session, by, [])
    log.cards(events, before, state)
    if method == "new_deck":
        log.decide(gettext_noop("%(who)s joins late with a new deck: 8 random cards of it go to their deck."),
                   rules=["FR-MODE-9"], who=character.name, seed=seed)
        if before.phase == 2 and state.phase == 1:
            log.decide(gettext_noop("The rest of the new deck is the pile: the session returns to phase 1."),
                       rules=["FR-MODE-9"])
    else:
        log.decide(ngettext("%(who)s joins late and takes %(count)s random card from every other deck.",
                            "%(who)s joins late and takes %(count)s random cards from every other deck."),
                   rules=["FR-MODE-9"], who=character.name, count=per_player, seed=seed)
    log.flush()
    return seat


@transaction.atomic
def phase_switch(*, session: GameSession, by) -> GameSession:
    """The Mayor ends phase 1 (FR-MODE-5): the pile and the shared discard go to the Tesoro."""
    session = _lock(session)
    before = _engine(session)
    try:
        state, events = rules_session.switch_to_phase_2(before)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    _save_state(session, state)
    log = _Log(session, by, [])
    log.cards(events, before, state)
    log.decide(gettext_noop("The Mayor ends phase 1: the pile and the shared discard go to the Tesoro. "
                            "From now on everyone draws from their own deck."), rules=["FR-MODE-5", "FR-MODE-7"])
    log.flush()
    return session


E_SESSION_BUSY = _("Finish or cancel what is still open before ending the session: %(what)s.")


@transaction.atomic
def session_end(*, session: GameSession, by) -> GameSession:
    """The Mayor ends the session. Refused while a check, a fight, an exchange or a gambling game is
    still open; the cards stay where they are, so the session's history stays readable. Ending an
    ended session again changes nothing (a double submit)."""
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    if locked.status == GameSession.Status.ENDED:
        return locked
    open_things = [
        label
        for label, still_open in (
            (gettext("a check"), locked.checks.exclude(status=Check.Status.RESOLVED).exists()),
            (gettext("a fight"), locked.combats.filter(status=CombatRound.Status.OPEN).exists()),
            (gettext("an exchange"), locked.exchanges.filter(status=Exchange.Status.PENDING).exists()),
            (gettext("a gambling game"), locked.gambles.filter(status=Gamble.Status.OPEN).exists()),
        )
        if still_open
    ]
    if open_things:
        raise SessionError(E_SESSION_BUSY % {"what": ", ".join(open_things)})
    locked.status = GameSession.Status.ENDED
    locked.save(update_fields=["status"])
    log = _Log(locked, by, [])
    log.decide(gettext_noop("The Mayor ends session %(number)s."), number=locked.number)
    log.flush()
    return locked


# --- checks ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One character called to a check, with what it draws for."""

    character: Character
    trait: str
    skill: str = ""
    modifier: int = 0


def _seat_for(session: GameSession, character: Character, seats: set[str]) -> str:
    if character.campaign_id != session.campaign_id:
        raise SessionError(E_NOT_IN_CAMPAIGN)
    if character.kind == Character.Kind.PROTAGONIST:
        key = seat_key(character.pk)
        if key not in seats:
            raise SessionError(E_NOT_PRESENT % {"name": character.name})
        return key
    return MAYOR_SEAT  # NPCs and minions draw from the Mayor's cards


def count_cards(sheet: rules_characters.Character, trait: str, skill: str, modifier: int,
                achispado_card: str | None, *, catalogue: dict | None = None) -> tuple[int, dict]:
    """FR-CHK-1: the cards a check draws, and the breakdown shown in the feed. Equipment bonuses
    come from the campaign's catalogue (FR-CHAR-5: the Mayor may have edited it)."""
    base = rules_characters.trait_cards(sheet, trait, skill or None)
    bonus = rules_characters.equipment_bonus(sheet, skill, catalogue=catalogue) if skill else 0
    penalty = draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    total = rules_checks.cards_for_check(
        trait_score=base, equipment_bonus=bonus, health=sheet.health, morale=sheet.morale,
        sobriety=sheet.sobriety, range_modifier=modifier, achispado_card=achispado_card,
    )
    return total, {"base": base, "equipment": bonus, "penalty": penalty, "modifier": modifier,
                   "achispado": total - (base + bonus - penalty + modifier)}


def _create_check(
    *, session: GameSession, by, kind: str, entries: Sequence[Entry], difficulty: int | None, label: str,
    request_key: str,
) -> Check:
    session = _lock(session)
    if request_key:
        existing = Check.objects.filter(session=session, request_key=request_key).first()
        if existing is not None:
            return existing  # a double submit of the same form
    if not entries:
        raise SessionError(E_NO_CHARACTERS)
    if kind == Check.Kind.OPPOSED and len(entries) < 2:
        raise SessionError(E_FEW_PARTICIPANTS)
    state = _engine(session)
    seats = set(state.players)
    fresh = Character.objects.in_bulk([e.character.pk for e in entries])  # the sheets as they are now
    entries = [Entry(fresh[e.character.pk], e.trait, e.skill, e.modifier) for e in entries]
    rng, seed = _rng()
    catalogue = campaign_catalogue(session.campaign)
    try:
        difficulty = rules_checks.check_difficulty(difficulty)
        rows = []
        seen = set()
        for entry in entries:
            character = entry.character
            if character.pk in seen:
                raise SessionError(E_SAME_CHARACTER_TWICE % {"name": character.name})
            seen.add(character.pk)
            check_trait(entry.trait)
            seat = _seat_for(session, character, seats)
            sheet = rules_characters.Character.from_json(character.sheet)
            achispado = None
            if sheet.sobriety == -1:  # FR-SOB-1: Achispado draws from the dead man's hand first
                achispado = Card.from_uid(rules_session.draw_dead_mans_hand(state, rng, 1)[0]).code
            count, breakdown = count_cards(sheet, entry.trait, entry.skill, entry.modifier, achispado,
                                           catalogue=catalogue)
            rows.append((entry, seat, count, breakdown, achispado))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    prueba = Check.objects.create(
        session=session, kind=kind, difficulty=difficulty, label=label[:120], request_key=request_key, created_by=by,
    )
    log = _Log(session, by, [])
    for entry, seat, count, breakdown, achispado in rows:
        participant = Participant.objects.create(
            prueba=prueba, character=entry.character, seat=seat, trait=entry.trait, skill=entry.skill,
            modifier=entry.modifier, cards=count, achispado_card=achispado or "",
        )
        what = _what(entry.trait, entry.skill)
        if achispado:
            log.decide(
                gettext_noop("%(who)s is Achispado: %(card)s from the dead man's hand, %(effect)s."),
                rules=["FR-SOB-1"], prueba=prueba, who=entry.character.name, card=Card.parse(achispado).label,
                effect=msg(gettext_noop("one card more") if achispado.startswith("A") else gettext_noop("one card less")),
                seed=seed,
            )
        log.decide(
            gettext_noop("%(who)s is called to a %(what)s check: %(base)s from the sheet, %(equipment)s from "
                         "equipment, −%(penalty)s from the tracks, %(modifier)s modifier = %(cards)s."),
            rules=["FR-CHK-1"] + (["FR-OPP-1"] if kind == Check.Kind.OPPOSED else []), prueba=prueba,
            who=entry.character.name, what=what, cards=msg(N_CARDS, n=count), **{k: v for k, v in breakdown.items() if k != "achispado"},
        )
        if count <= 0:
            participant.status = Check.Status.RESOLVED if kind == Check.Kind.TRAIT else Check.Status.CHOSEN
            participant.outcome = "failure" if kind == Check.Kind.TRAIT else ""
            participant.save(update_fields=["status", "outcome"])
            log.decide(gettext_noop("%(who)s would draw no card: automatic failure."), rules=["FR-CHK-1"],
                       prueba=prueba, who=entry.character.name)
    log.flush()
    _refresh_check(prueba, session, by)
    return prueba


def _what(trait: str, skill: str) -> str:
    name = rules_characters.TRAIT_NAMES[trait]
    if skill:
        name += f" ({rules_characters.SKILLS[skill].name})"
    return name


@transaction.atomic
def check_request(
    *, session: GameSession, by, characters: Sequence[Character], trait: str, skill: str = "",
    difficulty: int | None = None, modifier: int = 0, label: str = "", request_key: str = "",
) -> Check:
    """The Mayor calls a trait check on one or several characters, each drawing on their own
    (FR-CHK-1..4): cards = trait + 2 with the skill + equipment − track penalties ± modifier; an
    Achispado character draws from the dead man's hand first (FR-SOB-1); 0 or fewer cards is an
    automatic failure. A repeated ``request_key`` returns the check already made."""
    entries = [Entry(c, trait, skill, modifier) for c in characters]
    return _create_check(session=session, by=by, kind=Check.Kind.TRAIT, entries=entries, difficulty=difficulty,
                         label=label, request_key=request_key)


@transaction.atomic
def opposed_request(*, session: GameSession, by, entries: Sequence[Entry], label: str = "",
                    request_key: str = "") -> Check:
    """The Mayor calls an opposed check: every participant with their own trait and skill
    (FR-OPP-1); they draw, choose in secret and reveal together (:func:`check_choose`)."""
    return _create_check(session=session, by=by, kind=Check.Kind.OPPOSED, entries=entries, difficulty=None,
                         label=label, request_key=request_key)


def _lock_participant(participant: Participant) -> tuple[GameSession, Participant]:
    """Lock the session row first (every table action on a session is serialised), then reload."""
    session_id = Check.objects.filter(pk=participant.prueba_id).values_list("session_id", flat=True).get()
    session = _lock(GameSession(pk=session_id))
    locked = Participant.objects.select_related("prueba", "character").get(pk=participant.pk)
    return session, locked


@transaction.atomic
def check_draw(*, participant: Participant, by) -> Participant:
    """Draw a participant's cards (FR-MODE-4, 5, 7, 8, 10, 11): from the pile in phase 1, from the
    own deck in phase 2; a short pile takes the discard or starts phase 2 first. Drawing again is a
    no-op (a double submit); a resolved check refuses."""
    session, participant = _lock_participant(participant)
    if participant.status == Check.Status.DRAWN:
        return participant  # a double submit
    if participant.status == Check.Status.CHOSEN:
        raise SessionError(E_ALREADY_CHOSEN % {"name": participant.character.name})
    if participant.status == Check.Status.RESOLVED:
        raise SessionError(E_CHECK_RESOLVED)
    before = _engine(session)
    rng, seed = _rng()
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
    log = _Log(session, by, [])
    _explain_moves(log, events, prueba)
    source = msg(gettext_noop("the pile")) if before.phase == 1 and state.phase == 1 or session.mode == "sin_gestion" \
        else msg(gettext_noop("their own deck"))
    if participant.seat == MAYOR_SEAT and source["_msg"] != "the pile":
        source = msg(gettext_noop("the Mayor's deck"))
    log.decide(ngettext("%(who)s draws %(count)s card from %(source)s.", "%(who)s draws %(count)s cards from %(source)s."),
               rules=["FR-MODE-4" if source["_msg"] == "the pile" else "FR-MODE-7"], prueba=prueba,
               who=participant.character.name, count=len(participant.drawn), source=source, seed=seed)
    if not participant.drawn:
        state, more = rules_session.settle_check(state, participant.seat, participant.engine_check)
        events += more
        _close_without_card(participant, log)
    _save_state(session, state)
    log.cards(events, before, state, prueba=prueba)
    participant.save(update_fields=["drawn", "drawn_by", "status", "outcome"])
    log.flush()
    _refresh_check(prueba, session, by)
    return participant


def _close_without_card(participant: Participant, log: _Log) -> None:
    if participant.prueba.kind == Check.Kind.TRAIT:
        participant.status, participant.outcome = Check.Status.RESOLVED, "failure"
    else:
        participant.status = Check.Status.CHOSEN
    log.decide(gettext_noop("%(who)s has no card to draw: automatic failure."), rules=["FR-CHK-1", "FR-MODE-8"],
               prueba=participant.prueba, who=participant.character.name)


def why(card: Card, trait: str, difficulty: int | None, outcome: str) -> dict:
    """Why a played card gives its outcome (FR-CHK-3, FR-CHK-4), as a message."""
    suit = TRAIT_SUIT[trait]
    name = rules_characters.TRAIT_NAMES[trait]
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


# One answer, whatever the card, to whoever may not see the cards they ask to choose among: the
# answers must not tell a hand or a secret choice apart (FR-CMB-1, FR-OPP-1, FR-MODE-2).
E_NOT_YOUR_HAND = _("Only whoever holds the cards of %(name)s can choose among them.")


def _plays_own_seat(session: GameSession, by, seat: str) -> bool:
    """``by`` plays the protagonist whose engine player is ``seat`` at this session (the player's
    side of :func:`frontera.play.selectors.viewer_for`; the Mayor's seat is only ``mayor``)."""
    from frontera.campaigns.permissions import is_mayor_of

    if seat == MAYOR_SEAT or not seat[1:].isdigit() or is_mayor_of(by, session.campaign):
        return False
    return Seat.objects.filter(session=session, character_id=int(seat[1:]), character__owner=by).exists()


def _holds_drawn(session: GameSession, by, participant: Participant) -> bool:
    """Whether ``by`` may see a participant's drawn cards, and so choose among them — the rule of
    ``selectors._participant_row``: the character's player, or the Mayor for his own seat (NPCs,
    minions) and for a draw he made himself for a player without a phone. A player who drew on
    their own phone keeps their cards from the Mayor (docs/sessions.md, "Selectors and secrecy")."""
    from frontera.campaigns.permissions import is_mayor_of

    if is_mayor_of(by, session.campaign):
        return participant.seat == MAYOR_SEAT or participant.drawn_by_id == by.pk
    return _plays_own_seat(session, by, participant.seat)


@transaction.atomic
def check_choose(*, participant: Participant, by, card: str, suit: str = "") -> Participant:
    """Play one drawn card (FR-CHK-2); a joker takes the declared suit (FR-CARD-2).

    Trait check: resolved at once (FR-CHK-3, 4) and the cards move (FR-MODE-4, 7, 10, 11).
    Opposed check: the choice stays secret until every participant has chosen; then all reveal at
    once and the engine decides (FR-OPP-1..5). Choosing the same card again is a no-op; another
    card after a choice, or any card of a resolved check, is refused.

    Only whoever holds the drawn cards (:func:`_holds_drawn`) chooses; anybody else — the Mayor for
    a player who drew on their phone — gets one and the same refusal whatever the card, so the
    answers tell neither the hand nor the face-down choice of an opposed check. The double submit
    is a holder's too: every holder sees the card played already."""
    session, participant = _lock_participant(participant)
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
    log = _Log(session, by, [])
    if prueba.kind == Check.Kind.TRAIT:
        before = _engine(session)
        state, events = _play(before, participant)
        participant.status, participant.outcome = Check.Status.RESOLVED, record.outcome
        played = Card.from_uid(record.played)
        played = played.declare(record.declared) if record.declared else played
        log.cards(events, before, state, prueba=prueba)
        rules = ["FR-CHK-2", "FR-CHK-4" if prueba.difficulty else "FR-CHK-3"] + (["FR-CARD-2"] if record.declared else [])
        log.decide(gettext_noop("%(who)s plays %(card)s for %(what)s: %(outcome)s (%(why)s)."), rules=rules,
                   prueba=prueba, who=participant.character.name, card=played.label,
                   what=_what(participant.trait, participant.skill), outcome=msg(OUTCOME_LABELS[record.outcome]),
                   why=why(played, participant.trait, prueba.difficulty, record.outcome))
        _save_state(session, state)
        if prueba.gambles.filter(status=Gamble.Status.OPEN).exists():
            participant.save(update_fields=["played", "declared", "status", "outcome"])
            _banca_after_stop(session, prueba, participant, log)
        treatment = prueba.treatments.filter(speeds__isnull=True).first()
        if treatment is not None:
            _treatment_result(session, treatment, played, log)
    else:
        participant.status = Check.Status.CHOSEN
        log.decide(gettext_noop("%(who)s has chosen a card, face down until everyone reveals."),
                   rules=["FR-OPP-1"], prueba=prueba, who=participant.character.name)
    participant.save(update_fields=["played", "declared", "status", "outcome"])
    log.flush()
    _refresh_check(prueba, session, by)
    return participant


def _play(state, participant: Participant):
    try:
        return rules_session.play_cards(state, participant.seat, participant.engine_check, [participant.played])
    except RulesError as err:
        raise SessionError(rules_message(err)) from err


def _reveal(prueba: Check, session: GameSession, by) -> None:
    """FR-OPP-1..5: every chosen card is revealed at once and the engine names winner and losers."""
    participants = list(prueba.participants.select_related("character").select_for_update())
    before = _engine(session)
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
    log = _Log(session, by, [])
    log.cards(events, before, state, prueba=prueba)
    shown = []
    for p in participants:
        p.outcome = results[p.pk]
        p.status = Check.Status.RESOLVED
        p.save(update_fields=["outcome", "status"])
        card = plays[p.pk][1]
        shown.append(f"{p.character.name} {card.label if card else '—'} ({rules_characters.TRAIT_NAMES[p.trait]})")
    winners = [p.character.name for p in participants if p.outcome == "win"]
    tied = [p.character.name for p in participants if p.outcome == "tie"]
    if again:
        log.decide(gettext_noop("Reveal: %(plays)s. Nobody played their suit or colour: Tablas, another opposed "
                                "check is needed."), rules=["FR-OPP-5"], prueba=prueba, plays="; ".join(shown))
    elif winners:
        rule = "FR-OPP-2" if sum(1 for (t, c) in plays.values() if c and c.suit == TRAIT_SUIT[t]) == 1 else (
            "FR-OPP-3" if any(c and c.suit == TRAIT_SUIT[t] for (t, c) in plays.values()) else "FR-OPP-4")
        log.decide(gettext_noop("Reveal: %(plays)s. %(winner)s wins; the others lose."), rules=["FR-OPP-1", rule],
                   prueba=prueba, plays="; ".join(shown), winner=winners[0])
    else:
        log.decide(gettext_noop("Reveal: %(plays)s. Tablas between %(tied)s; the others lose."),
                   rules=["FR-OPP-1", "FR-OPP-3"], prueba=prueba, plays="; ".join(shown), tied=", ".join(tied))
    _save_state(session, state)
    log.flush()


def _refresh_check(prueba: Check, session: GameSession, by) -> None:
    """The check's status is its least advanced participant's; an opposed check reveals when all chose."""
    statuses = list(prueba.participants.values_list("status", flat=True))
    lowest = min(statuses, key=STATUS_ORDER.index)
    if prueba.kind == Check.Kind.OPPOSED and lowest == Check.Status.CHOSEN:
        _reveal(prueba, session, by)
        lowest = Check.Status.RESOLVED
        gamble = prueba.gambles.filter(status=Gamble.Status.OPEN).first()
        if gamble is not None:
            _contest_settle(session, gamble, prueba, by)
        _duel_after_reveal(session, prueba, by)  # FR-CMB-15: a pistol duel's round (pistol duel section)
    if prueba.status != lowest:
        prueba.status = lowest
        prueba.save(update_fields=["status"])


TRAIT_CHOICES = [(t, rules_characters.TRAIT_NAMES[t]) for t in TRAITS]


# --- tracks: damage, accidents, threats, drinks (the Mayor's tools) ------------------------------

E_NOT_IN_SESSION = _("%(name)s is not at this session.")
E_BAD_TRACK_CHANGE = _("Say how many levels to lose (negative) or recover (positive), not 0.")
TRACK_LABELS = {
    "health": gettext_noop("Salud"),
    "morale": gettext_noop("Moral"),
    "sobriety": gettext_noop("Sobriedad"),
}
ACCIDENT_LABELS = {
    "fall": gettext_noop("a fall"),
    "train": gettext_noop("a train"),
    "coach": gettext_noop("a coach"),
    "horse": gettext_noop("a horse"),
}


def _lock_character(session: GameSession, character: Character) -> tuple[Character, rules_characters.Character]:
    """The character row locked, and its sheet; it must be at the session or be an NPC/minion."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    if locked.campaign_id != session.campaign_id:
        raise SessionError(E_NOT_IN_CAMPAIGN)
    if locked.kind == Character.Kind.PROTAGONIST and not Seat.objects.filter(session=session, character=locked).exists():
        raise SessionError(E_NOT_IN_SESSION % {"name": locked.name})
    return locked, rules_characters.Character.from_json(locked.sheet)


def _save_sheet(character: Character, sheet: rules_characters.Character) -> None:
    character.sheet = sheet.to_json()
    character.save(update_fields=["sheet", "updated_at"])


def _level_name(track: str, level: int) -> str:
    from frontera.rules.tracks import TRACK_NAMES

    return TRACK_NAMES[track][level]


def _drunk_exchanges(session: GameSession, log: _Log, character: Character, due: list[str], rng) -> None:
    """FR-SOB-1, FR-EXCH-5: Borracho swaps a random card with the Mayor (face down in phase 1).
    The coma exchange waits for the Mayor's choice of the card he gives back (:func:`exchange_choose`)."""
    if session.mode != GameSession.Mode.NORMAL or character.kind != Character.Kind.PROTAGONIST:
        return
    from frontera.rules import exchanges as rules_exchanges

    for name in due:
        if name == "borracho_swap":
            before = _engine(session)
            try:
                state, events = rules_exchanges.drunk_swap(before, seat_key(character.pk), rng)
            except RulesError as err:
                raise SessionError(rules_message(err)) from err
            _save_state(session, state)
            log.cards(events, before, state)
            log.decide(gettext_noop("%(who)s is Borracho: a random card of their deck swaps with a random card "
                                    "of the Mayor's, face down."), rules=["FR-SOB-1", "FR-EXCH-5"], who=character.name)
        elif name == "coma_exchange":
            Exchange.objects.create(
                session=session, kind=Exchange.Kind.COMA, first=seat_key(character.pk), second=MAYOR_SEAT,
                first_name=character.name, second_name=gettext_noop("the Mayor"), step="give", chooser=MAYOR_SEAT,
                seed=rng.getrandbits(62), created_by=log.actor,
            )
            log.decide(gettext_noop("%(who)s is En coma: a random card of theirs goes to the Mayor, who chooses "
                                    "one of his to give back."), rules=["FR-SOB-1", "FR-EXCH-5"], who=character.name)


@transaction.atomic
def track_change(*, session: GameSession, by, character: Character, track: str, amount: int, note: str = "") -> Character:
    """The Mayor changes a track by ``amount`` levels (negative loses, positive recovers), e.g.
    damage from a hit or a ruling; clamped to the track (FR-HLT-1, FR-MOR-1, FR-SOB-1). Logged as
    the Mayor's decision, with the Borracho swap when sobriety drops to it (FR-SOB-1)."""
    session = _lock(session)
    character, sheet = _lock_character(session, character)
    if not isinstance(amount, int) or amount == 0:
        raise SessionError(E_BAD_TRACK_CHANGE)
    try:
        before = sheet.track(track)
        sheet = (rules_characters.lose_levels(sheet, track, -amount) if amount < 0
                 else rules_characters.recover_levels(sheet, track, amount))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    after = sheet.track(track)
    _save_sheet(character, sheet)
    log = _Log(session, by, [])
    rule = {"health": "FR-HLT-1", "morale": "FR-MOR-1", "sobriety": "FR-SOB-1"}[track]
    log.decide(gettext_noop("The Mayor changes %(who)s's %(track)s: %(before)s → %(after)s%(note)s."), rules=[rule],
               who=character.name, track=msg(TRACK_LABELS[track]), before=_level_name(track, before),
               after=_level_name(track, after), note=f" ({note.strip()[:120]})" if note.strip() else "")
    _sync_combat(session, character, sheet, log)  # the override wins over the fight's automated result
    if track == "sobriety":
        from frontera.rules.tracks import exchanges_due

        rng, _seed = _rng()
        _drunk_exchanges(session, log, character, exchanges_due(before, after, mode=session.mode,
                                                               protagonist=character.kind == "protagonist"), rng)
    log.flush()
    return character


@transaction.atomic
def accident(*, session: GameSession, by, character: Character, cause: str, metres: int | None = None,
             agility: str | None = None) -> Character:
    """A fall (1 level per 5 m) or being run over (train 4, coach or horse 2), reduced by a Músculo
    (Agilidad) outcome (Éxito 2, Éxito parcial 1) (FR-HLT-4)."""
    from frontera.rules.tracks import accident_damage

    session = _lock(session)
    character, sheet = _lock_character(session, character)
    try:
        damage = accident_damage(cause, metres=metres, agility=agility or None)
        before = sheet.health
        sheet = rules_characters.lose_levels(sheet, "health", damage) if damage else sheet
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    _save_sheet(character, sheet)
    log = _Log(session, by, [])
    log.decide(gettext_noop("%(who)s suffers %(cause)s: %(damage)s of Salud lost, %(before)s → %(after)s."),
               rules=["FR-HLT-4", "FR-HLT-1"], who=character.name, cause=msg(ACCIDENT_LABELS.get(cause, cause)),
               damage=msg(N_LEVELS, n=damage), before=_level_name("health", before), after=_level_name("health", sheet.health))
    _sync_combat(session, character, sheet, log)
    log.flush()
    return character


@transaction.atomic
def table_action_once[T](*, session: GameSession, request_key: str, run: Callable[[], T]) -> T | None:
    """Run one of the Mayor's table tools (``run``: a track change, threat, drink, accident, rest,
    dead man's hand, death roll) once per form submission: a second submit with the same
    ``request_key`` does nothing and returns ``None``. The key is stored in the action's own
    transaction, under the session's row lock, so a refused action can be sent again."""
    if not request_key:
        return run()
    with transaction.atomic():
        GameSession.objects.select_for_update().only("pk").get(pk=session.pk)
        if ActionKey.objects.filter(session=session, key=request_key).exists():
            return None
        result = run()
        ActionKey.objects.create(session=session, key=request_key)
    return result


def threat(*, session: GameSession, by, character: Character) -> Character:
    """FR-MOR-3: the Mayor draws a random card; above the character's Confianza it costs 1 level of
    Moral. RULING (docs/sessions.md): the card is drawn like the Mayor's own one-card check and
    played, so it moves like any played card and the deck keeps its count."""
    from frontera.rules.tracks import threat as rules_threat

    session = _lock(session)
    character, sheet = _lock_character(session, character)
    before_state = _engine(session)
    rng, seed = _rng()
    check_id = f"t{secrets.token_hex(4)}"
    try:
        state, events = rules_session.draw_for_check(before_state, MAYOR_SEAT, 1, check_id, rng)
        drawn = rules_session.drawn_cards(state, MAYOR_SEAT, check_id)
        if not drawn:
            state, more = rules_session.settle_check(state, MAYOR_SEAT, check_id)
            events += more
            raise SessionError(_("The Mayor has no card to draw for the threat."))
        state, more = rules_session.play_cards(state, MAYOR_SEAT, check_id, drawn)
        events += more
        card = Card.from_uid(drawn[0])
        before = sheet.morale
        after = rules_threat(before, card.declare("S") if card.is_joker else card, confianza=sheet.confianza)
        sheet = rules_characters.lose_levels(sheet, "morale", before - after) if after != before else sheet
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    _save_state(session, state)
    _save_sheet(character, sheet)
    log = _Log(session, by, [])
    _explain_moves(log, events, None)
    log.cards(events, before_state, state)
    log.decide(gettext_noop("The Mayor threatens %(who)s: %(card)s (%(value)s) against Confianza %(confianza)s → "
                            "%(result)s."), rules=["FR-MOR-3"], who=character.name, card=card.label,
               value=card.value, confianza=sheet.confianza, seed=seed,
               result=msg(gettext_noop("one level of Moral lost")) if after != before
               else msg(gettext_noop("no effect")))
    _sync_combat(session, character, sheet, log)
    log.flush()
    return character


@transaction.atomic
def drink(*, session: GameSession, by, character: Character) -> Character:
    """One more drink of heavy drinking (FR-SOB-3): the alcohol level rises, the automatic level
    applies, a dead man's hand is drawn when due; Borracho swaps a card with the Mayor (FR-SOB-1)."""
    from frontera.rules import tracks as rules_tracks

    session = _lock(session)
    character, sheet = _lock_character(session, character)
    alcohol = session.tallies.setdefault("alcohol", {})
    rng, seed = _rng()
    try:
        tally = rules_tracks.heavy_drinking(aguante=sheet.aguante, sobriety=sheet.sobriety,
                                            alcohol=alcohol.get(str(character.pk), 0), kind=character.kind,
                                            mode=session.mode)
        tally, events = rules_tracks.heavy_drink(tally, rng=rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    event = events[0]
    alcohol[str(character.pk)] = tally["alcohol"]
    session.save(update_fields=["tallies"])
    before, after = event["sobriety"]["from"], event["sobriety"]["to"]
    sheet = rules_characters.lose_levels(sheet, "sobriety", before - after) if after != before else sheet
    _save_sheet(character, sheet)
    log = _Log(session, by, [])
    dmh = ""
    if event["dmh"]:
        drawn = [(Card.from_uid(c) if ":" in c else Card.parse(c)).label for c in event["dmh"].get("drawn", [])]
        dmh = " · " + " ".join(drawn)
    log.decide(gettext_noop("%(who)s drinks (alcohol %(alcohol)s, Aguante %(aguante)s)%(dmh)s: %(before)s → %(after)s."),
               rules=["FR-SOB-3"], who=character.name, alcohol=tally["alcohol"], aguante=sheet.aguante, dmh=dmh,
               before=_level_name("sobriety", before), after=_level_name("sobriety", after), seed=seed)
    _drunk_exchanges(session, log, character, event["due"], rng)
    _sync_combat(session, character, sheet, log)
    log.flush()
    return character


@transaction.atomic
def dead_mans_hand(*, session: GameSession, by, character: Character, count: int = 1) -> str:
    """FR-CHK-6: draw 1 card of the dead man's hand (2 if the Mayor allows, keeping the better):
    an Ace gives the better outcome, an 8 the worse. Nothing moves; the cards are public."""
    session = _lock(session)
    character, _sheet = _lock_character(session, character)
    state = _engine(session)
    rng, seed = _rng()
    try:
        drawn = rules_session.draw_dead_mans_hand(state, rng, count)
        result = dead_mans_hand_result([Card.from_uid(u) for u in drawn])
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    log = _Log(session, by, [])
    log.decide(gettext_noop("Dead man's hand for %(who)s: %(cards)s → %(result)s."), rules=["FR-CHK-6"],
               who=character.name, cards=" ".join(Card.from_uid(u).label for u in drawn), seed=seed,
               result=msg(gettext_noop("the better outcome") if result == "better" else gettext_noop("the worse outcome")))
    log.flush()
    return result


@transaction.atomic
def rest(*, session: GameSession, by, character: Character, hours: int) -> Character:
    """Con desgaste (FR-MODE-11): each hour of rest returns 8 random discarded cards to the deck."""
    session = _lock(session)
    character, _sheet = _lock_character(session, character)
    if character.kind != Character.Kind.PROTAGONIST:
        raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    before = _engine(session)
    rng, seed = _rng()
    try:
        state, events = rules_session.rest(before, seat_key(character.pk), hours, rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    _save_state(session, state)
    log = _Log(session, by, [])
    log.cards(events, before, state)
    log.decide(gettext_noop("%(who)s rests %(hours)s: %(cards)s back into their deck."),
               rules=["FR-MODE-11"], who=character.name, hours=msg(DURATION_LABELS["hour"], n=hours),
               cards=msg(N_DISCARDED, n=len(events)), seed=seed)
    log.flush()
    return character


# --- combat rounds (FR-CMB) ------------------------------------------------------------------------

E_COMBAT_OPEN = _("A fight is already going on: end it first.")
E_NOT_IN_COMBAT = _("%(name)s is not in this fight.")
E_COMBAT_ENDED = _("This fight has ended.")
E_NO_CARDS_CHOSEN = _("Choose at least one card to play.")
E_ONE_SIDE = _("A fight needs characters on two sides.")


@dataclass(frozen=True)
class Fighter:
    """A character entering a fight, on a side, with its starting cover."""

    character: Character
    side: str
    cover: str = "exposed"


def _weapons(sheet: rules_characters.Character, catalogue: dict) -> tuple[list[dict], int, bool]:
    """The sheet's weapons as the combat engine wants them, with the campaign's figures
    (FR-CHAR-5), thrown weapons carried, and whether a knife holster is worn."""
    weapons, thrown = [], 0
    for item_id, quantity in sheet.equipment.items():
        try:
            entry = rules_characters.item(item_id, catalogue=catalogue)
        except RulesError:
            continue
        if entry.get("category") != "weapon":
            continue
        tags = entry.get("tags", [])
        weapons.append({"name": item_id, "kind": entry["kind"], "damage": entry.get("damage") or 0,
                        "bands": entry.get("range") or None, "lasso": "grapple" in tags,
                        "whip": "multi_attack" in tags, "knife": "knife" in tags})
        if entry["kind"] == "thrown" and not ({"grapple", "multi_attack"} & set(tags)):
            thrown += quantity
    holster = any("holster" in key or key == "funda_de_cuchillos" for key in sheet.equipment)
    return weapons, thrown, holster


def _combatant_spec(fighter: Fighter, catalogue: dict) -> dict:
    sheet = rules_characters.Character.from_json(fighter.character.sheet)
    weapons, thrown, holster = _weapons(sheet, catalogue)
    try:
        penalty = draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    except RulesError:
        penalty = 0  # cannot act at all: the engine knows it from the tracks
    return {
        "key": combat_key(fighter.character.pk), "side": fighter.side, "aguante": sheet.aguante,
        "is_npc": fighter.character.kind != Character.Kind.PROTAGONIST,
        "traits": sheet.traits, "cards": sheet.cards_per_check if sheet.traits is None else None,
        "skills": list(sheet.skills), "confianza": sheet.confianza, "weapons": weapons, "thrown": thrown,
        "knife_holster": holster, "penalty": penalty, "health": sheet.health, "morale": sheet.morale,
        "cover": fighter.cover,
    }


def _combat_message(err: RulesError, combat: CombatRound | None) -> str:
    """An engine error with combatant keys (``k12``) replaced by the characters' names."""
    names = _fighter_names(combat) if combat is not None and combat.pk else {}

    def named(value):
        return re.sub(r"\bk\d+\b", lambda m: names.get(m.group(0), m.group(0)), value) if isinstance(value, str) else value

    return engine_text(err.template, {k: named(v) for k, v in err.params.items()})


def _lock_combat(combat: CombatRound) -> tuple[GameSession, CombatRound]:
    session = _lock(GameSession(pk=combat.session_id))
    combat = CombatRound.objects.get(pk=combat.pk)
    if combat.status != CombatRound.Status.OPEN:
        raise SessionError(E_COMBAT_ENDED)
    return session, combat


def _fighter_names(combat: CombatRound) -> dict[str, str]:
    ids = [int(key[1:]) for key in combat.state["combatants"]]
    return {combat_key(pk): name for pk, name in Character.objects.filter(pk__in=ids).values_list("pk", "name")}


@transaction.atomic
def combat_start(*, session: GameSession, by, fighters: Sequence[Fighter]) -> CombatRound:
    """A fight begins (FR-CMB-1): every fighter with its side and cover; turn 1."""
    session = _lock(session)
    if CombatRound.objects.filter(session=session, status=CombatRound.Status.OPEN).exists():
        raise SessionError(E_COMBAT_OPEN)
    fresh = Character.objects.in_bulk([f.character.pk for f in fighters])
    fighters = [Fighter(fresh[f.character.pk], f.side, f.cover) for f in fighters]
    if len({f.side for f in fighters}) < 2:
        raise SessionError(E_ONE_SIDE)
    state = _engine(session)
    for fighter in fighters:
        _seat_for(session, fighter.character, set(state.players))
    try:
        catalogue = campaign_catalogue(session.campaign)
        round_state = rules_combat.new_round([_combatant_spec(f, catalogue) for f in fighters])
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    combat = CombatRound.objects.create(session=session, state=round_state, created_by=by)
    log = _Log(session, by, [])
    log.decide(FIGHT_BEGINS,
               rules=["FR-CMB-1"], sides=" vs ".join(
                   ", ".join(f.character.name for f in fighters if f.side == side)
                   for side in dict.fromkeys(f.side for f in fighters)))
    log.flush()
    return combat


@transaction.atomic
def combat_declare(*, combat: CombatRound, by, character: Character, technique: str, target: Character | None = None,
                   band: str = "adyacente", weapon: str = "", special: str = "", bonus: int = 0,
                   targets: Sequence[Character] = (), move_band: str = "", move_cover: str = "",
                   aims: Sequence[tuple[Character, str]] = (), cover: str = "", mount: str = "",
                   holstered: bool | None = None, patient: Character | None = None) -> CombatRound:
    """Declare before drawing (FR-CMB-1, -2, -3, -4, -6, -9, -10, -11, -13, -14, FR-CHK-5).

    ``technique`` is an attack technique, ``"move"`` (move only, no cards), ``"other"`` (another
    action, e.g. picking up a weapon: no cards, a move within adyacente) or ``"medical"`` (medical
    attention to ``patient``: the whole turn, its Cabeza (Saber) check opens as a normal check).
    An attack names its targets, each with its own range band: ``aims`` [(character, band)], or
    ``target`` / ``targets`` all at ``band``; Apresar or Asustar as ``special``. The fighter's
    situation at the start of the turn: ``cover``, ``mount`` (``"none"``, ``"walk"``, ``"trot"``,
    ``"gallop"``) and ``holstered`` (empty / None: as it stands). Where the fighter goes at the
    end of the turn: ``move_band`` (adyacente with an action, up to corto when only moving) and
    ``move_cover``. NPCs declare and draw before the players (the engine refuses otherwise).
    The same declaration submitted twice is a no-op."""
    session, combat = _lock_combat(combat)
    key = combat_key(character.pk)
    wanted = list(aims) or [(t, band or "adyacente") for t in (list(targets) or ([target] if target is not None else []))]
    bands: dict[str, str] = {}
    for who, who_band in wanted:
        bands.setdefault(combat_key(who.pk), who_band or "adyacente")
    names = _fighter_names(combat)
    for who, who_key in [(character, key), *((t, combat_key(t.pk)) for t, _b in wanted),
                         *([(patient, combat_key(patient.pk))] if patient is not None else [])]:
        if who_key not in names:
            raise SessionError(E_NOT_IN_COMBAT % {"name": who.name})
    move = None
    if move_band or move_cover:
        move = {"band": move_band or "adyacente"}
        if move_cover:
            move["cover"] = move_cover
    situation = {}
    if cover:
        situation["cover"] = cover
    if mount:
        situation["mount"] = None if mount == "none" else mount
    if holstered is not None:
        situation["holstered"] = bool(holstered)
    patient_key = combat_key(patient.pk) if patient is not None else None
    earlier = combat.state["declarations"].get(key)
    if earlier is not None and earlier.get("technique") != "forcejeo":
        same = (earlier.get("technique") or earlier["action"], earlier.get("targets") or {}, earlier.get("patient"),
                earlier.get("special") or "", earlier.get("weapon") or "")
        attack = technique not in ("move", "other", "medical")
        if same == (technique, bands if attack else {}, patient_key, (special or "") if attack else "",
                    (weapon or "") if attack else ""):
            return combat  # a double submit
    try:
        if technique in ("move", "other"):
            state, _events = rules_combat.declare(combat.state, key, action=technique, move=move, **situation)
        elif technique == "medical":
            if patient is None:
                raise SessionError(E_NO_PATIENT)
            state, _events = rules_combat.declare(combat.state, key, action="medical", patient=patient_key,
                                                  move=move, **situation)
        else:
            if not bands:
                raise SessionError(E_NO_TARGET)
            state, _events = rules_combat.declare(combat.state, key, technique=technique, weapon=weapon or None,
                                                  targets=bands, special=special or None, bonus=bonus, move=move,
                                                  **situation)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    combat.state = state
    combat.save(update_fields=["state"])
    log = _Log(session, by, [])
    decl = state["declarations"][key]
    spec = combat.state["combatants"][key]
    if technique == "move":
        log.decide(gettext_noop("Turn %(turn)s: %(who)s only moves."), rules=["FR-CMB-2"], turn=combat.turn,
                   who=names[key])
    elif technique == "other":
        log.decide(gettext_noop("Turn %(turn)s: %(who)s does something other than attacking."), rules=["FR-CMB-2"],
                   turn=combat.turn, who=names[key])
    elif technique == "medical":
        log.decide(gettext_noop("Turn %(turn)s: %(who)s gives medical attention to %(patient)s, which takes the whole "
                                "turn."), rules=["FR-CHK-5", "FR-CMB-2"], turn=combat.turn, who=names[key],
                   patient=names[patient_key])
    else:
        rules = ["FR-CMB-1", "FR-CMB-4", "FR-CMB-11"] + (["FR-CMB-6"] if len(bands) > 1 else []) + (
            ["FR-CMB-13"] if special == "apresar" else ["FR-CMB-14"] if special == "asustar" else [])
        log.decide(gettext_noop("Turn %(turn)s: %(who)s declares %(technique)s%(special)s against %(targets)s, "
                                "%(cards)s."), rules=rules, turn=combat.turn, who=names[key],
                   technique=technique, targets=", ".join(f"{names[t]} ({b})" for t, b in bands.items()),
                   special=f" ({special.capitalize()})" if special else "",
                   cards=msg(N_CARDS, n=state["required"][key]))
    if (decl["cover"], decl["mount"], decl["holstered"]) != (spec["cover"], spec["mount"], spec["holstered"]):
        log.decide(gettext_noop("%(who)s at the start of the turn: %(cover)s, %(mount)s, %(holstered)s."),
                   rules=["FR-CMB-9", "FR-CMB-10"], who=names[key], cover=msg(COVER_LABELS[decl["cover"]]),
                   mount=msg(MOUNT_LABELS[decl["mount"] or "none"]),
                   holstered=msg(gettext_noop("weapons holstered") if decl["holstered"]
                                 else gettext_noop("weapons drawn")))
    if move:
        log.decide(gettext_noop("%(who)s will move (%(band)s)%(cover)s at the end of the turn."),
                   rules=["FR-CMB-2", "FR-CMB-3"] + (["FR-CMB-9"] if move_cover else []), who=names[key],
                   band=move["band"], cover=msg(gettext_noop(", %(cover)s"),
                                                 cover=msg(COVER_LABELS[move_cover])) if move_cover else "")
    log.flush()
    if technique == "medical":
        medical_request(session=session, by=by, healer=character, patient=patient,
                        request_key=f"combat{combat.pk}-{combat.turn}-{key}")
    return combat


MOUNT_LABELS = {"none": gettext_noop("on foot"), "walk": gettext_noop("mount at a walk"),
                "trot": gettext_noop("mount at a trot"), "gallop": gettext_noop("mount at a gallop")}
E_NO_PATIENT = _("Choose whom the medical attention is for.")


COVER_LABELS = {"exposed": gettext_noop("exposed"), "partial": gettext_noop("partial cover"),
                "total": gettext_noop("total cover")}
E_NO_TARGET = _("Choose a target.")


@transaction.atomic
def combat_reveal(*, combat: CombatRound, by) -> CombatRound:
    """The Mayor reveals when everyone is ready (normally automatic after the last choice)."""
    session, combat = _lock_combat(combat)
    if combat.state.get("revealed"):
        return combat
    _combat_reveal(session, combat, by)
    return combat


@transaction.atomic
def combat_draw(*, combat: CombatRound, by, character: Character) -> CombatRound:
    """Draw the declared number of cards from the character's cards in the session (FR-CMB-1,
    FR-MODE-4, 7) and hand them in to the fight."""
    session, combat = _lock_combat(combat)
    key = combat_key(character.pk)
    if key in combat.state.get("hands", {}):
        return combat  # a double submit
    try:
        count = rules_combat.cards_to_draw(combat.state, key)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    before = _engine(session)
    seat = _seat_for(session, character, set(before.players))
    rng, seed = _rng()
    check_id = f"r{combat.pk}t{combat.turn}{key}"
    try:
        state, events = rules_session.draw_for_check(before, seat, count, check_id, rng)
        drawn = rules_session.drawn_cards(state, seat, check_id)
        round_state, _events = rules_combat.hand_in(combat.state, key, drawn)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    _save_state(session, state)
    combat.state = round_state
    if character.kind == Character.Kind.PROTAGONIST and not _plays_own_seat(session, by, seat_key(character.pk)):
        combat.drawn_by = {**combat.drawn_by, key: by.pk}  # the Mayor drew for the player: he holds it too
    combat.save(update_fields=["state", "drawn_by"])
    log = _Log(session, by, [])
    _explain_moves(log, events, None)
    log.cards(events, before, state)
    log.decide(ngettext("%(who)s draws %(count)s card for the fight.", "%(who)s draws %(count)s cards for the fight."),
               rules=["FR-CMB-1"],
               who=character.name, count=len(drawn), seed=seed)
    log.flush()
    return combat


E_CHOOSE_DRAWN = _("Choose among the cards you drew.")


def _holds_hand(session: GameSession, by, character: Character, combat: CombatRound) -> bool:
    """Whether ``by`` holds a fighter's hand, and so chooses from it — the rule of
    ``selectors.combat_view``: the player of a protagonist, the Mayor for NPCs and minions, and the
    Mayor for a protagonist's hand he drew himself this turn (a player with no phone at hand, as
    with checks). A hand the player drew on their phone is never the Mayor's (FR-CMB-1)."""
    from frontera.campaigns.permissions import is_mayor_of

    if character.kind != Character.Kind.PROTAGONIST:
        return is_mayor_of(by, session.campaign)
    if combat.drawn_by.get(combat_key(character.pk)) == by.pk:
        return True
    return _plays_own_seat(session, by, seat_key(character.pk))


@transaction.atomic
def combat_choose(*, combat: CombatRound, by, character: Character, cards: Sequence[str], suit: str = "",
                  targets: dict | None = None) -> CombatRound:
    """Choose in secret the card(s) to play, each at its target (``targets``: card uid → character;
    optional when one target was declared) (FR-CHK-2, FR-CMB-1, FR-CMB-6); a joker takes ``suit``. When every fighter who can act is ready, all reveal at once
    (:func:`combat_reveal`).

    Only the holder of the hand chooses (:func:`_holds_hand`): anybody else — the Mayor for a
    protagonist whose player drew — gets one and the same refusal whatever the cards, before anything about the hand
    or the locked-in choice is looked at; the double submit is the holder's alone."""
    session, combat = _lock_combat(combat)
    key = combat_key(character.pk)
    if key not in combat.state.get("combatants", {}) or not _holds_hand(session, by, character, combat):
        raise SessionError(E_NOT_YOUR_HAND % {"name": character.name})
    cards = [str(uid) for uid in cards]
    if key in combat.state.get("plays", {}) and sorted(p["card"] for p in combat.state["plays"][key]) == sorted(cards):
        return combat  # a double submit
    if not cards:
        raise SessionError(E_NO_CARDS_CHOSEN)
    hand = combat.state.get("hands", {}).get(key)
    if hand is not None and any(uid not in hand for uid in cards):
        raise SessionError(E_CHOOSE_DRAWN)
    aims = {uid: combat_key(t.pk) for uid, t in (targets or {}).items() if t is not None}
    plays = [{"card": uid, "suit": (suit or None) if uid.partition(":")[2].startswith("JK") else None,
              **({"target": aims[uid]} if uid in aims else {})} for uid in cards]
    try:
        state, _events = rules_combat.choose(combat.state, key, plays)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    combat.state = state
    combat.save(update_fields=["state"])
    log = _Log(session, by, [])
    log.decide(gettext_noop("%(who)s has locked in, face down."), rules=["FR-CMB-1"], who=character.name)
    log.flush()
    if rules_combat.phase(state) == "reveal":
        _combat_reveal(session, combat, by)
    return combat


def _combat_reveal(session: GameSession, combat: CombatRound, by) -> None:
    """FR-CMB-1, -5, -7, -8, -9, -13, -14: one reveal for all; every hit explained; tracks updated;
    played cards move like a check's, unchosen ones go back where unchosen cards go. The round
    resolves from the fighters' levels on their sheets (:func:`_fight_takes_sheets`)."""
    log = _Log(session, by, [])
    loaded = _fight_takes_sheets(session, combat, log)
    if rules_combat.phase(combat.state) == "reveal" and rules_combat.phase(loaded) != "reveal":
        # a fighter whose sheet lets them act again has neither declared nor chosen: the turn
        # waits for them (ruling 3), as it would have after the Mayor's track change
        combat.state = loaded
        combat.save(update_fields=["state"])
        log.flush()
        return
    try:
        state, _events = rules_combat.reveal(loaded)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    names = _fighter_names(combat)
    before = _engine(session)
    deck_state, moves = before, []
    for key in state["hands"]:
        character_id = int(key[1:])
        seat = seat_key(character_id) if seat_key(character_id) in before.players else MAYOR_SEAT
        check_id = f"r{combat.pk}t{combat.turn}{key}"
        if check_id not in deck_state.pending.get(seat, {}):
            continue
        played = [p["card"] for p in state["plays"].get(key, [])]
        if played:
            deck_state, more = rules_session.play_cards(deck_state, seat, check_id, played)
        else:
            deck_state, more = rules_session.settle_check(deck_state, seat, check_id)
        moves += more
    _save_state(session, deck_state)
    combat.state = state
    combat.save(update_fields=["state"])
    log.cards(moves, before, deck_state)
    for rec in state["result"]["plays"]:
        params = {k: (names.get(v, v) if k == "target" else v) for k, v in rec["explain"]["params"].items()}
        log.decide(gettext_noop("%(who)s → %(target)s: %(explain)s"), rules=["FR-CMB-5", "FR-CMB-8"],
                   who=names[rec["attacker"]], target=names[rec["target"]],
                   explain=msg(rec["explain"]["template"], **params))
    for key, totals in state["result"]["targets"].items():
        character = Character.objects.select_for_update().get(pk=int(key[1:]))
        sheet = rules_characters.Character.from_json(character.sheet)
        sheet = dataclass_replace(sheet, health=totals["health_after"], morale=totals["morale_after"])
        _save_sheet(character, sheet)
        if totals["health_after"] == DEATH_LEVEL and totals["health_before"] != DEATH_LEVEL:
            _record_death(session, combat, character.pk, names[key], log)
        if (totals["health_after"], totals["morale_after"]) != (totals["health_before"], totals["morale_before"]):
            log.decide(gettext_noop("%(who)s: Salud %(health_before)s → %(health_after)s, Moral %(morale_before)s → "
                                    "%(morale_after)s."), rules=["FR-HLT-1", "FR-MOR-1"], who=names[key],
                       health_before=_level_name("health", totals["health_before"]),
                       health_after=_level_name("health", totals["health_after"]),
                       morale_before=_level_name("morale", totals["morale_before"]),
                       morale_after=_level_name("morale", totals["morale_after"]))
    log.flush()


@transaction.atomic
def combat_next_turn(*, combat: CombatRound, by) -> CombatRound:
    """The next turn (FR-CMB-3): moves and cover apply, penalties carry; on turn 5 and every 5th
    each fighter who can act draws a dead man's hand for jams (FR-CMB-12): an 8 loses the turn."""
    session, combat = _lock_combat(combat)
    try:
        state, _events = rules_combat.next_turn(combat.state)
        names = _fighter_names(combat)
        rng, seed = _rng()
        log = _Log(session, by, [])
        if rules_combat.jam_turn(state["turn"]):
            deck = _engine(session)
            for key in list(state["combatants"]):
                if rules_combat.phase(state) != "jams":
                    break
                if key in state["jams"]:
                    continue
                try:
                    card = rules_session.draw_dead_mans_hand(deck, rng, 1)[0]
                    state, _ev = rules_combat.submit_jam(state, key, card)
                except RulesError:
                    continue  # this fighter cannot act: no jam draw
                log.decide(gettext_noop("Jams, turn %(turn)s: %(who)s draws %(card)s → %(result)s."),
                           rules=["FR-CMB-12"], turn=state["turn"], who=names[key], card=Card.from_uid(card).label,
                           result=msg(gettext_noop("keeps shooting") if Card.from_uid(card).rank == "A"
                                      else gettext_noop("loses the turn")), seed=seed)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    for character_id, record in list(session.tallies.get("dying", {}).items()):
        # FR-HLT-3: the dead man's hand decides within 5 turns; if nobody drew it, it is drawn now
        if record["combat"] != combat.pk or state["turn"] - record["turn"] <= DEATH_ROLL_TURNS:
            continue
        try:
            character, sheet, _result = _death_roll(session, log, Character(pk=int(character_id)),
                                                    turns=DEATH_ROLL_TURNS, automatic=True)
        except SessionError:  # no longer Muerto (the Mayor's override) or gone from the session
            session.tallies["dying"].pop(character_id, None)
            session.save(update_fields=["tallies"])
            continue
        key = combat_key(character.pk)
        if key in state["combatants"]:
            state, _ev = rules_combat.set_tracks(state, key, health=sheet.health, morale=sheet.morale,
                                                 penalty=_penalty(sheet))
    combat.state = state
    combat.turn = state["turn"]
    combat.drawn_by = {}
    combat.save(update_fields=["state", "turn", "drawn_by"])
    log.decide(FIGHT_TURN, rules=["FR-CMB-3"], turn=combat.turn)
    log.flush()
    return combat


# --- death roll (FR-HLT-3) and track changes during a fight ----------------------------------------

DEATH_LEVEL = -4
DEATH_ROLL_TURNS = 5  # frontera.rules.tracks.DEATH_ROLL_TURNS
E_DEAD_FOR_GOOD = _("%(name)s is dead for good: the dead man's hand has spoken.")
# tallies[DEATH_CARE]: {"<character id>": True} — medical attention that worked on a character at
# Muerto before their death roll (FR-HLT-3, FR-CHK-5: the roll draws 2 and keeps the better). Kept
# apart from tallies["medical"] (FR-HLT-2: a wounded character recovers faster), set only at Muerto
# and cleared by the roll, by a new death and by leaving Muerto without a roll.
DEATH_CARE = "death_care"
DEATH_NOTICE = gettext_noop("%(who)s is Muerto: within %(turns)s combat turns a dead man's hand decides "
                            "(2 cards, keeping the better, with medical attention).")
FIGHT_TAKES_LEVELS = gettext_noop("The fight takes %(who)s's new levels from now on.")


def _penalty(sheet: rules_characters.Character) -> int:
    try:
        return draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    except RulesError:
        return 0  # cannot act at all: the engine knows it from the tracks


def _dead_for_good(session: GameSession, character_id: int) -> bool:
    return bool(session.tallies.get("dead", {}).get(str(character_id)))


def _death_roll_pending(session: GameSession, character: Character) -> bool:
    """A character at Muerto whose death roll is still to come: not dead for good, and within the 5
    combat turns of a death in a fight (outside a fight, or once it ended, the count stops)."""
    return not _dead_for_good(session, character.pk) and _turns_since_death(session, character) <= DEATH_ROLL_TURNS


def _record_death(session: GameSession, combat: CombatRound, character_id: int, name: str, log: _Log) -> None:
    """FR-HLT-3 (docs/sessions.md combat ruling 2): a fighter reaches Muerto in an open fight, by the
    round or by a change outside it (ruling 3): the 5 combat turns count from this turn (it counts
    0). Attention given before this death does not win the second card."""
    key = str(character_id)
    session.tallies.setdefault("dying", {})[key] = {"combat": combat.pk, "turn": combat.turn}
    session.tallies.get(DEATH_CARE, {}).pop(key, None)
    session.save(update_fields=["tallies"])
    log.decide(DEATH_NOTICE, rules=["FR-HLT-3"], who=name, turns=DEATH_ROLL_TURNS)


def _off_muerto(session: GameSession, character_id: int) -> None:
    """The character is no longer at Muerto without a death roll (the Mayor's override, a sheet
    edit): neither the 5-turn count nor the attention carry over to a later death."""
    key = str(character_id)
    stale = [tally for tally in ("dying", DEATH_CARE) if key in session.tallies.get(tally, {})]
    for tally in stale:
        session.tallies[tally].pop(key)
    if stale:
        session.save(update_fields=["tallies"])


def _sync_combat(session: GameSession, character: Character, sheet: rules_characters.Character, log: _Log) -> None:
    """A track changed outside the round's own resolution (the Mayor's override, an accident, a
    threat, a drink, a duel hit, a death roll, the Mayor's sheet edit): the open fight takes the new
    levels (``rules.combat.set_tracks``), also over the revealed result, so the next turn does not
    apply the overridden damage again (docs/sessions.md combat ruling 3).

    The FR-HLT-3 bookkeeping goes with it: a fighter this change puts at Muerto starts the 5-turn
    count of the death roll like a death in the round (ruling 2); a character it takes off Muerto
    keeps neither the count nor the attention for a later death."""
    if sheet.health != DEATH_LEVEL:
        _off_muerto(session, character.pk)
    combat = CombatRound.objects.select_for_update().filter(session=session, status=CombatRound.Status.OPEN).first()
    key = combat_key(character.pk)
    if combat is None or key not in combat.state.get("combatants", {}):
        return
    spec = combat.state["combatants"][key]
    totals = (combat.state.get("result") or {}).get("targets", {}).get(key) if combat.state.get("revealed") else None
    now = (totals["health_after"], totals["morale_after"]) if totals else (spec["health"], spec["morale"])
    if not totals and (*now, spec["penalty"]) == (sheet.health, sheet.morale, _penalty(sheet)):
        return
    try:
        combat.state, _events = rules_combat.set_tracks(combat.state, key, health=sheet.health, morale=sheet.morale,
                                                        penalty=_penalty(sheet))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    combat.save(update_fields=["state"])
    log.decide(FIGHT_TAKES_LEVELS, rules=["FR-HLT-1", "FR-MOR-1"], who=character.name)
    if sheet.health == DEATH_LEVEL and now[0] != DEATH_LEVEL and not _dead_for_good(session, character.pk):
        _record_death(session, combat, character.pk, character.name, log)


def _fight_takes_sheets(session: GameSession, combat: CombatRound, log: _Log) -> dict:
    """Before a reveal: each fighter's health and morale are their sheet's now (ruling 3), also after
    a change the fight was not told of — the Mayor's edit of the sheet in the characters app — so
    every hit is taken from the level the character is at (FR-HLT-1), never from a stale one.
    Returns the round's state with the sheets' levels; the fighter rows stay locked."""
    state = combat.state
    ids = sorted(int(key[1:]) for key in state["combatants"])
    for row in Character.objects.select_for_update().filter(pk__in=ids).order_by("pk"):
        key = combat_key(row.pk)
        spec = state["combatants"][key]
        sheet = rules_characters.Character.from_json(row.sheet)
        if (spec["health"], spec["morale"]) == (sheet.health, sheet.morale):
            continue
        try:
            state, _events = rules_combat.set_tracks(state, key, health=sheet.health, morale=sheet.morale,
                                                     penalty=_penalty(sheet))
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        log.decide(FIGHT_TAKES_LEVELS, rules=["FR-HLT-1", "FR-MOR-1"], who=row.name)
        if sheet.health != DEATH_LEVEL:
            _off_muerto(session, row.pk)
        elif spec["health"] != DEATH_LEVEL and not _dead_for_good(session, row.pk):
            _record_death(session, combat, row.pk, row.name, log)
    return state


def sheet_edited(*, character: Character, by) -> None:
    """The Mayor changed a sheet's tracks in the characters app (FR-CHAR-6), which knows nothing of
    sessions: every active session of the campaign takes the new levels like any change outside
    the round (:func:`_sync_combat`: the open fight, the FR-HLT-3 count). Run after the edit is
    committed (``transaction.on_commit``), each session under its own lock, in the play services'
    lock order (session, then character)."""
    sessions = GameSession.objects.filter(campaign_id=character.campaign_id, status=GameSession.Status.ACTIVE)
    for session_id in sessions.order_by("pk").values_list("pk", flat=True):
        try:
            with transaction.atomic():
                session = _lock(GameSession(pk=session_id))
                row = Character.objects.select_for_update().get(pk=character.pk)
                if (row.kind == Character.Kind.PROTAGONIST
                        and not Seat.objects.filter(session=session, character=row).exists()):
                    continue
                log = _Log(session, by, [])
                _sync_combat(session, row, rules_characters.Character.from_json(row.sheet), log)
                if log.rows:
                    log.flush()
        except SessionError:  # the session ended meanwhile: the edit stands, the next reveal reads it
            continue


def _turns_since_death(session: GameSession, character: Character) -> int:
    record = session.tallies.get("dying", {}).get(str(character.pk))
    if not record:
        return 0  # died outside a fight: the Mayor draws when the rules call for it
    combat = CombatRound.objects.filter(pk=record["combat"]).first()
    return max(0, combat.turn - record["turn"]) if combat else 0


def _death_roll(session: GameSession, log: _Log, character: Character, *, turns: int,
                automatic: bool = False) -> tuple[Character, rules_characters.Character, str]:
    """FR-HLT-3: the dead man's hand (1 card, 2 keeping the better after medical attention that
    worked on the dead character before this roll, FR-CHK-5 — never attention given earlier, see
    ``DEATH_CARE``): an Ace → Incapacitado, an 8 → dead for good."""
    from frontera.rules import tracks as rules_tracks

    character, sheet = _lock_character(session, character)
    key = str(character.pk)
    if _dead_for_good(session, character.pk):
        raise SessionError(E_DEAD_FOR_GOOD % {"name": character.name})
    medical = bool(session.tallies.get(DEATH_CARE, {}).get(key))
    rng, seed = _rng()
    try:
        drawn = rules_session.draw_dead_mans_hand(_engine(session), rng, 2 if medical else 1)
        result, health, _draw = rules_tracks.death_roll([Card.from_uid(u) for u in drawn], medical_attention=medical,
                                                        health=sheet.health, turns_since_death=turns)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    sheet = dataclass_replace(sheet, health=health)
    _save_sheet(character, sheet)
    session.tallies.get("dying", {}).pop(key, None)
    session.tallies.get(DEATH_CARE, {}).pop(key, None)  # spent on this roll
    if result == rules_tracks.PERMANENTE:
        session.tallies.setdefault("dead", {})[key] = True
    session.save(update_fields=["tallies"])
    log.decide(gettext_noop("Death roll for %(who)s%(how)s: %(cards)s → %(result)s."), rules=["FR-HLT-3"]
               + (["FR-CHK-5"] if medical else []), who=character.name, seed=seed,
               how=msg(gettext_noop(" (the fifth turn is over: drawn by the rules)")) if automatic else "",
               cards=" ".join(Card.from_uid(u).label for u in drawn),
               result=msg(gettext_noop("Incapacitado: alive") if result == rules_tracks.INCAPACITADO
                          else gettext_noop("dead for good")))
    if result == rules_tracks.PERMANENTE and character.kind == Character.Kind.PROTAGONIST:
        log.decide(gettext_noop("%(who)s leaves the game: the Mayor starts the death exchange."),
                   rules=["FR-EXCH-4"], who=character.name)
    return character, sheet, result


@transaction.atomic
def death_roll(*, session: GameSession, by, character: Character, request_key: str = "") -> str:
    """The dead man's hand for a character at Muerto (FR-HLT-3), drawn when the Mayor calls it:
    within 5 combat turns of dying (later the rules have drawn it already), 2 cards keeping the
    better if medical attention worked on the dead character (FR-CHK-5). Returns ``"incapacitado"``
    or ``"permanente"``.

    Double submits draw nothing and answer like the first: the same ``request_key`` again returns
    the first result; without a key, a second call for a character nobody has touched since the
    Mayor's last death roll for them (the row's ``updated_at`` is the one that roll left) is that
    roll's double submit and returns its result."""
    session = _lock(session)
    done = session.tallies.get("death_rolls", {})
    if request_key and request_key in done:
        return done[request_key]
    last = session.tallies.get("death_rolled", {}).get(str(character.pk))
    if not request_key and last:
        touched = Character.objects.filter(pk=character.pk).values_list("updated_at", flat=True).first()
        if touched is not None and touched.isoformat() == last["at"]:
            return last["result"]
    log = _Log(session, by, [])
    character, sheet, result = _death_roll(session, log, character, turns=_turns_since_death(session, character))
    if request_key:
        session.tallies.setdefault("death_rolls", {})[request_key] = result
    session.tallies.setdefault("death_rolled", {})[str(character.pk)] = {"result": result,
                                                                         "at": character.updated_at.isoformat()}
    session.save(update_fields=["tallies"])
    _sync_combat(session, character, sheet, log)
    log.flush()
    return result


@transaction.atomic
def combat_end(*, combat: CombatRound, by) -> CombatRound:
    """The Mayor ends the fight; open draws go back where unchosen cards go."""
    session, combat = _lock_combat(combat)
    before = _engine(session)
    state, moves = before, []
    for seat, checks in before.pending.items():
        for check_id in list(checks):
            if check_id.startswith(f"r{combat.pk}t"):
                state, more = rules_session.settle_check(state, seat, check_id)
                moves += more
    _save_state(session, state)
    combat.status = CombatRound.Status.ENDED
    combat.save(update_fields=["status"])
    log = _Log(session, by, [])
    log.cards(moves, before, state)
    log.decide(FIGHT_OVER, rules=["FR-CMB-1"])
    log.flush()
    return combat


# --- card exchanges (FR-EXCH, Normal mode only) ----------------------------------------------------

E_BAD_EXCHANGE = _("Choose a kind of exchange.")
E_EXCHANGE_TWO = _("An exchange needs two different sides.")
E_EXCHANGE_CLOSED = _("This exchange is already settled.")
E_NOT_YOUR_CHOICE = _("This choice is not yours to make.")
E_PICK_ONE = _("Choose exactly one card.")
E_PICK_DUEL = _("Choose up to 2 cards.")
E_PICK_GIVE = ngettext_lazy("Choose exactly %(count)s card to give back.",
                            "Choose exactly %(count)s cards to give back.", "count")
E_PICK_UNKNOWN = _("Choose among the cards offered.")
E_STILL_PLAYING = _("%(name)s is still in an open check or fight: finish it first.")
E_CHOICE_STALE = _("The cards changed meanwhile: the exchange starts its choices again.")

# kind → its steps, each (step, who chooses: "first" | "second" | "mayor", whose cards: "first" | "second")
EXCHANGE_STEPS = {
    Exchange.Kind.BET: [("take", "first", "second"), ("give", "first", "first")],
    Exchange.Kind.CHEAT: [("take", "first", "second")],
    Exchange.Kind.DUEL: [("take", "first", "second"), ("give", "first", "first")],
    Exchange.Kind.TREASURE_SWAP: [("give", "first", "first"), ("give_b", "second", "second")],
    Exchange.Kind.COMA: [("give", "second", "second")],
}
EXCHANGE_RULES = {
    Exchange.Kind.BET: ["FR-EXCH-2", "FR-EXCH-7"], Exchange.Kind.BET_TIE: ["FR-EXCH-2"],
    Exchange.Kind.CHEAT: ["FR-EXCH-2", "FR-GMB-6", "FR-EXCH-7"], Exchange.Kind.DUEL: ["FR-EXCH-3", "FR-EXCH-7"],
    Exchange.Kind.DUEL_TIE: ["FR-EXCH-3"], Exchange.Kind.TREASURE_TAKE: ["FR-EXCH-6", "FR-MODE-4"],
    Exchange.Kind.TREASURE_SWAP: ["FR-EXCH-6"], Exchange.Kind.DEATH: ["FR-EXCH-4"],
    Exchange.Kind.COMA: ["FR-SOB-1", "FR-EXCH-5"],
}


WINNER_KINDS = (Exchange.Kind.BET, Exchange.Kind.CHEAT, Exchange.Kind.DUEL)


def _step_spec(exchange: Exchange) -> tuple[str, str, str]:
    for spec in EXCHANGE_STEPS.get(exchange.kind, []):
        if spec[0] == exchange.step:
            return spec
    raise SessionError(E_EXCHANGE_CLOSED)


def _side(exchange: Exchange, which: str) -> str:
    return exchange.first if which == "first" else exchange.second


def exchange_choices(state: rules_session.Session, exchange: Exchange, actor: str) -> list[dict]:
    """What the chooser of the current step may pick, as ``actor`` (the chooser, or the Mayor acting
    for a player without a phone) may see it: ``{"value", "uid" or None}``. A card is offered by
    face only if the engine lets both the chooser and the actor see it (FR-EXCH-7, FR-MODE-2);
    the others are offered face down by position, in an order that says nothing about them.

    What the chooser sees is the engine's :func:`~frontera.rules.exchanges.choice_visible`: their
    own deck (in phase 1 a winner's, FR-EXCH-7, from the moment the exchange opens) and never the
    loser's, in either phase (ruling, docs/rules/decks.md). The Mayor acting for a player sees no
    more than he may himself."""
    from frontera.rules import exchanges as rules_exchanges

    _step, chooser, owner = _step_spec(exchange)
    chooser_seat, owner_seat = _side(exchange, chooser), _side(exchange, owner)
    state = _winner_state(state, exchange)
    owned = rules_session.owned_cards(state, owner_seat)
    chooser_sees = rules_exchanges.choice_visible(state, chooser_seat, owner_seat)
    visible = chooser_sees & (chooser_sees if actor == chooser_seat else _visible(state, actor))
    shown = sorted((u for u in owned if u in visible), key=rules_session.card_sort_key)
    hidden = sorted((u for u in owned if u not in visible), key=rules_session.card_sort_key)
    random.Random(f"{exchange.seed}:{exchange.step}:{actor}").shuffle(hidden)
    return [{"value": u, "uid": u} for u in shown] + [{"value": f"#{i + 1}", "uid": None, "hidden": u}
                                                      for i, u in enumerate(hidden)]


def _winner_state(state: rules_session.Session, exchange: Exchange) -> rules_session.Session:
    """FR-EXCH-7 (ruling, docs/rules/decks.md): in phase 1 the winner of a bet or duel, or the rival
    who caught a cheat (``first``), looks at their own deck from the moment the exchange opens."""
    from frontera.rules import exchanges as rules_exchanges

    if exchange.kind in WINNER_KINDS and exchange.first in state.players:
        return rules_exchanges.winner_looks(state, exchange.first)
    return state


def exchange_actor(exchange: Exchange, session: GameSession, by) -> str:
    """Who ``by`` acts as for the current step: the chooser's own player, else the Mayor (for a
    player without a phone, or for himself); anybody else is refused."""
    from frontera.campaigns.permissions import is_mayor_of

    _step, chooser, _owner = _step_spec(exchange)
    seat = _side(exchange, chooser)
    if seat != MAYOR_SEAT and Seat.objects.filter(session=session, character_id=int(seat[1:]),
                                                  character__owner=by).exists():
        return seat
    if is_mayor_of(by, session.campaign):
        return MAYOR_SEAT
    raise SessionError(E_NOT_YOUR_CHOICE)


def _party(session: GameSession, character: Character, seats: set[str]) -> tuple[str, str]:
    return _seat_for(session, character, seats), character.name


def _check_not_playing(session: GameSession, character: Character) -> None:
    busy = Participant.objects.filter(prueba__session=session, character=character).exclude(
        status=Check.Status.RESOLVED).exclude(prueba__status=Check.Status.RESOLVED).exists()
    busy = busy or any(combat_key(character.pk) in c.state.get("combatants", {})
                       for c in CombatRound.objects.filter(session=session, status=CombatRound.Status.OPEN))
    if busy:
        raise SessionError(E_STILL_PLAYING % {"name": character.name})


@transaction.atomic
def exchange_start(*, session: GameSession, by, kind: str, first: Character, second: Character | None = None,
                   count: int = 1, request_key: str = "") -> Exchange:
    """The Mayor starts a card exchange (Normal mode only, FR-EXCH-1):

    - ``bet`` (FR-EXCH-2): ``first`` won against ``second``; ``first`` chooses a card of the loser's
      deck to keep, then one of their own to give. ``bet_tie``: each takes a random card of the other.
    - ``cheat`` (FR-EXCH-2, FR-GMB-6): ``first`` caught ``second`` cheating; ``first`` takes one, gives none.
    - ``duel`` (FR-EXCH-3): ``first`` won; takes up to 2, gives back as many. ``duel_tie``: 2 random each way.
    - ``treasure_take`` (FR-EXCH-6): ``first`` keeps ``count`` random treasure card(s), unseen in phase 1.
      ``treasure_swap``: ``first`` and ``second`` each choose one of their own cards to swap.
    - ``death`` (FR-EXCH-4): ``first`` leaves the game; all their cards go to the treasure.

    Choices are made with :func:`exchange_choose` by the chooser (on their phone) or the Mayor.
    A repeated ``request_key`` returns the exchange already made."""
    from frontera.rules import exchanges as rules_exchanges

    session = _lock(session)
    if request_key:
        existing = Exchange.objects.filter(session=session, request_key=request_key).first()
        if existing is not None:
            return existing
    if kind not in Exchange.Kind.values or kind == Exchange.Kind.COMA:
        raise SessionError(E_BAD_EXCHANGE)
    before = _engine(session)
    seats = set(before.players)
    a, a_name = _party(session, first, seats)
    b, b_name = ("", "")
    single = kind in (Exchange.Kind.TREASURE_TAKE, Exchange.Kind.DEATH)
    if not single:
        if second is None:
            raise SessionError(E_EXCHANGE_TWO)
        b, b_name = _party(session, second, seats)
        if a == b:
            raise SessionError(E_EXCHANGE_TWO)
    if kind in (Exchange.Kind.BET_TIE, Exchange.Kind.DUEL_TIE) or kind in EXCHANGE_STEPS:
        try:
            rules_exchanges.exchange_options(before, a)  # Normal mode and both players, or a clear error
            rules_exchanges.exchange_options(before, b)
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        if kind == Exchange.Kind.TREASURE_SWAP:
            for character in (first, second):
                if character.kind != Character.Kind.PROTAGONIST:
                    raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
        log = _Log(session, by, [])
        exchange = _exchange_open(session, by, log, kind, a, a_name, b, b_name, request_key=request_key)
        log.flush()
        return exchange
    rng, seed = _rng()
    exchange = Exchange(session=session, kind=kind, first=a, second=b, first_name=a_name, second_name=b_name,
                        seed=seed, request_key=request_key, created_by=by, status=Exchange.Status.DONE)
    log = _Log(session, by, [])
    rules = EXCHANGE_RULES[kind]
    try:
        if kind == Exchange.Kind.TREASURE_TAKE:
            if _open_sharing(session) is not None:
                raise SessionError(E_SHARING_OPEN)
            state, events = rules_exchanges.treasure_take(before, a, rng, count)
            log.decide(ngettext("%(a)s keeps %(count)s random card of the Tesoro.",
                                "%(a)s keeps %(count)s random cards of the Tesoro."), rules=rules, a=a_name,
                       count=len(events), seed=seed)
        else:  # death
            if first.kind != Character.Kind.PROTAGONIST:
                raise SessionError(E_NOT_PROTAGONIST % {"name": first.name})
            _check_not_playing(session, first)
            rules_session.check_mode(before, rules_session.NORMAL)
            state, events = rules_session.leave_game(before, a)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    _save_state(session, state)
    log.cards(events, before, state)
    if kind == Exchange.Kind.DEATH:
        Seat.objects.filter(session=session, character=first).delete()
        Exchange.objects.filter(session=session, status=Exchange.Status.PENDING).filter(
            models_q_side(a)).update(status=Exchange.Status.CANCELLED)
        sharing = _open_sharing(session)
        if sharing is not None and a in sharing.chosen["sharing"]["sharers"]:
            sharing.status = Exchange.Status.CANCELLED
            sharing.save(update_fields=["status"])
        log.decide(gettext_noop("%(a)s dies and leaves the game: all %(count)s of their cards go to the Tesoro."),
                   rules=rules, a=a_name, count=len(events))
    exchange.save()
    log.flush()
    return exchange


def _exchange_open(session: GameSession, by, log: _Log, kind: str, a: str, a_name: str, b: str, b_name: str,
                   *, request_key: str = "") -> Exchange:
    """Open a bet, cheat, duel or treasure-swap exchange waiting for its first choice, or do a tie's
    random swap at once. Call while holding the session lock; ``a``/``b`` are engine players."""
    from frontera.rules import exchanges as rules_exchanges

    rng, seed = _rng()
    exchange = Exchange(session=session, kind=kind, first=a, second=b, first_name=a_name, second_name=b_name,
                        seed=seed, request_key=request_key, created_by=by)
    rules = EXCHANGE_RULES[kind]
    shown_b = msg(b_name) if b == MAYOR_SEAT else b_name
    shown_a = msg(a_name) if a == MAYOR_SEAT else a_name
    if kind in (Exchange.Kind.BET_TIE, Exchange.Kind.DUEL_TIE):
        before = _engine(session)
        try:
            if kind == Exchange.Kind.BET_TIE:
                state, events = rules_exchanges.bet_tie(before, a, b, rng)
            else:
                state, events = rules_exchanges.duel_tie(before, a, b, rng)
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        _save_state(session, state)
        log.cards(events, before, state)
        log.decide(gettext_noop("Apuesta in Tablas: %(a)s and %(b)s each take a random card of the other's deck.")
                   if kind == Exchange.Kind.BET_TIE else
                   gettext_noop("Duelo in Tablas: two random cards swap each way between %(a)s and %(b)s."),
                   rules=rules, a=shown_a, b=shown_b, seed=seed)
        exchange.step, exchange.chooser, exchange.status = "", "", Exchange.Status.DONE
        exchange.save()
        return exchange
    step, chooser, _owner = EXCHANGE_STEPS[kind][0]
    exchange.step, exchange.chooser = step, (a if chooser == "first" else b)
    looked = None
    if kind in WINNER_KINDS:
        before = _engine(session)
        if before.phase == 1:
            looked = _winner_state(before, exchange)
            _save_state(session, looked)
    messages = {
        Exchange.Kind.BET: gettext_noop("Apuesta: %(a)s beat %(b)s and chooses a card of their deck to keep, "
                                        "then one of their own to give."),
        Exchange.Kind.CHEAT: gettext_noop("%(b)s was caught cheating: %(a)s chooses a card of their deck and "
                                          "gives nothing back."),
        Exchange.Kind.DUEL: gettext_noop("Duelo: %(a)s beat %(b)s and may take up to 2 cards of their deck, "
                                         "giving back as many."),
        Exchange.Kind.TREASURE_SWAP: gettext_noop("Tesoro: %(a)s and %(b)s each choose one of their cards "
                                                  "to swap."),
    }
    log.decide(messages[kind], rules=rules, a=shown_a, b=shown_b)
    if looked is not None:
        log.decide(gettext_noop("Phase 1: %(a)s, who won, looks at their own deck before choosing; nobody else's "
                                "deck is shown."), rules=["FR-EXCH-7"], a=shown_a)
    exchange.save()
    return exchange


def models_q_side(seat: str):
    from django.db.models import Q

    return Q(first=seat) | Q(second=seat)


def _exchange_finish(state, exchange: Exchange, rng):
    from frontera.rules import exchanges as rules_exchanges

    got = exchange.chosen
    one = lambda step: (got.get(step) or [None])[0]  # noqa: E731
    a, b = exchange.first, exchange.second
    if exchange.kind == Exchange.Kind.BET:
        return rules_exchanges.bet_win(state, a, b, take=one("take"), give=one("give"))
    if exchange.kind == Exchange.Kind.CHEAT:
        return rules_exchanges.bet_caught_cheating(state, b, a, take=one("take"))
    if exchange.kind == Exchange.Kind.DUEL:
        return rules_exchanges.duel_win(state, a, b, take=got.get("take", []), give=got.get("give", []))
    if exchange.kind == Exchange.Kind.TREASURE_SWAP:
        return rules_exchanges.treasure_swap(state, a, b, give_a=one("give"), give_b=one("give_b"))
    return rules_exchanges.coma_exchange(state, a, give=one("give"), rng=rng)


def _pick_count_ok(exchange: Exchange, state, picks: list[str], offered: int) -> None:
    if exchange.kind == Exchange.Kind.DUEL and exchange.step == "take":
        if len(picks) > 2:
            raise SessionError(E_PICK_DUEL)
        return
    if exchange.kind == Exchange.Kind.DUEL:
        owed = min(len(exchange.chosen.get("take", [])), offered)
        if len(picks) != owed:
            raise SessionError(E_PICK_GIVE % {"count": owed})
        return
    if len(picks) != (1 if offered else 0):
        raise SessionError(E_PICK_ONE)


@transaction.atomic
def exchange_choose(*, exchange: Exchange, by, step: str, picks: Sequence[str]) -> Exchange:
    """The chooser of ``step`` picks card(s) (FR-EXCH-2, -3, -6, FR-SOB-1): each pick is a card the
    chooser may see, or ``"#n"``, the n-th face-down card offered (:func:`exchange_choices`). The
    last step makes the engine do the whole exchange; in phase 1 the winner then sees their own
    deck (FR-EXCH-7). The same step with the same picks again, from the user who took it, is a
    no-op; a stale or settled exchange refuses.

    The double submit is only the user's who took the step (the chooser's player, or the Mayor
    when he chose — for a player without a phone or for himself): anybody else gets the answer of
    any stale step, whatever the picks, so the other side cannot find the card chosen from their
    deck or given from the chooser's by trying codes (FR-EXCH-6, FR-EXCH-7, FR-MODE-2)."""
    session = _lock(GameSession(pk=exchange.session_id))
    exchange = Exchange.objects.get(pk=exchange.pk)
    picks = [str(p) for p in picks]
    taken = exchange.chosen.get(f"_{step}") or {}
    if exchange.status == Exchange.Status.PENDING and step == exchange.step:
        pass
    elif (taken.get("by") == by.pk and taken.get("picks") == picks
          and exchange.status != Exchange.Status.CANCELLED):
        return exchange  # a double submit of a step this user took
    else:
        raise SessionError(E_EXCHANGE_CLOSED)
    actor = exchange_actor(exchange, session, by)
    state = _engine(session)
    try:
        offered = exchange_choices(state, exchange, actor)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    by_value = {o["value"]: (o["uid"] or o["hidden"]) for o in offered}
    if len(set(picks)) != len(picks) or any(p not in by_value for p in picks):
        raise SessionError(E_PICK_UNKNOWN)
    _pick_count_ok(exchange, state, picks, len(offered))
    # earlier picks must still be where they were chosen from (a phase-2 draw may have moved them)
    for spec in EXCHANGE_STEPS[exchange.kind]:
        if spec[0] == exchange.step:
            break
        still = set(rules_session.owned_cards(state, _side(exchange, spec[2])))
        if not set(exchange.chosen.get(spec[0], [])) <= still:
            first_step, chooser, _owner = EXCHANGE_STEPS[exchange.kind][0]
            exchange.step, exchange.chooser, exchange.chosen = first_step, _side(exchange, chooser), {}
            exchange.save(update_fields=["step", "chooser", "chosen"])
            log = _Log(session, by, [])
            log.decide(gettext_noop("The cards changed meanwhile: the exchange starts its choices again."),
                       rules=EXCHANGE_RULES[exchange.kind])
            log.flush()
            return exchange
    exchange.chosen[exchange.step] = [by_value[p] for p in picks]
    exchange.chosen[f"_{exchange.step}"] = {"picks": picks, "by": by.pk}
    steps = [spec[0] for spec in EXCHANGE_STEPS[exchange.kind]]
    log = _Log(session, by, [])
    names = {exchange.first: exchange.first_name, exchange.second: exchange.second_name}
    chooser_name = msg(names[exchange.chooser]) if exchange.chooser == MAYOR_SEAT else names[exchange.chooser]
    if exchange.step != steps[-1]:
        nxt = EXCHANGE_STEPS[exchange.kind][steps.index(exchange.step) + 1]
        exchange.step, exchange.chooser = nxt[0], _side(exchange, nxt[1])
        exchange.save(update_fields=["step", "chooser", "chosen"])
        log.decide(ngettext("%(who)s has chosen, face down (%(count)s card).",
                            "%(who)s has chosen, face down (%(count)s cards)."), rules=EXCHANGE_RULES[exchange.kind],
                   who=chooser_name, count=len(picks))
        log.flush()
        return exchange
    rng, seed = _rng()
    try:
        state_after, events = _exchange_finish(state, exchange, rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    _save_state(session, state_after)
    exchange.status, exchange.step, exchange.chooser = Exchange.Status.DONE, "", ""
    exchange.save(update_fields=["status", "step", "chooser", "chosen"])
    log.cards(events, state, state_after)
    log.decide(ngettext("%(kind)s between %(a)s and %(b)s: %(count)s card changed hands.",
                        "%(kind)s between %(a)s and %(b)s: %(count)s cards changed hands."),
               rules=EXCHANGE_RULES[exchange.kind], kind=msg(EXCHANGE_LABELS[exchange.kind]),
               a=msg(exchange.first_name) if exchange.first == MAYOR_SEAT else exchange.first_name,
               b=msg(exchange.second_name) if exchange.second == MAYOR_SEAT else exchange.second_name,
               count=len(events), seed=seed)
    if state.phase == 1 and exchange.kind in (Exchange.Kind.BET, Exchange.Kind.CHEAT, Exchange.Kind.DUEL):
        log.decide(gettext_noop("Phase 1: %(a)s may now look at their own deck; nobody else's."),
                   rules=["FR-EXCH-7"], a=exchange.first_name)
    log.flush()
    return exchange


# --- sharing a treasure among several protagonists (FR-EXCH-6) ----------------------------------------

E_SHARING_OPEN = _("A treasure is already being shared: finish or call off that sharing first.")
E_NOT_A_SHARER = _("%(name)s does not share this treasure.")
E_SHARING_DECIDED = _("The sharers have already agreed on who keeps the treasure.")
E_SHARING_NOT_YET = _("First the sharers agree on who keeps the treasure.")
E_NO_SWAP_LEFT = _("%(name)s has no swap left in this sharing.")
E_SWAP_PARTNER = _("Choose another sharer to swap with.")
E_BAD_SWAPS = _("Say how many cards each may swap: 0 or more.")
E_NOTHING_TO_SHARE = _("The Tesoro is empty and nobody may swap: there is nothing to share.")
E_KEEPER_PER_CARD = _("Name one keeper for each treasure card.")
# A sharing is an Exchange of kind TREASURE_TAKE that waits (PENDING); a lone finder's treasure
# card is done at once (exchange_start). ``chosen["sharing"]`` holds the sharers (engine players,
# table order), their ``names``, the ``cards`` drawn (still in the Tesoro until agreed), each
# sharer's ``votes`` (a keeper per card), the agreed ``keepers``, ``swaps`` per swapper and what
# each has ``left``. ``step`` is "keeper" (deciding) or "swap".
SHARING = Exchange.Kind.TREASURE_TAKE


def _open_sharing(session: GameSession) -> Exchange | None:
    return Exchange.objects.filter(session=session, kind=SHARING, status=Exchange.Status.PENDING).first()


def _lock_sharing(exchange: Exchange) -> tuple[GameSession, Exchange, dict]:
    session = _lock(GameSession(pk=exchange.session_id))
    exchange = Exchange.objects.get(pk=exchange.pk)
    if exchange.kind != SHARING or "sharing" not in exchange.chosen:
        raise SessionError(E_EXCHANGE_CLOSED)
    return session, exchange, exchange.chosen["sharing"]


def _sharer(session: GameSession, by, data: dict, character: Character) -> str:
    """The sharer's engine player, if ``by`` may act for them: their player, or the Mayor (for a
    player without a phone at hand)."""
    from frontera.campaigns.permissions import can_act_for

    seat = seat_key(character.pk)
    if seat not in data["sharers"] or character.campaign_id != session.campaign_id:
        raise SessionError(E_NOT_A_SHARER % {"name": character.name})
    if not can_act_for(by, character):
        raise SessionError(E_NOT_YOUR_CHOICE)
    return seat


def _sharing_over(exchange: Exchange, data: dict, log: _Log) -> None:
    if not any(data["left"].values()):
        exchange.status, exchange.chooser = Exchange.Status.DONE, ""
        log.decide(gettext_noop("The sharing of the Tesoro among %(who)s is over."), rules=["FR-EXCH-6"],
                   who=", ".join(data["names"][s] for s in data["sharers"]))


@transaction.atomic
def treasure_share_start(*, session: GameSession, by, sharers: Sequence[Character], count: int = 1,
                         swaps: int = 1, request_key: str = "") -> Exchange:
    """A treasure, loot or reward shared by protagonists (FR-EXCH-6). A lone finder keeps ``count``
    random Tesoro card(s) at once. Two or more sharers: ``count`` random card(s) are drawn (seen by
    the sharers in phase 2, by nobody in phase 1, FR-MODE-4) and the sharers decide among
    themselves who keeps each (:func:`treasure_share_vote`, on their phones); then each of the
    others may swap ``swaps`` card(s) with another sharer (:func:`treasure_share_swap`). With an
    empty Tesoro, every sharer may swap. The Mayor never takes treasure (nor does an NPC of his)."""
    from frontera.rules import exchanges as rules_exchanges

    session = _lock(session)
    if request_key:
        existing = Exchange.objects.filter(session=session, request_key=request_key).first()
        if existing is not None:
            return existing
    unique = list({c.pk: c for c in sharers}.values())
    if not unique:
        raise SessionError(E_NO_CHARACTERS)
    for character in unique:
        if character.kind != Character.Kind.PROTAGONIST:
            raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    if isinstance(swaps, bool) or not isinstance(swaps, int) or swaps < 0:
        raise SessionError(E_BAD_SWAPS)
    if _open_sharing(session) is not None:
        raise SessionError(E_SHARING_OPEN)
    if len(unique) == 1:
        return exchange_start(session=session, by=by, kind=Exchange.Kind.TREASURE_TAKE, first=unique[0],
                              count=count, request_key=request_key)
    state = _engine(session)
    seats = set(state.players)
    parties = [_party(session, c, seats) for c in unique]
    rng, seed = _rng()
    try:
        keys = rules_exchanges.treasure_sharers(state, [seat for seat, _name in parties])
        cards = rules_exchanges.treasure_draw(state, rng, count) if state.treasure else []
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    if not cards and not swaps:
        raise SessionError(E_NOTHING_TO_SHARE)
    names = dict(parties)
    data = {"sharers": keys, "names": names, "cards": cards, "votes": {}, "keepers": [], "swaps": swaps,
            "left": {} if cards else dict.fromkeys(keys, swaps)}
    exchange = Exchange(session=session, kind=SHARING, first=keys[0], second=keys[-1],
                        first_name=", ".join(names[k] for k in keys[:-1])[:120], second_name=names[keys[-1]],
                        step="keeper" if cards else "swap", chooser="", chosen={"sharing": data}, seed=seed,
                        request_key=request_key, created_by=by)
    exchange.save()
    log = _Log(session, by, [])
    who = ", ".join(names[k] for k in keys)
    if cards:
        log.decide(ngettext("Sharing the Tesoro among %(who)s: %(count)s random card drawn; the sharers decide "
                            "among themselves who keeps it.",
                            "Sharing the Tesoro among %(who)s: %(count)s random cards drawn; the sharers decide "
                            "among themselves who keeps them."), rules=["FR-EXCH-6"], who=who, count=len(cards),
                   seed=seed)
    else:
        log.decide(gettext_noop("Sharing the Tesoro among %(who)s: the Tesoro is empty, so each may swap up to "
                                "%(swaps)s card(s) with another sharer."), rules=["FR-EXCH-6"], who=who, swaps=swaps)
    log.flush()
    return exchange


@transaction.atomic
def treasure_share_vote(*, exchange: Exchange, by, sharer: Character,
                        keepers: Sequence[Character]) -> Exchange:
    """``sharer`` names who keeps each drawn Tesoro card (FR-EXCH-6: "decidirán ellos quién se la
    queda"), on their phone or through the Mayor. When every sharer has named the same keepers the
    cards move (unseen until phase 2 if in phase 1, FR-MODE-4) and the swaps open. The same vote
    again is a no-op; a vote after the agreement is refused."""
    from frontera.rules import exchanges as rules_exchanges

    session, exchange, data = _lock_sharing(exchange)
    seat = _sharer(session, by, data, sharer)
    named = [seat_key(c.pk) for c in keepers]
    if data["votes"].get(seat) == named:
        return exchange  # a double submit
    if exchange.status != Exchange.Status.PENDING or exchange.step != "keeper":
        raise SessionError(E_SHARING_DECIDED if exchange.status == Exchange.Status.PENDING else E_EXCHANGE_CLOSED)
    if len(named) != len(data["cards"]):
        raise SessionError(E_KEEPER_PER_CARD)
    for character, key in zip(keepers, named, strict=True):
        if key not in data["sharers"]:
            raise SessionError(E_NOT_A_SHARER % {"name": character.name})
    votes = {**data["votes"], seat: named}
    try:
        agreed = rules_exchanges.treasure_agreement(data["sharers"], votes, len(data["cards"]))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    names = data["names"]
    data = {**data, "votes": votes}
    log = _Log(session, by, [])
    log.decide(gettext_noop("%(who)s says %(keepers)s should keep the Tesoro card(s)."), rules=["FR-EXCH-6"],
               who=names[seat], keepers=", ".join(names[k] for k in named))
    if agreed is not None:
        before = _engine(session)
        try:
            after, events = rules_exchanges.treasure_keep(before, agreed, data["cards"])
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        _save_state(session, after)
        log.cards(events, before, after)
        swappers = rules_exchanges.treasure_swappers(data["sharers"], agreed)
        data["keepers"], data["left"] = agreed, {s: data["swaps"] for s in swappers}
        log.decide(gettext_noop("The sharers agree: %(keepers)s keep(s) the Tesoro card(s)."), rules=["FR-EXCH-6"],
                   keepers=", ".join(dict.fromkeys(names[k] for k in agreed)))
        if any(data["left"].values()):
            log.decide(gettext_noop("%(who)s may each swap up to %(swaps)s card(s) with another sharer."),
                       rules=["FR-EXCH-6"], who=", ".join(names[s] for s in swappers), swaps=data["swaps"])
        exchange.step = "swap"
        _sharing_over(exchange, data, log)
    exchange.chosen = {"sharing": data}
    exchange.save(update_fields=["chosen", "step", "status", "chooser"])
    log.flush()
    return exchange


@transaction.atomic
def treasure_share_swap(*, exchange: Exchange, by, sharer: Character, partner: Character | None,
                        request_key: str = "") -> Exchange:
    """One of the other sharers swaps a card with another sharer, or lets it go (``partner`` None)
    (FR-EXCH-6). A swap is a :data:`Exchange.Kind.TREASURE_SWAP` in which each of the two chooses
    the card they give, on their own phone. ``request_key`` makes a double tap a no-op."""
    session, exchange, data = _lock_sharing(exchange)
    seat = _sharer(session, by, data, sharer)
    if request_key and Exchange.objects.filter(session=session, request_key=request_key).exists():
        return exchange  # this swap was already opened
    if exchange.step != "swap":
        raise SessionError(E_SHARING_NOT_YET if exchange.status == Exchange.Status.PENDING else E_EXCHANGE_CLOSED)
    left = data["left"].get(seat, 0)
    if partner is None and not left:
        return exchange  # "no swap" again
    if exchange.status != Exchange.Status.PENDING:
        raise SessionError(E_EXCHANGE_CLOSED)
    if not left:
        raise SessionError(E_NO_SWAP_LEFT % {"name": data["names"].get(seat, sharer.name)})
    names = data["names"]
    data = {**data, "left": {**data["left"]}}
    log = _Log(session, by, [])
    if partner is None:
        data["left"][seat] = 0
        log.decide(gettext_noop("%(who)s does not swap any card."), rules=["FR-EXCH-6"], who=names[seat])
    else:
        other = seat_key(partner.pk)
        if other == seat or other not in data["sharers"]:
            raise SessionError(E_SWAP_PARTNER)
        _exchange_open(session, by, log, Exchange.Kind.TREASURE_SWAP, seat, names[seat], other, names[other],
                       request_key=request_key)
        data["left"][seat] = left - 1
    _sharing_over(exchange, data, log)
    exchange.chosen = {"sharing": data}
    exchange.save(update_fields=["chosen", "status", "chooser"])
    log.flush()
    return exchange


EXCHANGE_LABELS = {
    Exchange.Kind.BET: gettext_noop("Bet"), Exchange.Kind.CHEAT: gettext_noop("Cheating caught"),
    Exchange.Kind.DUEL: gettext_noop("Duel"), Exchange.Kind.TREASURE_SWAP: gettext_noop("Tesoro: a swap"),
    Exchange.Kind.COMA: gettext_noop("En coma: exchange with the Mayor"),
}


@transaction.atomic
def exchange_cancel(*, exchange: Exchange, by) -> Exchange:
    """The Mayor calls off a pending exchange (e.g. started by mistake); nothing has moved yet."""
    session = _lock(GameSession(pk=exchange.session_id))
    exchange = Exchange.objects.get(pk=exchange.pk)
    if exchange.status == Exchange.Status.CANCELLED:
        return exchange
    if exchange.status != Exchange.Status.PENDING:
        raise SessionError(E_EXCHANGE_CLOSED)
    exchange.status = Exchange.Status.CANCELLED
    exchange.save(update_fields=["status"])
    log = _Log(session, by, [])
    log.decide(gettext_noop("The Mayor calls off an exchange between %(a)s and %(b)s."),
               rules=EXCHANGE_RULES[exchange.kind], a=exchange.first_name,
               b=msg(exchange.second_name) if exchange.second == MAYOR_SEAT else exchange.second_name)
    log.flush()
    return exchange


# --- gambling nights (FR-GMB) ------------------------------------------------------------------------

E_GAMBLE_SETTLED = _("This game is already settled.")
E_NEGATIVE_MONEY = _("%(name)s has a gambling debt and no money to bet.")
E_STOP_OPEN = _("An attempt to leave is being checked: finish it first.")
E_GAMBLE_TWO = _("Azar and habilidad need at least two characters.")
E_NO_MAYOR_DECK = _("The Mayor has no cards in his deck for the banca.")
E_BAD_CONTEST = _("Choose a contest.")
SIDE_LABELS = {"player": gettext_noop("the player"), "bank": gettext_noop("the bank")}
ROLE_LABELS = {"victory": gettext_noop("Victory"), "defeat": gettext_noop("Defeat"), "tie": gettext_noop("Tablas"),
               "caught_cheating": gettext_noop("caught cheating")}
CONTEST_LABELS = {
    "dardos": gettext_noop("darts"), "lanzamiento_cuchillos": gettext_noop("knife throwing"),
    "pulso": gettext_noop("arm wrestling"), "carrera": gettext_noop("a race"), "ajedrez": gettext_noop("chess"),
    "damas": gettext_noop("checkers"), "tiro_al_blanco": gettext_noop("target shooting"),
    "tiro_al_plato": gettext_noop("clay pigeons"),
}


def _lock_gamble(gamble: Gamble) -> tuple[GameSession, Gamble]:
    session = _lock(GameSession(pk=gamble.session_id))
    gamble = Gamble.objects.select_related("prueba").get(pk=gamble.pk)
    if gamble.status != Gamble.Status.OPEN:
        raise SessionError(E_GAMBLE_SETTLED)
    return session, gamble


def _gambler(gamble: Gamble) -> Character:
    return Character.objects.get(pk=int(next(iter(gamble.players))))


def _set_money(session: GameSession, by, character: Character, money: int) -> tuple[int, int]:
    from frontera.characters.services import character_changed_in_play

    locked, sheet = _lock_character(session, character)
    before = sheet.money
    _save_sheet(locked, dataclass_replace(sheet, money=int(money)))
    character_changed_in_play(character=locked, by=by)
    return before, int(money)


@transaction.atomic
def banca_begin(*, session: GameSession, by, character: Character, cheating: bool = False,
                request_key: str = "") -> Gamble:
    """A night at La banca siempre gana (FR-GMB-2, FR-GMB-6): the Mayor's deck with the dead man's
    hand, shuffled; the character bets the money they carry. RULING (docs/sessions.md): the banca's
    cards are turned face up for the table and go back afterwards; nothing moves in the session."""
    from frontera.rules import gambling as rules_gambling

    session = _lock(session)
    if request_key:
        existing = Gamble.objects.filter(session=session, request_key=request_key).first()
        if existing is not None:
            return existing
    locked, sheet = _lock_character(session, character)
    if sheet.money < 0:
        raise SessionError(E_NEGATIVE_MONEY % {"name": locked.name})
    state = _engine(session)
    deck = list(state.player_decks[MAYOR_SEAT]) + list(state.dead_mans_hand)
    if len(deck) <= len(state.dead_mans_hand):
        raise SessionError(E_NO_MAYOR_DECK)
    rng, seed = _rng()
    rng.shuffle(deck)
    try:
        banca = rules_gambling.banca_start(deck, sheet.money, cheating=cheating)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble = Gamble.objects.create(session=session, kind=Gamble.Kind.BANCA, players={str(locked.pk): {"cheat": cheating}},
                                   state=banca, request_key=request_key, created_by=by)
    log = _Log(session, by, [])
    log.decide(gettext_noop("%(who)s sits down at the banca with $%(money)s%(cheat)s: the Mayor's deck and the dead "
                            "man's hand are shuffled."), rules=["FR-GMB-2"] + (["FR-GMB-6"] if cheating else []),
               who=locked.name, money=sheet.money, seed=seed,
               cheat=msg(gettext_noop(", cheating")) if cheating else "")
    log.flush()
    return gamble


@transaction.atomic
def banca_deal(*, gamble: Gamble, by, rounds_seen: int | None = None) -> Gamble:
    """The Mayor turns one card of the banca (FR-GMB-2): ♠ scores for the player, anything else for
    the bank. ``rounds_seen`` (the rounds on the screen that sent it) makes a double submit a no-op."""
    from frontera.rules import gambling as rules_gambling

    session, gamble = _lock_gamble(gamble)
    if rounds_seen is not None and rounds_seen < len(gamble.state["rounds"]):
        return gamble
    if gamble.prueba is not None and gamble.prueba.status != Check.Status.RESOLVED:
        raise SessionError(E_STOP_OPEN)
    rng, seed = _rng()
    try:
        state, events = rules_gambling.banca_round(gamble.state, rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble.state = state
    gamble.save(update_fields=["state"])
    who = _gambler(gamble)
    log = _Log(session, by, [])
    for event in events:
        if event["type"] == "banca_reshuffled":
            log.decide(gettext_noop("The banca's deck ran out and is reshuffled."), rules=["FR-GMB-2"])
        else:
            log.decide(gettext_noop("Banca, round %(n)s: %(card)s, %(points)s point(s) for %(side)s (bank %(bank)s, "
                                    "%(who)s %(player)s)."), rules=["FR-GMB-2"], n=len(state["rounds"]),
                       card=Card.from_uid(event["card"]).label, points=event["points"], side=msg(SIDE_LABELS[event["side"]]),
                       bank=event["bank"], who=who.name, player=event["player"], seed=seed)
    if state["status"] == "left":
        _banca_settle(session, gamble, by, log)
    log.flush()
    return gamble


@transaction.atomic
def banca_try_stop(*, gamble: Gamble, by) -> Check:
    """The player tries to leave the banca (FR-GMB-3): a Cabeza (Astucia) check, Manos (Maña) for a
    cheat (FR-GMB-6), drawn and chosen like any check; its outcome decides (:func:`check_choose`)."""
    from frontera.rules import gambling as rules_gambling

    session, gamble = _lock_gamble(gamble)
    if gamble.prueba is not None and gamble.prueba.status != Check.Status.RESOLVED:
        return gamble.prueba  # a double submit
    try:
        rules_gambling.banca_stop(gamble.state, "1:2D")  # the engine's own preconditions (a round first...)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    cheating = next(iter(gamble.players.values()))["cheat"]
    trait, skill = rules_gambling.gambling_check(cheating)
    who = _gambler(gamble)
    prueba = _create_check(session=session, by=by, kind=Check.Kind.TRAIT, entries=[Entry(who, trait, skill)],
                           difficulty=None, label=gettext("banca: trying to leave"), request_key="")
    gamble.prueba = prueba
    gamble.save(update_fields=["prueba"])
    log = _Log(session, by, [])
    log.decide(gettext_noop("%(who)s tries to leave the banca: a %(what)s check."), rules=["FR-GMB-3"]
               + (["FR-GMB-6"] if cheating else []), who=who.name, what=_what(trait, skill))
    log.flush()
    return prueba


def _banca_after_stop(session: GameSession, prueba: Check, participant: Participant, log: _Log) -> None:
    """FR-GMB-3: the played card of the attempt to leave decides."""
    from frontera.rules import gambling as rules_gambling

    gamble = Gamble.objects.select_for_update().get(prueba=prueba, status=Gamble.Status.OPEN)
    try:
        state, events = rules_gambling.banca_stop(gamble.state, participant.played, suit=participant.declared or None)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble.state = state
    gamble.save(update_fields=["state"])
    result = {"playing": gettext_noop("keeps playing"), "last_round": gettext_noop("leaves after one more round"),
              "left": gettext_noop("leaves now")}[state["status"]]
    log.decide(gettext_noop("%(who)s's attempt to leave the banca: %(outcome)s, %(result)s%(dropped)s."),
               rules=["FR-GMB-3"], prueba=prueba, who=participant.character.name,
               outcome=msg(OUTCOME_LABELS[events[0]["outcome"]]), result=msg(result),
               dropped=msg(gettext_noop(" (as if the last round had not been played)")) if state["dropped_last_round"] else "")
    if state["status"] == "left":
        _banca_settle(session, gamble, prueba.created_by, log)


def _bet_exchange(session: GameSession, by, log: _Log, bettors: Sequence[tuple[str, str, str, str]]) -> None:
    """FR-EXCH-2 after a bet (Normal mode only) among any number of ``bettors``, each
    ``(key, engine player, role, name)`` in table order. The engine says which exchanges follow
    (:func:`frontera.rules.gambling.bet_exchanges`: every loser and caught cheat settles one with a
    winner, dealt by lot when there are several; all tied → random swaps, a ring from three decks
    on): a win waits for the winner's choice, a caught cheat for the rival's, ties are done at once."""
    from frontera.rules import exchanges as rules_exchanges
    from frontera.rules import gambling as rules_gambling

    if session.mode != GameSession.Mode.NORMAL or len(bettors) < 2:
        return
    names = {key: name for key, _seat, _role, name in bettors}
    seat_names = {}
    for _key, seat, _role, name in bettors:
        seat_names.setdefault(seat, name)
    rng, seed = _rng()
    try:
        plan = rules_gambling.bet_exchanges({k: r for k, _s, r, _n in bettors},
                                            {k: s for k, s, _r, _n in bettors}, rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    pairs = [x for x in plan if x["kind"] in ("bet", "cheat")]
    if len(bettors) > 2 and pairs:
        log.decide(gettext_noop("Every bettor staked one card: each loser settles with one winner, dealt by lot: "
                                "%(pairs)s."), rules=["FR-EXCH-2"], seed=seed,
                   pairs="; ".join(f"{names[x['winner']]} → {names[x['loser']]}" for x in pairs))
    for item in plan:
        if item["kind"] == "tie_ring":
            players = item["players"]
            before = _engine(session)
            try:
                state, events = rules_exchanges.tie_ring(before, players, rng)
            except RulesError as err:
                raise SessionError(rules_message(err)) from err
            _save_state(session, state)
            log.cards(events, before, state)
            log.decide(gettext_noop("Apuesta in Tablas among %(who)s: each takes a random card of the next one's "
                                    "deck."), rules=["FR-EXCH-2"], seed=seed,
                       who=", ".join(seat_names[p] for p in players))
            Exchange.objects.create(
                session=session, kind=Exchange.Kind.BET_TIE, first=players[0], second=players[1],
                first_name=seat_names[players[0]], second_name=seat_names[players[1]], seed=seed, created_by=by,
                status=Exchange.Status.DONE, chosen={"ring": players})
            continue
        a, b = item["first"], item["second"]
        if item["kind"] == "tie":
            _exchange_open(session, by, log, Exchange.Kind.BET_TIE, a, seat_names[a], b, seat_names[b])
            continue
        kind = Exchange.Kind.CHEAT if item["kind"] == "cheat" else Exchange.Kind.BET
        _exchange_open(session, by, log, kind, a, names[item["winner"]], b, names[item["loser"]])


def _banca_settle(session: GameSession, gamble: Gamble, by, log: _Log) -> None:
    """FR-GMB-4, FR-GMB-6: the money the player leaves with, then the bet's exchange with the house
    (the Mayor) (FR-EXCH-2). The engine pays whole dollars: the house keeps a fraction of a dollar
    (ruling, docs/rules/combat.md), which the log says."""
    from frontera.rules import gambling as rules_gambling

    result = rules_gambling.banca_result(gamble.state)
    who = _gambler(gamble)
    before, after = _set_money(session, by, who, result["money_after"])
    gamble.status = Gamble.Status.SETTLED
    gamble.state = {**gamble.state, "result": {k: (str(v) if not isinstance(v, (int, str)) else v)
                                               for k, v in result.items()}}
    gamble.save(update_fields=["status", "state"])
    log.decide(gettext_noop("The banca is settled: bank %(bank)s − %(who)s %(player)s = %(r)s → %(role)s; "
                            "$%(before)s → $%(after)s."),
               rules=["FR-GMB-4"] + (["FR-GMB-6"] if gamble.state["cheating"] else []), who=who.name,
               bank=result["bank"], player=result["player"], r=result["r"], role=msg(ROLE_LABELS[result["exchange"]]),
               before=before, after=after)
    if result["money_exact"] != result["money_after"]:
        log.decide(gettext_noop("The book's figure is $%(exact)s; the sheet keeps whole dollars and the house keeps "
                                "the fraction: $%(after)s."), rules=["FR-GMB-4"],
                   exact=f"{float(result['money_exact']):.2f}", after=after)
    if who.kind == Character.Kind.PROTAGONIST:
        house = {"victory": "defeat", "defeat": "victory", "tie": "tie",
                 "caught_cheating": "victory"}[result["exchange"]]
        _bet_exchange(session, by, log, [(str(who.pk), seat_key(who.pk), result["exchange"], who.name),
                                         ("house", MAYOR_SEAT, house, gettext_noop("the Mayor"))])


@transaction.atomic
def gamble_contest(*, session: GameSession, by, kind: str, characters: Sequence[Character], cheats: Iterable[int] = (),
                   contest: str = "", request_key: str = "") -> Gamble:
    """Azar (FR-GMB-5): opposed Cabeza (Astucia), Manos (Maña) for a cheat (FR-GMB-6), then each
    winner's and honest loser's dead man's hand for the money. Habilidad (FR-GMB-7): an opposed
    check of the contest's trait and skill. Both lead into the bet's exchange (FR-EXCH-2)."""
    from frontera.rules import gambling as rules_gambling

    session = _lock(session)
    if request_key:
        existing = Gamble.objects.filter(session=session, request_key=request_key).first()
        if existing is not None:
            return existing
    if len({c.pk for c in characters}) < 2:
        raise SessionError(E_GAMBLE_TWO)
    cheats = {int(pk) for pk in cheats}
    try:
        if kind == Gamble.Kind.AZAR:
            entries = [Entry(c, *rules_gambling.gambling_check(c.pk in cheats)) for c in characters]
        elif kind == Gamble.Kind.HABILIDAD:
            if not contest:
                raise SessionError(E_BAD_CONTEST)
            trait, skill = rules_gambling.habilidad_check(contest)
            entries = [Entry(c, trait, skill) for c in characters]
            cheats = set()
        else:
            raise SessionError(E_BAD_CONTEST)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    label = gettext("azar") if kind == Gamble.Kind.AZAR else gettext("habilidad: %(contest)s") % {
        "contest": gettext(CONTEST_LABELS.get(contest, contest))}
    prueba = _create_check(session=session, by=by, kind=Check.Kind.OPPOSED, entries=entries, difficulty=None,
                           label=label, request_key="")
    gamble = Gamble.objects.create(session=session, kind=kind, contest=contest, prueba=prueba,
                                   players={str(c.pk): {"cheat": c.pk in cheats} for c in characters},
                                   request_key=request_key, created_by=by)
    log = _Log(session, by, [])
    log.decide(gettext_noop("A game of %(kind)s: %(who)s; everyone draws and chooses in secret."),
               rules=["FR-GMB-5"] + (["FR-GMB-6"] if cheats else []) if kind == Gamble.Kind.AZAR else ["FR-GMB-7"],
               kind=label, who=", ".join(c.name for c in characters))
    log.flush()
    return gamble


def _contest_settle(session: GameSession, gamble: Gamble, prueba: Check, by) -> None:
    """After the reveal of an azar or habilidad contest: roles, money (azar), the exchange."""
    from frontera.rules import gambling as rules_gambling

    parts = {str(p.character_id): p for p in prueba.participants.select_related("character")}
    cheats = {k for k, v in gamble.players.items() if v.get("cheat")}
    plays = {k: (p.played, p.declared) if p.declared else p.played for k, p in parts.items() if p.played}
    log = _Log(session, by, [])
    rng, seed = _rng()
    if len(plays) >= 2:
        if gamble.kind == Gamble.Kind.AZAR:
            roles = rules_gambling.azar_contest(plays, cheats=cheats & set(plays))
        else:
            roles = rules_gambling.habilidad_contest(gamble.contest, plays)
    else:  # nobody, or only one, had a card to play
        roles = {k: "victory" for k in plays}
    for k in parts:
        roles.setdefault(k, "caught_cheating" if k in cheats else "defeat")
    if gamble.kind == Gamble.Kind.AZAR:
        state = _engine(session)
        money = {}
        for k, p in parts.items():
            money[k] = max(rules_characters.Character.from_json(p.character.sheet).money, 0)
        needs = rules_gambling.azar_needs_luck(roles)
        luck = {k: [Card.from_uid(u) for u in rules_session.draw_dead_mans_hand(state, rng, 1)] for k in needs}
        settled = rules_gambling.azar_settlement(money, roles, luck, cheats=cheats)
        for k, p in parts.items():
            before, after = _set_money(session, by, p.character, settled[k]["money_after"])
            drawn = " ".join(c.label for c in luck.get(k, []))
            log.decide(gettext_noop("Azar, %(who)s: %(role)s%(luck)s; $%(before)s → $%(after)s."),
                       rules=["FR-GMB-5"] + (["FR-GMB-6"] if k in cheats else []) + (["FR-CHK-6"] if drawn else []),
                       prueba=prueba, who=p.character.name, role=msg(ROLE_LABELS[roles[k]]),
                       luck=f", {drawn}" if drawn else "", before=before, after=after, seed=seed)
    else:
        for k, p in parts.items():
            log.decide(gettext_noop("Habilidad, %(who)s: %(role)s."), rules=["FR-GMB-7"], prueba=prueba,
                       who=p.character.name, role=msg(ROLE_LABELS[roles[k]]))
    _bet_exchange(session, by, log, [(k, p.seat, roles[k], p.character.name) for k, p in parts.items()])
    gamble.status = Gamble.Status.SETTLED
    gamble.state = {"roles": roles}
    gamble.save(update_fields=["status", "state"])
    log.flush()


# --- medical attention (FR-CHK-5) and the drinking duel (FR-SOB-2) ----------------------------------

E_NOT_WOUNDED = _("%(name)s is not wounded: medical attention has nothing to speed.")
DURATION_LABELS = {  # plural forms by "n" (frontera.rules.errors.ngettext, rendered by frontera.messages)
    "turn": ngettext("%(n)s turn", "%(n)s turns", "n"), "minute": ngettext("%(n)s minute", "%(n)s minutes", "n"),
    "hour": ngettext("%(n)s hour", "%(n)s hours", "n"), "day": ngettext("%(n)s day", "%(n)s days", "n"),
    "month": ngettext("%(n)s month", "%(n)s months", "n"),
}


def _duration(duration) -> dict:
    return msg(DURATION_LABELS[duration.unit], n=duration.amount) if duration else msg(gettext_noop("never"))


@transaction.atomic
def medical_request(*, session: GameSession, by, healer: Character, patient: Character,
                    request_key: str = "") -> Treatment:
    """Medical attention (FR-CHK-5): the healer's Cabeza (Saber) check, +1 card with a healer's kit;
    on someone else only an Éxito counts, on oneself difficulty 8. Drawn and chosen like any check
    (on the healer's phone); the played card decides whether the patient's recovery is sped."""
    from frontera.rules import checks as rules_checks_mod

    session = _lock(session)
    if request_key:
        existing = Treatment.objects.filter(session=session, prueba__request_key=request_key).first()
        if existing is not None:
            return existing
    locked, sheet = _lock_character(session, patient)
    if sheet.health == 0:
        raise SessionError(E_NOT_WOUNDED % {"name": locked.name})
    healer_sheet = rules_characters.Character.from_json(Character.objects.get(pk=healer.pk).sheet)
    kit = rules_characters.equipment_bonus(healer_sheet, "atencion_medica", catalogue=campaign_catalogue(session.campaign))
    on_self = healer.pk == patient.pk
    prueba = _create_check(
        session=session, by=by, kind=Check.Kind.TRAIT, entries=[Entry(healer, "cabeza", "saber", kit)],
        difficulty=rules_checks_mod.SELF_MEDICAL_DIFFICULTY if on_self else None,
        label=gettext("medical attention: %(patient)s") % {"patient": locked.name}, request_key=request_key,
    )
    treatment = Treatment.objects.create(session=session, prueba=prueba, healer=healer, patient=locked)
    log = _Log(session, by, [])
    log.decide(gettext_noop("%(healer)s gives medical attention to %(patient)s: a Cabeza (Saber) check%(kit)s%(oneself)s."),
               rules=["FR-CHK-5"], prueba=prueba, healer=healer.name, patient=locked.name,
               kit=msg(gettext_noop(", +1 card for the healer's kit")) if kit else "",
               oneself=msg(gettext_noop(", on oneself: difficulty 8")) if on_self else "")
    log.flush()
    if prueba.status == Check.Status.RESOLVED:  # no card to draw: nothing sped
        _treatment_result(session, treatment, None, _Log(session, by, []), flush=True)
    return treatment


def _treatment_result(session: GameSession, treatment: Treatment, card, log: _Log, *, flush: bool = False) -> None:
    """FR-CHK-5: the played card speeds the patient's recovery, or does nothing (FR-HLT-2 times)."""
    from frontera.rules.checks import medical_attention
    from frontera.rules.tracks import health_recovery_time

    speeds = medical_attention(card, on_self=treatment.healer_id == treatment.patient_id)
    treatment.speeds = speeds
    treatment.save(update_fields=["speeds"])
    patient = Character.objects.get(pk=treatment.patient_id)
    level = rules_characters.Character.from_json(patient.sheet).health
    if speeds and level in (-1, -2, -3):
        session.tallies.setdefault("medical", {})[str(patient.pk)] = True
        session.save(update_fields=["tallies"])
        log.decide(gettext_noop("Medical attention works: %(patient)s recovers a level of Salud in %(medical)s instead "
                                "of %(rest)s with rest. It restores nothing by itself."),
                   rules=["FR-CHK-5", "FR-HLT-2"], prueba=treatment.prueba, patient=patient.name,
                   medical=_duration(health_recovery_time(level, "medical")),
                   rest=_duration(health_recovery_time(level, "rest")))
    elif speeds and level == DEATH_LEVEL and _death_roll_pending(session, patient):
        # FR-HLT-3: only attention given to the dead character, before their death roll, wins the
        # second card; the FR-HLT-2 flag above ("medical") never does (docs/sessions.md ruling 2)
        session.tallies.setdefault(DEATH_CARE, {})[str(patient.pk)] = True
        session.save(update_fields=["tallies"])
        log.decide(gettext_noop("Medical attention works for %(patient)s (FR-HLT-3: the death roll draws 2 and keeps "
                                "the better)."), rules=["FR-CHK-5", "FR-HLT-3"], prueba=treatment.prueba,
                   patient=patient.name)
    else:
        log.decide(gettext_noop("Medical attention does nothing for %(patient)s."), rules=["FR-CHK-5"],
                   prueba=treatment.prueba, patient=patient.name)
    if flush:
        log.flush()


@transaction.atomic
def drinking_duel_start(*, session: GameSession, by, characters: Sequence[Character], request_key: str = "") -> Gamble:
    """A drinking duel (FR-SOB-2, FR-GMB-7): rounds in which everyone drinks once; the first to reach
    En coma loses; then the bet's exchange (FR-EXCH-2)."""
    from frontera.rules import tracks as rules_tracks

    session = _lock(session)
    if request_key:
        existing = Gamble.objects.filter(session=session, request_key=request_key).first()
        if existing is not None:
            return existing
    drinkers = {}
    for character in characters:
        locked, sheet = _lock_character(session, character)
        drinkers[str(locked.pk)] = {"aguante": sheet.aguante, "sobriety": sheet.sobriety, "kind": locked.kind}
    try:
        state = rules_tracks.drinking_duel(drinkers, mode=session.mode)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble = Gamble.objects.create(session=session, kind=Gamble.Kind.DRINKING_DUEL, state=state,
                                   players={k: {"cheat": False} for k in drinkers}, request_key=request_key,
                                   created_by=by)
    log = _Log(session, by, [])
    log.decide(gettext_noop("A duelo de bebida: %(who)s. Everyone drinks once a round; the first in a coma loses."),
               rules=["FR-SOB-2", "FR-GMB-7"], who=", ".join(c.name for c in characters))
    log.flush()
    return gamble


@transaction.atomic
def drinking_duel_drink(*, gamble: Gamble, by, character: Character, round_seen: int | None = None) -> Gamble:
    """``character`` drinks one more in the duel (FR-SOB-2): from ceil(Aguante / 2) drinks a dead
    man's hand (2 cards, the better; 1 beyond Aguante) keeps or lowers Sobriedad; Borracho and En coma
    bring their exchanges (FR-SOB-1). Drinking twice in the same round (a double submit) is a no-op."""
    from frontera.rules import tracks as rules_tracks

    session, gamble = _lock_gamble(gamble)
    key = str(character.pk)
    state = gamble.state
    if key in state.get("drank", []) and round_seen == state.get("round"):
        return gamble
    locked, sheet = _lock_character(session, character)
    rng, seed = _rng()
    try:
        count = rules_tracks.duel_next_dmh_cards(state, key)
        cards = [Card.from_uid(u) for u in rules_session.draw_dead_mans_hand(_engine(session), rng, count)] if count else None
        state, events = rules_tracks.duel_drink(state, key, cards)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble.state = state
    drink_event = events[0]
    before, after = drink_event["sobriety"]["from"], drink_event["sobriety"]["to"]
    if after != before:
        sheet = rules_characters.lose_levels(sheet, "sobriety", before - after)
        _save_sheet(locked, sheet)
    log = _Log(session, by, [])
    log.decide(gettext_noop("Duelo de bebida, drink %(drinks)s for %(who)s (Aguante %(aguante)s)%(dmh)s: %(before)s → "
                            "%(after)s."), rules=["FR-SOB-2"], who=locked.name, drinks=drink_event["drinks"],
               aguante=sheet.aguante, dmh=(" · " + " ".join(c.label for c in cards)) if cards else "",
               before=_level_name("sobriety", before), after=_level_name("sobriety", after), seed=seed)
    _drunk_exchanges(session, log, locked, drink_event["due"], rng)
    over = [e for e in events if e["type"] == "duel_over"]
    if over:
        roles = {k: {"win": "victory", "loss": "defeat", "tie": "tie"}[v] for k, v in over[0]["result"].items()}
        names = dict(Character.objects.filter(pk__in=[int(k) for k in roles]).values_list("pk", "name"))
        log.decide(gettext_noop("The duelo de bebida is over: %(result)s."), rules=["FR-SOB-2"],
                   result=", ".join(f"{names[int(k)]} {gettext(ROLE_LABELS[v])}" for k, v in roles.items()))
        gamble.status = Gamble.Status.SETTLED
        kinds = dict(Character.objects.filter(pk__in=[int(k) for k in roles]).values_list("pk", "kind"))
        _bet_exchange(session, by, log, [
            (k, seat_key(int(k)) if kinds[int(k)] == Character.Kind.PROTAGONIST else MAYOR_SEAT, role, names[int(k)])
            for k, role in roles.items()])
    gamble.save(update_fields=["state", "status"])
    log.flush()
    return gamble


# --- pistol duel (FR-CMB-15, FR-EXCH-3) -------------------------------------------------------------
#
# A pistol duel is an ordinary opposed check (Check/Participant: each duellist draws on their own
# phone, or the Mayor for NPCs and players without one, with the odds shown; chooses in secret; one
# reveal, FR-OPP-1..5) tied to a PistolDuel row that names the weapons. After the reveal
# (_refresh_check calls _duel_after_reveal) the engine's pistol_duel decides the hits: the loser
# takes one hit with full damage, nobody absorbs anything; Tablas hits both; nobody with the suit or
# colour of Manos (FR-OPP-5) means nobody fires and they draw again. Then the FR-EXCH-3 exchange opens.

E_DUEL_TWO = _("A pistol duel is between two different characters.")
E_DUEL_NO_WEAPON = _("Name the ranged weapon %(name)s uses in the duel.")
E_DUEL_NOT_RANGED = _("%(name)s carries no ranged weapon called %(weapon)s.")
DUEL_TRAIT, (DUEL_SKILL,) = rules_combat.TECHNIQUE_CHECK[rules_combat.DISPARO_RAPIDO]  # Manos (Disparo rápido)


def _weapon_label(key: str, catalogue: dict) -> str:
    try:
        return rules_characters.item(key, catalogue=catalogue)["name"]
    except RulesError:
        return key


def _duel_gun(character: Character, key: str, catalogue: dict) -> dict:
    """The ranged weapon ``key`` the character carries (the combat engine's shape), or a refusal."""
    if not key:
        raise SessionError(E_DUEL_NO_WEAPON % {"name": character.name})
    sheet = rules_characters.Character.from_json(character.sheet)
    for gun in _weapons(sheet, catalogue)[0]:
        if gun["name"] == key and gun["kind"] == "ranged":
            return gun
    raise SessionError(E_DUEL_NOT_RANGED % {"name": character.name, "weapon": _weapon_label(key, catalogue)})


def _duel_damage(gun: dict) -> int:
    """Damage a hit of this gun deals in a duel: Disparo rápido's base + the weapon (FR-CMB-7)."""
    return rules_combat.damage_dealt({"skills": []}, rules_combat.DISPARO_RAPIDO, gun)


@transaction.atomic
def pistol_duel_start(*, session: GameSession, by, first: Character, first_weapon: str, second: Character,
                      second_weapon: str, request_key: str = "") -> PistolDuel:
    """The Mayor calls a pistol duel between two characters at the session (protagonists present,
    NPCs, minions), each with a ranged weapon they carry (FR-CMB-15). It opens an opposed Manos
    (Disparo rápido) check (cards per FR-CHK-1: trait + 2 with the skill + equipment − tracks);
    the rest happens when both have chosen (:func:`_duel_after_reveal`). A repeated
    ``request_key`` returns the duel already called."""
    session = _lock(session)
    if request_key:
        existing = PistolDuel.objects.filter(session=session, request_key=request_key).first()
        if existing is not None:
            return existing
    if first.pk == second.pk:
        raise SessionError(E_DUEL_TWO)
    fresh = Character.objects.in_bulk([first.pk, second.pk])
    first, second = fresh[first.pk], fresh[second.pk]
    seats = set(_engine(session).players)
    catalogue = campaign_catalogue(session.campaign)
    guns = {}
    for character, key in ((first, first_weapon), (second, second_weapon)):
        _seat_for(session, character, seats)  # of this campaign, and at the session if a protagonist
        guns[character.pk] = _duel_gun(character, key, catalogue)
    duel = PistolDuel.objects.create(session=session, first=first, second=second, first_weapon=first_weapon,
                                     second_weapon=second_weapon, request_key=request_key, created_by=by,
                                     result={"guns": {combat_key(pk): gun for pk, gun in guns.items()}})
    log = _Log(session, by, [])
    log.decide(gettext_noop("Pistol duel: %(a)s (%(wa)s, damage %(da)s) against %(b)s (%(wb)s, damage %(db)s). "
                            "Opposed Manos (Disparo rápido), no absorption; each chooses in secret, one reveal."),
               rules=["FR-CMB-15", "FR-OPP-1"],
               a=first.name, wa=_weapon_label(first_weapon, catalogue), da=_duel_damage(guns[first.pk]),
               b=second.name, wb=_weapon_label(second_weapon, catalogue), db=_duel_damage(guns[second.pk]))
    log.flush()
    _duel_round(session, duel, by)
    return duel


def _duel_round(session: GameSession, duel, by) -> None:
    """One opposed check of the duel (again after FR-OPP-5's Tablas); settled at once if nobody
    draws a card (everyone's automatic failure reveals it on creation)."""
    catalogue = campaign_catalogue(session.campaign)
    first, second = duel.first, duel.second
    label = gettext("Pistol duel, round %(n)s: %(a)s (%(wa)s) vs %(b)s (%(wb)s)") % {
        "n": duel.rounds, "a": first.name, "wa": _weapon_label(duel.first_weapon, catalogue),
        "b": second.name, "wb": _weapon_label(duel.second_weapon, catalogue)}
    entries = [Entry(first, DUEL_TRAIT, DUEL_SKILL), Entry(second, DUEL_TRAIT, DUEL_SKILL)]
    prueba = _create_check(session=session, by=by, kind=Check.Kind.OPPOSED, entries=entries, difficulty=None,
                           label=label, request_key="")
    duel.prueba = prueba
    duel.save(update_fields=["prueba", "rounds"])
    if prueba.status == Check.Status.RESOLVED:
        _duel_settle(session, duel, prueba, by)


def _duel_after_reveal(session: GameSession, prueba: Check, by) -> None:
    """The hook of :func:`_refresh_check`: an opposed check just revealed may be a duel's round."""
    duel = PistolDuel.objects.filter(prueba=prueba, status=PistolDuel.Status.OPEN).select_related(
        "first", "second").first()
    if duel is not None:
        _duel_settle(session, duel, prueba, by)


def _duel_verdict(specs: list[dict], plays: dict, weapons: dict) -> dict:
    """The engine's :func:`~frontera.rules.combat.pistol_duel` when both played a card. A duellist
    with no card to play (FR-CHK-1 ruling, FR-MODE-8) has neither suit nor colour (FR-OPP-2..5):
    the same verdict is built from the opposed outcome and the same damage arithmetic."""
    if len(plays) == len(specs):
        return rules_combat.pistol_duel(specs, plays, weapons=weapons)
    entries = {}
    for spec in specs:
        play = plays.get(spec["key"])
        card = None
        if play is not None:
            uid, suit = play if isinstance(play, tuple) else (play, None)
            card = Card.from_uid(uid).declare(suit) if suit else Card.from_uid(uid)
        entries[spec["key"]] = (DUEL_TRAIT, card)
    outcome = rules_checks.opposed_outcome(entries)
    redraw = rules_checks.opposed_needs_another_check(entries)
    result = {"outcome": outcome, "redraw": redraw, "damage": {}, "health_after": {}, "exchange": {},
              "cards": {k: c.uid for k, (_t, c) in entries.items() if c is not None}}
    for spec in specs:
        key = spec["key"]
        rival = next(s for s in specs if s["key"] != key)
        gun = next(w for w in rival["weapons"] if w["name"] == weapons[rival["key"]])
        hit = not redraw and outcome[key] in ("loss", "tie")
        damage = rules_combat.damage_dealt(rival, rules_combat.DISPARO_RAPIDO, gun) if hit else 0
        result["damage"][key] = damage
        result["health_after"][key] = max(DEATH_LEVEL, spec["health"] - damage)
        result["exchange"][key] = None if redraw else rules_combat.DUEL_EXCHANGE[outcome[key]]
    return result


def _duel_settle(session: GameSession, duel, prueba: Check, by) -> None:
    """FR-CMB-15 after the reveal: full-damage hits (no absorption) on the sheets, explained in the
    feed; FR-OPP-5 → another round; then the FR-EXCH-3 exchange (Normal mode, two different decks)."""
    from frontera.rules import exchanges as rules_exchanges

    session = _lock(GameSession(pk=session.pk))  # the cards as the reveal left them
    catalogue = campaign_catalogue(session.campaign)
    parts = {p.character_id: p for p in prueba.participants.all()}
    duellists = [(duel.first, duel.first_weapon, "a"), (duel.second, duel.second_weapon, "b")]
    rows, specs, plays, weapons = {}, [], {}, {}
    guns = duel.result.get("guns", {})
    for character, weapon_key, side in duellists:
        row, sheet = _lock_character(session, character)
        key = combat_key(row.pk)
        rows[key] = (row, sheet, parts[row.pk].seat)
        spec = _combatant_spec(Fighter(row, side), catalogue)
        if key in guns and all(w["name"] != weapon_key for w in spec["weapons"]):
            spec["weapons"].append(guns[key])  # the gun named at the call, even if the sheet dropped it since
        specs.append(spec)
        weapons[key] = weapon_key
        part = parts[row.pk]
        if part.played:
            plays[key] = (part.played, part.declared) if part.declared else part.played
    try:
        result = _duel_verdict(specs, plays, weapons)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    log = _Log(session, by, [])
    names = {key: row.name for key, (row, _sheet, _seat) in rows.items()}
    (ka, kb) = (specs[0]["key"], specs[1]["key"])
    if result["redraw"]:
        if not plays:  # nobody had a card: another round would be the same
            duel.status, duel.result = PistolDuel.Status.SETTLED, {**result, "void": True}
            duel.save(update_fields=["status", "result"])
            log.decide(gettext_noop("Pistol duel: neither %(a)s nor %(b)s has a card to play; nobody fires and "
                                    "the duel ends."), rules=["FR-CMB-15", "FR-CHK-1"], prueba=prueba,
                       a=names[ka], b=names[kb])
            log.flush()
            return
        log.decide(gettext_noop("Pistol duel: nobody played the suit or colour of Manos, so nobody fires (Tablas "
                                "without a hit); %(a)s and %(b)s draw again."), rules=["FR-CMB-15", "FR-OPP-5"],
                   prueba=prueba, a=names[ka], b=names[kb])
        log.flush()
        duel.rounds += 1
        _duel_round(session, duel, by)
        return
    outcome = result["outcome"]
    if outcome[ka] == "tie":
        log.decide(gettext_noop("Pistol duel in Tablas: %(a)s and %(b)s both take a hit with full damage."),
                   rules=["FR-CMB-15"], prueba=prueba, a=names[ka], b=names[kb])
    else:
        winner, loser = (ka, kb) if outcome[ka] == "win" else (kb, ka)
        log.decide(gettext_noop("Pistol duel: %(winner)s wins and takes no hit; %(loser)s takes one hit with full "
                                "damage."), rules=["FR-CMB-15"], prueba=prueba, winner=names[winner],
                   loser=names[loser])
    for spec in specs:
        key = spec["key"]
        damage = result["damage"][key]
        if not damage:
            continue
        row, sheet, _seat = rows[key]
        rival = kb if key == ka else ka
        gun = next(w for w in next(s for s in specs if s["key"] == rival)["weapons"] if w["name"] == weapons[rival])
        before = sheet.health
        sheet = dataclass_replace(sheet, health=result["health_after"][key])
        _save_sheet(row, sheet)
        log.decide(gettext_noop("%(who)s is hit by %(shooter)s's %(weapon)s: damage %(damage)s (%(base)s base + "
                                "%(weapon_damage)s weapon) in full, no absorption by Aguante %(aguante)s. Salud "
                                "%(before)s → %(after)s."),
                   rules=["FR-CMB-15", "FR-CMB-7", "FR-HLT-1"], prueba=prueba, shooter=names[rival],
                   weapon=_weapon_label(weapons[rival], catalogue), who=row.name, damage=damage,
                   base=damage - gun["damage"], weapon_damage=gun["damage"], aguante=sheet.aguante,
                   before=_level_name("health", before), after=_level_name("health", sheet.health))
        if sheet.health == DEATH_LEVEL and before != DEATH_LEVEL:
            log.decide(gettext_noop("%(who)s is Muerto: the Mayor draws the dead man's hand for the death roll."),
                       rules=["FR-HLT-3"], prueba=prueba, who=row.name)
        _sync_combat(session, row, sheet, log)
    exchange = _duel_exchange(session, by, log, result, rows, names, rules_exchanges)
    duel.status, duel.exchange = PistolDuel.Status.SETTLED, exchange
    duel.result = {**result, "weapons": weapons, "guns": guns}
    duel.save(update_fields=["status", "exchange", "result"])
    log.flush()


def _duel_exchange(session: GameSession, by, log: _Log, result: dict, rows: dict, names: dict, rules_exchanges):
    """FR-EXCH-3 through the exchange services: the winner may take up to 2 cards of the loser's
    deck and gives back as many (a choice on the winner's phone); Tablas swaps 2 random cards each
    way at once. Normal mode only, and only between two different decks (an NPC's are the Mayor's)."""
    if session.mode != GameSession.Mode.NORMAL:
        log.decide(gettext_noop("No card exchange after the duel: exchanges happen in Normal mode only."),
                   rules=["FR-EXCH-3"])
        return None
    (ka, (_ra, _sa, seat_a)), (kb, (_rb, _sb, seat_b)) = rows.items()
    if seat_a == seat_b:
        log.decide(gettext_noop("No card exchange after the duel: both duellists play with the Mayor's cards."),
                   rules=["FR-EXCH-3"])
        return None
    roles = result["exchange"]
    if roles[ka] == "tie":
        kind, first, second = Exchange.Kind.DUEL_TIE, ka, kb
    else:
        kind = Exchange.Kind.DUEL
        first, second = (ka, kb) if roles[ka] == "victory" else (kb, ka)
    seats = {ka: seat_a, kb: seat_b}
    try:
        state = _engine(session)
        rules_exchanges.exchange_options(state, seats[first])
        rules_exchanges.exchange_options(state, seats[second])
        return _exchange_open(session, by, log, kind, seats[first], names[first], seats[second], names[second])
    except RulesError as err:
        log.decide(gettext_noop("No card exchange after the duel: %(reason)s"), rules=["FR-EXCH-3"],
                   reason=msg(err.template, **err.params))
    except SessionError as err:
        log.decide(gettext_noop("No card exchange after the duel: %(reason)s"), rules=["FR-EXCH-3"], reason=str(err))
    return None
