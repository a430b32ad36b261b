"""A campaign's own equipment catalogue (FR-CHAR-5): the Mayor edits the figures (price, damage, the
modifier at each range band, bonus cards), the rules engine judges them, and the wizard, the $50,
the sheet and the print view use the campaign's figures. The campaign's feed announces new
characters and catalogue edits."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from frontera.campaigns.models import CampaignEvent
from frontera.characters import services
from frontera.characters.forms import CatalogueItemForm
from frontera.characters.models import CatalogueItem
from frontera.characters.selectors import campaign_catalogue
from frontera.rules import characters as rules
from tests.factories import make_campaign, make_character, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    player = make_user("judit")
    outsider = make_user("forastero")
    campaign = make_campaign(players=[player])
    make_user("nadie")
    return campaign, player, outsider


def catalogue_item(campaign, key):
    return CatalogueItem.objects.get(campaign=campaign, key=key)


def item_post(item, **changes):
    """What the catalogue page's form for ``item`` posts, with ``changes`` (None = blank/unticked)."""
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


def edit_url(item):
    return reverse("catalogue_item_edit", args=[item.campaign_id, item.pk])


def figures(item):
    item.refresh_from_db()
    return (item.price, item.damage, item.range_adyacente, item.range_corto, item.range_medio, item.range_largo,
            item.bonus)


# --- editing the figures ------------------------------------------------------------------------


def test_mayor_edits_a_weapons_figures_without_javascript_FR_CHAR_5(client, table):
    campaign, _player, _outsider = table
    rifle = catalogue_item(campaign, "rifle")
    client.force_login(campaign.mayor)
    page = client.get(reverse("character_catalogue", args=[campaign.pk])).text
    for name in ("price", "damage", "range_adyacente", "range_corto", "range_medio", "range_largo",
                 "bonus_check", "bonus_cards"):
        assert f'name="item{rifle.pk}-{name}"' in page
    response = client.post(edit_url(rifle), item_post(
        rifle, price=30, damage=3, range_adyacente=-2, range_corto=0, range_medio=1, range_largo="",
        bonus_check="apuntar", bonus_cards=1))
    assert response.status_code == 302
    assert response.url == reverse("character_catalogue", args=[campaign.pk]) + f"#item-{rifle.pk}"
    assert figures(rifle) == (30, 3, -2, 0, 1, None, {"apuntar": 1})
    page = client.get(reverse("character_catalogue", args=[campaign.pk])).text
    assert "30 $" in page and "Daño +3" in page and "+1 carta a Apuntar" in page
    assert CampaignEvent.objects.filter(campaign=campaign, kind="catalogue_edited", actor=campaign.mayor).count() == 1


