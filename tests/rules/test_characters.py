"""FR-CHAR: traits, skills, the sheet, the equipment catalogue and creation step by step."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from frontera.rules import RulesError
from frontera.rules import characters as ch
from frontera.rules.cards import TRAITS
from frontera.rules.characters import (
    BANDS,
    SKILLS,
    Character,
    catalogue,
    check_catalogue_entry,
    create_character,
    equipment_bonus,
    item,
    make_minion,
    make_npc,
    purchase_cost,
    range_modifier,
    trait_cards,
    validate_equipment_step,
    validate_extra_skill_step,
    validate_skills_step,
    validate_traits_step,
    weapon_damage,
)
from frontera.rules.tracks import HEALTH, MORALE, SOBRIETY

CLEMENTINE = dict(
    name="Clementine",
    skills=["apuntar", "agilidad", "astucia"],
    trait_points={"manos": 1, "sentidos": 3, "musculo": 2, "cabeza": 2},
    extra_skill="percepcion",
    starting_weapon="revolver",
    purchases={"rifle": 1, "ropa_de_trabajo": 1},
)


def clementine(**changes):
    return create_character(**{**CLEMENTINE, **changes})


# --- FR-CHAR-1 / FR-CHAR-2: traits and skills ---------------------------------------------------


def test_fr_char_1_four_traits_start_at_one():
    """With no points spent a trait stays at its starting 1; the four traits map to the four suits."""
    scores = validate_traits_step({"manos": 8})
    assert scores == {"manos": 9, "sentidos": 1, "musculo": 1, "cabeza": 1}
    assert tuple(scores) == TRAITS
    assert ch.TRAIT_NAMES == {
        "manos": "Manos", "sentidos": "Sentidos", "musculo": "Músculo", "cabeza": "Cabeza"}


def test_fr_char_2_ten_skills_with_trait_group_and_spanish_name():
    expected = {
        "pelea": ("manos", "armas", "Pelea"),
        "disparo_rapido": ("manos", "armas", "Disparo rápido"),
        "apuntar": ("sentidos", "armas", "Apuntar"),
        "agilidad": ("musculo", "mecanicas", "Agilidad"),
        "fuerza": ("musculo", "mecanicas", "Fuerza"),
        "mana": ("manos", "mecanicas", "Maña"),
        "percepcion": ("sentidos", "exploracion", "Percepción"),
        "saber": ("cabeza", "exploracion", "Saber"),
        "astucia": ("cabeza", "exploracion", "Astucia"),
        "labia": ("cabeza", "exploracion", "Labia"),
    }
    assert {key: (s.trait, s.group, s.name) for key, s in SKILLS.items()} == expected
    assert ch.GROUP_NAMES == {"armas": "Armas", "mecanicas": "Mecánicas", "exploracion": "Exploración"}


def test_fr_char_2_skill_is_held_or_not_plus_two_cards():
    """A held skill adds 2 cards to its own trait; it has no score (FR-CHAR-2, FR-CHK-1)."""
    c = clementine()
    assert trait_cards(c, "sentidos", "apuntar") == 4 + 2
    assert trait_cards(c, "sentidos", "percepcion") == 4 + 2
    assert trait_cards(c, "cabeza", "saber") == 3  # not held
    assert trait_cards(c, "manos") == 2


def test_fr_char_2_skill_of_another_trait_is_refused():
    with pytest.raises(RulesError, match="Apuntar goes with Sentidos, not with Manos"):
        trait_cards(clementine(), "manos", "apuntar")
    with pytest.raises(RulesError, match="is not a skill"):
        trait_cards(clementine(), "manos", "lockpicking")


# --- FR-CHAR-3: creation, step by step ------------------------------------------------------------


def test_fr_char_3_clementine_from_the_book():
    """The book's worked example: Clementine (seeds/003, «Crear un personaje»)."""
    c = clementine()
    assert c.kind == "protagonist"
    assert c.traits == {"manos": 2, "sentidos": 4, "musculo": 3, "cabeza": 3}
    assert c.skills == ("apuntar", "agilidad", "astucia", "percepcion")
    assert c.aguante == 7  # 3 (Músculo) + 4
    assert c.confianza == 8  # 4 (Sentidos) + 4
    assert c.equipment == {"caballo": 1, "revolver": 1, "rifle": 1, "ropa_de_trabajo": 1}
    assert c.money == 50 - 20 - 3
    assert equipment_bonus(c, "agilidad") == 1  # work clothes: one extra card in Agilidad
    assert equipment_bonus(c, "apuntar") == 0
    assert (c.health, c.morale, c.sobriety) == (0, 0, 0)


