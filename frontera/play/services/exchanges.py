"""Card exchanges (Normal mode only), and calling an open one off.

Bets, cheats, duels, drunkenness and a lone finder's treasure card: each side chooses among the
cards the rules offer. Rules: FR-EXCH-1..7, FR-GMB-6 (a caught cheat), FR-SOB-1, FR-MODE-2 and
FR-MODE-4. Sharing a treasure among several is :mod:`~frontera.play.services.treasure`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext_lazy

from frontera.campaigns.permissions import is_mayor_of
from frontera.characters.models import Character
from frontera.messages import names as listed  # a list of names, joined the reader's way
from frontera.play.models import (
    MAYOR_SEAT,
    Check,
    CombatRound,
    Exchange,
    GameSession,
    Participant,
    Seat,
    combat_key,
)
from frontera.play.services.core import (
    E_NOT_PROTAGONIST,
    EventLog,
    SessionError,
    load_state,
    lock_for_request,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_state,
    seat_for,
    visible_to,
)
from frontera.play.services.death import dead_for_good
from frontera.rules import exchanges as rules_exchanges
from frontera.rules import session as rules_session
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker

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
E_NOT_DEAD = _("%(name)s has not died: the death exchange is for a protagonist the dead man's hand left dead "
               "for good (the death roll is under “Damage, drinks…”).")
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

# feed lines with plural forms: marked where the module loads, so that a process knows their forms
# before it logs one (a server just started read "2 carta")
N_KEEPS_TESORO = ngettext("%(a)s keeps %(count)s random card of the Tesoro.",
                          "%(a)s keeps %(count)s random cards of the Tesoro.")
N_CHOSEN = ngettext("%(who)s has chosen, face down (%(count)s card).",
                    "%(who)s has chosen, face down (%(count)s cards).")
N_CHANGED_HANDS = ngettext("%(kind)s between %(a)s and %(b)s: %(count)s card changed hands.",
                           "%(kind)s between %(a)s and %(b)s: %(count)s cards changed hands.")


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

    _step, chooser, owner = _step_spec(exchange)
    chooser_seat, owner_seat = _side(exchange, chooser), _side(exchange, owner)
    state = _winner_state(state, exchange)
    owned = rules_session.owned_cards(state, owner_seat)
    chooser_sees = rules_exchanges.choice_visible(state, chooser_seat, owner_seat)
    visible = chooser_sees & (chooser_sees if actor == chooser_seat else visible_to(state, actor))
    shown = sorted((u for u in owned if u in visible), key=rules_session.card_sort_key)
    hidden = sorted((u for u in owned if u not in visible), key=rules_session.card_sort_key)
    random.Random(f"{exchange.seed}:{exchange.step}:{actor}").shuffle(hidden)
    return [{"value": u, "uid": u} for u in shown] + [{"value": f"#{i + 1}", "uid": None, "hidden": u}
                                                      for i, u in enumerate(hidden)]


def _winner_state(state: rules_session.Session, exchange: Exchange) -> rules_session.Session:
    """FR-EXCH-7 (ruling, docs/rules/decks.md): in phase 1 the winner of a bet or duel, or the rival
    who caught a cheat (``first``), looks at their own deck from the moment the exchange opens."""

    if exchange.kind in WINNER_KINDS and exchange.first in state.players:
        return rules_exchanges.winner_looks(state, exchange.first)
    return state


def exchange_actor(exchange: Exchange, session: GameSession, by) -> str:
    """Who ``by`` acts as for the current step: the chooser's own player, else the Mayor (for a
    player without a phone, or for himself); anybody else is refused."""

    _step, chooser, _owner = _step_spec(exchange)
    seat = _side(exchange, chooser)
    if seat != MAYOR_SEAT and Seat.objects.filter(session=session, character_id=int(seat[1:]),
                                                  character__owner=by).exists():
        return seat
    if is_mayor_of(by, session.campaign):
        return MAYOR_SEAT
    raise SessionError(E_NOT_YOUR_CHOICE)


def exchange_party(session: GameSession, character: Character, seats: set[str]) -> tuple[str, str]:
    return seat_for(session, character, seats), character.name


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

    session, existing = lock_for_request(session, Exchange, request_key)
    if existing is not None:
        return existing  # a double submit of the same form
    if kind not in Exchange.Kind.values or kind == Exchange.Kind.COMA:
        raise SessionError(E_BAD_EXCHANGE)
    before = load_state(session)
    seats = set(before.players)
    a, a_name = exchange_party(session, first, seats)
    b, b_name = ("", "")
    if kind == Exchange.Kind.DEATH and not dead_for_good(session, first.pk):  # FR-EXCH-4: one who dies
        raise SessionError(E_NOT_DEAD % {"name": first.name})
    single = kind in (Exchange.Kind.TREASURE_TAKE, Exchange.Kind.DEATH)
    if not single:
        if second is None:
            raise SessionError(E_EXCHANGE_TWO)
        b, b_name = exchange_party(session, second, seats)
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
        log = EventLog(session, by, [])
        exchange = open_exchange(session, by, log, kind, a, a_name, b, b_name, request_key=request_key)
        log.flush()
        return exchange
    rng, seed = new_rng()
    exchange = Exchange(session=session, kind=kind, first=a, second=b, first_name=a_name, second_name=b_name,
                        seed=seed, request_key=request_key, created_by=by, status=Exchange.Status.DONE)
    log = EventLog(session, by, [])
    rules = EXCHANGE_RULES[kind]
    try:
        if kind == Exchange.Kind.TREASURE_TAKE:
            if open_sharing(session) is not None:
                raise SessionError(E_SHARING_OPEN)
            state, events = rules_exchanges.treasure_take(before, a, rng, count)
            log.decide(N_KEEPS_TESORO, rules=rules, a=a_name,
                       count=len(events), seed=seed)
        else:  # death
            if first.kind != Character.Kind.PROTAGONIST:
                raise SessionError(E_NOT_PROTAGONIST % {"name": first.name})
            _check_not_playing(session, first)
            rules_session.check_mode(before, rules_session.NORMAL)
            state, events = rules_session.leave_game(before, a)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    save_state(session, state)
    log.cards(events, before, state)
    if kind == Exchange.Kind.DEATH:
        Seat.objects.filter(session=session, character=first).delete()
        Exchange.objects.filter(session=session, status=Exchange.Status.PENDING).filter(
            models_q_side(a)).update(status=Exchange.Status.CANCELLED)
        sharing = open_sharing(session)
        if sharing is not None and a in sharing.chosen["sharing"]["sharers"]:
            sharing.status = Exchange.Status.CANCELLED
            sharing.save(update_fields=["status"])
        log.decide(gettext_noop("%(a)s dies and leaves the game: all %(count)s of their cards go to the Tesoro."),
                   rules=rules, a=a_name, count=len(events))
    exchange.save()
    log.flush()
    return exchange


def open_exchange(session: GameSession, by, log: EventLog, kind: str, a: str, a_name: str, b: str, b_name: str,
                   *, request_key: str = "") -> Exchange:
    """Open a bet, cheat, duel or treasure-swap exchange waiting for its first choice, or do a tie's
    random swap at once. Call while holding the session lock; ``a``/``b`` are engine players."""

    rng, seed = new_rng()
    exchange = Exchange(session=session, kind=kind, first=a, second=b, first_name=a_name, second_name=b_name,
                        seed=seed, request_key=request_key, created_by=by)
    rules = EXCHANGE_RULES[kind]
    shown_b = msg(b_name) if b == MAYOR_SEAT else b_name
    shown_a = msg(a_name) if a == MAYOR_SEAT else a_name
    if kind in (Exchange.Kind.BET_TIE, Exchange.Kind.DUEL_TIE):
        before = load_state(session)
        try:
            if kind == Exchange.Kind.BET_TIE:
                state, events = rules_exchanges.bet_tie(before, a, b, rng)
            else:
                state, events = rules_exchanges.duel_tie(before, a, b, rng)
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        save_state(session, state)
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
        before = load_state(session)
        if before.phase == 1:
            looked = _winner_state(before, exchange)
            save_state(session, looked)
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
    return Q(first=seat) | Q(second=seat)


def _exchange_finish(state, exchange: Exchange, rng):
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
    session = lock_session(GameSession(pk=exchange.session_id))
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
    state = load_state(session)
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
            log = EventLog(session, by, [])
            log.decide(gettext_noop("The cards changed meanwhile: the exchange starts its choices again."),
                       rules=EXCHANGE_RULES[exchange.kind])
            log.flush()
            return exchange
    exchange.chosen[exchange.step] = [by_value[p] for p in picks]
    exchange.chosen[f"_{exchange.step}"] = {"picks": picks, "by": by.pk}
    steps = [spec[0] for spec in EXCHANGE_STEPS[exchange.kind]]
    log = EventLog(session, by, [])
    names = {exchange.first: exchange.first_name, exchange.second: exchange.second_name}
    chooser_name = msg(names[exchange.chooser]) if exchange.chooser == MAYOR_SEAT else names[exchange.chooser]
    if exchange.step != steps[-1]:
        nxt = EXCHANGE_STEPS[exchange.kind][steps.index(exchange.step) + 1]
        exchange.step, exchange.chooser = nxt[0], _side(exchange, nxt[1])
        exchange.save(update_fields=["step", "chooser", "chosen"])
        log.decide(N_CHOSEN, rules=EXCHANGE_RULES[exchange.kind],
                   who=chooser_name, count=len(picks))
        log.flush()
        return exchange
    rng, seed = new_rng()
    try:
        state_after, events = _exchange_finish(state, exchange, rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    save_state(session, state_after)
    exchange.status, exchange.step, exchange.chooser = Exchange.Status.DONE, "", ""
    exchange.save(update_fields=["status", "step", "chooser", "chosen"])
    log.cards(events, state, state_after)
    log.decide(N_CHANGED_HANDS,
               rules=EXCHANGE_RULES[exchange.kind], kind=msg(EXCHANGE_LABELS[exchange.kind]),
               a=msg(exchange.first_name) if exchange.first == MAYOR_SEAT else exchange.first_name,
               b=msg(exchange.second_name) if exchange.second == MAYOR_SEAT else exchange.second_name,
               count=len(events), seed=seed)
    if state.phase == 1 and exchange.kind in (Exchange.Kind.BET, Exchange.Kind.CHEAT, Exchange.Kind.DUEL):
        log.decide(gettext_noop("Phase 1: %(a)s may now look at their own deck; nobody else's."),
                   rules=["FR-EXCH-7"], a=exchange.first_name)
    log.flush()
    return exchange


E_SHARING_OPEN = _("A treasure is already being shared: finish or call off that sharing first.")
# A sharing is an Exchange of kind TREASURE_TAKE that waits (PENDING); a lone finder's treasure
# card is done at once (exchange_start). ``chosen["sharing"]`` holds the sharers (engine players,
# table order), their ``names``, the ``cards`` drawn (still in the Tesoro until agreed), each
# sharer's ``votes`` (a keeper per card), the agreed ``keepers``, ``swaps`` per swapper and what
# each has ``left``. ``step`` is "keeper" (deciding) or "swap".
SHARING = Exchange.Kind.TREASURE_TAKE


def open_sharing(session: GameSession) -> Exchange | None:
    return Exchange.objects.filter(session=session, kind=SHARING, status=Exchange.Status.PENDING).first()


EXCHANGE_LABELS = {
    Exchange.Kind.BET: gettext_noop("Bet"), Exchange.Kind.CHEAT: gettext_noop("Cheating caught"),
    Exchange.Kind.DUEL: gettext_noop("Duel"), Exchange.Kind.TREASURE_SWAP: gettext_noop("Tesoro: a swap"),
    # "En coma: cambio con el Mayor entre Djamal y el Mayor" said the Mayor twice
    Exchange.Kind.COMA: gettext_noop("Coma exchange"),
}


@transaction.atomic
def exchange_cancel(*, exchange: Exchange, by) -> Exchange:
    """The Mayor withdraws a pending exchange (e.g. started by mistake); nothing has moved yet, and
    the history says it was withdrawn."""
    session = lock_session(GameSession(pk=exchange.session_id))
    exchange = Exchange.objects.get(pk=exchange.pk)
    if exchange.status == Exchange.Status.CANCELLED:
        return exchange
    if exchange.status != Exchange.Status.PENDING:
        raise SessionError(E_EXCHANGE_CLOSED)
    exchange.status = Exchange.Status.CANCELLED
    exchange.save(update_fields=["status"])
    log = EventLog(session, by, [])
    sharing = exchange.chosen.get("sharing") if isinstance(exchange.chosen, dict) else None
    if sharing:  # a treasure sharing is named as one (it read "the exchange between…")
        log.decide(gettext_noop("The Mayor withdraws the sharing of the Tesoro among %(who)s: no card had moved."),
                   rules=["FR-EXCH-6"], who=listed(sharing["names"][s] for s in sharing["sharers"]))
    else:
        log.decide(gettext_noop("The Mayor withdraws the exchange between %(a)s and %(b)s: no card had moved."),
                   rules=EXCHANGE_RULES[exchange.kind], a=exchange.first_name,
                   b=msg(exchange.second_name) if exchange.second == MAYOR_SEAT else exchange.second_name)
    log.flush()
    return exchange
