"""The character creation wizard (FR-CHAR-1..5): every step, every violation of FR-CHAR-3 with its
message in the step where it happens, drafts that survive, htmx partials, and nothing saved
half-valid."""

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.characters.forms import TraitsForm
from frontera.characters.models import Character, CharacterDraft, CharacterEvent
from frontera.characters.wizard import traits_preview
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db

CLEMENTINE = {
    "who": {"name": "Clementine", "description": "Pistolera de Black Rock"},
    "skills": {"armas": "apuntar", "mecanicas": "agilidad", "exploracion": "astucia"},
    "traits": {"manos": "1", "sentidos": "3", "musculo": "2", "cabeza": "2"},
    "extra": {"extra": "percepcion"},
    "equipment": {"weapon": "revolver", "qty_rifle": "1", "qty_ropa_de_trabajo": "1"},
}


@pytest.fixture
def table():
    player = make_user("judit")
    campaign = make_campaign(players=[player])
    return campaign, player


def url(campaign, step):
    return reverse("character_wizard_step", args=[campaign.pk, step])


def post(client, campaign, step, data, **extra):
    return client.post(url(campaign, step), data, **extra)


def fill(client, campaign, steps=("who", "skills", "traits", "extra", "equipment"), data=CLEMENTINE):
    for step in steps:
        response = post(client, campaign, step, data[step])
        assert response.status_code == 302, (step, response.content[:2000])
    return response


def test_full_wizard_creates_clementine_FR_CHAR_3_FR_CHAR_4(client, table):
    """The book's example, step by step: Aguante 7, Confianza 8, $27 left after a rifle and work clothes."""
    campaign, player = table
    client.force_login(player)
    response = client.get(reverse("character_wizard", args=[campaign.pk]))
    assert response.url == url(campaign, "who")
    response = fill(client, campaign)
    assert response.url == url(campaign, "review")
    review = client.get(url(campaign, "review"))
    assert review.status_code == 200
    assert "Clementine" in review.text and "Percepción" in review.text
    response = post(client, campaign, "review", {"_action": "create"})
    character = Character.objects.get()
    assert response.url == character.get_absolute_url()
    assert character.owner == player and character.kind == "protagonist"
    sheet = character.sheet
    assert sheet["traits"] == {"manos": 2, "sentidos": 4, "musculo": 3, "cabeza": 3}
    assert sheet["skills"] == ["apuntar", "agilidad", "astucia", "percepcion"]
    assert sheet["equipment"] == {"caballo": 1, "revolver": 1, "rifle": 1, "ropa_de_trabajo": 1}
    assert sheet["money"] == 27
    assert character.description == "Pistolera de Black Rock"
    assert not CharacterDraft.objects.exists()
    assert CharacterEvent.objects.filter(character=character, kind="created").count() == 1
    page = client.get(character.get_absolute_url()).text
    assert 'data-testid="sheet-aguante">7<' in page and 'data-testid="sheet-confianza">8<' in page


def test_ten_knives_instead_of_a_revolver_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    data = {**CLEMENTINE, "equipment": {"weapon": "cuchillos", "qty_funda_de_cuchillos": "1"}}
    fill(client, campaign, data=data)
    post(client, campaign, "review", {"_action": "create"})
    sheet = Character.objects.get().sheet
    assert sheet["equipment"] == {"caballo": 1, "cuchillo": 10, "funda_de_cuchillos": 1}
    assert sheet["money"] == 48


# --- every violation, in the step where it happens (FR-CHAR-3) -------------------------------


def test_who_step_needs_a_name(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "who", {"name": "   ", "description": ""})
    assert response.status_code == 400
    assert "Ponle un nombre al personaje." in response.text


def test_skills_step_needs_one_skill_from_each_group_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "skills", {"armas": "pelea", "exploracion": "labia"})
    assert response.status_code == 400
    assert "Elige una habilidad del grupo Mecánicas." in response.text


