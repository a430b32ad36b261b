"""Campaigns, roles and invites: creation, invite links, joining, permissions (404 outside)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from frontera.campaigns import services
from frontera.campaigns.models import Campaign, CampaignEvent, Invite, Membership
from frontera.campaigns.permissions import is_mayor_of, is_member_of, is_player_of, owns_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def test_create_campaign_makes_creator_mayor(client):
    mayor = make_user()
    client.force_login(mayor)
    response = client.post(reverse("campaign_list"), {"name": "Black Rock", "description": ""})
    campaign = Campaign.objects.get()
    assert response.url == campaign.get_absolute_url()
    assert is_mayor_of(mayor, campaign) and not is_player_of(mayor, campaign)
    assert "Black Rock" in client.get(reverse("campaign_list")).text


def test_campaign_list_shows_only_own_campaigns(client):
    mine = make_campaign(name="Mía")
    make_campaign(name="Ajena")
    client.force_login(mine.mayor)
    page = client.get(reverse("campaign_list")).text
    assert "Mía" in page and "Ajena" not in page


def test_campaign_list_counts_every_member_for_every_viewer(client):
    """Issue #10: a table of 5 (the Mayor and 4 players) says 5 members, for the Mayor and a player."""
    players = [make_user() for _ in range(4)]
    campaign = make_campaign(name="Cinco", players=players)
    for user in (campaign.mayor, players[0]):
        client.force_login(user)
        page = client.get(reverse("campaign_list")).text
        assert "5 miembros" in page, page


def test_invite_token_is_stored_hashed_and_shown_once(client):
    campaign = make_campaign()
    client.force_login(campaign.mayor)
    response = client.post(reverse("invite_new", args=[campaign.pk]), {"days": 3, "max_uses": 2, "email": ""})
    invite = Invite.objects.get()
    token = response.context["new_link"].rstrip("/").rsplit("/", 1)[1]
    assert invite.token_hash == services.hash_token(token)
    assert token not in invite.token_hash
    assert token not in client.get(campaign.get_absolute_url()).text


def test_join_through_invite_link(client):
    campaign = make_campaign()
    _invite, token = services.invite_create(campaign=campaign, by=campaign.mayor, max_uses=2)
    player = make_user("jugadora")
    client.force_login(player)
    url = reverse("invite_join", args=[token])
    page = client.get(url)
    assert campaign.name in page.text
    response = client.post(url)
    assert response.url == campaign.get_absolute_url()
    assert is_player_of(player, campaign)
    assert CampaignEvent.objects.filter(campaign=campaign, kind="joined", actor=player).exists()
    assert Invite.objects.get().uses == 1


def test_anonymous_invite_link_offers_login_and_signup_with_next(client):
    campaign = make_campaign()
    _invite, token = services.invite_create(campaign=campaign, by=campaign.mayor)
    page = client.get(reverse("invite_join", args=[token])).text
    assert f"next=/invitacion/{token}/" in page.replace("%2F", "/")


@pytest.mark.parametrize(
    ("state", "spanish", "english"),
    [
        ("expired", "ha caducado", "has expired"),
        ("revoked", "fue revocado", "was revoked"),
        ("used_up", "ya se ha usado", "has already been used"),
        ("unknown", "no es válido", "is not valid"),
    ],
)
def test_bad_invites_get_clear_message_and_change_nothing(client, state, spanish, english):
    campaign = make_campaign()
    invite, token = services.invite_create(campaign=campaign, by=campaign.mayor, max_uses=1)
    if state == "expired":
        Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    elif state == "revoked":
        services.invite_revoke(invite=invite, by=campaign.mayor)
    elif state == "used_up":
        services.invite_accept(token=token, user=make_user())
    elif state == "unknown":
        token = "no-existe"
    members_before = Membership.objects.count()
    player = make_user()
    client.force_login(player)
    response = client.post(reverse("invite_join", args=[token]))
    assert response.status_code == 410
    assert spanish in response.text and "Pide otro al Mayor." in response.text  # what to do, for every state
    assert Membership.objects.count() == members_before
    assert not is_member_of(player, campaign)
    client.logout()  # someone not logged in is offered to log in, not "your campaigns"
    anonymous = client.get(reverse("invite_join", args=[token])).text
    assert "Pide otro al Mayor." in anonymous and reverse("login") in anonymous
    assert reverse("campaign_list") not in anonymous.split("<main", 1)[-1]
    response = client.post(reverse("invite_join", args=[token]), headers={"accept-language": "en"})
    assert english in response.text


