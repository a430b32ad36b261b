"""A fight's declaration taken back before its cards are drawn (``rules.combat.take_back``): a wrong
target ticked, or the wrong fighter declared for, is declared again instead of withdrawing the
whole fight (a walk found no other way out). Its own module: :mod:`.combat` is at the size limit."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.characters.models import Character
from frontera.play.models import CombatRound, combat_key
from frontera.play.services.combat import _combat_message, _lock_fighter
from frontera.play.services.core import COMBAT, FEED, EventLog, SessionError, first_submission
from frontera.rules import combat as rules_combat
from frontera.rules.errors import RulesError

E_MEDICAL_STANDS = _("Medical attention's declaration stands: its check is already called.")
TAKEN_BACK = gettext_noop("Turn %(turn)s: %(who)s's declaration is taken back, to be declared again.")


@transaction.atomic
def combat_take_back(*, combat: CombatRound, by, character: Character, in_session: int | None = None,
                     request_key: str = "") -> CombatRound:
    """Take back ``character``'s declaration this turn, before any card is drawn for it (FR-CMB-1,
    ruling): by whoever may declare for them (their player, or the Mayor). A second submit of the
    same form (``request_key``) changes nothing, also once the fighter has declared again (a late
    repeat took that new declaration back)."""
    locked = _lock_fighter(combat, character, by=by, in_session=in_session)
    session, combat = locked.session, locked.combat
    key = combat_key(locked.character.pk)
    decl = combat.state.get("declarations", {}).get(key)
    if decl is None or not first_submission(session, request_key):
        return combat  # a double submit: already taken back
    if decl["action"] == rules_combat.MEDICAL:
        raise SessionError(E_MEDICAL_STANDS)
    try:
        state, _events = rules_combat.take_back(combat.state, key)
    except RulesError as err:
        raise SessionError(_combat_message(err, combat)) from err
    combat.state = state
    log = EventLog(session, by, [])
    log.decide(TAKEN_BACK, rules=["FR-CMB-1"], turn=combat.turn, who=locked.names()[key])
    log.regions = {COMBAT, FEED}
    log.flush(updates=[(combat, ("state",))])
    return combat
