"""The bonus tables: the lobby, each game's page, a table's page (live), its actions, the invite
link and the replay. Thin: a service or a selector does the work.

Every action is a POST form that works without JavaScript (redirect back to the table, the error
as a message); with htmx it comes back as the table's live region (``?fragment=table``), with the
error in it. A table of a private game is 404 to an outsider, page, fragment and stream alike.
"""

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from cardgames import selectors, services
from cardgames.engines import ENGINE_NAMES
from cardgames.forms import JoinForm, MoveForm, NewTableForm
from cardgames.models import Table
from cardgames.services import TableError, table_topic

GAMES = {
    "pocobot": {"title": "PoCoBOT", "blurb": _("A duel of poker-card mechas for two.")},
    "palmera": {"title": "En la palmera", "blurb": _("Hidden placements on ten squares, for two.")},
    "boom": {"title": "Boom", "blurb": _("Attack your rivals' life storages, for two to four.")},
    "nismatch": {"title": "Nismatch", "blurb": _("A trading-card duel of mecha Units.")},
}
assert set(GAMES) == set(ENGINE_NAMES)
TABLE_FRAGMENTS = {"table"}


def _invite_key(pk: int) -> str:
    return f"cardgames_invite_{pk}"


@require_GET
def index(request):
    rows = selectors.lobby(request.user) if request.user.is_authenticated else {"open": [], "playing": [], "finished": []}
    games = []
    for name in ENGINE_NAMES:
        games.append({
            "name": name, **GAMES[name],
            "open": [r for r in rows["open"] if r["table"].game == name],
            "playing": [r for r in rows["playing"] if r["table"].game == name],
        })
    return render(request, "cardgames/index.html", {"games": games, "finished": rows["finished"]})


def _new_table_form(request, name, data=None):
    return NewTableForm(data, game=name, campaigns=selectors.member_campaigns(request.user))


@require_GET
def game_rules(request, name: str):
    if name not in GAMES:
        raise Http404
    rows = selectors.lobby(request.user, name) if request.user.is_authenticated else None
    return render(request, "cardgames/game.html", {
        "game": {"name": name, **GAMES[name]}, "rows": rows, "form": _new_table_form(request, name),
        "rules_template": selectors.rules_template(name),
    })


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request, name: str):
    """Create a table; without fields, the defaults: you in the first seat, strong bots in the
    others, private. A GET (back from logging in) leads to the game's page."""
    if name not in GAMES:
        raise Http404
    if request.method == "GET":
        return redirect("cardgames_game", name)
    data = request.POST.copy()
    data.setdefault("seats", str(services.SEAT_RANGE[name][0]))
    form = _new_table_form(request, name, data)
    if not form.is_valid():
        messages.error(request, _("Check the table's options."))
        return redirect("cardgames_game", name)
    try:
        table, token = services.table_create(
            game=name, by=request.user, seats=form.cleaned_data["seats"], bots=form.bots(),
            privacy=form.cleaned_data["privacy"] or Table.Privacy.PRIVATE, campaign=form.cleaned_data["campaign"])
    except TableError as err:
        messages.error(request, str(err))
        return redirect("cardgames_game", name)
    request.session[_invite_key(table.pk)] = token
    return redirect(table)


def _page_context(request, table, viewer, error=None):
    context = selectors.table_page(table, viewer)
    context.update(
        error=error, live_topic=table_topic(table.pk), tap_key=secrets.token_hex(8),
        invite_token=request.session.get(_invite_key(table.pk)) if viewer.seated else None,
        rules_template=selectors.rules_template(table.game),
    )
    return context


@vary_on_headers("HX-Request")
@login_required
@require_GET
def table_page(request, pk: int):
    table, viewer = selectors.table_for(request.user, pk)
    fragment = request.GET.get("fragment")
    context = _page_context(request, table, viewer)
    if fragment in TABLE_FRAGMENTS:
        return HttpResponse(render_to_string(f"cardgames/table.html#{fragment}", context, request))
    return render(request, "cardgames/table.html", context)


