"""Every read of a live session, and the one place that decides which cards a viewer may see.

:func:`viewer_for` names the viewer's role (the Mayor, a player and their seats, anybody else);
:func:`dashboard_view` and :func:`phone_view` build the whole view model of a page from it, and
pages, htmx fragments and live refetches all render from those two functions, so a fragment can
never show more than its page. Card visibility follows the engine (:func:`frontera.rules.session.view`)
plus the check rules: a participant's drawn cards are seen only by whoever holds them (the
character's player, or the Mayor for NPCs, minions and draws he made himself); a played card is
seen by everyone once revealed (at once in a trait check, all together in an opposed check).
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Max, Prefetch
from django.utils.translation import gettext, gettext_noop

from frontera.campaigns.permissions import is_mayor_of
from frontera.characters.models import Character
from frontera.messages import engine_text
from frontera.play.models import (
    MAYOR_SEAT,
    Check,
    CombatRound,
    Exchange,
    Gamble,
    GameSession,
    Participant,
    Seat,
    SessionEvent,
    combat_key,
    seat_key,
)
from frontera.play.services.checks import why
from frontera.play.services.combat import COVER_LABELS, MOUNT_LABELS
from frontera.play.services.core import OUTCOME_LABELS
from frontera.play.services.death import DEATH_ROLL_TURNS
from frontera.play.services.exchanges import EXCHANGE_RULES, exchange_choices
from frontera.rules import characters as rules_characters
from frontera.rules import combat as rules_combat
from frontera.rules import odds as rules_odds
from frontera.rules import session as rules_session
from frontera.rules.cards import SUIT_SYMBOL, SUITS, Card
from frontera.rules.errors import RulesError
from frontera.rules.tracks import HEALTH_NAMES, MORALE_NAMES, SOBRIETY_NAMES, draw_penalty, incapacity

FEED_LENGTH = 25
RECENT_CHECKS = 6
PHONE_RECENT_CHECKS = 2
SUIT_CLASS = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}


@dataclass
class Viewer:
    user: object
    is_mayor: bool
    seats: set[str] = field(default_factory=set)  # engine players whose hidden cards this viewer holds


def viewer_for(session: GameSession, user) -> Viewer:
    """The viewer's role at this session; a member of the campaign is assumed (views check it)."""
    if is_mayor_of(user, session.campaign):
        return Viewer(user, True, {MAYOR_SEAT})
    own = Seat.objects.filter(session=session, character__owner=user).values_list("character_id", flat=True)
    return Viewer(user, False, {seat_key(pk) for pk in own})


def session_version(session_id: int) -> int:
    """The live-bus version of a session: its latest event id (0 if none)."""
    return SessionEvent.objects.filter(session_id=session_id).aggregate(m=Max("pk"))["m"] or 0


def sessions_of(campaign) -> list[GameSession]:
    return list(GameSession.objects.filter(campaign=campaign).order_by("-number"))


# --- messages ----------------------------------------------------------------------------------


def render_message(message: str, params: dict) -> str:
    """A logged message in the current language; parameters that are messages are translated too,
    and a message with plural forms takes the form of its number (:mod:`frontera.messages`)."""
    return engine_text(message, params)


def session_feed(session: GameSession, limit: int = FEED_LENGTH) -> list[dict]:
    """The latest rule decisions, explained. They never name a hidden card (the services only put
    public facts in them); card movements stay in the log, redacted per viewer by ``seen_by``."""
    events = (
        SessionEvent.objects.filter(session=session, kind=SessionEvent.Kind.DECISION)
        .select_related("actor")
        .order_by("-pk")[:limit]
    )
    return [
        {"at": e.created_at, "actor": e.actor, "text": render_message(e.message, e.params), "rules": e.rules}
        for e in events
    ]


# --- cards -------------------------------------------------------------------------------------


def card_view(uid: str, declared: str = "") -> dict:
    card = Card.from_uid(uid)
    if declared and card.is_joker:
        card = card.declare(declared)
    return {
        "uid": uid,
        "label": card.label,
        "rank": card.rank if not card.is_joker else "JK",
        "symbol": SUIT_SYMBOL[card.suit] if card.suit else "★",
        "css": SUIT_CLASS[card.suit] if card.suit else "joker",
        "is_joker": card.is_joker,
    }