def test_skills_step_says_every_empty_group_at_once_FR_CHAR_3(client, table):
    """A walk found one group named per submit ("Falta: Elige una habilidad del grupo Armas." with
    all three empty), so each submit showed the next gap."""
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "skills", {})
    assert response.status_code == 400
    for group in ("Armas", "Mecánicas", "Exploración"):
        assert f"Elige una habilidad del grupo {group}." in response.text, group
    assert not CharacterDraft.objects.get().data.get("skills", {}).get("armas")


def test_skills_step_refuses_two_skills_of_one_group_FR_CHAR_3(client, table):
    """A tampered form that puts a Mecánicas skill in the Armas slot gets the engine's message."""
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "skills", {"armas": "agilidad", "mecanicas": "fuerza", "exploracion": "labia"})
    assert response.status_code == 400
    assert "Elige solo una habilidad del grupo Mecánicas, no Agilidad y Fuerza." in response.text


def test_skills_step_refuses_an_unknown_skill_FR_CHAR_2(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "skills", {"armas": "nadar", "mecanicas": "fuerza", "exploracion": "labia"})
    assert response.status_code == 400
    assert "nadar no es una de las disponibles" in response.text  # Django's message, said with tú
    assert CharacterDraft.objects.get().data["skills"]["mecanicas"] == "fuerza"  # kept for coming back


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"manos": "1", "sentidos": "3", "musculo": "2", "cabeza": "1"}, "Reparte exactamente 8 puntos entre los rasgos; has repartido 7."),
        ({"manos": "5", "sentidos": "3", "musculo": "2", "cabeza": "1"}, "Reparte exactamente 8 puntos entre los rasgos; has repartido 11."),
        ({"manos": "-1", "sentidos": "5", "musculo": "2", "cabeza": "2"}, "No puedes quitarle puntos a Manos."),
    ],
)
def test_traits_step_spreads_exactly_8_points_FR_CHAR_1_FR_CHAR_3(client, table, points, message):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "traits", points)
    assert response.status_code == 400
    assert message in response.text


def test_traits_step_allows_a_9_with_no_other_cap_FR_CHAR_3(client, table):
    """RULING: no per-trait cap beyond what 8 points allow (max 9)."""
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "traits", {"manos": "8", "sentidos": "0", "musculo": "0", "cabeza": "0"})
    assert response.status_code == 302
    page = client.get(url(campaign, "traits")).text
    assert 'data-testid="confianza">13<' in page and 'data-testid="aguante">5<' in page


def test_traits_preview_shows_live_aguante_and_confianza_FR_CHAR_4(client, table):
    """htmx preview while typing: points left, Aguante = Músculo + 4, Confianza = highest + 4."""
    campaign, player = table
    client.force_login(player)
    response = client.post(url(campaign, "traits") + "?preview=1", {"manos": "0", "sentidos": "0", "musculo": "4", "cabeza": "0"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="status"')
    assert 'data-testid="aguante">9<' in response.text and 'data-testid="confianza">9<' in response.text
    assert "Puntos por repartir: 4" in response.text
    assert 'id="steps" class="steps" aria-label' in response.text and 'hx-swap-oob="true"' in response.text
    # the preview saved the draft: coming back shows what was typed
    assert CharacterDraft.objects.get().data["traits"]["musculo"] == "4"


def test_traits_update_totals_button_works_without_javascript(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "traits", {"manos": "2", "sentidos": "0", "musculo": "2", "cabeza": "0",
                                                 "_action": "preview"})
    assert response.status_code == 200
    assert 'data-testid="aguante">7<' in response.text and "Puntos por repartir: 4" in response.text


def test_extra_skill_must_not_be_held_already_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    fill(client, campaign, steps=("skills",))
    response = post(client, campaign, "extra", {"extra": "astucia"})
    assert response.status_code == 400
    assert "Ya tienes Astucia; elige una habilidad que aún no tengas." in response.text


def test_extra_skill_is_required_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "extra", {})
    assert response.status_code == 400
    assert "Elige una habilidad más, de cualquier grupo." in response.text


def test_extra_skill_marks_held_skills_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    fill(client, campaign, steps=("skills",))
    page = client.get(url(campaign, "extra")).text
    assert 'value="astucia" id="id_extra_astucia" disabled' in page
    assert 'value="labia" id="id_extra_labia">' in page


def test_equipment_needs_a_revolver_or_knives_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "equipment", {"weapon": "", "qty_rifle": "1"})
    assert response.status_code == 400
    assert "Elige un revólver o 10 cuchillos para empezar." in response.text
    response = post(client, campaign, "equipment", {"weapon": "escopeta"})
    assert "Elige un revólver o 10 cuchillos para empezar." in response.text


