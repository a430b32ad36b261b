from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    mayor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_as_mayor", verbose_name=_("Mayor")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaign_detail", args=[self.pk])


class Membership(models.Model):
    class Role(models.TextChoices):
        MAYOR = "mayor", _("Mayor")
        PLAYER = "player", _("Player")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.campaign}"


class Invite(models.Model):
    """An invite link. Only the SHA-256 of its random token is stored."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    max_uses = models.PositiveIntegerField(_("uses allowed"))
    uses = models.PositiveIntegerField(_("times used"), default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"invite #{self.pk} to {self.campaign}"


class CampaignEvent(models.Model):
    """The campaign's append-only activity log. Its ids are the live bus versions."""

    class Kind(models.TextChoices):
        CREATED = "created", _("campaign created")
        JOINED = "joined", _("joined")
        INVITE_CREATED = "invite_created", _("invite created")
        INVITE_REVOKED = "invite_revoked", _("invite revoked")
        CHARACTER_CREATED = "character_created", _("created a character")
        CATALOGUE_EDITED = "catalogue_edited", _("edited the equipment catalogue")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["campaign", "-id"])]

    def __str__(self) -> str:
        return f"{self.kind} in {self.campaign_id}"