def cards_view(uids) -> list[dict]:
    return [card_view(uid) for uid in sorted(uids, key=rules_session.card_sort_key)]


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.1f}"


def _odds(state, participant: Participant, difficulty: int | None) -> dict | None:
    """FR-ODDS-1: exact odds for the cards this check will actually draw from (shown to its holder)."""
    try:
        source = rules_session.draw_source(state, participant.seat, participant.cards)
        odds = rules_odds.check_odds(source, participant.cards, participant.trait, difficulty)
    except RulesError:
        return None
    return {key: _percent(value) for key, value in odds.items()}


# --- characters ----------------------------------------------------------------------------------


def _tracks(sheet: rules_characters.Character) -> dict:
    reason = incapacity(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    return {
        "health": sheet.health, "health_name": HEALTH_NAMES[sheet.health],
        "morale": sheet.morale, "morale_name": MORALE_NAMES[sheet.morale],
        "sobriety": sheet.sobriety, "sobriety_name": SOBRIETY_NAMES[sheet.sobriety],
        "penalty": None if reason else draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety),
        "incapacity": reason,
        "aguante": sheet.aguante,
        "confianza": sheet.confianza,
    }


def character_row(character: Character) -> dict:
    sheet = rules_characters.Character.from_json(character.sheet)
    traits = []
    if sheet.traits is not None:
        traits = [{"name": rules_characters.TRAIT_NAMES[t], "score": s, "key": t} for t, s in sheet.traits.items()]
    return {
        "character": character,
        "pk": character.pk,
        "name": character.name,
        "kind": character.kind,
        "kind_label": character.get_kind_display(),
        "traits": traits,
        "flat_cards": sheet.cards_per_check,
        "skills": [rules_characters.SKILLS[s].name for s in sheet.skills],
        "money": sheet.money,
        **_tracks(sheet),
    }


# --- checks ------------------------------------------------------------------------------------


def _participant_row(p: Participant, prueba: Check, viewer: Viewer, state, *, with_odds: bool) -> dict:
    holds = p.seat in viewer.seats or (viewer.is_mayor and p.drawn_by_id == viewer.user.pk)
    can_act = viewer.is_mayor or p.seat in viewer.seats
    revealed = p.status == Check.Status.RESOLVED
    drawn = cards_view(p.drawn) if holds and p.status != Check.Status.REQUESTED else []
    played = card_view(p.played, p.declared) if p.played and (holds or revealed) else None
    return {
        "pk": p.pk,
        "name": p.character.name,
        "kind": p.character.kind,
        "what": _what(p),
        "cards": p.cards,
        "status": p.status,
        "drawn_count": len(p.drawn),
        "drawn": drawn,
        "has_joker": any(c["is_joker"] for c in drawn),
        "played": played,
        "outcome": p.outcome,
        "outcome_label": gettext(OUTCOME_LABELS[p.outcome]) if p.outcome else "",
        "why": _why(p, prueba) if revealed and p.played and prueba.kind == Check.Kind.TRAIT else "",
        "status_label": p.get_status_display(),
        "can_draw": can_act and p.status == Check.Status.REQUESTED,
        "can_choose": can_act and holds and p.status == Check.Status.DRAWN,
        "mine": p.seat in viewer.seats,
        "odds": _odds(state, p, prueba.difficulty)
        if with_odds and p.seat in viewer.seats and p.status == Check.Status.REQUESTED and p.cards > 0
        else None,
    }


def _why(p: Participant, prueba: Check) -> str:
    card = Card.from_uid(p.played)
    card = card.declare(p.declared) if p.declared else card
    explained = why(card, p.trait, prueba.difficulty, p.outcome)
    return render_message(explained["_msg"], {k: v for k, v in explained.items() if k != "_msg"})


def _what(p: Participant) -> str:
    name = rules_characters.TRAIT_NAMES[p.trait]
    return f"{name} ({rules_characters.SKILLS[p.skill].name})" if p.skill else name


def _check_rows(checks, viewer: Viewer, state, *, only_seats: set[str] | None = None) -> list[dict]:
    rows = []
    for prueba in checks:
        participants = list(prueba.participants.all())
        if only_seats is not None and not any(p.seat in only_seats for p in participants):
            continue
        rows.append({
            "pk": prueba.pk,
            "kind": prueba.kind,
            "label": prueba.label,
            "difficulty": prueba.difficulty,
            "status": prueba.status,
            "open": prueba.status != Check.Status.RESOLVED,
            "participants": [
                _participant_row(p, prueba, viewer, state, with_odds=prueba.status != Check.Status.RESOLVED)
                for p in participants
            ],
        })
    return rows


