"""The drinking duel (FR-SOB-2) and the pistol duel (FR-CMB-15, FR-EXCH-3).

Rules: FR-SOB-1 and FR-SOB-2 (drinks, Sobriedad), FR-GMB-7 (the bet), FR-CMB-7 and FR-CMB-15 (the
duel's weapons and hits), FR-OPP-1, FR-OPP-2 and FR-OPP-5 (each round is an opposed check), FR-HLT-1
and FR-HLT-3 (what a hit does), FR-EXCH-2 and FR-EXCH-3 (the exchanges after).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace as dataclass_replace

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera import glossary
from frontera.characters.models import CatalogueItem, Character
from frontera.characters.selectors import campaign_catalogue
from frontera.messages import names as listed  # a list of names, joined the reader's way
from frontera.play.models import (
    MAYOR_SEAT,
    Check,
    Exchange,
    Gamble,
    GameSession,
    PistolDuel,
    combat_key,
    seat_key,
)
from frontera.play.services.checks import Entry, create_check
from frontera.play.services.core import (
    EventLog,
    SessionError,
    level_name,
    load_state,
    lock_character,
    lock_for_request,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_sheet,
    seat_for,
)
from frontera.play.services.death import DEATH_LEVEL, sync_combat
from frontera.play.services.exchanges import open_exchange
from frontera.play.services.fighters import Fighter, carried_weapons, combatant_spec
from frontera.play.services.gambling import ROLE_LABELS, bet_exchange, lock_gamble
from frontera.play.services.table_tools import drunk_exchanges
from frontera.rules import characters as rules_characters
from frontera.rules import checks as rules_checks
from frontera.rules import combat as rules_combat
from frontera.rules import exchanges as rules_exchanges
from frontera.rules import session as rules_session
from frontera.rules import tracks as rules_tracks
from frontera.rules.cards import Card
from frontera.rules.errors import RulesError


@transaction.atomic
def drinking_duel_start(*, session: GameSession, by, characters: Sequence[Character], request_key: str = "") -> Gamble:
    """A drinking duel (FR-SOB-2, FR-GMB-7): rounds in which everyone drinks once; the first to reach
    En coma loses; then the bet's exchange (FR-EXCH-2)."""

    session, existing = lock_for_request(session, Gamble, request_key)
    if existing is not None:
        return existing  # a double submit of the same form
    drinkers = {}
    for character in characters:
        locked, sheet = lock_character(session, character)
        drinkers[str(locked.pk)] = {"aguante": sheet.aguante, "sobriety": sheet.sobriety, "kind": locked.kind}
    try:
        state = rules_tracks.drinking_duel(drinkers, mode=session.mode)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble = Gamble.objects.create(session=session, kind=Gamble.Kind.DRINKING_DUEL, state=state,
                                   players={k: {"cheat": False} for k in drinkers}, request_key=request_key,
                                   created_by=by)
    log = EventLog(session, by, [])
    log.decide(gettext_noop("A duelo de bebida: %(who)s. Everyone drinks once a round; the first in a coma loses."),
               rules=["FR-SOB-2", "FR-GMB-7"], who=listed(c.name for c in characters))
    log.flush()
    return gamble


