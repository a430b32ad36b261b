"""On a 390×844 phone: a player creates a character from scratch with the wizard (FR-CHAR-3), sees
Aguante and Confianza follow the traits live (FR-CHAR-4) and the shop's running total refuse more
than $50, goes back two steps and changes a skill, finishes and reads the sheet, which then updates
live when the Mayor edits it. axe-core on every step and the sheet. A second pass uses the keyboard
only."""

import re

from tests.browser.conftest import SCREENSHOTS, assert_accessible, shot

PASSWORD = "clave-de-prueba-larga-1"

SETUP = """
from frontera.accounts.services import user_create
from frontera.campaigns.services import campaign_add_player, campaign_create
mayor = user_create(username="{prefix}-alcalde", email="{prefix}a@example.com", password="{password}")
players = [user_create(username="{prefix}-" + name, email="{prefix}" + name + "@example.com", password="{password}")
           for name in ("judit", "teclado")]
campaign = campaign_create(mayor=mayor, name="{prefix} Black Rock")
for player in players:
    campaign_add_player(campaign=campaign, user=player)
"""


def setup_table(app_server, prefix: str) -> None:
    app_server.manage("shell", "-c", SETUP.format(prefix=prefix, password=PASSWORD))


def log_in(page, username: str) -> None:
    page.goto("/cuentas/entrar/")
    page.get_by_label("Nombre de usuario").fill(username)
    page.get_by_label("Contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    page.wait_for_url("**/campanas/")


def open_wizard(page, campaign: str) -> None:
    page.get_by_role("link", name=campaign).click()
    page.wait_for_url(re.compile(r".*/campanas/\d+/$"))
    page.get_by_role("link", name="Crear un personaje").click()
    page.wait_for_url(re.compile(r".*/personajes/nuevo/who/$"))


def step_ready(page, step: str) -> None:
    """Wait until the step is in place and htmx has bound its triggers. htmx binds a swapped-in
    step at its settle, 20 ms after the swap, and takes its class `htmx-added` off then: a field
    typed into before that sends no live preview (a person is not that fast; Playwright can be)."""
    page.wait_for_url(re.compile(rf".*/personajes/nuevo/{step}/$"))
    page.locator(f'#wizard[data-step="{step}"]:not(.htmx-added)').wait_for()


def refused(page, step: str, error: str) -> None:
    """After "Save and continue" was refused: the step came back with ``error`` above the form (the
    live status box may say the same before the answer comes), and htmx has bound it again."""
    page.locator("#form-errors").get_by_text(error).wait_for()
    step_ready(page, step)


def next_step(page, step: str) -> None:
    page.get_by_role("button", name="Guardar y seguir").click()
    step_ready(page, step)


def test_create_a_character_on_a_phone_go_back_and_see_the_sheet_live_FR_CHAR_3_FR_CHAR_4(phone, app_server):
    setup_table(app_server, "w6a")
    page = phone()
    log_in(page, "w6a-judit")
    open_wizard(page, "w6a Black Rock")

    # 1. Who
    assert page.get_by_test_id("step-skills").get_by_text("falta elegir").is_visible()
    shot(page, "wizard-01-who")
    assert_accessible(page, "wizard-who")
    page.get_by_label("Nombre").fill("Clementine")
    page.get_by_label("Descripción").fill("Pistolera de Black Rock, rápida y callada.")
    page.evaluate("window.__notReloaded = true")
    next_step(page, "skills")
    assert page.evaluate("window.__notReloaded") is True  # htmx swapped the step in place
    assert page.get_by_test_id("step-who").get_by_text("hecho").count() == 1

    # 2. Skills: one from each group
    page.get_by_label("Pelea").check()
    page.get_by_label("Agilidad").check()
    page.get_by_label("Astucia").check()
    # the status box and the step list follow live (the draft is saved as you go)
    page.get_by_test_id("status").get_by_text("Este paso está completo.").wait_for()
    page.get_by_test_id("step-skills").get_by_text("hecho").wait_for()
    shot(page, "wizard-02-skills")
    assert_accessible(page, "wizard-skills")
    next_step(page, "traits")

    # 3. Traits: live Aguante and Confianza
    page.get_by_label("Músculo").fill("2")
    page.get_by_test_id("aguante").filter(has_text="7").wait_for()
    page.get_by_label("Sentidos").fill("3")
    page.get_by_test_id("confianza").filter(has_text="8").wait_for()
    page.get_by_label("Manos").fill("1")
    page.get_by_label("Cabeza").fill("3")  # 9 points: refused
    page.get_by_test_id("points-left").filter(has_text="-1").wait_for()
    page.get_by_role("button", name="Guardar y seguir").click()
    refused(page, "traits", "Reparte exactamente 8 puntos entre los rasgos; has repartido 9.")
    shot(page, "wizard-03-traits-error")
    page.get_by_label("Cabeza").fill("2")
    page.get_by_test_id("points-left").filter(has_text="0").wait_for()
    shot(page, "wizard-03-traits")
    assert_accessible(page, "wizard-traits")
    next_step(page, "extra")

    # 4. One more skill
    assert page.get_by_label("Astucia").is_disabled()
    page.get_by_label("Percepción").check()
    page.get_by_test_id("status").get_by_text("Este paso está completo.").wait_for()
    shot(page, "wizard-04-extra")
    assert_accessible(page, "wizard-extra")
    next_step(page, "equipment")

    # 5. Equipment: a running total that cannot pass $50
    page.get_by_label("Un revólver").check()
    page.get_by_label("Rifle").fill("3")
    page.get_by_test_id("running-total").filter(has_text="Gastado 60 $").wait_for()
    page.get_by_role("button", name="Guardar y seguir").click()
    refused(page, "equipment", "Estas compras cuestan 60 $; solo tienes 50 $ para gastar.")
    shot(page, "wizard-05-equipment-over")
    page.get_by_label("Rifle").fill("1")
    page.get_by_label("Ropa de trabajo").fill("1")
    page.get_by_test_id("running-total").filter(has_text="Gastado 23 $ de 50 $: quedan 27 $").wait_for()
    shot(page, "wizard-05-equipment")
    assert_accessible(page, "wizard-equipment")
    next_step(page, "review")
    shot(page, "wizard-06-review")
    assert_accessible(page, "wizard-review")
    assert "Pelea, Agilidad, Astucia, Percepción" in page.locator(".review").inner_text()

    # Back two steps and change a skill: nothing else is lost
    page.get_by_role("button", name="Atrás").click()
    step_ready(page, "equipment")
    assert page.get_by_label("Rifle").input_value() == "1"
    page.get_by_role("button", name="Atrás").click()
    step_ready(page, "extra")
    assert page.get_by_label("Percepción").is_checked()
    page.get_by_label("Labia").check()
    next_step(page, "equipment")
    assert page.get_by_label("Ropa de trabajo").input_value() == "1"
    next_step(page, "review")
    assert "Pelea, Agilidad, Astucia, Labia" in page.locator(".review").inner_text()

    # Create and read the sheet
    page.get_by_role("button", name="Crear el personaje").click()
    page.wait_for_url(re.compile(r".*/personajes/\d+/$"))
    sheet = page.get_by_test_id("sheet")
    assert page.get_by_test_id("sheet-aguante").inner_text() == "7"
    assert page.get_by_test_id("sheet-confianza").inner_text() == "8"
    assert page.get_by_test_id("money").inner_text() == "27 $"
    assert "Rifle" in page.get_by_test_id("weapons").inner_text()
    assert "Labia" in sheet.inner_text()
    shot(page, "sheet-01-phone")
    assert_accessible(page, "sheet")
    sheet_url = page.url

    # The Mayor edits the sheet; the player's phone updates by itself
    page.evaluate("window.__notReloaded = true")
    mayor = phone()
    log_in(mayor, "w6a-alcalde")
    mayor.goto(sheet_url + "editar/")
    mayor.get_by_label("Notas").fill("Le debe un favor al sheriff.")
    mayor.get_by_label("Salud").select_option(label="Herido")
    mayor.get_by_role("button", name="Guardar").click()
    mayor.wait_for_url(sheet_url)
    page.get_by_test_id("notes").get_by_text("Le debe un favor al sheriff.").wait_for(timeout=5_000)
    assert "Penalización en cada prueba: −1." in page.get_by_test_id("penalty").inner_text()
    assert page.evaluate("window.__notReloaded") is True
    shot(page, "sheet-02-live-update")

    # The print view fits one A4 page
    page.goto(sheet_url + "imprimir/")
    shot(page, "sheet-03-print-phone")
    assert_accessible(page, "sheet-print")
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    shot(page, "sheet-04-print-a4")
    pdf = page.pdf(format="A4", print_background=True)
    (SCREENSHOTS / "sheet-print.pdf").write_bytes(pdf)
    assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 1

    # Comfortable on a laptop too
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(sheet_url)
    shot(page, "sheet-06-laptop")


def tab_to(page, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``selector`` (keyboard only)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def keyboard_next(page, step: str) -> None:
    tab_to(page, 'button[value="next"]')
    page.keyboard.press("Enter")
    step_ready(page, step)
    # focus moves to the new step's heading, so the next Tab starts there
    for _ in range(50):  # (wait_for_function would need 'unsafe-eval', which the CSP forbids)
        if page.evaluate("document.activeElement && document.activeElement.id") == "wizard-title":
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("focus did not move to the new step's heading")


def test_keyboard_only_pass_through_the_wizard_FR_CHAR_3(phone, app_server):
    setup_table(app_server, "w6k")
    page = phone()
    log_in(page, "w6k-teclado")
    page.get_by_role("link", name="w6k Black Rock").click()
    page.wait_for_url(re.compile(r".*/campanas/\d+/$"))
    tab_to(page, 'a[href$="/personajes/nuevo/"]')
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/nuevo/who/$"))

    tab_to(page, "#id_name")
    page.keyboard.type("Djamal")
    keyboard_next(page, "skills")

    for group in ("armas", "mecanicas", "exploracion"):  # Tab into each group, Space picks its first skill
        tab_to(page, f'input[name="{group}"]')
        page.keyboard.press("Space")
    page.keyboard.press("ArrowDown")  # Exploración: Percepción → Saber
    assert page.locator("#id_exploracion_saber").is_checked()
    keyboard_next(page, "traits")

    for trait, points in (("manos", "3"), ("sentidos", "2"), ("musculo", "2"), ("cabeza", "1")):
        tab_to(page, f"#id_{trait}")
        page.keyboard.type(points)
    page.get_by_test_id("aguante").filter(has_text="7").wait_for()
    shot(page, "wizard-keyboard-traits")
    keyboard_next(page, "extra")

    tab_to(page, 'input[name="extra"]')  # Pelea is held, so the first one enabled: Disparo rápido
    page.keyboard.press("Space")
    assert page.locator("#id_extra_disparo_rapido").is_checked()
    keyboard_next(page, "equipment")

    tab_to(page, 'input[name="weapon"]')
    page.keyboard.press("Space")
    tab_to(page, "#id_qty_material_de_curandero")
    page.keyboard.type("1")
    keyboard_next(page, "review")

    tab_to(page, 'button[value="create"]')
    shot(page, "wizard-keyboard-review")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*/personajes/\d+/$"))
    assert page.get_by_test_id("sheet-aguante").inner_text() == "7"
    assert page.get_by_test_id("money").inner_text() == "45 $"
    assert "Material de curandero" in page.get_by_test_id("gear").inner_text()


def test_mayor_catalogue_and_quick_minion_on_a_phone_FR_CHAR_5_FR_CHAR_6(phone, app_server):
    """The Mayor edits the campaign's catalogue (FR-CHAR-5) and adds the book's minion (FR-CHAR-6)."""
    setup_table(app_server, "w6m")
    page = phone()
    log_in(page, "w6m-alcalde")
    page.get_by_role("link", name="w6m Black Rock").click()
    page.get_by_test_id("characters-link").click()
    page.wait_for_url(re.compile(r".*/personajes/$"))
    shot(page, "characters-list")
    assert_accessible(page, "characters-list")
    page.get_by_role("link", name="Catálogo de equipo").click()
    page.wait_for_url(re.compile(r".*/equipo/$"))
    shot(page, "catalogue-01-mayor")
    assert_accessible(page, "catalogue")
    item = page.locator(".catalogue-item").filter(has_text="Escopeta")
    item.get_by_text("Editar Escopeta").click()
    item.get_by_label("Notas en español").fill("Solo en la armería de Black Rock.")
    item.get_by_label("A la venta al crear personajes").uncheck()
    item.get_by_role("button", name="Guardar").click()
    page.locator(".catalogue-item.off-shop").filter(has_text="Escopeta").get_by_text("Guardado.").wait_for()
    assert "no se vende al crear personajes" in page.locator(".catalogue-item").filter(has_text="Escopeta").inner_text()

    page.goto(page.url.replace("equipo/", "personajes/pnj/"))
    assert_accessible(page, "npc-form")
    page.get_by_label("Tipo").select_option("minion")
    page.get_by_label("Nombre").fill("Esbirro de Black Rock")
    page.get_by_label("Cartas por prueba (esbirro)").fill("3")
    page.get_by_label("Aguante (esbirro)").fill("5")
    shot(page, "npc-form")
    page.get_by_role("button", name="Añadir a la campaña").click()
    page.wait_for_url(re.compile(r".*/personajes/\d+/$"))
    assert page.get_by_test_id("sheet-aguante").inner_text() == "5"
    assert "Esbirro: cartas por prueba fijas: 3" in page.get_by_test_id("flat").inner_text()
    shot(page, "sheet-05-minion")
    assert_accessible(page, "sheet-minion")

    # The Mayor's wizard on a laptop: who plays it (or nobody: an NPC)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(page.url.rsplit("/personajes/", 1)[0] + "/personajes/nuevo/who/")
    assert "Nadie: un PNJ del Mayor" in page.get_by_label("Jugador").inner_text()
    shot(page, "wizard-07-mayor-laptop")
    assert_accessible(page, "wizard-mayor")


def test_mayor_edits_figures_on_a_phone_and_the_player_shop_uses_them_FR_CHAR_5(phone, app_server):
    """The Mayor changes the rifle's price and range modifiers in place (htmx); a bad modifier gets
    the engine's Spanish message at its field and changes nothing; the player's shop then totals
    with the new price against the $50 (FR-CHAR-3)."""
    setup_table(app_server, "w6f")
    mayor = phone()
    log_in(mayor, "w6f-alcalde")
    mayor.get_by_role("link", name="w6f Black Rock").click()
    mayor.get_by_test_id("characters-link").click()
    mayor.get_by_role("link", name="Catálogo de equipo").click()
    mayor.wait_for_url(re.compile(r".*/equipo/$"))
    rifle = mayor.get_by_test_id("item-rifle")
    rifle.get_by_text("Editar Rifle").click()
    rifle.get_by_label("Precio ($)").fill("45")
    rifle.get_by_label("Corto").fill("9")
    rifle.get_by_role("button", name="Guardar").click()
    error = mayor.get_by_test_id("item-rifle").locator(".field.invalid .error")
    error.filter(has_text="El modificador de Rifle en Corto debe ser un número entero de −5 a +5").wait_for()
    assert mayor.get_by_test_id("item-rifle").get_by_test_id("price").inner_text() == "20 $"  # nothing changed
    shot(mayor, "catalogue-02-bad-modifier")
    assert_accessible(mayor, "catalogue-bad-modifier")
    rifle = mayor.get_by_test_id("item-rifle")
    rifle.get_by_label("Corto").fill("0")
    rifle.get_by_label("Largo").fill("")
    rifle.get_by_role("button", name="Guardar").click()
    mayor.get_by_test_id("item-rifle").get_by_text("Guardado.").wait_for()
    rifle = mayor.get_by_test_id("item-rifle")
    assert rifle.get_by_test_id("price").inner_text() == "45 $"
    assert re.search(r"Lar\s*—", rifle.get_by_test_id("weapon-figures").inner_text())
    shot(mayor, "catalogue-03-saved")

    player = phone()
    log_in(player, "w6f-judit")
    player.goto(mayor.url.replace("equipo/", "personajes/nuevo/equipment/"))
    player.locator('#wizard[data-step="equipment"]').wait_for()
    player.get_by_label("Un revólver").check()
    player.get_by_label("Rifle").fill("1")
    player.get_by_label("Ropa de trabajo").fill("1")
    player.get_by_test_id("running-total").filter(has_text="Gastado 48 $ de 50 $: quedan 2 $").wait_for()
    player.get_by_label("Cuerda").fill("3")
    player.get_by_test_id("running-total").filter(has_text="Gastado 51 $").wait_for()
    shot(player, "wizard-08-edited-prices")