def _checks(session: GameSession):
    participants = Participant.objects.select_related("character").order_by("pk")
    base = Check.objects.filter(session=session).prefetch_related(Prefetch("participants", queryset=participants))
    open_checks = list(base.exclude(status=Check.Status.RESOLVED).order_by("pk"))
    recent = list(base.filter(status=Check.Status.RESOLVED).order_by("-pk")[:RECENT_CHECKS])
    return open_checks, recent


# --- zones -------------------------------------------------------------------------------------


def _zones(seen: dict) -> dict:
    return {
        "pile": seen["pile"]["count"],
        "discard": seen["discard"]["count"],
        "treasure": seen["treasure"]["count"],
        "out_of_play": seen["out_of_play"]["count"],
        "dead_mans_hand": cards_view(seen["dead_mans_hand"]["cards"]),
    }


def _seat_row(seen: dict, key: str) -> dict:
    seat = seen["seats"][key]
    return {
        "deck_count": seat["deck"]["count"],
        "deck": cards_view(seat["deck"]["cards"]),
        "discard": cards_view(seat["discard"]["cards"]),
        "discard_count": seat["discard"]["count"],
        "pending_count": sum(z["count"] for z in seat["pending"].values()),
    }


def _by_suit(uids: list[str]) -> list[dict]:
    counts = Counter(Card.from_uid(u).suit or "JK" for u in uids)
    rows = [{"symbol": SUIT_SYMBOL[s], "css": SUIT_CLASS[s], "count": counts[s]} for s in SUITS]
    if counts["JK"]:
        rows.append({"symbol": "★", "css": "joker", "count": counts["JK"]})
    return rows


def _base(session: GameSession, viewer: Viewer) -> tuple[dict, rules_session.Session, dict]:
    state = rules_session.Session.from_json(session.state)
    # The engine's own redaction: the Mayor sees as his seat, a player as theirs (one per character).
    seat = MAYOR_SEAT if viewer.is_mayor else next(iter(sorted(viewer.seats)), None)
    seen = rules_session.view(state, seat if seat in state.players else None)
    context = {
        "session": session,
        "campaign": session.campaign,
        "is_mayor": viewer.is_mayor,
        "phase": state.phase,
        "mode": session.get_mode_display(),
        "ended": session.status == GameSession.Status.ENDED,
        "zones": _zones(seen),
        "feed": session_feed(session),
        "version": session_version(session.pk),
    }
    return context, state, seen


def callable_characters(session: GameSession) -> list[tuple[int, str]]:
    """Who the Mayor may call to a check: the protagonists present, then every NPC and minion."""
    seated = [(s.character_id, s.character.name) for s in Seat.objects.filter(session=session).select_related("character")]
    others = Character.objects.filter(campaign=session.campaign).exclude(kind=Character.Kind.PROTAGONIST)
    return seated + [(c.pk, c.name) for c in others.order_by("kind", "name")]


def dashboard_view(session: GameSession, user) -> dict:
    """The Mayor's dashboard: every character with tracks and draw penalty, every zone (counts
    where hidden), open and recent checks, the feed. A constant number of queries."""
    viewer = viewer_for(session, user)
    assert viewer.is_mayor, "the dashboard is the Mayor's"
    context, state, seen = _base(session, viewer)
    seats = list(Seat.objects.filter(session=session).select_related("character__owner"))
    seated = {s.character_id for s in seats}
    npcs = list(
        Character.objects.filter(campaign=session.campaign).exclude(kind=Character.Kind.PROTAGONIST).order_by("kind", "name")
    )
    absent = list(
        Character.objects.filter(campaign=session.campaign, kind=Character.Kind.PROTAGONIST)
        .exclude(pk__in=seated).order_by("name")
    )
    protagonists = []
    for s in seats:
        row = character_row(s.character)
        row.update(player=s.character.owner.get_username(), seat=_seat_row(seen, s.key))
        protagonists.append(row)
    treated = session.tallies.get("medical", {})
    for row in protagonists:
        row["treated"] = str(row["pk"]) in treated
    open_checks, recent = _checks(session)
    context.update(
        protagonists=protagonists,
        npcs=[character_row(c) for c in npcs],
        absent=absent,
        mayor_seat=_seat_row(seen, MAYOR_SEAT),
        open_checks=_check_rows(open_checks, viewer, state),
        recent_checks=_check_rows(recent, viewer, state),
        callable_characters=[(s.character_id, s.character.name) for s in seats] + [(c.pk, c.name) for c in npcs],
        fight=combat_view(session, viewer),
        exchanges=exchanges_view(session, viewer, state),
        bancas=banca_view(session, viewer),
        duels=drinking_duels_view(session, viewer),
    )
    return context


