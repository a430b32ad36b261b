"""Combat rounds: start a fight, declare, draw, choose in secret, reveal, next turn, end.

Rules: FR-CMB-1..6 (declarations, techniques, weapons, targets), FR-CMB-8..14 (range bands, cover,
mounts, holsters, damage and absorption), FR-HLT-1 and FR-MOR-1 (what a hit does to the tracks),
FR-HLT-3 (the death roll's count, in :mod:`~frontera.play.services.death`), FR-CHK-2 and FR-CHK-5
(choosing cards; medical attention takes the whole turn), FR-CHAR-5 (the campaign's catalogue),
FR-MODE-4 (where played cards go).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.campaigns.permissions import can_act_for, is_mayor_of, is_member_of
from frontera.characters.models import CatalogueItem, Character
from frontera.characters.selectors import campaign_catalogue
from frontera.messages import engine_text
from frontera.messages import names as listed  # a list of names, joined the reader's way
from frontera.play.models import MAYOR_SEAT, CombatRound, GameSession, combat_key, seat_key
from frontera.play.services.core import (
    CARDS_AND_TRACKS,
    COMBAT,
    E_NOT_YOUR_HAND,
    FEED,
    N_CARDS,
    EventLog,
    NotAllowed,
    SessionError,
    explain_moves,
    first_submission,
    level_name,
    load_state,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_state,
    seat_for,
    sheet_kept,
    state_kept,
)
from frontera.play.services.death import (
    DEATH_LEVEL,
    DEATH_ROLL_TURNS,
    _death_roll,
    fight_takes_sheets,
    record_death,
    track_penalty,
)
from frontera.play.services.fighters import Fighter, combatant_spec
from frontera.play.services.grapples import log_contests
from frontera.play.services.medical import medical_request
from frontera.rules import characters as rules_characters
from frontera.rules import combat as rules_combat
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker

# The decisions that delimit a fight and its turns (the history reads fights from them).
FIGHT_BEGINS = gettext_noop("A fight begins: %(sides)s. NPCs declare and draw first; everyone chooses in secret.")
TRACKS_CHANGED = (("health", gettext_noop("Salud %(before)s → %(after)s")),
                  ("morale", gettext_noop("Moral %(before)s → %(after)s")))
FIGHT_SIDES = gettext_noop("%(a)s against %(b)s")  # each side's names joined the reader's way (FIGHT_BEGINS)
FIGHT_TURN = gettext_noop("Turn %(turn)s of the fight.")
FIGHT_OVER = gettext_noop("The fight is over.")
FIGHT_WITHDRAWN = gettext_noop("The Mayor withdraws the fight (%(who)s) in turn %(turn)s: %(cards)s back where "
                               "unchosen cards go, unrevealed.")
E_COMBAT_OPEN = _("A fight is already going on: end it first.")
E_NOT_IN_COMBAT = _("%(name)s is not in this fight.")
E_NOT_A_FIGHTER = _("Choose among the fighters of this fight.")
E_COMBAT_ENDED = _("This fight has ended.")
E_NO_CARDS_CHOSEN = _("Choose at least one card to play.")
E_ONE_SIDE = _("A fight needs characters on two sides.")

# feed lines with plural forms: marked where the module loads, so that a process knows their forms
# before it logs one (a server just started read "2 carta")
N_FIGHT_DRAW = ngettext("%(who)s draws %(count)s card for the fight.", "%(who)s draws %(count)s cards for the fight.")


def _combat_message(err: RulesError, combat: CombatRound | None) -> str:
    """An engine error with combatant keys (``k12``) replaced by the characters' names, and a
    weapon named as the campaign's catalogue names it in the reader's language (issue #12)."""
    names = _fighter_names(combat) if combat is not None and combat.pk else {}
    items: dict[str, str] = {}
    if combat is not None and combat.pk and {"weapon", "name"} & set(err.params):
        for item in CatalogueItem.objects.filter(campaign__game_sessions__pk=combat.session_id):
            items[item.key] = items[item.name] = item.display_name

    def named(key, value):
        if not isinstance(value, str):
            return value
        if key in ("weapon", "name") and value in items:
            return items[value]
        return re.sub(r"\bk\d+\b", lambda m: names.get(m.group(0), m.group(0)), value)

    return engine_text(err.template, {k: named(k, v) for k, v in err.params.items()})


def _lock_combat(combat: CombatRound) -> tuple[GameSession, CombatRound]:
    session = lock_session(GameSession(pk=combat.session_id))
    combat = CombatRound.objects.of_session(combat.pk, session.pk)
    if combat is None:
        raise CombatRound.DoesNotExist
    if combat.status != CombatRound.Status.OPEN:
        raise SessionError(E_COMBAT_ENDED)
    return session, combat


@dataclass
class Locked:
    """A fighter's action under the session's lock: the session, the fight, its fighters' characters
    as they are now (by id) and the fighter acting."""

    session: GameSession
    combat: CombatRound
    fighters: dict[int, Character]
    character: Character

    def names(self) -> dict[str, str]:
        return {combat_key(pk): c.name for pk, c in self.fighters.items()}


def _lock_fighter(combat: CombatRound, character: Character, *, by, in_session: int | None) -> Locked:
    """Lock the session, then read the fight and its fighters (one statement each).

    With ``in_session`` (a session's id; the fight and the fighter may then be given by their ids
    alone, as a request names them): ``by`` must be of the session's campaign, the fight of that
    session, and the fighter one of its fighters whom ``by`` may act for (``can_act_for``: its player,
    or the Mayor); :class:`NotAllowed` otherwise, before anything else is said. The view then reads
    nothing first (issue #11). Without it, the caller vouches for all that (a service, a test)."""
    if in_session is not None:
        session = lock_session(GameSession(pk=in_session), by=by, may=is_member_of)
    else:
        session = lock_session(GameSession(pk=combat.session_id))
    # with the fight, whether ``by`` plays the fighter's seat (a draw and a choice ask: one round
    # trip fewer before their push, issue #11)
    locked = CombatRound.objects.of_session(combat.pk, session.pk, seat_of=(character.pk, by.pk))
    if locked is None:
        if in_session is not None:
            raise NotAllowed
        raise CombatRound.DoesNotExist
    fighters = Character.objects.by_id([int(key[1:]) for key in locked.state["combatants"]])
    if in_session is not None:
        fresh = fighters.get(character.pk)
        if fresh is None or fresh.campaign_id != session.campaign_id:
            raise NotAllowed
        fresh.campaign = session.campaign  # a fighter is of the session's campaign
        if not can_act_for(by, fresh):
            raise NotAllowed
    if locked.status != CombatRound.Status.OPEN:
        raise SessionError(E_COMBAT_ENDED)
    locked.session = session  # the fight returned holds the locked session (the view answers with it)
    return Locked(session, locked, fighters, fighters.get(character.pk, character))


def _repeated(combat: CombatRound, request_key: str) -> bool:
    """A second submission of the Mayor's fight buttons (next turn, end, withdraw): locks the
    session and tells whether ``request_key`` already did its action (see :func:`first_submission`)."""
    return not first_submission(lock_session(GameSession(pk=combat.session_id)), request_key)


def _fighter_names(combat: CombatRound) -> dict[str, str]:
    ids = [int(key[1:]) for key in combat.state["combatants"]]
    return {combat_key(pk): character.name for pk, character in Character.objects.by_id(ids).items()}


@transaction.atomic
def combat_start(*, session: GameSession, by, fighters: Sequence[Fighter]) -> CombatRound:
    """A fight begins (FR-CMB-1): every fighter with its side and cover; turn 1."""
    session = lock_session(session)
    if CombatRound.objects.filter(session=session, status=CombatRound.Status.OPEN).exists():
        raise SessionError(E_COMBAT_OPEN)
    fresh = Character.objects.by_id([f.character.pk for f in fighters])
    fighters = [Fighter(fresh[f.character.pk], f.side, f.cover) for f in fighters]
    if len({f.side for f in fighters}) < 2:
        raise SessionError(E_ONE_SIDE)
    state = load_state(session)
    for fighter in fighters:
        seat_for(session, fighter.character, set(state.players))
    try:
        catalogue = campaign_catalogue(session.campaign)
        round_state = rules_combat.new_round([combatant_spec(f, catalogue) for f in fighters])
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    combat = CombatRound.objects.create(session=session, state=round_state, created_by=by)
    log = EventLog(session, by, [])
    log.decide(FIGHT_BEGINS,
               rules=["FR-CMB-1"], sides=msg(FIGHT_SIDES, **{
                   key: listed(f.character.name for f in fighters if f.side == side)
                   for key, side in zip(("a", "b"), dict.fromkeys(f.side for f in fighters), strict=True)}))
    log.flush()
    return combat


@transaction.atomic
def combat_declare(*, combat: CombatRound, by, character: Character, technique: str, target: Character | None = None,
                   band: str = "adyacente", weapon: str = "", special: str = "", bonus: int = 0,
                   targets: Sequence[Character] = (), move_band: str = "", move_cover: str = "",
                   aims: Sequence[tuple[Character, str]] = (), cover: str = "", mount: str = "",
                   holstered: bool | None = None, patient: Character | None = None,
                   in_session: int | None = None) -> CombatRound:
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
    The same declaration submitted twice is a no-op. ``in_session``: who may declare is checked
    here (:func:`_lock_fighter`), and the fight, the fighter, the targets and the patient may be
    given by their ids alone."""
    locked = _lock_fighter(combat, character, by=by, in_session=in_session)
    session, combat, character = locked.session, locked.combat, locked.character
    key = combat_key(character.pk)
    wanted = list(aims) or [(t, band or "adyacente") for t in (list(targets) or ([target] if target is not None else []))]
    bands: dict[str, str] = {}
    for who, who_band in wanted:
        bands.setdefault(combat_key(who.pk), who_band or "adyacente")
    names = locked.names()
    for who, who_key in [(character, key), *((t, combat_key(t.pk)) for t, _b in wanted),
                         *([(patient, combat_key(patient.pk))] if patient is not None else [])]:
        if who_key not in names:  # one named by its id alone is not named back: it may be anybody's
            raise SessionError(E_NOT_IN_COMBAT % {"name": who.name} if who.name else E_NOT_A_FIGHTER)
    if patient is not None:
        patient = locked.fighters[patient.pk]
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
    log = EventLog(session, by, [])
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
                   technique=technique,
                   targets=[msg(gettext_noop("%(who)s (%(band)s)"), who=names[t], band=b) for t, b in bands.items()],
                   special=msg(gettext_noop(" (%(special)s)"), special=special) if special else "",
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
    log.regions = {COMBAT, FEED}  # the fight's own state (medical attention below publishes its own check)
    log.flush(updates=[(combat, ("state",))])  # with its log: one statement on PostgreSQL (issue #11)
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
def combat_draw(*, combat: CombatRound, by, character: Character, in_session: int | None = None) -> CombatRound:
    """Draw the declared number of cards from the character's cards in the session (FR-CMB-1,
    FR-MODE-4, 7) and hand them in to the fight. ``in_session``: who may draw is checked here
    (:func:`_lock_fighter`)."""
    locked = _lock_fighter(combat, character, by=by, in_session=in_session)
    session, combat, character = locked.session, locked.combat, locked.character
    key = combat_key(character.pk)
    if key in combat.state.get("hands", {}):
        return combat  # a double submit
    try:
        count = rules_combat.cards_to_draw(combat.state, key)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    before = load_state(session)
    seat = seat_for(session, character, set(before.players))
    rng, seed = new_rng()
    check_id = f"r{combat.pk}t{combat.turn}{key}"
    try:
        state, events = rules_session.draw_for_check(before, seat, count, check_id, rng)
        drawn = rules_session.drawn_cards(state, seat, check_id)
        round_state, _events = rules_combat.hand_in(combat.state, key, drawn)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    kept = state_kept(session, state)
    combat.state = round_state
    if character.kind == Character.Kind.PROTAGONIST and not _plays_own_seat(session, by, combat):
        combat.drawn_by = {**combat.drawn_by, key: by.pk}  # the Mayor drew for the player: he holds it too
    log = EventLog(session, by, [])
    explain_moves(log, events, None)
    log.cards(events, before, state)
    log.decide(N_FIGHT_DRAW,
               rules=["FR-CMB-1"],
               who=character.name, count=len(drawn), seed=seed)
    log.regions = {COMBAT, FEED, *CARDS_AND_TRACKS}
    log.flush(updates=[kept, (combat, ("state", "drawn_by"))])  # one statement on PostgreSQL (issue #11)
    return combat


E_CHOOSE_DRAWN = _("Choose among the cards you drew.")


def _holds_hand(session: GameSession, by, character: Character, combat: CombatRound) -> bool:
    """Whether ``by`` holds a fighter's hand, and so chooses from it — the rule of
    ``selectors.combat_view``: the player of a protagonist, the Mayor for NPCs and minions, and the
    Mayor for a protagonist's hand he drew himself this turn (a player with no phone at hand, as
    with checks). A hand the player drew on their phone is never the Mayor's (FR-CMB-1)."""

    if character.kind != Character.Kind.PROTAGONIST:
        return is_mayor_of(by, session.campaign)
    if combat.drawn_by.get(combat_key(character.pk)) == by.pk:
        return True
    return _plays_own_seat(session, by, combat)


