"""PoCoBOT (Poker Combat Bot): a two-player mecha duel with one 52-card deck (PB-1..PB-18).

The card-game protocol of :mod:`cardgames.engines`, plus :func:`resolve_damage` and the bots'
hooks (:func:`determinize`, :func:`evaluate`, :func:`rollout_action`, :func:`make_strong_bot`).

>>> state = new_game(2, seed=7)
>>> seat = to_move(state)[0]
>>> state = apply(state, seat, legal_actions(state, seat)[-1])
>>> outcome(state) is None
True
"""

from cardgames.engines.pocobot.bot import (
    PocobotBot,
    candidate_actions,
    evaluate,
    make_strong_bot,
    policy_action,
    rollout_action,
)
from cardgames.engines.pocobot.game import (
    MAX_TURNS,
    apply,
    determinize,
    from_json,
    legal_actions,
    new_game,
    outcome,
    to_json,
    to_move,
    view,
)
from cardgames.engines.pocobot.panel import resolve_damage

__all__ = [
    "MAX_TURNS",
    "PocobotBot",
    "apply",
    "candidate_actions",
    "determinize",
    "evaluate",
    "from_json",
    "legal_actions",
    "make_strong_bot",
    "new_game",
    "outcome",
    "policy_action",
    "resolve_damage",
    "rollout_action",
    "to_json",
    "to_move",
    "view",
]