def phone_view(session: GameSession, user) -> dict:
    """The player's phone: their character(s) with tracks and deck (a count in phase 1, the
    composition by suit in phase 2), their checks with odds, cards and choices, the feed."""
    viewer = viewer_for(session, user)
    context, state, seen = _base(session, viewer)
    mine = []
    seats = list(
        Seat.objects.filter(session=session, character__owner=user).select_related("character").order_by("pk")
    )
    for s in seats:
        row = character_row(s.character)
        view = rules_session.view(state, s.key) if s.key in state.players else seen
        seat = _seat_row(view, s.key)
        owner_sees = rules_session.owner_sees_deck(state)
        seat["by_suit"] = _by_suit([c["uid"] for c in seat["deck"]]) if owner_sees else []
        seat["owner_sees"] = owner_sees
        row["seat"] = seat
        row["treated"] = str(row["pk"]) in session.tallies.get("medical", {})
        mine.append(row)
    open_checks, recent = _checks(session)
    context.update(
        mine=mine,
        my_open_checks=_check_rows(open_checks, viewer, state, only_seats=viewer.seats),
        others_open_checks=[
            row for row in _check_rows(open_checks, viewer, state) if not any(p["mine"] for p in row["participants"])
        ],
        my_recent_checks=_check_rows(recent, viewer, state, only_seats=viewer.seats)[:PHONE_RECENT_CHECKS],
        fight=combat_view(session, viewer),
        exchanges=exchanges_view(session, viewer, state),
        bancas=banca_view(session, viewer),
        duels=drinking_duels_view(session, viewer),
    )
    return context


# --- gambling (FR-GMB) ---------------------------------------------------------------------------

BANCA_STATUS = {"playing": gettext_noop("playing"), "last_round": gettext_noop("leaves after the next round"),
                "left": gettext_noop("has left")}


def banca_view(session: GameSession, viewer: Viewer) -> list[dict]:
    """Open bancas: the cards turned are public (played face up, docs/sessions.md), the points,
    and the buttons the viewer may use: the Mayor turns cards; the player (or the Mayor for them)
    tries to leave with a check."""
    rows = []
    gambles = list(Gamble.objects.filter(session=session, kind=Gamble.Kind.BANCA, status=Gamble.Status.OPEN)
                   .select_related("prueba").order_by("pk"))
    characters = Character.objects.in_bulk([int(next(iter(g.players))) for g in gambles])
    for gamble in gambles:
        state = gamble.state
        character = characters[int(next(iter(gamble.players)))]
        own = seat_key(character.pk) in viewer.seats
        checking = gamble.prueba is not None and gamble.prueba.status != Check.Status.RESOLVED
        rows.append({
            "pk": gamble.pk, "name": character.name, "money": state["money"], "cheating": state["cheating"],
            "bank": state["bank"], "player": state["player"], "rounds": len(state["rounds"]),
            "cards": [dict(card_view(r["card"]), side=r["side"], points=r["points"]) for r in state["rounds"][-12:]],
            "status": gettext(BANCA_STATUS[state["status"]]), "checking": checking,
            "can_deal": viewer.is_mayor and not checking,
            "can_stop": (viewer.is_mayor or own) and state["status"] == "playing" and state["may_stop"] and not checking,
        })
    return rows