def _plays_own_seat(session: GameSession, by, combat: CombatRound) -> bool:
    """:func:`plays_own_seat` for the fighter :func:`_lock_fighter` read the fight for (its seat is
    the character's, never the Mayor's): whether the character is seated and ``by``'s was read with
    the fight (``plays_seat``)."""
    return not is_mayor_of(by, session.campaign) and bool(combat.plays_seat)


@transaction.atomic
def combat_choose(*, combat: CombatRound, by, character: Character, cards: Sequence[str], suit: str = "",
                  targets: dict | None = None, in_session: int | None = None) -> CombatRound:
    """Choose in secret the card(s) to play, each at its target (``targets``: card uid → character;
    optional when one target was declared) (FR-CHK-2, FR-CMB-1, FR-CMB-6); a joker takes ``suit``. When every fighter who can act is ready, all reveal at once
    (:func:`combat_reveal`).

    Only the holder of the hand chooses (:func:`_holds_hand`): anybody else — the Mayor for a
    protagonist whose player drew — gets one and the same refusal whatever the cards, before anything about the hand
    or the locked-in choice is looked at; the double submit is the holder's alone. ``in_session``:
    who may act for the fighter is checked first (:func:`_lock_fighter`), and the fighter and the
    targets may be given by their ids alone (a target that is no fighter is not aimed at)."""
    locked = _lock_fighter(combat, character, by=by, in_session=in_session)
    session, combat, character = locked.session, locked.combat, locked.character
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
    aims = {uid: combat_key(t.pk) for uid, t in (targets or {}).items()
            if t is not None and (in_session is None or t.pk in locked.fighters)}
    plays = [{"card": uid, "suit": (suit or None) if uid.partition(":")[2].startswith("JK") else None,
              **({"target": aims[uid]} if uid in aims else {})} for uid in cards]
    try:
        state, _events = rules_combat.choose(combat.state, key, plays)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    combat.state = state
    log = EventLog(session, by, [])
    log.decide(gettext_noop("%(who)s has locked in, face down."), rules=["FR-CMB-1"], who=character.name)
    if rules_combat.phase(state) == "reveal":
        # the last lock-in reveals: the round's row is written and the log flushed once, with the
        # reveal's (a write of each fewer, and one push, before the answer; issue #11)
        _combat_reveal(session, combat, by, log)
        return combat
    log.regions = {COMBAT, FEED}
    log.flush(updates=[(combat, ("state",))])  # one statement on PostgreSQL (issue #11)
    return combat