def test_joining_twice_is_refused_without_using_the_invite(client):
    player = make_user()
    campaign = make_campaign(players=[player])
    _invite, token = services.invite_create(campaign=campaign, by=campaign.mayor)
    client.force_login(player)
    response = client.post(reverse("invite_join", args=[token]))
    assert response.status_code == 409
    assert "Ya perteneces a esta campaña" in response.text
    assert Invite.objects.get(token_hash=services.hash_token(token)).uses == 0


def test_revoke_invite(client):
    campaign = make_campaign()
    invite, _token = services.invite_create(campaign=campaign, by=campaign.mayor)
    client.force_login(campaign.mayor)
    client.post(reverse("invite_revoke", args=[campaign.pk, invite.pk]))
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    assert services.invite_status(invite) == "revoked"


@pytest.mark.parametrize(("days", "uses"), [(0, 1), (31, 1), (1, 0), (1, 51)])
def test_invite_bounds_are_enforced(days, uses):
    campaign = make_campaign()
    with pytest.raises(services.CampaignError):
        services.invite_create(campaign=campaign, by=campaign.mayor, days=days, max_uses=uses)
    assert not Invite.objects.exists()


def test_invite_form_errors_shown_and_nothing_created(client):
    campaign = make_campaign()
    client.force_login(campaign.mayor)
    response = client.post(reverse("invite_new", args=[campaign.pk]), {"days": 99, "max_uses": 1})
    assert response.status_code == 400
    assert not Invite.objects.exists()


def test_outsider_gets_404_for_every_campaign_url(client):
    player = make_user()
    campaign = make_campaign(players=[player])
    invite, _token = services.invite_create(campaign=campaign, by=campaign.mayor)
    outsider = make_user()
    client.force_login(outsider)
    pk = campaign.pk
    for method, url in [
        ("get", reverse("campaign_detail", args=[pk])),
        ("get", reverse("campaign_detail", args=[pk]) + "?fragment=members"),
        ("post", reverse("invite_new", args=[pk])),
        ("post", reverse("invite_revoke", args=[pk, invite.pk])),
        ("get", reverse("live_stream", args=[f"campaign:{pk}"])),
    ]:
        response = getattr(client, method)(url, headers={"hx-request": "true"})
        assert response.status_code == 404, url
    invite.refresh_from_db()
    assert services.invite_status(invite) == "active"


def test_player_cannot_manage_invites(client):
    player = make_user()
    campaign = make_campaign(players=[player])
    client.force_login(player)
    assert client.post(reverse("invite_new", args=[campaign.pk]), {"days": 1, "max_uses": 1}).status_code == 404
    assert client.get(reverse("campaign_detail", args=[campaign.pk]) + "?fragment=invites", headers={"hx-request": "true"}).status_code == 404
    page = client.get(campaign.get_absolute_url()).text
    assert 'id="invites"' not in page
    assert Invite.objects.count() == 1  # the one used by make_campaign


def test_htmx_fragment_is_the_same_partial():
    from django.test import Client

    player = make_user()
    campaign = make_campaign(players=[player])
    client = Client()
    client.force_login(campaign.mayor)
    fragment = client.get(campaign.get_absolute_url() + "?fragment=members", headers={"hx-request": "true"})
    assert fragment.text.lstrip().startswith('<section id="members"')
    assert player.username in fragment.text
    assert "HX-Request" in fragment["Vary"]


def test_owns_character_compares_owner():
    user, other = make_user(), make_user()

    class Character:
        owner_id = user.pk

    assert owns_character(user, Character()) and not owns_character(other, Character())


def test_invite_email_task_sends_link(django_capture_on_commit_callbacks, mailoutbox, monkeypatch):
    """The e-mail task is enqueued on commit and sends the link (run inline here; the services
    suite runs it on a real worker)."""
    from frontera.celery import app

    monkeypatch.setattr(app.conf, "task_always_eager", True)
    campaign = make_campaign(name="Black Rock")
    with django_capture_on_commit_callbacks(execute=True):
        services.invite_create(campaign=campaign, by=campaign.mayor, email="amiga@example.com", link_base="http://x/invitacion/")
    assert len(mailoutbox) == 1
    assert "Black Rock" in mailoutbox[0].subject
    assert "http://x/invitacion/" in mailoutbox[0].body
