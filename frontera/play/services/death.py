"""The death roll and the sheets a fight takes (FR-HLT-3).

A fighter at Muerto has a dead man's hand within 5 combat turns (2 cards keeping the better with
medical attention, FR-CHK-5); any change that puts a fighter at Muerto starts the count, and a
Mayor's track change, accident or sheet edit during a fight is taken by the fight
(:func:`sync_combat`, :func:`sheet_edited`). Rules: FR-HLT-1..3, FR-MOR-1, FR-CHAR-6, FR-EXCH-4.
"""

from __future__ import annotations

from dataclasses import replace as dataclass_replace

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.characters.models import Character
from frontera.play.models import CombatRound, GameSession, Seat, combat_key
from frontera.play.services.core import (
    EventLog,
    SessionError,
    load_state,
    lock_character,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_sheet,
)
from frontera.rules import characters as rules_characters
from frontera.rules import combat as rules_combat
from frontera.rules import session as rules_session
from frontera.rules import tracks as rules_tracks
from frontera.rules.cards import Card
from frontera.rules.errors import RulesError
from frontera.rules.tracks import draw_penalty

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


# The line's wording before session 36, still in the logs of older sessions: kept translated.
LEGACY_MESSAGES = (gettext_noop("%(who)s leaves the game: the Mayor starts the death exchange."),)


def track_penalty(sheet: rules_characters.Character) -> int:
    try:
        return draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    except RulesError:
        return 0  # cannot act at all: the engine knows it from the tracks


def dead_for_good(session: GameSession, character_id: int) -> bool:
    """True once the dead man's hand left the character dead for good (FR-HLT-3): Permanente."""
    return bool(session.tallies.get("dead", {}).get(str(character_id)))


def death_roll_pending(session: GameSession, character: Character) -> bool:
    """A character at Muerto whose death roll is still to come: not dead for good, and within the 5
    combat turns of a death in a fight (outside a fight, or once it ended, the count stops)."""
    return not dead_for_good(session, character.pk) and _turns_since_death(session, character) <= DEATH_ROLL_TURNS


def record_death(session: GameSession, combat: CombatRound, character_id: int, name: str, log: EventLog) -> None:
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


def sync_combat(session: GameSession, character: Character, sheet: rules_characters.Character, log: EventLog) -> None:
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
    if not totals and (*now, spec["penalty"]) == (sheet.health, sheet.morale, track_penalty(sheet)):
        return
    try:
        combat.state, _events = rules_combat.set_tracks(combat.state, key, health=sheet.health, morale=sheet.morale,
                                                        penalty=track_penalty(sheet))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    combat.save(update_fields=["state"])
    log.decide(FIGHT_TAKES_LEVELS, rules=["FR-HLT-1", "FR-MOR-1"], who=character.name)
    if sheet.health == DEATH_LEVEL and now[0] != DEATH_LEVEL and not dead_for_good(session, character.pk):
        record_death(session, combat, character.pk, character.name, log)


