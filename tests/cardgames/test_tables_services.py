"""The bonus tables' services (issue #13): create, join, leave, move, the bot's move, rematch.

Every write is atomic and row-locked; a move is validated by the engine; a stale or repeated move
changes nothing; the bot plays through its Celery task (eager here), once per ply."""

import subprocess
import sys

import pytest
from django.db import connection

from cardgames import services
from cardgames.engines import IllegalAction, get
from cardgames.models import Move, Seat, Table
from cardgames.services import TableError
from tests.factories import make_campaign, make_user
from tests.servers import ROOT

pytestmark = pytest.mark.django_db


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run what waits for the commit (the bot's task, eager here; the publish) as it would run."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _first_legal(table: Table, seat: int) -> dict:
    engine = get(table.game)
    return engine.legal_actions(engine.from_json(table.state), seat)[0]


def _to_move(table: Table) -> list[int]:
    engine = get(table.game)
    return engine.to_move(engine.from_json(table.state))


def _people_table(game="boom", seats=2, seed=7):
    ana, bea = make_user(), make_user()
    table, token = services.table_create(game=game, by=ana, seats=seats, seed=seed)
    services.table_join(table=table, by=bea, token=token)
    table.refresh_from_db()
    return table, ana, bea


def test_a_table_against_bots_starts_at_once_and_the_bot_moves_when_it_is_its_turn(commit):
    ana = make_user()
    for seed in range(6):  # some deal where the bot starts, some where ana does
        with commit():
            table, _token = services.table_create(game="palmera", by=ana, seats=2, bots={1: "random"}, seed=seed)
        table.refresh_from_db()
        assert table.status == Table.Status.PLAYING
        assert _to_move(table) == [0], "after the bot's move(s), it is the person's turn"
        assert all(m.seat == 1 and m.bot == "random" for m in table.moves.all())


def test_a_table_with_a_seat_for_a_person_waits_and_the_invite_link_seats_them():
    ana, bea = make_user(), make_user()
    table, token = services.table_create(game="boom", by=ana, seats=3, bots={2: "greedy"}, seed=1)
    assert table.status == Table.Status.OPEN and table.state == {}
    assert table.invite_token_hash != token and len(table.invite_token_hash) == 64  # only the hash is stored
    with pytest.raises(TableError) as err:
        services.table_join(table=table, by=bea, token="not-the-token")
    assert err.value.message == services.E_NOT_INVITED
    seat = services.table_join(table=table, by=bea, token=token)
    assert seat.index == 1
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert get("boom").from_json(table.state)["seats"] == 3
    with pytest.raises(TableError) as err:
        services.table_join(table=table, by=make_user(), token=token)
    assert err.value.message == services.E_NOT_OPEN


def test_a_campaign_table_seats_members_without_a_link_and_refuses_others():
    ana, bea = make_user(), make_user()
    campaign = make_campaign(players=[ana, bea])
    table, _token = services.table_create(game="pocobot", by=ana, seats=2, privacy="campaign", campaign=campaign)
    with pytest.raises(TableError) as err:
        services.table_join(table=table, by=make_user())
    assert err.value.message == services.E_NOT_INVITED
    services.table_join(table=table, by=bea)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    with pytest.raises(TableError) as err:
        services.table_create(game="pocobot", by=make_user(), seats=2, privacy="campaign", campaign=campaign)
    assert err.value.message == services.E_NOT_MEMBER


@pytest.mark.parametrize("game,seats", [("pocobot", 3), ("palmera", 1), ("boom", 5), ("nismatch", 4)])
def test_the_number_of_seats_follows_the_rule_book(game, seats):
    with pytest.raises(TableError):
        services.table_create(game=game, by=make_user(), seats=seats)
    assert not Table.objects.exists()


def test_bad_table_options_change_nothing():
    ana = make_user()
    for kwargs in ({"game": "chess", "seats": 2}, {"game": "boom", "seats": 2, "bots": {1: "godlike"}},
                   {"game": "boom", "seats": 2, "bots": {0: "strong"}}, {"game": "palmera", "seats": 2, "options": {"x": 1}}):
        with pytest.raises(TableError):
            services.table_create(by=ana, **kwargs)
    assert not Table.objects.exists() and not Seat.objects.exists()


def test_a_move_is_applied_once_logged_versioned_and_published_after_commit(commit, monkeypatch):
    table, ana, bea = _people_table()
    sent = []
    monkeypatch.setattr("frontera.live.bus.publish", lambda topic, version: sent.append((topic, version)))
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    action = _first_legal(table, seat)
    version = table.version
    with commit():
        move = services.table_move(table=table, by=mover, action=action, ply=0, request_key="k1")
        assert sent == [], "nothing is published before the commit"
    table.refresh_from_db()
    assert (move.ply, move.seat, move.action, move.user) == (0, seat, action, mover)
    assert table.ply == 1 and table.version == version + 1
    assert sent == [(f"table:{table.pk}", table.version)]



def test_a_move_by_the_tables_pk_reads_each_row_once_before_its_commit(django_assert_num_queries):
    """The view passes the pk: two reads (the table, locked; then its seats, read under that lock:
    the mover's and the bots'), the move (in a savepoint, for its request key) and the table's
    update; the request key is not looked for on the way of a move that is made (issue #13's push)."""
    table, ana, bea = _people_table()
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    # + the savepoints and their releases: the test's own transaction is open around the service's
    with django_assert_num_queries(8) as queries:
        services.table_move(table=table.pk, by=mover, action=_first_legal(table, seat), ply=0, request_key="k")
    sql = [q["sql"] for q in queries.captured_queries]
    reads = [q for q in sql if q.startswith("SELECT")]
    assert len(reads) == 2 and 'FROM "cardgames_table"' in reads[0] and 'FROM "cardgames_seat"' in reads[1], reads
    assert "FOR UPDATE" in reads[0] or connection.vendor == "sqlite", reads  # SQLite locks the database
    assert sum(q.startswith("INSERT") for q in sql) == 1 and sum(q.startswith("UPDATE") for q in sql) == 1
    with pytest.raises(Table.DoesNotExist):
        services.table_move(table=table.pk + 1000, by=mover, action={}, ply=1)


def test_a_request_key_repeated_for_the_current_ply_returns_the_move_it_made():
    """A key posted again with a ply the game is at now (not by the page, which sends its own ply):
    the key's unique constraint refuses the second row and the first move is returned."""
    table, ana, bea = _people_table()
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    action = _first_legal(table, seat)
    first = services.table_move(table=table, by=mover, action=action, ply=0, request_key="k")
    table.refresh_from_db()
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    action = _first_legal(table, seat)
    again = services.table_move(table=table, by=mover, action=action, ply=1, request_key="k")
    assert again.pk == first.pk
    _unchanged(table)


def test_two_clicks_with_one_request_key_make_one_move():
    table, ana, bea = _people_table()
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    action = _first_legal(table, seat)
    first = services.table_move(table=table, by=mover, action=action, ply=0, request_key="same")
    again = services.table_move(table=table, by=mover, action=action, ply=0, request_key="same")
    assert again.pk == first.pk
    assert Move.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert table.ply == 1


def _unchanged(table: Table):
    before = (table.state, table.ply, table.version, Move.objects.filter(table=table).count())
    table.refresh_from_db()
    assert (table.state, table.ply, table.version, Move.objects.filter(table=table).count()) == before


def test_a_stale_move_is_refused_with_the_game_moved_on():
    table, ana, bea = _people_table()
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    services.table_move(table=table, by=mover, action=_first_legal(table, seat), ply=0)
    table.refresh_from_db()
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    with pytest.raises(TableError) as err:
        services.table_move(table=table, by=mover, action=_first_legal(table, seat), ply=0)
    assert err.value.message == services.E_STALE
    _unchanged(table)


def test_out_of_turn_illegal_and_malformed_moves_change_nothing_and_say_why():
    table, ana, bea = _people_table()
    seat = _to_move(table)[0]
    mover, waiting = (ana, bea) if seat == 0 else (bea, ana)
    with pytest.raises(TableError) as err:
        services.table_move(table=table, by=waiting, action=_first_legal(table, seat), ply=0)
    assert err.value.message == services.E_NOT_YOUR_TURN
    bad = {"type": "attack", "card": "ZZ", "target": 9}
    engine = get(table.game)
    with pytest.raises(IllegalAction) as expected:
        engine.apply(engine.from_json(table.state), seat, bad)
    with pytest.raises(TableError) as err:
        services.table_move(table=table, by=mover, action=bad, ply=0)
    assert str(err.value) == services.engine_message(table.game, expected.value)  # the engine's own message
    with pytest.raises(TableError) as err:
        services.table_move(table=table, by=make_user(), action=_first_legal(table, seat), ply=0)
    assert err.value.message == services.E_NOT_SEATED
    with pytest.raises(TableError):
        services.parse_action("{not json")
    with pytest.raises(TableError):
        services.parse_action("[1, 2]")
    _unchanged(table)


def test_the_engines_refusal_is_shown_in_the_users_language():
    from django.utils import translation

    table, ana, bea = _people_table()
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    messages = {}
    for language in ("en", "es"):
        with translation.override(language), pytest.raises(TableError) as err:
            services.table_move(table=table, by=mover, action={"type": "bogus"}, ply=0)
        messages[language] = str(err.value)
    assert messages["en"] != messages["es"] and all(messages.values())


def test_the_bots_move_is_idempotent_per_ply():
    """A task delivered twice for one ply plays once; one for a ply the game left plays nothing."""
    ana = make_user()
    table = None
    for seed in range(20):  # a deal where the bot moves first
        table, _token = services.table_create(game="boom", by=ana, seats=2, bots={1: "random"}, seed=seed)
        if _to_move(table) == [1]:
            break
        table = None
    assert table is not None
    assert services.bot_move(table_id=table.pk, ply=0) is True
    assert services.bot_move(table_id=table.pk, ply=0) is False
    assert Move.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert table.ply == 1
    # ... and the bot does not move for a person:
    if _to_move(table) == [0]:
        assert services.bot_move(table_id=table.pk, ply=1) is False


def test_the_bot_chooses_from_its_own_view_only(monkeypatch):
    """The bot gets ``view(state, seat)`` and its legal actions, never the state."""
    ana = make_user()
    seen = []
    real = get("palmera").view

    def spy(state, seat):
        seen.append(seat)
        return real(state, seat)

    monkeypatch.setattr("cardgames.engines.palmera.view", spy)
    table = next(t for t in (services.table_create(game="palmera", by=ana, seats=2, bots={1: "random"}, seed=s)[0]
                              for s in range(20)) if _to_move(t) == [1])
    seen.clear()
    action = services.bot_choice(table, Seat.objects.get(table=table, index=1))
    assert seen == [1]
    assert action in get("palmera").legal_actions(get("palmera").from_json(table.state), 1)


def test_a_person_who_leaves_a_game_in_play_is_replaced_by_a_bot_and_the_game_goes_on(commit):
    table, ana, bea = _people_table(game="palmera", seed=3)
    with commit():
        services.table_leave(table=table, by=bea)
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, index=1)
    assert seat.left and seat.bot == services.STAND_IN_BOT
    assert table.status == Table.Status.PLAYING
    assert _to_move(table) == [0], "the stand-in bot has played its turn"
    with pytest.raises(TableError):
        services.table_move(table=table, by=bea, action={"type": "place", "square": 1}, ply=table.ply)