def test_fr_char_3_skills_step_one_from_each_group():
    assert validate_skills_step(["astucia", "apuntar", "agilidad"]) == ("apuntar", "agilidad", "astucia")


@pytest.mark.parametrize(
    ("skills", "message"),
    [
        (["pelea", "apuntar", "agilidad", "astucia"],
         "Choose only one skill from the Armas group, not Pelea and Apuntar."),
        (["pelea", "percepcion"], "Choose one skill from the Mecánicas group."),
        (["fuerza", "saber"], "Choose one skill from the Armas group."),
        (["pelea", "mana"], "Choose one skill from the Exploración group."),
        (["pelea", "mana", "labia", "labia"],
         "Choose only one skill from the Exploración group, not Labia and Labia."),
        (["pelea", "mana", "cocina"], "“cocina” is not a skill."),
        ([], "Choose one skill from the Armas group."),
    ],
)
def test_fr_char_3_skills_step_errors_name_the_group(skills, message):
    with pytest.raises(RulesError) as err:
        validate_skills_step(skills)
    assert str(err.value).startswith(message)


def test_fr_char_3_traits_step_returns_scores():
    scores = validate_traits_step(CLEMENTINE["trait_points"])
    assert scores == {"manos": 2, "sentidos": 4, "musculo": 3, "cabeza": 3}


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"manos": 7}, "Spread exactly 8 points over the traits; you spread 7."),
        ({"manos": 5, "cabeza": 4}, "Spread exactly 8 points over the traits; you spread 9."),
        ({}, "Spread exactly 8 points over the traits; you spread 0."),
        ({"manos": 10, "cabeza": -2}, "You cannot take points away from Cabeza."),
        ({"manos": 7.5, "cabeza": 0.5}, "Points for Manos must be a whole number, not 7.5."),
        ({"manos": True, "cabeza": 7}, "Points for Manos must be a whole number, not True."),
        ({"suerte": 8}, "“suerte” is not a trait"),
    ],
)
def test_fr_char_3_traits_step_errors(points, message):
    with pytest.raises(RulesError) as err:
        validate_traits_step(points)
    assert str(err.value).startswith(message)


def test_fr_char_3_ruling_max_nine_per_trait():
    """RULING: no cap beyond what 8 points allow: 9 is reachable, 10 is not."""
    assert max(validate_traits_step({"musculo": 8}).values()) == 9
    with pytest.raises(RulesError):
        validate_traits_step({"musculo": 9, "manos": -1})


def test_fr_char_3_extra_skill_step():
    assert validate_extra_skill_step(("pelea", "mana", "labia"), "disparo_rapido") == (
        "pelea", "mana", "labia", "disparo_rapido")
    with pytest.raises(RulesError, match="You already have Labia; choose a skill you do not have yet."):
        validate_extra_skill_step(("pelea", "mana", "labia"), "labia")
    with pytest.raises(RulesError, match="“magia” is not a skill"):
        validate_extra_skill_step(("pelea", "mana", "labia"), "magia")


def test_fr_char_3_equipment_step_horse_weapon_and_change():
    assert validate_equipment_step("revolver") == ({"caballo": 1, "revolver": 1}, 50)
    assert validate_equipment_step("cuchillos", ["funda_de_cuchillos", "cuchillo"]) == (
        {"caballo": 1, "cuchillo": 11, "funda_de_cuchillos": 1}, 47)
    assert validate_equipment_step("revolver", ["rifle", "rifle", "revolver"]) == (
        {"caballo": 1, "revolver": 2, "rifle": 2}, 50 - 40 - item("revolver")["price"])


