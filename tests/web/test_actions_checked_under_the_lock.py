"""The Mayor's calls, and a participant's draw and choice, are checked by the service under the
session's lock (issue #11), with the session read once and the view reading nothing first: who calls
(anybody but the Mayor gets 404 and nothing is made) and whom (a character of another campaign, or a
protagonist not at the session, is refused with its own message); who draws and chooses (the
character's player or the Mayor, for a participant of that session; 404 for anybody else)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from frontera.play.models import Check, Participant, SessionEvent
from frontera.play.services.checks import Entry, check_draw, check_request, opposed_request
from frontera.play.services.core import NotAllowed
from tests.factories import make_campaign, make_protagonist, make_table, make_user

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _call(client, session, *characters, key="call-1", **extra):
    data = {"characters": [str(c.pk) for c in characters], "trait": "manos", "modifier": 0, "request_key": key}
    return client.post(reverse("play_check_new", args=[session.pk]), data | extra, **HX)


def _opposed(client, session, a, b, key="opposed-1"):
    data = {"character_1": str(a.pk), "trait_1": "manos", "character_2": str(b.pk), "trait_2": "cabeza",
            "trait_3": "manos", "trait_4": "manos", "request_key": key}
    return client.post(reverse("play_opposed_new", args=[session.pk]), data, **HX)


def test_only_the_mayor_calls_a_check_and_a_refused_call_makes_nothing(client):
    session, mayor, seated, (minion,) = make_table()
    other, other_mayor, _, _ = make_table()
    events = SessionEvent.objects.count()
    for outsider in (seated[0][0], other_mayor, make_user()):  # a player of it, another Mayor, a stranger
        client.force_login(outsider)
        assert _call(client, session, seated[0][1]).status_code == 404
        assert _opposed(client, session, seated[0][1], minion).status_code == 404
    assert not Check.objects.exists() and SessionEvent.objects.count() == events
    client.force_login(mayor)
    assert _call(client, other, seated[0][1]).status_code == 404  # not his session
    assert client.post(reverse("play_check_new", args=[other.pk + session.pk + 1]), {
        "characters": [str(minion.pk)], "trait": "manos", "request_key": "k"}, **HX).status_code == 404
    response = _call(client, session, seated[0][1], minion)
    assert response.status_code == 200 and Check.objects.count() == 1
    assert seated[0][1].name in response.text  # the answer: the Mayor's checks, with the new one


def test_whom_the_mayor_calls_is_checked_under_the_lock_with_its_own_message(client):
    session, mayor, seated, _ = make_table()
    campaign = session.campaign
    elsewhere, newcomer = make_user(), make_user()
    stranger = make_protagonist(make_campaign(players=[elsewhere]), elsewhere)  # of another campaign
    campaign.memberships.create(user=newcomer, role="player")
    absent = make_protagonist(campaign, newcomer, name="Ausente")  # of this campaign, not at the table
    client.force_login(mayor)
    refused = _call(client, session, stranger, key="a")
    assert refused.status_code == 200 and "Elige personajes de esta campaña." in refused.text
    refused = _call(client, session, absent, key="b")
    assert "Ausente no está en esta sesión." in refused.text
    refused = _opposed(client, session, seated[0][1], stranger, key="c")
    assert "Elige personajes de esta campaña." in refused.text
    assert not Check.objects.exists()
    assert "Revisa el formulario" in _call(client, session, seated[0][1], key="").text  # the form's own checks stay


def test_a_refused_call_does_not_tell_whether_a_character_exists_elsewhere(client):
    """An id that names nothing and a character of another campaign get one answer, whatever the
    call names before them (an error of the loop over the characters would come first for one of
    them only)."""
    session, mayor, seated, (minion,) = make_table()
    elsewhere = make_user()
    stranger = make_protagonist(make_campaign(players=[elsewhere]), elsewhere)
    client.force_login(mayor)
    answers = set()
    for n, unknown in enumerate((stranger.pk, stranger.pk + 1000)):
        for before in ([minion, minion], [seated[0][1]], []):
            data = {"characters": [str(c.pk) for c in before] + [str(unknown)], "trait": "manos",
                    "request_key": f"k{n}-{len(before)}"}
            text = client.post(reverse("play_check_new", args=[session.pk]), data, **HX).text
            answers.add("Elige personajes de esta campaña." in text)
    assert answers == {True} and not Check.objects.exists()


@pytest.mark.parametrize("bad", ["²", "9" * 5000, "9" * 20, "-3", "1e3"],
                         ids=["superscript", "5000 digits", "20 digits", "negative", "exponent"])
def test_an_id_that_is_no_id_is_refused_by_the_form(client, bad):
    session, mayor, seated, _ = make_table()
    data = {"characters": [bad], "trait": "manos", "request_key": "k"}
    opposed = {"character_1": bad, "trait_1": "manos", "character_2": str(seated[0][1].pk), "trait_2": "manos",
               "trait_3": "manos", "trait_4": "manos", "request_key": "o"}
    client.force_login(seated[0][0])  # not the Mayor: 404, as for any refused call
    assert client.post(reverse("play_check_new", args=[session.pk]), data, **HX).status_code == 404
    assert client.post(reverse("play_check_new", args=[session.pk + 1000]), data, **HX).status_code == 404
    assert client.post(reverse("play_opposed_new", args=[session.pk]), opposed, **HX).status_code == 404
    client.force_login(mayor)
    for url, form in ((reverse("play_check_new", args=[session.pk]), data),
                      (reverse("play_opposed_new", args=[session.pk]), opposed)):
        answer = client.post(url, form, **HX)
        assert answer.status_code == 200 and "Revisa el formulario" in answer.text
    assert not Check.objects.exists()


def test_a_call_reads_the_session_once_under_the_lock(client):
    session, mayor, seated, _ = make_table()
    client.force_login(mayor)
    _call(client, session, seated[0][1], key="warm")  # caches, the first statements' plans
    with CaptureQueriesContext(connection) as queries:
        assert _call(client, session, seated[1][1], key="counted").status_code == 200
    sqls = [q["sql"] for q in queries.captured_queries]
    # (on PostgreSQL the check's INSERT opens the statement that writes its participants and log)
    before_the_check = sqls[:next(i for i, sql in enumerate(sqls) if 'INSERT INTO "play_check"' in sql)]
    assert sum('FROM "play_gamesession"' in sql for sql in before_the_check) == 1
    assert not any('"characters_character"."name" FROM' in sql for sql in before_the_check)  # no callable list
    # the form's key is told new by the check's own INSERT (its unique constraint), not by a read
    assert not any('FROM "play_check"' in sql for sql in before_the_check)
    assert "DO NOTHING" in next(sql for sql in sqls if 'INSERT INTO "play_check"' in sql)


def test_a_double_submit_of_a_call_answers_with_the_first_check_even_if_the_table_changed(client):
    """The second submit of one form is the first call, whether it arrives at once or after its
    character has left the campaign: one check, nothing more written, the same answer."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    client.force_login(mayor)
    assert _call(client, session, hero, key="twice").status_code == 200
    made = Check.objects.get()
    events = SessionEvent.objects.filter(session=session).count()
    assert _call(client, session, hero, key="twice").status_code == 200
    assert (Check.objects.get().pk, SessionEvent.objects.filter(session=session).count()) == (made.pk, events)
    other, _, _, _ = make_table(players=1)
    type(hero).objects.filter(pk=hero.pk).update(campaign=other.campaign)
    answer = _call(client, session, hero, key="twice")
    assert answer.status_code == 200 and "Elige personajes de esta campaña" not in answer.text
    assert (Check.objects.get().pk, SessionEvent.objects.filter(session=session).count()) == (made.pk, events)
    assert "Elige personajes de esta campaña" in _call(client, session, hero, key="new").text  # a new form is refused
    assert Check.objects.count() == 1


