"""Accounts: sign up, log in and out, password change and reset, lockout by username + IP."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def test_signup_creates_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {"username": "nuevo", "email": "nuevo@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response.url == reverse("campaign_list")
    assert get_user_model().objects.filter(username="nuevo").exists()
    assert client.get(reverse("campaign_list")).status_code == 200


def test_signup_follows_safe_next_only(client):
    data = {"username": "a1", "email": "a1@example.com", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("signup") + "?next=https://evil.example/", data)
    assert response.url == reverse("campaign_list")


def test_signup_bad_input_changes_nothing(client):
    make_user("ocupado")
    response = client.post(
        reverse("signup"), {"username": "ocupado", "email": "x@example.com", "password1": "a", "password2": "b"}
    )
    assert response.status_code == 200
    assert get_user_model().objects.count() == 1
    assert "Ya existe un usuario con este nombre" in response.text


def test_a_weak_passwords_reasons_are_said_under_the_password_not_its_confirmation(client):
    weak = "password123"
    response = client.post(reverse("signup"), {"username": "nuevo", "email": "n@example.com",
                                               "password1": weak, "password2": weak})
    form = response.context["form"]
    assert "password1" in form.errors and "password2" not in form.errors
    assert not get_user_model().objects.filter(username="nuevo").exists()


def test_wrong_password_gets_clear_spanish_message(client):
    make_user("ana")
    response = client.post(reverse("login"), {"username": "ana", "password": "mal"})
    assert response.status_code == 200
    assert "Escribe un nombre de usuario y una contraseña correctos" in response.text  # tú, as the whole UI


def test_wrong_password_in_english(client):
    make_user("ana")
    client.cookies["django_language"] = "en"
    response = client.post(reverse("login"), {"username": "ana", "password": "mal"}, headers={"accept-language": "en"})
    assert "Please enter a correct username and password" in response.text


def test_login_and_logout(client):
    make_user("ana")
    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("campaign_list")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("campaign_list")).status_code == 302


def test_password_change(client):
    user = make_user("ana")
    client.force_login(user)
    new = "otra-clave-mas-larga-9"
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_password_reset_sends_link_and_sets_new_password(client):
    make_user("ana")
    response = client.post(reverse("password_reset"), {"email": "ana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/\S+/)", mail.outbox[0].body).group(1)
    page = client.get(link, follow=True)
    new = "otra-clave-mas-larga-9"
    response = client.post(page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert client.post(reverse("login"), {"username": "ana", "password": new}).status_code == 302


def _fail(client, username, ip, times):
    for _ in range(times):
        client.post(reverse("login"), {"username": username, "password": "mal"}, REMOTE_ADDR=ip)


def test_lockout_is_by_username_and_ip_not_ip_alone(client, settings):
    make_user("ana")
    make_user("beto")
    _fail(client, "ana", "10.0.0.1", settings.AXES_FAILURE_LIMIT)
    locked = client.post(reverse("login"), {"username": "ana", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1")
    assert locked.status_code == 429
    assert "Demasiados intentos" in locked.text
    # Another player at the same table (same Wi-Fi) still logs in.
    ok = client.post(reverse("login"), {"username": "beto", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1")
    assert ok.status_code == 302
    client.post(reverse("logout"))
    # The same account from another network is not locked either.
    other = client.post(reverse("login"), {"username": "ana", "password": PASSWORD}, REMOTE_ADDR="10.0.0.2")
    assert other.status_code == 302