def test_fr_char_3_equipment_step_exactly_fifty_is_allowed():
    equipment, money = validate_equipment_step("revolver", {"rifle": 2, "cuchillo": 10})
    assert purchase_cost({"rifle": 2, "cuchillo": 10}) == 50 and money == 0


@pytest.mark.parametrize(
    ("weapon", "purchases", "message"),
    [
        ("revolver", {"rifle": 3}, "These purchases cost $60; you have only $50 to spend."),
        ("revolver", {"caballo": 1, "ropa_de_trabajo": 4},
         "These purchases cost $52; you have only $50 to spend."),
        ("revolver", {"cañon": 1}, "“cañon” is not in the equipment catalogue."),
        ("revolver", ["rifle", "gatling"], "“gatling” is not in the equipment catalogue."),
        ("revolver", {"rifle": 0}, "0 is not a number of Rifle"),
        ("revolver", {"rifle": -1}, "-1 is not a number of Rifle"),
        ("rifle", {}, "Choose a revolver or 10 knives to start with."),
        ("both", {}, "Choose a revolver or 10 knives to start with."),
    ],
)
def test_fr_char_3_equipment_step_errors(weapon, purchases, message):
    with pytest.raises(RulesError) as err:
        validate_equipment_step(weapon, purchases)
    assert str(err.value).startswith(message)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"skills": ["apuntar", "pelea", "agilidad", "astucia"]},
         "Choose only one skill from the Armas group"),
        ({"skills": ["apuntar", "agilidad", "brujeria"]}, "“brujeria” is not a skill"),
        ({"trait_points": {"manos": 2, "sentidos": 3, "musculo": 2, "cabeza": 2}}, "Spread exactly 8 points"),
        ({"extra_skill": "apuntar"}, "You already have Apuntar"),
        ({"purchases": {"rifle": 2, "sable": 1}}, "These purchases cost $55"),
        ({"purchases": ["unicornio"]}, "“unicornio” is not in the equipment catalogue."),
        ({"name": "   "}, "Give the character a name."),
    ],
)
def test_fr_char_3_create_character_refuses_bad_input(changes, message):
    """Bad input at any step raises a readable error and nothing is created (FR-CHAR-3)."""
    with pytest.raises(RulesError) as err:
        clementine(**changes)
    assert str(err.value).startswith(message)


def test_fr_char_3_create_does_not_mutate_its_input():
    points = dict(CLEMENTINE["trait_points"])
    purchases = dict(CLEMENTINE["purchases"])
    skills = list(CLEMENTINE["skills"])
    c = create_character(**{**CLEMENTINE, "trait_points": points, "purchases": purchases, "skills": skills})
    assert points == CLEMENTINE["trait_points"] and purchases == CLEMENTINE["purchases"]
    assert skills == CLEMENTINE["skills"]
    c.equipment["rifle"] = 5  # the sheet owns its own copy
    assert purchases == {"rifle": 1, "ropa_de_trabajo": 1}


point_spreads = st.lists(st.integers(0, 8), min_size=3, max_size=3).map(sorted).map(
    lambda cuts: [min(c, 8) for c in cuts]
).map(lambda cuts: [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 8 - cuts[2]])