def drinking_duels_view(session: GameSession, viewer: Viewer) -> list[dict]:
    """Open drinking duels (FR-SOB-2): public; a drinker's player (or the Mayor) taps "drink"."""
    rows = []
    gambles = list(Gamble.objects.filter(session=session, kind=Gamble.Kind.DRINKING_DUEL, status=Gamble.Status.OPEN))
    ids = [int(k) for g in gambles for k in g.players]
    characters = Character.objects.in_bulk(ids)
    for gamble in gambles:
        state = gamble.state
        drinkers = []
        for key, d in state["drinkers"].items():
            character = characters[int(key)]
            own = seat_key(character.pk) in viewer.seats
            drinkers.append({"pk": character.pk, "name": character.name, "drinks": d["drinks"],
                             "sobriety": SOBRIETY_NAMES[d["sobriety"]], "drank": key in state["drank"],
                             "can_drink": (viewer.is_mayor or own) and key not in state["drank"]})
        rows.append({"pk": gamble.pk, "round": state["round"], "drinkers": drinkers})
    return rows


# --- card exchanges ------------------------------------------------------------------------------

EXCHANGE_HINTS = {
    ("bet", "take"): gettext_noop("%(chooser)s chooses the card of %(other)s's deck to keep."),
    ("bet", "give"): gettext_noop("%(chooser)s chooses one of their own cards to give to %(other)s."),
    ("cheat", "take"): gettext_noop("%(chooser)s chooses the card of %(other)s's deck to keep; nothing goes back."),
    ("duel", "take"): gettext_noop("%(chooser)s may choose up to 2 cards of %(other)s's deck."),
    ("duel", "give"): gettext_noop("%(chooser)s chooses as many of their own cards to give back to %(other)s."),
    ("treasure_swap", "give"): gettext_noop("%(chooser)s chooses one of their own cards to give to %(other)s."),
    ("treasure_swap", "give_b"): gettext_noop("%(chooser)s chooses one of their own cards to give to %(other)s."),
    ("coma", "give"): gettext_noop("The Mayor chooses one of his cards to give back to %(other)s."),
}


def exchanges_view(session: GameSession, viewer: Viewer, state) -> list[dict]:
    """Pending card exchanges (FR-EXCH): who must choose and, for whoever may choose now (the
    chooser on their phone, or the Mayor acting for anyone), the cards offered — by face only the
    cards both the chooser and the viewer may see (FR-EXCH-7, FR-MODE-2), the rest face down by
    position. A player sees only the exchanges their characters take part in."""
    rows = []
    for exchange in Exchange.objects.filter(session=session, status=Exchange.Status.PENDING).order_by("pk"):
        if exchange.kind == Exchange.Kind.TREASURE_TAKE:  # a sharing among several protagonists
            row = sharing_row(exchange, viewer, state)
            if row is not None:
                rows.append(row)
            continue
        involved = {exchange.first, exchange.second} & viewer.seats
        if not viewer.is_mayor and not involved:
            continue
        names = {seat: gettext(name) if seat == MAYOR_SEAT else name
                 for seat, name in ((exchange.first, exchange.first_name), (exchange.second, exchange.second_name))}
        chooser = exchange.chooser
        other = exchange.second if chooser == exchange.first else exchange.first
        actor = chooser if chooser in viewer.seats else (MAYOR_SEAT if viewer.is_mayor else None)
        options, error = [], ""
        if actor is not None and chooser in state.players and other in state.players:
            try:
                options = [{"value": o["value"], "card": card_view(o["uid"]) if o["uid"] else None,
                            "position": o["value"][1:] if not o["uid"] else ""}
                           for o in exchange_choices(state, exchange, actor)]
            except RulesError:
                options = []
        if exchange.kind == Exchange.Kind.DUEL and exchange.step == "take":
            most = 2
        elif exchange.kind == Exchange.Kind.DUEL:
            most = min(len(exchange.chosen.get("take", [])), len(options))
        else:
            most = 1 if options else 0
        rows.append({
            "pk": exchange.pk, "kind": exchange.kind, "kind_label": exchange.get_kind_display(),
            "step": exchange.step, "a": names[exchange.first], "b": names[exchange.second],
            "chooser": names[chooser],
            "hint": render_message(EXCHANGE_HINTS[(exchange.kind, exchange.step)],
                                   {"chooser": names[chooser], "other": names[other]}),
            "can_choose": actor is not None, "acting_for": actor == MAYOR_SEAT and chooser != MAYOR_SEAT,
            "options": options, "most": most, "multiple": most > 1, "error": error,
            "rules": ", ".join(EXCHANGE_RULES[exchange.kind]),
        })
    return rows


