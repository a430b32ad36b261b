"""Base template: CSP with nonces and nothing inline without one, htmx, CSRF header, i18n."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import make_campaign, make_user

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def _pages(client):
    player = make_user()
    campaign = make_campaign(players=[player])
    anonymous = [reverse("home"), reverse("login"), reverse("signup"), reverse("password_reset")]
    pages = [(None, url) for url in anonymous]
    pages += [
        (campaign.mayor, reverse("campaign_list")),
        (campaign.mayor, campaign.get_absolute_url()),
        (player, campaign.get_absolute_url()),
        (player, reverse("cardgames_index")),
        (player, reverse("cardgames_game", args=["boom"])),
        (player, reverse("password_change")),
    ]
    return pages


def test_every_page_has_csp_nonce_and_no_inline_code_without_it(client):
    for user, url in _pages(client):
        client.logout()
        if user:
            client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200, url
        csp = response["Content-Security-Policy"]
        nonce = re.search(r"'nonce-([^']+)'", csp).group(1)
        assert "unsafe-inline" not in csp
        html = response.text
        for tag in re.findall(r"<script\b[^>]*>", html) + re.findall(r"<style\b[^>]*>", html):
            assert f'nonce="{nonce}"' in tag, (url, tag)
        assert not re.search(r"\sstyle=", html), url
        assert not re.search(r"\son[a-z]+=", html), url
        assert "htmx-2.min.js" in html
        assert 'hx-headers=\'{"X-CSRFToken": "' in html
        assert '"historyCacheSize": 0' in html
        assert 'class="loading htmx-indicator"' in html


def test_spanish_by_default_and_english_on_switch(client):
    assert '<html lang="es">' in client.get(reverse("login")).text
    assert "Entrar" in client.get(reverse("login")).text
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})
    assert response.status_code == 302
    page = client.get(reverse("login")).text
    assert '<html lang="en">' in page and "Log in" in page


def test_spanish_catalogue_is_complete():
    """Every message of the app has a Spanish translation (English is the source language)."""
    po = (ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po").read_text()
    entries = po.split("\n\n")[1:]
    untranslated = [e for e in entries if re.search(r'msgstr(\[0\])? ""\n(?!")', e + "\n") or "#, fuzzy" in e]
    assert untranslated == []


def test_404_not_403_and_friendly(client):
    client.force_login(make_user())
    response = client.get("/campanas/424242/")
    assert response.status_code == 404


def test_check_deploy_is_clean_in_production_mode():
    env = {
        "FRONTERA_ENV": "production",
        "SECRET_KEY": "x" * 20 + "k3Y_w1th-enough-entropy-for-django-checks!!",
        "ALLOWED_HOSTS": "frontera.example.com",
        "DATABASE_URL": "",
        "PATH": "/usr/bin:/bin",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_an_sqlite_database_url_gets_the_sqlite_settings(tmp_path):
    """A walk through the card tables on a ``DATABASE_URL=sqlite:///…`` server hit "database is
    locked" (a 500 on a move, a bot stuck) with three tables at once: a URL's SQLite file had none
    of the default file's settings (IMMEDIATE transactions, the busy timeout, WAL). It has now."""
    code = ("import django, json; django.setup(); from django.conf import settings; "
            "d = settings.DATABASES['default']; print(json.dumps([d['OPTIONS'], d['CONN_MAX_AGE']]))")
    out = {}
    for url in ("", f"sqlite:///{tmp_path / 'url.sqlite3'}"):
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                                env={**os.environ, "DJANGO_SETTINGS_MODULE": "frontera.settings", "DATABASE_URL": url,
                                     "SQLITE_PATH": str(tmp_path / "default.sqlite3")})
        assert result.returncode == 0, result.stderr
        out[url or "default"] = json.loads(result.stdout.strip().splitlines()[-1])
    options, age = out.pop("default")
    assert options["transaction_mode"] == "IMMEDIATE" and options["timeout"] == 20 and "WAL" in options["init_command"]
    assert list(out.values()) == [[options, age]]
