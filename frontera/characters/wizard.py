"""The creation wizard's steps and their state, read from a draft (FR-CHAR-3).

A draft keeps, per step, exactly what was typed (valid or not). Each step's form is bound to it to
know whether the step is done and, if not, what is still needed. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from frontera import glossary
from frontera.campaigns.permissions import is_mayor_of
from frontera.characters import selectors
from frontera.characters.forms import EquipmentForm, ExtraSkillForm, SkillsForm, TraitsForm, WhoForm
from frontera.characters.models import CharacterDraft
from frontera.rules import characters as rules
from frontera.rules.cards import SUIT_SYMBOL, TRAIT_SUIT, TRAITS
from frontera.rules.errors import RulesError

STEPS = (
    ("who", _("Who")),
    ("skills", _("Skills")),
    ("traits", _("Traits")),
    ("extra", _("Extra skill")),
    ("equipment", _("Equipment")),
    ("review", _("Review")),
)
STEP_KEYS = tuple(key for key, _label in STEPS)
FORM_STEPS = STEP_KEYS[:-1]


@dataclass
class StepState:
    key: str
    label: str
    number: int
    done: bool = False
    needed: list[str] = field(default_factory=list)
    visited: bool = False


def _messages(form) -> list[str]:
    return [str(message) for errors in form.errors.values() for message in errors]


def held_skills(draft: CharacterDraft) -> tuple[str, ...]:
    """The skills chosen at the skills step (those of it that are filled in)."""
    stored = draft.data.get("skills", {})
    return tuple(stored[group] for group in rules.GROUPS if stored.get(group) in rules.SKILLS)


def step_form(step: str, draft: CharacterDraft, user, *, data=None):
    """The form of ``step``: bound to ``data`` if given, else unbound with the draft's values."""
    campaign = draft.campaign
    kwargs: dict = {}
    if step == "who" and is_mayor_of(user, campaign):
        kwargs = {"players": selectors.campaign_players(campaign), "mayor": user}
    elif step == "extra":
        kwargs = {"held": held_skills(draft)}
    elif step == "equipment":
        items = selectors.catalogue_for(campaign)  # one query: the shop and the campaign's figures
        kwargs = {"items": [i for i in items if i.in_shop], "catalogue": selectors.engine_catalogue(items)}
    form_class = {"who": WhoForm, "skills": SkillsForm, "traits": TraitsForm, "extra": ExtraSkillForm,
                  "equipment": EquipmentForm}[step]
    if data is not None:
        return form_class(data=data, **kwargs)
    return form_class(initial=draft.data.get(step, {}), **kwargs)


def bound_forms(draft: CharacterDraft, user) -> dict:
    return {step: step_form(step, draft, user, data=draft.data.get(step, {})) for step in FORM_STEPS}


def steps_state(draft: CharacterDraft, user, forms: dict | None = None) -> list[StepState]:
    """Every step: done, or what it still needs (the "choice needed" markers)."""
    forms = forms or bound_forms(draft, user)
    states = []
    for number, (key, label) in enumerate(STEPS, start=1):
        state = StepState(key=key, label=label, number=number, visited=key in draft.data)
        if key == "review":
            state.done = False
            state.needed = [] if all(f.is_valid() for f in forms.values()) else [str(_("Finish the steps marked above."))]
        else:
            form = forms[key]
            state.done = form.is_valid()
            state.needed = [] if state.done else _messages(form)
        states.append(state)
    return states


def traits_preview(values) -> dict:
    """Scores, points left and the derived Aguante and Confianza for whatever is typed (FR-CHAR-4)."""
    points = {}
    for trait in TRAITS:
        raw = values.get(trait) if values else None
        try:
            points[trait] = max(0, int(raw)) if raw not in (None, "") else 0
        except (TypeError, ValueError):
            points[trait] = 0
    scores = {trait: rules.STARTING_TRAIT + points[trait] for trait in TRAITS}
    preview = rules.Character(name="·", traits=scores)
    spent = sum(points.values())
    return {
        "scores": [{"key": t, "name": glossary.name("trait", t), "suit": SUIT_SYMBOL[TRAIT_SUIT[t]],
                    "suit_class": f"suit-{TRAIT_SUIT[t].lower()}", "score": scores[t]} for t in TRAITS],
        "spent": spent,
        "left": rules.TRAIT_POINTS - spent,
        "total": rules.TRAIT_POINTS,
        "aguante": preview.aguante,
        "confianza": preview.confianza,
    }


