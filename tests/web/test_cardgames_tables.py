"""The bonus tables through the views (issue #13): each game played to its end by a client that only
submits the page's ``data-legal-action`` forms (no JavaScript), bots in the other seats (Celery is
eager here); bad and stale moves get a clear message and change nothing; the lobby, invite links,
spectators, replay and rematch."""

import random

import pytest
from django.urls import reverse

from cardgames import services
from cardgames.engines import get
from cardgames.models import Move, Seat, Table
from frontera.live import topics
from tests.factories import make_campaign, make_user
from tests.web.cardgames_forms import forms, play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bots_inline(monkeypatch):
    """The bot's task runs inline here, also when the suite runs again on PostgreSQL and Redis
    (suite 2, where tests/services drives a real worker)."""
    from frontera.celery import app

    monkeypatch.setattr(app.conf, "task_always_eager", True)
GAMES = ["pocobot", "palmera", "boom", "nismatch"]


@pytest.fixture(autouse=True)
def seeded_games(monkeypatch, request):
    """Every new game's deal comes from a seed derived from the test, so a failure reproduces."""
    import hashlib
    import itertools

    base = int.from_bytes(hashlib.sha256(request.node.nodeid.encode()).digest()[:6], "big")
    counter = itertools.count()
    monkeypatch.setattr(services, "new_seed", lambda: base + next(counter))


@pytest.fixture
def post(client, django_capture_on_commit_callbacks):
    """POST as a browser would, running what waits for the commit (the bot's task, eager)."""

    def send(url, data=None, **headers):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, data or {}, **headers)

    return send


def _login(client, user=None):
    user = user or make_user()
    client.force_login(user)
    return user


def _state(table):
    table.refresh_from_db()
    return get(table.game).from_json(table.state)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_has_one_new_table_form_whose_defaults_seat_you_against_strong_bots(client, post, game):
    user = _login(client)
    page = client.get(reverse("cardgames_game", args=[game])).text
    new_table = forms(page, "data-new-table")
    assert len(new_table) == 1
    assert new_table[0].attrs["method"] == "post"
    response = post(new_table[0].action, new_table[0].fields)
    assert response.status_code == 302
    table = Table.objects.get()
    assert response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.all())
    assert seats[0].user == user and seats[0].bot == ""
    assert all(s.bot == "strong" and s.user is None for s in seats[1:])
    assert "rules" in page and 'data-testid="rules"' in page  # the rules summary, a tap away


@pytest.mark.parametrize("game,seats", [("pocobot", 2), ("palmera", 2), ("boom", 2), ("boom", 4), ("nismatch", 2)])
def test_a_whole_seeded_game_through_the_views_by_forms_alone(client, post, game, seats):
    user = _login(client)
    data = {"seats": seats, **{f"seat_{i}": "random" for i in range(1, seats)}}
    response = post(reverse("cardgames_new", args=[game]), data)
    table = Table.objects.get()
    url = response["Location"]
    page, made = play_to_the_end(client, url, random.Random(f"{game}{seats}"),
                                 submit=lambda form: post(form.action, form.fields))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert made == Move.objects.filter(table=table, user=user).count() > 0
    assert table.ply == Move.objects.filter(table=table).count()
    assert get(game).outcome(_state(table)) is not None
    assert forms(page, "data-legal-action") == []
    assert page.count('class="move-log"') == 1 and page.count("<li>") >= table.ply
    # the replay walks the game forwards and back in the player's view
    replay = reverse("cardgames_replay", args=[table.pk])
    first = client.get(replay).text
    assert 'data-testid="replay-forward"' in first and 'data-testid="replay-back"' not in first
    last = client.get(f"{replay}?paso={table.ply}").text
    assert 'data-testid="replay-back"' in last and 'data-testid="replay-forward"' not in last
    assert client.get(f"{replay}?paso={table.ply // 2}").status_code == 200


