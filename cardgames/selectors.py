"""What the bonus tables' pages read, redacted for their viewer.

A viewer is a seat (a person seated at the table), a spectator (a member of the campaign the
table is open to, or a person who left the game) or an outsider (404 for every page, fragment
and stream of a table they may not see). Everything drawn comes from ``engine.view(state, seat)``
(``seat=None`` for a spectator), never from the state: the state stays in this module. The legal
actions are only the viewer's own seat's; the log of moves is worded for the viewer
(:func:`cardgames.presenters.move_text` says nothing the viewer may not see).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db.models import Prefetch, Q
from django.http import Http404
from django.template.loader import select_template
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardgames import presenters
from cardgames.engines import IllegalAction, get
from cardgames.models import Move, Seat, Table
from cardgames.services import BOT_STUCK_SECONDS, SEAT_RANGE
from frontera.campaigns.models import Campaign
from frontera.campaigns.permissions import is_member_of

BOT_NAMES = {"random": gettext_lazy("Easy bot"), "greedy": gettext_lazy("Medium bot"), "strong": gettext_lazy("Strong bot")}


@dataclass(frozen=True)
class Viewer:
    seat: int | None  # the engine seat whose view is shown; None: the spectator's view
    seated: bool  # sits at the table (and has not left it): may move, leave, ask for a rematch

    @property
    def spectator(self) -> bool:
        return not self.seated


def _seats(table: Table) -> list[Seat]:
    """The table's seats with their people: those :func:`table_for` read with the table, or a
    query for them."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return list(table.seats.all())
    return list(table.seats.select_related("user"))


def _seat_of(user, table: Table) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((s for s in _seats(table) if s.user_id == user.pk), None)


def can_view(user, table: Table) -> bool:
    """Seated (now or before), or a member of the campaign the table is open to."""
    if not user.is_authenticated:
        return False
    return _seat_of(user, table) is not None or _member_watches(user, table)


def _member_watches(user, table: Table) -> bool:
    return table.privacy == Table.Privacy.CAMPAIGN and table.campaign is not None and is_member_of(user, table.campaign)


def viewer_for(user, table: Table) -> Viewer:
    seat = _seat_of(user, table)
    if seat is not None and not seat.left:
        return Viewer(seat=seat.index, seated=True)
    if seat is not None or (user.is_authenticated and _member_watches(user, table)):  # can_view
        return Viewer(seat=None, seated=False)
    raise Http404


def table_for(user, pk: int) -> tuple[Table, Viewer]:
    """The table (with its seats and their people, read once for the whole page) and who ``user``
    is at it; 404 for an outsider (never 403)."""
    table = (Table.objects.filter(pk=pk).select_related("campaign")
             .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).first())
    if table is None:
        raise Http404
    return table, viewer_for(user, table)


def seat_names(table: Table, seats: list[Seat] | None = None) -> dict[int, str]:
    names = {}
    for seat in _seats(table) if seats is None else seats:
        if seat.left:  # a bot took over the seat of a person who left
            names[seat.index] = _("%(bot)s (for %(name)s)") % {"bot": BOT_NAMES[seat.bot],
                                                               "name": seat.user.get_username() if seat.user_id else "…"}
        elif seat.bot and not seat.user_id:
            names[seat.index] = _("%(bot)s %(n)s") % {"bot": BOT_NAMES[seat.bot], "n": seat.index + 1}
        elif seat.user_id:
            names[seat.index] = seat.user.get_username()
        else:
            names[seat.index] = _("Free seat %(n)s") % {"n": seat.index + 1}
    return names


def _namer(names: dict[int, str]):
    return lambda i: names.get(i, _("Seat %(n)s") % {"n": i + 1})


def board_template(game: str):
    """The game's board template (drawn by the presenters), or the generic one."""
    return select_template([f"cardgames/boards/{game}.html", "cardgames/_board_generic.html"])


def _outcome(result: dict | None, name, words: dict | None = None) -> dict | None:
    """The result box: the winners' names, the scores by name, and ``words``
    (:func:`presenters.outcome_words`: why it ended, what the scores count)."""
    if result is None:
        return None
    winners = [name(s) for s in result["winners"]]
    scores = [{"name": name(int(seat)), "score": score} for seat, score in sorted(result["scores"].items())]
    return {"draw": result["draw"] or not winners, "winners": winners, "scores": scores,
            "reason": (words or {}).get("reason", ""), "score_label": (words or {}).get("score_label", "")}


