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


# What stands for a per-request value in HTML kept for every request (see ``stamped``).
TAP_MARK = "\u2063tap\u2063"
CSRF_MARK = "\u2063csrf\u2063"


class StampedNode(template.Node):
    def __init__(self, nodelist, tap_key, csrf):
        self.nodelist, self.tap_key, self.csrf = nodelist, tap_key, csrf

    def render(self, context):
        tap_key, csrf = str(self.tap_key.resolve(context)), str(self.csrf.resolve(context))
        with context.push(tap_key=TAP_MARK, csrf=CSRF_MARK):
            html = self.nodelist.render(context)
        return html.replace(TAP_MARK, tap_key).replace(CSRF_MARK, csrf)


@register.tag
def stamped(parser, token):
    """``{% stamped tap_key csrf %}…{% endstamped %}``: the block sees ``tap_key`` and ``csrf`` as
    marks, and its HTML gets this request's values in their place once rendered. So what the block
    keeps in a cache for every request (each card of the Mayor's board, ``templates/play/_cast.html``)
    holds no request's own one-tap key or CSRF input. Both values must be escaped already."""
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError("{% stamped tap_key csrf %} takes two values")
    nodelist = parser.parse(("endstamped",))
    parser.delete_first_token()
    return StampedNode(nodelist, parser.compile_filter(bits[1]), parser.compile_filter(bits[2]))
