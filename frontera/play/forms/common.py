"""Choices and helpers the table's forms share: traits, skills, suits, the request key."""

import uuid

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from frontera import glossary
from frontera.rules import characters as rules_characters
from frontera.rules.cards import TRAITS

TRAIT_CHOICES = glossary.choices("trait", TRAITS)
# each trait's skills under the trait's name (an <optgroup>, FR-CHAR-2): a walk through a session
# picked Manos with Fuerza, a Músculo skill, and learnt it only from the refusal
SKILL_CHOICES = [("", _("no skill"))] + [
    (glossary.lazy("trait", trait), [(s.key, glossary.lazy("skill", s.key))
                                     for s in rules_characters.SKILLS.values() if s.trait == trait])
    for trait in TRAITS
]
SUIT_CHOICES = [("", _("—"))] + [(s, format_lazy("{} {}", glossary.SUIT_SYMBOL[s], glossary.lazy("suit", s))) for s in "SHCD"]


def new_request_key() -> str:
    """A fresh idempotency key for one submission of a form."""
    return uuid.uuid4().hex


class RequestKeyForm(forms.Form):
    """The request key of a one-button form (next turn, end phase 1, undo...): one action per
    submission. Not a key (missing, too long): the action runs as a keyless call."""

    request_key = forms.CharField(max_length=40, required=False)


def posted_request_key(data) -> str:
    form = RequestKeyForm(data)
    return form.cleaned_data["request_key"] if form.is_valid() else ""
