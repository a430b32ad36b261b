"""The character sheet, its print view, who may see and edit what (404 outside the campaign), the
Mayor's NPC and minion form (FR-CHAR-6), the live topic, and the campaign's equipment catalogue
(FR-CHAR-5)."""

import re

import pytest
from django.urls import reverse

from frontera.campaigns.services import campaign_add_player
from frontera.characters import services
from frontera.characters.models import CatalogueItem, Character, CharacterEvent
from frontera.live import topics
from frontera.rules import characters as rules
from tests.factories import make_campaign, make_character, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    player = make_user("judit")
    other = make_user("otro")
    campaign = make_campaign(players=[player, other])
    character = make_character(campaign, player)
    return campaign, player, other, character


def item_post(item, **changes):
    """What the catalogue page's form for ``item`` posts, with ``changes`` (None = left blank/unticked)."""
    from frontera.characters.forms import CatalogueItemForm

    form = CatalogueItemForm(item=item, prefix=f"item{item.pk}")
    values = {name: form.initial.get(name) for name in form.fields}
    values.update(changes)
    data = {}
    for name, value in values.items():
        if name == "in_shop":
            if value:
                data[f"item{item.pk}-in_shop"] = "on"
        else:
            data[f"item{item.pk}-{name}"] = "" if value is None else str(value)
    return data


def sheet_url(character, name="character_sheet"):
    return reverse(name, args=[character.campaign_id, character.pk])


def test_sheet_shows_traits_with_suits_derived_values_and_money_FR_CHAR_1_FR_CHAR_4(client, table):
    campaign, player, _other, character = table
    client.force_login(player)
    page = client.get(sheet_url(character)).text
    for name, suit, score in (("Manos", "♠", 2), ("Sentidos", "♣", 4), ("Músculo", "♥", 3), ("Cabeza", "♦", 3)):
        assert re.search(rf"{suit}</span>\s*<span class=\"trait-name\">{name}</span> <strong class=\"trait-score\">{score}<", page)
    assert 'data-testid="sheet-aguante">7<' in page and 'data-testid="sheet-confianza">8<' in page
    assert 'data-testid="money">27 $<' in page