def test_equipment_cannot_pass_50_dollars_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "equipment", {"weapon": "revolver", "qty_rifle": "2", "qty_escopeta": "1"})
    assert response.status_code == 400
    assert "Estas compras cuestan 55 $; solo tienes 50 $ para gastar." in response.text
    assert 'class="running-total over"' in response.text
    assert "Gastado 55 $ de 50 $: te pasas en 5 $" in response.text  # not "quedan -5 $"


def test_equipment_exactly_50_dollars_is_fine_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "equipment", {"weapon": "revolver", "qty_rifle": "2", "qty_revolver": "1"})
    assert response.status_code == 302


def test_equipment_running_total_preview_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    response = client.post(url(campaign, "equipment") + "?preview=1", {"weapon": "revolver", "qty_rifle": "1", "qty_cuerda": "3"},
                           HTTP_HX_REQUEST="true")
    assert "Gastado 23 $ de 50 $: quedan 27 $" in response.text


def test_equipment_refuses_negative_quantities_FR_CHAR_5(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "equipment", {"weapon": "revolver", "qty_rifle": "-1"})
    assert response.status_code == 400
    assert "no es una cantidad válida de Rifle" in response.text


def test_equipment_shows_weapon_figures_from_the_catalogue_FR_CHAR_5(client, table):
    campaign, player = table
    client.force_login(player)
    page = client.get(url(campaign, "equipment")).text
    assert "Rifle" in page and "20 $" in page
    assert "+1 carta a Agilidad" in page


def test_nothing_is_saved_half_valid_FR_CHAR_3(client, table):
    """Creating with a step still wrong saves no character and says which steps need a choice."""
    campaign, player = table
    client.force_login(player)
    fill(client, campaign, steps=("who", "skills", "extra", "equipment"))
    post(client, campaign, "traits", {"manos": "1"})
    response = post(client, campaign, "review", {"_action": "create"})
    assert response.status_code == 400
    assert not Character.objects.exists()
    assert "Algunos pasos aún necesitan una elección" in response.text
    assert CharacterDraft.objects.exists()


def test_going_back_and_changing_a_skill_keeps_everything_else_FR_CHAR_3(client, table):
    """Revisiting a step loses nothing; a change that breaks a later step marks it "choice needed"."""
    campaign, player = table
    client.force_login(player)
    fill(client, campaign)
    response = post(client, campaign, "skills", {"armas": "pelea", "mecanicas": "agilidad", "exploracion": "percepcion"})
    assert response.url == url(campaign, "traits")
    traits_page = client.get(url(campaign, "traits")).text
    assert 'name="sentidos" value="3"' in traits_page
    extra_page = client.get(url(campaign, "extra")).text
    assert "Ya tienes Percepción; elige una habilidad que aún no tengas." in extra_page  # the status box
    post(client, campaign, "extra", {"extra": "labia"})
    post(client, campaign, "review", {"_action": "create"})
    assert Character.objects.get().sheet["skills"] == ["pelea", "agilidad", "percepcion", "labia"]


