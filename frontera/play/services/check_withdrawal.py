"""Withdrawing a check the Mayor called by mistake, before it resolves (FR-MODE-4, 7, 10, 11): its
drawn cards go back where unchosen cards go, unrevealed; a healer's check takes its medical attention
with it."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from frontera.messages import names as listed  # a list of names, joined the reader's way
from frontera.play.models import CONTEST_KINDS, Check, Gamble, PistolDuel
from frontera.play.services.checks import E_CHECK_RESOLVED
from frontera.play.services.core import (
    CHECKS,
    FEED,
    N_CARDS,
    EventLog,
    SessionError,
    load_state,
    lock_session,
    msg,
    rules_message,
    save_state,
)
from frontera.rules import session as rules_session
from frontera.rules.errors import RulesError

E_NOT_WITHDRAWABLE = _("This check belongs to %(what)s: call that off instead.")
GAME_CALLED_OFF = gettext_noop("The Mayor calls off the %(game)s with its check: nothing is paid or lost.")
GAME_NAMES = {"azar": gettext_noop("azar"), "habilidad": gettext_noop("habilidad")}
GAME_RULES = {"azar": "FR-GMB-5", "habilidad": "FR-GMB-7"}
DUEL_CALLED_OFF = gettext_noop("The Mayor calls off the pistol duel with its check: nobody fires, nobody is hit.")


@transaction.atomic
def check_withdraw(*, prueba: Check, by) -> Check:
    """The Mayor withdraws a check he called by mistake, before it resolves. Every card drawn for
    it goes back where unchosen cards go, by the rules' own movement (FR-MODE-4, 7, 10, 11), a
    face-down choice of an opposed check included: nothing is revealed. The check closes with no
    outcome and the log says it was withdrawn. A healer's check takes its medical attention with it
    (a walk through an evening found a wrong healer or patient stuck: nothing could call it off). A
    resolved check is refused, and so is one another action waits on (a banca's attempt to leave:
    call that off instead); an azar or habilidad contest's check calls its game off with it, and a
    pistol duel's round its duel (a walk found a duel started with one click that nothing could call
    off). Withdrawing twice changes nothing."""
    session = lock_session(prueba.session)
    prueba = Check.objects.select_for_update().get(pk=prueba.pk, session=session)
    if prueba.withdrawn:
        return prueba
    if prueba.status == Check.Status.RESOLVED:
        raise SessionError(E_CHECK_RESOLVED)
    if prueba.gambles.exclude(kind__in=CONTEST_KINDS).exists():
        raise SessionError(E_NOT_WITHDRAWABLE % {"what": gettext("a gambling game")})
    log = EventLog(session, by, [])
    withdraw_locked(session, prueba, log)
    # an azar or habilidad contest is this check: the game is called off with it, nothing paid (a
    # walk found one started with a wrong cheat that only playing it through could close)
    for gamble in prueba.gambles.select_for_update().filter(status=Gamble.Status.OPEN, kind__in=CONTEST_KINDS):
        gamble.status, gamble.state = Gamble.Status.SETTLED, {**gamble.state, "withdrawn": True}
        gamble.save(update_fields=["status", "state"])
        log.decide(GAME_CALLED_OFF, rules=[GAME_RULES[gamble.kind]], game=msg(GAME_NAMES[gamble.kind]))
        log.regions = None  # every region: the game leaves the table
    for duel in prueba.pistol_duels.select_for_update().filter(status=PistolDuel.Status.OPEN):
        duel.status, duel.result = PistolDuel.Status.SETTLED, {**duel.result, "withdrawn": True}
        duel.save(update_fields=["status", "result"])
        log.decide(DUEL_CALLED_OFF, rules=["FR-CMB-15"])
        log.regions = None
    log.flush()
    return prueba


def withdraw_locked(session, prueba: Check, log: EventLog) -> None:
    """Withdraw ``prueba`` (locked, with its session, by the caller, who flushes ``log``): what
    :func:`check_withdraw` does once it may, and what calling off the action that owns a check does
    with it (a banca's open attempt to leave)."""
    before = load_state(session)
    state, events = before, []
    participants = list(prueba.participants.select_related("character").select_for_update())
    try:
        for participant in participants:
            if participant.engine_check in state.pending.get(participant.seat, {}):
                state, more = rules_session.settle_check(state, participant.seat, participant.engine_check,
                                                         "withdrawn")
                events += more
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    for participant in participants:
        participant.status, participant.outcome = Check.Status.RESOLVED, ""
        participant.save(update_fields=["status", "outcome"])
    prueba.status, prueba.withdrawn = Check.Status.RESOLVED, True
    prueba.save(update_fields=["status", "withdrawn"])
    prueba.treatments.all().delete()  # the medical attention is called off with its check
    save_state(session, state)
    log.cards(events, before, state, prueba=prueba)
    log.decide(gettext_noop("The Mayor withdraws the check (%(what)s): %(cards)s back where unchosen cards go."),
               rules=["FR-MODE-4", "FR-MODE-7"], prueba=prueba,
               what=listed(p.character.name for p in participants), cards=msg(N_CARDS, n=len(events)))
    # the check and the feed change, and the decks and zones only if drawn cards went back (a check
    # withdrawn before any draw moves no card: the pages need not build their cards again)
    log.regions = {CHECKS, FEED, *log.moved_regions()}