def test_leaving_before_the_game_frees_the_seat_and_the_last_person_abandons_it():
    ana, bea = make_user(), make_user()
    table, token = services.table_create(game="boom", by=ana, seats=3, seed=1)
    services.table_join(table=table, by=bea, token=token)
    services.table_leave(table=table, by=bea)
    assert Seat.objects.get(table=table, index=1).is_free
    services.table_leave(table=table, by=ana)
    table.refresh_from_db()
    assert table.status == Table.Status.ABANDONED


def _play_out(table: Table, people: dict[int, object]) -> Table:
    engine = get(table.game)
    while table.status == Table.Status.PLAYING:
        seat = _to_move(table)[0]
        services.table_move(table=table, by=people[seat], action=_first_legal(table, seat), ply=table.ply)
        table.refresh_from_db()
    assert engine.outcome(engine.from_json(table.state)) is not None
    return table


def test_a_finished_game_replays_from_its_log_and_a_rematch_seats_the_same_people():
    table, ana, bea = _people_table(game="palmera", seed=5)
    table = _play_out(table, {0: ana, 1: bea})
    assert table.status == Table.Status.FINISHED
    with pytest.raises(TableError) as err:
        services.table_move(table=table, by=ana, action={"type": "place", "square": 1}, ply=table.ply)
    assert err.value.message == services.E_FINISHED
    engine = get("palmera")
    state = engine.new_game(2, table.seed, None)
    for move in table.moves.all():
        state = engine.apply(state, move.seat, move.action)
    assert engine.to_json(state) == table.state, "the move log replays to the final position"
    rematch = services.table_rematch(table=table, by=bea)
    assert services.table_rematch(table=table, by=ana).pk == rematch.pk
    assert rematch.status == Table.Status.PLAYING and rematch.rematch_of == table
    assert [(s.index, s.user) for s in rematch.seats.all()] == [(0, ana), (1, bea)]
    with pytest.raises(TableError):
        services.table_rematch(table=table, by=make_user())


