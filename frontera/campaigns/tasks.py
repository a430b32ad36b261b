"""Background work of the campaigns app."""

from celery import shared_task
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from frontera.campaigns.models import Invite


@shared_task(acks_late=True)
def send_invite_email(invite_id: int, email: str, url: str, language: str = "es") -> bool:
    """E-mail an invite link. Idempotent enough: a revoked or missing invite sends nothing."""
    invite = Invite.objects.select_related("campaign", "created_by").filter(pk=invite_id).first()
    if invite is None or invite.revoked_at is not None:
        return False
    with translation.override(language):
        subject = _("You are invited to the campaign “%(name)s”") % {"name": invite.campaign.name}
        body = render_to_string("campaigns/invite_email.txt", {"invite": invite, "url": url})
    send_mail(subject, body, None, [email])
    return True
