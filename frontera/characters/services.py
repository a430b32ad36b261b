"""Every write of the characters app. Each function is atomic, locks the rows it changes, appends to
the character's log and publishes ``character:<id>`` on the live bus after commit.

The rules are decided by :mod:`frontera.rules.characters` only: these functions call it and turn
its :class:`~frontera.rules.errors.RulesError` into a :class:`CharacterError` whose message is in
the user's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from frontera.campaigns.models import Campaign, CampaignEvent
from frontera.campaigns.services import campaign_log
from frontera.characters import hooks
from frontera.characters.catalogue_notes import NAMES_EN, NOTES_EN, NOTES_ES
from frontera.characters.models import CatalogueItem, Character, CharacterDraft, CharacterEvent
from frontera.characters.selectors import campaign_catalogue, engine_entry
from frontera.live.bus import publish_on_commit
from frontera.messages import engine_text
from frontera.rules import characters as rules
from frontera.rules.errors import RulesError

E_NOT_IN_SHOP = _("%(name)s is not sold in this campaign.")
E_NOT_A_PLAYER = _("Choose a player of this campaign.")
E_DRAFT_USED = _("This draft has already been used to create a character.")


class CharacterError(ValueError):
    """A refused character action; ``str(err)`` is the message, in the user's language.

    ``step`` names the wizard step the message belongs to, when there is one; ``field`` the form
    field at fault, when there is one.
    """

    def __init__(self, message, *, step: str | None = None, field: str | None = None) -> None:
        self.message = message
        self.step = step
        self.field = field
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.message)


def rules_message(err: RulesError) -> str:
    """A rules-engine error in the user's language (plural forms included)."""
    return engine_text(err.template, err.params)


def character_topic(character_id: int) -> str:
    return f"character:{character_id}"


def _log(*, character: Character, actor, kind: str) -> CharacterEvent:
    event = CharacterEvent.objects.create(character=character, actor=actor, kind=kind)
    publish_on_commit(character_topic(character.pk), event.pk)
    return event


# ---------------------------------------------------------------------------------------------
# The campaign's equipment catalogue (FR-CHAR-5)
# ---------------------------------------------------------------------------------------------


def _catalogue_fields(key: str, entry: Mapping) -> dict:
    bands = entry.get("range") or {}
    return {
        "name": entry["name"],
        "name_en": NAMES_EN.get(key, ""),
        "category": entry["category"],
        "weapon_kind": entry.get("kind", ""),
        "price": entry["price"],
        "damage": entry.get("damage"),
        "range_adyacente": bands.get("adyacente"),
        "range_corto": bands.get("corto"),
        "range_medio": bands.get("medio"),
        "range_largo": bands.get("largo"),
        "bonus": dict(entry.get("bonus", {})),
        "tags": list(entry.get("tags", [])),
        "notes": NOTES_ES.get(key, entry.get("notes", "")),
        "notes_en": NOTES_EN.get(key, ""),
    }


@transaction.atomic
def catalogue_seed(*, campaign: Campaign) -> int:
    """Give ``campaign`` every entry of the rules engine's catalogue it lacks; returns how many.

    Idempotent: existing entries (and the Mayor's edits to them) are kept.
    """
    existing = set(CatalogueItem.objects.filter(campaign=campaign).values_list("key", flat=True))
    new = [
        CatalogueItem(campaign=campaign, key=key, position=position, **_catalogue_fields(key, entry))
        for position, (key, entry) in enumerate(rules.catalogue().items())
        if key not in existing
    ]
    CatalogueItem.objects.bulk_create(new)
    return len(new)


FIGURES = ("price", "damage", "range", "bonus")
_BAND_FIELDS = {band: f"range_{band}" for band in rules.BANDS}
_CATALOGUE_FIELDS = ["name", "name_en", "notes", "notes_en", "in_shop", "price", "damage", *_BAND_FIELDS.values(), "bonus"]


def _catalogue_error_field(err: rules.CatalogueError) -> str | None:
    """The model field a :class:`~frontera.rules.characters.CatalogueError` is about."""
    head, _dot, band = err.field.partition(".")
    if head == "range":
        return _BAND_FIELDS.get(band)
    return head if head in ("name", "price", "damage", "bonus") else None