@transaction.atomic
def drinking_duel_drink(*, gamble: Gamble, by, character: Character, round_seen: int | None = None) -> Gamble:
    """``character`` drinks one more in the duel (FR-SOB-2): from ceil(Aguante / 2) drinks a dead
    man's hand (2 cards, the better; 1 beyond Aguante) keeps or lowers Sobriedad; Borracho and En coma
    bring their exchanges (FR-SOB-1). Drinking twice in the same round (a double submit) is a no-op."""

    session, gamble = lock_gamble(gamble)
    key = str(character.pk)
    state = gamble.state
    if key in state.get("drank", []) and round_seen == state.get("round"):
        return gamble
    locked, sheet = lock_character(session, character)
    rng, seed = new_rng()
    try:
        count = rules_tracks.duel_next_dmh_cards(state, key)
        cards = [Card.from_uid(u) for u in rules_session.draw_dead_mans_hand(load_state(session), rng, count)] if count else None
        state, events = rules_tracks.duel_drink(state, key, cards)
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    gamble.state = state
    drink_event = events[0]
    before, after = drink_event["sobriety"]["from"], drink_event["sobriety"]["to"]
    if after != before:
        sheet = rules_characters.lose_levels(sheet, "sobriety", before - after)
        save_sheet(locked, sheet)
    log = EventLog(session, by, [])
    # a drink that leaves the level as it was says so (as table_tools.drink does)
    said = (gettext_noop("Duelo de bebida, drink %(drinks)s for %(who)s (Aguante %(aguante)s)%(dmh)s: %(before)s → "
                         "%(after)s.") if after != before else
            gettext_noop("Duelo de bebida, drink %(drinks)s for %(who)s (Aguante %(aguante)s)%(dmh)s: still %(after)s."))
    log.decide(said, rules=["FR-SOB-2"], who=locked.name, drinks=drink_event["drinks"],
               aguante=sheet.aguante, dmh=(" · " + " ".join(c.label for c in cards)) if cards else "",
               before=level_name("sobriety", before), after=level_name("sobriety", after), seed=seed)
    drunk_exchanges(session, log, locked, drink_event["due"], rng)
    over = [e for e in events if e["type"] == "duel_over"]
    if over:
        roles = {k: {"win": "victory", "loss": "defeat", "tie": "tie"}[v] for k, v in over[0]["result"].items()}
        names = dict(Character.objects.filter(pk__in=[int(k) for k in roles]).values_list("pk", "name"))
        # each reader reads the roles in their own language (they were written in the Mayor's)
        log.decide(gettext_noop("The duelo de bebida is over: %(result)s."), rules=["FR-SOB-2"],
                   result=[msg(gettext_noop("%(who)s (%(role)s)"), who=names[int(k)], role=msg(ROLE_LABELS[v]))
                           for k, v in roles.items()])
        gamble.status = Gamble.Status.SETTLED
        kinds = dict(Character.objects.filter(pk__in=[int(k) for k in roles]).values_list("pk", "kind"))
        bet_exchange(session, by, log, [
            (k, seat_key(int(k)) if kinds[int(k)] == Character.Kind.PROTAGONIST else MAYOR_SEAT, role, names[int(k)])
            for k, role in roles.items()])
    gamble.save(update_fields=["state", "status"])
    log.flush()
    return gamble


# A pistol duel is an ordinary opposed check (Check/Participant: each duellist draws on their own
# phone, or the Mayor for NPCs and players without one, with the odds shown; chooses in secret; one
# reveal, FR-OPP-1..5) tied to a PistolDuel row that names the weapons. After the reveal
# (:func:`after_duel_round_reveal`, a follow-up of the check) the engine's pistol_duel decides the hits: the loser
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


def _weapon_text(session: GameSession, key: str, catalogue: dict):
    """A weapon for the feed: its name in both languages (the campaign's catalogue entry), so each
    reader reads their own (:func:`frontera.glossary.both`)."""
    item = CatalogueItem.objects.filter(campaign_id=session.campaign_id, key=key).first()
    return glossary.both(item.name, item.name_en) if item is not None else _weapon_label(key, catalogue)


