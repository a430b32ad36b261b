"""En la palmera (PA-1..PA-10): two seats, ten squares, hidden placements and confrontations.

The card-game protocol of :mod:`cardgames.engines`; the rules live in :mod:`.rules`, the bots'
helpers in :mod:`.bot`. See docs/cardgames/palmera.md.
"""

from cardgames.engines.palmera.bot import STRONG_BOT, determinize, evaluate, rollout_action
from cardgames.engines.palmera.rules import (
    E_BAD_SQUARE,
    E_CHOOSE_ORDER,
    E_GAME_OVER,
    E_ILLEGAL,
    E_MALFORMED,
    E_MUST_PEEK,
    E_MUST_PLACE,
    E_NOT_PEEKABLE,
    E_NOT_YOUR_TURN,
    E_OPTIONS,
    E_OWN_SQUARE,
    E_SEATS,
    E_SQUARE_FULL,
    apply,
    apply_logged,
    events_view,
    from_json,
    legal_actions,
    new_game,
    outcome,
    to_json,
    to_move,
    view,
)
from cardgames.engines.palmera.search import make_strong_bot

__all__ = [
    "E_BAD_SQUARE",
    "E_CHOOSE_ORDER",
    "E_GAME_OVER",
    "E_ILLEGAL",
    "E_MALFORMED",
    "E_MUST_PEEK",
    "E_MUST_PLACE",
    "E_NOT_PEEKABLE",
    "E_NOT_YOUR_TURN",
    "E_OPTIONS",
    "E_OWN_SQUARE",
    "E_SEATS",
    "E_SQUARE_FULL",
    "STRONG_BOT",
    "apply",
    "apply_logged",
    "determinize",
    "evaluate",
    "events_view",
    "from_json",
    "legal_actions",
    "make_strong_bot",
    "new_game",
    "outcome",
    "rollout_action",
    "to_json",
    "to_move",
    "view",
]
