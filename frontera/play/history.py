"""The session history: every event of a session's log, as one viewer may read it (selectors).

Per-viewer redaction of a card event (a movement) follows what the viewer was allowed to see when
the card moved, as the services recorded it in :attr:`SessionEvent.seen_by` (the engine players who
could see the card before or after the movement, ``"*"`` for everyone):

- everyone sees a card whose ``seen_by`` holds ``"*"`` (the dead man's hand, a player's own discard)
  and every card *played* (reason ``"played"``: it was shown to the table when played, FR-CHK-2,
  FR-OPP-1, FR-CMB-1 — the services move it only at the reveal);
- a player sees the cards whose ``seen_by`` names one of their seats (their own draws, their deck
  where they may look at it: FR-MODE-2, 4, 7, FR-EXCH-7);
- the Mayor, while the session is in play, sees as his seat ``mayor`` does, plus the cards he drew
  himself for a player (docs/sessions.md, ruling 3: no "see everything" screen during play; FR-MODE-2
  hides even his own 8 in phase 1); once the session has ended the Mayor sees every card;
- an ended session reveals nothing more to a player (nothing in RULINGS.md says it should).

Anything else is "a card": its movement between zones stays public (the zones' counts are public),
its identity (label and uid) appears nowhere — page, per-card page, filter, chart or export.
Decisions are public (they never name a hidden card, see the services); their raw parameters are
never exported (they hold the random seeds).

Every function runs a constant number of queries, whatever the length of the log.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import Q
from django.utils.translation import gettext, gettext_noop

from frontera.characters.models import Character
from frontera.play.models import MAYOR_SEAT, Check, CombatRound, GameSession, Participant, Seat, SessionEvent
from frontera.play.selectors import card_view, render_message, viewer_for
from frontera.play.services.combat import FIGHT_BEGINS, FIGHT_OVER, FIGHT_TURN
from frontera.play.services.core import OUTCOME_LABELS
from frontera.rules.cards import SUIT_SYMBOL, SUITS, Card
from frontera.rules.errors import RulesError
from frontera.rules.tracks import HEALTH_NAMES, MORALE_NAMES, SOBRIETY_NAMES

PAGE_SIZE = 100
SUIT_CLASS = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", "JK": "joker"}


SHARED_ZONE_LABELS = {
    "pile": gettext_noop("montón"),
    "discard": gettext_noop("shared discard"),
    "treasure": gettext_noop("mazo del Tesoro"),
    "dead_mans_hand": gettext_noop("mano del hombre muerto"),
    "out_of_play": gettext_noop("out of play"),
    "box": gettext_noop("the box"),
}
SEAT_ZONE_LABELS = {
    "deck": gettext_noop("mazo of %(name)s"),
    "discard": gettext_noop("descartes of %(name)s"),
    "pending": gettext_noop("drawn by %(name)s"),
}
MAYOR_ZONE_LABELS = {  # Spanish says "del Mayor", not "de el Mayor"
    "deck": gettext_noop("mazo of the Mayor"),
    "discard": gettext_noop("descartes of the Mayor"),
    "pending": gettext_noop("drawn by the Mayor"),
}
REASON_LABELS = {
    "deal": gettext_noop("dealt"),
    "draw": gettext_noop("card drawn"),
    "played": gettext_noop("played"),
    "unchosen": gettext_noop("not chosen"),
    "cancelled": gettext_noop("returned"),
    "reshuffle": gettext_noop("reshuffled"),
    "recycle": gettext_noop("recycled"),
    "phase_2": gettext_noop("phase 2"),
    "late_joiner": gettext_noop("late joiner"),
    "new_deck": gettext_noop("new deck"),
    "death": gettext_noop("death"),
    "rest": gettext_noop("rest"),
    "bet": gettext_noop("bet"),
    "bet_tie": gettext_noop("bet ending in Tablas"),
    "cheat": gettext_noop("cheating caught"),
    "duel": gettext_noop("duel"),
    "duel_tie": gettext_noop("duel ending in Tablas"),
    "drunk": gettext_noop("Borracho"),
    "coma": gettext_noop("En coma"),
    "treasure_swap": gettext_noop("Tesoro: a swap"),
    "treasure_take": gettext_noop("Tesoro: a random card"),
}
# Rules a card movement applies that its reason alone tells (the rest are in the decisions).
REASON_RULES = {
    "deal": ["FR-MODE-2"], "reshuffle": ["FR-MODE-5"], "phase_2": ["FR-MODE-5"], "recycle": ["FR-MODE-8"],
    "late_joiner": ["FR-MODE-9"], "new_deck": ["FR-MODE-9"], "death": ["FR-EXCH-4"], "rest": ["FR-MODE-11"],
    "bet": ["FR-EXCH-2"], "bet_tie": ["FR-EXCH-2"], "cheat": ["FR-EXCH-2"], "duel": ["FR-EXCH-3"],
    "duel_tie": ["FR-EXCH-3"], "drunk": ["FR-SOB-1"], "coma": ["FR-SOB-1"], "treasure_swap": ["FR-EXCH-6"],
    "treasure_take": ["FR-EXCH-6"], "played": ["FR-CHK-2"],
}
OUTCOME_ORDER = ["success", "partial", "failure", "win", "tie", "loss"]
LEVELS = {"health": HEALTH_NAMES, "morale": MORALE_NAMES, "sobriety": SOBRIETY_NAMES}
TRACK_TITLES = {"health": "Salud", "morale": "Moral", "sobriety": "Sobriedad"}
# every level name is unique across the three tracks: a name tells its track
LEVEL_OF_NAME = {name: (track, level) for track, names in LEVELS.items() for level, name in names.items()}

E_BAD_CARD = gettext_noop("“%(card)s” is not a card of this session.")
E_BAD_FILTER = gettext_noop("That filter does not exist here; the whole log is shown.")


@dataclass
class HistoryViewer:
    user: object
    is_mayor: bool
    full: bool  # sees every card: the Mayor of an ended session
    seats: set[str] = field(default_factory=set)
    drew_for: set[tuple[int, str]] = field(default_factory=set)  # (check id, seat) the Mayor drew for


def history_viewer(session: GameSession, user) -> HistoryViewer:
    """Who reads the history; a member of the campaign is assumed (views check it)."""
    base = viewer_for(session, user)
    full = base.is_mayor and session.status == GameSession.Status.ENDED
    drew_for: set[tuple[int, str]] = set()
    if base.is_mayor and not full:
        drew_for = set(
            Participant.objects.filter(prueba__session=session, drawn_by=user)
            .exclude(seat=MAYOR_SEAT).values_list("prueba_id", "seat")
        )
    return HistoryViewer(user, base.is_mayor, full, set(base.seats), drew_for)


def may_see(viewer: HistoryViewer, card: str, seen_by, reason: str, prueba_id: int | None) -> bool:
    """Whether ``viewer`` may read the identity of the card of one card event."""
    if not card:
        return False
    if viewer.full or reason == "played":
        return True
    seen = set(seen_by or ())
    if "*" in seen or seen & viewer.seats:
        return True
    return any((prueba_id, seat) in viewer.drew_for for seat in seen)


# --- names ---------------------------------------------------------------------------------------


@dataclass
class Names:
    """Seat keys and character ids of a session → names (one query each)."""

    seats: dict[str, str]
    characters: dict[int, Character]

    def seat(self, key: str) -> str:
        if key == MAYOR_SEAT:
            return gettext("the Mayor")
        return self.seats.get(key, key)


def names_of(session: GameSession) -> Names:
    characters = {c.pk: c for c in Character.objects.filter(campaign_id=session.campaign_id).select_related("owner")}
    return Names({f"c{pk}": c.name for pk, c in characters.items()}, characters)


def zone_label(zone: str, names: Names) -> str:
    if zone in SHARED_ZONE_LABELS:
        return gettext(SHARED_ZONE_LABELS[zone])
    kind, _sep, seat = zone.partition(":")
    if kind in SEAT_ZONE_LABELS and seat == MAYOR_SEAT:
        return gettext(MAYOR_ZONE_LABELS[kind])
    if kind in SEAT_ZONE_LABELS and seat:
        return gettext(SEAT_ZONE_LABELS[kind]) % {"name": names.seat(seat)}
    return zone


def _owner(zone_from: str, zone_to: str) -> str:
    """Whose card it is, for the line's "de Clementine": the seat of the zone it comes from or goes to."""
    for zone in (zone_from, zone_to):
        kind, _sep, seat = zone.partition(":")
        if kind in SEAT_ZONE_LABELS and seat:
            return seat
    return ""


