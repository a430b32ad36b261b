"""What every session view shares: finding the session for its viewer (404 for outsiders, never
403), the page's context and template (the Mayor's dashboard or the player's phone), its live
regions, and the answer after an action.

``/sesiones/<id>/`` is the Mayor's dashboard for the Mayor and the phone page for a player; its
live regions are partials of the same template, fetched with ``?fragment=<name>`` and refetched on
``sse:changed``. Every action is a POST form with a plain ``action`` (redirect back, message) and
an ``hx-post`` (the page's ``checks`` or ``combat`` region comes back, with the error if any)."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string

from frontera.campaigns.permissions import can_run_session, is_member_of
from frontera.characters.models import Character
from frontera.play.forms.checks import CheckRequestForm, OpposedRequestForm
from frontera.play.forms.combat import CombatStartForm
from frontera.play.forms.common import new_request_key
from frontera.play.forms.duels import PistolDuelForm
from frontera.play.forms.exchanges import ExchangeStartForm
from frontera.play.forms.gambling import GambleForm
from frontera.play.forms.medical import MedicalForm
from frontera.play.forms.sessions import JoinForm
from frontera.play.forms.table_tools import TableActionForm
from frontera.play.forms.treasure import TreasureShareStartForm
from frontera.play.models import GameSession
from frontera.play.selectors.combat import duel_weapons
from frontera.play.selectors.pages import dashboard_view, phone_view
from frontera.play.services.core import session_topic

DASHBOARD_FRAGMENTS = {"board", "checks", "feed", "combat"}
PHONE_FRAGMENTS = {"me", "checks", "feed", "combat"}


def session_for(user, pk: int) -> GameSession:
    """The session if ``user`` belongs to its campaign; 404 otherwise (never 403)."""
    session = GameSession.objects.filter(pk=pk).select_related("campaign").first()
    if session is None or not is_member_of(user, session.campaign):
        raise Http404
    return session


def session_for_mayor(user, pk: int) -> GameSession:
    session = session_for(user, pk)
    if not can_run_session(user, session.campaign):
        raise Http404
    return session


def protagonists(campaign):
    return list(Character.objects.filter(campaign=campaign, kind=Character.Kind.PROTAGONIST).order_by("name"))


def page_context(request, session, **extra):
    if can_run_session(request.user, session.campaign):
        context = dashboard_view(session, request.user)
        template = "play/dashboard.html"
        campaign = session.campaign
        characters = context["callable_characters"]
        seated = {row["pk"] for row in context["protagonists"]}
        context.update(
            check_form=extra.pop("check_form", None) or CheckRequestForm(characters=characters),
            opposed_form=extra.pop("opposed_form", None) or OpposedRequestForm(characters=characters),
            action_form=TableActionForm(characters=characters),
            combat_form=CombatStartForm(characters=characters),
            gamble_form=GambleForm(characters=characters),
            medical_form=MedicalForm(characters=characters),
            exchange_form=extra.pop("exchange_form", None) or ExchangeStartForm(characters=characters),
            treasure_form=TreasureShareStartForm(
                characters=[(row["pk"], row["name"]) for row in context["protagonists"]], auto_id="treasure_%s"),
            join_form=JoinForm(characters=[c for c in protagonists(campaign) if c.pk not in seated]),
            duel_form=PistolDuelForm(characters=characters, weapons=duel_weapons(session)),
        )
        for name in CALL_FORMS:
            field = context[name].fields.get("request_key")
            if field is not None and field.widget.is_hidden:
                field.widget.attrs["id"] = f"rk-{name}"
    else:
        context = phone_view(session, request.user)
        template = "play/phone.html"
    context.update(live_topic=session_topic(session.pk), **extra)
    return template, context


# The dashboard's call forms stay on the page after an htmx submit; each carries a request key
# that makes a double submit one action. A successful call sends every form a fresh key
# (out-of-band swaps), so the next call is a new action, not a repeat of the last one.
CALL_FORMS = ("check_form", "opposed_form", "action_form", "combat_form", "gamble_form", "medical_form",
              "exchange_form", "treasure_form", "duel_form")


def region(request, session, region: str, error: str | None = None, **extra):
    template, context = page_context(request, session, error=error, **extra)
    html = render_to_string(f"{template}#{region}", context, request)
    if not error and context.get("is_mayor"):
        fresh = [(f"rk-{name}", new_request_key()) for name in CALL_FORMS
                 if context[name].fields.get("request_key") is not None
                 and context[name].fields["request_key"].widget.is_hidden]
        html += render_to_string("play/_fresh_keys.html", {"fresh": fresh}, request)
    return HttpResponse(html)


def done(request, session, error: str | None = None, **extra):
    """After an action: the ``checks`` region for htmx, else back to the page with a message."""
    if request.htmx:
        return region(request, session, "checks", error, **extra)
    if error:
        messages.error(request, error)
    return redirect(session)


def form_errors(form) -> str:
    return " ".join(f"{form.fields[name].label if name in form.fields else ''} {' '.join(errors)}".strip()
                    for name, errors in form.errors.items())


def done_combat(request, session, error: str | None = None):
    if request.htmx:
        return region(request, session, "combat", error)
    if error:
        messages.error(request, error)
    return redirect(session)