def test_sheet_shows_held_skills_with_their_cards_FR_CHAR_2(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    page = client.get(sheet_url(character)).text
    # Apuntar (Sentidos 4) + 2 = 6 cards; Pelea is not held
    assert re.search(r"Apuntar <small>\(Sentidos\)</small>\s*<span class=\"visually-hidden\">la tiene</span>\s*<small class=\"cards\">6 cartas", page)
    assert re.search(r'class="not-held">\s*<span aria-hidden="true">☐</span>\s*Pelea', page)


def test_sheet_says_what_the_equipment_adds_to_a_skill_FR_CHAR_5(client, table):
    """Lock picks add a card to Maña when counted (FR-CHAR-5): a walk read "Maña 7 cartas" on the sheet
    and saw a check draw 8 ("7 de la hoja, +1 del equipo")."""
    _campaign, player, _other, character = table
    sheet = dict(character.sheet)
    sheet["skills"] = [*sheet["skills"], "mana"]
    sheet["equipment"] = {**sheet["equipment"], "ganzuas": 1}
    type(character).objects.filter(pk=character.pk).update(sheet=sheet)
    client.force_login(player)
    page = client.get(sheet_url(character)).text
    assert re.search(r"Maña <small>\(Manos\)</small>\s*<span class=\"visually-hidden\">la tiene</span>\s*"
                     r"<small class=\"cards\">4 cartas \(\+1 con el equipo\)</small>", page)
    assert re.search(r"Apuntar <small>\(Sentidos\)</small>\s*<span class=\"visually-hidden\">la tiene</span>\s*"
                     r"<small class=\"cards\">6 cartas</small>", page)  # nothing carried helps it


def test_sheet_shows_weapons_with_damage_and_modifier_per_band_FR_CHAR_5(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    page = client.get(sheet_url(character)).text
    weapons = page[page.index('data-testid="weapons"'):]
    weapons = weapons[:weapons.index("</table>")]
    rifle = re.search(r"<th scope=\"row\">Rifle</th>(.*?)</tr>", weapons, re.S).group(1)
    assert re.findall(r'<td class="num[^"]*">(.*?)</td>', rifle) == ["−1", "±0", "±0", "±0", "+2"]
    revolver = re.search(r"<th scope=\"row\">Revólver</th>(.*?)</tr>", weapons, re.S).group(1)
    assert "no se puede usar" in revolver and "+1" in revolver  # no Largo for a revolver; damage 1


def test_sheet_shows_equipment_effects_FR_CHAR_5(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    page = client.get(sheet_url(character)).text
    gear = page[page.index('data-testid="gear"'):]
    assert "Ropa de trabajo" in gear and "+1 carta a Agilidad" in gear and "Caballo" in gear


def test_sheet_spells_out_the_track_penalties_FR_HLT_1_FR_MOR_1(client, table):
    campaign, _player, _other, character = table
    services.character_update(
        character=character, by=campaign.mayor, name="Clementine", description="", notes="", money=27,
        skills=character.sheet["skills"], equipment=character.sheet["equipment"], health=-1, morale=-2, sobriety=0,
        traits=character.sheet["traits"],
    )
    client.force_login(campaign.mayor)
    page = client.get(sheet_url(character)).text
    assert "Penalización en cada prueba: −3." in page
    assert "Salud: Herido" in page and "Moral: Aterrorizado" in page and "Penalización: −1 por prueba" in page


def test_sheet_says_when_a_character_cannot_act_FR_HLT_1(client, table):
    campaign, _player, _other, character = table
    services.character_update(
        character=character, by=campaign.mayor, name="Clementine", description="", notes="", money=27,
        skills=character.sheet["skills"], equipment=character.sheet["equipment"], health=-3, morale=0, sobriety=0,
        traits=character.sheet["traits"],
    )
    client.force_login(campaign.mayor)
    assert "No puede actuar: Incapacitado." in client.get(sheet_url(character)).text


def test_sheet_fragment_for_htmx_is_the_same_region(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    response = client.get(sheet_url(character) + "?fragment=sheet", HTTP_HX_REQUEST="true")
    assert response.text.lstrip().startswith('<article id="sheet"')
    assert "<html" not in response.text and "HX-Request" in response["Vary"]


def test_sheet_listens_to_its_live_topic(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    page = client.get(sheet_url(character)).text
    version = CharacterEvent.objects.filter(character=character).latest("pk").pk
    assert f'sse-connect="/live/sheet:{character.pk}/?since={version}"' in page
    assert 'hx-trigger="sse:changed"' in page


def test_live_topic_is_only_for_who_may_see_the_sheet(table):
    campaign, player, other, character = table
    topic = f"character:{character.pk}"
    assert topics.resolve(topic, player) == CharacterEvent.objects.latest("pk").pk
    assert topics.resolve(topic, other) is not None  # a fellow player sees protagonists
    assert topics.resolve(topic, make_user()) is None
    npc = services.npc_create(campaign=campaign, by=campaign.mayor, kind="npc", name="Sheriff",
                              traits={"manos": 3, "sentidos": 2, "musculo": 2, "cabeza": 1})
    assert topics.resolve(f"character:{npc.pk}", player) is None
    assert topics.resolve(f"character:{npc.pk}", campaign.mayor) is not None


def test_print_view_has_the_book_sheet_sections_FR_CHAR_1_FR_CHAR_2(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    page = client.get(sheet_url(character, "character_print")).text
    assert 'data-testid="print-sheet"' in page
    for text in ("Ady/Cor/Med/Lar", "Armas", "Mecánicas", "Exploración", "Herido", "Achispado", "Asustado",
                 "Dinero", "Notas", "Equipo", "Jugador"):
        assert text in page, text


def test_outsider_gets_404_on_every_character_url(client, table):
    campaign, _player, _other, character = table
    client.force_login(make_user())
    for name in ("character_sheet", "character_print", "character_edit"):
        assert client.get(sheet_url(character, name)).status_code == 404
    assert client.get(sheet_url(character) + "?fragment=sheet", HTTP_HX_REQUEST="true").status_code == 404
    assert client.post(sheet_url(character, "character_edit"), {"notes": "x", "money": 1}).status_code == 404
    for name in ("character_list", "npc_new", "character_catalogue"):
        assert client.get(reverse(name, args=[campaign.pk])).status_code == 404
    item = CatalogueItem.objects.filter(campaign=campaign).first()
    assert client.post(reverse("catalogue_item_edit", args=[campaign.pk, item.pk]), {}).status_code == 404


def test_a_character_under_another_campaign_url_is_404(client, table):
    _campaign, player, _other, character = table
    elsewhere = make_campaign(mayor=player)
    client.force_login(player)
    assert client.get(reverse("character_sheet", args=[elsewhere.pk, character.pk])).status_code == 404


def test_players_see_protagonists_but_not_the_mayors_npcs_FR_CHAR_6(client, table):
    campaign, player, other, character = table
    npc = services.npc_create(campaign=campaign, by=campaign.mayor, kind="npc", name="Sheriff",
                              traits={"manos": 3, "sentidos": 2, "musculo": 2, "cabeza": 1})
    client.force_login(other)
    assert client.get(sheet_url(character)).status_code == 200
    assert client.get(sheet_url(npc)).status_code == 404
    listing = client.get(reverse("character_list", args=[campaign.pk])).text
    assert "Clementine" in listing and "Sheriff" not in listing
    client.force_login(campaign.mayor)
    assert "Sheriff" in client.get(reverse("character_list", args=[campaign.pk])).text


def test_player_edits_only_notes_money_and_description(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    form = client.get(sheet_url(character, "character_edit")).text
    assert 'name="notes"' in form and 'name="money"' in form and 'name="manos"' not in form
    response = client.post(sheet_url(character, "character_edit"), {
        "description": "Nueva", "notes": "Debe 5 $ a Djamal", "money": "22", "manos": "9", "name": "Otra"})
    assert response.url == character.get_absolute_url()
    character.refresh_from_db()
    assert character.notes == "Debe 5 $ a Djamal" and character.sheet["money"] == 22
    assert character.name == "Clementine" and character.sheet["traits"]["manos"] == 2
    assert CharacterEvent.objects.filter(character=character, kind="notes").exists()


def test_player_may_carry_a_gambling_debt_FR_GMB_4(client, table):
    _campaign, player, _other, character = table
    client.force_login(player)
    client.post(sheet_url(character, "character_edit"), {"description": "", "notes": "", "money": "-12"})
    character.refresh_from_db()
    assert character.sheet["money"] == -12


def test_other_player_cannot_edit(client, table):
    _campaign, _player, other, character = table
    client.force_login(other)
    assert client.get(sheet_url(character, "character_edit")).status_code == 404
    assert client.post(sheet_url(character, "character_edit"), {"notes": "x", "money": 0}).status_code == 404
    character.refresh_from_db()
    assert character.notes == ""


def test_mayor_edits_the_whole_sheet_and_it_is_revalidated_FR_CHAR_6(client, table):
    campaign, _player, _other, character = table
    client.force_login(campaign.mayor)
    form = client.get(sheet_url(character, "character_edit")).text
    assert 'name="manos"' in form and 'name="health"' in form and 'name="qty_rifle"' in form
    data = {"name": "Clementine", "description": "", "notes": "", "money": "27", "manos": "3", "sentidos": "4",
            "musculo": "3", "cabeza": "3", "skills": ["apuntar", "agilidad", "astucia", "percepcion", "pelea"],
            "health": "-1", "morale": "0", "sobriety": "-1", "qty_revolver": "1", "qty_rifle": "1", "qty_caballo": "1"}
    response = client.post(sheet_url(character, "character_edit"), data)
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.sheet["traits"]["manos"] == 3 and "pelea" in character.sheet["skills"]
    assert character.sheet["tracks"] == {"health": -1, "morale": 0, "sobriety": -1}
    assert character.sheet["equipment"] == {"revolver": 1, "rifle": 1, "caballo": 1}
    assert CharacterEvent.objects.filter(character=character, kind="edited").exists()
    response = client.post(sheet_url(character, "character_edit"), {**data, "manos": "0"})
    assert response.status_code == 400
    assert "Manos debe ser un número entero de al menos 1, no 0." in response.text
    character.refresh_from_db()
    assert character.sheet["traits"]["manos"] == 3


def test_mayor_quick_npc_FR_CHAR_6(client, table):
    campaign, _player, _other, _character = table
    client.force_login(campaign.mayor)
    response = client.post(reverse("npc_new", args=[campaign.pk]), {
        "kind": "npc", "name": "Sheriff Brown", "manos": "4", "sentidos": "3", "musculo": "2", "cabeza": "2",
        "skills": ["disparo_rapido"], "money": "10", "qty_revolver": "1"})
    npc = Character.objects.get(name="Sheriff Brown")
    assert response.url == npc.get_absolute_url()
    assert npc.kind == "npc" and npc.owner == campaign.mayor
    assert npc.sheet["traits"]["manos"] == 4 and npc.sheet["equipment"] == {"revolver": 1}
    assert rules.Character.from_json(npc.sheet).aguante == 6


def test_mayor_quick_minion_with_flat_numbers_FR_CHAR_6(client, table):
    """The book's minions: 3 cards each, Aguante 5 (Confianza by ruling 7)."""
    campaign, _player, _other, _character = table
    client.force_login(campaign.mayor)
    response = client.post(reverse("npc_new", args=[campaign.pk]), {
        "kind": "minion", "name": "Esbirro 1", "cards_per_check": "3", "flat_aguante": "5", "money": "0"})
    minion = Character.objects.get(name="Esbirro 1")
    assert response.status_code == 302 and minion.kind == "minion"
    page = client.get(minion.get_absolute_url()).text
    assert "Esbirro: cartas por prueba fijas: 3" in page
    assert 'data-testid="sheet-aguante">5<' in page and 'data-testid="sheet-confianza">7<' in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "minion", "name": "E", "cards_per_check": "3", "money": "0"},
         "Un Esbirro necesita rasgos, o bien un número fijo de cartas por prueba y un Aguante fijo."),
        ({"kind": "npc", "name": "N", "cards_per_check": "3", "flat_aguante": "5", "money": "0"},
         "Solo los Esbirros pueden tener un número fijo de cartas y un Aguante fijo."),
        ({"kind": "npc", "name": "N", "manos": "2", "money": "0"},
         "Sentidos debe ser un número entero de al menos 1, no None."),
    ],
)
def test_quick_npc_violations_get_the_engine_message_and_save_nothing_FR_CHAR_6(client, table, data, message):
    campaign, _player, _other, _character = table
    client.force_login(campaign.mayor)
    response = client.post(reverse("npc_new", args=[campaign.pk]), data)
    assert response.status_code == 400
    assert message in response.text
    assert Character.objects.count() == 1


def test_players_cannot_use_the_quick_npc_form(client, table):
    campaign, player, _other, _character = table
    client.force_login(player)
    assert client.get(reverse("npc_new", args=[campaign.pk])).status_code == 404


# --- the catalogue (FR-CHAR-5) ----------------------------------------------------------------


def test_every_new_campaign_gets_the_books_catalogue_FR_CHAR_5(table):
    campaign, *_ = table
    items = {i.key: i for i in CatalogueItem.objects.filter(campaign=campaign)}
    assert set(items) == set(rules.catalogue())
    assert items["revolver"].damage == 1
    assert (items["rifle"].damage, items["rifle"].price) == (2, 20)
    assert items["arco"].damage == 1
    assert (items["ropa_de_trabajo"].price, items["ropa_de_trabajo"].bonus) == (3, {"agilidad": 1})
    assert items["material_de_curandero"].bonus == {"atencion_medica": 1}
    assert "knife_holster" in items["funda_de_cuchillos"].tags
    assert items["revolver"].range_adyacente == -1 and items["revolver"].range_largo is None
    assert items["sable"].range_corto is None and items["sable"].range_adyacente == 0


def test_catalogue_seed_is_idempotent_and_keeps_the_mayors_edits(table):
    campaign, *_ = table
    item = CatalogueItem.objects.get(campaign=campaign, key="cuerda")
    services.catalogue_item_update(item=item, by=campaign.mayor, name="Soga", notes="20 m", in_shop=False)
    assert services.catalogue_seed(campaign=campaign) == 0
    item.refresh_from_db()
    assert (item.name, item.notes, item.in_shop) == ("Soga", "20 m", False)


def test_catalogue_page_lists_figures_for_members_FR_CHAR_5(client, table):
    campaign, player, _other, _character = table
    client.force_login(player)
    page = client.get(reverse("character_catalogue", args=[campaign.pk])).text
    assert "Escopeta" in page and "15 $" in page and "Daño +2" in page
    assert "Editar" not in page


def test_mayor_edits_a_catalogue_entry_and_takes_it_off_the_shop_FR_CHAR_5(client, table):
    campaign, player, _other, _character = table
    item = CatalogueItem.objects.get(campaign=campaign, key="escopeta")
    client.force_login(campaign.mayor)
    page = client.get(reverse("character_catalogue", args=[campaign.pk])).text
    assert "Editar Escopeta" in page
    response = client.post(reverse("catalogue_item_edit", args=[campaign.pk, item.pk]),
                           item_post(item, name="Escopeta recortada", notes="Del barbero", in_shop=None),
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.text.lstrip().startswith(f'<li id="item-{item.pk}"')
    item.refresh_from_db()
    assert item.name == "Escopeta recortada" and not item.in_shop
    assert item.price == 15  # the figures were posted unchanged
    # no longer in the creation shop, and refused if posted anyway
    client.force_login(player)
    shop = client.get(reverse("character_wizard_step", args=[campaign.pk, "equipment"])).text
    assert "qty_escopeta" not in shop
    with pytest.raises(services.CharacterError, match="no está a la venta"):
        from django.utils import translation

        with translation.override("es"):
            make_character(campaign, player, name="X", purchases={"escopeta": 1})


def test_players_cannot_edit_the_catalogue(client, table):
    campaign, player, _other, _character = table
    item = CatalogueItem.objects.get(campaign=campaign, key="escopeta")
    client.force_login(player)
    response = client.post(reverse("catalogue_item_edit", args=[campaign.pk, item.pk]),
                           {f"item{item.pk}-name": "Mía", f"item{item.pk}-in_shop": "on"})
    assert response.status_code == 404
    item.refresh_from_db()
    assert item.name == "Escopeta"


def test_campaign_page_links_to_characters(client, table):
    campaign, player, _other, _character = table
    client.force_login(player)
    page = client.get(campaign.get_absolute_url()).text
    assert reverse("character_list", args=[campaign.pk]) in page


def test_new_campaign_member_sees_characters_list(client, table):
    campaign, *_ = table
    newcomer = make_user()
    campaign_add_player(campaign=campaign, user=newcomer)
    client.force_login(newcomer)
    assert client.get(reverse("character_list", args=[campaign.pk])).status_code == 200


def test_catalogue_edit_without_javascript(client, table):
    campaign, *_ = table
    item = CatalogueItem.objects.get(campaign=campaign, key="cuerda")
    client.force_login(campaign.mayor)
    url = reverse("catalogue_item_edit", args=[campaign.pk, item.pk])
    response = client.post(url, item_post(item, name=""))
    assert response.status_code == 400 and "Este campo es obligatorio." in response.text
    response = client.post(url, item_post(item, name="Soga"))
    assert response.url == reverse("character_catalogue", args=[campaign.pk]) + f"#item-{item.pk}"
    item.refresh_from_db()
    assert item.name == "Soga" and item.in_shop


def test_demo_seed_builds_demo_characters_once_FR_CHAR_3():
    from django.core.management import call_command

    call_command("demo_seed", stdout=open("/dev/null", "w"))
    call_command("demo_seed", stdout=open("/dev/null", "w"))
    characters = {c.name: c for c in Character.objects.all()}
    assert set(characters) == {"Clementine", "Djamal", "Policarpo", "Esbirro de los Hartley"}
    assert characters["Clementine"].sheet["money"] == 27
    assert characters["Djamal"].sheet["equipment"]["cuchillo"] == 10
    assert characters["Esbirro de los Hartley"].kind == "minion"


def test_a_change_in_play_bumps_the_sheets_live_version(table):
    """Sessions that change a sheet call character_changed_in_play: open sheets refetch."""
    campaign, _player, _other, character = table
    topic = f"character:{character.pk}"
    before = topics.current_version(topic)
    services.character_changed_in_play(character=character, by=campaign.mayor)
    assert topics.current_version(topic) > before


def test_notes_are_only_for_the_player_and_the_mayor(client, table):
    campaign, player, other, character = table
    services.character_update_notes(character=character, by=player, description="", notes="Escondí el oro en la mina",
                                    money=27)
    for user, sees in ((player, True), (campaign.mayor, True), (other, False)):
        client.force_login(user)
        for url in (sheet_url(character), sheet_url(character, "character_print")):
            assert ("Escondí el oro en la mina" in client.get(url).text) is sees, (user, url)
        fragment = client.get(sheet_url(character) + "?fragment=sheet", HTTP_HX_REQUEST="true").text
        assert ("Escondí el oro en la mina" in fragment) is sees


def test_mayor_edits_a_flat_minion_FR_CHAR_6(client, table):
    campaign, *_ = table
    minion = services.npc_create(campaign=campaign, by=campaign.mayor, kind="minion", name="Esbirro",
                                 cards_per_check=3, aguante=5)
    client.force_login(campaign.mayor)
    url = sheet_url(minion, "character_edit")
    assert 'name="cards_per_check"' in client.get(url).text
    response = client.post(url, {"name": "Esbirro", "money": "0", "cards_per_check": "4", "flat_aguante": "6",
                                 "health": "-2", "morale": "0", "sobriety": "0"})
    assert response.status_code == 302
    minion.refresh_from_db()
    assert (minion.sheet["cards_per_check"], minion.sheet["flat_aguante"]) == (4, 6)
    assert minion.sheet["tracks"]["health"] == -2


def test_protagonist_edit_has_no_flat_numbers_FR_CHAR_6(client, table):
    campaign, _player, _other, character = table
    client.force_login(campaign.mayor)
    assert 'name="cards_per_check"' not in client.get(sheet_url(character, "character_edit")).text
