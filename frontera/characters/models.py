"""Characters of a campaign, their creation drafts, the campaign's equipment catalogue and the
character log (whose ids are the live versions of the ``character:<id>`` topic).

The rules data of a sheet (traits, skills, equipment, money, tracks, a minion's flat numbers) is
stored as the rules engine's own JSON (:meth:`frontera.rules.characters.Character.to_json`), and
every write goes through ``Character.from_json`` in the services, so a stored sheet is always valid.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from frontera.campaigns.models import Campaign
from frontera.sql import column, load, table


class CharacterManager(models.Manager):
    def by_id(self, ids) -> dict:
        """The characters ``ids`` as they are now, by id (those that exist): one statement loaded by
        :func:`frontera.sql.load`. A table action reads its characters' sheets under the
        session's lock with it; ``in_bulk`` took ~0.45 ms to build its query, the statement ~0.1 ms
        (issue #11)."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        marks = ", ".join(["%s"] * len(ids))
        sql = f"SELECT * FROM {table(self.model)} WHERE {column(self.model, 'pk')} IN ({marks})"
        return {character.pk: character for character in load(self.model, sql, ids)}

    def of_campaign(self, campaign_id: int) -> list:
        """Every character of a campaign by kind and name, in one statement loaded by
        :func:`frontera.sql.load` (the Mayor's board reads it on every rendering; issue #11)."""
        model = self.model
        sql = (f"SELECT * FROM {table(model)} WHERE {column(model, 'campaign')} = %s "
               f"ORDER BY {column(model, 'kind')}, {column(model, 'name')}, {column(model, 'pk')}")
        return load(model, sql, (campaign_id,))


class Character(models.Model):
    class Kind(models.TextChoices):
        PROTAGONIST = "protagonist", _("Protagonist")
        NPC = "npc", _("NPC")
        MINION = "minion", _("Minion")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="characters", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.PROTAGONIST)
    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    notes = models.TextField(_("notes"), blank=True)
    sheet = models.JSONField(_("sheet"), default=dict)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = CharacterManager()

    class Meta:
        ordering = ["campaign", "kind", "name", "pk"]
        verbose_name = _("character")
        verbose_name_plural = _("characters")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("character_sheet", args=[self.campaign_id, self.pk])


class CharacterDraft(models.Model):
    """A character being made with the wizard: one per person and campaign, kept until created."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="character_drafts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="character_drafts")
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_draft_per_user_and_campaign")]

    def __str__(self) -> str:
        return f"draft of {self.user_id} in {self.campaign_id}"


class CatalogueItem(models.Model):
    """One entry of a campaign's equipment catalogue, seeded from the rules engine's (FR-CHAR-5)."""

    class Category(models.TextChoices):
        WEAPON = "weapon", _("Weapon")
        GEAR = "gear", _("Gear")
        MOUNT = "mount", _("Mount")

    class WeaponKind(models.TextChoices):
        MELEE = "melee", _("melee")
        THROWN = "thrown", _("thrown")
        RANGED = "ranged", _("ranged")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="catalogue")
    key = models.SlugField(_("key"), max_length=40)
    name = models.CharField(_("name"), max_length=80)  # in Spanish, the book's language
    name_en = models.CharField(_("name in English"), max_length=80, blank=True)
    category = models.CharField(_("category"), max_length=10, choices=Category.choices)
    weapon_kind = models.CharField(_("weapon kind"), max_length=10, choices=WeaponKind.choices, blank=True)
    price = models.PositiveIntegerField(_("price ($)"))
    damage = models.PositiveSmallIntegerField(_("damage"), null=True, blank=True)
    range_adyacente = models.SmallIntegerField(_("Adyacente"), null=True, blank=True)
    range_corto = models.SmallIntegerField(_("Corto"), null=True, blank=True)
    range_medio = models.SmallIntegerField(_("Medio"), null=True, blank=True)
    range_largo = models.SmallIntegerField(_("Largo"), null=True, blank=True)
    bonus = models.JSONField(_("bonus cards"), default=dict, blank=True)
    tags = models.JSONField(default=list, blank=True)
    notes = models.TextField(_("notes"), blank=True)  # in Spanish
    notes_en = models.TextField(_("notes in English"), blank=True)
    in_shop = models.BooleanField(_("sold at creation"), default=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "position", "pk"]
        constraints = [models.UniqueConstraint(fields=["campaign", "key"], name="one_catalogue_entry_per_key")]
        verbose_name = _("catalogue item")
        verbose_name_plural = _("equipment catalogue")

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The name in the reader's language, or in the other one where this one is empty."""
        return _in_language(self.name, self.name_en)

    @property
    def display_notes(self) -> str:
        return _in_language(self.notes, self.notes_en)


def _in_language(spanish: str, english: str) -> str:
    if (get_language() or "es").startswith("en"):
        return english or spanish
    return spanish or english


class CharacterEvent(models.Model):
    """The character's append-only log. Its ids are the live versions of ``character:<id>``."""

    class Kind(models.TextChoices):
        CREATED = "created", _("character created")
        EDITED = "edited", _("sheet edited by the Mayor")
        NOTES = "notes", _("notes, money or description changed")
        PLAY = "play", _("changed in play")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["character", "-id"])]

    def __str__(self) -> str:
        return f"{self.kind} of {self.character_id}"
