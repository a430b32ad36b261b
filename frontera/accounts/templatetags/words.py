"""Filters any page may load for the game's words (``{% load words %}``): the glossary's, kept in the
lowest app so that every app's templates can use them."""

from django import template

from frontera import glossary

register = template.Library()


@register.filter
def money(amount) -> str:
    """``{{ sheet.money|money }}``: "27 $" in Spanish, "$27" in English (:func:`frontera.glossary.money`)."""
    return glossary.money(amount)
