"""Every read of the characters app that a page shows. Figures are the campaign's catalogue rows,
judged by the rules engine (``catalogue=``)."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from frontera import glossary
from frontera.campaigns.models import Campaign, Membership
from frontera.campaigns.permissions import can_edit_character, can_edit_character_notes, can_view_character, is_mayor_of
from frontera.characters.models import CatalogueItem, Character, CharacterDraft, CharacterEvent
from frontera.rules import characters as rules
from frontera.rules import tracks
from frontera.rules.cards import SUIT_SYMBOL, TRAIT_SUIT, TRAITS
from frontera.rules.errors import RulesError

# The range bands and their short forms, in the reader's language (Ady/Cor/Med/Lar; Adj/Sho/Med/Lon).
BAND_LABELS = tuple((band, glossary.lazy("band_short", band)) for band in rules.BANDS)


def character_for_viewer(user, campaign_pk: int, pk: int) -> Character:
    """The character if ``user`` may see it; 404 for everybody else (never 403)."""
    character = Character.objects.select_related("campaign", "owner").filter(pk=pk, campaign_id=campaign_pk).first()
    if character is None or not can_view_character(user, character):
        raise Http404
    return character


def characters_for(user, campaign: Campaign) -> list[Character]:
    """The characters ``user`` may see in ``campaign``: protagonists, and for the Mayor the rest."""
    query = Character.objects.filter(campaign=campaign).select_related("owner")
    if not is_mayor_of(user, campaign):
        query = query.filter(kind=Character.Kind.PROTAGONIST)
    return list(query.order_by("kind", "name", "pk"))


def has_draft(user, campaign: Campaign) -> bool:
    """Whether ``user`` has a character half-made in ``campaign``."""
    return CharacterDraft.objects.filter(campaign=campaign, user=user).exclude(data={}).exists()


def character_version(character_id: int) -> int:
    return (
        CharacterEvent.objects.filter(character_id=character_id).order_by("-pk").values_list("pk", flat=True).first()
        or 0
    )


def campaign_players(campaign: Campaign):
    return [m.user for m in Membership.objects.filter(campaign=campaign).select_related("user").order_by("joined_at")]


def catalogue_for(campaign: Campaign, *, shop_only: bool = False) -> list[CatalogueItem]:
    query = CatalogueItem.objects.filter(campaign=campaign)
    if shop_only:
        query = query.filter(in_shop=True)
    return list(query.order_by("position", "pk"))


def engine_entry(item: CatalogueItem) -> dict:
    """One catalogue row as the rules engine's entry (FR-CHAR-5)."""
    entry = {"name": item.name, "category": item.category, "price": item.price, "bonus": dict(item.bonus or {}),
             "tags": list(item.tags or []), "notes": item.notes}
    if item.category == CatalogueItem.Category.WEAPON:
        bands = dict(zip(rules.BANDS, (item.range_adyacente, item.range_corto, item.range_medio, item.range_largo),
                         strict=True))
        usable = [band for band in rules.BANDS if bands[band] is not None]
        entry.update(kind=item.weapon_kind, damage=item.damage, range=bands,
                     max_range=usable[-1] if usable else None)
    return entry


def engine_catalogue(items) -> dict[str, dict]:
    """Catalogue rows as the ``catalogue=`` argument of :mod:`frontera.rules.characters`."""
    return {item.key: engine_entry(item) for item in items}


def campaign_catalogue(campaign: Campaign) -> dict[str, dict]:
    """The campaign's whole catalogue for the rules engine, in one query: prices, damage, range
    modifiers and bonuses as its Mayor set them (FR-CHAR-5)."""
    return engine_catalogue(CatalogueItem.objects.filter(campaign=campaign))


def _signed(number: int) -> str:
    return f"+{number}" if number > 0 else ("±0" if number == 0 else f"−{-number}")


def bonus_text(bonus: Mapping[str, int]) -> list[str]:
    """``{"agilidad": 1}`` → ``["+1 card to Agilidad"]``."""
    lines = []
    for check, cards in bonus.items():
        label = glossary.name("skill", check) if check in rules.SKILLS else _("medical attention")
        lines.append(ngettext("%(cards)s card to %(check)s", "%(cards)s cards to %(check)s", abs(cards))
                     % {"cards": _signed(cards), "check": label})
    return lines


def _item_name(items: Mapping, key: str, entry: Mapping) -> str:
    """A carried item's name in the reader's language (the campaign's entry), else the engine's."""
    return items[key].display_name if key in items else entry["name"]


def _item_notes(items: Mapping, key: str, entry: Mapping) -> str:
    return items[key].display_notes if key in items else entry.get("notes", "")


def band_modifiers(item: CatalogueItem) -> list[dict]:
    """The draw modifier of a weapon at each range band, or ``None`` where it cannot be used."""
    values = (item.range_adyacente, item.range_corto, item.range_medio, item.range_largo)
    return [
        {"band": band, "short": short, "value": value, "text": "—" if value is None else _signed(value)}
        for (band, short), value in zip(BAND_LABELS, values, strict=True)
    ]


