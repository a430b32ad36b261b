"""A fighter's declaration, draw and lock-in are checked by the service under the session's lock
(issue #11), as a check's draw and choice are: the view reads nothing first. Who acts (the
fighter's player or the Mayor, for a fighter of a fight of that session; 404 for anybody else, and
nothing changes), at whom (a target that is no fighter of this fight is refused without being
named), and the session, the fight and its fighters read once each (FR-CMB-1)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from frontera.characters.models import Character
from frontera.play.models import CombatRound, SessionEvent, combat_key
from frontera.play.services.combat import Fighter, combat_declare, combat_draw, combat_start
from frontera.play.services.core import NotAllowed
from frontera.play.services.sessions import session_end
from tests.factories import make_campaign, make_minion, make_protagonist, make_table, make_user

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _fight(players=2, minions=2):
    session, mayor, seated, extras = make_table(players=players, minions=minions)
    fighters = [Fighter(Character.objects.get(pk=c.pk), "posse") for _, c in seated]
    fighters += [Fighter(m, "gang") for m in extras]
    return session, mayor, seated, extras, combat_start(session=session, by=mayor, fighters=fighters)


def _post(client, action, session, combat, character, data=None):
    return client.post(reverse(f"play_combat_{action}", args=[session.pk, combat.pk, character.pk]), data or {}, **HX)


def _declare(client, session, combat, character, target):
    return _post(client, "declare", session, combat, character,
                 {"technique": "pelea", "target": target.pk, "band": "adyacente"})


def test_fr_cmb_1_who_declares_draws_and_locks_in_is_checked_under_the_lock(client):
    session, mayor, [(p1, hero1), (p2, hero2)], (m1, m2), combat = _fight()
    other, other_mayor, other_seated, other_minions, elsewhere = _fight(players=1, minions=1)
    idle = make_minion(session.campaign)  # of this campaign, not in this fight
    before = CombatRound.objects.get(pk=combat.pk).state
    events = SessionEvent.objects.filter(session=session).count()
    refused = [(p2, combat, hero1), (p1, combat, m1), (other_mayor, combat, m1), (make_user(), combat, hero1),
               (mayor, elsewhere, other_minions[0]), (mayor, combat, idle), (mayor, combat, other_seated[0][1]),
               (p1, elsewhere, hero1)]
    for user, fight, fighter in refused:
        client.force_login(user)
        for action, data in (("declare", {"technique": "pelea", "target": m1.pk}), ("declare", {"technique": "x"}),
                             ("draw", None), ("choose", {"cards": ["1:AS"]}), ("choose", None)):
            answer = _post(client, action, session, fight, fighter, data)
            assert answer.status_code == 404, (user, fight.pk, fighter.name, action, data)
    assert CombatRound.objects.get(pk=combat.pk).state == before
    assert SessionEvent.objects.filter(session=session).count() == events
    client.force_login(mayor)  # the Mayor declares and draws for the minions (NPCs first, FR-CMB-1)
    for minion, target in ((m1, hero1), (m2, hero2)):
        assert _declare(client, session, combat, minion, target).status_code == 200
        assert _post(client, "draw", session, combat, minion).status_code == 200
    client.force_login(p1)  # a player for their own protagonist
    answer = _declare(client, session, combat, hero1, m1)
    assert answer.status_code == 200 and 'data-testid="combat-error"' not in answer.text
    assert _post(client, "draw", session, combat, hero1).status_code == 200
    state = CombatRound.objects.get(pk=combat.pk).state
    hand = state["hands"][combat_key(hero1.pk)]
    client.force_login(p2)
    assert _post(client, "choose", session, combat, hero1, {"cards": hand[:1]}).status_code == 404
    client.force_login(p1)
    answer = _post(client, "choose", session, combat, hero1, {"cards": hand[:1]})
    assert answer.status_code == 200 and 'data-testid="combat-error"' not in answer.text
    assert combat_key(hero1.pk) in CombatRound.objects.get(pk=combat.pk).state["plays"]
    with pytest.raises(NotAllowed):  # the service itself, given ids
        combat_draw(combat=CombatRound(pk=combat.pk), by=p2, character=Character(pk=hero2.pk), in_session=other.pk)


def test_fr_cmb_1_a_target_that_is_no_fighter_is_refused_without_its_name(client):
    """A target of another campaign, of this campaign but not in the fight, or an id that names
    nothing: one answer, which names none of them, and nothing changes."""
    session, mayor, [(_p1, _hero1)], (m1,), combat = _fight(players=1, minions=1)
    elsewhere = make_user()
    stranger = make_protagonist(make_campaign(players=[elsewhere]), elsewhere, name="Forastera Secreta")
    idle = make_minion(session.campaign, name="Esbirro Ocioso")
    before = CombatRound.objects.get(pk=combat.pk).state
    client.force_login(mayor)
    answers = set()
    for target in (stranger.pk, idle.pk, stranger.pk + 1000):
        answer = _post(client, "declare", session, combat, m1, {"technique": "pelea", "targets": [target]})
        assert answer.status_code == 200 and 'data-testid="combat-error"' in answer.text
        assert "Forastera" not in answer.text and "Ocioso" not in answer.text
        answers.add(answer.text.split('data-testid="combat-error">')[1].split("<")[0])
    assert answers == {"Elige entre quienes luchan en esta pelea."}
    patient = _post(client, "declare", session, combat, m1, {"technique": "medical", "patient": stranger.pk})
    assert "Forastera" not in patient.text and 'data-testid="combat-error"' in patient.text
    assert CombatRound.objects.get(pk=combat.pk).state == before


@pytest.mark.parametrize("action", ["declare", "draw", "choose"])
def test_fr_cmb_1_a_fighters_action_reads_the_session_the_fight_and_the_fighters_once(client, action):
    session, mayor, [(_p1, hero1)], (m1, m2), combat = _fight(players=1, minions=2)
    client.force_login(mayor)
    for minion in (m1, m2):  # the first: caches, the first statements' plans; the second: counted
        if action != "declare":
            combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero1)
        if action == "choose":
            combat_draw(combat=combat, by=mayor, character=minion)
        data = {"technique": "pelea", "target": hero1.pk} if action == "declare" else None
        if action == "choose":
            data = {"cards": CombatRound.objects.get(pk=combat.pk).state["hands"][combat_key(minion.pk)][:1]}
        with CaptureQueriesContext(connection) as queries:
            answer = _post(client, action, session, combat, minion, data)
        assert answer.status_code == 200 and 'data-testid="combat-error"' not in answer.text
    sqls = [q["sql"] for q in queries.captured_queries]
    # the first write (on PostgreSQL the fight's state is written with its log: a WITH … UPDATE)
    before_the_change = sqls[:next(i for i, sql in enumerate(sqls) if sql.startswith(("UPDATE ", "WITH ")))]
    if connection.vendor == "postgresql":  # the fight's state, the session's for a draw, and the log: one write
        assert sum(sql.startswith(("UPDATE ", "INSERT ", "WITH ")) for sql in sqls) == 1
    assert sum('FROM "play_gamesession"' in sql for sql in before_the_change) == 1
    assert sum('FROM "play_combatround"' in sql for sql in before_the_change) == 1
    assert sum('FROM "characters_character"' in sql for sql in before_the_change) == 1


@pytest.mark.parametrize("action", ["draw", "choose"])
def test_fr_cmb_1_a_players_draw_and_lock_in_read_whether_they_hold_the_seat_with_the_fight(client, action):
    """A player draws for their protagonist and locks in from their own hand (not one the Mayor
    drew for them): whether they play that seat is read with the fight under the lock, not in a
    statement of its own (issue #11: one round trip fewer before the push)."""
    session, mayor, [(p1, hero1)], (m1,), combat = _fight(players=1, minions=1)
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero1)
    combat_draw(combat=combat, by=mayor, character=m1)
    combat_declare(combat=combat, by=p1, character=hero1, technique="pelea", target=m1)
    client.force_login(p1)
    data = None
    if action == "choose":
        assert _post(client, "draw", session, combat, hero1).status_code == 200
        data = {"cards": CombatRound.objects.get(pk=combat.pk).state["hands"][combat_key(hero1.pk)][:1]}
    with CaptureQueriesContext(connection) as queries:
        answer = _post(client, action, session, combat, hero1, data)
    assert answer.status_code == 200 and 'data-testid="combat-error"' not in answer.text
    fight = CombatRound.objects.get(pk=combat.pk)
    assert combat_key(hero1.pk) not in fight.drawn_by  # the player's own draw: the Mayor holds nothing of it
    if action == "choose":
        assert combat_key(hero1.pk) in fight.state.get("plays", {}) or fight.turn > combat.turn
    sqls = [q["sql"] for q in queries.captured_queries]
    before_the_change = sqls[:next(i for i, sql in enumerate(sqls) if sql.startswith(("UPDATE ", "WITH ")))]
    assert not any(sql.startswith('SELECT 1 FROM "play_seat"') for sql in before_the_change)
    [fight_read] = [sql for sql in before_the_change if 'FROM "play_combatround"' in sql]
    assert "plays_seat" in fight_read


