"""A real Celery worker on real Redis runs the invite e-mail task."""

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail

from frontera.campaigns import services
from frontera.campaigns.tasks import send_invite_email
from frontera.celery import app
from tests.factories import make_campaign


@pytest.fixture
def celery_worker(transactional_db):
    assert not app.conf.task_always_eager, "the services suite must not run Celery eagerly"
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as worker:
        yield worker


def test_invite_email_task_runs_on_a_real_worker(celery_worker, django_capture_on_commit_callbacks):
    campaign = make_campaign(name="Black Rock")
    invite, token = services.invite_create(campaign=campaign, by=campaign.mayor)
    result = send_invite_email.delay(invite.pk, "amiga@example.com", f"http://x/invitacion/{token}/")
    assert result.get(timeout=20) is True
    assert len(mail.outbox) == 1
    assert token in mail.outbox[0].body


def test_revoked_invite_sends_nothing(celery_worker):
    campaign = make_campaign()
    invite, token = services.invite_create(campaign=campaign, by=campaign.mayor)
    services.invite_revoke(invite=invite, by=campaign.mayor)
    assert send_invite_email.delay(invite.pk, "a@example.com", "http://x/").get(timeout=20) is False
    assert mail.outbox == []