@transaction.atomic
def catalogue_item_update(*, item: CatalogueItem, by, name: str, notes: str, in_shop: bool,
                          figures: Mapping | None = None, name_en: str | None = None,
                          notes_en: str | None = None) -> CatalogueItem:
    """The Mayor edits an entry of the campaign's catalogue: its name and notes in Spanish and (with
    ``name_en`` / ``notes_en``; ``None`` keeps them) in English, whether it is sold at
    creation and, with ``figures``, its price, damage, range modifiers and bonus cards (FR-CHAR-5).

    ``figures`` may hold ``price``, ``damage``, ``range`` (``{band: modifier or None}``, ``None`` =
    not usable) and ``bonus`` (``{skill or action: cards}``); what it leaves out is kept. The whole
    entry is checked by the rules engine (:func:`~frontera.rules.characters.check_catalogue_entry`)
    and nothing is saved if it is refused: a :class:`CharacterError` whose ``field`` is the model
    field at fault. A change is appended to the campaign's activity feed.
    """
    item = CatalogueItem.objects.select_for_update().get(pk=item.pk)
    entry = {**engine_entry(item), "name": name.strip() or item.name}
    for key in FIGURES:
        if figures is not None and key in figures:
            entry[key] = figures[key]
    try:
        entry = rules.check_catalogue_entry(entry)
    except rules.CatalogueError as err:
        raise CharacterError(rules_message(err), field=_catalogue_error_field(err)) from err
    before = [getattr(item, name) for name in _CATALOGUE_FIELDS]
    item.name = entry["name"]
    item.notes = notes.strip()
    if name_en is not None:
        item.name_en = name_en.strip()[:80]
    if notes_en is not None:
        item.notes_en = notes_en.strip()
    item.in_shop = in_shop
    item.price = entry["price"]
    item.bonus = entry["bonus"]
    if item.category == CatalogueItem.Category.WEAPON:
        item.damage = entry["damage"]
        for band, field_name in _BAND_FIELDS.items():
            setattr(item, field_name, entry["range"][band])
    if [getattr(item, name) for name in _CATALOGUE_FIELDS] != before:
        item.save(update_fields=_CATALOGUE_FIELDS)
        campaign_log(campaign=item.campaign, actor=by, kind=CampaignEvent.Kind.CATALOGUE_EDITED)
    return item


# ---------------------------------------------------------------------------------------------
# The creation wizard's draft
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def draft_get_or_create(*, campaign: Campaign, user) -> CharacterDraft:
    draft, _created = CharacterDraft.objects.get_or_create(campaign=campaign, user=user)
    return draft


@transaction.atomic
def draft_update(*, draft: CharacterDraft, step: str, values: Mapping[str, object]) -> CharacterDraft:
    """Keep what was typed in ``step`` (valid or not), so nothing is lost when coming back."""
    draft = CharacterDraft.objects.select_for_update().get(pk=draft.pk)
    data = dict(draft.data)
    data[step] = dict(values)
    draft.data = data
    draft.save(update_fields=["data", "updated_at"])
    return draft


@transaction.atomic
def draft_discard(*, draft: CharacterDraft) -> None:
    CharacterDraft.objects.filter(pk=draft.pk).delete()


# ---------------------------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------------------------


def _check_in_shop(campaign: Campaign, keys: Iterable[str]) -> None:
    keys = set(keys)
    if not keys:
        return
    sold = dict(CatalogueItem.objects.filter(campaign=campaign, key__in=keys).values_list("key", "in_shop"))
    for key in sorted(keys):
        if not sold.get(key):
            name = CatalogueItem.objects.filter(campaign=campaign, key=key).values_list("name", flat=True).first()
            raise CharacterError(E_NOT_IN_SHOP % {"name": name or key}, step="equipment")


@transaction.atomic
def character_create(
    *,
    campaign: Campaign,
    by,
    owner,
    name: str,
    description: str = "",
    skills: Iterable[str],
    trait_points: Mapping[str, int],
    extra_skill: str,
    starting_weapon: str,
    purchases: Mapping[str, int],
    draft: CharacterDraft | None = None,
) -> Character:
    """A new character through every creation step (FR-CHAR-1..5); nothing is saved unless all
    are valid. ``owner`` is the player; when it is the Mayor the character is an NPC built with the
    same rules (FR-CHAR-6). Prices and the $50 come from the campaign's catalogue (FR-CHAR-5).
    Discards ``draft`` on success; a protagonist is announced on the campaign's activity feed."""
    from frontera.campaigns.permissions import is_mayor_of, is_member_of

    if draft is not None and not CharacterDraft.objects.select_for_update().filter(pk=draft.pk).exists():
        raise CharacterError(E_DRAFT_USED)  # a second tap on "Create": the first one made the character
    if owner is None or not is_member_of(owner, campaign):
        raise CharacterError(E_NOT_A_PLAYER, step="who")
    _check_in_shop(campaign, purchases)
    try:
        sheet = rules.create_character(
            name=name, skills=skills, trait_points=trait_points, extra_skill=extra_skill,
            starting_weapon=starting_weapon, purchases=purchases, catalogue=campaign_catalogue(campaign),
        )
    except RulesError as err:
        raise CharacterError(rules_message(err)) from err
    kind = Character.Kind.NPC if is_mayor_of(owner, campaign) else Character.Kind.PROTAGONIST
    sheet = replace(sheet, kind=str(kind))
    character = Character.objects.create(
        campaign=campaign, owner=owner, kind=kind, name=sheet.name, description=description.strip(),
        sheet=sheet.to_json(),
    )
    _log(character=character, actor=by, kind=CharacterEvent.Kind.CREATED)
    if kind == Character.Kind.PROTAGONIST:  # the feed is the whole table's: the Mayor's NPCs stay off it
        campaign_log(campaign=campaign, actor=by, kind=CampaignEvent.Kind.CHARACTER_CREATED)
    if draft is not None:
        draft_discard(draft=draft)
    return character


