"""The session history pages: the event log, one card's journey, the charts, the exports.

Thin: the campaign's members only (404 for anybody else, through
:mod:`frontera.campaigns.permissions`), every read and every redaction in
:mod:`frontera.play.history`.
"""

import csv
import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from frontera.campaigns.permissions import is_member_of
from frontera.play.history import cards, charts, log
from frontera.play.models import GameSession

CSV_COLUMNS = ["id", "at", "kind", "actor", "check", "card", "card_uid", "hidden", "from", "to", "reason", "text",
               "rules"]


def _session_for_member(user, pk: int) -> GameSession:
    """The session if ``user`` belongs to its campaign; 404 otherwise (never 403)."""
    session = GameSession.objects.filter(pk=pk).select_related("campaign").first()
    if session is None or not is_member_of(user, session.campaign):
        raise Http404
    return session


def _filename(session: GameSession, ext: str) -> str:
    """In the reader's language ("frontera-sesion-2-historial.csv", "frontera-session-2-history.csv")."""
    return gettext("frontera-session-%(number)s-history") % {"number": session.number} + f".{ext}"


@login_required
@require_GET
def history_page(request, pk: int):
    session = _session_for_member(request.user, pk)
    context = log.history_page(session, request.user, request.GET)
    return render(request, "play/history.html", context)


@login_required
@require_GET
def history_card(request, pk: int, uid: str):
    session = _session_for_member(request.user, pk)
    context = cards.card_history(session, request.user, uid)
    if context is None:
        raise Http404  # a card the viewer never saw, exactly like a card that is not there
    return render(request, "play/history_card.html", context)


@login_required
@require_GET
def history_charts(request, pk: int):
    session = _session_for_member(request.user, pk)
    return render(request, "play/history_charts.html", charts.history_charts(session, request.user))


def _cell(value) -> str:
    """A CSV cell; text that a spreadsheet would run as a formula (a character called "=..." ) is
    quoted with a leading apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class _Echo:
    def write(self, value):
        return value


@login_required
@require_GET
def history_csv(request, pk: int):
    session = _session_for_member(request.user, pk)
    rows = log.export_rows(session, request.user, request.GET)
    writer = csv.writer(_Echo())

    def lines():
        yield "\ufeff"  # a spreadsheet opens the accents right
        yield writer.writerow(CSV_COLUMNS)
        for row in rows:
            yield writer.writerow([
                "; ".join(row[c]) if c == "rules" else ("1" if row[c] else "0") if c == "hidden" else
                _cell(row[c]) for c in CSV_COLUMNS
            ])

    # a whole response, not a stream: a session's log is a few thousand lines at most
    response = HttpResponse("".join(lines()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(session, "csv")}"'
    return response


@login_required
@require_GET
def history_json(request, pk: int):
    session = _session_for_member(request.user, pk)
    data = {
        "session": {"id": session.pk, "number": session.number, "campaign": session.campaign.name,
                    "date": session.date.isoformat(), "mode": session.mode, "status": session.status},
        "events": list(log.export_rows(session, request.user, request.GET)),
    }
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{_filename(session, "json")}"'
    return response