def test_back_button_saves_what_was_typed(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "traits", {"manos": "3", "_go": "skills"})
    assert response.url == url(campaign, "skills")
    assert 'name="manos" value="3"' in client.get(url(campaign, "traits")).text


def test_draft_survives_a_new_login(client, table):
    """The draft lives on the server: closing the browser (a new session) loses nothing."""
    campaign, player = table
    client.force_login(player)
    fill(client, campaign, steps=("who", "skills"))
    client.logout()
    client.force_login(player)
    response = client.get(reverse("character_wizard", args=[campaign.pk]))
    assert response.url == url(campaign, "traits")
    assert 'value="Clementine"' in client.get(url(campaign, "who")).text


def test_steps_say_what_is_still_needed_FR_CHAR_3(client, table):
    campaign, player = table
    client.force_login(player)
    fill(client, campaign, steps=("who",))
    page = client.get(url(campaign, "skills")).text
    assert page.count('class="badge need"') == 4  # skills, traits, extra, equipment
    assert "Elige una habilidad del grupo Armas." in page


def test_htmx_next_returns_the_next_step_partial_with_push_url(client, table):
    campaign, player = table
    client.force_login(player)
    response = post(client, campaign, "who", CLEMENTINE["who"], HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Push-Url"] == url(campaign, "skills")
    assert response.text.lstrip().startswith('<div id="wizard"')
    assert "<html" not in response.text
    assert "HX-Request" in response["Vary"]


def test_htmx_create_redirects_the_client_to_the_sheet(client, table):
    campaign, player = table
    client.force_login(player)
    fill(client, campaign)
    response = post(client, campaign, "review", {"_action": "create"}, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == Character.objects.get().get_absolute_url()


def test_discard_the_draft_asks_first(client, table):
    """Discarding loses every step's choices: the first press asks (a walk lost a finished draft to
    one tap on the button under "Create the character"); "No, keep it" keeps it; "Yes" discards it."""
    campaign, player = table
    client.force_login(player)
    fill(client, campaign, steps=("who",))
    asked = post(client, campaign, "review", {"_action": "discard"}, HTTP_ACCEPT_LANGUAGE="es")
    assert asked.status_code == 200 and 'data-testid="confirm-discard"' in asked.content.decode()
    assert "no se puede deshacer" in asked.content.decode()
    assert CharacterDraft.objects.exists()
    shown = post(client, campaign, "review", {"_action": "discard"}, HTTP_HX_REQUEST="true")
    assert "show:#confirm-discard:bottom" in shown["HX-Reswap"]  # the question and its buttons in view
    kept = post(client, campaign, "review", {"_go": "review"})
    assert kept.url == reverse("character_wizard_step", args=[campaign.pk, "review"])
    assert CharacterDraft.objects.exists()
    response = post(client, campaign, "review", {"_action": "discard_confirmed"})
    assert response.url == reverse("character_list", args=[campaign.pk])
    assert not CharacterDraft.objects.exists()
    assert "descartado" in client.get(response.url, HTTP_ACCEPT_LANGUAGE="es").content.decode()


def test_drafts_are_per_person(client, table):
    campaign, player = table
    other = make_user()
    from frontera.campaigns.services import campaign_add_player

    campaign_add_player(campaign=campaign, user=other)
    client.force_login(player)
    fill(client, campaign, steps=("who",))
    client.force_login(other)
    assert 'value="Clementine"' not in client.get(url(campaign, "who")).text


def test_mayor_creates_for_a_player_or_an_npc_with_the_same_wizard_FR_CHAR_6(client, table):
    campaign, player = table
    client.force_login(campaign.mayor)
    response = post(client, campaign, "who", {"name": "Sheriff", "description": ""})
    assert response.status_code == 400 and "Elige quién jugará este personaje." in response.text
    data = {**CLEMENTINE, "who": {"name": "Sheriff", "player": str(campaign.mayor.pk)}}
    fill(client, campaign, data=data)
    post(client, campaign, "review", {"_action": "create"})
    sheriff = Character.objects.get()
    assert sheriff.kind == "npc" and sheriff.owner == campaign.mayor and sheriff.sheet["kind"] == "npc"
    data = {**CLEMENTINE, "who": {"name": "Para Judit", "player": str(player.pk)}}
    fill(client, campaign, data=data)
    post(client, campaign, "review", {"_action": "create"})
    assert Character.objects.get(name="Para Judit").owner == player


def test_mayor_cannot_give_a_character_to_an_outsider(client, table):
    campaign, _player = table
    outsider = make_user()
    client.force_login(campaign.mayor)
    response = post(client, campaign, "who", {"name": "X", "player": str(outsider.pk)})
    assert response.status_code == 400


def test_unknown_step_is_404(client, table):
    campaign, player = table
    client.force_login(player)
    assert client.get(url(campaign, "dados")).status_code == 404


def test_outsider_gets_404_on_every_wizard_url(client, table):
    campaign, _player = table
    client.force_login(make_user())
    assert client.get(reverse("character_wizard", args=[campaign.pk])).status_code == 404
    for step in ("who", "skills", "traits", "extra", "equipment", "review"):
        assert client.get(url(campaign, step)).status_code == 404
        assert client.post(url(campaign, step), {}).status_code == 404
    assert not CharacterDraft.objects.exists()


def test_anonymous_is_sent_to_log_in(client, table):
    campaign, _player = table
    response = client.get(url(campaign, "who"))
    assert response.status_code == 302 and "/cuentas/" in response.url


def test_english_messages_come_from_the_rules_engine(client, table):
    campaign, player = table
    client.force_login(player)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = post(client, campaign, "equipment", {"weapon": "revolver", "qty_rifle": "3"})
    assert "These purchases cost $60; you have only $50 to spend." in response.text


# --- the forms against the engine, on many inputs (FR-CHAR-1, FR-CHAR-3, FR-CHAR-4) -----------

POINTS = st.fixed_dictionaries({t: st.integers(-2, 10) for t in ("manos", "sentidos", "musculo", "cabeza")})


@settings(max_examples=200, deadline=None)
@given(points=POINTS)
def test_traits_form_accepts_exactly_the_8_point_spreads_FR_CHAR_1_FR_CHAR_3(points):
    form = TraitsForm(data={k: str(v) for k, v in points.items()})
    legal = all(v >= 0 for v in points.values()) and sum(points.values()) == 8
    assert form.is_valid() is legal
    if legal:
        assert form.cleaned_data["scores"] == {k: 1 + v for k, v in points.items()}
        preview = traits_preview({k: str(v) for k, v in points.items()})
        assert preview["left"] == 0
        assert preview["aguante"] == 1 + points["musculo"] + 4
        assert preview["confianza"] == 1 + max(points.values()) + 4


def test_a_used_draft_cannot_create_twice(table):
    """Two taps on "Create": the second finds the draft gone (locked and deleted by the first)."""
    from frontera.characters import services

    campaign, player = table
    draft = services.draft_get_or_create(campaign=campaign, user=player)
    values = {"campaign": campaign, "by": player, "owner": player, "name": "Uno",
              "skills": ["pelea", "fuerza", "labia"], "trait_points": {"manos": 8}, "extra_skill": "saber",
              "starting_weapon": "revolver", "purchases": {}}
    services.character_create(**values, draft=draft)
    with pytest.raises(services.CharacterError):
        services.character_create(**values, draft=draft)
    assert Character.objects.count() == 1


def test_character_list_offers_to_continue_a_draft(client, table):
    campaign, player = table
    client.force_login(player)
    listing = reverse("character_list", args=[campaign.pk])
    assert "Crear un personaje" in client.get(listing).text
    fill(client, campaign, steps=("who",))
    assert "Seguir con tu personaje" in client.get(listing).text