def catalogue_rows(items: list[CatalogueItem]) -> list[dict]:
    return [
        {"item": item, "bands": band_modifiers(item) if item.category == CatalogueItem.Category.WEAPON else None,
         "bonus": bonus_text(item.bonus)}
        for item in items
    ]


def _track_rows(sheet: rules.Character) -> list[dict]:
    rows = []
    for track, title, names in (
        (tracks.HEALTH, _("Health"), tracks.HEALTH_NAMES),
        (tracks.MORALE, _("Morale"), tracks.MORALE_NAMES),
        (tracks.SOBRIETY, _("Sobriety"), tracks.SOBRIETY_NAMES),
    ):
        level = sheet.track(track)
        reason = tracks.incapacity(**{track: level})  # a level's Spanish name, or None
        if reason:
            effect = _("cannot act")
        elif track == tracks.SOBRIETY and level == -1:
            effect = _("draws the dead man's hand on each check")
        else:
            penalty = tracks.draw_penalty(**{track: level})
            effect = _("no penalty") if penalty == 0 else _("Penalty: %(cards)s per check") % {"cards": _signed(-penalty)}
        rows.append({
            "key": track, "title": title, "level": level, "name": glossary.name("level", names[level]), "effect": effect,
            "levels": [{"level": lv, "name": glossary.name("level", nm), "current": lv == level} for lv, nm in sorted(names.items(), reverse=True)],
        })
    return rows


def _total_penalty(sheet: rules.Character) -> str:
    reason = tracks.incapacity(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    if reason:
        return _("Cannot act: %(reason)s.") % {"reason": glossary.name("level", reason)}
    penalty = tracks.draw_penalty(health=sheet.health, morale=sheet.morale, sobriety=sheet.sobriety)
    if penalty == 0:
        return _("Draws every check with no penalty.")
    return _("Penalty on every check: %(cards)s.") % {"cards": _signed(-penalty)}


def sheet_view(character: Character, user) -> dict:
    """Everything the sheet shows, from the stored rules sheet and the campaign's catalogue."""
    sheet = rules.Character.from_json(character.sheet)
    items = {i.key: i for i in CatalogueItem.objects.filter(campaign=character.campaign, key__in=sheet.equipment)}
    traits = None
    if sheet.traits is not None:
        traits = [
            {"key": key, "name": glossary.name("trait", key), "suit": SUIT_SYMBOL[TRAIT_SUIT[key]],
             "suit_class": f"suit-{TRAIT_SUIT[key].lower()}", "score": sheet.traits[key]}
            for key in TRAITS
        ]
    # the campaign's figures (FR-CHAR-5); an item the campaign lacks falls back to the built-in entry
    catalogue = {key: engine_entry(items[key]) if key in items else rules.item(key) for key in sheet.equipment}
    groups = [
        {"name": glossary.name("group", group), "skills": [
            {"key": s.key, "name": glossary.name("skill", s.key), "trait": glossary.name("trait", s.trait), "held": sheet.has_skill(s.key),
             "cards": rules.trait_cards(sheet, s.trait, s.key),
             # what the equipment carried adds when the Mayor counts it (FR-CHAR-5, FR-CHK-1): the
             # sheet said "7 cards" for a check that drew 8 with the lockpicks
             "gear": rules.equipment_bonus(sheet.equipment, s.key, catalogue=catalogue)}
            for s in rules.SKILLS.values() if s.group == group
        ]}
        for group in rules.GROUPS
    ]
    weapons, gear = [], []
    for key, quantity in sheet.equipment.items():
        entry = catalogue[key]
        if entry["category"] == "weapon":
            bands = []
            for band, short in BAND_LABELS:
                try:
                    value = rules.range_modifier(key, band, catalogue=catalogue)
                except RulesError:
                    value = None
                bands.append({"band": band, "short": short, "value": value,
                              "text": "—" if value is None else _signed(value)})
            weapons.append({"key": key, "name": _item_name(items, key, entry), "quantity": quantity,
                            "damage": rules.weapon_damage(key, catalogue=catalogue),
                            "bands": bands, "notes": _item_notes(items, key, entry)})
        else:
            effects = bonus_text(entry.get("bonus", {}))
            gear.append({"key": key, "name": _item_name(items, key, entry), "quantity": quantity, "effects": effects,
                         "notes": _item_notes(items, key, entry)})
    return {
        "character": character,
        "sheet": sheet,
        "traits": traits,
        "groups": groups,
        "tracks": _track_rows(sheet),
        "penalty": _total_penalty(sheet),
        "weapons": weapons,
        "weapon_blanks": range(max(0, 4 - len(weapons))),  # the printed sheet has four weapon lines
        "gear": gear,
        "can_edit": can_edit_character(user, character),
        "can_edit_notes": can_edit_character_notes(user, character),
        # notes are the player's own (and the Mayor's): another player's phone never gets them
        "notes": character.notes if can_edit_character_notes(user, character) else None,
    }
