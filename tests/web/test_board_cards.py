"""Issue #11: the Mayor's board renders what its ~45 character cards share once (links, the CSRF
input, words, the aria-labels' translations) and must show exactly what rendering it per card
showed: the same token in every one-tap form, names escaped, every language."""

import re

import pytest
from django.template import engines
from django.utils import translation

from frontera.play.selectors.pages import TAP_LABELS, tap_labels_for
from tests.factories import make_minion, make_table

pytestmark = pytest.mark.django_db
NAME = '<b>"O\'Hara" & Sons</b>'


def test_csrf_input_is_what_csrf_token_renders():
    template = engines["django"].from_string("{% load board %}{% csrf_input as csrf %}{{ csrf }}|{% csrf_token %}")
    once, tag = template.render({"csrf_token": 'a<b"c'}).split("|")
    assert once == tag
    assert 'value="a&lt;b&quot;c"' in once


@pytest.mark.parametrize("language", ["es", "en"])
def test_tap_labels_are_what_blocktranslate_renders(language):
    """Each label is the translation as {% blocktranslate with name=... %} renders it: the
    translated text as it is, the name escaped."""
    with translation.override(language):
        labels = tap_labels_for()(NAME)
        for key, msgid in TAP_LABELS.items():
            source = msgid.replace("%(name)s", "{{ name }}")
            tag = engines["django"].from_string(
                "{% load i18n %}{% blocktranslate with name=who %}" + source + "{% endblocktranslate %}"
            )
            assert labels[key] == tag.render({"who": NAME}), key
    assert "&lt;b&gt;&quot;O&#x27;Hara&quot; &amp; Sons&lt;/b&gt;" in labels["hurt"]


@pytest.mark.parametrize("language", ["es", "en"])
def test_every_card_of_the_board_has_its_forms_token_and_escaped_name(client, language):
    session, mayor, seated, _minions = make_table(players=2, minions=1)
    make_minion(session.campaign, name=NAME)
    client.force_login(mayor)
    html = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).text
    board = html[html.index('id="board"'):html.index("</section>", html.index('id="board"'))]
    forms = re.findall(r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', board, re.S)
    taps = [body for action, body in forms if action.endswith("/personajes/")]
    assert len(taps) == 4 * 4  # two protagonists, two minions, four one-tap forms each
    tokens = {re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1) for body in taps}
    assert len(tokens) == 1
    assert NAME not in board
    assert "&lt;b&gt;&quot;O&#x27;Hara&quot; &amp; Sons&lt;/b&gt;" in board
    salud = "Salud" if language == "es" else "Health"
    assert board.count(f">{salud} −1</button>") == 4


def test_callable_characters_in_one_query(django_assert_num_queries):
    """Every action form validates against who the Mayor may call: the protagonists present in their
    seats' order, then the NPCs and minions by kind and name; an absent protagonist and another
    campaign's characters are not there. One query, whatever their number (issue #11)."""
    from frontera.play.selectors.pages import callable_characters
    from tests.factories import make_protagonist, make_user

    session, _mayor, seated, extras = make_table(players=3, minions=0)
    campaign = session.campaign
    from frontera.campaigns.models import Membership

    newcomer = make_user()
    Membership.objects.create(campaign=campaign, user=newcomer, role=Membership.Role.PLAYER)
    absent = make_protagonist(campaign, newcomer, name="Ausente")
    minions = [make_minion(campaign, name=name) for name in ("Zeta", "Alfa")]
    _other, _m, _s, foreign = make_table(players=1, minions=1)
    with django_assert_num_queries(1):
        rows = callable_characters(session)
    expected_minions = sorted(minions + extras, key=lambda c: (c.kind, c.name))
    assert rows == [(c.pk, c.name) for _, c in seated] + [(c.pk, c.name) for c in expected_minions]
    assert absent.pk not in {pk for pk, _ in rows} and foreign[0].pk not in {pk for pk, _ in rows}


def test_fr_mode_4_the_mayors_cards_say_npcs_draw_from_the_pile_in_phase_1(client):
    """A walk read "NPCs and minions draw from these cards" on the Mayor's card while his minion drew
    from the pile, as everyone does in phase 1 (FR-MODE-4); in phase 2 they draw from his deck."""
    from frontera.play.services.sessions import phase_switch

    session, mayor, _seated, _ = make_table()
    client.force_login(mayor)

    def mayor_card() -> str:
        page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
        return re.search(r'data-testid="mayor-seat">(.*?)</li>', page, re.DOTALL).group(1)

    assert "In phase 1 NPCs and minions draw from the pile; these cards are for phase 2" in mayor_card()
    phase_switch(session=session, by=mayor)
    assert "NPCs and minions draw from these cards" in mayor_card() and "In phase 1" not in mayor_card()