def test_a_palmera_game_to_its_end_against_the_strong_bot(client, post):
    _login(client)
    response = post(reverse("cardgames_new", args=["palmera"]))  # the defaults: a strong bot
    page, _made = play_to_the_end(client, response["Location"], random.Random(3),
                                  submit=lambda form: post(form.action, form.fields))
    assert "data-outcome" in page
    assert Move.objects.filter(bot="strong").exists()


def _boom_for_two(client, post):
    """ana's Boom table with a seat for a person; bea sits down through the invite link."""
    ana = _login(client)
    post(reverse("cardgames_new", args=["boom"]), {"seats": 2, "seat_1": "person"})
    table = Table.objects.get()
    page = client.get(table.get_absolute_url()).text
    link = next(line for line in page.split('value="')[1:] if "/mesas/invitacion/" in line).split('"')[0]
    assert table.status == Table.Status.OPEN
    bea = _login(client)
    invite_page = client.get(link.split("testserver")[1]).text
    join = forms(invite_page)
    join = [f for f in join if f.attrs.get("data-testid") == "join"][0]
    assert post(join.action, join.fields).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table, ana, bea


def test_the_invite_link_seats_a_person_and_the_game_starts(client, post):
    table, ana, bea = _boom_for_two(client, post)
    assert [s.user for s in table.seats.all()] == [ana, bea]
    assert topics.resolve(f"table:{table.pk}", bea) == table.version
    assert topics.resolve(f"table:{table.pk}", make_user()) is None


def _mover(table, ana, bea):
    seat = get(table.game).to_move(_state(table))[0]
    return (ana, bea) if seat == 0 else (bea, ana)


def test_bad_and_stale_moves_get_a_clear_message_and_change_nothing(client, post):
    table, ana, bea = _boom_for_two(client, post)
    mover, waiting = _mover(table, ana, bea)
    client.force_login(mover)
    page = client.get(table.get_absolute_url()).text
    offered = forms(page, "data-legal-action")
    assert offered
    before = (_state(table), table.version)
    play = reverse("cardgames_play", args=[table.pk])

    def refused(data, message, user=mover):
        client.force_login(user)
        answer = client.post(play, data, follow=True)
        assert answer.status_code == 200
        assert str(message) in answer.text, message
        assert (_state(table), table.version) == before
        assert not Move.objects.filter(table=table).exists()

    good = offered[0].fields
    refused({**good, "action": "{not json"}, services.E_MALFORMED)
    refused({**good, "action": '{"type": "attack", "card": "ZZ", "target": 5}'},
            _engine_message(table, get(table.game).to_move(before[0])[0], {"type": "attack", "card": "ZZ", "target": 5}))
    refused({**good, "ply": "7"}, services.E_STALE)
    refused(good, services.E_NOT_YOUR_TURN, user=waiting)
    # htmx: the table's region comes back with the error in it
    client.force_login(mover)
    region = client.post(play, {**good, "ply": "7"}, HTTP_HX_REQUEST="true")
    assert region.status_code == 200 and 'data-testid="table-state"' in region.text and 'role="alert"' in region.text
    assert "<html" not in region.text
    # the good move goes through once, even sent twice (a double tap)
    post(play, good)
    post(play, good)
    assert Move.objects.filter(table=table).count() == 1


def _engine_message(table, seat, action):
    engine = get(table.game)
    try:
        engine.apply(_state(table), seat, action)
    except Exception as err:  # noqa: BLE001 (IllegalAction, whose message we want)
        return services.engine_message(table.game, err)
    raise AssertionError("the action was legal")


def test_a_stale_page_after_the_other_player_moved_says_the_game_moved_on(client, post):
    table, ana, bea = _boom_for_two(client, post)
    mover, _waiting = _mover(table, ana, bea)
    client.force_login(mover)
    stale = forms(client.get(table.get_absolute_url()).text, "data-legal-action")[0]
    post(stale.action, stale.fields | {"request_key": "first"})
    table.refresh_from_db()
    if get("boom").to_move(_state(table))[0] == (0 if mover == ana else 1):
        answer = client.post(stale.action, stale.fields | {"request_key": "second"}, follow=True)
        assert str(services.E_STALE) in answer.text
    assert Move.objects.filter(table=table).count() == 1


