"""On PostgreSQL the invite row lock makes the last use of an invite go to exactly one player."""

import threading

import pytest
from django.db import connection

from frontera.campaigns import services
from frontera.campaigns.models import Invite, Membership
from tests.factories import make_campaign, make_user


@pytest.mark.django_db(transaction=True)
def test_last_invite_use_is_granted_once_under_concurrency():
    campaign = make_campaign()
    invite, token = services.invite_create(campaign=campaign, by=campaign.mayor, max_uses=1)
    players = [make_user() for _ in range(8)]
    barrier = threading.Barrier(len(players))
    outcomes = []

    def join(user):
        barrier.wait()
        try:
            services.invite_accept(token=token, user=user)
            outcomes.append("joined")
        except services.CampaignError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(p,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["joined"] + ["refused"] * 7
    assert Invite.objects.get(pk=invite.pk).uses == 1
    assert Membership.objects.filter(campaign=campaign, role="player").count() == 1
