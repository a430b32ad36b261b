"""What the campaigns app tells the apps above it.

Apps depend one way (``docs/architecture.md``): campaigns imports neither characters nor play.
When a campaign action must start work that belongs to a higher app, that app registers a function
here from its ``AppConfig.ready()``, and the campaign service calls every registered function, in
registration order, inside its own transaction (so a failure rolls the campaign action back too).

- :func:`on_campaign_created`: ``fn(*, campaign)`` after a campaign and its Mayor's membership are
  created. Registered by characters: the campaign's own equipment catalogue (``catalogue_seed``).
"""

from __future__ import annotations

from collections.abc import Callable

_CAMPAIGN_CREATED: list[Callable[..., object]] = []


def on_campaign_created(fn: Callable[..., object]) -> Callable[..., object]:
    """Register ``fn(*, campaign)``; registering the same function twice keeps one."""
    if fn not in _CAMPAIGN_CREATED:
        _CAMPAIGN_CREATED.append(fn)
    return fn


def campaign_created(*, campaign) -> None:
    """Called by :func:`frontera.campaigns.services.campaign_create`, inside its transaction."""
    for fn in _CAMPAIGN_CREATED:
        fn(campaign=campaign)