def test_mayor_edits_gear_price_and_bonus_with_htmx_FR_CHAR_5(client, table):
    campaign, _player, _outsider = table
    clothes = catalogue_item(campaign, "ropa_de_trabajo")
    client.force_login(campaign.mayor)
    response = client.post(edit_url(clothes), item_post(clothes, price=4, bonus_cards=2), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.text.lstrip().startswith(f'<li id="item-{clothes.pk}"')
    assert "Guardado." in response.text and "+2 cartas a Agilidad" in response.text
    assert f'name="item{clothes.pk}-damage"' not in response.text  # gear has no damage or range
    assert figures(clothes) == (4, None, None, None, None, None, {"agilidad": 2})


def test_saving_unchanged_figures_logs_nothing(client, table):
    campaign, _player, _outsider = table
    rope = catalogue_item(campaign, "cuerda")
    client.force_login(campaign.mayor)
    assert client.post(edit_url(rope), item_post(rope)).status_code == 302
    assert not CampaignEvent.objects.filter(kind="catalogue_edited").exists()


def test_bonus_can_be_removed(client, table):
    campaign, _player, _outsider = table
    kit = catalogue_item(campaign, "material_de_curandero")
    client.force_login(campaign.mayor)
    client.post(edit_url(kit), item_post(kit, bonus_check="", bonus_cards=""))
    assert figures(kit)[-1] == {}


@pytest.mark.parametrize(
    ("key", "changes", "field", "message"),
    [
        ("rifle", {"price": -5}, "price",
         "El precio de Rifle debe ser un número entero de dólares, 0 o más, no -5."),
        ("rifle", {"damage": -1}, "damage", "El daño de Rifle debe ser un número entero, 0 o más, no -1."),
        ("rifle", {"range_corto": 8}, "range_corto",
         "El modificador de Rifle en Corto debe ser un número entero de −5 a +5"),
        ("rifle", {"range_adyacente": "", "range_corto": "", "range_medio": "", "range_largo": ""},
         "range_adyacente", "Rifle debe poderse usar al menos en una distancia."),
        ("rifle", {"range_corto": ""}, "range_corto", "Rifle llega a Largo, así que también debe poderse usar en Corto."),
        ("sable", {"range_corto": "0"}, "range_corto",
         "Sable es un arma cuerpo a cuerpo: solo se puede usar en Adyacente."),
        ("cuchillo", {"range_medio": "-1"}, "range_medio",
         "Cuchillo es un arma arrojadiza: llega como mucho a Corto, no a Medio."),
        ("ropa_de_trabajo", {"bonus_cards": 5}, "bonus_cards",
         "La bonificación de Ropa de trabajo a Agilidad debe ser un número entero de cartas de 1 a 3, no 5."),
        ("cuerda", {"bonus_cards": 1}, "bonus_check", "Elige la habilidad o acción a la que van las cartas extra."),
        ("rifle", {"price": "veinte"}, "price", "Introduce un número entero."),
        ("rifle", {"price": ""}, "price", "Este campo es obligatorio."),
    ],
)
def test_bad_figures_get_a_clear_spanish_message_at_the_field_and_change_nothing_FR_CHAR_5(
        client, table, key, changes, field, message):
    campaign, _player, _outsider = table
    item = catalogue_item(campaign, key)
    before = figures(item)
    client.force_login(campaign.mayor)
    response = client.post(edit_url(item), item_post(item, **changes))
    assert response.status_code == 400
    field_html = re.search(rf'<div class="field invalid">\s*<label for="id_item{item.pk}-{field}">.*?</div>',
                           response.text, re.S)
    assert field_html and message in field_html.group(0), response.text[:3000]
    assert figures(item) == before
    assert not CampaignEvent.objects.filter(kind="catalogue_edited").exists()
    # the same with htmx: the entry comes back open, with the message at its field
    response = client.post(edit_url(item), item_post(item, **changes), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and message in response.text and "<details class=\"item-edit\" open" in response.text
    assert figures(item) == before


def test_the_service_refuses_a_bad_entry_and_saves_nothing_FR_CHAR_5(table):
    campaign, _player, _outsider = table
    sable = catalogue_item(campaign, "sable")
    with pytest.raises(services.CharacterError) as err:
        services.catalogue_item_update(item=sable, by=campaign.mayor, name="Sable largo", notes="", in_shop=True,
                                       figures={"price": 20, "range": {"adyacente": 0, "corto": -1,
                                                                         "medio": None, "largo": None}})
    assert err.value.field == "range_corto"
    sable.refresh_from_db()
    assert (sable.name, sable.price, sable.range_corto) == ("Sable", 15, None)


def test_players_see_the_figures_read_only_and_cannot_post_FR_CHAR_5(client, table):
    campaign, player, _outsider = table
    rifle = catalogue_item(campaign, "rifle")
    client.force_login(player)
    page = client.get(reverse("character_catalogue", args=[campaign.pk])).text
    assert "20 $" in page and "Daño +2" in page
    assert "<form" not in page.split('data-testid="catalogue"')[1] and "<input" not in page.split('data-testid="catalogue"')[1]
    response = client.post(edit_url(rifle), item_post(rifle, price=1))
    assert response.status_code == 404
    assert figures(rifle)[0] == 20


def test_outsiders_get_404_and_change_nothing(client, table):
    campaign, _player, outsider = table
    rifle = catalogue_item(campaign, "rifle")
    client.force_login(outsider)
    assert client.get(reverse("character_catalogue", args=[campaign.pk])).status_code == 404
    assert client.post(edit_url(rifle), item_post(rifle, price=1)).status_code == 404
    assert client.post(edit_url(rifle), item_post(rifle, price=1), HTTP_HX_REQUEST="true").status_code == 404
    assert figures(rifle)[0] == 20


def test_an_item_of_another_campaign_is_404_for_a_mayor(client, table):
    campaign, _player, _outsider = table
    other = make_campaign(make_user("otro_alcalde"))
    foreign = catalogue_item(other, "rifle")
    client.force_login(campaign.mayor)
    url = reverse("catalogue_item_edit", args=[campaign.pk, foreign.pk])
    assert client.post(url, item_post(foreign, price=1)).status_code == 404
    assert figures(foreign)[0] == 20


# --- the campaign's figures everywhere --------------------------------------------------------


def _set(campaign, key, **figures_):
    item = catalogue_item(campaign, key)
    return services.catalogue_item_update(item=item, by=campaign.mayor, name=item.name, notes=item.notes,
                                          in_shop=item.in_shop, figures=figures_)


def test_campaign_catalogue_is_one_query_for_the_engine(table, django_assert_num_queries):
    campaign, _player, _outsider = table
    _set(campaign, "rifle", price=45)
    with django_assert_num_queries(1):
        entries = campaign_catalogue(campaign)
    assert rules.purchase_cost({"rifle": 1}, catalogue=entries) == 45
    assert set(entries) == set(rules.catalogue())
    for key, entry in entries.items():
        assert rules.check_catalogue_entry(entry)["price"] == entry["price"], key


def test_edited_price_sets_the_wizard_total_and_the_50_dollar_cap_FR_CHAR_3_FR_CHAR_5(client, table):
    campaign, player, _outsider = table
    _set(campaign, "rifle", price=45)
    client.force_login(player)
    url = reverse("character_wizard_step", args=[campaign.pk, "equipment"])
    page = client.get(url).text
    assert re.search(r'<label for="id_qty_rifle">Rifle</label>\s*<span class="price">45 \$</span>', page)
    response = client.post(url + "?preview=1", {"weapon": "revolver", "qty_rifle": "1", "qty_ropa_de_trabajo": "1"},
                           HTTP_HX_REQUEST="true")
    assert "Gastado 48 $ de 50 $: quedan 2 $" in response.text
    response = client.post(url, {"weapon": "revolver", "qty_rifle": "1", "qty_cuerda": "6"})
    assert response.status_code == 400
    assert "Estas compras cuestan 51 $; solo tienes 50 $ para gastar." in response.text
    character = make_character(campaign, player)  # Clementine: a rifle and work clothes
    assert character.sheet["money"] == 2
    with pytest.raises(services.CharacterError):
        make_character(campaign, player, name="Otra", purchases={"rifle": 2})


def test_cheaper_price_lets_a_player_buy_more_FR_CHAR_5(client, table):
    campaign, player, _outsider = table
    _set(campaign, "rifle", price=10)
    client.force_login(player)
    url = reverse("character_wizard_step", args=[campaign.pk, "equipment"])
    assert client.post(url, {"weapon": "revolver", "qty_rifle": "5"}).status_code == 302  # 5 × $10 = $50
    review = client.get(reverse("character_wizard_step", args=[campaign.pk, "review"])).text
    assert "Rifle ×5" in review


def test_edited_damage_bands_and_bonus_show_on_the_sheet_and_print_view_FR_CHAR_5(client, table):
    campaign, player, _outsider = table
    character = make_character(campaign, player)
    _set(campaign, "revolver", damage=2, range={"adyacente": 0, "corto": 1, "medio": 0, "largo": -2})
    _set(campaign, "ropa_de_trabajo", bonus={"agilidad": 2})
    client.force_login(player)
    page = client.get(character.get_absolute_url()).text
    weapons = page[page.index('data-testid="weapons"'):]
    revolver = re.search(r"<th scope=\"row\">Revólver</th>(.*?)</tr>", weapons, re.S).group(1)
    assert re.findall(r'<td class="num[^"]*">(.*?)</td>', revolver) == ["±0", "+1", "±0", "−2", "+2"]
    gear = page[page.index('data-testid="gear"'):]
    assert "+2 cartas a Agilidad" in gear[:gear.index("</ul>")]
    printed = client.get(reverse("character_print", args=[campaign.pk, character.pk])).text
    assert "+2 cartas a Agilidad" in printed and "−2" in printed


def test_sheet_query_count_does_not_grow_with_equipment_FR_CHAR_5(client, table):
    campaign, player, _outsider = table
    small = make_character(campaign, player, name="Poca", purchases={})
    big = make_character(campaign, player, name="Mucha", purchases={
        "rifle": 1, "ropa_de_trabajo": 1, "ganzuas": 1, "cuerda": 1, "arco": 1, "sable": 1})
    client.force_login(player)
    client.get(small.get_absolute_url())  # the user's row is read once, then kept (accounts/backends.py)
    counts = []
    for character in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(character.get_absolute_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- the campaign's activity feed -----------------------------------------------------------------


def test_a_new_protagonist_is_announced_on_the_campaign_feed(client, table):
    campaign, player, _outsider = table
    make_character(campaign, player)
    assert CampaignEvent.objects.filter(campaign=campaign, kind="character_created", actor=player).count() == 1
    client.force_login(player)
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).text
    assert "ha creado un personaje" in page
    # each line is the element of its event: a push's morph inserts the new line and keeps the
    # others (matched by place, the new line on top rewrote every line below, and the list is
    # aria-live: a screen reader heard them all again)
    event = CampaignEvent.objects.get(campaign=campaign, kind="character_created")
    assert f'<li id="activity-{event.pk}">' in page


def test_the_mayors_npcs_stay_off_the_feed_FR_CHAR_6(table):
    campaign, _player, _outsider = table
    make_character(campaign, campaign.mayor, name="El sheriff")  # the Mayor's own: an NPC
    services.npc_create(campaign=campaign, by=campaign.mayor, kind="minion", name="Esbirro",
                        cards_per_check=3, aguante=5)
    assert not CampaignEvent.objects.filter(kind="character_created").exists()


def test_catalogue_edit_is_on_the_feed(client, table):
    campaign, player, _outsider = table
    _set(campaign, "rifle", price=25)
    client.force_login(player)
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).text
    assert "ha editado el catálogo de equipo" in page
