"""On a phone: a new user signs up, creates a campaign and an invite; a second person joins through
the link in another browser context; the first sees them appear live, without reloading."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import assert_accessible, shot
from tests.browser.test_live_region_pushes import WATCH_INDICATOR

PASSWORD = "clave-de-prueba-larga-1"


def sign_up(page, username: str) -> None:
    page.get_by_label("Nombre de usuario").fill(username)
    page.get_by_label("Correo electrónico").fill(f"{username}@example.com")
    page.get_by_label("Contraseña", exact=True).fill(PASSWORD)
    page.get_by_label("Contraseña (confirmación)").fill(PASSWORD)
    page.get_by_role("button", name="Registrarse").click()


def new_campaign(page, username: str, name: str) -> None:
    """Sign ``username`` up and make the campaign ``name``: the page ends on the campaign's page."""
    page.goto("/cuentas/registro/")
    sign_up(page, username)
    page.wait_for_url("**/campanas/")
    page.get_by_label("Nombre", exact=True).fill(name)
    page.get_by_role("button", name="Crear campaña").click()
    page.wait_for_url(re.compile(r".*/campanas/\d+/$"))


def test_signup_create_invite_join_and_see_it_live(phone):
    mayor = phone()
    mayor.goto("/cuentas/entrar/")
    shot(mayor, "01-login")
    assert_accessible(mayor, "login")

    new_campaign(mayor, "alcaldesa", "El oro de Black Rock")
    mayor.goto("/campanas/")
    shot(mayor, "02-campaign-list")
    assert_accessible(mayor, "campaign-list")
    mayor.get_by_role("link", name="El oro de Black Rock").click()
    mayor.wait_for_url(re.compile(r".*/campanas/\d+/$"))

    mayor.get_by_role("button", name="Crear enlace de invitación").click()
    link = mayor.get_by_test_id("invite-link").input_value()
    assert "/invitacion/" in link
    # the link is shown once: a button copies it (a walk had to select it by hand on a phone)
    mayor.context.grant_permissions(["clipboard-read", "clipboard-write"])
    mayor.get_by_test_id("copy-invite").click()
    expect(mayor.get_by_test_id("copy-invite")).to_have_text("Copiado ✓")
    assert mayor.evaluate("navigator.clipboard.readText()") == link
    members = mayor.get_by_test_id("members")
    assert "alcaldesa" in members.inner_text() and "pistolero" not in members.inner_text()
    shot(mayor, "03-campaign-with-invite")
    assert_accessible(mayor, "campaign")
    mayor.evaluate("window.__notReloaded = true")

    player = phone()
    player.goto(link)
    player.get_by_role("link", name="Crear una cuenta").click()
    sign_up(player, "pistolero")
    player.wait_for_url("**/invitacion/**")
    shot(player, "04-invite-page")
    player.get_by_role("button", name="Unirse a la campaña").click()
    player.wait_for_url(re.compile(r".*/campanas/\d+/$"))
    shot(player, "05-player-campaign")

    # The Mayor's page updates by itself (SSE → htmx refetch), no reload.
    mayor.get_by_test_id("members").get_by_text("pistolero").wait_for(timeout=5_000)
    assert mayor.evaluate("window.__notReloaded") is True
    shot(mayor, "06-mayor-sees-player-live")


def test_a_player_joining_shows_live_on_the_campaign_page_without_the_loading_pill(phone):
    """Issue #11: the campaign page's regions (the table, the latest activity) refetch at a push as
    their own indicators: somebody else's change shows no "Loading…" pill, the Mayor's own invite
    does."""
    mayor = phone()
    new_campaign(mayor, "alcalde_pildora", "La píldora")
    mayor.wait_for_timeout(500)  # the SSE stream is open
    mayor.evaluate(WATCH_INDICATOR)
    mayor.get_by_role("button", name="Crear enlace de invitación").click()
    link = mayor.get_by_test_id("invite-link").input_value()
    assert mayor.evaluate("() => window.__indicatorShown") is True  # the Mayor's own request
    mayor.wait_for_timeout(300)  # the invite's own push has come and gone
    mayor.evaluate(WATCH_INDICATOR)

    player = phone()
    player.goto(link)
    player.get_by_role("link", name="Crear una cuenta").click()
    sign_up(player, "jugadora_pildora")
    player.wait_for_url("**/invitacion/**")
    player.get_by_role("button", name="Unirse a la campaña").click()
    player.wait_for_url(re.compile(r".*/campanas/\d+/$"))

    mayor.get_by_test_id("members").get_by_text("jugadora_pildora").wait_for(timeout=5_000)
    mayor.wait_for_timeout(200)
    assert mayor.evaluate("() => window.__indicatorShown") is False