def test_the_services_refuse_anybody_but_the_mayor():
    session, mayor, seated, (minion,) = make_table()
    player, hero = seated[0]
    with pytest.raises(NotAllowed):
        check_request(session=session, by=player, characters=[hero], trait="manos")
    with pytest.raises(NotAllowed):
        opposed_request(session=session, by=player, entries=[Entry(hero, "manos"), Entry(minion, "manos")])
    assert not Check.objects.exists()
    prueba = check_request(session=session, by=mayor, characters=[hero.pk], trait="manos", request_key="k")
    assert prueba.session.viewer_role == "mayor"  # what the view answers with, read under the lock
    again = check_request(session=session, by=mayor, characters=[hero.pk], trait="manos", request_key="k")
    assert again.pk == prueba.pk and again.session.viewer_role == "mayor"  # a double submit: the check made
    assert Check.objects.count() == 1


def _draw(client, session, participant):
    return client.post(reverse("play_draw", args=[session.pk, participant.pk]), **HX)


def test_who_draws_and_chooses_is_checked_under_the_lock(client):
    session, mayor, seated, (minion,) = make_table()
    other, other_mayor, other_seated, _ = make_table()
    (p1, hero1), (p2, _) = seated
    check = check_request(session=session, by=mayor, characters=[hero1, minion], trait="manos")
    mine, minions_part = check.participants.order_by("pk")
    elsewhere = check_request(session=other, by=other_mayor, characters=[other_seated[0][1]], trait="manos")
    foreign = elsewhere.participants.get()
    for user, participant, target in ((p2, mine, session), (p1, minions_part, session), (other_mayor, mine, session),
                                      (p1, foreign, session), (mayor, foreign, session)):
        client.force_login(user)
        assert _draw(client, target, participant).status_code == 404, (user, participant)
        assert client.post(reverse("play_choose", args=[target.pk, participant.pk]), {"card": "1:AS"},
                           **HX).status_code == 404
    assert set(Participant.objects.values_list("status", flat=True)) == {"requested"}
    client.force_login(p1)
    assert _draw(client, session, mine).status_code == 200
    client.force_login(mayor)
    assert _draw(client, session, minions_part).status_code == 200  # the Mayor draws for a minion
    assert set(check.participants.values_list("status", flat=True)) == {"drawn"}
    drawn = Participant.objects.get(pk=mine.pk).drawn
    for user in (p2, other_mayor, make_user()):  # a drawn hand: nobody else chooses from it
        client.force_login(user)
        for card in drawn:
            assert client.post(reverse("play_choose", args=[session.pk, mine.pk]), {"card": card},
                               **HX).status_code == 404
        assert client.post(reverse("play_choose", args=[session.pk, mine.pk]), {}, **HX).status_code == 404
    assert Participant.objects.get(pk=mine.pk).status == "drawn"
    with pytest.raises(NotAllowed):
        check_draw(participant=Participant(pk=foreign.pk), by=p1, in_session=other.pk)


def test_a_draw_reads_the_session_and_the_participant_once(client):
    session, mayor, seated, _ = make_table()
    (p1, hero1), (p2, hero2) = seated
    first, second = (check_request(session=session, by=mayor, characters=[hero], trait="manos").participants.get()
                     for hero in (hero1, hero2))
    client.force_login(p1)
    _draw(client, session, first)  # caches, the first statements' plans
    client.force_login(p2)
    with CaptureQueriesContext(connection) as queries:
        assert _draw(client, session, second).status_code == 200
    sqls = [q["sql"] for q in queries.captured_queries]
    before_the_draw = sqls[:next(i for i, sql in enumerate(sqls) if 'UPDATE "play_participant"' in sql)]
    assert sum('FROM "play_gamesession"' in sql for sql in before_the_draw) == 1
    assert sum('FROM "play_participant"' in sql for sql in before_the_draw) == 1
