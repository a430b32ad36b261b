"""The Mayor's forms, opened on demand: ``/sesiones/<id>/formularios/<name>/``.

The dashboard shows what is happening and renders no form; a toolbar button or a character card's
"check" link asks for one form, which htmx puts in the page's ``<dialog>`` (``#dialog`` partial).
Without JavaScript the same link opens the form as a page of its own, and its plain POST comes back
to the table. Each opening is a fresh form with a fresh request key: a double submit of it is one
action, the next opening is a new one. ``?character=<id>`` preselects who a check or a table tool
is for; ``?again=<check id>`` fills in a trait check as it was called before; ``?preset=<name>``
fills in one of the book's named opposed checks (FR-OPP-6).
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from frontera.play.forms.checks import OPPOSED_PRESETS, OPPOSED_SLOTS, CheckRequestForm, OpposedRequestForm
from frontera.play.forms.combat import CombatStartForm
from frontera.play.forms.common import mark_unable
from frontera.play.forms.duels import PistolDuelForm
from frontera.play.forms.exchanges import ExchangeStartForm
from frontera.play.forms.gambling import GambleForm
from frontera.play.forms.medical import MedicalForm
from frontera.play.forms.sessions import JoinForm
from frontera.play.forms.table_tools import TableActionForm
from frontera.play.forms.treasure import TreasureShareStartForm
from frontera.play.models import Check, GameSession, Seat
from frontera.play.selectors.combat import duel_weapons
from frontera.play.selectors.pages import callable_characters, unable_to_act
from frontera.play.views.common import protagonists, session_for_mayor

TITLES = {
    "check": _("Call a trait check"),
    "opposed": _("Call an opposed check"),
    "tools": _("Damage, threats, drinks, accidents"),
    "fight": _("Start a fight"),
    "duel": _("Pistol duel"),
    "medical": _("Medical attention"),
    "gamble": _("A gambling night (banca, azar, habilidad)"),
    "exchange": _("Card exchanges (apuesta, duelo, muerte)"),
    "treasure": _("A treasure, loot or reward"),
    "join": _("A late joiner"),
}


def _chosen(request, characters) -> str:
    """The ``?character=`` asked for, if it is one of the characters offered."""
    wanted = request.GET.get("character", "")
    return wanted if wanted in {str(pk) for pk, _name in characters} else ""


def _again(request, session: GameSession) -> dict | None:
    """``?again=<check id>``: the same trait check once more, on the same characters (FR-CHK-1)."""
    raw = request.GET.get("again", "")
    prueba = Check.objects.filter(pk=int(raw), session=session, kind=Check.Kind.TRAIT).first() if raw.isdigit() else None
    if prueba is None:
        return None
    participants = list(prueba.participants.all())
    first = participants[0]
    return {"characters": [str(p.character_id) for p in participants], "trait": first.trait, "skill": first.skill,
            "difficulty": prueba.difficulty, "modifier": first.modifier, "label": prueba.label}


# Each form's character fields: those where a character who cannot act is greyed out (a check
# would be refused), and those where the picker only says so beside the name (a patient, a fighter,
# a dead man's exchange, a table tool's target may be one).
UNABLE_DISABLED = {"check": ("characters",), "opposed": tuple(f"character_{i}" for i in range(1, OPPOSED_SLOTS + 1)),
                   "gamble": ("characters", "cheats"), "duel": ("first", "second"), "medical": ("healer",)}
UNABLE_SAID = {"medical": ("patient",), "tools": ("character",), "fight": ("side_a", "side_b"),
               "exchange": ("first", "second")}


def _form(request, session: GameSession, name: str):
    characters = callable_characters(session)
    form = _blank_form(request, session, name, characters)
    if name in UNABLE_DISABLED or name in UNABLE_SAID:
        unable = unable_to_act(pk for pk, _name in characters)
        mark_unable(form, UNABLE_DISABLED.get(name, ()), unable)
        mark_unable(form, UNABLE_SAID.get(name, ()), unable, disable=False)
        able = [str(pk) for pk, _name in characters if str(pk) not in unable]
        if name == "duel" and len(able) > 1:  # not a greyed-out duellist selected from the start
            form.fields["first"].initial, form.fields["second"].initial = able[:2]
        elif name == "medical" and able:
            form.fields["healer"].initial = able[0]
    return form


def _blank_form(request, session: GameSession, name: str, characters):
    chosen = _chosen(request, characters)
    if name == "check":
        return CheckRequestForm(characters=characters, initial=_again(request, session) or
                                {"characters": [chosen] if chosen else []})
    if name == "opposed":
        preset = OPPOSED_PRESETS.get(request.GET.get("preset", ""))
        return OpposedRequestForm(characters=characters, initial=preset.initial() if preset else None)
    if name == "tools":
        return TableActionForm(characters=characters, initial={"character": chosen} if chosen else None)
    if name == "fight":
        return CombatStartForm(characters=characters)
    if name == "duel":
        return PistolDuelForm(characters=characters, weapons=duel_weapons(session))
    if name == "medical":
        return MedicalForm(characters=characters)
    if name == "gamble":
        return GambleForm(characters=characters)
    if name == "exchange":
        return ExchangeStartForm(characters=characters)
    if name == "treasure":
        seated = Seat.objects.filter(session=session).select_related("character").order_by("character__name")
        return TreasureShareStartForm(characters=[(s.character_id, s.character.name) for s in seated])
    if name == "join":
        seated = set(Seat.objects.filter(session=session).values_list("character_id", flat=True))
        return JoinForm(characters=[c for c in protagonists(session.campaign) if c.pk not in seated])
    raise Http404


@login_required
@require_GET
@vary_on_headers("HX-Request")
def action_form(request, pk: int, name: str):
    session = session_for_mayor(request.user, pk)
    if name not in TITLES:
        raise Http404
    if session.status == GameSession.Status.ENDED:
        return redirect(session)
    context = {
        "session": session, "campaign": session.campaign, "name": name, "title": TITLES[name],
        "form": _form(request, session, name), "presets": OPPOSED_PRESETS if name == "opposed" else {},
        "in_dialog": bool(request.htmx),
    }
    template = "play/action_form.html"
    return render(request, f"{template}#dialog" if request.htmx else template, context)
