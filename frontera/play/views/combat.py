"""Combat rounds: start, declare, draw, lock in, the death roll, reveal / next turn / end."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from frontera.campaigns.permissions import can_act_for
from frontera.characters.models import Character
from frontera.play.forms.checks import posted_id
from frontera.play.forms.combat import CombatChooseForm, CombatStartForm, DeathRollForm, DeclareForm
from frontera.play.forms.common import posted_request_key
from frontera.play.models import CombatRound, GameSession
from frontera.play.selectors.combat import combat_view
from frontera.play.selectors.core import viewer_for
from frontera.play.selectors.pages import callable_characters
from frontera.play.services import combat as combat_actions
from frontera.play.services import death as death_actions
from frontera.play.services import take_back
from frontera.play.services.core import NotAllowed, SessionError
from frontera.play.views.common import done_combat, form_errors, session_for, session_for_mayor


def _combat_for(request, pk: int, combat_id: int):
    session = session_for(request.user, pk)
    combat = CombatRound.objects.of_session(combat_id, session.pk)
    if combat is None:
        raise Http404
    return session, combat


# A fighter's declaration, draw and choice: the form is checked here, and who may act for the
# fighter by the service, under the session's lock, where it reads the fight anyway (issue #11).


def _refused(request, pk: int, combat_id: int, character_id: int, error: str):
    """A fighter's action refused: the session read for the answer (404 for whoever may not act for
    that fighter, whatever the error)."""
    session, combat = _combat_for(request, pk, combat_id)
    _fighter_for(request, session, combat, character_id)
    return done_combat(request, session, error)


def _of_campaign(session, ids) -> dict[int, Character]:
    """The characters ``ids`` of the session's campaign, by id (the others are left out)."""
    return {pk: c for pk, c in Character.objects.by_id(ids).items() if c.campaign_id == session.campaign_id}


def _fighter_for(request, session, combat, character_id: int) -> Character:
    character = _of_campaign(session, [character_id]).get(character_id)
    if character is None:
        raise Http404
    character.campaign = session.campaign  # the same campaign, read with the session: no query for it
    if f"k{character.pk}" not in combat.state.get("combatants", {}) or not can_act_for(request.user, character):
        raise Http404
    return character


@login_required
@require_POST
def combat_new(request, pk: int):
    session = session_for_mayor(request.user, pk)
    form = CombatStartForm(request.POST, characters=callable_characters(session))
    if not form.is_valid():
        return done_combat(request, session, _("Check the form: %(errors)s") % {"errors": form_errors(form)})
    found = Character.objects.in_bulk([int(x) for x in form.cleaned_data["side_a"] + form.cleaned_data["side_b"]])
    fighters = [combat_actions.Fighter(found[int(x)], "a") for x in form.cleaned_data["side_a"]]
    fighters += [combat_actions.Fighter(found[int(x)], "b") for x in form.cleaned_data["side_b"]]
    try:
        combat_actions.combat_start(session=session, by=request.user, fighters=fighters)
    except SessionError as err:
        return done_combat(request, session, str(err))
    return done_combat(request, session)


def _declare_dialog(request, pk: int, combat_id: int, character_id: int):
    """The Mayor's declaration for one fighter, opened on demand in his dialog (a page of its own
    without JavaScript): the dashboard renders no declaration form while it is closed (issue #11).
    A fighter who has nothing to declare any more (declared meanwhile, the turn or the fight moved
    on), or a protagonist whose turn waits for the NPCs, gets a notice instead of a form (the dialog
    is not live: a form that cannot be sent yet would be lost on closing it)."""
    session = session_for_mayor(request.user, pk)
    combat = CombatRound.objects.of_session(combat_id, session.pk)
    if combat is None or f"k{character_id}" not in combat.state.get("combatants", {}):
        raise Http404
    ended = session.status == GameSession.Status.ENDED
    if ended and not request.htmx:
        return redirect(session)
    fight = None if ended else combat_view(session, viewer_for(session, request.user))
    row = next((r for r in fight["rows"] if r["pk"] == character_id), None) \
        if fight is not None and fight["combat"].pk == combat.pk else None
    notice = ""
    if ended:
        notice = _("This session has ended.")
    elif row is None:
        notice = _("This fight has ended.")
    elif not row["can_declare"]:
        notice = _("%(name)s has nothing to declare now.") % {"name": row["name"]}
    elif row["waiting_for"]:
        notice = _("The NPCs declare and draw first: waiting for %(who)s.") % {"who": ", ".join(row["waiting_for"])}
    context = {"session": session, "campaign": session.campaign, "name": "declare", "fight": fight, "row": row,
               "title": _("Declare for %(name)s") % {"name": row["name"]} if row else _("Fight"),
               "notice": notice, "is_mayor": True, "in_dialog": bool(request.htmx)}
    template = "play/action_form.html"
    return render(request, f"{template}#dialog" if request.htmx else template, context)


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def combat_declare(request, pk: int, combat_id: int, character_id: int):
    """A fighter's declaration: GET opens the Mayor's form for it, POST declares. The form is
    checked here; who may declare, for whom and at whom by the service, under the session's lock
    (issue #11: nothing is read here first)."""
    if request.method == "GET":
        return _declare_dialog(request, pk, combat_id, character_id)
    form = DeclareForm(request.POST)
    if not form.is_valid():
        return _refused(request, pk, combat_id, character_id,
                        _("Check the form: %(errors)s") % {"errors": form_errors(form)})
    data = form.cleaned_data
    attack = data["technique"] not in ("move", "other", "medical")
    try:
        combat = combat_actions.combat_declare(
            combat=CombatRound(pk=combat_id), by=request.user, character=Character(pk=character_id),
            technique=data["technique"], aims=[(Character(pk=p), b) for p, b in form.aims()] if attack else [],
            weapon=data["weapon"], special=data["special"],
            patient=Character(pk=data["patient"]) if data["technique"] == "medical" else None,
            cover=data["cover"], mount=data["mount"], holstered=data["holstered"], move_band=data["move_band"],
            move_cover=data["move_cover"], in_session=pk)
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused(request, pk, combat_id, character_id, str(err))
    return done_combat(request, combat.session)


