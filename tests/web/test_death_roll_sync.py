"""The death roll's bookkeeping and the fight's levels against changes made outside the round
(FR-HLT-1, FR-HLT-3, FR-CHK-5; docs/sessions.md combat rulings 2 and 3): which medical attention wins
the second card, the 5-turn count started by any change that kills a fighter, the Mayor's sheet edit
in the characters app, and the table tools' death roll as a double submit."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from frontera.characters.models import Character
from frontera.play.models import CombatRound, GameSession, SessionEvent, Treatment
from frontera.play.services.checks import check_choose, check_draw
from frontera.play.services.combat import (
    Fighter,
    combat_choose,
    combat_declare,
    combat_draw,
    combat_next_turn,
    combat_reveal,
    combat_start,
)
from frontera.play.services.core import SessionError
from frontera.play.services.death import DEATH_CARE, DEATH_NOTICE, FIGHT_TAKES_LEVELS, death_roll
from frontera.play.services.medical import medical_request
from frontera.play.services.table_tools import accident, track_change
from frontera.rules import combat as rules_combat
from frontera.rules.cards import Card
from tests.factories import engine, make_table, set_tracks, stack_pile

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _client(user):
    client = Client()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    client.force_login(user)
    return client


def _tallies(session):
    return GameSession.objects.get(pk=session.pk).tallies


def _health(character):
    return Character.objects.get(pk=character.pk).sheet["tracks"]["health"]


def _death_rolls(session):
    return [e for e in SessionEvent.objects.filter(session=session, kind="decision").order_by("pk")
            if e.message.startswith("Death roll")]


def _decisions(session, template, **params):
    """The feed's decisions with this msgid (and these parameters)."""
    return [e for e in SessionEvent.objects.filter(session=session, kind="decision").order_by("pk")
            if e.message == template and all(e.params.get(k) == v for k, v in params.items())]


def _sheet_edit(character, django_capture_on_commit_callbacks, **tracks):
    """The Mayor's sheet form (the characters app), committed: the play hook runs after commit."""
    with django_capture_on_commit_callbacks(execute=True):
        set_tracks(Character.objects.get(pk=character.pk), **tracks)


def _treat(session, mayor, healer, healer_player, patient, *, works=True):
    """FR-CHK-5: the healer's Cabeza (Saber) check; a low ♦ is an Éxito, a ♠ a Fracaso."""
    treatment = medical_request(session=session, by=mayor, healer=healer, patient=patient)
    part = treatment.prueba.participants.get()
    suit = "D" if works else "S"
    cards = [u for u in engine(session).pile if Card.from_uid(u).suit == suit and not Card.from_uid(u).is_joker]
    uid = min(cards, key=lambda u: Card.from_uid(u).value)
    stack_pile(session, [uid])
    part = check_draw(participant=part, by=healer_player)
    check_choose(participant=part, by=healer_player, card=uid)
    treatment = Treatment.objects.get(pk=treatment.pk)
    assert treatment.speeds is works
    return treatment


def _duel(session, mayor, hero, minion):
    return combat_start(session=session, by=mayor, fighters=[Fighter(hero, "posse"), Fighter(minion, "gang")])


def _spec(combat, character):
    return CombatRound.objects.get(pk=combat.pk).state["combatants"][f"k{character.pk}"]


# --- FR-HLT-3 / FR-CHK-5: which attention wins the second card ------------------------------------


def test_fr_hlt_3_fr_chk_5_attention_given_to_the_dead_character_wins_the_second_card_once():
    """Attention that works on a character at Muerto draws 2 for their death roll; the roll spends
    it (the flag is gone afterwards), and the FR-HLT-2 "treated" mark of a wound is not it."""
    session, mayor, [(p1, doc), (_p2, hero)], _ = make_table(players=2, minions=0)
    set_tracks(hero, health=-4)
    _treat(session, mayor, doc, p1, hero)
    assert str(hero.pk) in _tallies(session)[DEATH_CARE]
    assert str(hero.pk) not in _tallies(session).get("medical", {})  # not a faster recovery of a wound
    death_roll(session=session, by=mayor, character=hero, request_key="r1")
    [roll] = _death_rolls(session)
    assert len(roll.params["cards"].split()) == 2 and "FR-CHK-5" in roll.rules
    assert str(hero.pk) not in _tallies(session).get(DEATH_CARE, {})


def test_fr_hlt_3_attention_that_fails_on_the_dead_character_wins_nothing():
    session, mayor, [(p1, doc), (_p2, hero)], _ = make_table(players=2, minions=0)
    set_tracks(hero, health=-4)
    _treat(session, mayor, doc, p1, hero, works=False)
    death_roll(session=session, by=mayor, character=hero, request_key="r1")
    [roll] = _death_rolls(session)
    assert len(roll.params["cards"].split()) == 1 and "FR-CHK-5" not in roll.rules