def _combat_reveal(session: GameSession, combat: CombatRound, by, log: EventLog | None = None) -> None:
    """FR-CMB-1, -5, -7, -8, -9, -13, -14: one reveal for all; every hit explained; tracks updated;
    played cards move like a check's, unchosen ones go back where unchosen cards go. The round
    resolves from the fighters' levels on their sheets (:func:`fight_takes_sheets`). ``combat.state``
    may hold a change not written yet (the lock-in that reveals), and ``log`` its lines: both are
    written here, with the reveal's."""
    log = EventLog(session, by, []) if log is None else log
    loaded, fighters = fight_takes_sheets(session, combat, log)
    if rules_combat.phase(combat.state) == "reveal" and rules_combat.phase(loaded) != "reveal":
        # a fighter whose sheet lets them act again has neither declared nor chosen: the turn
        # waits for them (ruling 3), as it would have after the Mayor's track change
        combat.state = loaded
        log.flush(updates=[(combat, ("state",))])
        return
    try:
        state, _events = rules_combat.reveal(loaded)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    names = {combat_key(pk): row.name for pk, row in fighters.items()}
    before = load_state(session)
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
    # the engine state, the fight's, the sheets and the log: one statement on PostgreSQL (issue #11)
    written = [state_kept(session, deck_state)]
    combat.state = state
    written.append((combat, ("state",)))
    log.cards(moves, before, deck_state)
    for rec in state["result"]["plays"]:
        params = {k: (names.get(v, v) if k == "target" else v) for k, v in rec["explain"]["params"].items()}
        log.decide(gettext_noop("%(who)s → %(target)s: %(explain)s"), rules=["FR-CMB-5", "FR-CMB-8"],
                   who=names[rec["attacker"]], target=names[rec["target"]],
                   explain=msg(rec["explain"]["template"], **params))
    log_contests(log, state, names)  # each hold kept or broken (FR-CMB-13)
    for key, totals in state["result"]["targets"].items():
        character = fighters[int(key[1:])]  # locked and read by fight_takes_sheets
        sheet = rules_characters.Character.from_json(character.sheet)
        sheet = dataclass_replace(sheet, health=totals["health_after"], morale=totals["morale_after"])
        written.append(sheet_kept(character, sheet))
        if totals["health_after"] == DEATH_LEVEL and totals["health_before"] != DEATH_LEVEL:
            record_death(session, combat, character.pk, names[key], log)
        # only the tracks that changed ("Moral Normal → Normal" beside a Salud that did)
        changes = [msg(said, before=level_name(track, totals[f"{track}_before"]),
                       after=level_name(track, totals[f"{track}_after"]))
                   for track, said in TRACKS_CHANGED if totals[f"{track}_after"] != totals[f"{track}_before"]]
        if changes:
            log.decide(gettext_noop("%(who)s: %(changes)s."), rules=["FR-HLT-1", "FR-MOR-1"], who=names[key],
                       changes=changes)
    log.flush(updates=written)