def test_an_outsider_gets_404_for_every_url_of_a_private_table(client, post):
    table, _ana, _bea = _boom_for_two(client, post)
    _login(client)
    pk = table.pk
    for url in (table.get_absolute_url(), f"{table.get_absolute_url()}?fragment=table",
                reverse("cardgames_replay", args=[pk]), reverse("live_stream", args=[f"table:{pk}"])):
        assert client.get(url).status_code == 404, url
    for name in ("cardgames_play", "cardgames_join", "cardgames_leave", "cardgames_rematch", "cardgames_invite_renew"):
        assert client.post(reverse(name, args=[pk]), {"action": "{}", "ply": 0}).status_code == 404, name



def test_an_outsider_gets_404_for_a_legal_move_and_for_a_move_already_made(client, post):
    """The move's service runs before the view reads the table; whatever it answers, an outsider
    gets the 404 and the table does not change (issue #13: the move's lean path)."""
    table, ana, bea = _boom_for_two(client, post)
    mover, _waiting = _mover(table, ana, bea)
    client.force_login(mover)
    legal = forms(client.get(table.get_absolute_url()).text, "data-legal-action")[0]
    outsider = _login(client)
    before = (_state(table), table.version)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        assert client.post(legal.action, legal.fields, **headers).status_code == 404
    assert (_state(table), table.version) == before and not Move.objects.filter(table=table).exists()
    client.force_login(mover)
    post(legal.action, legal.fields | {"request_key": "made"})
    client.force_login(outsider)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):  # the same request key again: no answer but the 404
        assert client.post(legal.action, legal.fields | {"request_key": "made"}, **headers).status_code == 404
    assert Move.objects.filter(table=table).count() == 1
    assert client.post(reverse("cardgames_play", args=[table.pk + 1000]), legal.fields).status_code == 404

def test_a_campaign_member_watches_a_campaign_table_and_may_not_move(client, post):
    ana, bea, carla = make_user(), make_user(), make_user()
    campaign = make_campaign(players=[ana, bea, carla])
    client.force_login(ana)
    post(reverse("cardgames_new", args=["palmera"]), {"seats": 2, "seat_1": "person", "privacy": "campaign",
                                                      "campaign": campaign.pk})
    table = Table.objects.get()
    assert table.campaign == campaign
    client.force_login(bea)
    lobby = client.get(reverse("cardgames_index")).text
    join = [f for f in forms(lobby) if f.action == reverse("cardgames_join", args=[table.pk])]
    assert len(join) == 1
    post(join[0].action, join[0].fields)
    client.force_login(carla)
    page = client.get(table.get_absolute_url()).text
    assert "data-legal-action" not in page
    assert "sse-connect" in page and f"table:{table.pk}" in page
    mover, _ = _mover(table, ana, bea)
    offered = forms(page, "data-legal-action")
    assert offered == []
    assert client.post(reverse("cardgames_play", args=[table.pk]),
                       {"action": "{}", "ply": 0}, follow=True).status_code == 200
    assert not Move.objects.filter(table=table).exists()
    assert topics.resolve(f"table:{table.pk}", carla) == table.version


def test_a_rematch_by_form_leads_both_players_to_one_new_table(client, post):
    user = _login(client)
    response = post(reverse("cardgames_new", args=["palmera"]), {"seats": 2, "seat_1": "random"})
    page, _ = play_to_the_end(client, response["Location"], random.Random(1),
                              submit=lambda form: post(form.action, form.fields))
    rematch = [f for f in forms(page) if f.attrs.get("data-testid") == "rematch"]
    assert len(rematch) == 1
    answer = post(rematch[0].action, rematch[0].fields)
    new = Table.objects.get(rematch_of__isnull=False)
    assert answer["Location"] == new.get_absolute_url()
    assert Seat.objects.get(table=new, index=0).user == user
    old = client.get(response["Location"]).text
    assert new.get_absolute_url() in old