def test_a_lost_bot_task_is_queued_again_by_waking_the_bot(monkeypatch):
    """The broker lost the bot's task: a seated person wakes the bot, it plays once; an outsider may not."""
    ana = make_user()
    sent = []
    monkeypatch.setattr("cardgames.tasks.bot_move_task.delay", lambda *args: sent.append(args))
    table = _bot_starts_table(ana)
    assert sent == [] and not Move.objects.filter(table=table).exists()  # nothing ran: no commit here
    with pytest.raises(TableError):
        services.table_wake_bot(table=table, by=make_user())
    monkeypatch.undo()
    assert services.table_wake_bot(table=table, by=ana) is True
    assert services.bot_move(table_id=table.pk, ply=0) is True
    assert services.bot_move(table_id=table.pk, ply=0) is False
    table.refresh_from_db()
    while _to_move(table) == [1]:  # Boom's turn may take the bot more than one move
        assert services.bot_move(table_id=table.pk, ply=table.ply) is True
        table.refresh_from_db()
    assert services.table_wake_bot(table=table, by=ana) is False  # the person's turn now


def _bot_starts_table(by) -> Table:
    engine = get("boom")
    seed = next(s for s in range(100) if engine.to_move(engine.new_game(2, s, None)) == [1])
    return services.table_create(game="boom", by=by, seats=2, bots={1: "random"}, seed=seed)[0]


