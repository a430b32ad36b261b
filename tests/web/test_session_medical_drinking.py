"""Medical attention (FR-CHK-5) as its own action, and the drinking duel (FR-SOB-2) between two
characters, each through the real services and pages."""

import pytest
from django.urls import reverse
from django.utils import translation

from frontera.play.models import Exchange, Gamble, GameSession, SessionEvent, Treatment
from frontera.play.selectors.core import render_message
from frontera.play.services.checks import check_choose, check_draw, check_request
from frontera.play.services.core import SessionError
from frontera.play.services.duels import drinking_duel_drink, drinking_duel_start
from frontera.play.services.medical import medical_request
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from tests.factories import engine, make_table, set_tracks, stack_pile

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _pile(session, suit, *, low=True):
    cards = sorted((u for u in engine(session).pile if Card.from_uid(u).suit == suit),
                   key=lambda u: Card.from_uid(u).value, reverse=not low)
    return cards


def _anywhere(session, code):
    """The first copy of ``code`` wherever the deal put it (stack_pile fetches it from any zone)."""
    return next(uid for cards in rules_session.zones(engine(session)).values() for uid in cards
                if uid.endswith(":" + code))


def _treat(session, by, healer, patient, chosen_suit, *, low=True, uid=None):
    treatment = medical_request(session=session, by=session.campaign.mayor, healer=healer, patient=patient)
    part = treatment.prueba.participants.get()
    uid = uid or _pile(session, chosen_suit, low=low)[0]
    stack_pile(session, [uid])
    part = check_draw(participant=part, by=by)
    check_choose(participant=part, by=by, card=uid)
    treatment.refresh_from_db()
    return treatment, part