@settings(max_examples=150, deadline=None)
@given(spread=point_spreads, skills=st.tuples(
    st.sampled_from(["pelea", "disparo_rapido", "apuntar"]),
    st.sampled_from(["agilidad", "fuerza", "mana"]),
    st.sampled_from(["percepcion", "saber", "astucia", "labia"]),
), extra=st.sampled_from(sorted(SKILLS)))
def test_fr_char_3_fr_char_4_any_valid_spread_gives_derived_scores(spread, skills, extra):
    """Any legal creation: traits sum to 4 + 8, each 1..9; Aguante = Músculo + 4; Confianza = max + 4."""
    points = dict(zip(TRAITS, spread, strict=True))
    if extra in skills:
        with pytest.raises(RulesError, match="You already have"):
            create_character(name="X", skills=skills, trait_points=points, extra_skill=extra,
                             starting_weapon="revolver")
        return
    c = create_character(name="X", skills=skills, trait_points=points, extra_skill=extra,
                         starting_weapon="cuchillos")
    assert sum(c.traits.values()) == 12 and all(1 <= v <= 9 for v in c.traits.values())
    assert c.aguante == c.traits["musculo"] + 4
    assert c.confianza == max(c.traits.values()) + 4
    assert len(c.skills) == 4 and len(set(c.skills)) == 4
    assert Character.from_json(json.loads(json.dumps(c.to_json()))) == c


@settings(max_examples=100, deadline=None)
@given(points=st.dictionaries(st.sampled_from(TRAITS), st.integers(-3, 10)))
def test_fr_char_3_traits_step_accepts_exactly_the_legal_spreads(points):
    legal = sum(points.values()) == 8 and all(v >= 0 for v in points.values())
    if legal:
        assert sum(validate_traits_step(points).values()) == 12
    else:
        with pytest.raises(RulesError):
            validate_traits_step(points)


# --- FR-CHAR-4: derived scores ----------------------------------------------------------------


def test_fr_char_4_aguante_and_confianza_are_derived_not_stored():
    c = clementine()
    data = c.to_json()
    assert "aguante" not in data and "confianza" not in data
    stronger = Character.from_json({**data, "traits": {**data["traits"], "musculo": 6}})
    assert stronger.aguante == 10 and stronger.confianza == 10


# --- FR-CHAR-5: the equipment catalogue -----------------------------------------------------------


def test_fr_char_5_book_figures():
    """Every figure the book gives is in the catalogue (RULINGS FR-CHAR-5)."""
    assert weapon_damage("revolver") == 1
    assert weapon_damage("rifle") == 2 and item("rifle")["price"] == 20
    assert weapon_damage("arco") == 1
    assert item("ropa_de_trabajo")["price"] == 3 and item("ropa_de_trabajo")["bonus"] == {"agilidad": 1}
    assert item("material_de_curandero")["bonus"] == {"atencion_medica": 1}
    assert "knife_holster" in item("funda_de_cuchillos")["tags"]
    assert "mount" in item("caballo")["tags"]
    assert "grapple" in item("lazo")["tags"] and "multi_attack" in item("latigo")["tags"]
    # The book's combat example: at Medio neither revolver, rifle nor bow draws more or fewer cards.
    assert [range_modifier(w, "medio") for w in ("revolver", "rifle", "arco")] == [0, 0, 0]
    # Thrown weapons are only effective at Corto or Adyacente; melee only at Adyacente.
    for weapon in ("cuchillo", "tomahawk"):
        assert item(weapon)["range"]["medio"] is None and item(weapon)["range"]["largo"] is None
    for weapon in ("sable", "garrote"):
        assert [b for b in BANDS if item(weapon)["range"][b] is not None] == ["adyacente"]


def test_fr_char_5_catalogue_shape_and_sources():
    """Each entry is well formed; every figure is either from the book or listed as a ruling."""
    items = catalogue()
    assert len(items) >= 15
    for item_id, entry in items.items():
        assert entry["name"] and isinstance(entry["price"], int) and entry["price"] >= 0, item_id
        assert entry["source"] in ("book", "ruling"), item_id
        assert all(key in SKILLS or key in ch.ACTIONS for key in entry["bonus"]), item_id
        assert all(isinstance(v, int) and v > 0 for v in entry["bonus"].values()), item_id
        if entry["source"] == "book":
            assert isinstance(entry["ruled"], list), item_id
            for figure in entry["ruled"]:
                head, _, band = figure.partition(".")
                assert head in entry and (not band or band in entry[head]), (item_id, figure)
        if entry["category"] == "weapon":
            assert entry["kind"] in ("melee", "thrown", "ranged"), item_id
            assert isinstance(entry["damage"], int) and entry["damage"] >= 0, item_id
            assert set(entry["range"]) == set(BANDS), item_id
            usable = [b for b in BANDS if entry["range"][b] is not None]
            assert usable == list(BANDS[: len(usable)]) and usable[-1] == entry["max_range"], item_id