def test_fr_hlt_3_attention_given_before_the_mayors_edit_brought_him_back_does_not_carry_to_a_later_death(
        django_capture_on_commit_callbacks):
    """Attended at Muerto, then the Mayor's sheet edit takes him to Incapacitado without a roll:
    the attention was for that death; dying again later draws 1 card."""
    session, mayor, [(p1, doc), (_p2, hero)], _ = make_table(players=2, minions=0)
    set_tracks(hero, health=-4)
    _treat(session, mayor, doc, p1, hero)
    _sheet_edit(hero, django_capture_on_commit_callbacks, health=-3)
    assert str(hero.pk) not in _tallies(session).get(DEATH_CARE, {})
    track_change(session=session, by=mayor, character=hero, track="health", amount=-1)
    death_roll(session=session, by=mayor, character=hero, request_key="r1")
    [roll] = _death_rolls(session)
    assert len(roll.params["cards"].split()) == 1


def test_fr_hlt_3_attention_to_a_character_dead_for_good_does_nothing():
    session, mayor, [(p1, doc), (_p2, hero)], _ = make_table(players=2, minions=0)
    set_tracks(hero, health=-4)
    GameSession.objects.filter(pk=session.pk).update(tallies={"dead": {str(hero.pk): True}})
    _treat(session, mayor, doc, p1, hero)
    assert _decisions(session, "Medical attention does nothing for %(patient)s.", patient=hero.name)
    assert str(hero.pk) not in _tallies(session).get(DEATH_CARE, {})


# --- FR-HLT-3: the 5-turn count from any change that kills a fighter ------------------------------


