"""Every read of the campaigns app that a page shows."""

from django.db.models import Count

from frontera.campaigns.models import Campaign, CampaignEvent, Invite, Membership
from frontera.campaigns.services import invite_status


def campaigns_for_user(user):
    # Filter by a subquery, not by ``memberships__user``: counting over that join would count only
    # the user's own membership ("1 member" for a table of 5).
    return (
        Campaign.objects.filter(pk__in=Membership.objects.filter(user=user).values("campaign"))
        .select_related("mayor")
        .annotate(member_count=Count("memberships", distinct=True))
        .order_by("-created_at")
    )


def campaign_members(campaign: Campaign):
    return list(Membership.objects.filter(campaign=campaign).select_related("user").order_by("joined_at", "pk"))


def campaign_activity(campaign: Campaign, limit: int = 15):
    return list(CampaignEvent.objects.filter(campaign=campaign).select_related("actor").order_by("-pk")[:limit])


def campaign_version(campaign_id: int) -> int:
    """The live-bus version of a campaign: its latest activity id (0 if none)."""
    return CampaignEvent.objects.filter(campaign_id=campaign_id).order_by("-pk").values_list("pk", flat=True).first() or 0


def campaign_invites(campaign: Campaign):
    """The Mayor's list of invites, each with its status. Tokens are never readable again."""
    invites = list(Invite.objects.filter(campaign=campaign).order_by("-created_at")[:20])
    for invite in invites:
        invite.status = invite_status(invite)
    return invites