def test_fr_char_5_adjacent_penalty_inside_the_table_never_twice():
    """Ranged and thrown weapons carry exactly the −1 at Adyacente; melee carries none."""
    for item_id, entry in catalogue().items():
        if entry["category"] != "weapon":
            continue
        expected = 0 if entry["kind"] == "melee" else -1
        assert range_modifier(item_id, "adyacente") == expected, item_id
    # Held in hand, a knife is a melee weapon: no −1 (and no penalty invented elsewhere).
    assert range_modifier("cuchillo", "adyacente", in_hand=True) == 0
    assert range_modifier("revolver", "adyacente", in_hand=True) == -1


@pytest.mark.parametrize(
    ("weapon", "band", "message"),
    [
        ("revolver", "largo", "Revólver cannot be used at largo range."),
        ("cuchillo", "medio", "Cuchillo cannot be used at medio range."),
        ("sable", "corto", "Sable cannot be used at corto range."),
        ("rifle", "lejos", "“lejos” is not a range"),
        ("caballo", "corto", "Caballo is not a weapon."),
        ("bazooka", "corto", "“bazooka” is not in the equipment catalogue."),
    ],
)
def test_fr_char_5_range_modifier_errors(weapon, band, message):
    with pytest.raises(RulesError) as err:
        range_modifier(weapon, band)
    assert str(err.value).startswith(message)


def test_fr_char_5_equipment_bonus_per_check():
    gear = {"ropa_de_trabajo": 2, "material_de_curandero": 1, "ganzuas": 1, "revolver": 1}
    assert equipment_bonus(gear, "agilidad") == 1  # two copies of one item count once (RULING)
    assert equipment_bonus(gear, "atencion_medica") == 1
    assert equipment_bonus(gear, "mana") == 1
    assert equipment_bonus(gear, "fuerza") == 0
    assert equipment_bonus([], "agilidad") == 0
    with pytest.raises(RulesError, match="“bailar” is neither a skill nor an action"):
        equipment_bonus(gear, "bailar")
    with pytest.raises(RulesError, match="not in the equipment catalogue"):
        equipment_bonus({"jetpack": 1}, "agilidad")


def test_fr_char_5_catalogue_copies_cannot_corrupt_the_data():
    entry = item("rifle")
    entry["price"] = 1
    catalogue()["rifle"]["damage"] = 9
    assert item("rifle")["price"] == 20 and weapon_damage("rifle") == 2


# --- FR-CHAR-6: NPCs and minions ------------------------------------------------------------------


def test_fr_char_6_npc_uses_the_same_sheet():
    npc = make_npc("Big Joss", traits={"manos": 3, "sentidos": 2, "musculo": 7, "cabeza": 4},
                   skills=["pelea", "fuerza"], equipment=["escopeta"], money=500)
    assert npc.kind == "npc" and npc.aguante == 11 and npc.confianza == 11
    assert trait_cards(npc, "musculo", "fuerza") == 9
    assert Character.from_json(npc.to_json()) == npc