def test_the_table_page_speaks_english_on_request(client, post):
    _login(client)
    post(reverse("cardgames_new", args=["boom"]), {"seats": 2, "seat_1": "random"})
    table = Table.objects.get()
    client.cookies["django_language"] = "en"
    page = client.get(table.get_absolute_url()).text
    assert '<html lang="en">' in page and "Your turn." in page and "Seats" in page
    client.cookies["django_language"] = "es"
    page = client.get(table.get_absolute_url()).text
    assert '<html lang="es">' in page and "Tu turno." in page and "Asientos" in page


def test_a_bot_whose_task_was_lost_is_woken_from_the_table_page(client, post):
    """The bot's task never ran (no commit callbacks here: as if the broker lost it); after 30 s
    the seated person is offered "wake the bot", and the bot then plays."""
    from datetime import timedelta

    from django.utils import timezone

    user = _login(client)
    engine = get("boom")
    table = None
    for _ in range(40):  # a deal where the bot moves first
        client.post(reverse("cardgames_new", args=["boom"]), {"seats": 2, "seat_1": "random"})
        candidate = Table.objects.latest("pk")
        if engine.to_move(_state(candidate)) == [1]:
            table = candidate
            break
    assert table is not None and not table.moves.exists()
    page = client.get(table.get_absolute_url()).text
    assert 'data-testid="bot-thinking"' in page and 'data-testid="wake-bot"' not in page
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(seconds=60))
    page = client.get(table.get_absolute_url()).text
    wake = [f for f in forms(page) if f.attrs.get("data-testid") == "wake-bot"]
    assert len(wake) == 1
    assert post(wake[0].action, wake[0].fields).status_code == 302
    assert table.moves.filter(seat=1).exists()
    assert engine.to_move(_state(table)) == [0]
    assert Seat.objects.get(table=table, index=0).user == user


def test_the_tables_pages_keep_the_csp_no_inline_code(client, post):
    """The lobby, a game's page, a table (playing and finished), its replay and the invite page:
    no inline script or style without the nonce, no style= or on…= attribute."""
    import re

    _login(client)
    response = post(reverse("cardgames_new", args=["palmera"]), {"seats": 2, "seat_1": "random"})
    finished, _ = play_to_the_end(client, response["Location"], random.Random(9),
                                  submit=lambda form: post(form.action, form.fields))
    post(reverse("cardgames_new", args=["boom"]), {"seats": 3, "seat_1": "person", "seat_2": "greedy"})
    waiting = Table.objects.get(game="boom")
    invite_page = client.get(waiting.get_absolute_url()).text
    link = re.search(r'value="http://testserver(/mesas/invitacion/[^"]+)"', invite_page).group(1)
    urls = [reverse("cardgames_index"), reverse("cardgames_game", args=["nismatch"]), response["Location"],
            waiting.get_absolute_url(), reverse("cardgames_replay", args=[Table.objects.get(game="palmera").pk]),
            f"{reverse('cardgames_replay', args=[Table.objects.get(game='palmera').pk])}?paso=3&vista=publico", link]
    assert "data-outcome" in finished
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        nonce = re.search(r"'nonce-([^']+)'", answer["Content-Security-Policy"]).group(1)
        for tag in re.findall(r"<script\b[^>]*>", answer.text) + re.findall(r"<style\b[^>]*>", answer.text):
            assert f'nonce="{nonce}"' in tag, (url, tag)
        assert not re.search(r"\sstyle=", answer.text), url
        assert not re.search(r"\son[a-z]+=", answer.text), url


