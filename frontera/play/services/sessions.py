"""Starting a session, joining late, phase 2 and ending the session.

Rules: FR-MODE-1..3 (the three modes and what each deals), FR-MODE-5..7 and FR-MODE-9..11 (the
pile, the Tesoro, phase 2), FR-CARD-4 and FR-CARD-5 (decks and jokers), FR-MODE-2 (the dead man's
hand at the start).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date as date_cls

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from frontera.campaigns.models import Campaign
from frontera.characters.models import Character
from frontera.play.models import MAYOR_SEAT, Check, CombatRound, Exchange, Gamble, GameSession, Seat, seat_key
from frontera.play.services.core import (
    E_NOT_PROTAGONIST,
    N_DECKS,
    N_JOKERS,
    EventLog,
    SessionError,
    first_submission,
    load_state,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_state,
)
from frontera.rules import session as rules_session
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker

E_ALREADY_PRESENT = _("%(name)s is already at this session.")
E_BAD_JOIN = _("Choose how the late joiner gets cards: a new deck, or cards from the other players.")
MODE_LABELS = {
    "normal": gettext_noop("Normal"),
    "sin_gestion": gettext_noop("Sin gestión"),
    "con_desgaste": gettext_noop("Con desgaste"),
}


# feed lines with plural forms: marked where the module loads, so that a process knows their forms
# before it logs one (a server just started read "2 carta")
N_LATE_JOIN = ngettext("%(who)s joins late and takes %(count)s random card from every other deck.",
                       "%(who)s joins late and takes %(count)s random cards from every other deck.")


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
    request_key: str = "",
) -> GameSession:
    """Start session N+1 of ``campaign`` with the protagonists present (FR-MODE-1, 2, 3, 6, 10, 11,
    FR-CARD-4, 5): the engine deals 8 face-down cards to every player, the Mayor included, and sets
    the dead man's hand aside; ``skip_phase_1`` deals every card and starts phase 2. A repeated
    ``request_key`` (a double click on "start") returns the session already started."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)  # numbers are per campaign
    if request_key and (started := GameSession.objects.filter(campaign=campaign, request_key=request_key).first()):
        return started
    present = list(characters)
    for character in present:
        if character.campaign_id != campaign.pk or character.kind != Character.Kind.PROTAGONIST:
            raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    rng, seed = new_rng()
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
        decks=state.decks, jokers=jokers, state=state.to_json(), created_by=by, request_key=request_key,
    )
    Seat.objects.bulk_create([Seat(session=session, character=c) for c in present])
    log = EventLog(session, by, [])
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
    _tell_the_last_session(campaign, session, by)
    return session


def _tell_the_last_session(campaign: Campaign, session: GameSession, by) -> None:
    """The campaign's previous session, if it has ended, says in its log that this one has started:
    the pages still open on it (phones left there after the evening's first part) are pushed, and
    show the way to the new one (a walk through an evening found them stale on the ended one)."""
    previous = GameSession.objects.filter(campaign=campaign, number__lt=session.number).order_by("-number").first()
    if previous is None or previous.status != GameSession.Status.ENDED:
        return
    log = EventLog(previous, by, [])
    log.decide(gettext_noop("Session %(number)s has started."), number=session.number)
    log.flush()


@transaction.atomic
def session_join(
    *, session: GameSession, by, character: Character, method: str, per_player: int = 1,
    return_to_phase_1: bool = False,
) -> Seat:
    """A late joiner (FR-MODE-9): ``method`` ``"new_deck"`` (8 random cards of a new deck; the
    session may return to phase 1) or ``"from_players"`` (1-3 random cards from every other deck)."""
    session = lock_session(session)
    if character.campaign_id != session.campaign_id or character.kind != Character.Kind.PROTAGONIST:
        raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    if Seat.objects.filter(session=session, character=character).exists():
        raise SessionError(E_ALREADY_PRESENT % {"name": character.name})
    before = load_state(session)
    rng, seed = new_rng()
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
    save_state(session, state)
    seat = Seat.objects.create(session=session, character=character, joined_late=True)
    log = EventLog(session, by, [])
    log.cards(events, before, state)
    if method == "new_deck":
        log.decide(gettext_noop("%(who)s joins late with a new deck: 8 random cards of it go to their deck."),
                   rules=["FR-MODE-9"], who=character.name, seed=seed)
        if before.phase == 2 and state.phase == 1:
            log.decide(gettext_noop("The rest of the new deck is the pile: the session returns to phase 1."),
                       rules=["FR-MODE-9"])
    else:
        log.decide(N_LATE_JOIN,
                   rules=["FR-MODE-9"], who=character.name, count=per_player, seed=seed)
    log.flush()
    return seat


@transaction.atomic
def phase_switch(*, session: GameSession, by, request_key: str = "") -> GameSession:
    """The Mayor ends phase 1 (FR-MODE-5): the pile and the shared discard go to the Tesoro. A
    repeated ``request_key`` (a double click on the confirmation) switches nothing more."""
    session = lock_session(session)
    if not first_submission(session, request_key):
        return session
    before = load_state(session)
    try:
        state, events = rules_session.switch_to_phase_2(before)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    save_state(session, state)
    log = EventLog(session, by, [])
    log.cards(events, before, state)
    log.decide(gettext_noop("The Mayor ends phase 1: the pile and the shared discard go to the Tesoro. "
                            "From now on everyone draws from their own deck."), rules=["FR-MODE-5", "FR-MODE-7"])
    log.flush()
    return session


E_SESSION_BUSY = _("Finish or cancel what is still open before ending the session: %(what)s.")


def still_open(session: GameSession) -> list[str]:
    """What keeps the session from ending, in the user's language (empty: it may end). Read by the
    confirmation page before the Mayor ends the session, and by :func:`session_end` under its lock."""
    return [
        label
        for label, is_open in (
            (gettext("a check"), session.checks.exclude(status=Check.Status.RESOLVED).exists()),
            (gettext("a fight"), session.combats.filter(status=CombatRound.Status.OPEN).exists()),
            (gettext("an exchange"), session.exchanges.filter(status=Exchange.Status.PENDING).exists()),
            (gettext("a gambling game"), session.gambles.filter(status=Gamble.Status.OPEN).exists()),
        )
        if is_open
    ]


@transaction.atomic
def session_end(*, session: GameSession, by) -> GameSession:
    """The Mayor ends the session. Refused while a check, a fight, an exchange or a gambling game is
    still open; the cards stay where they are, so the session's history stays readable. Ending an
    ended session again changes nothing (a double submit)."""
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    if locked.status == GameSession.Status.ENDED:
        return locked
    open_things = still_open(locked)
    if open_things:
        raise SessionError(E_SESSION_BUSY % {"what": ", ".join(open_things)})
    locked.status = GameSession.Status.ENDED
    locked.save(update_fields=["status"])
    log = EventLog(locked, by, [])
    log.decide(gettext_noop("The Mayor ends session %(number)s."), number=locked.number)
    log.flush()
    return locked
