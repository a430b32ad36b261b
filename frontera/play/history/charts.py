"""The session's charts: outcomes, suits played, deck sizes and tracks over time."""

from __future__ import annotations

from collections import Counter, defaultdict

from django.utils.translation import gettext

from frontera import glossary
from frontera.play.history.rows import Names, history_viewer, names_of
from frontera.play.models import MAYOR_SEAT, Check, GameSession, Participant, SessionEvent
from frontera.play.services.core import OUTCOME_LABELS
from frontera.play.services.table_tools import UNDO_MESSAGE
from frontera.rules.cards import SUIT_SYMBOL, SUITS, Card
from frontera.rules.errors import RulesError
from frontera.rules.tracks import HEALTH_NAMES, MORALE_NAMES, SOBRIETY_NAMES

SUIT_CLASS = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds", "JK": "joker"}
OUTCOME_ORDER = ["success", "partial", "failure", "win", "tie", "loss"]
LEVELS = {"health": HEALTH_NAMES, "morale": MORALE_NAMES, "sobriety": SOBRIETY_NAMES}
# every level name is unique across the three tracks: a name tells its track
LEVEL_OF_NAME = {name: (track, level) for track, names in LEVELS.items() for level, name in names.items()}
def _outcomes(session: GameSession) -> dict:
    """FR-CHK-3/4, FR-OPP-2..5: outcomes of every resolved participant, per character (public: the
    cards and outcomes of resolved checks are shown to the table). ``chart``: a stacked bar per
    character, one series per outcome that happened."""
    rows = (Participant.objects.filter(prueba__session=session, status=Check.Status.RESOLVED)
            .exclude(outcome="").values_list("character__name", "outcome"))
    counts: dict[str, Counter] = defaultdict(Counter)
    for name, outcome in rows:
        counts[name][outcome] += 1
    present = [o for o in OUTCOME_ORDER if any(c[o] for c in counts.values())]
    names = sorted(counts)
    bars = [{"name": name, "total": sum(counts[name].values()), "counts": [counts[name][o] for o in present]}
            for name in names]
    legend = [{"css": f"o-{o}", "label": gettext(OUTCOME_LABELS[o])} for o in present]
    return {"rows": bars, "legend": legend, "chart": {
        "labels": names,
        "series": [{"label": item["label"], "colour": item["css"], "data": [counts[name][o] for name in names]}
                   for item, o in zip(legend, present, strict=True)],
    }}


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
    bars = [{"symbol": SUIT_SYMBOL.get(key, "★"), "css": SUIT_CLASS[key], "count": counts[key]} for key in keys]
    return {"bars": bars, "total": sum(counts.values()), "chart": {
        "labels": [b["symbol"] for b in bars],
        "series": [{"label": gettext("Cards played"), "colours": [b["css"] for b in bars],
                    "data": [b["count"] for b in bars]}],
    }}


MAX_POINTS = 300


def _colours(names: Names) -> dict[str, str]:
    """One colour per character (and the Mayor) in every chart of the page, by name: each chart
    numbered its own lines, so a character changed colour from one chart to the next."""
    people = sorted({c.name for c in names.characters.values()})
    return {name: f"s{i % 6}" for i, name in enumerate([*people, names.seat(MAYOR_SEAT)])}


def _deck_sizes(session: GameSession, names: Names) -> dict:
    """Each seat's deck size (its draw pile, FR-MODE-2) after every card movement: public counts.
    ``chart``: one line per seat, card movement (x) after card movement, at most :data:`MAX_POINTS`
    points a line."""
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
    lines = []
    colour = _colours(names)
    for seat in sorted(series, key=lambda s: (s == MAYOR_SEAT, names.seat(s))):
        pts = series[seat]
        step = max(1, len(pts) // MAX_POINTS)
        sampled = pts[::step] + ([pts[-1]] if (len(pts) - 1) % step else []) + [(total, pts[-1][1])]
        lines.append({"name": names.seat(seat), "css": colour[names.seat(seat)], "points": [(0, 0), *sampled],
                      "final": pts[-1][1], "most": max(y for _x, y in pts)})
    return {"lines": lines, "events": total, "top": max((line["most"] for line in lines), default=0), "chart": {
        "x": gettext("Card movements"), "y": gettext("Cards in the mazo"), "events": total,
        "series": [{"label": line["name"], "colour": line["css"], "data": line["points"]} for line in lines],
    }}


def _tracks(session: GameSession, names: Names) -> dict:
    """Salud, Moral and Sobriedad of each character over the session, from the decisions that
    changed them (FR-HLT-1, FR-MOR-1, FR-SOB-1) and the undos that gave levels back; public, they
    are in everyone's feed. Levels lost in Salud are the damage taken, less what an undo gave back."""
    decisions = SessionEvent.objects.filter(session=session, kind=SessionEvent.Kind.DECISION).order_by("pk") \
        .values_list("pk", "message", "params")
    by_name = {c.name: c for c in names.characters.values()}
    colour = _colours(names)
    changes: list[dict] = []
    for pk, message, params in decisions:
        # (a line about several characters names them as a list: not a track change of one)
        if not isinstance(params, dict) or not isinstance(params.get("who"), str) or params["who"] not in by_name:
            continue
        for key in ("after", "health_after", "morale_after", "sobriety_after"):
            value = params.get(key)
            if isinstance(value, str) and value in LEVEL_OF_NAME:
                before_key = key.replace("after", "before")
                track, level = LEVEL_OF_NAME[value]
                before = LEVEL_OF_NAME.get(params.get(before_key), (track, None))[1]
                if before is not None and before != level:
                    changes.append({"pk": pk, "who": params["who"], "track": track, "before": before, "after": level,
                                    "undo": message == UNDO_MESSAGE})
    charts = []
    for track in ("health", "morale", "sobriety"):
        mine = [c for c in changes if c["track"] == track]
        if not mine:
            continue
        lines = []
        for who in sorted({c["who"] for c in mine}):
            # x: the change's place among the track's changes (0: the session's start), so every
            # character's line is drawn against the same changes; a change is a drop (or rise) at its x
            seq = [(x, c) for x, c in enumerate(mine, start=1) if c["who"] == who]
            pts = [(0, seq[0][1]["before"])]
            for x, c in seq:
                pts += [(x, c["before"]), (x, c["after"])]
            last = seq[-1][1]["after"]
            pts.append((len(mine) + 1, last))
            lines.append({"name": who, "css": colour[who], "points": pts,
                          "end": glossary.name("level", LEVELS[track][last])})
        levels = {level: glossary.name("level", name) for level, name in LEVELS[track].items()}
        charts.append({"track": track, "title": glossary.name("track", track), "lines": lines,
                       "changes": [dict(c, before=levels[c["before"]], after=levels[c["after"]]) for c in mine],
                       "chart": {"levels": [[level, levels[level]] for level in sorted(levels)],
                                 "series": [{"label": line["name"], "colour": line["css"], "data": line["points"]}
                                            for line in lines]}})
    damage = defaultdict(int)
    for c in changes:  # an undone action's damage was not taken (the undo gives its levels back)
        if c["track"] == "health":
            damage[c["who"]] += (c["before"] - c["after"]) if c["undo"] else max(c["before"] - c["after"], 0)
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