def test_fr_char_6_minion_flat_cards_and_aguante():
    """The book's example: minions draw 3 cards each and have Aguante 5."""
    minion = make_minion("Esbirro 1", cards_per_check=3, aguante=5, equipment={"rifle": 1})
    assert minion.kind == "minion" and minion.traits is None
    assert minion.aguante == 5
    assert all(trait_cards(minion, trait) == 3 for trait in TRAITS)
    assert trait_cards(minion, "manos", "disparo_rapido") == 3  # flat: the skill adds nothing
    assert minion.confianza == 7  # RULING: cards per check + 4, never below Aguante
    assert make_minion("Brute", cards_per_check=1, aguante=9).confianza == 9
    assert make_minion("Brave", cards_per_check=3, aguante=5, confianza=12).confianza == 12
    assert Character.from_json(json.loads(json.dumps(minion.to_json()))) == minion


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "X", "kind": "minion"}, "A minion needs either traits or both"),
        ({"name": "X", "kind": "minion", "cards_per_check": 3}, "A minion needs either traits or both"),
        ({"name": "X", "kind": "minion", "cards_per_check": 0, "flat_aguante": 5},
         "Cartas por prueba must be"),
        ({"name": "X", "kind": "npc", "cards_per_check": 3, "flat_aguante": 5}, "Only minions may have"),
        ({"name": "X", "kind": "minion", "traits": {t: 2 for t in TRAITS}, "flat_aguante": 5},
         "A minion has either traits or flat numbers, not both."),
        ({"name": "X", "kind": "minion", "cards_per_check": 3, "flat_aguante": 5, "flat_confianza": 0},
         "Confianza must be"),
        ({"name": "X", "kind": "villain", "traits": None}, "“villain” is not a kind of character"),
        ({"name": "", "traits": None}, "Give the character a name."),
        ({"traits": {t: 2 for t in TRAITS}}, "Give the character a name."),
        ({"name": "X", "traits": {"manos": 0, "sentidos": 1, "musculo": 1, "cabeza": 1}}, "Manos must be"),
        ({"name": "X", "traits": {"manos": 1, "sentidos": 1, "musculo": 1}}, "Cabeza must be"),
        ({"name": "X", "traits": {"manos": 1, "sentidos": 1, "musculo": 1, "cabeza": 1, "luck": 3}},
         "“luck” is not a trait"),
        ({"name": "X", "traits": {t: 2 for t in TRAITS}, "skills": ["pelea", "pelea"]},
         "Pelea is listed twice"),
        ({"name": "X", "traits": {t: 2 for t in TRAITS}, "tracks": {"health": -5}}, "-5 is not a health level"),
        ({"name": "X", "traits": {t: 2 for t in TRAITS}, "money": "lots"}, "lots is not an amount"),
    ],
)
def test_fr_char_6_from_json_validates(data, message):
    with pytest.raises(RulesError) as err:
        Character.from_json(data)
    assert str(err.value).startswith(message)


def test_fr_char_6_minion_may_use_traits_instead():
    brute = make_npc("Matón", kind="minion", traits={"manos": 2, "sentidos": 1, "musculo": 5, "cabeza": 1},
                     skills=["pelea"])
    assert brute.kind == "minion" and brute.aguante == 9 and trait_cards(brute, "manos", "pelea") == 4


@settings(max_examples=100, deadline=None)
@given(
    traits=st.fixed_dictionaries({t: st.integers(1, 12) for t in TRAITS}),
    skills=st.lists(st.sampled_from(sorted(SKILLS)), unique=True, max_size=10),
    equipment=st.dictionaries(st.sampled_from(sorted(catalogue())), st.integers(1, 20), max_size=6),
    money=st.integers(-500, 5000),
    levels=st.tuples(st.integers(-4, 0), st.integers(-3, 0), st.integers(-3, 0)),
)
def test_fr_char_6_any_sheet_round_trips_through_json(traits, skills, equipment, money, levels):
    npc = make_npc("PNJ", traits=traits, skills=skills, equipment=equipment, money=money)
    npc = ch.lose_levels(ch.lose_levels(ch.lose_levels(npc, HEALTH, -levels[0]), MORALE, -levels[1]),
                         SOBRIETY, -levels[2])
    again = Character.from_json(json.loads(json.dumps(npc.to_json())))
    assert again == npc and again.to_json() == npc.to_json()
    assert (again.health, again.morale, again.sobriety) == levels
    assert again.aguante == traits["musculo"] + 4 and again.confianza == max(traits.values()) + 4