def sharing_row(exchange: Exchange, viewer: Viewer, state) -> dict | None:
    """A treasure being shared (FR-EXCH-6), for its sharers' players and the Mayor only: the cards
    drawn — by face only to a sharer's player in phase 2 (``treasure_sharers_see``), face down in
    phase 1 (FR-MODE-4) and always to the Mayor, who takes no part —, who named whom, and a form
    for each sharer the viewer may act for (their own; the Mayor: anyone, for a player without a
    phone): naming the keepers, then swapping a card with another sharer or not."""
    from frontera.rules import exchanges as rules_exchanges

    data = exchange.chosen.get("sharing")
    if not data:
        return None
    sharers, names = data["sharers"], data["names"]
    mine = [s for s in sharers if s in viewer.seats]
    if not viewer.is_mayor and not mine:
        return None
    see = bool(mine) and rules_exchanges.treasure_sharers_see(state)
    cards = [{"n": i + 1, "card": card_view(uid) if see and uid in state.treasure else None}
             for i, uid in enumerate(data["cards"])]
    people = [(int(s[1:]), names[s]) for s in sharers]
    votes = [{"name": names[s], "named": [names[k] for k in data["votes"].get(s, [])]} for s in sharers]
    forms = []
    for s in (sharers if viewer.is_mayor else mine):
        acting_for = s not in viewer.seats
        if exchange.step == "keeper":
            current = data["votes"].get(s, [])
            forms.append({"pk": int(s[1:]), "name": names[s], "acting_for": acting_for, "slots": [
                {"n": c["n"], "choices": [(pk, name, bool(current) and current[c["n"] - 1] == seat_key(pk))
                                          for pk, name in people]} for c in cards]})
        elif data["left"].get(s, 0) > 0:
            forms.append({"pk": int(s[1:]), "name": names[s], "acting_for": acting_for, "left": data["left"][s],
                          "request_key": f"share-{exchange.pk}-{s}-{data['left'][s]}",
                          "partners": [(pk, name) for pk, name in people if seat_key(pk) != s]})
    swappers = [{"name": names[s], "left": n} for s, n in data["left"].items()]
    return {"pk": exchange.pk, "sharing": True, "step": exchange.step, "names": [n for _pk, n in people],
            "cards": cards, "votes": votes, "keepers": list(dict.fromkeys(names[k] for k in data["keepers"])),
            "swappers": swappers, "forms": forms, "rules": "FR-EXCH-6", "can_choose": bool(forms)}


# --- combat --------------------------------------------------------------------------------------

TECHNIQUE_LABELS = {
    "pelea": "Pelea", "melee": gettext_noop("melee weapon"), "thrown": gettext_noop("thrown weapon"),
    "disparo_rapido": "Disparo rápido", "apuntar": "Apuntar", "forcejeo": gettext_noop("grapple contest"),
}


def _situation(decl: dict) -> str:
    """The declared situation at the start of the turn (FR-CMB-9, FR-CMB-10), public like the rest."""
    parts = [gettext(COVER_LABELS[decl["cover"]])]
    if decl.get("mount"):
        parts.append(gettext(MOUNT_LABELS[decl["mount"]]))
    if decl.get("holstered"):
        parts.append(gettext("weapons holstered"))
    return ", ".join(parts)


def _death_turns_left(session: GameSession, combat: CombatRound, character_id: int) -> int | None:
    """FR-HLT-3: combat turns left for the death roll of a fighter who died in this fight."""
    record = session.tallies.get("dying", {}).get(str(character_id))
    if not record or record.get("combat") != combat.pk:
        return None
    return max(0, DEATH_ROLL_TURNS - (combat.turn - record["turn"]))