def test_fr_hlt_3_an_accident_that_kills_a_fighter_starts_the_count_and_the_fight_shows_it():
    session, mayor, [(_p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel(session, mayor, hero, m1)
    accident(session=session, by=mayor, character=hero, cause="train")  # 4 levels: Muerto
    assert _tallies(session)["dying"][str(hero.pk)] == {"combat": combat.pk, "turn": 1}
    assert _decisions(session, DEATH_NOTICE, who=hero.name, turns=5)
    page = _client(mayor).get(session.get_absolute_url(), {"fragment": "combat"}, **HX).content.decode()
    assert "Dead: the death roll within 5 more turns" in page  # the English level name (issue #12)


def test_fr_hlt_3_the_mayors_edit_off_muerto_stops_the_count_and_the_rules_draw_nothing(
        django_capture_on_commit_callbacks):
    session, mayor, [(_p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel(session, mayor, hero, m1)
    track_change(session=session, by=mayor, character=hero, track="health", amount=-4)
    assert str(hero.pk) in _tallies(session)["dying"]
    _sheet_edit(hero, django_capture_on_commit_callbacks, health=-3)  # Incapacitado, no roll
    assert str(hero.pk) not in _tallies(session)["dying"]
    for _turn in range(7):
        try:
            combat_declare(combat=combat, by=mayor, character=m1, technique="move")
        except SessionError:  # the minion's jam (FR-CMB-12)
            pass
        combat_reveal(combat=combat, by=mayor)
        combat_next_turn(combat=combat, by=mayor)
    assert not _death_rolls(session) and _health(hero) == -3


def test_fr_hlt_3_a_death_roll_for_someone_dead_for_good_starts_no_new_count():
    """An 8 earlier: the Mayor's override back to Muerto of a character dead for good is no new death."""
    session, mayor, [(_p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel(session, mayor, hero, m1)
    GameSession.objects.filter(pk=session.pk).update(tallies={"dead": {str(hero.pk): True}})
    track_change(session=session, by=mayor, character=hero, track="health", amount=-4)
    assert str(hero.pk) not in _tallies(session).get("dying", {})
    assert _spec(combat, hero)["health"] == -4


# --- FR-HLT-1, ruling 3: the Mayor's sheet edit during a fight ------------------------------------


def test_fr_hlt_1_the_mayors_sheet_edit_reaches_the_open_fight_after_commit(django_capture_on_commit_callbacks):
    session, mayor, [(_p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel(session, mayor, hero, m1)
    _sheet_edit(hero, django_capture_on_commit_callbacks, health=-2, morale=-1)
    spec = _spec(combat, hero)
    assert (spec["health"], spec["morale"], spec["penalty"]) == (-2, -1, 3)
    assert _decisions(session, FIGHT_TAKES_LEVELS, who=hero.name)
    _sheet_edit(hero, django_capture_on_commit_callbacks, health=-4)  # to Muerto: the count starts (FR-HLT-3)
    assert _tallies(session)["dying"][str(hero.pk)] == {"combat": combat.pk, "turn": 1}


def test_fr_hlt_1_a_sheet_edit_that_keeps_the_tracks_tells_the_fight_nothing(django_capture_on_commit_callbacks):
    """After a revealed hit (where any override would replace the round's result), an edit of the
    sheet that leaves the tracks as they are is no track change: no feed line, the result stands."""
    session, mayor, [(p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel(session, mayor, hero, m1)
    stack_pile(session, ["1:KS", "1:QS", "1:JS"])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=m1)
    combat_declare(combat=combat, by=p1, character=hero, technique="move")
    combat_choose(combat=combat, by=mayor, character=m1, cards=["1:KS"])
    state = CombatRound.objects.get(pk=combat.pk).state
    assert state["revealed"] and f"k{hero.pk}" in state["result"]["targets"]
    before = SessionEvent.objects.filter(session=session).count()
    _sheet_edit(hero, django_capture_on_commit_callbacks, health=_health(hero))  # tracks as they are
    assert SessionEvent.objects.filter(session=session).count() == before
    assert CombatRound.objects.get(pk=combat.pk).state == state


def test_fr_hlt_3_a_sheet_edit_to_muerto_the_fight_was_not_told_of_starts_the_count_at_the_reveal():
    """Without the after-commit hook (a sheet written directly), the reveal still takes the sheets'
    levels first: the fighter at Muerto takes no part and the 5-turn count starts."""
    session, mayor, [(_p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel(session, mayor, hero, m1)
    row = Character.objects.get(pk=hero.pk)
    row.sheet = {**row.sheet, "tracks": {**row.sheet["tracks"], "health": -4}}
    row.save()
    combat_declare(combat=combat, by=mayor, character=m1, technique="move")
    combat_reveal(combat=combat, by=mayor)
    assert _tallies(session)["dying"][str(hero.pk)] == {"combat": combat.pk, "turn": 1}
    assert _spec(combat, hero)["health"] == -4 and _health(hero) == -4


def test_fr_hlt_1_a_fighter_a_sheet_edit_lets_act_again_holds_the_reveal_for_their_turn():
    """Incapacitado at the start, edited to Herido (not told to the fight) while the minion locks
    in: the last choice does not fail — the reveal waits for the hero to declare and choose."""
    session, mayor, [(p1, hero)], (m1,) = make_table(players=1, minions=1)
    set_tracks(hero, health=-3)
    combat = _duel(session, mayor, Character.objects.get(pk=hero.pk), m1)
    stack_pile(session, ["1:KS", "1:QS", "1:JS"])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=m1)
    row = Character.objects.get(pk=hero.pk)
    row.sheet = {**row.sheet, "tracks": {**row.sheet["tracks"], "health": -1}}
    row.save()
    combat_choose(combat=combat, by=mayor, character=m1, cards=["1:KS"])
    state = CombatRound.objects.get(pk=combat.pk).state
    assert not state["revealed"] and rules_combat.phase(state) == "declare"
    assert state["combatants"][f"k{hero.pk}"]["health"] == -1
    combat_declare(combat=combat, by=p1, character=hero, technique="move")
    combat_reveal(combat=combat, by=mayor)
    combat.refresh_from_db()
    assert combat.state["revealed"]
    lost = combat.state["result"]["targets"][f"k{hero.pk}"]["health_lost"]
    assert _health(hero) == max(-1 - lost, -4)


# --- the table tools' death roll: one draw per submit --------------------------------------------


def test_fr_hlt_3_the_table_tools_death_roll_carries_a_hidden_request_key_and_draws_once_per_key():
    session, mayor, [(_p1, hero)], _ = make_table(players=1, minions=0)
    set_tracks(hero, health=-4)
    client = _client(mayor)
    # the table tools open in the Mayor's dialog (issue #10): each opening carries its own key
    page = client.get(reverse("play_action_form", args=[session.pk, "tools"]), **HX).content.decode()
    assert 'type="hidden" name="request_key"' in page
    url = reverse("play_table_action", args=[session.pk])
    data = {"character": hero.pk, "action": "death", "request_key": "tap-1"}
    for _twice in range(2):
        text = client.post(url, data, **HX).content.decode()
        assert "dead for good: the dead man" not in text
        assert "Only a dead character draws for survival" not in text
    assert len(_death_rolls(session)) == 1


def test_fr_hlt_3_a_keyless_death_roll_after_the_sheet_changed_is_a_new_request():
    """Without a key a repeat counts as the double submit only while nobody touched the character
    since that roll: after the Mayor brings him back to Muerto, the next tap draws again."""
    session, mayor, [(_p1, hero)], _ = make_table(players=1, minions=0)
    set_tracks(hero, health=-4)
    first = death_roll(session=session, by=mayor, character=hero)
    assert death_roll(session=session, by=mayor, character=hero) == first
    assert len(_death_rolls(session)) == 1
    if first == "incapacitado":
        track_change(session=session, by=mayor, character=hero, track="health", amount=-1)
        death_roll(session=session, by=mayor, character=hero)
        assert len(_death_rolls(session)) == 2
    else:
        set_tracks(Character.objects.get(pk=hero.pk), health=-4)  # touched: a new request, refused
        with pytest.raises(SessionError, match="dead for good"):
            death_roll(session=session, by=mayor, character=hero)