def test_fr_char_6_gambling_debt_is_negative_money():
    """Money may go below 0: a gambling debt (FR-GMB-4)."""
    data = clementine().to_json()
    assert Character.from_json({**data, "money": -30}).money == -30


# --- tracks on the sheet (FR-HLT-1, FR-MOR-1) --------------------------------------------------


def test_fr_hlt_1_fr_mor_1_levels_on_the_sheet_clamped():
    c = ch.lose_levels(clementine(), HEALTH, 6)
    assert c.health == -4 and c.track(HEALTH) == -4
    c = ch.lose_levels(c, MORALE, 2)
    assert c.morale == -2
    c = ch.recover_levels(c, MORALE, 5)
    assert c.morale == 0
    c = ch.lose_levels(c, SOBRIETY, 1)
    assert ch.drinker(c) == {"aguante": 7, "sobriety": -1, "kind": "protagonist"}
    with pytest.raises(RulesError, match="dead character does not heal"):
        ch.recover_levels(ch.lose_levels(clementine(), HEALTH, 4), HEALTH)


def test_doctest_examples_hold():
    """The docstring examples of the characters module are true (FR-CHAR-3, FR-CHAR-5, FR-CHAR-6)."""
    import doctest

    result = doctest.testmod(ch)
    assert result.attempted > 0 and result.failed == 0


# --- a campaign's own catalogue (FR-CHAR-5: "the project ships an editable catalogue") ----------


def _edited(**changes):
    """The built-in catalogue with some entries changed (what a Mayor's campaign would hold)."""
    entries = catalogue()
    for item_id, figures in changes.items():
        entries[item_id] = check_catalogue_entry({**entries[item_id], **figures})
    return entries


def test_fr_char_5_every_builtin_entry_passes_the_entry_check():
    for item_id, entry in catalogue().items():
        checked = check_catalogue_entry(entry)
        assert checked["price"] == entry["price"], item_id
        if entry["category"] == "weapon":
            assert checked["range"] == entry["range"] and checked["max_range"] == entry["max_range"], item_id


def test_fr_char_5_a_campaign_catalogue_changes_prices_and_the_50_dollar_cap():
    """A rifle at $45 in this campaign: the rifle and work clothes cost $48, leaving $2; two rifles
    are over the $50 (FR-CHAR-3), though the built-in catalogue would allow them."""
    entries = _edited(rifle={"price": 45})
    assert purchase_cost({"rifle": 1, "ropa_de_trabajo": 1}, catalogue=entries) == 48
    assert purchase_cost({"rifle": 1, "ropa_de_trabajo": 1}) == 23  # the built-in one is untouched
    assert validate_equipment_step("revolver", {"rifle": 1, "ropa_de_trabajo": 1}, catalogue=entries)[1] == 2
    with pytest.raises(RulesError) as err:
        validate_equipment_step("revolver", {"rifle": 2}, catalogue=entries)
    assert err.value.params == {"cost": 90, "budget": 50}
    clementine = create_character(**CLEMENTINE, catalogue=entries)
    assert clementine.money == 2
    assert create_character(**CLEMENTINE).money == 27


def test_fr_char_5_a_campaign_catalogue_changes_weapon_figures_and_bonuses():
    entries = _edited(
        revolver={"damage": 2, "range": {"adyacente": -2, "corto": 1, "medio": 0, "largo": -1}},
        ropa_de_trabajo={"bonus": {"agilidad": 2}},
        cuerda={"bonus": {"fuerza": 1}},
    )
    assert weapon_damage("revolver", catalogue=entries) == 2 and weapon_damage("revolver") == 1
    assert [range_modifier("revolver", b, catalogue=entries) for b in BANDS] == [-2, 1, 0, -1]
    assert entries["revolver"]["max_range"] == "largo"
    with pytest.raises(RulesError):
        range_modifier("revolver", "largo")  # the built-in revolver still cannot reach Largo
    equipment = {"ropa_de_trabajo": 1, "cuerda": 1}
    assert equipment_bonus(equipment, "agilidad", catalogue=entries) == 2
    assert equipment_bonus(equipment, "fuerza", catalogue=entries) == 1
    assert equipment_bonus(equipment, "fuerza") == 0
    assert item("rifle", catalogue=entries) == item("rifle")


