"""The bonus tables on the real services (issue #13): a bot's move runs on a real Celery worker on
Redis; a bot task delivered twice plays once; a table move sent from two processes at once is
applied once (the table's row lock on PostgreSQL)."""

import json
import os
import subprocess
import sys
import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import connection

from cardgames import services
from cardgames.engines import get
from cardgames.models import Move, Table
from cardgames.tasks import bot_move_task
from frontera.celery import app
from tests.factories import make_user
from tests.servers import ROOT


@pytest.fixture
def celery_worker(transactional_db):
    assert not app.conf.task_always_eager, "the services suite must not run Celery eagerly"
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as worker:
        yield worker


def _to_move(table: Table) -> list[int]:
    table.refresh_from_db()
    engine = get(table.game)
    return engine.to_move(engine.from_json(table.state))


def _wait(predicate, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _bot_starts(game: str, by) -> Table:
    """A table against a bot whose deal lets the bot move first (seeds tried in order)."""
    engine = get(game)
    seed = next(s for s in range(100) if engine.to_move(engine.new_game(2, s, None)) == [1])
    table, _token = services.table_create(game=game, by=by, seats=2, bots={1: "strong"}, seed=seed)
    return table


def test_the_bot_moves_on_a_real_worker_and_the_game_goes_on(celery_worker):
    ana = make_user()
    table = _bot_starts("palmera", ana)  # committed: the task is on its way to the worker
    assert _wait(lambda: _to_move(table) == [0]), "the bot did not move"
    assert Move.objects.filter(table=table, seat=1, bot="strong").count() >= 1
    engine = get("palmera")
    for _ in range(3):  # ana moves, the worker answers each time
        state = engine.from_json(Table.objects.get(pk=table.pk).state)
        if engine.outcome(state) is not None:
            break
        ply = Table.objects.get(pk=table.pk).ply
        services.table_move(table=table, by=ana, action=engine.legal_actions(state, 0)[0], ply=ply)
        assert _wait(lambda: _to_move(table) in ([0], [])), "the bot did not answer"
    assert Move.objects.filter(table=table, seat=1).count() >= 2


def test_a_bot_task_delivered_twice_plays_once(celery_worker):
    ana = make_user()
    table = _bot_starts("boom", ana)
    first = bot_move_task.delay(table.pk, 0)
    second = bot_move_task.delay(table.pk, 0)
    results = [first.get(timeout=30), second.get(timeout=30)]
    assert results.count(True) <= 1  # the task queued by table_create may have played it
    assert _wait(lambda: Move.objects.filter(table=table, ply=0).exists())
    time.sleep(0.5)
    assert Move.objects.filter(table=table, ply=0).count() == 1
    # the bot may hold the turn for more than one move: once it has given it up, every ply was its own
    assert _wait(lambda: _to_move(table) != [1]), "the bot kept the turn"
    assert Move.objects.filter(table=table, seat=1).count() == Table.objects.get(pk=table.pk).ply


def _db_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    return f"postgres://{user}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


MOVER = """
import json, os, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frontera.settings")
django.setup()
from django.contrib.auth import get_user_model
from cardgames import services
from cardgames.models import Table
table_id, user_id, action, ply, key, start = sys.argv[1:7]
table = Table.objects.get(pk=int(table_id))
user = get_user_model().objects.get(pk=int(user_id))
while time.time() < float(start):
    time.sleep(0.001)
try:
    move = services.table_move(table=table, by=user, action=json.loads(action), ply=int(ply), request_key=key)
    print("moved", move.pk)
except services.TableError as err:
    print("refused", err.message)
"""


def _two_people_table(game: str, seed: int) -> tuple[Table, object, dict]:
    """A table of ``game`` with two people seated: the table, whoever is to move, and their first
    legal action."""
    ana, bea = make_user(), make_user()
    table, token = services.table_create(game=game, by=ana, seats=2, seed=seed)
    services.table_join(table=table, by=bea, token=token)
    seat = _to_move(table)[0]
    engine = get(game)
    return table, ana if seat == 0 else bea, engine.legal_actions(engine.from_json(table.state), seat)[0]


def _two_processes(table, user, action, keys) -> list[str]:
    env = {**os.environ, "DATABASE_URL": _db_url(), "REDIS_URL": settings.REDIS_URL, "PYTHONPATH": str(ROOT)}
    start = str(time.time() + 3.0)  # both processes are up and wait for the same instant
    procs = [subprocess.Popen([sys.executable, "-c", MOVER, str(table.pk), str(user.pk), json.dumps(action), "0", key, start],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for key in keys]
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        outs.append(out.strip().splitlines()[-1])
    return outs


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("keys", [("tap", "tap"), ("phone", "laptop")])
def test_one_table_move_sent_from_two_processes_at_once_is_applied_once(keys):
    """The same tap twice (one request key) answers with the one move; two devices (two keys) at
    the same ply: one move is applied, the other is refused as stale."""
    table, mover, action = _two_people_table("palmera", seed=4)
    outs = _two_processes(table, mover, action, keys)
    assert Move.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert table.ply == 1
    moved = [o for o in outs if o.startswith("moved")]
    if keys[0] == keys[1]:
        assert len(moved) == 2 and moved[0] == moved[1], outs  # both answered with the same move
    else:
        assert len(moved) == 1 and outs.count(f"refused {services.E_STALE}") == 1, outs


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_in_the_middle_of_a_bots_move_is_retried_and_the_game_goes_on(tmp_path):
    """A real ``celery worker`` (prefork, one process); its process is killed while the bot
    thinks (``CARDGAMES_BOT_PAUSE`` keeps it thinking 4 s): the message goes back to Redis
    (``acks_late``, ``reject_on_worker_lost``), a new process plays the move, once."""
    env = {**os.environ, "DATABASE_URL": _db_url(), "REDIS_URL": settings.REDIS_URL, "PYTHONPATH": str(ROOT),
           "CARDGAMES_BOT_PAUSE": "4", "DJANGO_SETTINGS_MODULE": "frontera.settings"}
    log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 (closed below)
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "frontera.celery", "worker", "--pool=prefork",
                               "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle",
                               "--without-heartbeat"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        assert _wait(lambda: "ready." in (tmp_path / "worker.log").read_text(), 60), (tmp_path / "worker.log").read_text()
        table = _bot_starts("palmera", make_user())  # committed: the bot's task goes to the worker
        assert _wait(lambda: f"bot_move_task[" in (tmp_path / "worker.log").read_text(), 20)
        time.sleep(1.0)  # the worker's process is thinking (4 s)
        children = subprocess.run(["pgrep", "-P", str(worker.pid)], capture_output=True, text=True).stdout.split()
        assert children, "the worker has a pool process"
        for pid in children:
            os.kill(int(pid), 9)
        assert not Move.objects.filter(table=table).exists(), "killed before the move was applied"
        assert _wait(lambda: Move.objects.filter(table=table).exists(), 40), (tmp_path / "worker.log").read_text()
        time.sleep(1.0)
        assert Move.objects.filter(table=table, ply=0).count() == 1
        assert _to_move(table) == [0]
        text = (tmp_path / "worker.log").read_text()
        assert "WorkerLostError" in text or "signal 9" in text, text
    finally:
        worker.terminate()
        try:
            worker.wait(20)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()


@pytest.mark.django_db(transaction=True)
def test_a_move_waiting_behind_a_leave_reads_the_seats_the_leave_committed(monkeypatch):
    """On PostgreSQL a statement that waited for a row lock re-reads only the locked row: a move
    that read its seats in the same statement as its lock on the table saw them as they were before
    the wait, so a player who had just left could still move. The move reads its seats after the
    lock (cardgames/services.py: _lock_with_seats) and is refused."""
    import threading

    from django.db import transaction

    monkeypatch.setattr(services, "_schedule_bots", lambda *args, **kwargs: None)  # no bot task here
    table, mover, action = _two_people_table("boom", seed=7)
    left, outcome = threading.Event(), {}

    def leave():  # the leave's transaction holds the table's lock a while after its writes
        try:
            with transaction.atomic():
                services.table_leave(table=table, by=mover)
                left.set()
                time.sleep(0.5)
        finally:
            connection.close()

    def move():
        try:
            assert left.wait(5)
            outcome["move"] = services.table_move(table=table.pk, by=mover, action=action, ply=0)
        except services.TableError as err:
            outcome["refused"] = err.message
        finally:
            connection.close()

    threads = [threading.Thread(target=leave), threading.Thread(target=move)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert time.monotonic() - started >= 0.5, "the move waited for the leave's lock"
    assert outcome == {"refused": services.E_NOT_SEATED}, outcome
    assert not Move.objects.filter(table=table).exists()
