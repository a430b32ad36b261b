"""Gambling nights: the banca, and azar and habilidad contests (FR-GMB).

Rules: FR-GMB-2..5 (the banca's deal, an attempt to leave, azar and habilidad), FR-GMB-6 (cheating),
FR-GMB-7 (money and debts), FR-CHK-6 (the banca's cards), FR-EXCH-2 (the bet exchange the losers
settle).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace as dataclass_replace
from functools import cache

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.characters.models import Character
from frontera.characters.services import character_changed_in_play
from frontera.messages import decimal
from frontera.messages import names as listed  # a list of names, joined the reader's way
from frontera.play.models import MAYOR_SEAT, Check, Exchange, Gamble, GameSession, Participant, seat_key
from frontera.play.services.check_withdrawal import withdraw_locked
from frontera.play.services.checks import Entry, check_what, create_check
from frontera.play.services.core import (
    OUTCOME_LABELS,
    EventLog,
    SessionError,
    load_state,
    lock_character,
    lock_for_request,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_sheet,
    save_state,
)
from frontera.play.services.exchanges import open_exchange
from frontera.rules import characters as rules_characters
from frontera.rules import exchanges as rules_exchanges
from frontera.rules import gambling as rules_gambling
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker
from frontera.sql import column, rows, table

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


# feed lines with plural forms: marked where the module loads, so that a process knows their forms
# before it logs one
N_BANCA_ROUND = ngettext("Banca, round %(n)s: %(card)s, %(points)s point for %(side)s (bank %(bank)s, %(who)s "
                         "%(player)s).",
                         "Banca, round %(n)s: %(card)s, %(points)s points for %(side)s (bank %(bank)s, %(who)s "
                         "%(player)s).", "points")


def lock_gamble(gamble: Gamble) -> tuple[GameSession, Gamble]:
    session = lock_session(GameSession(pk=gamble.session_id))
    gamble = Gamble.objects.select_related("prueba").get(pk=gamble.pk)
    if gamble.status != Gamble.Status.OPEN:
        raise SessionError(E_GAMBLE_SETTLED)
    return session, gamble


def _gambler(gamble: Gamble) -> Character:
    return Character.objects.get(pk=int(next(iter(gamble.players))))


def _set_money(session: GameSession, by, character: Character, money: int) -> tuple[int, int]:
    locked, sheet = lock_character(session, character)
    before = sheet.money
    save_sheet(locked, dataclass_replace(sheet, money=int(money)))
    character_changed_in_play(character=locked, by=by)
    return before, int(money)


@transaction.atomic
def banca_begin(*, session: GameSession, by, character: Character, cheating: bool = False,
                request_key: str = "") -> Gamble:
    """A night at La banca siempre gana (FR-GMB-2, FR-GMB-6): the Mayor's deck with the dead man's
    hand, shuffled; the character bets the money they carry. RULING (docs/sessions.md): the banca's
    cards are turned face up for the table and go back afterwards; nothing moves in the session."""

    session, existing = lock_for_request(session, Gamble, request_key)
    if existing is not None:
        return existing  # a double submit of the same form
    locked, sheet = lock_character(session, character)
    if sheet.money < 0:
        raise SessionError(E_NEGATIVE_MONEY % {"name": locked.name})
    state = load_state(session)
    deck = list(state.player_decks[MAYOR_SEAT]) + list(state.dead_mans_hand)
    if len(deck) <= len(state.dead_mans_hand):
        raise SessionError(E_NO_MAYOR_DECK)
    rng, seed = new_rng()
    rng.shuffle(deck)
    try:
        banca = rules_gambling.banca_start(deck, sheet.money, cheating=cheating)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble = Gamble.objects.create(session=session, kind=Gamble.Kind.BANCA, players={str(locked.pk): {"cheat": cheating}},
                                   state=banca, request_key=request_key, created_by=by)
    log = EventLog(session, by, [])
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

    session, gamble = lock_gamble(gamble)
    if rounds_seen is not None and rounds_seen < len(gamble.state["rounds"]):
        return gamble
    if gamble.prueba is not None and gamble.prueba.status != Check.Status.RESOLVED:
        raise SessionError(E_STOP_OPEN)
    rng, seed = new_rng()
    try:
        state, events = rules_gambling.banca_round(gamble.state, rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble.state = state
    gamble.save(update_fields=["state"])
    who = _gambler(gamble)
    log = EventLog(session, by, [])
    for event in events:
        if event["type"] == "banca_reshuffled":
            log.decide(gettext_noop("The banca's deck ran out and is reshuffled."), rules=["FR-GMB-2"])
        else:
            log.decide(N_BANCA_ROUND, rules=["FR-GMB-2"], n=len(state["rounds"]),
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

    session, gamble = lock_gamble(gamble)
    if gamble.prueba is not None and gamble.prueba.status != Check.Status.RESOLVED:
        return gamble.prueba  # a double submit
    try:
        rules_gambling.banca_stop(gamble.state, "1:2D")  # the engine's own preconditions (a round first...)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    cheating = next(iter(gamble.players.values()))["cheat"]
    trait, skill = rules_gambling.gambling_check(cheating)
    who = _gambler(gamble)
    prueba = create_check(session=session, by=by, kind=Check.Kind.TRAIT, entries=[Entry(who, trait, skill)],
                           difficulty=None, label=msg(gettext_noop("banca: trying to leave")), request_key="")
    gamble.prueba = prueba
    gamble.save(update_fields=["prueba"])
    log = EventLog(session, by, [])
    log.decide(gettext_noop("%(who)s tries to leave the banca: a %(what)s check."), rules=["FR-GMB-3"]
               + (["FR-GMB-6"] if cheating else []), who=who.name, what=check_what(trait, skill))
    log.flush()
    return prueba


@transaction.atomic
def banca_withdraw(*, gamble: Gamble, by) -> Gamble:
    """The Mayor calls off a banca (started by mistake, or one its player cannot leave: with no card
    for the check to leave, FR-CHK-1, every attempt fails and FR-GMB-3 keeps them playing for ever).
    Nothing is paid or lost: the player keeps the money they brought, no exchange opens, and the
    banca's cards, only ever turned face up for the table, stay where they are. An open attempt to
    leave is withdrawn with it. Calling it off twice changes nothing."""
    if Gamble.objects.filter(pk=gamble.pk, status=Gamble.Status.SETTLED, state__withdrawn=True).exists():
        return gamble
    session, gamble = lock_gamble(gamble)
    log = EventLog(session, by, [])
    if gamble.prueba is not None and gamble.prueba.status != Check.Status.RESOLVED:
        withdraw_locked(session, Check.objects.select_for_update().get(pk=gamble.prueba.pk), log)
    gamble.status, gamble.state = Gamble.Status.SETTLED, {**gamble.state, "withdrawn": True}
    gamble.save(update_fields=["status", "state"])
    log.decide(gettext_noop("The Mayor calls off %(who)s's banca: nothing is paid, and %(who)s keeps the $%(money)s "
                            "they sat down with."), rules=["FR-GMB-2"], who=_gambler(gamble).name,
               money=gamble.state["money"])
    log.regions = None  # every region: the banca leaves the checks, the money shows on the sheets
    log.flush()
    return gamble


@cache
def _open_gamble_sql() -> str:
    """Whether an open gamble waits on a check (asked after every trait check's card; the queryset
    took ~0.3 ms to build; issue #11)."""
    return f"SELECT 1 FROM {table(Gamble)} WHERE {column(Gamble, 'prueba')} = %s AND {column(Gamble, 'status')} = %s"


def after_banca_stop_check(session: GameSession, prueba: Check, participant: Participant, played, log: EventLog) -> None:
    """The follow-up of a trait check (:func:`~frontera.play.services.follow_ups.after_trait_check`): the
    attempt to leave a banca (:func:`banca_try_stop`) settles when its card is played."""
    if rows(_open_gamble_sql(), (prueba.pk, Gamble.Status.OPEN)):
        participant.save(update_fields=["played", "declared", "status", "outcome"])
        _banca_after_stop(session, prueba, participant, log)


def _banca_after_stop(session: GameSession, prueba: Check, participant: Participant, log: EventLog) -> None:
    """FR-GMB-3: the played card of the attempt to leave decides."""

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


def bet_exchange(session: GameSession, by, log: EventLog, bettors: Sequence[tuple[str, str, str, str]]) -> None:
    """FR-EXCH-2 after a bet (Normal mode only) among any number of ``bettors``, each
    ``(key, engine player, role, name)`` in table order. The engine says which exchanges follow
    (:func:`frontera.rules.gambling.bet_exchanges`: every loser and caught cheat settles one with a
    winner, dealt by lot when there are several; all tied → random swaps, a ring from three decks
    on): a win waits for the winner's choice, a caught cheat for the rival's, ties are done at once."""

    if session.mode != GameSession.Mode.NORMAL or len(bettors) < 2:
        return
    names = {key: name for key, _seat, _role, name in bettors}
    seat_names = {}
    for _key, seat, _role, name in bettors:
        seat_names.setdefault(seat, name)
    rng, seed = new_rng()
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
            before = load_state(session)
            try:
                state, events = rules_exchanges.tie_ring(before, players, rng)
            except RulesError as err:
                raise SessionError(rules_message(err)) from err
            save_state(session, state)
            log.cards(events, before, state)
            log.decide(gettext_noop("Apuesta in Tablas among %(who)s: each takes a random card of the next one's "
                                    "deck."), rules=["FR-EXCH-2"], seed=seed,
                       who=listed(seat_names[p] for p in players))
            Exchange.objects.create(
                session=session, kind=Exchange.Kind.BET_TIE, first=players[0], second=players[1],
                first_name=seat_names[players[0]], second_name=seat_names[players[1]], seed=seed, created_by=by,
                status=Exchange.Status.DONE, chosen={"ring": players})
            continue
        a, b = item["first"], item["second"]
        if item["kind"] == "tie":
            open_exchange(session, by, log, Exchange.Kind.BET_TIE, a, seat_names[a], b, seat_names[b])
            continue
        kind = Exchange.Kind.CHEAT if item["kind"] == "cheat" else Exchange.Kind.BET
        open_exchange(session, by, log, kind, a, names[item["winner"]], b, names[item["loser"]])


def _banca_settle(session: GameSession, gamble: Gamble, by, log: EventLog) -> None:
    """FR-GMB-4, FR-GMB-6: the money the player leaves with, then the bet's exchange with the house
    (the Mayor) (FR-EXCH-2). The engine pays whole dollars: the house keeps a fraction of a dollar
    (ruling, docs/rules/combat.md), which the log says."""

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
                   exact=decimal(float(result["money_exact"])), after=after)
    if who.kind == Character.Kind.PROTAGONIST:
        house = {"victory": "defeat", "defeat": "victory", "tie": "tie",
                 "caught_cheating": "victory"}[result["exchange"]]
        bet_exchange(session, by, log, [(str(who.pk), seat_key(who.pk), result["exchange"], who.name),
                                         ("house", MAYOR_SEAT, house, gettext_noop("the Mayor"))])