# --- rows ----------------------------------------------------------------------------------------


def event_row(e: SessionEvent, viewer: HistoryViewer, names: Names) -> dict:
    """One event as the viewer may read it. A hidden card has neither label nor uid."""
    row = {
        "pk": e.pk, "at": e.created_at, "kind": e.kind,
        "actor": e.actor.get_username() if e.actor_id and e.actor else "",
        "prueba": e.prueba_id, "card": None, "uid": "", "from": "", "to": "", "owner": "",
        "reason": "", "text": "", "rules": list(e.rules or []),
    }
    if e.kind == SessionEvent.Kind.CARD:
        shown = may_see(viewer, e.card, e.seen_by, e.reason, e.prueba_id)
        if shown:
            try:
                row["card"] = card_view(e.card)
                row["uid"] = e.card
            except RulesError:
                shown = False
        row["from"] = zone_label(e.from_zone, names)
        row["to"] = zone_label(e.to_zone, names)
        owner = _owner(e.from_zone, e.to_zone)
        row["owner"] = names.seat(owner) if owner else ""
        row["reason"] = gettext(REASON_LABELS[e.reason]) if e.reason in REASON_LABELS else e.reason
        row["rules"] = row["rules"] or list(REASON_RULES.get(e.reason, []))
        values = {"card": row["card"]["label"] if shown else gettext("a card"), "name": row["owner"],
                  "from": row["from"], "to": row["to"]}
        if owner == MAYOR_SEAT:
            template = gettext("%(card)s of the Mayor: %(from)s → %(to)s")
        elif owner:
            template = gettext("%(card)s of %(name)s: %(from)s → %(to)s")
        else:
            template = gettext("%(card)s: %(from)s → %(to)s")
        row["text"] = template % values
    else:
        row["text"] = render_message(e.message, e.params or {})
    return row


