"""A session page's regions sent with the push that changed them (issue #11).

A session page's live stream (``/live/session:<id>/?page=1``, :mod:`frontera.live.views`) is sent
the regions a push names, rendered for its viewer exactly as the page would fetch them
(:func:`frontera.play.views.sessions.regions_html`), instead of a notice the page answers with a
request for them. The stream lasts for hours, so each rendering first checks again what every
request checks: the viewer's log-in (their session still exists, the user is still active and their
password unchanged) and their membership of the campaign. If either has ended, nothing is rendered:
the stream says "changed", and the page's own request is refused.

The pages one push wakes in a process are rendered together (:func:`pushed_pages`): the session,
the viewers' roles, the players' seats (which choose the regions a page is sent) and the feed's
stamp are read once for all of them, as one request reads them once for itself; each page is then
rendered in turn, its cards decided by its view model from its viewer's own seats, as for any request.
"""

import copy
import functools
from functools import cache
from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib.auth import get_user
from django.utils import translation

from frontera.accounts.logins import logged_in, reads_together
from frontera.campaigns.permissions import can_run_session, is_member_of, remember_role, roles_in
from frontera.play.models import GameSession
from frontera.play.selectors.core import feed_stamp, seats_by_owner, viewer_for
from frontera.play.views.common import DASHBOARD_FRAGMENTS, PHONE_FRAGMENTS
from frontera.play.views.sessions import regions_html


def _viewer(request):
    """The stream's user if they are still logged in with the session the stream was opened with,
    read afresh (as :class:`django.contrib.auth.middleware.AuthenticationMiddleware` does for each
    request); ``None`` otherwise."""
    key = request.session.session_key
    if not key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    user = get_user(SimpleNamespace(session=store))
    return user if user.is_authenticated and user.pk == request.user.pk else None


def pushed_pages(session_id: int, requests, regions) -> list:
    """One callable per stream's request (``requests``, in their order), each giving what
    :func:`page_regions` gives for that page. What the pages share is read here, once for all of
    them: the session with its campaign, the viewers' roles, the feed's stamp (read after the
    session, as a request reads it), the players' seats when a page first needs them, and, where the
    log-ins live in the database alone, every viewer's log-in (:mod:`frontera.accounts.logins`)."""
    session = GameSession.objects.row(session_id)
    if session is None:
        return [lambda: None] * len(requests)
    roles = roles_in(session.campaign_id)
    stamp = feed_stamp(session_id)
    owned = cache(lambda: seats_by_owner(session))
    logins = logged_in([request.session.session_key for request in requests]) if reads_together() else None
    return [functools.partial(page_regions, request, session, regions, roles, owned, stamp, logins)
            for request in requests]


def page_regions(request, session, regions, roles, owned, stamp: str, logins: dict | None = None,
                 ) -> tuple[list[str], str, int] | None:
    """The regions of ``regions`` that the viewer's page shows, their HTML and the session's live
    version they show (no region if their page shows none of them); ``None`` if the viewer may no
    longer see the session. ``roles``: the viewers' roles in the campaign, by id; ``owned()``:
    every player's seats (:func:`seats_by_owner`); ``logins``: the users the pages' sessions are
    logged in as, by session key (:func:`frontera.accounts.logins.logged_in`), or ``None``: the
    viewer's is read here."""
    if logins is None:
        user = _viewer(request)
    else:
        user = logins.get(request.session.session_key)
        user = user if user is not None and user.pk == request.user.pk else None
    if user is None:
        return None
    remember_role(user, session.campaign_id, roles.get(user.pk))
    if not is_member_of(user, session.campaign):
        return None
    viewer = copy.copy(request)  # the stream's request, with the user read afresh
    viewer.user = user
    session = copy.copy(session)  # this viewer's, as each request reads its own
    runs_it = can_run_session(user, session.campaign)
    shown = shown_regions(regions, DASHBOARD_FRAGMENTS if runs_it else PHONE_FRAGMENTS,
                          seats := cache(lambda: viewer_for(session, user, owned()).seats), runs_it=runs_it)
    if not shown:
        return [], "", 0  # nothing this page shows changed
    with translation.override(getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE):
        return sorted(shown), *regions_html(viewer, session, shown, seats=seats, stamp=stamp)


def shown_regions(regions, page_regions: set[str], seats, *, runs_it: bool = False) -> set[str]:
    """The regions of ``regions`` (a push's) that a page of ``page_regions`` shows: one named for
    some seats only (``checks:c12``, :func:`frontera.play.services.core.scoped`) if the viewer holds
    that seat (``seats()``: the viewer's seats, asked for only then), or runs the session (the
    Mayor's page shows every seat's)."""
    shown, held = set(), None
    for region in regions:
        name, _, seat = region.partition(":")
        if name not in page_regions:
            continue
        if seat and not runs_it:
            held = seats() if held is None else held
            if seat not in held:
                continue
        shown.add(name)
    return shown