def combat_view(session: GameSession, viewer: Viewer) -> dict | None:
    """The open fight as this viewer may see it: declarations are public; a hand is seen by its
    holder only (the player, or the Mayor for NPCs and minions and for a hand he drew for a player); chosen cards by their holder until
    the one reveal, then by everyone; unchosen cards never (FR-CMB-1)."""
    combat = CombatRound.objects.filter(session=session, status=CombatRound.Status.OPEN).first()
    if combat is None:
        return None
    state = combat.state
    ids = [int(key[1:]) for key in state["combatants"]]
    characters = Character.objects.in_bulk(ids)
    names = {combat_key(pk): c.name for pk, c in characters.items()}
    revealed = bool(state.get("revealed"))
    phase = rules_combat.phase(state)
    rows = []
    for key, spec in state["combatants"].items():
        character = characters[int(key[1:])]
        totals = (state.get("result") or {}).get("targets", {}).get(key) if revealed else None
        if totals:  # the revealed result is on the sheet already; the round applies it next turn
            spec = {**spec, "health": totals["health_after"], "morale": totals["morale_after"]}
        own = seat_key(character.pk) in viewer.seats
        holds = own or (viewer.is_mayor and (character.kind != Character.Kind.PROTAGONIST
                                             or combat.drawn_by.get(key) == viewer.user.pk))
        can_act = viewer.is_mayor or own
        decl = state["declarations"].get(key)
        hand = state["hands"].get(key)
        plays = state["plays"].get(key, [])
        rows.append({
            "key": key, "pk": character.pk, "name": character.name, "side": spec["side"],
            "health": HEALTH_NAMES[spec["health"]], "morale": MORALE_NAMES[spec["morale"]],
            "aguante": spec["aguante"], "cover": spec["cover"],
            "declared": decl is not None,
            "technique": gettext(TECHNIQUE_LABELS.get(decl["technique"], "")) if decl and decl.get("technique") else "",
            "moves_only": bool(decl) and decl.get("action") == "move",
            "targets": [(names.get(t, t), band) for t, band in (decl or {}).get("targets", {}).items()],
            "aim_choices": [(characters[int(t[1:])].pk, names.get(t, t)) for t in (decl or {}).get("targets", {})]
            if len((decl or {}).get("targets", {})) > 1 else [],
            "special": (decl or {}).get("special") or "",
            "move": (decl or {}).get("move"),
            "required": state["required"].get(key),
            "hand_size": len(hand) if hand is not None else None,
            "hand": cards_view(hand) if holds and hand else [],
            "has_joker": bool(holds and hand and any(Card.from_uid(u).is_joker for u in hand)),
            "max_plays": state["max_plays"].get(key),
            "locked": key in state["plays"],
            "chosen": [card_view(p["card"], p.get("suit") or "") for p in plays] if (holds or revealed) else [],
            "weapons": [w["name"] for w in spec["weapons"]],
            **_declare_defaults(spec),
            "enemies": [(characters[int(k[1:])].pk, names[k]) for k, s in state["combatants"].items()
                        if s["side"] != spec["side"]],
            "can_declare": can_act and decl is None and not revealed and phase in ("declare", "choose", "reveal")
            and rules_combat.why_not_acting(state, key) is None,
            "out": rules_combat.why_not_acting(state, key) if not revealed else None,
            "mount": spec.get("mount") or "none", "holstered": bool(spec.get("holstered")),
            "cover_label": gettext(COVER_LABELS[spec["cover"]]),
            "mount_label": gettext(MOUNT_LABELS[spec.get("mount") or "none"]) if spec.get("mount") else "",
            "situation": _situation(decl) if decl and decl.get("technique") != "forcejeo" else "",
            "medical": bool(decl) and decl.get("action") == "medical",
            "other_action": bool(decl) and decl.get("action") == "other",
            "patient": names.get((decl or {}).get("patient") or "", ""),
            "fighters": [(characters[int(k[1:])].pk, names[k]) for k in state["combatants"]],
            "dead": spec["health"] == -4,
            "dead_for_good": str(character.pk) in session.tallies.get("dead", {}),
            "death_turns_left": _death_turns_left(session, combat, character.pk),
            "can_death_roll": viewer.is_mayor and spec["health"] == -4 and str(character.pk) not in
            session.tallies.get("dead", {}),
            "death_roll_key": uuid.uuid4().hex,
            "can_draw": can_act and decl is not None and (state["required"].get(key) or 0) > 0 and hand is None,
            "can_choose": can_act and holds and bool(hand) and key not in state["plays"] and not revealed,
            "mine": own,
        })
    results = []
    if revealed:
        for rec in state["result"]["plays"]:
            params = {k: (names.get(v, v) if k == "target" else v) for k, v in rec["explain"]["params"].items()}
            results.append({"who": names[rec["attacker"]], "target": names[rec["target"]], "hit": rec["hit"],
                            "card": card_view(rec["card"], rec.get("suit") or ""),
                            "text": render_message(rec["explain"]["template"], params)})
    return {
        "combat": combat, "turn": combat.turn, "phase": phase, "revealed": revealed, "rows": rows,
        "mine": [r for r in rows if r["mine"]], "results": results,
        "can_reveal": viewer.is_mayor and phase == "reveal" and not revealed,
        "can_next": viewer.is_mayor and revealed,
        "waiting": [r["name"] for r in rows if r["declared"] and not r["locked"] and (r["required"] or 0) > 0
                    and not revealed],
    }