def test_a_refused_move_never_names_a_card_by_its_code():
    """Boom: changing a storage for a card not in hand is refused in words, without the code."""
    table, ana, bea = _people_table(game="boom", seed=7)
    seat = _to_move(table)[0]
    mover = ana if seat == 0 else bea
    state = get("boom").from_json(table.state)
    card = next(c for c in ("9S", "9H", "9D", "9C") if c not in state["hands"][seat])
    with pytest.raises(TableError) as err:
        services.table_move(table=table, by=mover, action={"type": "change", "card": card, "storage": 0}, ply=0)
    text = str(err.value)
    assert text and card not in text, text


# random.Random(13)'s first 62-bit numbers: the deals a server started with CARDGAMES_SEED=13 makes
SEEDS_13 = [1340883164516475259, 4194513520037794124, 3698593635141418509, 4104390246285580333]


def test_cardgames_seed_makes_the_new_tables_seeds_a_known_sequence(settings, monkeypatch):
    monkeypatch.setattr(services, "_seed_sequence", None)
    settings.CARDGAMES_SEED = 13
    assert [services.new_seed() for _ in range(3)] == SEEDS_13[:3]
    table, _token = services.table_create(game="boom", by=make_user(), seats=2, bots={1: "random"})
    assert table.seed == SEEDS_13[3], "a table made without a seed takes the sequence's next"
    settings.CARDGAMES_SEED = 14
    assert services.new_seed() != SEEDS_13[0], "another value, another sequence, from its start"
    settings.CARDGAMES_SEED = None
    assert len({services.new_seed() for _ in range(3)} - set(SEEDS_13)) == 3  # secret and random again


def test_cardgames_seed_is_read_from_the_environment_and_refused_in_production():
    """The browser suite's server gets known deals from its environment; production never does."""
    code = "import django; django.setup(); from cardgames.services import new_seed as s; print(s(), s())"
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "frontera.settings", "DATABASE_URL": "",
           "REDIS_URL": "", "CARDGAMES_SEED": "13"}

    def run(**more):
        return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**env, **more},
                              capture_output=True, text=True, timeout=60)

    seeded = run()
    assert seeded.stdout.split() == [str(seed) for seed in SEEDS_13[:2]], seeded.stderr
    production = run(FRONTERA_ENV="production", SECRET_KEY="k" * 50)
    assert production.returncode != 0 and "CARDGAMES_SEED must not be set" in production.stderr