def fight_takes_sheets(session: GameSession, combat: CombatRound, log: EventLog) -> tuple[dict, dict[int, Character]]:
    """Before a reveal: each fighter's health and morale are their sheet's now (ruling 3), also after
    a change the fight was not told of — the Mayor's edit of the sheet in the characters app — so
    every hit is taken from the level the character is at (FR-HLT-1), never from a stale one.
    Returns the round's state with the sheets' levels, and the fighters' rows by id: they stay
    locked, and the reveal writes their sheets from them (no second read)."""
    state = combat.state
    ids = sorted(int(key[1:]) for key in state["combatants"])
    rows = {row.pk: row for row in Character.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    for row in rows.values():
        key = combat_key(row.pk)
        spec = state["combatants"][key]
        sheet = rules_characters.Character.from_json(row.sheet)
        if (spec["health"], spec["morale"]) == (sheet.health, sheet.morale):
            continue
        try:
            state, _events = rules_combat.set_tracks(state, key, health=sheet.health, morale=sheet.morale,
                                                     penalty=track_penalty(sheet))
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        log.decide(FIGHT_TAKES_LEVELS, rules=["FR-HLT-1", "FR-MOR-1"], who=row.name)
        if sheet.health != DEATH_LEVEL:
            _off_muerto(session, row.pk)
        elif spec["health"] != DEATH_LEVEL and not dead_for_good(session, row.pk):
            record_death(session, combat, row.pk, row.name, log)
    return state, rows


def sheet_edited(*, character: Character, by) -> None:
    """The Mayor changed a sheet's tracks in the characters app (FR-CHAR-6), which knows nothing of
    sessions: every active session of the campaign takes the new levels like any change outside
    the round (:func:`sync_combat`: the open fight, the FR-HLT-3 count). Run after the edit is
    committed (``transaction.on_commit``), each session under its own lock, in the play services'
    lock order (session, then character)."""
    sessions = GameSession.objects.filter(campaign_id=character.campaign_id, status=GameSession.Status.ACTIVE)
    for session_id in sessions.order_by("pk").values_list("pk", flat=True):
        try:
            with transaction.atomic():
                session = lock_session(GameSession(pk=session_id))
                row = Character.objects.select_for_update().get(pk=character.pk)
                if (row.kind == Character.Kind.PROTAGONIST
                        and not Seat.objects.filter(session=session, character=row).exists()):
                    continue
                log = EventLog(session, by, [])
                sync_combat(session, row, rules_characters.Character.from_json(row.sheet), log)
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


def _death_roll(session: GameSession, log: EventLog, character: Character, *, turns: int,
                automatic: bool = False) -> tuple[Character, rules_characters.Character, str]:
    """FR-HLT-3: the dead man's hand (1 card, 2 keeping the better after medical attention that
    worked on the dead character before this roll, FR-CHK-5 — never attention given earlier, see
    ``DEATH_CARE``): an Ace → Incapacitado, an 8 → dead for good."""

    character, sheet = lock_character(session, character)
    key = str(character.pk)
    if dead_for_good(session, character.pk):
        raise SessionError(E_DEAD_FOR_GOOD % {"name": character.name})
    medical = bool(session.tallies.get(DEATH_CARE, {}).get(key))
    rng, seed = new_rng()
    try:
        drawn = rules_session.draw_dead_mans_hand(load_state(session), rng, 2 if medical else 1)
        result, health, _draw = rules_tracks.death_roll([Card.from_uid(u) for u in drawn], medical_attention=medical,
                                                        health=sheet.health, turns_since_death=turns)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    sheet = dataclass_replace(sheet, health=health)
    save_sheet(character, sheet)
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
        # the line said "the Mayor starts the death exchange" as if it were done; it is his to make
        log.decide(gettext_noop("%(who)s is dead for good and leaves the game: their cards go to the Tesoro "
                                "with the Mayor's death exchange."), rules=["FR-EXCH-4"], who=character.name)
    return character, sheet, result


@transaction.atomic
def death_roll(*, session: GameSession, by, character: Character, request_key: str = "", note: str = "") -> str:
    """The dead man's hand for a character at Muerto (FR-HLT-3), drawn when the Mayor calls it:
    within 5 combat turns of dying (later the rules have drawn it already), 2 cards keeping the
    better if medical attention worked on the dead character (FR-CHK-5). Returns ``"incapacitado"``
    or ``"permanente"``.

    Double submits draw nothing and answer like the first: the same ``request_key`` again returns
    the first result; without a key, a second call for a character nobody has touched since the
    Mayor's last death roll for them (the row's ``updated_at`` is the one that roll left) is that
    roll's double submit and returns its result."""
    session = lock_session(session)
    done = session.tallies.get("death_rolls", {})
    if request_key and request_key in done:
        return done[request_key]
    last = session.tallies.get("death_rolled", {}).get(str(character.pk))
    if not request_key and last:
        touched = Character.objects.filter(pk=character.pk).values_list("updated_at", flat=True).first()
        if touched is not None and touched.isoformat() == last["at"]:
            return last["result"]
    log = EventLog(session, by, [], note=note)
    character, sheet, result = _death_roll(session, log, character, turns=_turns_since_death(session, character))
    if request_key:
        session.tallies.setdefault("death_rolls", {})[request_key] = result
    session.tallies.setdefault("death_rolled", {})[str(character.pk)] = {"result": result,
                                                                         "at": character.updated_at.isoformat()}
    session.save(update_fields=["tallies"])
    sync_combat(session, character, sheet, log)
    log.flush()
    return result