# --- the character sheet's deck summary ----------------------------------------------------------


def _current_seat(character_id: int) -> Seat | None:
    """The character's seat at the latest session in play (the one the sheet shows), if any."""
    return (
        Seat.objects.filter(character_id=character_id, session__status=GameSession.Status.ACTIVE)
        .select_related("session")
        .order_by("-session__number")
        .first()
    )


def sheet_topic(character_id: int) -> str:
    """The sheet's live topic: it follows ``character:<id>`` and the session the character sits
    at (see :mod:`frontera.play.live`), so a draw or a phase switch refreshes the deck summary."""
    return f"sheet:{character_id}"


def sheet_sources(character_id: int) -> list[str]:
    seat = _current_seat(character_id)
    return [f"character:{character_id}"] + ([f"session:{seat.session_id}"] if seat else [])


# a session's part of the sheet's version, shifted past any character log id
SHEET_VERSION_SHIFT = 10**12


def sheet_version(character_id: int) -> int:
    """The sheet's live version: the character's log and its current session's log in one number
    (it changes when either changes, and when the current session changes)."""
    from frontera.characters.selectors import character_version  # play builds on characters

    seat = _current_seat(character_id)
    session_part = session_version(seat.session_id) if seat else 0
    return session_part * SHEET_VERSION_SHIFT + character_version(character_id)


def character_deck_summary(character: Character, user) -> dict | None:
    """The character's cards in the campaign's session in play, as ``user`` may see them, or
    ``None`` when the character has no seat at a session in play.

    Counts for everyone; the deck's composition by suit only for the character's own player and
    only once they may look at their deck (phase 2, FR-MODE-2/7); the discard is public (its
    cards were shown when played). Redacted by the engine's ``view`` like every session page.
    """
    seat = _current_seat(character.pk)
    if seat is None:
        return None
    state = rules_session.Session.from_json(seat.session.state)
    if seat.key not in state.players:
        return None  # left the game (FR-EXCH-4)
    own = character.owner_id == getattr(user, "pk", None) and character.kind == Character.Kind.PROTAGONIST
    viewer_seat = seat.key if own else (MAYOR_SEAT if is_mayor_of(user, character.campaign) else None)
    row = _seat_row(rules_session.view(state, viewer_seat), seat.key)
    owner_sees = own and rules_session.owner_sees_deck(state)
    return {
        "session": seat.session,
        "phase": state.phase,
        "deck_count": row["deck_count"],
        "discard": row["discard"],
        "discard_count": row["discard_count"],
        "by_suit": _by_suit([c["uid"] for c in row["deck"]]) if owner_sees else [],
    }


# --- pistol duel (FR-CMB-15) -----------------------------------------------------------------------


def _declare_defaults(spec) -> dict:
    """A declaration form that is valid as it stands: the first weapon carried with the technique
    that uses it (FR-CMB-2), else Pelea, unarmed."""
    for weapon in spec["weapons"]:
        technique = WEAPON_TECHNIQUE.get(weapon.get("kind"))
        if technique:
            return {"default_technique": technique, "default_weapon": weapon["name"]}
    return {"default_technique": rules_combat.PELEA, "default_weapon": ""}


WEAPON_TECHNIQUE = {"ranged": rules_combat.DISPARO_RAPIDO, "melee": rules_combat.MELEE, "thrown": rules_combat.THROWN}


def duel_weapons(session: GameSession) -> list[tuple[str, str]]:
    """The ranged weapons of the campaign's catalogue, for the Mayor's duel form; whether the
    duellist carries the one named is the service's to say."""
    from frontera.characters.selectors import campaign_catalogue

    return [(key, entry["name"]) for key, entry in campaign_catalogue(session.campaign).items()
            if entry.get("category") == "weapon" and entry.get("kind") == "ranged"]
