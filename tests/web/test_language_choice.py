"""Which language a person reads (issue #12): the browser's, Spanish when it asks for neither
Spanish nor English, and the choice made with the header's switch remembered per account."""

import pytest
from django.test import Client
from django.urls import reverse

from frontera.accounts.models import Preferences
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def _log_in(client, username) -> None:
    """Through the log-in page, as a person does (django-axes needs the request)."""
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.status_code


def _lang(response) -> str:
    return response.text.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize(("asks", "reads"), [
    ("", "es"), ("es-ES,es;q=0.9", "es"), ("en-GB,en;q=0.9", "en"), ("en", "en"),
    ("fr-FR,fr;q=0.9", "es"), ("de-DE,de;q=0.9,pt;q=0.5", "es"), ("de-DE,en;q=0.5", "en"),
])
def test_the_browsers_language_or_spanish_when_it_asks_for_neither(asks, reads):
    client = Client(HTTP_ACCEPT_LANGUAGE=asks) if asks else Client()
    assert _lang(client.get(reverse("login"))) == reads


def test_the_choice_of_a_logged_in_person_is_remembered_on_their_account_and_applied_at_log_in():
    user = make_user("ana")
    laptop = Client(HTTP_ACCEPT_LANGUAGE="es")
    _log_in(laptop, "ana")
    assert _lang(laptop.get(reverse("campaign_list"))) == "es"
    response = laptop.post(reverse("set_language"), {"language": "en", "next": reverse("campaign_list")})
    assert response.status_code == 302
    assert Preferences.objects.get(user=user).language == "en"
    assert _lang(laptop.get(reverse("campaign_list"))) == "en"
    # Another browser that asks for Spanish, with no cookie: the account's English after log-in.
    phone = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    assert _lang(phone.get(reverse("login"))) == "es"
    _log_in(phone, "ana")
    assert _lang(phone.get(reverse("campaign_list"))) == "en"
    # Switching back on the phone is remembered too.
    phone.post(reverse("set_language"), {"language": "es", "next": reverse("campaign_list")})
    assert Preferences.objects.get(user=user).language == "es"
    assert _lang(phone.get(reverse("campaign_list"))) == "es"


def test_a_switch_while_logged_out_remembers_nothing_on_any_account_and_bad_codes_are_ignored():
    user = make_user("bea")
    client = Client()
    client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})
    assert _lang(client.get(reverse("login"))) == "en"  # Django's cookie
    assert not Preferences.objects.exists()
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "xx", "next": reverse("login")})
    assert not Preferences.objects.filter(user=user).exists()


def test_an_account_without_a_choice_follows_the_browser():
    make_user("cai")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    _log_in(client, "cai")
    assert _lang(client.get(reverse("campaign_list"))) == "en"
