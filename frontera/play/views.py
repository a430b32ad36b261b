"""Session pages. Thin: parse, ask permissions, call a service or a selector, render.

``/sesiones/<id>/`` is the Mayor's dashboard for the Mayor and the phone page for a player; its
live regions are partials of the same template, fetched with ``?fragment=<name>`` and refetched on
``sse:changed``. Every action is a POST form with a plain ``action`` (redirect back, message) and
an ``hx-post`` (the page's ``checks`` region comes back, with the error if there is one).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from frontera.campaigns.permissions import (
    campaign_for_member,
    can_act_for,
    can_run_session,
    is_member_of,
)
from frontera.characters.models import Character
from frontera.play import selectors, services
from frontera.play.forms import (
    CheckRequestForm,
    ChooseForm,
    CombatChooseForm,
    CombatStartForm,
    DeathRollForm,
    DeclareForm,
    ExchangeChooseForm,
    ExchangeStartForm,
    GambleForm,
    JoinForm,
    MedicalForm,
    OpposedRequestForm,
    PistolDuelForm,
    SessionStartForm,
    TableActionForm,
    TreasureShareForm,
    TreasureShareStartForm,
    new_request_key,
)
from frontera.play.models import CombatRound, Exchange, Gamble, GameSession, Participant, Seat
from frontera.play.services import Entry, SessionError, session_topic

DASHBOARD_FRAGMENTS = {"board", "checks", "feed", "combat"}
PHONE_FRAGMENTS = {"me", "checks", "feed", "combat"}


def _session_for(user, pk: int) -> GameSession:
    """The session if ``user`` belongs to its campaign; 404 otherwise (never 403)."""
    session = GameSession.objects.filter(pk=pk).select_related("campaign").first()
    if session is None or not is_member_of(user, session.campaign):
        raise Http404
    return session


def _session_for_mayor(user, pk: int) -> GameSession:
    session = _session_for(user, pk)
    if not can_run_session(user, session.campaign):
        raise Http404
    return session


def _protagonists(campaign):
    return list(Character.objects.filter(campaign=campaign, kind=Character.Kind.PROTAGONIST).order_by("name"))


@login_required
@require_http_methods(["GET", "POST"])
def session_list(request, pk: int):
    campaign = campaign_for_member(request.user, pk)
    mayor = can_run_session(request.user, campaign)
    form = None
    if mayor:
        form = SessionStartForm(request.POST or None, characters=_protagonists(campaign))
    if request.method == "POST":
        if not mayor:
            raise Http404
        if form.is_valid():
            chosen = [int(x) for x in form.cleaned_data["characters"]]
            try:
                session = services.session_start(
                    campaign=campaign, by=request.user, mode=form.cleaned_data["mode"],
                    characters=Character.objects.filter(campaign=campaign, pk__in=chosen),
                    decks=form.cleaned_data["decks"], jokers=form.cleaned_data["jokers"],
                    skip_phase_1=form.cleaned_data["skip_phase_1"],
                )
            except SessionError as err:
                form.add_error(None, str(err))
            else:  # the feed says it; base.html's message list trips axe (role=status on a <ul>)
                return redirect(session)
    context = {"campaign": campaign, "is_mayor": mayor, "sessions": selectors.sessions_of(campaign), "form": form}
    return render(request, "play/session_list.html", context, status=400 if form is not None and form.errors else 200)


def _page_context(request, session, **extra):
    if can_run_session(request.user, session.campaign):
        context = selectors.dashboard_view(session, request.user)
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
            join_form=JoinForm(characters=[c for c in _protagonists(campaign) if c.pk not in seated]),
            duel_form=PistolDuelForm(characters=characters, weapons=selectors.duel_weapons(session)),
        )
        for name in CALL_FORMS:
            field = context[name].fields.get("request_key")
            if field is not None and field.widget.is_hidden:
                field.widget.attrs["id"] = f"rk-{name}"
    else:
        context = selectors.phone_view(session, request.user)
        template = "play/phone.html"
    context.update(live_topic=session_topic(session.pk), **extra)
    return template, context


# The dashboard's call forms stay on the page after an htmx submit; each carries a request key
# that makes a double submit one action. A successful call sends every form a fresh key
# (out-of-band swaps), so the next call is a new action, not a repeat of the last one.
CALL_FORMS = ("check_form", "opposed_form", "action_form", "combat_form", "gamble_form", "medical_form",
              "exchange_form", "treasure_form", "duel_form")


def _region(request, session, region: str, error: str | None = None, **extra):
    template, context = _page_context(request, session, error=error, **extra)
    html = render_to_string(f"{template}#{region}", context, request)
    if not error and context.get("is_mayor"):
        fresh = [(f"rk-{name}", new_request_key()) for name in CALL_FORMS
                 if context[name].fields.get("request_key") is not None
                 and context[name].fields["request_key"].widget.is_hidden]
        html += render_to_string("play/_fresh_keys.html", {"fresh": fresh}, request)
    return HttpResponse(html)


@login_required
@vary_on_headers("HX-Request")
def session_page(request, pk: int):
    session = _session_for(request.user, pk)
    template, context = _page_context(request, session)
    fragment = request.GET.get("fragment")
    allowed = DASHBOARD_FRAGMENTS if context["is_mayor"] else PHONE_FRAGMENTS
    if fragment:
        if fragment not in allowed:
            raise Http404
        return render(request, f"{template}#{fragment}", context)
    return render(request, template, context)


def _done(request, session, error: str | None = None, **extra):
    """After an action: the ``checks`` region for htmx, else back to the page with a message."""
    if request.htmx:
        return _region(request, session, "checks", error, **extra)
    if error:
        messages.error(request, error)
    return redirect(session)


@login_required
@require_POST
def check_new(request, pk: int):
    session = _session_for_mayor(request.user, pk)
    form = CheckRequestForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    characters = list(Character.objects.filter(campaign=session.campaign, pk__in=[int(x) for x in data["characters"]]))
    try:
        services.check_request(
            session=session, by=request.user, characters=characters, trait=data["trait"], skill=data["skill"] or "",
            difficulty=data["difficulty"], modifier=data["modifier"] or 0, label=data["label"],
            request_key=data["request_key"],
        )
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def opposed_new(request, pk: int):
    session = _session_for_mayor(request.user, pk)
    form = OpposedRequestForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    rows = form.entries()
    found = {c.pk: c for c in Character.objects.filter(campaign=session.campaign, pk__in=[int(r[0]) for r in rows])}
    entries = [Entry(found[int(pk_)], trait, skill, modifier) for pk_, trait, skill, modifier in rows if int(pk_) in found]
    try:
        services.opposed_request(session=session, by=request.user, entries=entries,
                                 label=form.cleaned_data["label"], request_key=form.cleaned_data["request_key"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


def _participant_for(request, pk: int, participant_id: int) -> tuple[GameSession, Participant]:
    session = _session_for(request.user, pk)
    participant = get_object_or_404(
        Participant.objects.select_related("character__campaign", "prueba"), pk=participant_id, prueba__session=session
    )
    if not can_act_for(request.user, participant.character):
        raise Http404
    return session, participant


@login_required
@require_POST
def participant_draw(request, pk: int, participant_id: int):
    session, participant = _participant_for(request, pk, participant_id)
    try:
        services.check_draw(participant=participant, by=request.user)
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def participant_choose(request, pk: int, participant_id: int):
    session, participant = _participant_for(request, pk, participant_id)
    form = ChooseForm(request.POST)
    if not form.is_valid():
        return _done(request, session, error=_("Choose one of the cards you drew."))
    try:
        services.check_choose(participant=participant, by=request.user, card=form.cleaned_data["card"],
                              suit=form.cleaned_data["suit"] or "")
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def phase_two(request, pk: int):
    session = _session_for_mayor(request.user, pk)
    try:
        services.phase_switch(session=session, by=request.user)
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def session_end(request, pk: int):
    session = _session_for_mayor(request.user, pk)
    try:
        services.session_end(session=session, by=request.user)
    except SessionError as err:
        messages.error(request, str(err))
    return redirect("play_session", pk=session.pk)


@login_required
@require_POST
def late_join(request, pk: int):
    session = _session_for_mayor(request.user, pk)
    seated = Seat.objects.filter(session=session).values_list("character_id", flat=True)
    candidates = [c for c in _protagonists(session.campaign) if c.pk not in set(seated)]
    form = JoinForm(request.POST, characters=candidates)
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    character = next(c for c in candidates if str(c.pk) == form.cleaned_data["character"])
    try:
        services.session_join(
            session=session, by=request.user, character=character, method=form.cleaned_data["method"],
            per_player=form.cleaned_data["per_player"], return_to_phase_1=form.cleaned_data["return_to_phase_1"],
        )
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


def _form_errors(form) -> str:
    return " ".join(f"{form.fields[name].label if name in form.fields else ''} {' '.join(errors)}".strip()
                    for name, errors in form.errors.items())


@login_required
@require_POST
def table_action(request, pk: int):
    """The Mayor's tools on one character: track changes (his override, logged), threat, drink,
    falls and accidents."""
    session = _session_for_mayor(request.user, pk)
    form = TableActionForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    character = get_object_or_404(Character, pk=int(data["character"]), campaign=session.campaign)
    action = data["action"]

    def run():
        if action in ("health", "morale", "sobriety"):
            return services.track_change(session=session, by=request.user, character=character, track=action,
                                         amount=data["amount"] or 0, note=data["note"])
        if action == "threat":
            return services.threat(session=session, by=request.user, character=character)
        if action == "drink":
            return services.drink(session=session, by=request.user, character=character)
        if action == "death":
            return services.death_roll(session=session, by=request.user, character=character,
                                       request_key=data["request_key"])
        if action in ("dmh1", "dmh2"):
            return services.dead_mans_hand(session=session, by=request.user, character=character,
                                           count=int(action[-1]))
        if action == "rest":
            return services.rest(session=session, by=request.user, character=character, hours=data["hours"] or 0)
        return services.accident(session=session, by=request.user, character=character, cause=action,
                                 metres=data["metres"] if action == "fall" else None,
                                 agility=data["agility"] or None)

    try:
        services.table_action_once(session=session, request_key=data["request_key"], run=run)
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


# --- combat ------------------------------------------------------------------------------------


def _combat_for(request, pk: int, combat_id: int):
    session = _session_for(request.user, pk)
    combat = get_object_or_404(CombatRound, pk=combat_id, session=session)
    return session, combat


def _fighter_for(request, session, combat, character_id: int) -> Character:
    character = get_object_or_404(Character, pk=character_id, campaign=session.campaign)
    if f"k{character.pk}" not in combat.state.get("combatants", {}) or not can_act_for(request.user, character):
        raise Http404
    return character


def _done_combat(request, session, error: str | None = None):
    if request.htmx:
        return _region(request, session, "combat", error)
    if error:
        messages.error(request, error)
    return redirect(session)


@login_required
@require_POST
def combat_new(request, pk: int):
    session = _session_for_mayor(request.user, pk)
    form = CombatStartForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done_combat(request, session, _("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    found = Character.objects.in_bulk([int(x) for x in form.cleaned_data["side_a"] + form.cleaned_data["side_b"]])
    fighters = [services.Fighter(found[int(x)], "a") for x in form.cleaned_data["side_a"]]
    fighters += [services.Fighter(found[int(x)], "b") for x in form.cleaned_data["side_b"]
                 if x not in form.cleaned_data["side_a"]]
    try:
        services.combat_start(session=session, by=request.user, fighters=fighters)
    except SessionError as err:
        return _done_combat(request, session, str(err))
    return _done_combat(request, session)


def _fighters(combat) -> list[tuple[int, str]]:
    ids = [int(key[1:]) for key in combat.state.get("combatants", {})]
    return list(Character.objects.filter(pk__in=ids).values_list("pk", "name"))


@login_required
@require_POST
def combat_declare(request, pk: int, combat_id: int, character_id: int):
    session, combat = _combat_for(request, pk, combat_id)
    character = _fighter_for(request, session, combat, character_id)
    form = DeclareForm(request.POST, fighters=_fighters(combat))
    if not form.is_valid():
        return _done_combat(request, session, _("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk(
        [p for p, _b in form.aims()] + ([data["patient"]] if data["patient"] else []))
    aims = [] if data["technique"] in ("move", "other", "medical") else [(found[p], b) for p, b in form.aims()]
    patient = found.get(data["patient"]) if data["technique"] == "medical" else None
    try:
        services.combat_declare(combat=combat, by=request.user, character=character, technique=data["technique"],
                                aims=aims, weapon=data["weapon"], special=data["special"], patient=patient,
                                cover=data["cover"], mount=data["mount"], holstered=data["holstered"],
                                move_band=data["move_band"], move_cover=data["move_cover"])
    except SessionError as err:
        return _done_combat(request, session, str(err))
    return _done_combat(request, session)


@login_required
@require_POST
def combat_death_roll(request, pk: int, combat_id: int):
    """The Mayor draws the dead man's hand for a fighter at Muerto (FR-HLT-3)."""
    session = _session_for_mayor(request.user, pk)
    combat = get_object_or_404(CombatRound, pk=combat_id, session=session)
    form = DeathRollForm(request.POST)
    if not form.is_valid():
        return _done_combat(request, session, _("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    character = _fighter_for(request, session, combat, form.cleaned_data["character"])
    try:
        services.death_roll(session=session, by=request.user, character=character,
                            request_key=form.cleaned_data["request_key"])
    except SessionError as err:
        return _done_combat(request, session, str(err))
    return _done_combat(request, session)


@login_required
@require_POST
def combat_draw(request, pk: int, combat_id: int, character_id: int):
    session, combat = _combat_for(request, pk, combat_id)
    character = _fighter_for(request, session, combat, character_id)
    try:
        services.combat_draw(combat=combat, by=request.user, character=character)
    except SessionError as err:
        return _done_combat(request, session, str(err))
    return _done_combat(request, session)


@login_required
@require_POST
def combat_choose(request, pk: int, combat_id: int, character_id: int):
    """The holder of a fighter's hand locks in their card(s). The cards posted are checked against
    the hand by the service, under its lock and after it has asked whether the user holds that
    hand, so a user who does not (the Mayor for a protagonist) gets one answer whatever the cards
    (FR-CMB-1)."""
    session, combat = _combat_for(request, pk, combat_id)
    character = _fighter_for(request, session, combat, character_id)
    form = CombatChooseForm(request.POST, hand=request.POST.getlist("cards"))
    if not form.is_valid():
        return _done_combat(request, session, _("Choose among the cards you drew."))
    try:
        aims = {uid: request.POST.get(f"target-{uid}", "") for uid in form.cleaned_data["cards"]}
        found = Character.objects.filter(campaign=session.campaign).in_bulk(
            [int(x) for x in aims.values() if x.isdigit()])
        services.combat_choose(combat=combat, by=request.user, character=character, cards=form.cleaned_data["cards"],
                               suit=form.cleaned_data["suit"] or "",
                               targets={uid: found.get(int(x)) for uid, x in aims.items() if x.isdigit()})
    except SessionError as err:
        return _done_combat(request, session, str(err))
    return _done_combat(request, session)


@login_required
@require_POST
def combat_step(request, pk: int, combat_id: int, step: str):
    """The Mayor's buttons: reveal, next turn, end the fight."""
    session = _session_for_mayor(request.user, pk)
    combat = get_object_or_404(CombatRound, pk=combat_id, session=session)
    action = {"revelar": services.combat_reveal, "siguiente": services.combat_next_turn,
              "terminar": services.combat_end}.get(step)
    if action is None:
        raise Http404
    try:
        action(combat=combat, by=request.user)
    except SessionError as err:
        return _done_combat(request, session, str(err))
    return _done_combat(request, session)


# --- card exchanges (FR-EXCH) --------------------------------------------------------------------


@login_required
@require_POST
def exchange_new(request, pk: int):
    """The Mayor starts a bet, duel, treasure or death exchange."""
    session = _session_for_mayor(request.user, pk)
    form = ExchangeStartForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk(
        [int(x) for x in (data["first"], data["second"]) if x])
    second = found.get(int(data["second"])) if data["second"] else None
    try:
        services.exchange_start(session=session, by=request.user, kind=data["kind"], first=found[int(data["first"])],
                                second=second, count=data["count"] or 1, request_key=data["request_key"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def exchange_choose(request, pk: int, exchange_id: int):
    """The chooser (on their phone) or the Mayor picks the card(s) of the exchange's current step."""
    session = _session_for(request.user, pk)
    exchange = get_object_or_404(Exchange, pk=exchange_id, session=session)
    viewer = selectors.viewer_for(session, request.user)
    if not viewer.is_mayor and not ({exchange.first, exchange.second} & viewer.seats):
        raise Http404
    form = ExchangeChooseForm(request.POST, offered=request.POST.getlist("picks"))
    if not form.is_valid():
        return _done(request, session, error=_("Choose among the cards offered."))
    try:
        services.exchange_choose(exchange=exchange, by=request.user, step=form.cleaned_data["step"],
                                 picks=form.cleaned_data["picks"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def exchange_cancel(request, pk: int, exchange_id: int):
    session = _session_for_mayor(request.user, pk)
    exchange = get_object_or_404(Exchange, pk=exchange_id, session=session)
    try:
        services.exchange_cancel(exchange=exchange, by=request.user)
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def treasure_new(request, pk: int):
    """The Mayor says who shares a treasure, loot or reward (FR-EXCH-6)."""
    session = _session_for_mayor(request.user, pk)
    form = TreasureShareStartForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(x) for x in data["sharers"]])
    try:
        services.treasure_share_start(session=session, by=request.user,
                                      sharers=[found[int(x)] for x in data["sharers"]], count=data["count"],
                                      swaps=data["swaps"], request_key=data["request_key"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def treasure_share(request, pk: int, exchange_id: int):
    """A sharer (on their phone) or the Mayor for them names the keepers, or swaps a card (FR-EXCH-6)."""
    session = _session_for(request.user, pk)
    exchange = get_object_or_404(Exchange, pk=exchange_id, session=session, kind=Exchange.Kind.TREASURE_TAKE)
    data = exchange.chosen.get("sharing")
    if not data:
        raise Http404
    sharers = Character.objects.filter(campaign=session.campaign).in_bulk([int(s[1:]) for s in data["sharers"]])
    form = TreasureShareForm(request.POST, sharers=[(pk_, c.name) for pk_, c in sharers.items()])
    if not form.is_valid():
        if not form.has_error("character") and not form.has_error("action"):
            return _done(request, session, error=_("Choose among the sharers."))
        raise Http404
    character = sharers[int(form.cleaned_data["character"])]
    if not can_act_for(request.user, character):
        raise Http404
    values = form.cleaned_data
    try:
        if values["action"] == "keeper":
            services.treasure_share_vote(exchange=exchange, by=request.user, sharer=character,
                                         keepers=[sharers[int(x)] for x in values["keeper"]])
        else:
            partner = sharers[int(values["partner"])] if values["partner"] else None
            services.treasure_share_swap(exchange=exchange, by=request.user, sharer=character, partner=partner,
                                         request_key=values["request_key"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


# --- gambling nights (FR-GMB) --------------------------------------------------------------------

E_BANCA_ONE = gettext_lazy("The banca is played by one character at a time.")


@login_required
@require_POST
def gamble_new(request, pk: int):
    """The Mayor opens a banca for one character, or an azar / habilidad contest between several."""
    session = _session_for_mayor(request.user, pk)
    form = GambleForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(x) for x in data["characters"]])
    characters = [found[int(x)] for x in data["characters"] if int(x) in found]
    cheats = [int(x) for x in data["cheats"]]
    try:
        if data["kind"] == "duelo_bebida":
            services.drinking_duel_start(session=session, by=request.user, characters=characters,
                                         request_key=data["request_key"])
        elif data["kind"] == "banca":
            if len(characters) != 1:
                return _done(request, session, error=str(E_BANCA_ONE))
            services.banca_begin(session=session, by=request.user, character=characters[0],
                                 cheating=characters[0].pk in cheats, request_key=data["request_key"])
        else:
            services.gamble_contest(session=session, by=request.user, kind=data["kind"], characters=characters,
                                    cheats=cheats, contest=data["contest"], request_key=data["request_key"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def gamble_step(request, pk: int, gamble_id: int, step: str):
    """The banca's buttons: the Mayor turns a card (``repartir``); the player, or the Mayor for them,
    tries to leave (``plantarse``)."""
    session = _session_for(request.user, pk)
    gamble = get_object_or_404(Gamble, pk=gamble_id, session=session)
    if gamble.kind == Gamble.Kind.DRINKING_DUEL:
        drinker = request.POST.get("character", "")
        if step != "beber" or drinker not in gamble.players:
            raise Http404
        character = get_object_or_404(Character, pk=int(drinker), campaign=session.campaign)
        if not can_act_for(request.user, character):
            raise Http404
        seen = request.POST.get("round", "")
        try:
            services.drinking_duel_drink(gamble=gamble, by=request.user, character=character,
                                         round_seen=int(seen) if seen.isdigit() else None)
        except SessionError as err:
            return _done(request, session, error=str(err))
        return _done(request, session)
    if gamble.kind != Gamble.Kind.BANCA:
        raise Http404
    character = get_object_or_404(Character, pk=int(next(iter(gamble.players))))
    try:
        if step == "repartir":
            if not can_run_session(request.user, session.campaign):
                raise Http404
            seen = request.POST.get("rounds", "")
            services.banca_deal(gamble=gamble, by=request.user, rounds_seen=int(seen) if seen.isdigit() else None)
        elif step == "plantarse":
            if not can_act_for(request.user, character):
                raise Http404
            services.banca_try_stop(gamble=gamble, by=request.user)
        else:
            raise Http404
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


@login_required
@require_POST
def medical_new(request, pk: int):
    """The Mayor calls for medical attention: the healer's check, drawn on the healer's phone."""
    session = _session_for_mayor(request.user, pk)
    form = MedicalForm(request.POST, characters=selectors.callable_characters(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(data["healer"]), int(data["patient"])])
    try:
        services.medical_request(session=session, by=request.user, healer=found[int(data["healer"])],
                                 patient=found[int(data["patient"])], request_key=data["request_key"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)


# --- pistol duel (FR-CMB-15) -----------------------------------------------------------------------


@login_required
@require_POST
def pistol_duel_new(request, pk: int):
    """The Mayor calls a pistol duel: two characters, each with the ranged weapon they use. The
    duellists then draw and choose in the checks list like any opposed check."""
    session = _session_for_mayor(request.user, pk)
    form = PistolDuelForm(request.POST, characters=selectors.callable_characters(session),
                          weapons=selectors.duel_weapons(session))
    if not form.is_valid():
        return _done(request, session, error=_("Check the form: %(errors)s") % {"errors": _form_errors(form)})
    data = form.cleaned_data
    found = Character.objects.filter(campaign=session.campaign).in_bulk([int(data["first"]), int(data["second"])])
    try:
        services.pistol_duel_start(session=session, by=request.user, first=found[int(data["first"])],
                                   first_weapon=data["first_weapon"], second=found[int(data["second"])],
                                   second_weapon=data["second_weapon"], request_key=data["request_key"])
    except SessionError as err:
        return _done(request, session, error=str(err))
    return _done(request, session)