def shop_preview(form: EquipmentForm) -> dict:
    """The running total of the shop against the $50 (FR-CHAR-3); the engine prices it from the
    campaign's catalogue (FR-CHAR-5)."""
    purchases = {}
    for item in form.items:
        raw = form.data.get(f"qty_{item.key}") if form.is_bound else form.initial.get(f"qty_{item.key}")
        try:
            quantity = int(raw) if raw not in (None, "") else 0
        except (TypeError, ValueError):
            quantity = 0
        if quantity > 0:
            purchases[item.key] = quantity
    try:
        total = rules.purchase_cost(purchases, catalogue=form.catalogue)
    except RulesError:
        total = 0
    return {"total": total, "budget": rules.STARTING_MONEY, "left": rules.STARTING_MONEY - total,
            "over": total > rules.STARTING_MONEY, "over_by": max(total - rules.STARTING_MONEY, 0)}


def skill_groups(form, *, field: str | None = None, held=()) -> list[dict]:
    """The radio buttons of the skills steps, grouped as on the book's sheet."""
    groups = []
    for group in rules.GROUPS:
        name = field or group
        value = form[name].value() if form is not None else None
        groups.append({
            "key": group, "name": glossary.name("group", group), "field": name, "errors": form[name].errors if field is None else [],
            "skills": [
                {"key": s.key, "name": glossary.name("skill", s.key), "trait": glossary.name("trait", s.trait), "checked": value == s.key,
                 "held": s.key in held, "id": f"id_{name}_{s.key}"}
                for s in rules.SKILLS.values() if s.group == group
            ],
        })
    return groups


def review(draft, forms) -> dict:
    """What the review step shows: every part of the draft that is valid."""
    ok = {step: form.is_valid() for step, form in forms.items()}
    who = forms["who"].cleaned_data if ok["who"] else {}
    skills = list(forms["skills"].cleaned_data.get("skills", ())) if ok["skills"] else []
    if ok["extra"]:
        skills.append(forms["extra"].cleaned_data["extra"])
    preview = traits_preview(draft.data.get("traits", {})) if ok["traits"] else None
    equipment = forms["equipment"].cleaned_data if ok["equipment"] else {}
    items = {i.key: i.display_name for i in selectors.catalogue_for(draft.campaign)}
    return {
        "ok": ok,
        "name": who.get("name", ""),
        "description": who.get("description", ""),
        "skills": [glossary.name("skill", k) for k in skills],
        "preview": preview,
        "equipment": [{"name": items.get(k, k), "quantity": q} for k, q in equipment.get("equipment", {}).items()],
        "money": equipment.get("money"),
    }


def step_context(draft: CharacterDraft, user, step: str, *, form=None) -> dict:
    """What the wizard page shows at ``step``: the step list with its markers, the form, and the
    step's own figures (live Aguante and Confianza, the shop's running total, the review)."""
    forms = bound_forms(draft, user)
    steps = steps_state(draft, user, forms)
    index = STEP_KEYS.index(step)
    context = {
        "draft": draft,
        "step": step,
        "steps": steps,
        "current": steps[index],
        "previous": STEP_KEYS[index - 1] if index > 0 else None,
        "form": form,
    }
    values = form.data if form is not None and form.is_bound else draft.data.get(step, {})
    if step == "skills":
        context["groups"] = skill_groups(form)
    elif step == "traits":
        context["preview"] = traits_preview(values)
        context["trait_rows"] = [{"field": form[row["key"]], **row} for row in context["preview"]["scores"]]
    elif step == "extra":
        context["groups"] = skill_groups(form, field="extra", held=held_skills(draft))
    elif step == "equipment":
        context["shop"] = shop_preview(form)
        context["rows"] = [{"row": row, "field": form[f"qty_{row['item'].key}"]}
                           for row in selectors.catalogue_rows(form.items)]
    elif step == "review":
        context["review"] = review(draft, forms)
    return context
