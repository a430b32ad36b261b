"""What a finished or unfinished game says in words: PoCoBOT's mount status, the result box's
reason and the meaning of its numbers, the winner in the lobby's list of finished games."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from django.utils import translation

from cardgames import presenters, selectors, services
from cardgames.engines import get
from cardgames.engines.pocobot import game as pocobot_game
from cardgames.models import Table
from cardgames.presenters.pocobot import _mounted_text
from tests.cardgames.test_pocobot import panel
from tests.factories import make_user

NBSP = "\u00a0"


@pytest.mark.parametrize("cards,expected", [
    # "8 of 6 module cards, 2 of 3 ♠": enough cards, one ♠ missing
    (("2S", "5S", "3H", "4H", "5H", "6C", "7C", "8C"),
     f"Not mounted yet: it needs 1 more ♠ card (it has 8 module cards, 2{NBSP}♠)."),
    (("2S", "5S", "9S", "4H"), f"Not mounted yet: it needs 2 more module cards (it has 4 module cards, 3{NBSP}♠)."),
    (("2S", "4H"), (f"Not mounted yet: it needs 4 more module cards, 2{NBSP}♠ among them "
                    f"(it has 2 module cards, 1{NBSP}♠).")),
    (("4H",), f"Not mounted yet: it needs 5 more module cards, 3{NBSP}♠ among them (it has 1 module card, 0{NBSP}♠)."),
    (("2S", "5S", "4H", "5H", "6C", "7C"), f"Not mounted yet: it needs 1 more ♠ card (it has 6 module cards, 2{NBSP}♠)."),
    (("2S", "4H", "5H", "6C"), f"Not mounted yet: it needs 2 more ♠ cards (it has 4 module cards, 1{NBSP}♠)."),
])
def test_pb_5_the_mount_status_says_what_is_still_missing(cards, expected):
    """PB-5 (a Pilot, 6 module cards, 3 of the Pilot's suit): the status says what is still
    missing, never "8 of 6"; a count and its suit symbol never part at a line break."""
    with translation.override("en"):
        text = _mounted_text(panel(*cards, pilot="JS"), False)
    assert text == expected
    assert " of 6" not in text and " ♠" not in text.replace("more ♠", "")


def _finished_table(game: str, state: dict, bots: dict | None = None, seed: int = 1):
    ana = make_user("ana")
    table, _token = services.table_create(game=game, by=ana, seats=2, bots=bots or {1: "random"}, seed=seed)
    Table.objects.filter(pk=table.pk).update(state=get(game).to_json(state), status=Table.Status.FINISHED)
    table.refresh_from_db()
    return table, ana


def _pocobot_turn_limit_state() -> dict:
    state = pocobot_game.new_game(2, seed=3)
    state.update(phase=pocobot_game.OVER, draw=True, turn=pocobot_game.MAX_TURNS)
    return state


@pytest.mark.django_db
def test_pb_18_a_draw_at_the_turn_limit_says_why_and_what_the_numbers_count(client):
    """The result box after turn 300: the reason (the turn limit) and what each number is (the
    value of the ♥ cards left in each Defence: ``outcome``'s scores)."""
    state = _pocobot_turn_limit_state()
    table, ana = _finished_table("pocobot", state, bots={1: "greedy"})
    with translation.override("en"):
        outcome = selectors.table_page(table, selectors.Viewer(seat=0, seated=True))["outcome"]
    assert outcome["draw"]
    assert outcome["reason"] == "Turn 300 ends without a collapse: a draw."
    assert outcome["score_label"] == "Life left: the value of the ♥ cards in each Defence"
    assert [row["score"] for row in outcome["scores"]] == [
        pocobot_game.total(p["H"]) for p in state["panels"]], "the numbers are the ♥ left in Defence"
    client.force_login(ana)
    page = client.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").text
    assert "Turn 300 ends without a collapse: a draw." in page and "Life left: the value of the ♥ cards in each Defence:" in page


def test_every_games_result_box_labels_its_numbers():
    """The shared result box: each game says what its scores count and, where it is not the
    winner's name alone, why the game ended."""
    with translation.override("en"):
        words = {game: presenters.outcome_words(game, view) for game, view in (
            ("palmera", {"result": {"winners": [], "draw": True}}),
            ("boom", {}),
            ("nismatch", {"end_reason": "spoils"}),
        )}
    assert words["palmera"] == {"reason": "Both rounds are over and the points are equal.",
                                "score_label": "Points over both rounds"}
    assert words["boom"]["score_label"] == "Life left"
    assert words["nismatch"] == {"reason": "Five War Spoils claimed.", "score_label": "War Spoils claimed (five win)"}


def _palmera_played_to_the_end(seed: int) -> dict:
    engine = get("palmera")
    state, rng = engine.new_game(2, seed), random.Random(seed)
    while engine.to_move(state):
        seat = engine.to_move(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


@pytest.mark.django_db
def test_the_lobbys_finished_games_say_who_won(client):
    """"Your finished games" on /mesas/ names the winner (or says it was a draw)."""
    engine = get("palmera")
    state = next(s for s in map(_palmera_played_to_the_end, range(20)) if not engine.outcome(s)["draw"])
    table, ana = _finished_table("palmera", state)
    winner = engine.outcome(state)["winners"][0]
    name = "ana" if table.seats.get(index=winner).user_id == ana.pk else "Easy bot"
    with translation.override("en"):
        rows = selectors.lobby(ana)["finished"]
    assert [row["result_text"] for row in rows] == [f"won by {name}"]
    client.force_login(ana)
    assert f"won by {name}" in client.get(reverse("cardgames_index"), HTTP_ACCEPT_LANGUAGE="en").text


@pytest.mark.django_db
def test_the_lobby_says_a_finished_game_was_a_draw():
    _table, ana = _finished_table("pocobot", _pocobot_turn_limit_state(), bots={1: "greedy"})
    with translation.override("en"):
        assert selectors.lobby(ana)["finished"][0]["result_text"] == "a draw"