def test_fr_chk_5_medical_attention_is_cabeza_saber_and_a_success_speeds_recovery(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(rival, health=-2)
    treatment, part = _treat(session, p1, hero, rival, "D")
    assert (part.trait, part.skill, part.cards) == ("cabeza", "saber", 3 + 2)  # Saber held: +2 (FR-CHK-1)
    assert treatment.speeds is True
    rival.refresh_from_db()
    assert rival.sheet["tracks"]["health"] == -2  # it never restores a level by itself
    texts = [e for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-HLT-2" in e.rules]
    assert texts and texts[0].params["medical"] == {"_msg": "%(n)s hour", "n": 8}  # plural by n: "8 hours"
    client.force_login(mayor)
    assert "recovers faster" in client.get(session.get_absolute_url()).text
    set_tracks(rival, health=0)  # healed: "recovers faster" stayed on a Sano character
    assert "recovers faster" not in client.get(session.get_absolute_url()).text


def test_fr_chk_5_a_partial_success_on_someone_else_does_nothing():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(rival, health=-1)
    treatment, _part = _treat(session, p1, hero, rival, "H")
    assert treatment.speeds is False
    assert not GameSession.objects.get(pk=session.pk).tallies.get("medical")


def test_fr_chk_5_on_oneself_difficulty_8_even_a_low_diamond_fails():
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(hero, health=-1)
    treatment, part = _treat(session, p1, hero, hero, "D", uid=_anywhere(session, "2D"))
    assert part.prueba.difficulty == 8 and treatment.speeds is False
    # The K♦, fetched from wherever the deal put it: the pile's best ♦ may be below 8.
    treatment, part = _treat(session, p1, hero, hero, "D", uid=_anywhere(session, "KD"))
    assert treatment.speeds is True


def test_fr_chk_5_refuses_an_unwounded_patient_and_a_double_submit_is_one_check(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    with pytest.raises(SessionError, match="not wounded"):
        medical_request(session=session, by=mayor, healer=hero, patient=rival)
    set_tracks(rival, health=-1)
    client.force_login(mayor)
    for _ in range(2):
        client.post(reverse("play_medical_new", args=[session.pk]),
                    {"healer": hero.pk, "patient": rival.pk, "request_key": "m1"})
    assert Treatment.objects.count() == 1


def test_fr_sob_2_drinking_duel_until_a_coma_then_the_bet_exchange(client):
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(rival, sobriety=-2)  # the rival starts Borracho: one bad draw from a coma
    duel = drinking_duel_start(session=session, by=mayor, characters=[hero, rival])
    client.force_login(p1)
    page = client.get(session.get_absolute_url()).text
    assert f"duel-drink-{hero.pk}" in page and f"duel-drink-{rival.pk}" not in page
    url = reverse("play_gamble_step", args=[session.pk, duel.pk, "beber"])
    assert client.post(url, {"character": rival.pk, "round": 1}).status_code == 404  # not p1's to drink
    rounds = 0
    while Gamble.objects.get(pk=duel.pk).status == "open":
        duel.refresh_from_db()
        r = duel.state["round"]
        client.post(url, {"character": hero.pk, "round": r})
        client.post(url, {"character": hero.pk, "round": r})  # a double submit: no second drink
        drinking_duel_drink(gamble=duel, by=p2, character=rival, round_seen=r)
        rounds += 1
        assert rounds < 40
    duel.refresh_from_db()
    drinks = duel.state["drinkers"]
    assert drinks[str(hero.pk)]["drinks"] == drinks[str(rival.pk)]["drinks"] == rounds
    result = duel.state["result"]
    rival.refresh_from_db()
    hero.refresh_from_db()
    assert min(rival.sheet["tracks"]["sobriety"], hero.sheet["tracks"]["sobriety"]) == -3  # someone reached En coma
    assert any("FR-SOB-2" in e.rules for e in SessionEvent.objects.filter(session=session, kind="decision"))
    bets = Exchange.objects.filter(session=session, kind__in=["bet", "bet_tie"])
    assert bets.count() == 1 and (result[str(hero.pk)] == "tie") == (bets.get().kind == "bet_tie")
    assert Exchange.objects.filter(session=session, kind="coma").exists()  # FR-SOB-1's exchange is due too
    with pytest.raises(SessionError, match="settled"):
        drinking_duel_drink(gamble=duel, by=mayor, character=hero)
    # the last line names each drinker's result in the reader's language (it was the Mayor's
    # language for everyone: "Djamal Victoria, Policarpo Derrota" in English)
    over = SessionEvent.objects.get(session=session, message="The duelo de bebida is over: %(result)s.")
    words = {"win": ("Victory", "Victoria"), "loss": ("Defeat", "Derrota"), "tie": ("Tie", "Tablas")}
    for language, index in (("en", 0), ("es", 1)):
        with translation.override(language):
            text = render_message(over.message, over.params)
        for character in (hero, rival):
            assert f"{character.name} ({words[result[str(character.pk)]][index]})" in text, (language, text)


def test_fr_sob_2_a_duel_drink_that_leaves_the_level_as_it_was_says_so():
    """The first drinks of a drinking duel are free (fewer than ceil(Aguante / 2)): each line said
    "Sobrio → Sobrio", read at the table as a mistake; it says the drinker is still Sobrio."""
    session, mayor, seated, _ = make_table()
    (_p1, hero), (_p2, rival) = seated
    duel = drinking_duel_start(session=session, by=mayor, characters=[hero, rival])
    drinking_duel_drink(gamble=duel, by=mayor, character=hero)
    line = SessionEvent.objects.filter(session=session, kind="decision").latest("pk")
    assert line.message.endswith("still %(after)s."), line.message


def test_a_refused_action_is_answered_with_x_live_refused_and_a_done_one_without(client):
    """static/js/live-regions.js keeps a refused form as filled in: the answer that refuses an action
    says so (X-Live-Refused), from the page's region and from the Mayor's dialog alike; an action
    done says nothing of the kind, so its form may take the answer's values."""
    session, mayor, seated, _ = make_table()
    hero = seated[0][1]
    client.force_login(mayor)
    url = reverse("play_check_new", args=[session.pk])
    call = {"characters": [str(hero.pk)], "trait": "musculo", "skill": "", "difficulty": "", "modifier": "0",
            "label": "", "request_key": "k-refused"}
    refused = client.post(url, {**call, "trait": "pies"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200 and refused["X-Live-Refused"] == "1"
    in_dialog = client.post(url, {**call, "trait": "pies", "dialog": "1"}, HTTP_HX_REQUEST="true")
    assert in_dialog.status_code == 200 and in_dialog["X-Live-Refused"] == "1"
    done = client.post(url, call, HTTP_HX_REQUEST="true")
    assert done.status_code == 200 and "X-Live-Refused" not in done


def test_fr_chk_5_a_healers_check_is_titled_in_each_readers_language(client):
    """A walk through an evening found a Spanish phone reading "Prueba de rasgo: medical attention:
    Clementine" (the title was written in the language of whoever called it), and the history's
    list of checks giving that check no title at all."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(rival, health=-1)
    with translation.override("en"):  # called by a Mayor who reads English
        treatment = medical_request(session=session, by=mayor, healer=hero, patient=rival)
    client.force_login(p1)
    spanish = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert f"Prueba de rasgo · atención médica: {rival.name}" in spanish and "medical attention" not in spanish
    english = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").text
    assert f"Trait check · medical attention: {rival.name}" in english
    plain = check_request(session=session, by=mayor, characters=[hero], trait="manos")  # no label: its kind
    history = client.get(reverse("play_history", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="es").text
    assert f'<option value="{treatment.prueba.pk}">#{treatment.prueba.pk} · atención médica: {rival.name}</option>' \
        in history
    assert f'<option value="{plain.pk}">#{plain.pk} · Prueba de rasgo</option>' in history


def test_fr_chk_5_a_healers_success_says_when_the_level_comes_back():
    """A walk through an evening read "recupera un nivel de Salud en 1 hora … Por sí sola no devuelve
    nada" and the Mayor could not tell whether to give the level back: the line says the Mayor gives
    it back when the time has passed (FR-HLT-2)."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(rival, health=-1)
    _treat(session, p1, hero, rival, "D")
    line = next(e for e in SessionEvent.objects.filter(session=session, kind="decision") if "FR-HLT-2" in e.rules)
    with translation.override("es"):
        text = render_message(line.message, line.params)
    assert f"{rival.name} recupera un nivel de Salud tras 1 hora en vez de 8 horas con descanso" in text
    assert text.endswith("; el Mayor se lo devuelve (+1) cuando haya pasado ese tiempo.")


def test_fr_chk_5_a_healers_check_offers_no_again(client):
    """"Again…" refills the call dialog with a check's trait and title: on a healer's check it would
    call a bare Cabeza check titled "medical attention", with no medical attention behind it (a walk
    found it offered on one). The Mayor's own checks keep it."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    set_tracks(rival, health=-1)
    treatment = medical_request(session=session, by=mayor, healer=hero, patient=rival)
    plain = check_request(session=session, by=mayor, characters=[rival], trait="manos")
    client.force_login(mayor)
    page = client.get(session.get_absolute_url()).text
    assert f'data-testid="again-{plain.pk}"' in page
    assert f'data-testid="again-{treatment.prueba.pk}"' not in page


def test_fr_chk_1_fr_chk_5_the_healers_kit_counts_as_equipment_and_zero_parts_are_left_out():
    """A walk read "7 de la hoja, 0 del equipo, −0 de los estados, modificador 1 = 8 cartas" right
    after "+1 carta por el botiquín": the kit is equipment (FR-CHK-5), and a part that adds nothing
    is not listed (FR-CHK-1)."""
    session, mayor, [(p1, hero), (p2, rival)], _ = make_table(players=2)
    hero.refresh_from_db()
    hero.sheet = {**hero.sheet, "equipment": {**hero.sheet["equipment"], "material_de_curandero": 1}}
    hero.save(update_fields=["sheet"])
    set_tracks(rival, health=-2)
    treatment = medical_request(session=session, by=mayor, healer=hero, patient=rival)
    assert treatment.prueba.participants.get().cards == 3 + 2 + 1
    [called] = [e for e in SessionEvent.objects.filter(session=session, kind="decision", prueba=treatment.prueba)
                if e.rules == ["FR-CHK-1"]]
    with translation.override("es"):
        assert render_message(called.message, called.params).endswith(
            "prueba de Cabeza (Saber): 5 de la hoja, +1 del equipo = 6 cartas.")
    with translation.override("en"):
        assert render_message(called.message, called.params).endswith(
            ": 5 from the sheet, +1 from equipment = 6 cards.")