def _done(request, table, error=None, viewer=None):
    """After an action: back to the table (no JS), or its region (htmx) with the error. ``viewer``
    given: ``table`` was read (by :func:`selectors.table_for`) after the action and is fresh."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(table)
    if viewer is None:
        table, viewer = selectors.table_for(request.user, table.pk)
    return HttpResponse(render_to_string("cardgames/table.html#table", _page_context(request, table, viewer, error), request))


@login_required
@require_POST
def table_play(request, pk: int):
    """A move. The service is called with the table's pk (its path to the commit reads the table
    once, under its lock); the page is read after the commit. A refused move, whatever the reason,
    reads the table as every page does first, so an outsider gets the 404 and nothing else."""
    form = MoveForm(request.POST)
    try:
        if not form.is_valid():
            raise TableError(services.E_MALFORMED)
        action = services.parse_action(form.cleaned_data["action"])
        move = services.table_move(table=pk, by=request.user, action=action, ply=form.cleaned_data["ply"],
                                   request_key=form.cleaned_data["request_key"])
    except Table.DoesNotExist:
        raise Http404 from None
    except TableError as err:
        table, viewer = selectors.table_for(request.user, pk)
        return _done(request, table, str(err), viewer)
    # the others' pushes have gone out first: the bus settled after the commit (LIVE_PUSH_FIRST_SECONDS)
    if request.htmx or move.user_id != request.user.pk:
        # the mover's region; or a request key repeated by someone else: an outsider gets the 404
        table, viewer = selectors.table_for(request.user, pk)
        return _done(request, table, viewer=viewer)
    return redirect("cardgames_table", pk)


@login_required
@require_POST
def table_join(request, pk: int):
    table = Table.objects.filter(pk=pk).first()
    if table is None:
        raise Http404
    form = JoinForm(request.POST)
    form.is_valid()
    token = form.cleaned_data.get("token") or None
    if not (token and services.invite_matches(table, token)):
        selectors.viewer_for(request.user, table)  # 404 to an outsider without the link
    try:
        services.table_join(table=table, by=request.user, token=token, index=form.cleaned_data.get("seat"))
    except TableError as err:
        if token and not selectors.can_view(request.user, table):
            messages.error(request, str(err))
            return redirect("cardgames_invite", token)
        return _done(request, table, str(err))
    return redirect(table)


@login_required
@require_POST
def table_leave(request, pk: int):
    table, _viewer = selectors.table_for(request.user, pk)
    try:
        services.table_leave(table=table, by=request.user)
    except TableError as err:
        return _done(request, table, str(err))
    messages.success(request, _("You left the table."))
    return redirect("cardgames_game", table.game)


@login_required
@require_POST
def table_rematch(request, pk: int):
    table, _viewer = selectors.table_for(request.user, pk)
    try:
        rematch = services.table_rematch(table=table, by=request.user)
    except TableError as err:
        return _done(request, table, str(err))
    return redirect(rematch)


@login_required
@require_POST
def table_wake(request, pk: int):
    table, _viewer = selectors.table_for(request.user, pk)
    try:
        services.table_wake_bot(table=table, by=request.user)
    except TableError as err:
        return _done(request, table, str(err))
    return _done(request, table)


@login_required
@require_POST
def table_invite(request, pk: int):
    table, _viewer = selectors.table_for(request.user, pk)
    try:
        request.session[_invite_key(table.pk)] = services.table_invite_renew(table=table, by=request.user)
    except TableError as err:
        return _done(request, table, str(err))
    return redirect(table)


@login_required
@require_GET
def invite(request, token: str):
    """The invite link: the table, its free seats, a button to sit down."""
    table = Table.objects.filter(invite_token_hash=services.hash_token(token)).first()
    if table is None:
        raise Http404
    context = {"table": table, "token": token, "game_title": selectors.game_title(table.game),
               "seats": selectors.seat_names(table), "free_seats": list(table.seats.filter(user__isnull=True, bot="")
                                                                     .values_list("index", flat=True)),
               "seated": table.seats.filter(user=request.user).exists()}
    return render(request, "cardgames/invite.html", context)


@login_required
@require_GET
def table_replay(request, pk: int):
    table, viewer = selectors.table_for(request.user, pk)
    try:
        step = int(request.GET.get("paso", "0"))
    except ValueError:
        step = 0
    public = request.GET.get("vista") == "publico" and viewer.seated
    if public:  # a player may also replay the game as the spectators saw it
        viewer = selectors.Viewer(seat=None, seated=False)
    context = selectors.replay_frame(table, viewer, step)
    context.update(public=public, seated=public or viewer.seated, vista="&vista=publico" if public else "")
    return render(request, "cardgames/replay.html", context)
