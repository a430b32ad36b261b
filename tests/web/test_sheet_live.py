"""The character sheet follows the session its character sits at: a draw, a discard or a phase
switch refreshes the sheet's deck summary live (topic ``sheet:<id>``), for who may see the sheet
only, each viewer getting their own redacted fragment (FR-MODE-2, FR-MODE-7)."""

import asyncio
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from frontera.live import bus, topics
from frontera.live.views import composite_stream
from frontera.play.models import seat_key
from frontera.play.selectors.sheet import sheet_version
from frontera.play.services.checks import check_choose, check_draw, check_request
from frontera.play.services.sessions import phase_switch, session_start
from frontera.rules.cards import Card
from tests.factories import engine, make_campaign, make_minion, make_protagonist, make_table, make_user

CARD_CODE = re.compile(r"\b(?:10|[2-9JQKA])[♠♥♣♦]")


def _fragment(user, character) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(character.get_absolute_url() + "?fragment=sheet", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.text


def _deck(html: str) -> str:
    match = re.search(r'data-testid="deck-summary">(.*?)</section>', html, re.S)
    assert match, "no deck summary"
    return match.group(1)


@pytest.mark.django_db
def test_the_sheet_page_listens_to_the_sheet_topic_that_follows_its_session():
    session, _mayor, seated, _ = make_table()
    (player, hero), _ = seated
    client = Client()
    client.force_login(player)
    page = client.get(hero.get_absolute_url()).text
    topic = f"sheet:{hero.pk}"
    assert f'sse-connect="/live/{topic}/?since={sheet_version(hero.pk)}"' in page
    assert topics.sources(topic) == [f"character:{hero.pk}", f"session:{session.pk}"]


@pytest.mark.django_db
def test_session_actions_bump_what_the_sheet_listens_to_FR_MODE_4():
    session, mayor, seated, _ = make_table()
    (player, hero), _ = seated
    topic = f"sheet:{hero.pk}"
    seen = [topics.current_version(topic)]
    check = check_request(session=session, by=mayor, characters=[hero], trait="musculo")
    seen.append(topics.current_version(topic))
    participant = check_draw(participant=check.participants.get(), by=player)
    seen.append(topics.current_version(topic))
    check_choose(participant=participant, by=player, card=participant.drawn[0], suit="S")
    seen.append(topics.current_version(topic))
    phase_switch(session=session, by=mayor)
    seen.append(topics.current_version(topic))
    assert len(set(seen)) == len(seen), seen  # every action is a new version of the sheet


@pytest.mark.django_db
def test_a_played_card_and_a_phase_switch_show_in_the_fragment_FR_MODE_4_FR_MODE_7():
    session, mayor, seated, _ = make_table()
    (player, hero), (other, _) = seated
    assert "8 cartas en el mazo" in _deck(_fragment(player, hero))
    # Phase 1: the played card goes into the player's own deck (FR-MODE-4).
    check = check_request(session=session, by=mayor, characters=[hero], trait="musculo")
    participant = check_draw(participant=check.participants.get(), by=player)
    check_choose(participant=participant, by=player, card=participant.drawn[0], suit="S")
    for viewer in (player, other, mayor):
        assert "9 cartas en el mazo" in _deck(_fragment(viewer, hero))
    # Phase 2: the owner sees the deck by suit; the others still only counts (FR-MODE-7).
    phase_switch(session=session, by=mayor)
    own = _deck(_fragment(player, hero))
    assert "Fase 2" in own and "Tu mazo por palos" in own
    suits = [Card.from_uid(uid).suit for uid in engine(session).player_decks[seat_key(hero.pk)]]
    assert f'♠</span><span class="visually-hidden">picas</span> {suits.count("S")}' in own
    for viewer in (other, mayor):
        section = _deck(_fragment(viewer, hero))
        assert "Fase 2" in section and "9 cartas en el mazo" in section
        assert "Tu mazo por palos" not in section and not CARD_CODE.search(section)


@pytest.mark.django_db
def test_a_draw_in_phase_2_and_the_discard_show_in_the_fragment_FR_MODE_7():
    session, mayor, seated, _ = make_table(skip_phase_1=True)
    (player, hero), (other, _) = seated
    seat = seat_key(hero.pk)
    before = len(engine(session).player_decks[seat])
    assert f"{before} cartas en el mazo" in _deck(_fragment(other, hero))
    check = check_request(session=session, by=mayor, characters=[hero], trait="musculo")
    participant = check_draw(participant=check.participants.get(), by=player)
    drawn = len(participant.drawn)
    assert drawn >= 2
    section = _deck(_fragment(other, hero))
    assert f"{before - drawn} cartas en el mazo" in section and "0 cartas en los descartes" in section
    check_choose(participant=participant, by=player, card=participant.drawn[0], suit="S")
    after = engine(session)
    discard = after.player_discards[seat]
    assert discard and len(after.player_decks[seat]) != before - drawn  # played: discard; unchosen: back
    labels = [Card.from_uid(uid).label for uid in discard]
    for viewer in (player, other, mayor):
        section = _deck(_fragment(viewer, hero))
        assert f"{len(after.player_decks[seat])} cartas en el mazo" in section
        assert f"{len(discard)} carta" in section and "en los descartes" in section
        assert all(label in section for label in labels)  # the discard is public (FR-MODE-7)


@pytest.mark.django_db
def test_the_sheet_topic_is_only_for_who_may_see_the_sheet():
    session, mayor, seated, _ = make_table()
    (player, hero), (other, _) = seated
    minion = make_minion(session.campaign)
    outsider = make_user()
    topic = f"sheet:{hero.pk}"
    assert topics.resolve(topic, player) == sheet_version(hero.pk)
    assert topics.resolve(topic, other) is not None and topics.resolve(topic, mayor) is not None
    assert topics.resolve(topic, outsider) is None
    assert topics.resolve(f"sheet:{minion.pk}", player) is None  # an NPC's sheet is the Mayor's
    assert topics.resolve(f"sheet:{minion.pk}", mayor) is not None
    client = Client()
    client.force_login(outsider)
    for name in (topic, f"sheet:{minion.pk}", "sheet:999999", "sheet:x"):
        assert client.get(reverse("live_stream", args=[name])).status_code == 404
    client.force_login(player)
    assert client.get(reverse("live_stream", args=[f"sheet:{minion.pk}"])).status_code == 404
    client.logout()
    assert client.get(reverse("live_stream", args=[topic])).status_code == 404
    # and the sheet itself: 404 for the outsider, like the topic
    client.force_login(outsider)
    assert client.get(hero.get_absolute_url() + "?fragment=sheet", HTTP_HX_REQUEST="true").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_sheet_stream_pushes_on_a_session_action_and_says_nothing_else():
    session, mayor, seated, _ = make_table()
    (player, hero), _ = seated
    topic = f"sheet:{hero.pk}"
    version = sheet_version(hero.pk)

    async def scenario():
        stream = composite_stream(topic, version, keepalive=5)
        assert (await stream.__anext__()).startswith("retry:")
        assert "event: hello" in await stream.__anext__()
        await asyncio.to_thread(check_request, session=session, by=mayor, characters=[hero], trait="manos")
        message = await asyncio.wait_for(stream.__anext__(), 3)
        await stream.aclose()
        return message

    message = asyncio.run(scenario())
    now = sheet_version(hero.pk)
    assert now != version
    assert message.startswith(f"id: {now}\nevent: changed\n")
    assert json.loads(message.split("data: ", 1)[1]) == {"topic": topic, "version": now}


@pytest.mark.django_db(transaction=True)
def test_the_sheet_stream_ignores_other_sessions_and_picks_up_a_new_one():
    """A push of a session the character does not sit at changes nothing; a session started later
    is followed from the next tick on (its start publishes only its own topic)."""
    player = make_user()
    campaign = make_campaign(players=[player])
    hero = make_protagonist(campaign, player)
    topic = f"sheet:{hero.pk}"
    version = sheet_version(hero.pk)
    assert topics.sources(topic) == [f"character:{hero.pk}"]

    async def scenario():
        stream = composite_stream(topic, version, keepalive=0.2)
        await stream.__anext__()
        assert "event: hello" in await stream.__anext__()
        await asyncio.to_thread(bus.publish, "session:999999", 10**6)  # not followed
        assert await asyncio.wait_for(stream.__anext__(), 2) == ": keep-alive\n\n"
        started = await asyncio.to_thread(session_start, campaign=campaign, by=campaign.mayor,
                                          characters=[hero])
        message = ": keep-alive\n\n"
        while message == ": keep-alive\n\n":  # ticks may come while the session is being started
            message = await asyncio.wait_for(stream.__anext__(), 2)
        await stream.aclose()
        return started, message

    started, message = asyncio.run(scenario())
    assert topics.sources(topic) == [f"character:{hero.pk}", f"session:{started.pk}"]
    assert message.startswith(f"id: {sheet_version(hero.pk)}\nevent: changed\n")
