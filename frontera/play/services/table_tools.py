"""The Mayor's table tools: track changes, accidents, threats, drinks, the dead man's hand, rest.

Each is one action per form submission (:func:`table_action_once`). Rules: FR-HLT-1 and FR-HLT-4
(Salud and accidents), FR-MOR-1 and FR-MOR-3 (Moral and threats), FR-SOB-1 and FR-SOB-3 (drinks and
Sobriedad), FR-EXCH-5 (the exchanges drunkenness causes), FR-CHK-6 (the dead man's hand), FR-MODE-11
(rest in Con desgaste).
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Callable
from functools import cache

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.characters.models import Character
from frontera.play.models import (
    MAYOR_SEAT,
    ActionKey,
    Exchange,
    GameSession,
    SessionEvent,
    TableUndo,
    seat_key,
)
from frontera.play.services.core import (
    E_NOT_PROTAGONIST,
    N_DISCARDED,
    N_LEVELS,
    EventLog,
    SessionError,
    explain_moves,
    first_submission,
    level_name,
    load_state,
    lock_character,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_sheet,
    save_state,
)
from frontera.play.services.death import sync_combat
from frontera.rules import characters as rules_characters
from frontera.rules import exchanges as rules_exchanges
from frontera.rules import session as rules_session
from frontera.rules import tracks as rules_tracks
from frontera.rules.cards import Card
from frontera.rules.dead_mans_hand import dead_mans_hand_result
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker
from frontera.rules.tracks import accident_damage, exchanges_due
from frontera.rules.tracks import threat as rules_threat
from frontera.sql import column, columns_as, load, table

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


def drunk_exchanges(session: GameSession, log: EventLog, character: Character, due: list[str], rng) -> None:
    """FR-SOB-1, FR-EXCH-5: Borracho swaps a random card with the Mayor (face down in phase 1).
    The coma exchange waits for the Mayor's choice of the card he gives back (:func:`exchange_choose`)."""
    if session.mode != GameSession.Mode.NORMAL or character.kind != Character.Kind.PROTAGONIST:
        return

    for name in due:
        if name == "borracho_swap":
            before = load_state(session)
            try:
                state, events = rules_exchanges.drunk_swap(before, seat_key(character.pk), rng)
            except RulesError as err:
                raise SessionError(rules_message(err)) from err
            save_state(session, state)
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
    session = lock_session(session)
    character, sheet = lock_character(session, character)
    sheet_before, tallies_before = character.sheet, copy.deepcopy(session.tallies)
    if not isinstance(amount, int) or amount == 0:
        raise SessionError(E_BAD_TRACK_CHANGE)
    try:
        before = sheet.track(track)
        sheet = (rules_characters.lose_levels(sheet, track, -amount) if amount < 0
                 else rules_characters.recover_levels(sheet, track, amount))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    after = sheet.track(track)
    save_sheet(character, sheet)
    log = EventLog(session, by, [], note=note)
    rule = {"health": "FR-HLT-1", "morale": "FR-MOR-1", "sobriety": "FR-SOB-1"}[track]
    # a change the track's end leaves without effect says so ("Sano → Sano" read as a mistake)
    said = (gettext_noop("The Mayor changes %(who)s's %(track)s: %(before)s → %(after)s.") if after != before
            else gettext_noop("The Mayor changes %(who)s's %(track)s: already %(after)s, nothing changes."))
    log.decide(said, rules=[rule],
               who=character.name, track=msg(TRACK_LABELS[track]), before=level_name(track, before),
               after=level_name(track, after))
    sync_combat(session, character, sheet, log)  # the override wins over the fight's automated result
    due = []
    if track == "sobriety":
        rng, _seed = new_rng()
        due = exchanges_due(before, after, mode=session.mode, protagonist=character.kind == "protagonist")
        drunk_exchanges(session, log, character, due, rng)
    _remember(session, by, character, log, sheet_before, tallies_before, undoable=not due)
    return character