def test_fr_cmb_1_after_the_fight_or_the_session_has_ended_it_is_still_404_for_whoever_may_not_act(client):
    """The service says "ended" only after it has asked who acts; its refusal's answer is read with
    the view's own check, so nobody who may not act learns that the fight or the session ended."""
    session, mayor, [(p1, hero1), (p2, _hero2)], (m1, _m2), combat = _fight()
    client.force_login(mayor)
    client.post(reverse("play_combat_step", args=[session.pk, combat.pk, "terminar"]), {"request_key": "end"}, **HX)
    for ended in ("fight", "session"):
        if ended == "session":
            session_end(session=session, by=mayor)
        for user, fighter in ((p2, hero1), (p1, m1), (make_user(), hero1)):
            client.force_login(user)
            for action in ("declare", "draw", "choose"):
                data = {"technique": "pelea", "target": m1.pk} if action == "declare" else {"cards": ["1:AS"]}
                assert _post(client, action, session, combat, fighter, data).status_code == 404, (ended, action)
        client.force_login(p1)  # the fighter's own player is told
        answer = _post(client, "draw", session, combat, hero1)
        assert answer.status_code == 200 and 'data-testid="combat-error"' in answer.text


def test_fr_cmb_1_the_lock_in_that_reveals_writes_the_fight_and_its_log_once_and_pushes_once(client, monkeypatch):
    """The last lock-in and its reveal are one write of the round's row, one statement of log lines
    (the lock-in's line first) and one push, not a write and a push for each (issue #11)."""
    from frontera.play.services import core

    session, mayor, [(p1, hero1)], (m1,), combat = _fight(players=1, minions=1)
    client.force_login(mayor)
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero1)
    combat_draw(combat=combat, by=mayor, character=m1)
    combat_declare(combat=combat, by=p1, character=hero1, technique="pelea", target=m1)
    combat_draw(combat=combat, by=p1, character=hero1)
    hands = CombatRound.objects.get(pk=combat.pk).state["hands"]
    assert _post(client, "choose", session, combat, m1, {"cards": hands[combat_key(m1.pk)][:1]}).status_code == 200
    assert not CombatRound.objects.get(pk=combat.pk).state.get("revealed")
    pushes = []
    monkeypatch.setattr(core, "publish_on_commit", lambda topic, version, regions=None, actor=None: pushes.append(regions))
    last = SessionEvent.objects.filter(session=session).order_by("-pk").values_list("pk", flat=True)[0]
    client.force_login(p1)
    with CaptureQueriesContext(connection) as queries:
        answer = _post(client, "choose", session, combat, hero1, {"cards": hands[combat_key(hero1.pk)][:1]})
    assert answer.status_code == 200 and 'data-testid="combat-error"' not in answer.text
    assert CombatRound.objects.get(pk=combat.pk).state["revealed"]
    sqls = [q["sql"] for q in queries.captured_queries]
    assert sum('UPDATE "play_combatround"' in sql for sql in sqls) == 1
    assert sum('INSERT INTO "play_sessionevent"' in sql for sql in sqls) == 1
    if connection.vendor == "postgresql":  # the engine state, the round and the log: one statement
        [written] = [sql for sql in sqls if 'UPDATE "play_combatround"' in sql]
        assert 'UPDATE "play_gamesession"' in written and 'INSERT INTO "play_sessionevent"' in written
    assert pushes == [None]  # every region: the reveal moved cards and tracks
    lines = list(SessionEvent.objects.filter(session=session, pk__gt=last, kind=SessionEvent.Kind.DECISION)
                 .order_by("pk").values_list("message", "params"))
    assert lines[0] == ("%(who)s has locked in, face down.", {"who": hero1.name})
    assert any(message == "%(who)s → %(target)s: %(explain)s" for message, _params in lines[1:])
