"""A client that knows only the bonus tables' HTML forms: it reads each form's attributes, action and
fields, and submits one. Enough to play any game to its end without JavaScript (issue #13)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Form:
    attrs: dict
    fields: dict = field(default_factory=dict)
    label: str = ""

    @property
    def action(self) -> str:
        return self.attrs.get("action", "")


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._open: Form | None = None
        self._in_button = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._open = Form(attrs)
            self.forms.append(self._open)
        elif self._open is not None and tag == "input" and attrs.get("name"):
            self._open.fields[attrs["name"]] = attrs.get("value") or ""
        elif self._open is not None and tag == "button":
            self._in_button = True

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None
        elif tag == "button":
            self._in_button = False

    def handle_data(self, data):
        if self._open is not None and self._in_button:
            self._open.label += data.strip()


def forms(html: str, marker: str | None = None) -> list[Form]:
    """The page's forms; with ``marker``, only those carrying that attribute (``data-legal-action``)."""
    parser = _Forms()
    parser.feed(html)
    return [f for f in parser.forms if marker is None or marker in f.attrs]


def play_to_the_end(client, url: str, rng: random.Random, *, max_moves: int = 3000, submit=None) -> tuple[str, int]:
    """Submit a random ``data-legal-action`` form of the page until it shows ``data-outcome``.
    Returns the last page and the number of moves made."""
    submit = submit or (lambda form: client.post(form.action, form.fields))
    for moves in range(max_moves):
        page = client.get(url)
        assert page.status_code == 200
        html = page.text
        if "data-outcome" in html:
            return html, moves
        offered = forms(html, "data-legal-action")
        assert offered, "no move offered to the player and the game is not over"
        response = submit(rng.choice(offered))
        assert response.status_code == 302, response.content[:400]
    raise AssertionError("the game did not end")