@transaction.atomic
def accident(*, session: GameSession, by, character: Character, cause: str, metres: int | None = None,
             agility: str | None = None, note: str = "") -> Character:
    """A fall (1 level per 5 m) or being run over (train 4, coach or horse 2), reduced by a Músculo
    (Agilidad) outcome (Éxito 2, Éxito parcial 1) (FR-HLT-4)."""
    session = lock_session(session)
    character, sheet = lock_character(session, character)
    sheet_before, tallies_before = character.sheet, copy.deepcopy(session.tallies)
    try:
        damage = accident_damage(cause, metres=metres, agility=agility or None)
        before = sheet.health
        sheet = rules_characters.lose_levels(sheet, "health", damage) if damage else sheet
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    save_sheet(character, sheet)
    log = EventLog(session, by, [], note=note)
    log.decide(gettext_noop("%(who)s suffers %(cause)s: %(damage)s of Salud lost, %(before)s → %(after)s.") if damage
               else gettext_noop("%(who)s suffers %(cause)s: no level of Salud lost, still %(after)s."),
               rules=["FR-HLT-4", "FR-HLT-1"], who=character.name, cause=msg(ACCIDENT_LABELS.get(cause, cause)),
               damage=msg(N_LEVELS, n=damage), before=level_name("health", before), after=level_name("health", sheet.health))
    sync_combat(session, character, sheet, log)
    _remember(session, by, character, log, sheet_before, tallies_before)
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


@transaction.atomic
def threat(*, session: GameSession, by, character: Character, note: str = "") -> Character:
    """FR-MOR-3: the Mayor draws a random card; above the character's Confianza it costs 1 level of
    Moral. RULING (docs/sessions.md): the card is drawn like the Mayor's own one-card check and
    played, so it moves like any played card and the deck keeps its count. It can be undone while
    nobody has acted since, unless its draw reshuffled the pile or began phase 2."""

    session = lock_session(session)
    character, sheet = lock_character(session, character)
    sheet_before, tallies_before = character.sheet, copy.deepcopy(session.tallies)
    before_state = load_state(session)
    rng, seed = new_rng()
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
    save_state(session, state)
    save_sheet(character, sheet)
    log = EventLog(session, by, [], note=note)
    explain_moves(log, events, None)
    log.cards(events, before_state, state)
    log.decide(gettext_noop("The Mayor threatens %(who)s: %(card)s (%(value)s) against Confianza %(confianza)s → "
                            "%(result)s."), rules=["FR-MOR-3"], who=character.name, card=card.label,
               value=card.value, confianza=sheet.confianza, seed=seed,
               result=msg(gettext_noop("one level of Moral lost")) if after != before
               else msg(gettext_noop("no effect")))
    sync_combat(session, character, sheet, log)
    plain_draw = all(e["reason"] in ("draw", "played") for e in events) and state.phase == before_state.phase
    _remember(session, by, character, log, sheet_before, tallies_before, moves=events, undoable=plain_draw)
    return character


@transaction.atomic
def drinks(*, session: GameSession, by, character: Character, count: int = 1, note: str = "") -> Character:
    """Several drinks in one go (FR-SOB-3): drunk one by one, all or none, and undone as one. The
    Mayor's ``note`` goes with the first."""
    first = TableUndo.objects.filter(session=session).aggregate(m=Max("pk"))["m"] or 0
    for n in range(max(1, count)):
        drink(session=session, by=by, character=character, note="" if n else note)
    rows = list(TableUndo.objects.filter(session=session, pk__gt=first, undone=False).order_by("pk"))
    if count > 1 and len(rows) == count:  # every drink could be undone: keep one undo for them all
        whole, last = rows[0], rows[-1]
        whole.sheet_after, whole.tallies_after, whole.after_event = last.sheet_after, last.tallies_after, last.after_event
        whole.message = {"_msg": N_DRINKS, "n": count, "who": character.name}
        whole.save(update_fields=["sheet_after", "tallies_after", "after_event", "message"])
        TableUndo.objects.filter(pk__in=[r.pk for r in rows[1:]]).delete()
    return character


N_DRINKS = ngettext("%(n)s drink for %(who)s", "%(n)s drinks for %(who)s", "n")


