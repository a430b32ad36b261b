"""The session list, the session page, phase 2, ending the session, a late joiner."""

import threading

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from frontera.campaigns.permissions import campaign_for_member, can_run_session
from frontera.characters.models import Character
from frontera.play.forms.common import new_request_key, posted_request_key
from frontera.play.forms.sessions import JoinForm, SessionStartForm
from frontera.play.models import GameSession, Seat
from frontera.play.selectors.core import feed_stamp, sessions_of, stamp_version, viewer_for
from frontera.play.selectors.snapshot import session_snapshot
from frontera.play.selectors.still_open import open_items
from frontera.play.services import sessions as sessions_actions
from frontera.play.services.core import SessionError
from frontera.play.views.common import (
    DASHBOARD_FRAGMENTS,
    PHONE_FRAGMENTS,
    done,
    form_errors,
    page_context,
    protagonists,
    session_for,
    session_for_mayor,
)


@login_required
@require_http_methods(["GET", "POST"])
def session_list(request, pk: int):
    campaign = campaign_for_member(request.user, pk)
    mayor = can_run_session(request.user, campaign)
    form = None
    if mayor:
        form = SessionStartForm(request.POST or None, characters=protagonists(campaign))
    if request.method == "POST":
        if not mayor:
            raise Http404
        if form.is_valid():
            chosen = [int(x) for x in form.cleaned_data["characters"]]
            try:
                session = sessions_actions.session_start(
                    campaign=campaign, by=request.user, mode=form.cleaned_data["mode"],
                    characters=Character.objects.filter(campaign=campaign, pk__in=chosen),
                    decks=form.cleaned_data["decks"], jokers=form.cleaned_data["jokers"],
                    skip_phase_1=form.cleaned_data["skip_phase_1"], request_key=form.cleaned_data["request_key"],
                )
            except SessionError as err:
                form.add_error(None, str(err))
            else:  # the feed says it; base.html's message list trips axe (role=status on a <ul>)
                return redirect(session)
    context = {"campaign": campaign, "is_mayor": mayor, "sessions": sessions_of(campaign), "form": form}
    return render(request, "play/session_list.html", context, status=400 if form is not None and form.errors else 200)


@login_required
@vary_on_headers("HX-Request")
def session_page(request, pk: int):
    session = session_for(request.user, pk)
    fragment = request.GET.get("fragment")
    if not fragment and "regions" in request.GET:
        return _regions(request, session, request.GET["regions"])
    if fragment:
        runs_it = can_run_session(request.user, session.campaign)
        if fragment not in (DASHBOARD_FRAGMENTS if runs_it else PHONE_FRAGMENTS):
            raise Http404
        if fragment == "feed":
            return HttpResponse(_feed(request, session, runs_it=runs_it))
        # a page asked by the person (a reload, a fragment) reads everything afresh: a snapshot is
        # kept per event, and a renamed character, say, makes none
        template, context = page_context(request, session, {fragment})
        return render(request, f"{template}#{fragment}", context)
    template, context = page_context(request, session)
    return render(request, template, context)


def _regions(request, session, names: str) -> HttpResponse:
    """``?regions=checks,feed``: the live regions a push named, in one answer (issue #11), each
    marked to be swapped out of band (``hx-swap-oob="morph"``) by the page's one live element; none
    named: every region of the page. One request per page and push instead of one per region: the
    viewer, the session and the engine's state are read once for all of them; the feed comes from
    its cache (:func:`_cached_feed`), rendered once for every page that asks for the same state."""
    page_regions = DASHBOARD_FRAGMENTS if can_run_session(request.user, session.campaign) else PHONE_FRAGMENTS
    wanted = set(filter(None, names.split(","))) or set(page_regions)
    if not wanted <= page_regions:
        raise Http404
    html, version = regions_html(request, session, wanted)
    response = HttpResponse(html)
    response["X-Live-Version"] = str(version)  # the state it shows (static/js/live-regions.js)
    return response


def regions_html(request, session, wanted: set[str], seats=None, stamp: str | None = None) -> tuple[str, int]:
    """The regions ``wanted`` of the viewer's page, each marked to be swapped out of band, and the
    session's live version they show (that of its latest event when they were read, or a later one):
    what a page fetches after a push (:func:`_regions`), or is sent with it
    (:mod:`frontera.play.views.pushed`). ``seats()``: the viewer's seats, and ``stamp``: the feed's
    stamp read after ``session`` (:func:`feed_stamp`), if the caller has them."""
    runs_it = can_run_session(request.user, session.campaign)
    # the feed, and a phone's table zones (what every viewer sees of the shared zones:
    # rules_session.table_view), are the same HTML for every page of a side of the table: each is
    # rendered once per state and language, for all of them; a phone's others' open checks
    # ("At the table") are the same for every player with the same open checks of their own
    shared = wanted & ({"feed"} if runs_it else {"feed", "zones", "table"})
    built = wanted - shared
    parts = []
    stamp = feed_stamp(session.pk) if stamp is None else stamp
    if built or shared - {"feed"}:
        # what every page of this state reads alike, read once for all of them (the session's row
        # with it: as new as the stamp, like the regions built from it)
        snapshot = session_snapshot(session, stamp)
        snapshot.refresh(session)
    if "table" in shared:
        held = seats() if seats is not None else viewer_for(session, request.user).seats
        own = sorted(prueba.pk for prueba in snapshot.open_checks if any(p.seat in held for p in prueba.listed))
        key = f"play:table:{session.pk}:{stamp}:{get_language()}:{','.join(map(str, own))}:oob"
        parts.append(_cached_feed(key, lambda: _render_shared(request, session, snapshot, "table")))
    if built:
        template, context = page_context(request, session, built, snapshot=snapshot, oob=True)
        parts += [render_to_string(f"{template}#{name}", context, request) for name in sorted(built)]
    if "zones" in shared:
        key = f"play:zones:{session.pk}:{stamp}:{get_language()}:oob"
        parts.append(_cached_feed(key, lambda: _render_shared(request, session, snapshot, "zones")))
    if "feed" in wanted:
        key = _feed_key(session, runs_it, oob=True, stamp=stamp)
        parts.append(_cached_feed(key, lambda: _render_feed(request, session, oob=True)))
    return "".join(parts), stamp_version(stamp)