# --- filters -------------------------------------------------------------------------------------


SYMBOL_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}


def card_uids(text: str, decks: int) -> list[str]:
    """The cards a filter names: a uid (``1:7H``), or a code (``7H``, ``7♥``, ``JK``) in every deck of
    the session. Raises :class:`RulesError` for anything else."""
    code = text.strip().upper()
    for symbol, suit in SYMBOL_SUIT.items():
        code = code.replace(symbol, suit)
    if ":" in code:
        return [Card.from_uid(code).uid]
    card = Card.parse(code)
    decks = max(decks or 1, 1)
    if card.is_joker:
        return [f"{d}:JK{c}" for d in range(1, decks + 1) for c in (1, 2)]
    return [Card.parse(code, deck=d).uid for d in range(1, decks + 1)]


@dataclass
class Filters:
    card: str = ""
    uids: list[str] = field(default_factory=list)
    who: str = ""  # "mayor" or a character id
    kind: str = ""
    check: int | None = None
    round: str = ""  # "<combat id>-<turn>"
    errors: list[str] = field(default_factory=list)

    def query(self) -> dict:
        """The filters as GET parameters (for paging and export links)."""
        data = {"card": self.card, "who": self.who, "kind": self.kind,
                "check": str(self.check) if self.check else "", "round": self.round}
        return {k: v for k, v in data.items() if v}


def fight_turns(session: GameSession) -> list[dict]:
    """Every turn of every fight, as a range of event ids, from the decisions that start a fight,
    a turn and end it (one fight at a time: the n-th "fight begins" is the n-th CombatRound)."""
    combats = list(CombatRound.objects.filter(session=session).order_by("pk").values_list("pk", flat=True))
    marks = SessionEvent.objects.filter(
        session=session, kind=SessionEvent.Kind.DECISION, message__in=[FIGHT_BEGINS, FIGHT_TURN, FIGHT_OVER]
    ).order_by("pk").values_list("pk", "message", "params")
    turns: list[dict] = []
    fight = 0
    for pk, message, params in marks:
        if turns and turns[-1]["end"] is None:
            turns[-1]["end"] = pk - 1 if message != FIGHT_OVER else pk
        if message == FIGHT_BEGINS:
            fight += 1
            combat = combats[fight - 1] if fight <= len(combats) else fight
            turns.append({"combat": combat, "fight": fight, "turn": 1, "start": pk, "end": None})
        elif message == FIGHT_TURN and turns:
            turns.append({"combat": turns[-1]["combat"], "fight": fight, "turn": int(params.get("turn", 0)),
                          "start": pk, "end": None})
    for t in turns:
        t["value"] = f"{t['combat']}-{t['turn']}"
        t["label"] = gettext("Fight %(fight)s, turn %(turn)s") % {"fight": t["fight"], "turn": t["turn"]}
    return turns


