"""Character pages: the creation wizard, the sheet (and its print view), the Mayor's forms and the
campaign's equipment catalogue. Thin: parse, ask permissions, call a service or selector, render.

An htmx request gets ``"<page>.html#<partial>"`` of the same template from the same view.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from frontera.campaigns.permissions import (
    campaign_for_mayor,
    campaign_for_member,
    can_edit_character,
    can_edit_character_notes,
    is_mayor_of,
)
from frontera.characters import hooks, selectors, services, wizard
from frontera.characters.forms import CatalogueItemForm, NotesForm, SheetForm
from frontera.characters.models import CatalogueItem, Character
from frontera.characters.services import CharacterError

WIZARD = "characters/wizard.html"
SHEET = "characters/character_sheet.html"


def _status(request, form_ok: bool) -> int:
    return 200 if form_ok or request.htmx else 400


# ---------------------------------------------------------------------------------------------
# List
# ---------------------------------------------------------------------------------------------


@login_required
@require_GET
def character_list(request, pk: int):
    campaign = campaign_for_member(request.user, pk)
    return render(request, "characters/character_list.html", {
        "campaign": campaign,
        "characters": selectors.characters_for(request.user, campaign),
        "is_mayor": is_mayor_of(request.user, campaign),
        "has_draft": selectors.has_draft(request.user, campaign),
    })


# ---------------------------------------------------------------------------------------------
# The creation wizard (FR-CHAR-3)
# ---------------------------------------------------------------------------------------------


def _step_url(campaign, step: str) -> str:
    return reverse("character_wizard_step", args=[campaign.pk, step])


def _wizard_context(request, campaign, draft, step: str, *, form=None, error: str = "") -> dict:
    return {
        **wizard.step_context(draft, request.user, step, form=form),
        "campaign": campaign,
        "step_url": _step_url(campaign, step),
        "error": error,
    }


def _draft(request, campaign):
    return services.draft_get_or_create(campaign=campaign, user=request.user)


@login_required
@require_GET
def character_wizard(request, pk: int):
    """Where the wizard starts or resumes: the first step that still needs something."""
    campaign = campaign_for_member(request.user, pk)
    draft = _draft(request, campaign)
    for state in wizard.steps_state(draft, request.user):
        if not state.done:
            return redirect(_step_url(campaign, state.key))
    return redirect(_step_url(campaign, "review"))


@login_required
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def character_wizard_step(request, pk: int, step: str):
    campaign = campaign_for_member(request.user, pk)
    if step not in wizard.STEP_KEYS:
        raise Http404
    draft = _draft(request, campaign)
    if request.method == "GET":
        form = wizard.step_form(step, draft, request.user) if step != "review" else None
        context = _wizard_context(request, campaign, draft, step, form=form)
        if request.htmx:
            return render(request, f"{WIZARD}#wizard", context)
        return render(request, WIZARD, context)

    if step == "review" and request.POST.get("_go") not in wizard.STEP_KEYS:
        return _wizard_create(request, campaign, draft)
    if step == "review":
        target = request.POST["_go"]
        if request.htmx:
            response = render(request, f"{WIZARD}#wizard", _wizard_context(
                request, campaign, draft, target, form=wizard.step_form(target, draft, request.user)
                if target != "review" else None))
            response["HX-Push-Url"] = _step_url(campaign, target)
            return response
        return redirect(_step_url(campaign, target))
    form = wizard.step_form(step, draft, request.user, data=request.POST)
    values = {name: request.POST.get(name, "") for name in form.fields}
    draft = services.draft_update(draft=draft, step=step, values=values)
    form = wizard.step_form(step, draft, request.user, data=request.POST)
    go = request.POST.get("_go", "")
    if request.GET.get("preview") and request.htmx:  # live status while typing; the draft is saved
        context = _wizard_context(request, campaign, draft, step, form=form)
        return render(request, f"{WIZARD}#status", {**context, "oob": True})
    if request.POST.get("_action") == "preview":  # the "Update totals" button without JavaScript
        context = _wizard_context(request, campaign, draft, step, form=form)
        return render(request, f"{WIZARD}#wizard" if request.htmx else WIZARD, context)
    if go in wizard.STEP_KEYS:  # "Back" and the step list save what was typed, valid or not
        target = go
    elif form.is_valid():
        target = wizard.STEP_KEYS[wizard.STEP_KEYS.index(step) + 1]
    else:
        context = _wizard_context(request, campaign, draft, step, form=form)
        if request.htmx:
            return render(request, f"{WIZARD}#wizard", context)
        return render(request, WIZARD, context, status=400)
    if request.htmx:
        target_form = wizard.step_form(target, draft, request.user) if target != "review" else None
        response = render(request, f"{WIZARD}#wizard",
                          _wizard_context(request, campaign, draft, target, form=target_form))
        response["HX-Push-Url"] = _step_url(campaign, target)
        return response
    return redirect(_step_url(campaign, target))


def _wizard_create(request, campaign, draft):
    forms = wizard.bound_forms(draft, request.user)
    error = ""
    if request.POST.get("_action") == "discard":  # asks first: every step's choices would be lost
        context = {**_wizard_context(request, campaign, draft, "review"), "confirm_discard": True}
        response = render(request, f"{WIZARD}#wizard" if request.htmx else WIZARD, context)
        if request.htmx:  # the question and its two buttons in view (a phone showed the first line only)
            response["HX-Reswap"] = "outerHTML show:#confirm-discard:bottom"
        return response
    if request.POST.get("_action") == "discard_confirmed":
        services.draft_discard(draft=draft)
        messages.success(request, _("The draft was discarded."))
        url = reverse("character_list", args=[campaign.pk])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if all(form.is_valid() for form in forms.values()):
        who = forms["who"].cleaned_data
        owner = request.user
        if "player" in who:
            owner = next((u for u in selectors.campaign_players(campaign) if u.pk == who["player"]), None)
        try:
            character = services.character_create(
                campaign=campaign, by=request.user, owner=owner, name=who["name"],
                description=who["description"], skills=forms["skills"].cleaned_data["skills"],
                trait_points=forms["traits"].cleaned_data["points"], extra_skill=forms["extra"].cleaned_data["extra"],
                starting_weapon=forms["equipment"].cleaned_data["weapon"],
                purchases=forms["equipment"].cleaned_data["purchases"], draft=draft,
            )
        except CharacterError as err:
            error = str(err)
        else:
            url = character.get_absolute_url()  # the sheet itself says it worked
            return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    else:
        error = _("Some steps still need a choice: see the list of steps.")
    context = _wizard_context(request, campaign, draft, "review", error=error)
    if request.htmx:
        return render(request, f"{WIZARD}#wizard", context)
    return render(request, WIZARD, context, status=400)


# ---------------------------------------------------------------------------------------------
# The Mayor's short form for NPCs and minions (FR-CHAR-6)
# ---------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def npc_new(request, pk: int):
    campaign = campaign_for_mayor(request.user, pk)
    back = _back_to(request)
    items = selectors.catalogue_for(campaign)
    form = SheetForm(request.POST or None, items=items, creating=True)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            character = services.npc_create(
                campaign=campaign, by=request.user, kind=data["kind"], name=data["name"],
                description=data["description"], traits=form.traits(), cards_per_check=data["cards_per_check"],
                aguante=data["flat_aguante"], confianza=data["flat_confianza"], skills=data["skills"],
                equipment=form.equipment(), money=data["money"],
            )
        except CharacterError as err:
            form.add_error(None, str(err))
        else:
            if back:  # back to the table it was made for, where it can be called at once
                return redirect(f"{back}#char-{character.pk}")
            return redirect(character)
    return render(request, "characters/npc_form.html", {"campaign": campaign, "form": form, "back": back},
                  status=_status(request, request.method == "GET" or form.is_valid()))


def _back_to(request) -> str:
    """``?next=<path>``: the session page an NPC was asked for from, to go back to once it is made;
    "" for anything else (the NPC page then works as ever). Only a path this site routes to a
    session's page: no other site, no other page."""
    wanted = request.GET.get("next", "")
    if not wanted.startswith("/") or not url_has_allowed_host_and_scheme(
            wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return ""
    try:
        match = resolve(wanted)
    except Resolver404:
        return ""
    return wanted if match.url_name == "play_session" else ""


# ---------------------------------------------------------------------------------------------
# The sheet, its print view and its edit form
# ---------------------------------------------------------------------------------------------


@login_required
@require_GET
@vary_on_headers("HX-Request")
def character_sheet(request, pk: int, character_id: int):
    character = selectors.character_for_viewer(request.user, pk, character_id)
    context = {
        **selectors.sheet_view(character, request.user),
        **hooks.sheet_page_context(character, request.user),  # play adds the session's deck and topic
        "campaign": character.campaign,
    }
    if request.htmx and request.GET.get("fragment") == "sheet":
        return render(request, f"{SHEET}#sheet", context)
    return render(request, SHEET, context)


@login_required
@require_GET
def character_print(request, pk: int, character_id: int):
    character = selectors.character_for_viewer(request.user, pk, character_id)
    return render(request, "characters/character_print.html",
                  {**selectors.sheet_view(character, request.user), "campaign": character.campaign})


def _sheet_initial(character: Character, items) -> dict:
    sheet = character.sheet
    initial = {
        "name": character.name, "description": character.description, "notes": character.notes,
        "money": sheet.get("money", 0), "skills": list(sheet.get("skills", [])),
        "health": sheet["tracks"]["health"], "morale": sheet["tracks"]["morale"],
        "sobriety": sheet["tracks"]["sobriety"], "cards_per_check": sheet.get("cards_per_check"),
        "flat_aguante": sheet.get("flat_aguante"), "flat_confianza": sheet.get("flat_confianza"),
    }
    initial.update(sheet.get("traits") or {})
    for item in items:
        initial[f"qty_{item.key}"] = sheet.get("equipment", {}).get(item.key, 0)
    return initial


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request, pk: int, character_id: int):
    """The Mayor edits the whole sheet; a player only the notes, money and description of their own."""
    character = selectors.character_for_viewer(request.user, pk, character_id)
    if can_edit_character(request.user, character):
        items = selectors.catalogue_for(character.campaign)
        form = SheetForm(request.POST or None, items=items, kind=character.kind,
                         initial=_sheet_initial(character, items))
    elif can_edit_character_notes(request.user, character):
        form = NotesForm(request.POST or None, initial={
            "description": character.description, "notes": character.notes, "money": character.sheet.get("money", 0)})
    else:
        raise Http404
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if isinstance(form, SheetForm):
                services.character_update(
                    character=character, by=request.user, name=data["name"], description=data["description"],
                    notes=data["notes"], money=data["money"], skills=data["skills"], equipment=form.equipment(),
                    health=data["health"], morale=data["morale"], sobriety=data["sobriety"], traits=form.traits(),
                    cards_per_check=data.get("cards_per_check"), flat_aguante=data.get("flat_aguante"),
                    flat_confianza=data.get("flat_confianza"),
                )
            else:
                services.character_update_notes(character=character, by=request.user, description=data["description"],
                                                notes=data["notes"], money=data["money"])
        except CharacterError as err:
            form.add_error(None, str(err))
        else:
            return redirect(character)
    return render(request, "characters/character_edit.html",
                  {"campaign": character.campaign, "character": character, "form": form,
                   "whole_sheet": isinstance(form, SheetForm)},
                  status=_status(request, request.method == "GET" or form.is_valid()))