def _render_shared(request, session, snapshot, name: str) -> str:
    template, context = page_context(request, session, {name}, snapshot=snapshot, oob=True)
    return render_to_string(f"{template}#{name}", context, request)


FEED_CACHE_SECONDS = 600
# One rendering of a feed's state at a time in this process: every page of the session asks for
# the new feed within a few milliseconds of a push, and each would otherwise miss the cache and
# render it. Striped: the feeds of other sessions (or sides, languages) seldom wait on each other.
_FEED_RENDERING = [threading.Lock() for _ in range(32)]


def _feed_key(session, runs_it: bool, *, oob: bool, stamp: str | None = None) -> str:
    side = "mayor" if runs_it else "table"
    stamp = feed_stamp(session.pk) if stamp is None else stamp
    return f"play:feed:{session.pk}:{stamp}:{get_language()}:{side}:{'oob' if oob else 'in'}"


def _feed_lock(key: str) -> threading.Lock:
    return _FEED_RENDERING[hash(key) % len(_FEED_RENDERING)]


def _render_feed(request, session, *, oob: bool) -> str:
    template, context = page_context(request, session, {"feed"}, oob=oob)
    return render_to_string(f"{template}#feed", context, request)


def _cached_feed(key: str, render) -> str:
    """The HTML under ``key`` (a feed's, or a phone's table zones), rendered by ``render()`` if no
    request of this process has yet (the others asking for the same key meanwhile wait for it and
    take it from the cache)."""
    html = cache.get(key)
    if html is None:
        with _feed_lock(key):
            html = cache.get(key)  # another request may have rendered it while this one waited
            if html is None:
                html = render()
                cache.set(key, html, FEED_CACHE_SECONDS)
    return html


def _feed(request, session, *, runs_it: bool) -> str:
    """The feed region (``?fragment=feed``), rendered once per state of the feed, language and side
    of the table (issue #11): every page of the session refetches it after each push. Its lines are
    public facts, the same for every player; the Mayor's copy also has each line's "why" (the rule
    IDs, issue #12), so the two are cached apart, and so are the copy swapped in place and the one
    swapped out of band (:func:`_regions`). The viewer's membership was checked before
    (:func:`session_for`)."""
    return _cached_feed(_feed_key(session, runs_it, oob=False), lambda: _render_feed(request, session, oob=False))


@login_required
@require_http_methods(["GET", "POST"])
def phase_two(request, pk: int):
    """GET: what ending phase 1 does, and a button to confirm it; POST: end phase 1 (FR-MODE-5)."""
    session = session_for_mayor(request.user, pk)
    if request.method == "GET":
        return _confirm(request, session, "phase_two")
    try:
        sessions_actions.phase_switch(session=session, by=request.user, request_key=posted_request_key(request.POST))
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)


@login_required
@require_http_methods(["GET", "POST"])
def session_end(request, pk: int):
    """GET: what ending the session does (and what still keeps it open); POST: end it."""
    session = session_for_mayor(request.user, pk)
    if request.method == "GET":
        return _confirm(request, session, "session_end")
    try:
        sessions_actions.session_end(session=session, by=request.user)
    except SessionError as err:
        messages.error(request, str(err))
    return redirect("play_session", pk=session.pk)


def _confirm(request, session, what: str):
    """The confirmation page of an action that cannot be taken back: what it will do, then one
    button (a plain form: it works without JavaScript) or back to the table."""
    if session.status == GameSession.Status.ENDED or (what == "phase_two" and session.phase != 1):
        return redirect(session)
    context = {"session": session, "campaign": session.campaign, "what": what, "request_key": new_request_key(),
               "blocking": open_items(session) if what == "session_end" else []}
    return render(request, "play/confirm.html", context)


@login_required
@require_POST
def late_join(request, pk: int):
    session = session_for_mayor(request.user, pk)
    seated = Seat.objects.filter(session=session).values_list("character_id", flat=True)
    candidates = [c for c in protagonists(session.campaign) if c.pk not in set(seated)]
    form = JoinForm(request.POST, characters=candidates)
    if not form.is_valid():
        return done(request, session, error=_("Check the form: %(errors)s") % {"errors": form_errors(form)})
    character = next(c for c in candidates if str(c.pk) == form.cleaned_data["character"])
    try:
        sessions_actions.session_join(
            session=session, by=request.user, character=character, method=form.cleaned_data["method"],
            per_player=form.cleaned_data["per_player"], return_to_phase_1=form.cleaned_data["return_to_phase_1"],
        )
    except SessionError as err:
        return done(request, session, error=str(err))
    return done(request, session)
