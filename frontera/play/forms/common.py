"""Choices and helpers the table's forms share: traits, skills, suits, the request key."""

import uuid

from django.utils.translation import gettext_lazy as _

from frontera.rules import characters as rules_characters
from frontera.rules.cards import TRAITS

TRAIT_CHOICES = [(t, rules_characters.TRAIT_NAMES[t]) for t in TRAITS]
SKILL_CHOICES = [("", _("no skill"))] + [
    (s.key, f"{s.name} ({rules_characters.TRAIT_NAMES[s.trait]})") for s in rules_characters.SKILLS.values()
]
SUIT_CHOICES = [("", _("—")), ("S", "♠"), ("H", "♥"), ("C", "♣"), ("D", "♦")]


def new_request_key() -> str:
    """A fresh idempotency key for one submission of a form."""
    return uuid.uuid4().hex