# ---------------------------------------------------------------------------------------------
# The campaign's equipment catalogue (FR-CHAR-5)
# ---------------------------------------------------------------------------------------------


def _item_form(item, data=None) -> CatalogueItemForm:
    return CatalogueItemForm(data, item=item, prefix=f"item{item.pk}")


@login_required
@require_GET
def catalogue(request, pk: int):
    """Every member reads the figures; the Mayor gets a form per entry (FR-CHAR-5)."""
    campaign = campaign_for_member(request.user, pk)
    mayor = is_mayor_of(request.user, campaign)
    rows = selectors.catalogue_rows(selectors.catalogue_for(campaign))
    if mayor:
        for row in rows:
            row["form"] = _item_form(row["item"])
    return render(request, "characters/catalogue.html", {"campaign": campaign, "rows": rows, "is_mayor": mayor})


@login_required
@require_POST
@vary_on_headers("HX-Request")
def catalogue_item_edit(request, pk: int, item_id: int):
    """The Mayor saves one entry: names, notes, the shop and the figures, judged by the rules engine;
    a refused figure comes back at its field and nothing changes."""
    campaign = campaign_for_mayor(request.user, pk)
    item = get_object_or_404(CatalogueItem, pk=item_id, campaign=campaign)
    form = _item_form(item, request.POST)
    saved = False
    if form.is_valid():
        data = form.cleaned_data
        try:
            item = services.catalogue_item_update(item=item, by=request.user, name=data["name"], notes=data["notes"],
                                                  in_shop=data["in_shop"], figures=form.figures(),
                                                  name_en=data["name_en"], notes_en=data["notes_en"])
        except CharacterError as err:
            field = "bonus_cards" if err.field == "bonus" else err.field  # the form splits the bonus in two
            form.add_error(field if field in form.fields else None, str(err))
        else:
            form = _item_form(item)
            saved = True
    if request.htmx:
        row = selectors.catalogue_rows([item])[0]
        row["form"] = form
        return render(request, "characters/catalogue.html#item", {"campaign": campaign, "row": row,
                                                                   "is_mayor": True, "saved": saved})
    if saved:
        return redirect(f"{reverse('character_catalogue', args=[campaign.pk])}#item-{item.pk}")
    rows = selectors.catalogue_rows(selectors.catalogue_for(campaign))
    for row in rows:
        row["form"] = form if row["item"].pk == item.pk else _item_form(row["item"])
    return render(request, "characters/catalogue.html", {"campaign": campaign, "rows": rows, "is_mayor": True},
                  status=400)