def parse_filters(session: GameSession, data, turns: list[dict], who_allowed: set[str]) -> Filters:
    """Filters from GET data; a bad value is dropped with a message (nothing else changes).
    ``who_allowed``: the character filters this viewer is offered (:func:`who_choices`); any other
    id is refused alike, so the filter never tells a player which ids are the Mayor's NPCs."""
    f = Filters()
    card = (data.get("card") or "").strip()
    if card:
        try:
            f.uids = card_uids(card, session.decks)
            f.card = card[:20]
        except RulesError:
            f.errors.append(gettext(E_BAD_CARD) % {"card": card[:20]})
    who = (data.get("who") or "").strip()
    if who in who_allowed:
        f.who = who
    elif who:
        f.errors.append(gettext(E_BAD_FILTER))
    kind = (data.get("kind") or "").strip()
    if kind in SessionEvent.Kind.values:
        f.kind = kind
    elif kind:
        f.errors.append(gettext(E_BAD_FILTER))
    check = (data.get("check") or "").strip()
    if check.isdigit() and Check.objects.filter(pk=int(check), session=session).exists():
        f.check = int(check)
    elif check:
        f.errors.append(gettext(E_BAD_FILTER))
    rnd = (data.get("round") or "").strip()
    if rnd and any(t["value"] == rnd for t in turns):
        f.round = rnd
    elif rnd:
        f.errors.append(gettext(E_BAD_FILTER))
    return f


NAME_PARAMS = ("who", "target", "patient", "healer")  # decision parameters that name a character


def filtered_events(session: GameSession, viewer: HistoryViewer, f: Filters, turns: list[dict],
                    names: Names | None = None):
    """The session's events in order with the filters applied. A card filter matches only the
    events where the viewer may see that card (so it can never tell where a hidden card went)."""
    qs = SessionEvent.objects.filter(session=session)
    if f.kind:
        qs = qs.filter(kind=f.kind)
    if f.check:
        qs = qs.filter(prueba_id=f.check)
    if f.round:
        turn = next(t for t in turns if t["value"] == f.round)
        qs = qs.filter(pk__gte=turn["start"])
        if turn["end"] is not None:
            qs = qs.filter(pk__lte=turn["end"])
    if f.who:
        seat = MAYOR_SEAT if f.who == MAYOR_SEAT else f"c{f.who}"
        zones = [f"{kind}:{seat}" for kind in SEAT_ZONE_LABELS]
        who_q = Q(from_zone__in=zones) | Q(to_zone__in=zones)
        if f.who != MAYOR_SEAT:
            checks = Participant.objects.filter(prueba__session=session, character_id=int(f.who)).values("prueba_id")
            who_q |= Q(prueba_id__in=checks)
            character = (names or names_of(session)).characters.get(int(f.who))
            if character is not None:  # the decisions that name them (a track change, a hit...)
                for key in NAME_PARAMS:
                    who_q |= Q(kind=SessionEvent.Kind.DECISION, **{f"params__{key}": character.name})
        qs = qs.filter(who_q)
    if f.card:
        qs = qs.filter(kind=SessionEvent.Kind.CARD, card__in=f.uids)
        if not viewer.full:
            rows = qs.values_list("pk", "card", "seen_by", "reason", "prueba_id")
            qs = SessionEvent.objects.filter(pk__in=[pk for pk, *rest in rows if may_see(viewer, *rest)])
    return qs.order_by("pk")