def log_lines(table: Table, viewer: Viewer, name, moves=None) -> list[str]:
    """The log of moves worded for ``viewer``: ``moves`` (:class:`Move` s), or the whole game's,
    read as (seat, action) pairs only (a model instance per move was most of a long game's page).
    A game of :data:`presenters.LOGGED_GAMES` also says what each move did: the whole game is
    replayed for it (``moves`` must then start at the first move)."""
    pairs = (list(table.moves.values_list("seat", "action")) if moves is None
             else [(m.seat, m.action) for m in moves])
    events = _replayed_events(table, pairs, viewer) if table.game in presenters.LOGGED_GAMES else None
    return [presenters.move_text(table.game, name, seat, action, viewer.seat, events[i] if events else None)
            for i, (seat, action) in enumerate(pairs)]


def _replayed_events(table: Table, pairs: list[tuple[int, dict]], viewer: Viewer) -> list[list[dict]] | None:
    """What each move did, as ``viewer`` may see it, from ``new_game(seats, seed, options)`` and the
    moves; ``None`` when the moves do not replay (the log then names the moves only)."""
    engine = get(table.game)
    try:
        state = engine.new_game(len(_seats(table)), table.seed, table.options or None)
        out = []
        for seat, action in pairs:
            state, events = engine.apply_logged(state, seat, action)
            out.append(engine.events_view(events, viewer.seat))
    except IllegalAction:
        return None
    return out


def actions_for(table: Table, state: dict, viewer: Viewer, view: dict, name) -> list[dict]:
    """The viewer's seat's legal actions, in sections, each with its label, its spoken name (the
    button's ``aria-label``: the cards in words), its JSON and its ``key`` (unique on the page, for
    the form's request key). A long section is ``collapsed`` (shown closed, with its ``count``) and
    may carry ``sections``: the same actions nested (PoCoBOT's two changes by the first)."""
    engine = get(table.game)
    if not viewer.seated or table.status != Table.Status.PLAYING or viewer.seat not in engine.to_move(state):
        return []
    groups = presenters.action_groups(table.game, engine.legal_actions(state, viewer.seat), view, name)
    keys: dict[str, int] = {}

    def rows(section: dict) -> list[dict]:
        out = []
        for (action, label), spoken in zip(section["actions"], section["spoken"], strict=True):
            text = json.dumps(action, sort_keys=True)
            out.append({"json": text, "label": label, "spoken": spoken,
                        "key": keys.setdefault(text, len(keys) + 1)})
        return out

    return [
        {"title": g["title"], "count": len(g["actions"]), "collapsed": g["collapsed"], "actions": rows(g),
         "sections": [{"title": s["title"], "count": len(s["actions"]), "actions": rows(s)}
                      for s in g.get("sections", ())]}
        for g in groups
    ]


def table_page(table: Table, viewer: Viewer) -> dict:
    """Everything the table page shows to ``viewer``."""
    seats = _seats(table)
    names = seat_names(table, seats)
    name = _namer(names)
    context = {
        "table": table, "viewer": viewer, "game_title": game_title(table.game),
        "seats": [{"index": s.index, "name": names[s.index], "bot": bool(s.bot), "free": s.is_free,
                   "you": viewer.seated and s.index == viewer.seat} for s in seats],
        "free_seats": [s.index for s in seats if s.is_free],
        "board": None, "actions": [], "to_move": [], "bot_thinking": False, "your_turn": False, "outcome": None,
        "log": [],  # a rematch follows only a finished game (services.table_rematch)
        "rematch": Table.objects.filter(rematch_of=table).first() if table.status == Table.Status.FINISHED else None,
    }
    if not table.state:
        return context
    engine = get(table.game)
    state = engine.from_json(table.state)
    view = engine.view(state, viewer.seat)
    movers = engine.to_move(state) if table.status == Table.Status.PLAYING else []
    bots = {s.index for s in seats if s.bot}
    context.update(
        board=presenters.present(table.game, view, viewer.seat, name),
        board_template=board_template(table.game),
        actions=actions_for(table, state, viewer, view, name),
        to_move=[name(s) for s in movers],
        bot_thinking=any(s in bots for s in movers),
        bot_stuck=any(s in bots for s in movers) and viewer.seated
        and (timezone.now() - table.updated_at).total_seconds() > BOT_STUCK_SECONDS,
        your_turn=viewer.seated and viewer.seat in movers,
        outcome=(_outcome(engine.outcome(state), name, presenters.outcome_words(table.game, view, name))
                 if table.status == Table.Status.FINISHED else None),
        log=log_lines(table, viewer, name),
    )
    return context


