"""Tags for pages that repeat one form many times (the Mayor's board: four one-tap forms a card)."""

from django import template
from django.template.defaulttags import CsrfTokenNode

register = template.Library()


@register.simple_tag(takes_context=True)
def csrf_input(context):
    """``{% csrf_token %}``'s hidden input, the very same markup and token, rendered once to be reused:
    ``{% csrf_input as csrf %}`` then ``{{ csrf }}`` in each form (a ``{% csrf_token %}`` costs a
    lookup, a lazy object's evaluation and an escape every time)."""
    return CsrfTokenNode().render(context)
