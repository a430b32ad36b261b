"""Every write of the campaigns app. Each function is atomic, locks what it changes, appends to the
campaign's activity log and publishes on the live bus after commit."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from frontera.campaigns import hooks
from frontera.campaigns.models import Campaign, CampaignEvent, Invite, Membership
from frontera.live.bus import publish_on_commit

E_INVITE_UNKNOWN = _("This invite link is not valid. Ask the Mayor for a new one.")
E_INVITE_EXPIRED = _("This invite link has expired. Ask the Mayor for a new one.")
E_INVITE_REVOKED = _("This invite link was revoked by the Mayor. Ask the Mayor for a new one.")
E_INVITE_USED_UP = _("This invite link has already been used as many times as allowed. Ask the Mayor for a new one.")
E_ALREADY_MEMBER = _("You already belong to this campaign.")
E_BAD_INVITE_DAYS = _("An invite must last between 1 and 30 days.")
E_BAD_INVITE_USES = _("An invite can be used between 1 and 50 times.")
E_INVITE_NOT_ACTIVE = _("This invite is no longer active.")


class CampaignError(ValueError):
    """A refused campaign action; ``str(err)`` is a message for the user, in their language."""

    def __init__(self, message) -> None:
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.message)


def _now() -> datetime:
    return timezone.now()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def campaign_topic(campaign_id: int) -> str:
    return f"campaign:{campaign_id}"


def _log(*, campaign: Campaign, actor, kind: str) -> CampaignEvent:
    event = CampaignEvent.objects.create(campaign=campaign, actor=actor, kind=kind)
    publish_on_commit(campaign_topic(campaign.pk), event.pk)
    return event


def campaign_log(*, campaign: Campaign, actor, kind: str) -> CampaignEvent:
    """Append ``kind`` to the campaign's activity feed and push it to open campaign pages after
    commit. For other apps' services (a character created, the catalogue edited): call it inside
    their transaction."""
    return _log(campaign=campaign, actor=actor, kind=kind)


@transaction.atomic
def campaign_create(*, mayor, name: str, description: str = "") -> Campaign:
    campaign = Campaign.objects.create(mayor=mayor, name=name.strip(), description=description.strip())
    Membership.objects.create(campaign=campaign, user=mayor, role=Membership.Role.MAYOR)
    _log(campaign=campaign, actor=mayor, kind=CampaignEvent.Kind.CREATED)
    hooks.campaign_created(campaign=campaign)  # characters: the campaign's own equipment catalogue
    return campaign


@transaction.atomic
def invite_create(
    *, campaign: Campaign, by, days: int | None = None, max_uses: int | None = None, email: str = "", link_base: str = ""
) -> tuple[Invite, str]:
    """Create an invite; returns it and its raw token (shown once, never stored).

    If ``email`` is given, the link is sent by a Celery task after commit.
    """
    days = settings.INVITE_DEFAULT_DAYS if days is None else days
    max_uses = settings.INVITE_DEFAULT_USES if max_uses is None else max_uses
    if not 1 <= days <= 30:
        raise CampaignError(E_BAD_INVITE_DAYS)
    if not 1 <= max_uses <= 50:
        raise CampaignError(E_BAD_INVITE_USES)
    token = secrets.token_urlsafe(24)
    invite = Invite.objects.create(
        campaign=campaign,
        token_hash=hash_token(token),
        created_by=by,
        expires_at=_now() + timedelta(days=days),
        max_uses=max_uses,
    )
    _log(campaign=campaign, actor=by, kind=CampaignEvent.Kind.INVITE_CREATED)
    if email:
        from frontera.campaigns.tasks import send_invite_email

        send_invite_email.delay_on_commit(invite.pk, email, f"{link_base}{token}/")
    return invite, token


def invite_status(invite: Invite) -> str:
    """``"active"``, ``"revoked"``, ``"expired"`` or ``"used_up"``."""
    if invite.revoked_at is not None:
        return "revoked"
    if invite.expires_at <= _now():
        return "expired"
    if invite.uses >= invite.max_uses:
        return "used_up"
    return "active"


_STATUS_ERRORS = {"revoked": E_INVITE_REVOKED, "expired": E_INVITE_EXPIRED, "used_up": E_INVITE_USED_UP}


def invite_check(token: str) -> Invite:
    """The usable invite behind ``token``, or a :class:`CampaignError` saying why not. Read-only."""
    invite = Invite.objects.select_related("campaign").filter(token_hash=hash_token(token)).first()
    if invite is None:
        raise CampaignError(E_INVITE_UNKNOWN)
    status = invite_status(invite)
    if status != "active":
        raise CampaignError(_STATUS_ERRORS[status])
    return invite


@transaction.atomic
def invite_accept(*, token: str, user) -> Campaign:
    """Join the invite's campaign as a player; counts one use. Idempotent errors change nothing."""
    invite = invite_check(token)
    invite = Invite.objects.select_for_update().select_related("campaign").get(pk=invite.pk)
    status = invite_status(invite)  # re-checked under the lock: two phones, one last use
    if status != "active":
        raise CampaignError(_STATUS_ERRORS[status])
    campaign = invite.campaign
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise CampaignError(E_ALREADY_MEMBER)
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    invite.uses += 1
    invite.save(update_fields=["uses"])
    _log(campaign=campaign, actor=user, kind=CampaignEvent.Kind.JOINED)
    return campaign


@transaction.atomic
def invite_revoke(*, invite: Invite, by) -> Invite:
    invite = Invite.objects.select_for_update().get(pk=invite.pk)
    if invite_status(invite) != "active":
        raise CampaignError(E_INVITE_NOT_ACTIVE)
    invite.revoked_at = _now()
    invite.save(update_fields=["revoked_at"])
    _log(campaign=invite.campaign, actor=by, kind=CampaignEvent.Kind.INVITE_REVOKED)
    return invite


@transaction.atomic
def campaign_add_player(*, campaign: Campaign, user) -> Membership:
    """Add ``user`` as a player without an invite (the demo data; the Mayor's own tools later)."""
    membership, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER}
    )
    if created:
        _log(campaign=campaign, actor=user, kind=CampaignEvent.Kind.JOINED)
    return membership