def test_fr_char_5_a_smaller_catalogue_knows_only_its_own_items():
    entries = {"cuerda": catalogue()["cuerda"]}
    with pytest.raises(RulesError) as err:
        purchase_cost({"rifle": 1}, catalogue=entries)
    assert str(err.value) == "“rifle” is not in the equipment catalogue."


REVOLVER = catalogue()["revolver"]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"price": -1}, "price", "The price of Revólver must be a whole number of dollars, 0 or more, not -1."),
        ({"price": 2.5}, "price", "The price of Revólver must be a whole number of dollars, 0 or more, not 2.5."),
        ({"price": True}, "price", "The price of Revólver must be a whole number"),
        ({"damage": -1}, "damage", "The damage of Revólver must be a whole number, 0 or more, not -1."),
        ({"damage": None}, "damage", "The damage of Revólver must be a whole number"),
        ({"range": {"adyacente": -1, "corto": 9, "medio": 0, "largo": None}}, "range.corto",
         "The modifier of Revólver at Corto must be a whole number from −5 to +5"),
        ({"range": {"adyacente": None, "corto": None, "medio": None, "largo": None}}, "range.adyacente",
         "Revólver must be usable at one range band at least."),
        ({"range": {"adyacente": -1, "corto": None, "medio": 0, "largo": None}}, "range.corto",
         "Revólver reaches Medio, so it must also be usable at Corto."),
        ({"kind": "melee", "range": {"adyacente": 0, "corto": 0, "medio": None, "largo": None}}, "range.corto",
         "Revólver is a melee weapon: it can be used at Adyacente only."),
        ({"kind": "thrown", "range": {"adyacente": -1, "corto": 0, "medio": 0, "largo": None}}, "range.medio",
         "Revólver is a thrown weapon: it reaches Corto at most, not Medio."),
        ({"kind": "cannon"}, "kind", "“cannon” is not a kind of weapon"),
        ({"bonus": {"apuntar": 4}}, "bonus",
         "The bonus of Revólver to Apuntar must be a whole number of cards from 1 to 3, not 4."),
        ({"bonus": {"apuntar": 0}}, "bonus", "The bonus of Revólver to Apuntar must be"),
        ({"bonus": {"puntería": 1}}, "bonus", "Revólver cannot help “puntería”"),
        ({"name": "  "}, "name", "Give the item a name."),
        ({"category": "vehicle"}, "category", "“vehicle” is not a kind of equipment"),
    ],
)
def test_fr_char_5_bad_catalogue_entries_are_refused(changes, field, message):
    """Every edited figure respects FR-CHAR-5 and the reach of FR-CMB-11, with a readable message."""
    with pytest.raises(ch.CatalogueError) as err:
        check_catalogue_entry({**REVOLVER, **changes})
    assert err.value.field == field
    assert str(err.value).startswith(message)
    assert err.value.template % err.value.params == str(err.value)  # named params, translatable


def test_fr_char_5_gear_has_no_weapon_figures_and_keeps_its_bonus():
    clothes = catalogue()["ropa_de_trabajo"]
    assert check_catalogue_entry({**clothes, "price": 0, "bonus": {"agilidad": 2}})["bonus"] == {"agilidad": 2}
    with pytest.raises(ch.CatalogueError) as err:
        check_catalogue_entry({**clothes, "damage": 1})
    assert err.value.field == "damage" and str(err.value) == "Ropa de trabajo is not a weapon: it has no damage and no range."
    assert check_catalogue_entry({**clothes, "bonus": {"atencion_medica": 1}})["bonus"] == {"atencion_medica": 1}


def test_fr_char_5_checked_entry_is_a_copy():
    entry = catalogue()["rifle"]
    checked = check_catalogue_entry(entry)
    checked["range"]["largo"] = None
    assert entry["range"]["largo"] == 0
