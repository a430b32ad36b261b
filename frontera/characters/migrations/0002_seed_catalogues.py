"""Give every existing campaign the rules engine's equipment catalogue (FR-CHAR-5).

New campaigns get it from ``campaign_create``."""

from django.db import migrations


def seed(apps, schema_editor):
    from frontera.characters.catalogue_notes import NOTES_ES
    from frontera.rules.characters import catalogue

    Campaign = apps.get_model("campaigns", "Campaign")
    CatalogueItem = apps.get_model("characters", "CatalogueItem")
    entries = catalogue()
    for campaign in Campaign.objects.all():
        existing = set(CatalogueItem.objects.filter(campaign=campaign).values_list("key", flat=True))
        for position, (key, entry) in enumerate(entries.items()):
            if key in existing:
                continue
            bands = entry.get("range") or {}
            CatalogueItem.objects.create(
                campaign=campaign, key=key, position=position, name=entry["name"], category=entry["category"],
                weapon_kind=entry.get("kind", ""), price=entry["price"], damage=entry.get("damage"),
                range_adyacente=bands.get("adyacente"), range_corto=bands.get("corto"),
                range_medio=bands.get("medio"), range_largo=bands.get("largo"), bonus=entry.get("bonus", {}),
                tags=entry.get("tags", []), notes=NOTES_ES.get(key, entry.get("notes", "")),
            )


class Migration(migrations.Migration):
    dependencies = [("characters", "0001_initial")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
