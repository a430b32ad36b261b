"""The Mayor's "why" beside a feed line, a check or an exchange: the rules behind it in words."""

from django import template

from frontera.play.rule_notes import NOTES

register = template.Library()


@register.filter
def rule_notes(rules) -> list[tuple[str, str]]:
    """``rules`` ("FR-CHK-1, FR-OPP-1" or a list of IDs) as (ID, what the rule decides, in the
    reader's language), in their order, each once; an ID with no note is left out."""
    ids = rules.split(",") if isinstance(rules, str) else rules or ()
    seen = []
    for rule in (str(rule).strip() for rule in ids):
        if rule in NOTES and rule not in seen:
            seen.append(rule)
    return [(rule, str(NOTES[rule])) for rule in seen]