def who_choices(session: GameSession, viewer: HistoryViewer, names: Names) -> list[tuple[str, str]]:
    """Filter choices: the protagonists present (with their player), the Mayor, and for the Mayor
    the NPCs and minions too (a player never learns of an NPC from here, FR-CHAR-6)."""
    seats = Seat.objects.filter(session=session).values_list("character_id", flat=True)
    choices = []
    for pk in seats:
        c = names.characters.get(pk)
        if c is not None:
            choices.append((str(pk), f"{c.name} ({c.owner.get_username()})"))
    choices.append((MAYOR_SEAT, gettext("the Mayor")))
    if viewer.is_mayor:
        choices += sorted(((str(c.pk), c.name) for c in names.characters.values()
                           if c.kind != Character.Kind.PROTAGONIST), key=lambda x: x[1])
    return choices


def history_page(session: GameSession, user, data) -> dict:
    """The history page: one page of events (``PAGE_SIZE``), the filters and their choices."""
    viewer = history_viewer(session, user)
    names = names_of(session)
    turns = fight_turns(session)
    who = who_choices(session, viewer, names)
    f = parse_filters(session, data, turns, {value for value, _label in who})
    page = Paginator(filtered_events(session, viewer, f, turns, names).select_related("actor"), PAGE_SIZE).get_page(
        data.get("page"))
    checks = Check.objects.filter(session=session).order_by("pk").values_list("pk", "label")
    return {
        "session": session, "campaign": session.campaign, "is_mayor": viewer.is_mayor, "full": viewer.full,
        "ended": session.status == GameSession.Status.ENDED,
        "page": page, "events": [event_row(e, viewer, names) for e in page.object_list],
        "filters": f, "query": urlencode(f.query()),
        "who_choices": who,
        "check_choices": [(pk, label) for pk, label in checks],
        "round_choices": [(t["value"], t["label"]) for t in turns],
    }


def export_rows(session: GameSession, user, data):
    """Every event (filtered like the page) as plain dicts for CSV/JSON, redacted like the page;
    an iterator over the log in chunks, so a long session is not held in memory."""
    viewer = history_viewer(session, user)
    names = names_of(session)
    turns = fight_turns(session)
    f = parse_filters(session, data, turns, {value for value, _label in who_choices(session, viewer, names)})
    qs = filtered_events(session, viewer, f, turns, names).select_related("actor")
    for e in qs.iterator(chunk_size=500):
        row = event_row(e, viewer, names)
        yield {
            "id": row["pk"], "at": row["at"].isoformat(), "kind": row["kind"], "actor": row["actor"],
            "check": row["prueba"], "card": row["card"]["label"] if row["card"] else "",
            "card_uid": row["uid"], "hidden": e.kind == SessionEvent.Kind.CARD and row["card"] is None,
            "from": row["from"], "to": row["to"], "reason": row["reason"], "text": row["text"],
            "rules": row["rules"],
        }


# --- the history of one card ---------------------------------------------------------------------


def card_history(session: GameSession, user, uid: str) -> dict | None:
    """The journey of card ``uid`` through the zones, as the viewer may see it: only the events where
    the viewer could see that card. ``None`` (a 404) when the viewer never saw it, exactly as for a
    card that is not in the session."""
    try:
        card = card_view(uid)
    except RulesError:
        return None
    viewer = history_viewer(session, user)
    names = names_of(session)
    events = [e for e in SessionEvent.objects.filter(session=session, kind=SessionEvent.Kind.CARD, card=uid)
              .select_related("actor").order_by("pk")
              if may_see(viewer, e.card, e.seen_by, e.reason, e.prueba_id)]
    if not events:
        return None
    rows = [event_row(e, viewer, names) for e in events]
    return {"session": session, "campaign": session.campaign, "card": card, "events": rows,
            "is_mayor": viewer.is_mayor, "full": viewer.full,
            "journey": _journey(rows)}


def _journey(rows: list[dict]) -> list[str]:
    """The zones one after another; "…" where the card went through moves the viewer did not see."""
    zones: list[str] = []
    for row in rows:
        if zones and zones[-1] != row["from"]:
            zones.append("…")
        if not zones or zones[-1] != row["from"]:
            zones.append(row["from"])
        zones.append(row["to"])
    return zones


# --- charts --------------------------------------------------------------------------------------

CHART_W, CHART_BAR_H, CHART_GAP, CHART_LEFT = 640, 22, 8, 160


