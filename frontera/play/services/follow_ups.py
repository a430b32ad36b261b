"""The follow-ups of checks.

Some table actions start a check and settle when it resolves: a banca's attempt to leave and
medical attention (a trait check), an azar or habilidad contest and a pistol duel's round (an
opposed check). Their modules sit above :mod:`frontera.play.services.checks`, so they hand their
follow-up to these lists (wired in one place: ``frontera/play/services/__init__.py``). Each
follow-up looks up whether the check is one of its own and does nothing otherwise; all run inside
the action's transaction. A trait check's follow-up names the model whose rows refer to its checks:
a choice reads under its lock whether any row of them refers to the check, and a check none refers
to runs none (issue #11).
"""

from __future__ import annotations

from collections.abc import Callable

from frontera.play.models import Check, GameSession, Participant
from frontera.play.services.core import EventLog
from frontera.rules.cards import Card

TraitFollowUp = Callable[[GameSession, Check, Participant, Card, EventLog], None]
OpposedFollowUp = Callable[[GameSession, Check, object], None]
AFTER_TRAIT_CHECK: list[TraitFollowUp] = []
TRAIT_WAITS: list[type] = []  # the models whose rows refer to the checks the follow-ups settle
AFTER_OPPOSED_REVEAL: list[OpposedFollowUp] = []


def after_trait_check(*follow_ups: tuple[type, TraitFollowUp]) -> None:
    """For each ``(model, follow_up)``: call ``follow_up(session, prueba, participant, played_card,
    log)`` once a trait check's card is played, the session row locked and the engine state saved,
    if a row of ``model`` (a model with a ``prueba`` key: the one that waits on the check) refers to
    the check."""
    for model, follow_up in follow_ups:
        if follow_up not in AFTER_TRAIT_CHECK:
            AFTER_TRAIT_CHECK.append(follow_up)
        if model not in TRAIT_WAITS:
            TRAIT_WAITS.append(model)


def after_opposed_reveal(*follow_ups: OpposedFollowUp) -> None:
    """Call ``follow_up(session, prueba, by)`` once an opposed check has revealed and resolved."""
    AFTER_OPPOSED_REVEAL.extend(f for f in follow_ups if f not in AFTER_OPPOSED_REVEAL)
