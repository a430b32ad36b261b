"""The two pages of a session, built from one viewer: the Mayor's dashboard and the player's phone.
Pages, htmx fragments and live refetches all render from these, so a fragment can never show more
than its page. ``regions`` names the live regions to build (``None``: the whole page): a fragment,
or the answer to an action, builds only the parts of the view model its regions show (issue #11),
through the same functions and the same redaction as the whole page."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop

from frontera import glossary
from frontera.characters.models import Character
from frontera.play.models import MAYOR_SEAT, GameSession, Seat
from frontera.play.selectors.checks import PHONE_RECENT_CHECKS, check_rows, session_checks
from frontera.play.selectors.combat import combat_view
from frontera.play.selectors.core import (
    Viewer,
    by_suit,
    character_row,
    render_message,
    seat_row,
    session_feed,
    session_version,
    stamp_version,
    viewer_for,
    zones_view,
)
from frontera.play.selectors.exchanges import exchanges_view
from frontera.play.selectors.gambling import gambling_view
from frontera.play.selectors.snapshot import Snapshot
from frontera.play.services.table_tools import undoable
from frontera.rules import characters as rules_characters
from frontera.rules import session as rules_session
from frontera.rules.errors import RulesError
from frontera.rules.tracks import HEALTH_NAMES, incapacity
from frontera.sql import column, rows, table


def _wants(regions, *names: str) -> bool:
    return regions is None or any(name in regions for name in names)


def _base(
    session: GameSession, viewer: Viewer, regions, seats_in: str, zones_in: tuple[str, ...],
    snapshot: Snapshot | None = None,
) -> tuple[dict, rules_session.Session, dict | None]:
    """What every region shares; the engine's view for the viewer (``seen``) only if ``seats_in``
    (the region that shows the seats: the board, the phone's own characters) is wanted, and the
    shared zones (the same for every viewer: ``rules_session.table_view``) only if one of
    ``zones_in`` is. The engine's state is the ``snapshot``'s if there is one (read once for every
    page of that state)."""
    state = snapshot.state if snapshot is not None else rules_session.Session.from_json(session.state)
    context = {
        "session": session,
        "campaign": session.campaign,
        "is_mayor": viewer.is_mayor,
        "phase": state.phase,
        "mode": session.get_mode_display(),
        # Sin gestión has one shared deck and no player's own (FR-MODE-10): no "your deck" to show
        "own_decks": state.mode != rules_session.SIN_GESTION,
        "ended": session.status == GameSession.Status.ENDED,
    }
    if context["ended"]:  # where the table went next: the campaign's newest session after this one
        context["later"] = (GameSession.objects.filter(campaign_id=session.campaign_id, number__gt=session.number)
                            .only("pk", "number", "status").order_by("-number").first())
    seen = None
    if _wants(regions, seats_in):
        # The engine's own redaction: the Mayor sees as his seat, a player as theirs (one per character).
        seat = MAYOR_SEAT if viewer.is_mayor else next(iter(sorted(viewer.seats)), None)
        seen = rules_session.view(state, seat if seat in state.players else None)
    if _wants(regions, *zones_in):
        context["zones"] = zones_view(rules_session.table_view(state))
    if _wants(regions, "feed"):
        context["feed"] = session_feed(session)
    if regions is None:  # the whole page: the version its stream starts from
        context["version"] = _last_event(session, snapshot)
    return context, state, seen


def _last_event(session: GameSession, snapshot: Snapshot | None) -> int:
    """The session's latest event: the one the snapshot was read after, if there is one."""
    return stamp_version(snapshot.stamp) if snapshot is not None else session_version(session.pk)


def callable_characters(session: GameSession) -> list[tuple[int, str]]:
    """Who the Mayor may call to a check: the protagonists present (in their seats' order), then
    every NPC and minion (by kind and name). One statement (every action form validates against it)."""
    return rows(_callable_sql(), (session.pk, session.campaign_id, Character.Kind.PROTAGONIST))


@cache
def _callable_sql() -> str:
    """:func:`callable_characters` as SQL (:mod:`frontera.sql`: asked by every action of the Mayor,
    and the queryset took ~0.6 ms to build for a ~0.05 ms statement)."""
    seat = column(Seat, "pk")
    return (f"SELECT {column(Character, 'pk')}, {column(Character, 'name')} FROM {table(Character)} "
            f"LEFT JOIN {table(Seat)} ON {column(Seat, 'session')} = %s AND {column(Seat, 'character')} = "
            f"{column(Character, 'pk')} WHERE {column(Character, 'campaign')} = %s "
            f"AND ({seat} IS NOT NULL OR {column(Character, 'kind')} <> %s) "
            f"ORDER BY {seat} IS NULL, {seat}, {column(Character, 'kind')}, {column(Character, 'name')}")


def unable_to_act(ids) -> dict[str, str]:
    """Of the characters ``ids``, each who can take no action now (Incapacitado, Muerto, Paralizado,
    En coma: FR-HLT-1, FR-MOR-1, FR-SOB-1) as ``{"<id>": "cannot act (Muerto)"}``, in the reader's
    language: the Mayor's pickers say it beside the name, and a check cannot be called on them."""
    found = {}
    for pk, sheet in Character.objects.filter(pk__in=list(ids)).values_list("pk", "sheet"):
        try:  # the sheet as the engine reads it (a check's service reads it so)
            read = rules_characters.Character.from_json(sheet or {})
            out = incapacity(health=read.health, morale=read.morale, sobriety=read.sobriety)
        except RulesError:
            continue  # a sheet the service refuses with its own message
        if out:
            found[str(pk)] = gettext("cannot act (%(level)s)") % {"level": glossary.name("level", out)}
    return found


# The aria-labels of a character card's one-tap actions on the Mayor's board (templates/play/_cast.html).
TAP_LABELS = {
    "group": gettext_noop("Quick actions for %(name)s"),
    "check": gettext_noop("Call a check for %(name)s"),
    "hurt": gettext_noop("Salud −1 for %(name)s"),
    "heal": gettext_noop("Salud +1 for %(name)s"),
    "drink": gettext_noop("A drink for %(name)s"),
    "threat": gettext_noop("Threaten %(name)s"),
    "more": gettext_noop("More for %(name)s"),
}


def tap_labels_for() -> Callable[[str], dict[str, SafeString]]:
    """The board's ``name -> {action: aria-label}``, translated once for every card (issue #11: seven
    ``{% blocktranslate %}`` a card, ~45 cards a page, cost ~3 ms). Each label is what
    ``{% blocktranslate with name=row.name %}`` renders: the translation as it is, the name escaped."""
    translated = {key: gettext(msgid) for key, msgid in TAP_LABELS.items()}

    def labels(name: str) -> dict[str, SafeString]:
        escaped = conditional_escape(name)
        return {key: mark_safe(text % {"name": escaped}) for key, text in translated.items()}

    return labels


# What the board's "Salud −1" asks before it takes a character to a level where they cannot act: a
# walk through an evening killed a character with four quick taps, and a Muerto is not healed by +1.
HURT_ASKS = {
    -3: gettext_noop("Salud −1 takes %(name)s to %(level)s: they cannot act until they recover. Go on?"),
    -4: gettext_noop("Salud −1 takes %(name)s to %(level)s: the dead man's hand will decide whether they live. "
                     "Go on?"),
}


def _board_row(row: dict, tap_labels) -> dict:
    """A character card's row on the Mayor's board: its one-tap labels, what its "Salud −1" asks
    first (``hurt_asks``, or ``""``), and ``dead`` (Muerto: no health, drink or threat tap, which
    would change nothing or be refused; the "…" tools keep the death roll)."""
    row["tap_labels"] = tap_labels(row["name"])
    after = row["health"] - 1
    asks = HURT_ASKS.get(after)
    row["hurt_asks"] = gettext(asks) % {"name": row["name"], "level": glossary.name("level", HEALTH_NAMES[after])} if asks else ""
    row["dead"] = row["health"] <= min(HEALTH_NAMES)
    return row


def dashboard_view(session: GameSession, user, regions: set[str] | None = None,
                   snapshot: Snapshot | None = None) -> dict:
    """The Mayor's dashboard: every character with tracks and draw penalty, every zone (counts
    where hidden), open and recent checks, the feed. A constant number of queries; fewer from a
    ``snapshot`` of the session's state (:mod:`frontera.play.selectors.snapshot`)."""
    viewer = viewer_for(session, user)
    assert viewer.is_mayor, "the dashboard is the Mayor's"
    context, state, seen = _base(session, viewer, regions, "board", ("board",), snapshot)
    if _wants(regions, "board"):
        seats = Seat.objects.at(session.pk)
        seated = {s.character_id for s in seats}
        # one query for the NPCs and minions and the protagonists not seated, each in the database's order
        everyone = Character.objects.of_campaign(session.campaign_id)
        npcs = [c for c in everyone if c.kind != Character.Kind.PROTAGONIST]
        absent = [c for c in everyone if c.kind == Character.Kind.PROTAGONIST and c.pk not in seated]
        protagonists = []
        treated = session.tallies.get("medical", {})
        tap_labels = tap_labels_for()
        for s in seats:
            row = character_row(s.character)
            row.update(player=s.player, seat=seat_row(seen, s.key))
            row["treated"] = str(row["pk"]) in treated and row["health"] < 0  # healed: nothing to speed
            protagonists.append(_board_row(row, tap_labels))
        npc_rows = [_board_row(character_row(c), tap_labels) for c in npcs]
        context.update(
            protagonists=protagonists,
            npcs=npc_rows,
            absent=absent,
            mayor_seat=seat_row(seen, MAYOR_SEAT),
            callable_characters=[(s.character_id, s.character.name) for s in seats]
            + [(c.pk, c.name) for c in npcs],
            # the latest event as read already: the page's version, or the snapshot's
            undo=_undo_row(session, context["version"] if "version" in context else _last_event(session, snapshot)),
        )
    if _wants(regions, "checks"):
        open_checks, recent = _checks(session, snapshot, withdrawals=True)
        bancas, duels = gambling_view(session, viewer, snapshot.gambles if snapshot else None)
        context.update(
            open_checks=check_rows(open_checks, viewer, state),
            recent_checks=check_rows(recent, viewer, state),
            exchanges=exchanges_view(session, viewer, state, snapshot.exchanges if snapshot else None),
            bancas=bancas,
            duels=duels,
        )
    if _wants(regions, "combat"):
        context["fight"] = combat_view(session, viewer)
    return context


def _checks(session: GameSession, snapshot: Snapshot | None, *, withdrawals: bool):
    """The open and recent checks: the snapshot's, else read now (a player's page skips the
    withdrawals' query; in a snapshot it was made once for every page, and a player's rows offer no
    withdrawal whatever it found: ``check_rows``)."""
    if snapshot is not None:
        return snapshot.open_checks, snapshot.recent_checks
    return session_checks(session, withdrawals=withdrawals)


def _undo_row(session: GameSession, last_event: int | None = None) -> dict | None:
    """The Mayor's last table action, if it may still be undone, named by its own feed line."""
    undo = undoable(session, last_event=last_event)
    if undo is None:
        return None
    message = dict(undo.message)
    return {"pk": undo.pk, "text": render_message(message.pop("_msg"), message), "until": undo.after_event}


def phone_view(session: GameSession, user, regions: set[str] | None = None, snapshot: Snapshot | None = None) -> dict:
    """The player's phone: their character(s) with tracks and deck (a count in phase 1, the
    composition by suit in phase 2), their checks with odds, cards and choices, the feed."""
    viewer = viewer_for(session, user)
    context, state, seen = _base(session, viewer, regions, "me", ("zones",), snapshot)
    if _wants(regions, "me"):
        mine = []
        seats = Seat.objects.at(session.pk, owner_id=user.pk)
        owner_sees = rules_session.owner_sees_deck(state)
        for s in seats:
            row = character_row(s.character)
            view = rules_session.view(state, s.key) if s.key in state.players else seen
            seat = seat_row(view, s.key)
            seat["by_suit"] = by_suit([c["uid"] for c in seat["deck"]]) if owner_sees else []
            seat["owner_sees"] = owner_sees
            row["seat"] = seat
            row["treated"] = str(row["pk"]) in session.tallies.get("medical", {}) and row["health"] < 0
            mine.append(row)
        context["mine"] = mine
        # why a player's page has no character any more: theirs died for good here and left the game
        # (FR-EXCH-4; a walk's player read only "None of your characters is at this session")
        dead = session.tallies.get("dead", {})
        context["gone"] = [] if mine or not dead else list(Character.objects.filter(
            campaign_id=session.campaign_id, owner_id=user.pk, pk__in=[int(pk) for pk in dead]).values_list(
            "name", flat=True).order_by("name"))
    if _wants(regions, "checks", "table"):
        open_checks, recent = _checks(session, snapshot, withdrawals=False)  # a player withdraws nothing
    if _wants(regions, "checks"):
        bancas, duels = gambling_view(session, viewer, snapshot.gambles if snapshot else None)
        context.update(
            my_open_checks=check_rows(open_checks, viewer, state, only_seats=viewer.seats),
            my_recent_checks=check_rows(recent, viewer, state, only_seats=viewer.seats)[:PHONE_RECENT_CHECKS],
            exchanges=exchanges_view(session, viewer, state, snapshot.exchanges if snapshot else None),
            bancas=bancas,
            duels=duels,
        )
    if _wants(regions, "table"):  # the others' open checks ("At the table")
        context["others_open_checks"] = [row for row in check_rows(open_checks, viewer, state)
                                         if not any(p["mine"] for p in row["participants"])]
    if _wants(regions, "combat"):
        context["fight"] = combat_view(session, viewer)
    return context
