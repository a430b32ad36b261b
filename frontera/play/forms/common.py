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


class SomeDisabled:
    """A choice widget whose options in ``disabled_values`` cannot be picked (``disabled``)."""

    disabled_values: frozenset = frozenset()

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if str(value) in self.disabled_values:  # never shown ticked: a disabled box is not sent
            option["attrs"]["disabled"] = True
            option["selected"] = False
            option["attrs"].pop("checked", None)
            option["attrs"].pop("selected", None)
        return option


class SelectSomeDisabled(SomeDisabled, forms.Select):
    pass


class CheckboxesSomeDisabled(SomeDisabled, forms.CheckboxSelectMultiple):
    pass


def mark_unable(form, names, unable: dict[str, str], *, disable: bool = True) -> None:
    """Each of the fields ``names`` says beside a character who cannot act why (``unable``:
    :func:`frontera.play.selectors.pages.unable_to_act`), and, with ``disable``, offers them
    greyed out: a check on them is refused anyway (FR-HLT-1, FR-MOR-1, FR-SOB-1)."""
    for name in names:
        field = form.fields[name]
        field.choices = [(value, format_lazy("{} · {}", label, unable[value]) if value in unable else label)
                         for value, label in field.choices]
        if disable and isinstance(field.widget, SomeDisabled):
            field.widget.disabled_values = frozenset(unable)
            # nobody greyed out starts ticked ("?again", "?character=", a duel's second): a disabled
            # box is not sent, and the call would go without him while he looked included
            if name in form.initial:
                form.initial[name] = _able(form.initial[name], unable)
            field.initial = _able(field.initial, unable)


def _able(value, unable: dict[str, str]):
    """``value`` (an initial choice, or a list of them) without those in ``unable``."""
    if isinstance(value, list | tuple):
        return [v for v in value if str(v) not in unable]
    return None if value is not None and str(value) in unable else value