def _outcomes(session: GameSession) -> dict:
    """FR-CHK-3/4, FR-OPP-2..5: outcomes of every resolved participant, per character (public: the
    cards and outcomes of resolved checks are shown to the table)."""
    rows = (Participant.objects.filter(prueba__session=session, status=Check.Status.RESOLVED)
            .exclude(outcome="").values_list("character__name", "outcome"))
    counts: dict[str, Counter] = defaultdict(Counter)
    for name, outcome in rows:
        counts[name][outcome] += 1
    present = [o for o in OUTCOME_ORDER if any(c[o] for c in counts.values())]
    most = max((sum(c.values()) for c in counts.values()), default=0)
    scale = (CHART_W - CHART_LEFT - 40) / most if most else 0
    bars = []
    for i, name in enumerate(sorted(counts)):
        x, y = CHART_LEFT, i * (CHART_BAR_H + CHART_GAP)
        segments = []
        for o in present:
            n = counts[name][o]
            if n:
                segments.append({"x": round(x, 1), "width": round(n * scale, 1), "css": f"o-{o}", "count": n,
                                 "label": gettext(OUTCOME_LABELS[o])})
                x += n * scale
        bars.append({"name": name, "y": y, "ty": round(y + CHART_BAR_H * 0.7, 1), "segments": segments,
                     "total": sum(counts[name].values()), "tx": round(x + 6, 1),
                     "counts": [counts[name][o] for o in present]})
    return {"rows": bars, "legend": [{"css": f"o-{o}", "label": gettext(OUTCOME_LABELS[o])} for o in present],
            "height": max(len(bars) * (CHART_BAR_H + CHART_GAP), CHART_BAR_H), "width": CHART_W, "left": CHART_LEFT}


def _suits(session: GameSession) -> dict:
    """Cards played by suit (a joker counts as ★ whatever it was declared): public, every played card
    was shown to the table."""
    played = SessionEvent.objects.filter(session=session, kind=SessionEvent.Kind.CARD, reason="played") \
        .values_list("card", flat=True)
    counts: Counter = Counter()
    for uid in played:
        try:
            counts[Card.from_uid(uid).suit or "JK"] += 1
        except RulesError:
            continue
    keys = [*SUITS, "JK"]
    most = max(counts.values(), default=0)
    height, bar_w, gap = 160, 60, 30
    bars = []
    for i, key in enumerate(keys):
        n = counts[key]
        h = round(n * (height - 20) / most, 1) if most else 0
        x = 40 + i * (bar_w + gap)
        bars.append({"key": key, "symbol": SUIT_SYMBOL.get(key, "★"), "css": SUIT_CLASS[key], "count": n,
                     "x": x, "y": round(height - h, 1), "h": h, "w": bar_w, "cx": round(x + bar_w / 2, 1),
                     "ty": round(height - h - 4, 1)})
    return {"bars": bars, "height": height, "width": 40 + len(keys) * (bar_w + gap), "total": sum(counts.values())}


def _polyline(points: list[tuple[int, int]], total: int, top: int, w: int, h: int, left: int) -> str:
    sx = (w - left - 10) / max(total, 1)
    sy = (h - 20) / max(top, 1)
    return " ".join(f"{round(left + x * sx, 1)},{round(h - 10 - y * sy, 1)}" for x, y in points)


MAX_POINTS = 300