@transaction.atomic
def combat_next_turn(*, combat: CombatRound, by, request_key: str = "") -> CombatRound:
    """The next turn (FR-CMB-3): moves and cover apply, penalties carry; on turn 5 and every 5th
    each fighter who can act draws a dead man's hand for jams (FR-CMB-12): an 8 loses the turn.
    A repeated ``request_key`` (a double click) moves on no further."""
    if _repeated(combat, request_key):
        return CombatRound.objects.get(pk=combat.pk)
    session, combat = _lock_combat(combat)
    try:
        state, _events = rules_combat.next_turn(combat.state)
        names = _fighter_names(combat)
        rng, seed = new_rng()
        log = EventLog(session, by, [])
        if rules_combat.jam_turn(state["turn"]):
            deck = load_state(session)
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
                                                 penalty=track_penalty(sheet))
    combat.state = state
    combat.turn = state["turn"]
    combat.drawn_by = {}
    combat.save(update_fields=["state", "turn", "drawn_by"])
    log.decide(FIGHT_TURN, rules=["FR-CMB-3"], turn=combat.turn)
    log.flush()
    return combat


@transaction.atomic
def combat_end(*, combat: CombatRound, by, request_key: str = "") -> CombatRound:
    """The Mayor ends the fight; open draws go back where unchosen cards go. A repeated
    ``request_key`` answers like the first."""
    return _close_fight(combat, by, withdrawn=False, request_key=request_key)


