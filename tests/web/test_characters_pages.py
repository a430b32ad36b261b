"""Every characters page and fragment: CSP nonces, nothing inline, htmx fallbacks (every hx-get /
hx-post has a plain href / action), Spanish by default and English complete."""

import re

import pytest
from django.urls import reverse

from frontera.characters import services
from tests.factories import make_campaign, make_character, make_user

pytestmark = pytest.mark.django_db


def _pages():
    player = make_user()
    campaign = make_campaign(players=[player])
    character = make_character(campaign, player)
    minion = services.npc_create(campaign=campaign, by=campaign.mayor, kind="minion", name="Esbirro",
                                 cards_per_check=3, aguante=5)
    steps = [reverse("character_wizard_step", args=[campaign.pk, s])
             for s in ("who", "skills", "traits", "extra", "equipment", "review")]
    pages = [(player, url) for url in steps] + [(campaign.mayor, url) for url in steps]
    pages += [
        (player, reverse("character_list", args=[campaign.pk])),
        (player, character.get_absolute_url()),
        (player, reverse("character_print", args=[campaign.pk, character.pk])),
        (player, reverse("character_edit", args=[campaign.pk, character.pk])),
        (player, reverse("character_catalogue", args=[campaign.pk])),
        (campaign.mayor, reverse("character_catalogue", args=[campaign.pk])),
        (campaign.mayor, reverse("npc_new", args=[campaign.pk])),
        (campaign.mayor, reverse("character_edit", args=[campaign.pk, character.pk])),
        (campaign.mayor, minion.get_absolute_url()),
        (campaign.mayor, reverse("character_print", args=[campaign.pk, minion.pk])),
    ]
    return pages


@pytest.mark.parametrize("language", ["es", "en"])
def test_character_pages_have_no_inline_code_and_plain_fallbacks(client, language):
    for user, url in _pages():
        client.force_login(user)
        client.post(reverse("set_language"), {"language": language, "next": "/"})
        response = client.get(url)
        assert response.status_code == 200, url
        nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
        html = response.text
        for tag in re.findall(r"<script\b[^>]*>", html) + re.findall(r"<style\b[^>]*>", html):
            assert f'nonce="{nonce}"' in tag, (url, tag)
        assert not re.search(r"\sstyle=", html), url
        assert not re.search(r"\son[a-z]+=", html), url
        for tag in re.findall(r"<a\b[^>]*hx-get[^>]*>", html):
            assert "href=" in tag, (url, tag)
        for tag in re.findall(r"<form\b[^>]*hx-post[^>]*>", html):
            assert "action=" in tag and 'method="post"' in tag, (url, tag)
        assert f'<html lang="{language}">' in html


def test_spanish_is_the_default_on_the_wizard(client):
    player = make_user()
    campaign = make_campaign(players=[player])
    client.force_login(player)
    page = client.get(reverse("character_wizard_step", args=[campaign.pk, "skills"])).text
    assert "Nuevo personaje" in page and "Paso 2 de 6: Habilidades" in page and "falta elegir" in page