@transaction.atomic
def drink(*, session: GameSession, by, character: Character, note: str = "") -> Character:
    """One more drink of heavy drinking (FR-SOB-3): the alcohol level rises, the automatic level
    applies, a dead man's hand is drawn when due; Borracho swaps a card with the Mayor (FR-SOB-1)."""
    session = lock_session(session)
    character, sheet = lock_character(session, character)
    sheet_before, tallies_before = character.sheet, copy.deepcopy(session.tallies)
    alcohol = session.tallies.setdefault("alcohol", {})
    rng, seed = new_rng()
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
    save_sheet(character, sheet)
    log = EventLog(session, by, [], note=note)
    dmh = ""
    if event["dmh"]:
        drawn = [(Card.from_uid(c) if ":" in c else Card.parse(c)).label for c in event["dmh"].get("drawn", [])]
        dmh = " · " + " ".join(drawn)
    # a drink that leaves the level as it was says so ("Sobrio → Sobrio" read as a mistake at the table)
    said = (gettext_noop("%(who)s drinks (alcohol %(alcohol)s, Aguante %(aguante)s)%(dmh)s: %(before)s → %(after)s.")
            if after != before else
            gettext_noop("%(who)s drinks (alcohol %(alcohol)s, Aguante %(aguante)s)%(dmh)s: still %(after)s."))
    log.decide(said, rules=["FR-SOB-3"], who=character.name, alcohol=tally["alcohol"], aguante=sheet.aguante, dmh=dmh,
               before=level_name("sobriety", before), after=level_name("sobriety", after), seed=seed)
    drunk_exchanges(session, log, character, event["due"], rng)
    sync_combat(session, character, sheet, log)
    _remember(session, by, character, log, sheet_before, tallies_before, undoable=not event["due"])
    return character


@transaction.atomic
def dead_mans_hand(*, session: GameSession, by, character: Character, count: int = 1, note: str = "") -> str:
    """FR-CHK-6: draw 1 card of the dead man's hand (2 if the Mayor allows, keeping the better):
    an Ace gives the better outcome, an 8 the worse. Nothing moves; the cards are public."""
    session = lock_session(session)
    character, _sheet = lock_character(session, character)
    state = load_state(session)
    rng, seed = new_rng()
    try:
        drawn = rules_session.draw_dead_mans_hand(state, rng, count)
        result = dead_mans_hand_result([Card.from_uid(u) for u in drawn])
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    log = EventLog(session, by, [], note=note)
    log.decide(gettext_noop("Dead man's hand for %(who)s: %(cards)s → %(result)s."), rules=["FR-CHK-6"],
               who=character.name, cards=" ".join(Card.from_uid(u).label for u in drawn), seed=seed,
               result=msg(gettext_noop("the better outcome") if result == "better" else gettext_noop("the worse outcome")))
    log.flush()
    return result


@transaction.atomic
def rest(*, session: GameSession, by, character: Character, hours: int, note: str = "") -> Character:
    """Con desgaste (FR-MODE-11): each hour of rest returns 8 random discarded cards to the deck."""
    session = lock_session(session)
    character, _sheet = lock_character(session, character)
    if character.kind != Character.Kind.PROTAGONIST:
        raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    sheet_before, tallies_before = character.sheet, copy.deepcopy(session.tallies)
    before = load_state(session)
    rng, seed = new_rng()
    try:
        state, events = rules_session.rest(before, seat_key(character.pk), hours, rng)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    save_state(session, state)
    log = EventLog(session, by, [], note=note)
    log.cards(events, before, state)
    log.decide(gettext_noop("%(who)s rests %(hours)s: %(cards)s back into their deck."),
               rules=["FR-MODE-11"], who=character.name, hours=msg(DURATION_LABELS["hour"], n=hours),
               cards=msg(N_DISCARDED, n=len(events)), seed=seed)
    _remember(session, by, character, log, sheet_before, tallies_before, moves=events)
    return character


DURATION_LABELS = {  # plural forms by "n" (frontera.rules.errors.ngettext, rendered by frontera.messages)
    "turn": ngettext("%(n)s turn", "%(n)s turns", "n"), "minute": ngettext("%(n)s minute", "%(n)s minutes", "n"),
    "hour": ngettext("%(n)s hour", "%(n)s hours", "n"), "day": ngettext("%(n)s day", "%(n)s days", "n"),
    "month": ngettext("%(n)s month", "%(n)s months", "n"),
}


# --- undo -----------------------------------------------------------------------------------------

E_NOTHING_TO_UNDO = _("There is no table action to undo.")
UNDO_MESSAGE = gettext_noop("The Mayor undoes his last table action: %(what)s")
E_UNDO_TOO_LATE = _("The table has moved on since that action: it can no longer be undone.")


