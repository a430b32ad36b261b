"""The Frontera rules engine: pure Python, no Django, no I/O, injected randomness.

See docs/rules.md for the public API and ../shared/RULINGS.md for the rules (FR-*).
"""

from frontera.rules.errors import RulesError

__all__ = ["RulesError"]