@transaction.atomic
def combat_withdraw(*, combat: CombatRound, by, request_key: str = "") -> CombatRound:
    """The Mayor withdraws a fight he started by mistake (issue #10): the turn's drawn and locked-in
    cards go back where unchosen cards go, by the rules' own movement (FR-MODE-4, 7, 10, 11),
    unrevealed; what earlier turns revealed stands. The history says it was withdrawn."""
    return _close_fight(combat, by, withdrawn=True, request_key=request_key)


def _close_fight(combat: CombatRound, by, *, withdrawn: bool, request_key: str) -> CombatRound:
    if _repeated(combat, request_key):
        return CombatRound.objects.get(pk=combat.pk)
    session, combat = _lock_combat(combat)
    before = load_state(session)
    state, moves = before, []
    for seat, checks in before.pending.items():
        for check_id in list(checks):
            if check_id.startswith(f"r{combat.pk}t"):
                state, more = rules_session.settle_check(state, seat, check_id,
                                                         "withdrawn" if withdrawn else "cancelled")
                moves += more
    save_state(session, state)
    combat.status = CombatRound.Status.WITHDRAWN if withdrawn else CombatRound.Status.ENDED
    combat.save(update_fields=["status"])
    log = EventLog(session, by, [])
    log.cards(moves, before, state)
    if withdrawn:
        log.decide(FIGHT_WITHDRAWN, rules=["FR-MODE-4", "FR-MODE-7"], turn=combat.turn,
                   who=listed(_fighter_names(combat).values()), cards=msg(N_CARDS, n=len(moves)))
    else:
        log.decide(FIGHT_OVER, rules=["FR-CMB-1"])
    log.flush()
    return combat
