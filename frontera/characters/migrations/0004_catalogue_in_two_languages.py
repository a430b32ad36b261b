"""Issue #12: every catalogue entry carries both languages. The seeded entries get their English
name and notes; an entry the Mayor renamed keeps his Spanish and gets the English only where the
seeded Spanish name is unchanged."""

from django.db import migrations, models


def fill_english(apps, schema_editor):
    from frontera.characters.catalogue_notes import NAMES_EN, NOTES_ES, NOTES_EN
    from frontera.rules import characters as rules

    CatalogueItem = apps.get_model("characters", "CatalogueItem")
    seeded = rules.catalogue()
    for item in CatalogueItem.objects.all():
        changed = []
        book = seeded.get(item.key, {})
        if not item.name_en and item.key in NAMES_EN and item.name == book.get("name", item.name):
            item.name_en = NAMES_EN[item.key]
            changed.append("name_en")
        if not item.notes_en and item.key in NOTES_EN and item.notes == NOTES_ES.get(item.key, item.notes):
            item.notes_en = NOTES_EN[item.key]
            changed.append("notes_en")
        if changed:
            item.save(update_fields=changed)


class Migration(migrations.Migration):
    dependencies = [("characters", "0003_event_kind_play")]

    operations = [
        migrations.AddField(model_name="catalogueitem", name="name_en",
                            field=models.CharField(blank=True, max_length=80, verbose_name="name in English")),
        migrations.AddField(model_name="catalogueitem", name="notes_en",
                            field=models.TextField(blank=True, verbose_name="notes in English")),
        migrations.RunPython(fill_english, migrations.RunPython.noop),
    ]