def _validated_sheet(data: Mapping) -> rules.Character:
    try:
        return rules.Character.from_json(data)
    except RulesError as err:
        raise CharacterError(rules_message(err)) from err


@transaction.atomic
def npc_create(
    *,
    campaign: Campaign,
    by,
    kind: str,
    name: str,
    description: str = "",
    traits: Mapping[str, int] | None = None,
    cards_per_check: int | None = None,
    aguante: int | None = None,
    confianza: int | None = None,
    skills: Iterable[str] = (),
    equipment: Mapping[str, int] | None = None,
    money: int = 0,
) -> Character:
    """The Mayor's short form: an NPC or a minion, built freely (no creation budget), either with
    traits or, for a minion, a flat number of cards per check and a flat Aguante (FR-CHAR-6)."""
    sheet = _validated_sheet({
        "name": name.strip(), "kind": kind, "traits": dict(traits) if traits is not None else None,
        "skills": list(skills), "equipment": dict(equipment or {}), "money": money,
        "cards_per_check": cards_per_check, "flat_aguante": aguante, "flat_confianza": confianza,
    })
    character = Character.objects.create(
        campaign=campaign, owner=by, kind=kind, name=sheet.name, description=description.strip(),
        sheet=sheet.to_json(),
    )
    _log(character=character, actor=by, kind=CharacterEvent.Kind.CREATED)
    return character


@transaction.atomic
def character_update_notes(*, character: Character, by, description: str, notes: str, money: int) -> Character:
    """What a player may change on their own sheet: description, notes and money."""
    character = Character.objects.select_for_update().get(pk=character.pk)
    sheet = _validated_sheet({**character.sheet, "money": money})
    character.description = description.strip()
    character.notes = notes.strip()
    character.sheet = sheet.to_json()
    character.save(update_fields=["description", "notes", "sheet", "updated_at"])
    _log(character=character, actor=by, kind=CharacterEvent.Kind.NOTES)
    return character


@transaction.atomic
def character_update(
    *,
    character: Character,
    by,
    name: str,
    description: str,
    notes: str,
    money: int,
    skills: Iterable[str],
    equipment: Mapping[str, int],
    health: int,
    morale: int,
    sobriety: int,
    traits: Mapping[str, int] | None = None,
    cards_per_check: int | None = None,
    flat_aguante: int | None = None,
    flat_confianza: int | None = None,
) -> Character:
    """The Mayor edits any sheet of their campaign; the sheet is re-validated as a whole (FR-CHAR-6).

    Creation budgets do not apply: the Mayor may reflect what happened in play."""
    character = Character.objects.select_for_update().get(pk=character.pk)
    tracks_before = dict(character.sheet.get("tracks") or {})
    data = {
        **character.sheet,
        "name": name.strip(),
        "traits": dict(traits) if traits is not None else None,
        "skills": list(skills),
        "equipment": {key: qty for key, qty in equipment.items() if qty},
        "money": money,
        "tracks": {"health": health, "morale": morale, "sobriety": sobriety},
        "cards_per_check": cards_per_check,
        "flat_aguante": flat_aguante,
        "flat_confianza": flat_confianza,
    }
    sheet = _validated_sheet(data)
    character.name = sheet.name
    character.description = description.strip()
    character.notes = notes.strip()
    character.sheet = sheet.to_json()
    character.save(update_fields=["name", "description", "notes", "sheet", "updated_at"])
    _log(character=character, actor=by, kind=CharacterEvent.Kind.EDITED)
    if character.sheet.get("tracks") != tracks_before:
        transaction.on_commit(lambda: _tracks_edited(character, by))
    return character


def _tracks_edited(character: Character, by) -> None:
    """After the commit, the campaign's active sessions take the Mayor's new track levels (an open
    fight, the FR-HLT-3 count): whoever registered :func:`frontera.characters.hooks.on_tracks_edited`."""
    hooks.tracks_edited(character=character, by=by)


def character_changed_in_play(*, character: Character, by) -> CharacterEvent:
    """Record that a session changed ``character``'s stored sheet (tracks, money...), so open sheets
    refetch after commit. Call inside the transaction that saved the sheet, holding its row lock."""
    return _log(character=character, actor=by, kind=CharacterEvent.Kind.PLAY)
