"""What PostgreSQL reads for the statements every request makes (issue #11).

A session's latest event is its live version and its feed's stamp: every action, page, refetch
and stream asks for it. It must be found in the index, whatever the length of the log, with the
planner's statistics as they stand (the suite's earlier tests and autovacuum decide) and right
after ``ANALYZE``, not by reading the session's whole log and sorting it
(1.1 to 1.5 ms at 2,200 events in ``bench/profile_requests.py``, growing with the evening)."""

import json

import pytest
from django.db import connection

from frontera.play.models import SessionEvent
from frontera.play.selectors.core import _latest_event_sql
from frontera.play.selectors.snapshot import _fresh_sql
from tests.factories import make_table

SESSIONS, EVENTS = 12, 400  # a group's evenings, each logged after the one before


def _rows_read(sql: str, params) -> int:
    """The rows the plan's scans read: those they returned and those their filters dropped."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan

    def walk(node) -> int:
        own = 0
        if "Scan" in node["Node Type"] and "Bitmap Index" not in node["Node Type"]:
            own = (node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
                   + node.get("Rows Removed by Index Recheck", 0)) * node["Actual Loops"]
        return own + sum(walk(child) for child in node.get("Plans", ()))

    return walk(plan[0]["Plan"])


def _log(session, n: int) -> None:
    SessionEvent.objects.bulk_create(
        SessionEvent(session=session, kind=SessionEvent.Kind.DECISION, message="m") for _ in range(n))


@pytest.mark.parametrize("analyzed", [False, True], ids=["statistics as they stand", "analyzed"])
@pytest.mark.django_db(transaction=True)
def test_a_sessions_latest_event_is_read_from_the_index_not_from_its_whole_log(analyzed):
    sessions = [make_table(players=1, minions=0)[0] for _ in range(SESSIONS)]
    for session in sessions:
        _log(session, EVENTS)
    if analyzed:
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {SessionEvent._meta.db_table}")
    for session in (sessions[0], sessions[-1]):
        latest = SessionEvent.objects.filter(session=session).order_by("-pk").values_list("pk", flat=True)[0]
        with connection.cursor() as cursor:
            cursor.execute(_latest_event_sql(), (session.pk,))
            assert cursor.fetchone()[0] == latest
        assert _rows_read(_latest_event_sql(), (session.pk,)) <= 2
        # the same as the subquery of the session row an action answers with (its live version)
        assert _rows_read(_fresh_sql(), (session.pk,)) <= 3