def _duel_gun(character: Character, key: str, catalogue: dict) -> dict:
    """The ranged weapon ``key`` the character carries (the combat engine's shape), or a refusal."""
    if not key:
        raise SessionError(E_DUEL_NO_WEAPON % {"name": character.name})
    sheet = rules_characters.Character.from_json(character.sheet)
    for gun in carried_weapons(sheet, catalogue)[0]:
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
    the rest happens when both have chosen (:func:`after_duel_round_reveal`). A repeated
    ``request_key`` returns the duel already called."""
    session, existing = lock_for_request(session, PistolDuel, request_key)
    if existing is not None:
        return existing  # a double submit of the same form
    if first.pk == second.pk:
        raise SessionError(E_DUEL_TWO)
    fresh = Character.objects.by_id([first.pk, second.pk])
    first, second = fresh[first.pk], fresh[second.pk]
    seats = set(load_state(session).players)
    catalogue = campaign_catalogue(session.campaign)
    guns = {}
    for character, key in ((first, first_weapon), (second, second_weapon)):
        seat_for(session, character, seats)  # of this campaign, and at the session if a protagonist
        guns[character.pk] = _duel_gun(character, key, catalogue)
    duel = PistolDuel.objects.create(session=session, first=first, second=second, first_weapon=first_weapon,
                                     second_weapon=second_weapon, request_key=request_key, created_by=by,
                                     result={"guns": {combat_key(pk): gun for pk, gun in guns.items()}})
    log = EventLog(session, by, [])
    log.decide(gettext_noop("Pistol duel: %(a)s (%(wa)s, damage %(da)s) against %(b)s (%(wb)s, damage %(db)s). "
                            "Opposed Manos (Disparo rápido), no absorption; each chooses in secret, one reveal."),
               rules=["FR-CMB-15", "FR-OPP-1"],
               a=first.name, wa=_weapon_text(session, first_weapon, catalogue), da=_duel_damage(guns[first.pk]),
               b=second.name, wb=_weapon_text(session, second_weapon, catalogue), db=_duel_damage(guns[second.pk]))
    log.flush()
    _duel_round(session, duel, by)
    return duel


def _duel_round(session: GameSession, duel, by) -> None:
    """One opposed check of the duel (again after FR-OPP-5's Tablas); settled at once if nobody
    draws a card (everyone's automatic failure reveals it on creation)."""
    catalogue = campaign_catalogue(session.campaign)
    first, second = duel.first, duel.second
    label = msg(gettext_noop("Pistol duel, round %(n)s: %(a)s (%(wa)s) vs %(b)s (%(wb)s)"), n=duel.rounds,
                a=first.name, wa=_weapon_text(session, duel.first_weapon, catalogue),
                b=second.name, wb=_weapon_text(session, duel.second_weapon, catalogue))
    entries = [Entry(first, DUEL_TRAIT, DUEL_SKILL), Entry(second, DUEL_TRAIT, DUEL_SKILL)]
    prueba = create_check(session=session, by=by, kind=Check.Kind.OPPOSED, entries=entries, difficulty=None,
                           label=label, request_key="")
    duel.prueba = prueba
    duel.save(update_fields=["prueba", "rounds"])
    if prueba.status == Check.Status.RESOLVED:
        _duel_settle(session, duel, prueba, by)


def after_duel_round_reveal(session: GameSession, prueba: Check, by) -> None:
    """The follow-up of an opposed check (:func:`~frontera.play.services.follow_ups.after_opposed_reveal`):
    an opposed check just revealed may be a duel's round (FR-CMB-15)."""
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

    session = lock_session(GameSession(pk=session.pk))  # the cards as the reveal left them
    catalogue = campaign_catalogue(session.campaign)
    parts = {p.character_id: p for p in prueba.participants.all()}
    duellists = [(duel.first, duel.first_weapon, "a"), (duel.second, duel.second_weapon, "b")]
    rows, specs, plays, weapons = {}, [], {}, {}
    guns = duel.result.get("guns", {})
    for character, weapon_key, side in duellists:
        row, sheet = lock_character(session, character)
        key = combat_key(row.pk)
        rows[key] = (row, sheet, parts[row.pk].seat)
        spec = combatant_spec(Fighter(row, side), catalogue)
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
    log = EventLog(session, by, [])
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
        save_sheet(row, sheet)
        log.decide(gettext_noop("%(who)s is hit by %(shooter)s's %(weapon)s: damage %(damage)s (%(base)s base + "
                                "%(weapon_damage)s weapon) in full, no absorption by Aguante %(aguante)s. Salud "
                                "%(before)s → %(after)s."),
                   rules=["FR-CMB-15", "FR-CMB-7", "FR-HLT-1"], prueba=prueba, shooter=names[rival],
                   weapon=_weapon_text(session, weapons[rival], catalogue), who=row.name, damage=damage,
                   base=damage - gun["damage"], weapon_damage=gun["damage"], aguante=sheet.aguante,
                   before=level_name("health", before), after=level_name("health", sheet.health))
        if sheet.health == DEATH_LEVEL and before != DEATH_LEVEL:
            log.decide(gettext_noop("%(who)s is Muerto: the Mayor draws the dead man's hand for the death roll."),
                       rules=["FR-HLT-3"], prueba=prueba, who=row.name)
        sync_combat(session, row, sheet, log)
    exchange = _duel_exchange(session, by, log, result, rows, names)
    duel.status, duel.exchange = PistolDuel.Status.SETTLED, exchange
    duel.result = {**result, "weapons": weapons, "guns": guns}
    duel.save(update_fields=["status", "exchange", "result"])
    log.flush()


def _duel_exchange(session: GameSession, by, log: EventLog, result: dict, rows: dict, names: dict):
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
        state = load_state(session)
        rules_exchanges.exchange_options(state, seats[first])
        rules_exchanges.exchange_options(state, seats[second])
        return open_exchange(session, by, log, kind, seats[first], names[first], seats[second], names[second])
    except RulesError as err:
        log.decide(gettext_noop("No card exchange after the duel: %(reason)s"), rules=["FR-EXCH-3"],
                   reason=msg(err.template, **err.params))
    except SessionError as err:
        log.decide(gettext_noop("No card exchange after the duel: %(reason)s"), rules=["FR-EXCH-3"], reason=str(err))
    return None
