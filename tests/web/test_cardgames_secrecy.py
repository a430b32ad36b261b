"""Secrecy at the bonus tables (issue #13): a seat's pages, fragments, replay and pushes never hold a
card its view never showed. Every URL of a table is crawled as each seat, a spectator (a member of
the campaign the table is open to) and an outsider, at many points of a seeded game between two
people, and the finished game's replay frame by frame.

"Never showed" is judged against the engine's views along the game: a card is known to a viewer
once ``view(state, viewer)`` has held it at some ply up to the one shown; every other card of the
state (the other hand, the face-down birds, the deck's order, the other side's Arsenal) must appear
nowhere: not as its code, not as its printed text, not as its spoken name."""

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from cardgames import services
from cardgames.engines import get
from cardgames.engines.nismatch.cards import card_def
from cardgames.models import Table
from cardgames.presenters.words import card_spoken, card_text, is_card_code
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bots_inline(monkeypatch):
    """The bot's task runs inline here, also when the suite runs again on PostgreSQL and Redis
    (suite 2, where tests/services drives a real worker)."""
    from frontera.celery import app

    monkeypatch.setattr(app.conf, "task_always_eager", True)
NISMATCH_CODE = re.compile(r"^[a-z_]+(\.\d+\.\d+)?$")


def _leaves(value, out: set) -> set:
    if isinstance(value, dict):
        for item in value.values():
            _leaves(item, out)
    elif isinstance(value, list):
        for item in value:
            _leaves(item, out)
    elif isinstance(value, str):
        out.add(value)
    return out


def _cards(game: str, value) -> set[str]:
    """The card identifiers among a state's or a view's strings."""
    leaves = _leaves(value, set())
    if game == "nismatch":
        return {s.split(".")[0] for s in leaves if NISMATCH_CODE.match(s) and _is_nismatch_card(s)}
    return {s for s in leaves if is_card_code(s)}


def _is_nismatch_card(code: str) -> bool:
    try:
        card_def(code)
    except Exception:  # noqa: BLE001 (a deck name, a zone, a phase: not a card)
        return False
    return True


def _forms_of(game: str, card: str) -> list[str]:
    """How a card could show on a page: its code (in JSON), its printed text, its spoken name."""
    if game == "nismatch":
        return [card_def(card)["name"]]
    return [f'"{card}"', card_text(card), card_spoken(card)]


# Cards an action plays face up, for everybody to see at that moment, even when the same action
# then puts them out of every view (PB-7 shuffles PoCoBOT's public discard into the pile; Boom's
# discard is a count): PoCoBOT's every action (docs/cardgames/pocobot.md: the discard is public),
# Boom's change and attack (the card goes on the table), Nismatch's Parts attached and Supports
# played. Anything else an action names (a Boom discard, a face-down Torso) stays hidden.
PLAYED_FACE_UP = {"pocobot": None, "boom": {"change", "attack"}, "nismatch": {"attach", "rebuild", "support"},
                  "palmera": set()}
LIVE_PLIES = 60  # pages crawled at every few plies of the game's start; the replay covers the rest


def _states(table: Table) -> list[dict]:
    engine = get(table.game)
    state = engine.new_game(table.seats.count(), table.seed, table.options or None)
    states = [state]
    for move in table.moves.all():
        state = engine.apply(state, move.seat, move.action)
        states.append(state)
    return states


RULES = re.compile(r"<!--rules-->.*?<!--/rules-->", re.S)


def _assert_hides(page: str, game: str, states: list[dict], upto: int, seat, where: str) -> int:
    """The rules summary (the same text for everybody, examples included) is left out."""
    page = RULES.sub("", page)
    engine = get(game)
    known = set()
    for state in states[: upto + 1]:
        known |= _cards(game, engine.view(state, seat))
    face_up = PLAYED_FACE_UP[game]
    for move in Table.objects.get(game=game).moves.filter(ply__lt=upto):
        if face_up is None or move.action.get("type") in face_up:
            known |= _cards(game, move.action)
    if game == "palmera":
        known |= _palmera_fought_face_up(states, Table.objects.get(game=game).moves.filter(ply__lt=upto))
    hidden = _cards(game, states[upto]) - known
    for card in hidden:
        for shown in _forms_of(game, card):
            assert shown not in page, f"{where}: {shown!r} is hidden from seat {seat} at ply {upto}"
    return len(hidden)