def _deck_sizes(session: GameSession, names: Names) -> dict:
    """Each seat's deck size (its draw pile, FR-MODE-2) after every card movement: public counts."""
    moves = SessionEvent.objects.filter(session=session, kind=SessionEvent.Kind.CARD).order_by("pk") \
        .values_list("from_zone", "to_zone")
    size: Counter = Counter()
    series: dict[str, list[tuple[int, int]]] = defaultdict(list)
    n = 0
    for n, (src, dst) in enumerate(moves, start=1):
        for zone, delta in ((src, -1), (dst, 1)):
            if zone.startswith("deck:"):
                seat = zone[5:]
                size[seat] += delta
                series[seat].append((n, size[seat]))
    total = n
    top = max((y for pts in series.values() for _x, y in pts), default=0)
    w, h, left = CHART_W, 200, 40
    lines = []
    for i, seat in enumerate(sorted(series, key=lambda s: (s == MAYOR_SEAT, names.seat(s)))):
        pts = series[seat]
        step = max(1, len(pts) // MAX_POINTS)
        sampled = pts[::step] + ([pts[-1]] if (len(pts) - 1) % step else []) + [(total, pts[-1][1])]
        lines.append({"name": names.seat(seat), "css": f"s{i % 6}", "points": _polyline([(0, 0), *sampled], total,
                     top, w, h, left), "final": pts[-1][1], "most": max(y for _x, y in pts)})
    return {"lines": lines, "width": w, "height": h, "top": top, "events": total, "left": left}


def _tracks(session: GameSession, names: Names) -> dict:
    """Salud, Moral and Sobriedad of each character over the session, from the decisions that
    changed them (FR-HLT-1, FR-MOR-1, FR-SOB-1); public, they are in everyone's feed. Levels lost
    in Salud are the damage taken."""
    decisions = SessionEvent.objects.filter(session=session, kind=SessionEvent.Kind.DECISION).order_by("pk") \
        .values_list("pk", "params")
    by_name = {c.name: c for c in names.characters.values()}
    changes: list[dict] = []
    for pk, params in decisions:
        if not isinstance(params, dict) or params.get("who") not in by_name:
            continue
        for key in ("after", "health_after", "morale_after"):
            value = params.get(key)
            if isinstance(value, str) and value in LEVEL_OF_NAME:
                before_key = key.replace("after", "before")
                track, level = LEVEL_OF_NAME[value]
                before = LEVEL_OF_NAME.get(params.get(before_key), (track, None))[1]
                if before is not None and before != level:
                    changes.append({"pk": pk, "who": params["who"], "track": track, "before": before, "after": level})
    w, h, left = CHART_W, 160, 110
    charts = []
    for track in ("health", "morale", "sobriety"):
        mine = [c for c in changes if c["track"] == track]
        if not mine:
            continue
        bottom = min(LEVELS[track])
        order = sorted({c["who"] for c in mine})
        first, last = min(c["pk"] for c in mine), max(c["pk"] for c in mine)
        span = max(last - first, 1)
        lines = []
        for i, who in enumerate(order):
            seq = [c for c in mine if c["who"] == who]
            # the top level (Sano, Normal, Sobrio) at the top: height = level - lowest level
            pts = [(0, seq[0]["before"] - bottom)]
            for c in seq:
                x = c["pk"] - first + 1
                pts += [(x, c["before"] - bottom), (x, c["after"] - bottom)]
            pts.append((span + 2, seq[-1]["after"] - bottom))
            lines.append({"name": who, "css": f"s{i % 6}", "points": _polyline(pts, span + 2, -bottom, w, h, left),
                          "lost": sum(max(c["before"] - c["after"], 0) for c in seq),
                          "end": LEVELS[track][seq[-1]["after"]]})
        levels = [{"name": LEVELS[track][lv], "y": round(h - 10 - (lv - bottom) * (h - 20) / -bottom, 1)}
                  for lv in sorted(LEVELS[track], reverse=True)]
        for lv in levels:
            lv["ty"] = round(lv["y"] + 4, 1)
        charts.append({"track": track, "title": TRACK_TITLES[track], "lines": lines, "levels": levels,
                       "width": w, "height": h, "left": left,
                       "changes": [dict(c, before=LEVELS[track][c["before"]], after=LEVELS[track][c["after"]])
                                   for c in mine]})
    damage = defaultdict(int)
    for c in changes:
        if c["track"] == "health":
            damage[c["who"]] += max(c["before"] - c["after"], 0)
    return {"charts": charts, "damage": sorted(damage.items())}


def history_charts(session: GameSession, user) -> dict:
    """The charts of a session: outcomes per character, cards played by suit, deck sizes over time,
    tracks over time. Only public facts, so every member sees the same numbers."""
    viewer = history_viewer(session, user)
    names = names_of(session)
    return {
        "session": session, "campaign": session.campaign, "is_mayor": viewer.is_mayor,
        "outcomes": _outcomes(session), "suits": _suits(session),
        "decks": _deck_sizes(session, names), "tracks": _tracks(session, names),
    }
