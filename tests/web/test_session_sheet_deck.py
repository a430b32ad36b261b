"""The character sheet's deck summary during a session: counts for everyone, the composition by
suit only for the character's own player and only from phase 2 (FR-MODE-2, FR-MODE-7)."""

import re

import pytest
from django.test import Client

from frontera.play.models import seat_key
from frontera.rules.cards import Card
from tests.factories import engine, make_protagonist, make_table

pytestmark = pytest.mark.django_db

CARD_CODE = re.compile(r"\b(?:10|[2-9JQKA])[♠♥♣♦]")


def _sheet(user, character):
    client = Client()
    client.force_login(user)
    return client.get(character.get_absolute_url()).text


def _deck_section(html: str) -> str:
    match = re.search(r'data-testid="deck-summary">(.*?)</section>', html, re.S)
    return match.group(1) if match else ""


def test_fr_mode_2_phase_1_sheet_shows_only_counts_even_to_the_owner():
    session, mayor, seated, _ = make_table()
    (player, hero), (other, _) = seated
    own = _deck_section(_sheet(player, hero))
    assert "8 cartas en el mazo" in own and "Fase 1" in own
    assert "Tu mazo por palos" not in own
    assert not CARD_CODE.search(own)
    for viewer in (other, mayor):
        section = _deck_section(_sheet(viewer, hero))
        assert "8 cartas en el mazo" in section and not CARD_CODE.search(section)


def test_fr_mode_7_phase_2_owner_sees_the_deck_by_suit_others_only_counts():
    session, mayor, seated, _ = make_table(skip_phase_1=True)
    (player, hero), (other, _) = seated
    state = engine(session)
    suits = [Card.from_uid(uid).suit for uid in state.player_decks[seat_key(hero.pk)]]
    own = _deck_section(_sheet(player, hero))
    assert "Tu mazo por palos" in own
    assert f'♠</span><span class="visually-hidden">picas</span> {suits.count("S")}' in own
    assert f'♥</span><span class="visually-hidden">corazones</span> {suits.count("H")}' in own
    for viewer in (other, mayor):
        section = _deck_section(_sheet(viewer, hero))
        assert f"{len(suits)} cartas en el mazo" in section
        assert "Tu mazo por palos" not in section and not CARD_CODE.search(section)


def test_no_session_no_deck_summary():
    from tests.factories import make_campaign, make_user

    player = make_user()
    campaign = make_campaign(players=[player])
    hero = make_protagonist(campaign, player)
    assert 'data-testid="deck-summary"' not in _sheet(player, hero)
