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
CHART_W, CHART_BAR_H, CHART_GAP, CHART_LEFT = 640, 22, 8, 160
NAME_UNITS_PER_CHARACTER = 7.5  # a name's width at the charts' 13px type, per character, a little generous


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
    # the names' column as wide as the longest name ("Josefa «La Tuerta» Montoya" was cut at the left)
    left = min(max(CHART_LEFT, round(16 + NAME_UNITS_PER_CHARACTER * max(map(len, counts), default=0))), CHART_W // 2)
    scale = (CHART_W - left - 40) / most if most else 0
    bars = []
    for i, name in enumerate(sorted(counts)):
        x, y = left, i * (CHART_BAR_H + CHART_GAP)
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
            "height": max(len(bars) * (CHART_BAR_H + CHART_GAP), CHART_BAR_H), "width": CHART_W, "left": left}


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


def _colours(names: Names) -> dict[str, str]:
    """One colour per character (and the Mayor) in every chart of the page, by name: each chart
    numbered its own lines, so a character changed colour from one chart to the next."""
    people = sorted({c.name for c in names.characters.values()})
    return {name: f"s{i % 6}" for i, name in enumerate([*people, names.seat(MAYOR_SEAT)])}


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
    colour = _colours(names)
    for seat in sorted(series, key=lambda s: (s == MAYOR_SEAT, names.seat(s))):
        pts = series[seat]
        step = max(1, len(pts) // MAX_POINTS)
        sampled = pts[::step] + ([pts[-1]] if (len(pts) - 1) % step else []) + [(total, pts[-1][1])]
        lines.append({"name": names.seat(seat), "css": colour[names.seat(seat)], "points": _polyline([(0, 0), *sampled], total,
                     top, w, h, left), "final": pts[-1][1], "most": max(y for _x, y in pts)})
    return {"lines": lines, "width": w, "height": h, "top": top, "events": total, "left": left}


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
        for who in order:
            seq = [c for c in mine if c["who"] == who]
            # the top level (Sano, Normal, Sobrio) at the top: height = level - lowest level
            pts = [(0, seq[0]["before"] - bottom)]
            for c in seq:
                x = c["pk"] - first + 1
                pts += [(x, c["before"] - bottom), (x, c["after"] - bottom)]
            pts.append((span + 2, seq[-1]["after"] - bottom))
            lines.append({"name": who, "css": colour[who], "points": _polyline(pts, span + 2, -bottom, w, h, left),
                          "lost": sum(max(c["before"] - c["after"], 0) for c in seq),
                          "end": glossary.name("level", LEVELS[track][seq[-1]["after"]])})
        levels = [{"name": glossary.name("level", LEVELS[track][lv]), "y": round(h - 10 - (lv - bottom) * (h - 20) / -bottom, 1)}
                  for lv in sorted(LEVELS[track], reverse=True)]
        for lv in levels:
            lv["ty"] = round(lv["y"] + 4, 1)
        charts.append({"track": track, "title": glossary.name("track", track), "lines": lines, "levels": levels,
                       "width": w, "height": h, "left": left,
                       "changes": [dict(c, before=glossary.name("level", LEVELS[track][c["before"]]),
                                           after=glossary.name("level", LEVELS[track][c["after"]]))
                                   for c in mine]})
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
