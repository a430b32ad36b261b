"""Open and recent checks as a viewer may see them, with the exact odds for the holder (FR-ODDS-1)."""

from __future__ import annotations

from fractions import Fraction

from django.db.models import Exists, OuterRef, Prefetch
from django.utils.translation import gettext

from frontera import glossary
from frontera.play.models import Check, Gamble, GameSession, Participant, PistolDuel, Treatment
from frontera.play.selectors.core import Viewer, card_view, cards_view, render_message
from frontera.play.services.checks import why
from frontera.play.services.core import OUTCOME_LABELS
from frontera.rules import characters as rules_characters
from frontera.rules import odds as rules_odds
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from frontera.rules.errors import RulesError

RECENT_CHECKS = 6
PHONE_RECENT_CHECKS = 2


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.1f}"


def _odds(state, participant: Participant, difficulty: int | None) -> dict | None:
    """FR-ODDS-1: exact odds for the cards this check will actually draw from (shown to its holder)."""
    try:
        source = rules_session.draw_source(state, participant.seat, participant.cards)
        odds = rules_odds.check_odds(source, participant.cards, participant.trait, difficulty)
    except RulesError:
        return None
    return {key: _percent(value) for key, value in odds.items()}


def _participant_row(p: Participant, prueba: Check, viewer: Viewer, state, *, with_odds: bool) -> dict:
    holds = p.seat in viewer.seats or (viewer.is_mayor and p.drawn_by_id == viewer.user.pk)
    can_act = viewer.is_mayor or p.seat in viewer.seats
    revealed = p.status == Check.Status.RESOLVED
    drawn = cards_view(p.drawn) if holds and p.status != Check.Status.REQUESTED else []
    played = card_view(p.played, p.declared) if p.played and (holds or revealed) else None
    return {
        "pk": p.pk,
        "name": p.character.name,
        "kind": p.character.kind,
        "what": _what(p),
        "cards": p.cards,
        "status": p.status,
        "drawn_count": len(p.drawn),
        "drawn": drawn,
        "has_joker": any(c["is_joker"] for c in drawn),
        "played": played,
        "outcome": p.outcome,
        "outcome_label": gettext(OUTCOME_LABELS[p.outcome]) if p.outcome else "",
        "why": _why(p, prueba) if revealed and p.played and prueba.kind == Check.Kind.TRAIT else "",
        "status_label": p.get_status_display(),
        "can_draw": can_act and p.status == Check.Status.REQUESTED,
        "can_choose": can_act and holds and p.status == Check.Status.DRAWN,
        "mine": p.seat in viewer.seats,
        "odds": _odds(state, p, prueba.difficulty)
        if with_odds and p.seat in viewer.seats and p.status == Check.Status.REQUESTED and p.cards > 0
        else None,
    }


def _why(p: Participant, prueba: Check) -> str:
    card = Card.from_uid(p.played)
    card = card.declare(p.declared) if p.declared else card
    explained = why(card, p.trait, prueba.difficulty, p.outcome)
    return render_message(explained["_msg"], {k: v for k, v in explained.items() if k != "_msg"})


def _what(p: Participant) -> str:
    name = glossary.name("trait", p.trait)
    return f"{name} ({glossary.name('skill', p.skill)})" if p.skill else name


def check_rows(checks, viewer: Viewer, state, *, only_seats: set[str] | None = None) -> list[dict]:
    rows = []
    for prueba in checks:
        participants = list(prueba.participants.all())
        if only_seats is not None and not any(p.seat in only_seats for p in participants):
            continue
        rows.append({
            "pk": prueba.pk,
            "kind": prueba.kind,
            "label": gettext(prueba.label) if prueba.label else "",  # a msgid (azar) or the Mayor's words
            "difficulty": prueba.difficulty,
            "status": prueba.status,
            "open": prueba.status != Check.Status.RESOLVED,
            "withdrawn": prueba.withdrawn,
            "can_withdraw": viewer.is_mayor and prueba.status != Check.Status.RESOLVED and not getattr(prueba, "owned", True),
            "participants": [
                _participant_row(p, prueba, viewer, state, with_odds=prueba.status != Check.Status.RESOLVED)
                for p in participants
            ],
        })
    return rows


def session_checks(session: GameSession):
    participants = Participant.objects.select_related("character").order_by("pk")
    # a check another action waits on (a banca, a contest, medical attention, a pistol duel) is
    # called off through that action, not withdrawn on its own
    owned = (Exists(Gamble.objects.filter(prueba=OuterRef("pk"))) | Exists(Treatment.objects.filter(prueba=OuterRef("pk")))
             | Exists(PistolDuel.objects.filter(prueba=OuterRef("pk"))))
    base = (Check.objects.filter(session=session).annotate(owned=owned)
            .prefetch_related(Prefetch("participants", queryset=participants)))
    open_checks = list(base.exclude(status=Check.Status.RESOLVED).order_by("pk"))
    recent = list(base.filter(status=Check.Status.RESOLVED).order_by("-pk")[:RECENT_CHECKS])
    return open_checks, recent
