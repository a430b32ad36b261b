"""An NPC made from the session's table goes back to it (FR-CHAR-6): the board and the opposed
check's dialog link to the quick NPC page with the table as ``next``; made, the NPC is on the
board, callable at once (a walk with one protagonist found the opposed check a dead end: "needs at
least two participants", and the NPC page nowhere near the session). A ``next`` that leaves the
site, or is not a session's page, is ignored."""

import pytest
from django.urls import reverse

from frontera.characters.models import Character
from tests.factories import make_table

pytestmark = pytest.mark.django_db
NPC = {"kind": "minion", "name": "Bandido 3", "cards_per_check": "3", "flat_aguante": "5", "money": "0"}


def test_fr_char_6_an_npc_made_from_the_table_is_on_it_at_once(client):
    session, mayor, _seated, _ = make_table(players=1, minions=0)
    client.force_login(mayor)
    table = session.get_absolute_url()
    board = client.get(table, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    link = f"{reverse('npc_new', args=[session.campaign_id])}?next={table}"
    assert f'href="{link}"' in board and "Un PNJ o esbirro nuevo…" in board
    dialog = client.get(reverse("play_action_form", args=[session.pk, "opposed"]), HTTP_ACCEPT_LANGUAGE="es")
    assert f'href="{link}"' in dialog.content.decode()
    form = client.get(link, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Volver a la mesa" in form and "Añadir a la campaña y volver a la mesa" in form
    made = client.post(link, NPC)
    npc = Character.objects.get(name="Bandido 3")
    assert made.status_code == 302 and made.url == f"{table}#char-{npc.pk}"
    assert f'id="char-{npc.pk}"' in client.get(table).content.decode()


@pytest.mark.parametrize("away", ["https://evil.example/", "//evil.example/x", "sesiones/1/", "/\\evil.example",
                                  "///evil.example", "/%2F%2Fevil.example", "javascript:alert(1)", "//",
                                  "/campanas/", "/sesiones/1/%23x"])
def test_a_next_that_is_not_this_sites_session_page_is_ignored(client, away):
    session, mayor, _seated, _ = make_table(players=1, minions=0)
    client.force_login(mayor)
    made = client.post(f'{reverse("npc_new", args=[session.campaign_id])}?next={away}', NPC)
    assert made.url == Character.objects.get(name="Bandido 3").get_absolute_url()
