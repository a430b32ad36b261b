"""Django admin for the equipment catalogue: the Mayor's per-campaign edits (FR-CHAR-5).

The figures are read-only here: the admin would bypass the rules engine's check. The Mayor edits
them on the catalogue page (``services.catalogue_item_update``); see docs/characters.md."""

from django.contrib import admin

from frontera.characters.models import CatalogueItem, Character


@admin.register(CatalogueItem)
class CatalogueItemAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "category", "price", "damage", "in_shop")
    list_filter = ("campaign", "category", "in_shop")
    readonly_fields = ("campaign", "key", "category", "weapon_kind", "price", "damage", "range_adyacente", "range_corto",
                       "range_medio", "range_largo", "bonus", "tags")
    fields = ("name", "notes", "in_shop", *readonly_fields)

    def has_add_permission(self, request) -> bool:
        return False  # entries come from the rules engine's catalogue (catalogue_seed)


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "kind", "owner")
    list_filter = ("campaign", "kind")
    readonly_fields = ("sheet",)
