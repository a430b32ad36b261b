"""The campaign page's live topic: ``campaign:<id>``, readable by the campaign's members."""

from frontera.campaigns.models import Campaign
from frontera.campaigns.permissions import is_member_of
from frontera.campaigns.selectors import campaign_version
from frontera.live.topics import register


def _authorize(user, campaign_id: int) -> bool:
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    return campaign is not None and is_member_of(user, campaign)


register("campaign", authorize=_authorize, current_version=campaign_version)