@transaction.atomic
def gamble_contest(*, session: GameSession, by, kind: str, characters: Sequence[Character], cheats: Iterable[int] = (),
                   contest: str = "", request_key: str = "") -> Gamble:
    """Azar (FR-GMB-5): opposed Cabeza (Astucia), Manos (Maña) for a cheat (FR-GMB-6), then each
    winner's and honest loser's dead man's hand for the money. Habilidad (FR-GMB-7): an opposed
    check of the contest's trait and skill. Both lead into the bet's exchange (FR-EXCH-2)."""

    session, existing = lock_for_request(session, Gamble, request_key)
    if existing is not None:
        return existing  # a double submit of the same form
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
    # The check's label is stored once for every reader: azar's is a msgid the checks' selector
    # translates; habilidad's names its contest in the language of the Mayor who called it.
    kind_text = msg(gettext_noop("azar")) if kind == Gamble.Kind.AZAR else msg(
        gettext_noop("habilidad: %(contest)s"), contest=msg(CONTEST_LABELS.get(contest, contest)))
    label = kind_text  # each reader reads the check's label in their own language
    prueba = create_check(session=session, by=by, kind=Check.Kind.OPPOSED, entries=entries, difficulty=None,
                           label=label, request_key="")
    gamble = Gamble.objects.create(session=session, kind=kind, contest=contest, prueba=prueba,
                                   players={str(c.pk): {"cheat": c.pk in cheats} for c in characters},
                                   request_key=request_key, created_by=by)
    log = EventLog(session, by, [])
    log.decide(gettext_noop("A game of %(kind)s: %(who)s; everyone draws and chooses in secret."),
               rules=["FR-GMB-5"] + (["FR-GMB-6"] if cheats else []) if kind == Gamble.Kind.AZAR else ["FR-GMB-7"],
               kind=kind_text, who=listed(c.name for c in characters))
    log.flush()
    return gamble


def after_contest_reveal(session: GameSession, prueba: Check, by) -> None:
    """The follow-up of an opposed check (:func:`~frontera.play.services.follow_ups.after_opposed_reveal`):
    an azar or habilidad contest (:func:`gamble_contest`) settles at its reveal."""
    gamble = prueba.gambles.filter(status=Gamble.Status.OPEN).first()
    if gamble is not None:
        _contest_settle(session, gamble, prueba, by)


def _contest_settle(session: GameSession, gamble: Gamble, prueba: Check, by) -> None:
    """After the reveal of an azar or habilidad contest: roles, money (azar), the exchange."""

    parts = {str(p.character_id): p for p in prueba.participants.select_related("character")}
    cheats = {k for k, v in gamble.players.items() if v.get("cheat")}
    plays = {k: (p.played, p.declared) if p.declared else p.played for k, p in parts.items() if p.played}
    log = EventLog(session, by, [])
    rng, seed = new_rng()
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
        state = load_state(session)
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
    bet_exchange(session, by, log, [(k, p.seat, roles[k], p.character.name) for k, p in parts.items()])
    gamble.status = Gamble.Status.SETTLED
    gamble.state = {"roles": roles}
    gamble.save(update_fields=["status", "state"])
    log.flush()
