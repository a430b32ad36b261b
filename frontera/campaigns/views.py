"""Campaign pages. Thin: parse, ask permissions, call a service or selector, render.

A page's live regions are partials of the same template; an htmx request for
``?fragment=<name>`` gets ``campaign_detail.html#<name>`` from the same view.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from frontera.campaigns import selectors
from frontera.campaigns.forms import CampaignForm, InviteForm
from frontera.campaigns.models import Invite
from frontera.campaigns.permissions import campaign_for_mayor, campaign_for_member, is_mayor_of, is_member_of
from frontera.campaigns.services import (
    CampaignError,
    campaign_create,
    campaign_topic,
    invite_accept,
    invite_check,
    invite_create,
    invite_revoke,
)

DETAIL_FRAGMENTS = {"members", "activity", "invites"}


def home(request):
    if request.user.is_authenticated:
        return redirect("campaign_list")
    return render(request, "home.html")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_list(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = campaign_create(
            mayor=request.user, name=form.cleaned_data["name"], description=form.cleaned_data["description"]
        )
        messages.success(request, _("Campaign created. Invite your players with a link."))
        return redirect(campaign)
    return render(
        request,
        "campaigns/campaign_list.html",
        {"campaigns": selectors.campaigns_for_user(request.user), "form": form},
    )


def _detail_context(request, campaign, **extra):
    mayor = is_mayor_of(request.user, campaign)
    return {
        "campaign": campaign,
        "is_mayor": mayor,
        "members": selectors.campaign_members(campaign),
        "activity": selectors.campaign_activity(campaign),
        "invites": selectors.campaign_invites(campaign) if mayor else [],
        "invite_form": InviteForm() if mayor else None,
        "live_topic": campaign_topic(campaign.pk),
        "live_version": selectors.campaign_version(campaign.pk),
        **extra,
    }


@login_required
@vary_on_headers("HX-Request")
def campaign_detail(request, pk: int):
    campaign = campaign_for_member(request.user, pk)
    fragment = request.GET.get("fragment")
    context = _detail_context(request, campaign)
    if request.htmx and fragment in DETAIL_FRAGMENTS:
        if fragment == "invites" and not context["is_mayor"]:
            raise Http404
        return render(request, f"campaigns/campaign_detail.html#{fragment}", context)
    return render(request, "campaigns/campaign_detail.html", context)


@login_required
@require_POST
def invite_new(request, pk: int):
    campaign = campaign_for_mayor(request.user, pk)
    form = InviteForm(request.POST)
    new_link = None
    if form.is_valid():
        try:
            _invite, token = invite_create(
                campaign=campaign,
                by=request.user,
                days=form.cleaned_data["days"],
                max_uses=form.cleaned_data["max_uses"],
                email=form.cleaned_data["email"] or "",
                link_base=request.build_absolute_uri(reverse("invite_join", args=["x"]))[:-2],
            )
        except CampaignError as err:
            form.add_error(None, str(err))
        else:
            new_link = request.build_absolute_uri(reverse("invite_join", args=[token]))
            form = InviteForm()
    context = _detail_context(request, campaign, invite_form=form, new_link=new_link)
    if request.htmx:
        return render(request, "campaigns/campaign_detail.html#invites", context)
    return render(request, "campaigns/campaign_detail.html", context, status=200 if form.is_valid() or new_link else 400)


@login_required
@require_POST
def invite_cancel(request, pk: int, invite_id: int):
    campaign = campaign_for_mayor(request.user, pk)
    invite = get_object_or_404(Invite, pk=invite_id, campaign=campaign)
    try:
        invite_revoke(invite=invite, by=request.user)
    except CampaignError as err:
        messages.error(request, str(err))
    else:
        messages.success(request, _("Invite revoked."))
    if request.htmx:
        return render(request, "campaigns/campaign_detail.html#invites", _detail_context(request, campaign))
    return redirect(campaign)


@require_http_methods(["GET", "POST"])
def invite_join(request, token: str):
    """Opening an invite link: log in (or sign up) first, then confirm and join as a player."""
    try:
        invite = invite_check(token)
    except CampaignError as err:
        return render(request, "campaigns/invite_join.html", {"error": str(err)}, status=410)
    if not request.user.is_authenticated:
        return render(request, "campaigns/invite_join.html", {"invite": invite, "next": request.path})
    if request.method == "POST":
        try:
            campaign = invite_accept(token=token, user=request.user)
        except CampaignError as err:
            return render(request, "campaigns/invite_join.html", {"invite": invite, "error": str(err)}, status=409)
        messages.success(request, _("Welcome to %(name)s!") % {"name": campaign.name})
        return redirect(campaign)
    already = is_member_of(request.user, invite.campaign)
    return render(request, "campaigns/invite_join.html", {"invite": invite, "already_member": already})