@login_required
@require_POST
def combat_death_roll(request, pk: int, combat_id: int):
    """The Mayor draws the dead man's hand for a fighter at Muerto (FR-HLT-3)."""
    session = session_for_mayor(request.user, pk)
    combat = get_object_or_404(CombatRound, pk=combat_id, session=session)
    form = DeathRollForm(request.POST)
    if not form.is_valid():
        return done_combat(request, session, _("Check the form: %(errors)s") % {"errors": form_errors(form)})
    character = _fighter_for(request, session, combat, form.cleaned_data["character"])
    try:
        death_actions.death_roll(session=session, by=request.user, character=character,
                            request_key=form.cleaned_data["request_key"])
    except SessionError as err:
        return done_combat(request, session, str(err))
    return done_combat(request, session)


@login_required
@require_POST
def combat_draw(request, pk: int, combat_id: int, character_id: int):
    try:
        combat = combat_actions.combat_draw(combat=CombatRound(pk=combat_id), by=request.user,
                                            character=Character(pk=character_id), in_session=pk)
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused(request, pk, combat_id, character_id, str(err))
    return done_combat(request, combat.session)


@login_required
@require_POST
def combat_take_back(request, pk: int, combat_id: int, character_id: int):
    """A declaration taken back before its draw, by whoever may declare for the fighter."""
    try:
        combat = take_back.combat_take_back(combat=CombatRound(pk=combat_id), by=request.user,
                                            character=Character(pk=character_id), in_session=pk,
                                            request_key=posted_request_key(request.POST))
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused(request, pk, combat_id, character_id, str(err))
    return done_combat(request, combat.session)


@login_required
@require_POST
def combat_choose(request, pk: int, combat_id: int, character_id: int):
    """The holder of a fighter's hand locks in their card(s). The cards posted are checked against
    the hand by the service, under its lock and after it has asked whether the user may act for
    the fighter and holds that hand, so a user who does not (the Mayor for a protagonist) gets one
    answer whatever the cards (FR-CMB-1)."""
    form = CombatChooseForm(request.POST, hand=request.POST.getlist("cards"))
    if not form.is_valid():
        return _refused(request, pk, combat_id, character_id, _("Choose among the cards you drew."))
    aims = {uid: request.POST.get(f"target-{uid}", "") for uid in form.cleaned_data["cards"]}
    try:
        combat = combat_actions.combat_choose(
            combat=CombatRound(pk=combat_id), by=request.user, character=Character(pk=character_id),
            cards=form.cleaned_data["cards"], suit=form.cleaned_data["suit"] or "",
            targets={uid: Character(pk=posted_id(x)) for uid, x in aims.items() if posted_id(x) is not None},
            in_session=pk)
    except NotAllowed:
        raise Http404 from None
    except SessionError as err:
        return _refused(request, pk, combat_id, character_id, str(err))
    return done_combat(request, combat.session)


@login_required
@require_POST
def combat_step(request, pk: int, combat_id: int, step: str):
    """The Mayor's buttons: reveal, next turn, end the fight, withdraw it (the last three carry a
    request key: a double click is one action; a second reveal reveals nothing new anyway)."""
    session = session_for_mayor(request.user, pk)
    combat = get_object_or_404(CombatRound, pk=combat_id, session=session)
    action = {"revelar": combat_actions.combat_reveal, "siguiente": combat_actions.combat_next_turn,
              "terminar": combat_actions.combat_end, "retirar": combat_actions.combat_withdraw}.get(step)
    if action is None:
        raise Http404
    keyed = {} if step == "revelar" else {"request_key": posted_request_key(request.POST)}
    try:
        action(combat=combat, by=request.user, **keyed)
    except SessionError as err:
        return done_combat(request, session, str(err))
    return done_combat(request, session)