def replay_frame(table: Table, viewer: Viewer, step: int) -> dict:
    """Position after ``step`` moves of a finished game, rebuilt from ``new_game(seats, seed,
    options)`` and the move log, in ``viewer``'s view."""
    if table.status != Table.Status.FINISHED:
        raise Http404
    engine = get(table.game)
    moves = list(table.moves.all())
    step = max(0, min(step, len(moves)))
    state = engine.new_game(table.seats.count(), table.seed, table.options or None)
    events = None
    for move in moves[:step]:
        if table.game in presenters.LOGGED_GAMES:
            state, events = engine.apply_logged(state, move.seat, move.action)
        else:
            state = engine.apply(state, move.seat, move.action)
    name = _namer(seat_names(table))
    view = engine.view(state, viewer.seat)
    last = None
    if step:
        move = moves[step - 1]
        last = presenters.move_text(table.game, name, move.seat, move.action, viewer.seat,
                                    None if events is None else engine.events_view(events, viewer.seat))
    return {
        "table": table, "viewer": viewer, "game_title": game_title(table.game), "step": step, "steps": len(moves),
        "board": presenters.present(table.game, view, viewer.seat, name), "board_template": board_template(table.game),
        "last": last,
        "to_move": [name(s) for s in engine.to_move(state)],
        "previous": step - 1 if step > 0 else None, "next": step + 1 if step < len(moves) else None,
    }


GAME_TITLES = {"pocobot": "PoCoBOT", "palmera": "En la palmera", "boom": "Boom", "nismatch": "Nismatch"}


def game_title(game: str) -> str:
    return GAME_TITLES.get(game, game)


def visible_tables(user, game: str | None = None):
    """The tables ``user`` may see: theirs, and those open to their campaigns' members."""
    campaigns = Campaign.objects.filter(memberships__user=user) if user.is_authenticated else Campaign.objects.none()
    tables = Table.objects.filter(Q(seats__user=user) | Q(privacy=Table.Privacy.CAMPAIGN, campaign__in=campaigns))
    if game:
        tables = tables.filter(game=game)
    return tables.distinct().select_related("campaign").prefetch_related("seats__user")


def lobby(user, game: str | None = None) -> dict:
    """Open and running tables per game, for ``user``: whether they sit there or may join or watch."""
    rows = {"open": [], "playing": [], "finished": []}
    for table in visible_tables(user, game).filter(status__in=[Table.Status.OPEN, Table.Status.PLAYING,
                                                                 Table.Status.FINISHED])[:60]:
        seats = list(table.seats.all())
        mine = any(s.user_id == user.pk and not s.left for s in seats)
        rows[table.status].append({
            "table": table, "title": game_title(table.game), "mine": mine,
            "players": [s.user.get_username() if s.user_id and not s.left else BOT_NAMES.get(s.bot, "…") if s.bot else "…"
                        for s in seats],
            "free": sum(1 for s in seats if s.is_free),
        })
    rows["finished"] = [r for r in rows["finished"] if r["mine"]][:10]
    for row in rows["finished"]:
        row["result_text"] = _finished_result(row["table"], row["players"])
    return rows


def _finished_result(table: Table, players: list[str]) -> str:
    """Who won a finished game (or that it was a draw), by the names the lobby shows."""
    if not table.state:
        return ""
    engine = get(table.game)
    result = engine.outcome(engine.from_json(table.state))
    if result is None:
        return ""
    winners = [str(players[s]) for s in result["winners"] if 0 <= s < len(players)]  # a bot's name is lazy
    if result["draw"] or not winners:
        return _("a draw")
    return _("won by %(names)s") % {"names": ", ".join(winners)}


def member_campaigns(user):
    return Campaign.objects.filter(memberships__user=user).order_by("name") if user.is_authenticated else Campaign.objects.none()


def seat_choices(game: str) -> range:
    low, high = SEAT_RANGE[game]
    return range(low, high + 1)


def rules_template(game: str):
    """The game's rules summary (``cardgames/rules/<game>.html``), or a placeholder."""
    return select_template([f"cardgames/rules/{game}.html", "cardgames/_rules_missing.html"])