def _palmera_fought_face_up(states: list[dict], moves) -> set[str]:
    """The birds turned face up in the ``moves``' fights (PA-4) and the Kings turned up at a
    round's end (PA-6), for everybody to see at that moment: the round's last move then starts
    the next round, and no view shows them again (the log says how that fight ended)."""
    from cardgames.engines import palmera

    seen = set()
    for move in moves:
        for event in palmera.apply_logged(states[move.ply], move.seat, move.action)[1]:
            if event["type"] == "fight":
                seen |= {event["card"], *(d["defender"]["card"] for d in event["duels"] if d["defender"]["up"])}
            else:
                seen |= {king["card"] for kings in event["kings"] for king in kings if king["up"]}
    return seen


@pytest.fixture
def table_of_two(monkeypatch):
    """A campaign table of ``game`` between ana and bea, carla of the campaign watching."""

    def make(game: str, seed: int):
        monkeypatch.setattr(services, "new_seed", lambda: seed)
        ana, bea, carla, outsider = make_user(), make_user(), make_user(), make_user()
        campaign = make_campaign(players=[ana, bea, carla])
        table, _token = services.table_create(game=game, by=ana, seats=2, privacy="campaign", campaign=campaign)
        services.table_join(table=table, by=bea)
        table.refresh_from_db()
        return table, {0: ana, 1: bea, None: carla}, outsider

    return make


def _urls(table: Table) -> list[str]:
    page = table.get_absolute_url()
    return [page, f"{page}?fragment=table", reverse("cardgames_index"), reverse("cardgames_game", args=[table.game])]


@pytest.mark.parametrize("game,seed", [("pocobot", 11), ("palmera", 12), ("boom", 13), ("nismatch", 14)])
def test_no_page_fragment_or_replay_shows_a_viewer_a_card_its_view_hides(client, table_of_two, monkeypatch,
                                                                         django_capture_on_commit_callbacks, game, seed):
    table, people, outsider = table_of_two(game, seed)
    pushes = []
    monkeypatch.setattr("frontera.live.bus.publish", lambda topic, version: pushes.append((topic, version)))
    engine = get(game)
    rng = random.Random(seed)
    checked = hidden_seen = 0
    states = _states(table)
    with translation.override("es"):
        while table.status == Table.Status.PLAYING:
            live = table.ply < LIVE_PLIES
            if live and (table.ply % 6 == 0 or table.ply < 4):
                for seat, user in people.items():
                    client.force_login(user)
                    for url in _urls(table) if table.ply == 0 else _urls(table)[:2]:
                        response = client.get(url)
                        assert response.status_code == 200, url
                        hidden_seen += _assert_hides(response.text, game, states, table.ply, seat, url)
                        checked += 1
                client.force_login(outsider)
                for url in _urls(table)[:2]:
                    assert client.get(url).status_code == 404
            state = states[-1]
            seat = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, seat))
            if live:  # the mover's own answer (the htmx region) is checked too
                client.force_login(people[seat])
                with django_capture_on_commit_callbacks(execute=True):
                    answer = client.post(reverse("cardgames_play", args=[table.pk]),
                                         {"action": services.json.dumps(action), "ply": table.ply}, HTTP_HX_REQUEST="true")
                assert answer.status_code == 200 and 'role="alert"' not in answer.text
            else:
                services.table_move(table=table, by=people[seat], action=action, ply=table.ply)
            states.append(engine.apply(state, seat, action))
            table.refresh_from_db()
            if live:
                _assert_hides(answer.text, game, states, table.ply, seat, "move answer")
        assert engine.to_json(states[-1]) == table.state
        replay = reverse("cardgames_replay", args=[table.pk])
        steps = sorted({*range(0, table.ply + 1, max(1, table.ply // 12)), table.ply})
        for seat, user in people.items():
            client.force_login(user)
            for step in steps:
                response = client.get(f"{replay}?paso={step}")
                assert response.status_code == 200
                hidden_seen += _assert_hides(response.text, game, states, step, seat, f"replay {step}")
                if seat is not None:  # a player replaying the game as the spectators saw it
                    public = client.get(f"{replay}?paso={step}&vista=publico").text
                    _assert_hides(public, game, states, step, None, f"public replay {step}")
        client.force_login(outsider)
        assert client.get(replay).status_code == 404
    assert checked > 20 and hidden_seen > 0, "the crawl saw hidden cards to look for"
    assert pushes and all(isinstance(v, int) and t == f"table:{table.pk}" for t, v in pushes), \
        "a push says only which table changed and its version"