def test_a_visitor_not_logged_in_is_led_to_log_in_and_back_to_the_game(client):
    page = client.get(reverse("cardgames_game", args=["boom"])).text
    new_table = forms(page, "data-new-table")
    assert len(new_table) == 1
    answer = client.post(new_table[0].action, new_table[0].fields)
    assert answer.status_code == 302 and reverse("login") in answer["Location"]
    assert not Table.objects.exists()
    _login(client)
    back = client.get(reverse("cardgames_new", args=["boom"]))  # where the log-in page sends them back
    assert back.status_code == 302 and back["Location"] == reverse("cardgames_game", args=["boom"])


def test_a_person_who_leaves_is_named_in_the_bot_that_replaces_them(client, post):
    table, ana, bea = _boom_for_two(client, post)
    client.force_login(bea)
    leave = [f for f in forms(client.get(table.get_absolute_url()).text) if f.action.endswith("/levantarse/")]
    assert len(leave) == 1
    post(leave[0].action, leave[0].fields)
    client.force_login(ana)
    page = client.get(table.get_absolute_url()).text
    assert f"(por {bea.get_username()})" in page
    client.force_login(bea)
    assert "data-legal-action" not in client.get(table.get_absolute_url()).text  # she watches now


def test_each_action_button_carries_its_spoken_name_as_aria_label(client, post):
    """A screen reader hears "9 de picas" where the button shows "9♠" (issue #13 follow-up)."""
    import re
    from html import unescape

    from django.utils import translation

    from cardgames.presenters.words import card_spoken

    _login(client)
    post(reverse("cardgames_new", args=["boom"]), {"seats": 2, "seat_1": "random"})
    table = Table.objects.get()
    client.cookies["django_language"] = "es"
    page = client.get(table.get_absolute_url()).text
    button = r'<form [^>]*data-legal-action>.*?<button [^>]*aria-label="([^"]*)">([^<]*)</button>'
    buttons = re.findall(button, page, re.S)
    assert buttons and len(buttons) == len(forms(page, "data-legal-action"))
    with_cards = [(unescape(spoken), unescape(label)) for spoken, label in buttons
                  if re.search("[♠♥♦♣]", label)]
    assert with_cards, "Boom's first turn offers cards"
    symbol_letter = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    with translation.override("es"):
        for spoken, label in with_cards:
            assert not re.search("[♠♥♦♣]", spoken), spoken
            for rank, symbol in re.findall(r"(10|[2-9JQKA])([♠♥♦♣])", label):
                assert card_spoken(rank + symbol_letter[symbol]) in spoken, (label, spoken)


def test_nismatch_offers_every_distinct_legal_action_once_two_copies_one_button(client, post):
    """Two copies of the same card in hand make the same move: the page offers it once, and still
    every distinct legal action of the seat (a copy blind comparison at each turn of a seeded game)."""
    import json

    from cardgames.presenters.nismatch import copy_blind

    _login(client)
    post(reverse("cardgames_new", args=["nismatch"]), {"seats": 2, "seat_1": "random"})
    table = Table.objects.get()
    engine, rng, turns, twins = get("nismatch"), random.Random(14), 0, 0
    for _ in range(3000):
        html = client.get(table.get_absolute_url()).text
        if "data-outcome" in html:
            break
        state = _state(table)
        legal = engine.legal_actions(state, 0) if 0 in engine.to_move(state) else []
        offered = forms(html, "data-legal-action")
        actions = [json.loads(f.fields["action"]) for f in offered]
        assert all(a in legal for a in actions), "only the seat's legal actions"
        assert sorted(copy_blind(a) for a in actions) == sorted({copy_blind(a) for a in legal}), \
            "every distinct legal action, each once"
        turns += 1
        twins += len(legal) - len(actions)
        form = rng.choice(offered)
        assert post(form.action, form.fields).status_code == 302
    assert "data-outcome" in html and turns > 10
    assert twins > 0, "the seeded game reached a hand with two copies of a card"
