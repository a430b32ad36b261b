"""Medical attention (FR-CHK-5): the healer's Cabeza (Saber) check, and what its card speeds.

On someone else only an Éxito counts, on oneself difficulty 8; a working treatment speeds the
patient's recovery (FR-HLT-2) or wins a Muerto patient the second card of the death roll (FR-HLT-3).
"""

from __future__ import annotations

from functools import cache

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.characters.models import Character
from frontera.characters.selectors import campaign_catalogue
from frontera.play.models import Check, GameSession, Treatment
from frontera.play.services.checks import Entry, create_check
from frontera.play.services.core import EventLog, SessionError, lock_character, lock_session, msg
from frontera.play.services.death import DEATH_CARE, DEATH_LEVEL, death_roll_pending
from frontera.play.services.table_tools import DURATION_LABELS
from frontera.rules import characters as rules_characters
from frontera.rules import checks as rules_checks
from frontera.rules.checks import medical_attention
from frontera.rules.tracks import health_recovery_time
from frontera.sql import column, load, table

E_NOT_WOUNDED = _("%(name)s is not wounded: medical attention has nothing to speed.")


def _duration(duration) -> dict:
    return msg(DURATION_LABELS[duration.unit], n=duration.amount) if duration else msg(gettext_noop("never"))


@transaction.atomic
def medical_request(*, session: GameSession, by, healer: Character, patient: Character,
                    request_key: str = "") -> Treatment:
    """Medical attention (FR-CHK-5): the healer's Cabeza (Saber) check, +1 card with a healer's kit;
    on someone else only an Éxito counts, on oneself difficulty 8. Drawn and chosen like any check
    (on the healer's phone); the played card decides whether the patient's recovery is sped."""

    session = lock_session(session)
    if request_key:
        existing = Treatment.objects.filter(session=session, prueba__request_key=request_key).first()
        if existing is not None:
            return existing
    locked, sheet = lock_character(session, patient)
    if sheet.health == 0:
        raise SessionError(E_NOT_WOUNDED % {"name": locked.name})
    healer_sheet = rules_characters.Character.from_json(Character.objects.get(pk=healer.pk).sheet)
    kit = rules_characters.equipment_bonus(healer_sheet, "atencion_medica", catalogue=campaign_catalogue(session.campaign))
    on_self = healer.pk == patient.pk
    prueba = create_check(
        session=session, by=by, kind=Check.Kind.TRAIT, entries=[Entry(healer, "cabeza", "saber", equipment=kit)],
        difficulty=rules_checks.SELF_MEDICAL_DIFFICULTY if on_self else None,
        # each reader reads it in their own language (it was the caller's for everyone)
        label=msg(gettext_noop("medical attention: %(patient)s"), patient=locked.name), request_key=request_key,
    )
    treatment = Treatment.objects.create(session=session, prueba=prueba, healer=healer, patient=locked)
    log = EventLog(session, by, [])
    log.decide(gettext_noop("%(healer)s gives medical attention to %(patient)s: a Cabeza (Saber) check%(kit)s%(oneself)s."),
               rules=["FR-CHK-5"], prueba=prueba, healer=healer.name, patient=locked.name,
               kit=msg(gettext_noop(", +1 card for the healer's kit")) if kit else "",
               oneself=msg(gettext_noop(", on oneself: difficulty 8")) if on_self else "")
    log.flush()
    if prueba.status == Check.Status.RESOLVED:  # no card to draw: nothing sped
        _treatment_result(session, treatment, None, EventLog(session, by, []), flush=True)
    return treatment


def after_medical_check(session: GameSession, prueba: Check, participant, played, log: EventLog) -> None:
    """The follow-up of a trait check (:func:`~frontera.play.services.follow_ups.after_trait_check`): the
    healer's played card decides whether the patient's recovery is sped."""
    found = load(Treatment, _unsettled_sql(), (prueba.pk,))
    if found:
        _treatment_result(session, found[0], played, log)


@cache
def _unsettled_sql() -> str:
    """The check's treatment whose result is not known yet, if any (asked after every trait check's
    card; the queryset took ~0.3 ms to build; issue #11)."""
    return (f"SELECT * FROM {table(Treatment)} WHERE {column(Treatment, 'prueba')} = %s "
            f"AND {column(Treatment, 'speeds')} IS NULL ORDER BY {column(Treatment, 'pk')} LIMIT 1")


def _treatment_result(session: GameSession, treatment: Treatment, card, log: EventLog, *, flush: bool = False) -> None:
    """FR-CHK-5: the played card speeds the patient's recovery, or does nothing (FR-HLT-2 times)."""

    speeds = medical_attention(card, on_self=treatment.healer_id == treatment.patient_id)
    treatment.speeds = speeds
    treatment.save(update_fields=["speeds"])
    patient = Character.objects.get(pk=treatment.patient_id)
    level = rules_characters.Character.from_json(patient.sheet).health
    if speeds and level in (-1, -2, -3):
        session.tallies.setdefault("medical", {})[str(patient.pk)] = True
        session.save(update_fields=["tallies"])
        # what to do with it said plainly: "it restores nothing by itself" beside "recovers a level"
        # left the Mayor unsure whether to give the level back now
        log.decide(gettext_noop("Medical attention works: %(patient)s recovers a level of Salud after %(medical)s "
                                "instead of %(rest)s with rest; the Mayor gives it back (+1) once that time has passed."),
                   rules=["FR-CHK-5", "FR-HLT-2"], prueba=treatment.prueba, patient=patient.name,
                   medical=_duration(health_recovery_time(level, "medical")),
                   rest=_duration(health_recovery_time(level, "rest")))
    elif speeds and level == DEATH_LEVEL and death_roll_pending(session, patient):
        # FR-HLT-3: only attention given to the dead character, before their death roll, wins the
        # second card; the FR-HLT-2 flag above ("medical") never does (docs/sessions.md ruling 2)
        session.tallies.setdefault(DEATH_CARE, {})[str(patient.pk)] = True
        session.save(update_fields=["tallies"])
        log.decide(gettext_noop("Medical attention works for %(patient)s: the death roll draws 2 and keeps the "
                                "better."), rules=["FR-CHK-5", "FR-HLT-3"], prueba=treatment.prueba,
                   patient=patient.name)
    else:
        log.decide(gettext_noop("Medical attention does nothing for %(patient)s."), rules=["FR-CHK-5"],
                   prueba=treatment.prueba, patient=patient.name)
    if flush:
        log.flush()