def _remember(session: GameSession, by, character: Character, log: EventLog, sheet_before: dict,
              tallies_before: dict, *, moves: list[dict] | None = None, undoable: bool = True) -> None:
    """Write the action's log, then keep what undoes it: the sheet and tallies before and after and
    the cards it moved (a drink that opened an exchange cannot be taken back)."""
    # named by its own feed line, the action's first decision: what follows it are its consequences
    # (an open fight taking the new levels), which named the undo of a Salud −1 before
    what = next((row for row in log.rows if row.kind == SessionEvent.Kind.DECISION), None)
    log.flush()
    if not undoable or what is None:
        TableUndo.objects.filter(session=session, undone=False).update(undone=True)  # nothing left to undo
        return
    last = SessionEvent.objects.filter(session=session).aggregate(m=Max("pk"))["m"] or 0
    TableUndo.objects.create(
        session=session, by=by, character=character, message={"_msg": what.message, **what.params},
        sheet_before=sheet_before, sheet_after=character.sheet, tallies_before=tallies_before,
        tallies_after=copy.deepcopy(session.tallies), moves=moves or [], after_event=last,
    )


def undoable(session: GameSession, *, last_event: int | None = None) -> TableUndo | None:
    """The Mayor's last table action if it may still be undone: nobody has acted since (the session's
    log ends with it), and the sheet and the tallies are as it left them. ``last_event``: the
    session's latest event id, when the caller has just read it (the dashboard's stream version)."""
    found = load(TableUndo, _last_undo_sql(), (session.pk,), related={"character": Character})
    undo = found[0] if found else None
    if undo is None or undo.undone:
        return None
    last = last_event
    if last is None:
        last = SessionEvent.objects.filter(session=session).aggregate(m=Max("pk"))["m"] or 0
    if last != undo.after_event or undo.character.sheet != undo.sheet_after or session.tallies != undo.tallies_after:
        return None
    return undo


@cache
def _last_undo_sql() -> str:
    """A session's last table action with its character (:func:`frontera.sql.load`: the Mayor's
    board asks on every rendering, and the queryset took ~0.4 ms to build; issue #11)."""
    return (f"SELECT {table(TableUndo)}.*, {columns_as(Character, 'character')} FROM {table(TableUndo)} "
            f"INNER JOIN {table(Character)} ON {column(Character, 'pk')} = {column(TableUndo, 'character')} "
            f"WHERE {column(TableUndo, 'session')} = %s ORDER BY {column(TableUndo, 'pk')} DESC LIMIT 1")


@transaction.atomic
def table_undo(*, session: GameSession, by, request_key: str = "") -> Character | None:
    """The Mayor undoes his last table action (a track change, an accident, drinks, a threat, a
    rest) while nobody has acted since: the sheet and the tallies go back to what they were, the
    cards it moved go back where they were by :func:`rules.session.take_back` (a threat's card is
    shuffled back into the pile it came from), an open fight takes the restored levels, and the log
    says what was undone. A repeated ``request_key`` (a double click) undoes nothing more and
    returns ``None``."""
    session = lock_session(session)
    if not first_submission(session, request_key):
        return None
    undo = TableUndo.objects.select_for_update().filter(session=session).order_by("-pk").first()
    if undo is None or undo.undone:
        raise SessionError(E_NOTHING_TO_UNDO)
    if undoable(session) is None:
        raise SessionError(E_UNDO_TOO_LATE)
    character, _sheet = lock_character(session, undo.character)
    log = EventLog(session, by, [])
    if undo.moves:
        before = load_state(session)
        rng, _seed = new_rng()
        try:
            state, events = rules_session.take_back(before, undo.moves, rng)
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        save_state(session, state)
        log.cards(events, before, state)
    sheet = rules_characters.Character.from_json(undo.sheet_before)
    save_sheet(character, sheet)
    session.tallies = undo.tallies_before
    session.save(update_fields=["tallies"])
    undo.undone = True
    undo.save(update_fields=["undone"])
    # the levels it gives back, as a track change says them: the session's charts follow them
    restored = {}
    undone = rules_characters.Character.from_json(undo.sheet_after)
    for track in ("health", "morale", "sobriety"):
        if undone.track(track) != sheet.track(track):
            restored[f"{track}_before"] = level_name(track, undone.track(track))
            restored[f"{track}_after"] = level_name(track, sheet.track(track))
    log.decide(UNDO_MESSAGE, who=character.name, what=undo.message, **restored)
    sync_combat(session, character, sheet, log)  # the fight takes the restored levels
    log.flush()
    return character
