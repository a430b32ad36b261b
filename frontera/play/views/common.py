"""What every session view shares: finding the session for its viewer (404 for outsiders, never
403), the page's context and template (the Mayor's dashboard or the player's phone), its live
regions, and the answer after an action.

``/sesiones/<id>/`` is the Mayor's dashboard for the Mayor and the phone page for a player; its
live regions are partials of the same template, fetched with ``?fragment=<name>`` and refetched on
``sse:changed``. Every action is a POST form with a plain ``action`` (redirect back, message) and
an ``hx-post`` (the region it aims at comes back, with the error if any; see :func:`done`)."""

import secrets

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django_htmx.http import reswap, retarget, trigger_client_event

from frontera.campaigns.permissions import can_run_session, is_member_of, remember_role
from frontera.characters.models import Character
from frontera.live.build import build_id
from frontera.play.models import GameSession
from frontera.play.selectors.core import feed_stamp, stamp_version
from frontera.play.selectors.pages import dashboard_view, phone_view
from frontera.play.selectors.snapshot import fresh_row, session_snapshot
from frontera.play.services.core import session_topic
from frontera.play.views.feed import feed_lines

DASHBOARD_FRAGMENTS = {"board", "checks", "feed", "combat"}
# The Mayor's toolbar: each button opens one form in the page's dialog (views.dialogs).
TOOLBAR = [
    ("check", _("Check")), ("opposed", _("Opposed check")), ("fight", _("Fight")), ("duel", _("Pistol duel")),
    ("medical", _("Medical attention")), ("gamble", _("Gambling")), ("exchange", _("Exchange")),
    ("treasure", _("Treasure")), ("tools", _("Damage, drinks…")),
]
PHONE_FRAGMENTS = {"me", "zones", "checks", "table", "feed", "combat"}


def session_for(user, pk: int) -> GameSession:
    """The session if ``user`` belongs to its campaign; 404 otherwise (never 403). The viewer's role
    is read with it (one query less a request)."""
    session = GameSession.objects.row(pk, role_of=user) if user.is_authenticated else None
    if session is None:
        raise Http404
    remember_role(user, session.campaign_id, session.viewer_role)
    if not is_member_of(user, session.campaign):
        raise Http404
    return session


def session_for_mayor(user, pk: int) -> GameSession:
    session = session_for(user, pk)
    if not can_run_session(user, session.campaign):
        raise Http404
    return session


def protagonists(campaign):
    return list(Character.objects.filter(campaign=campaign, kind=Character.Kind.PROTAGONIST).order_by("name"))


def page_context(request, session, regions: set[str] | None = None, snapshot=None, **extra):
    """The page's template and context: the dashboard for whoever runs the session, the phone for
    anybody else of the campaign; only what ``regions`` show when they are named (a fragment, the
    answer to an action), the whole page otherwise. No form is built here: the Mayor's forms open
    on demand in a dialog (:mod:`frontera.play.views.dialogs`)."""
    if can_run_session(request.user, session.campaign):
        context = dashboard_view(session, request.user, regions, snapshot)
        template = "play/dashboard.html"
        live_regions = DASHBOARD_FRAGMENTS
        # the one-tap actions of this rendering, one action each: "<tap key>-<character>-<action>"
        # stays within the request key's 40 characters
        context["tap_key"] = secrets.token_hex(8)
        context["toolbar"] = TOOLBAR
    else:
        context = phone_view(session, request.user, regions, snapshot)
        template = "play/phone.html"
        live_regions = PHONE_FRAGMENTS
    if "feed" in context:  # each line's HTML, rendered once (frontera/play/views/feed.py)
        context["feed_lines"] = feed_lines(context["feed"], is_mayor=context["is_mayor"])
    # what the page's live element may ask for after a push (static/js/live-regions.js)
    # and the build that rendered it: a page kept open across a deploy reloads itself (frontera/live/build.py)
    context.update(live_topic=session_topic(session.pk), live_regions=" ".join(sorted(live_regions)),
                   live_build=build_id(), **extra)
    return template, context


CLOSE_DIALOG = "frontera:close-dialog"
REFUSED = "X-Live-Refused"  # an action's answer that refuses it


def region(request, session, region: str, error: str | None = None, **extra):
    """The region ``region`` as the action left the session, with the session's live version it
    shows (``X-Live-Version``) and its name (``X-Live-Regions``): the page then does not refetch it
    for the action's own push (static/js/live-regions.js).

    The view read the session before the service changed it: the region is built from the session
    as the action left it (decks, zones, odds must not show the state from before the action), read
    after the version it names, so it shows that version or a later one, never an earlier one.
    ``checks`` (what most actions answer, and what their push has every page ask for) is built from
    the session's snapshot at its latest event (:mod:`frontera.play.selectors.snapshot`), as the
    refetches after that push are: the push reaches the other pages while this answer is being
    built, and one reading of the new state serves them all. Any other region reads only the row."""
    if region == "checks":
        stamp = feed_stamp(session.pk)
        snapshot = session_snapshot(session, stamp)
        snapshot.refresh(session)
        version = stamp_version(stamp)
    else:
        snapshot = None
        fields, version = fresh_row(session.pk)
        for name, value in fields.items():
            setattr(session, name, value)
    template, context = page_context(request, session, {region}, snapshot=snapshot, error=error, **extra)
    response = HttpResponse(render_to_string(f"{template}#{region}", context, request))
    response["X-Live-Version"] = str(version)
    response["X-Live-Regions"] = region
    return response


def done(request, session, error: str | None = None, *, region_name: str = "checks", **extra):
    """After an action. Without htmx: back to the page, with the error as a message. With htmx: an
    action sent from the Mayor's dialog that was refused shows its error in the dialog and leaves
    the half-filled form as it is; otherwise the region the request aimed at (the page's
    ``checks``, ``combat`` or ``board``) comes back, and a success closes the dialog."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(session)
    if error and request.POST.get("dialog"):
        response = HttpResponse(render_to_string("play/_dialog_error.html", {"error": error}, request))
        response[REFUSED] = "1"
        return retarget(reswap(response, "innerHTML"), "#dialog-error")
    target = request.htmx.target if request.htmx.target in DASHBOARD_FRAGMENTS | PHONE_FRAGMENTS else region_name
    response = region(request, session, target, error, **extra)
    if error:  # the form that sent it keeps what was filled in (static/js/live-regions.js)
        response[REFUSED] = "1"
        return response
    return trigger_client_event(response, CLOSE_DIALOG)


def form_errors(form) -> str:
    """Each refused field's label and why ("Personajes: Este campo es obligatorio."); the form's own
    errors as they are."""
    return " ".join(f"{form.fields[name].label}: {' '.join(errors)}" if name in form.fields and form.fields[name].label
                    else " ".join(errors) for name, errors in form.errors.items())


def done_combat(request, session, error: str | None = None):
    return done(request, session, error, region_name="combat")
