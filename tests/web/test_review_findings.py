"""Review of the live-session additions (combat declarations and the death roll, treasure sharing,
bet exchanges, FR-EXCH-7 timing, the session history).

The tests marked "DEFECT" fail on the code as reviewed: each docstring says what is wrong, how it
shows and where. The others pass: properties checked during the review that had no test of their
own (secrecy of a face-down pick, permissions of the new URLs, bad input on the history URLs).
"""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from frontera.characters.models import Character
from frontera.play.models import CombatRound, Exchange, SessionEvent, seat_key
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
from frontera.play.services.death import death_roll
from frontera.play.services.exchanges import (
    exchange_cancel,
    exchange_choices,
    exchange_choose,
    exchange_start,
)
from frontera.play.services.medical import medical_request
from frontera.play.services.sessions import phase_switch
from frontera.play.services.table_tools import track_change
from frontera.play.services.treasure import treasure_share_start, treasure_share_swap, treasure_share_vote
from frontera.rules import session as rules_session
from frontera.rules.cards import Card
from tests.factories import engine, make_minion, make_table, make_user, set_tracks, stack_pile

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _client(user):
    client = Client()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"  # the msgids: independent of the catalogue's state
    client.force_login(user)
    return client


def _death_rolls(session):
    return [e for e in SessionEvent.objects.filter(session=session, kind="decision").order_by("pk")
            if e.message.startswith("Death roll")]


def _treat_successfully(session, mayor, healer, healer_player, patient):
    """FR-CHK-5: the healer plays a low ♦ in Cabeza (Saber): an Éxito, the attention works."""
    treatment = medical_request(session=session, by=mayor, healer=healer, patient=patient)
    part = treatment.prueba.participants.get()
    diamonds = [u for u in engine(session).pile if Card.from_uid(u).suit == "D"]
    uid = min(diamonds, key=lambda u: Card.from_uid(u).value)
    stack_pile(session, [uid])
    part = check_draw(participant=part, by=healer_player)
    check_choose(participant=part, by=healer_player, card=uid)
    treatment.refresh_from_db()
    assert treatment.speeds is True
    return treatment


def _duel_of_two(session, mayor, hero, minion):
    fighters = [Fighter(hero, "posse"), Fighter(minion, "gang")]
    return combat_start(session=session, by=mayor, fighters=fighters)


# --- DEFECTS -----------------------------------------------------------------------------------------


def test_fr_exch_6_the_partner_of_a_swap_cannot_find_out_the_card_the_other_chose_by_trying_picks():
    """DEFECT — secrecy (FR-EXCH-6 swap, FR-MODE-7: another player's deck is theirs only).

    ``exchange_choose`` (frontera/play/services/exchanges.py, the ``elif ... .get("picks") == picks``
    branch, "a double submit of a step already taken") answers a step already taken with a silent
    success *before* checking who asks (``exchange_actor``), and for any other picks it answers
    "This exchange is already settled.". The view lets both sides of the exchange post
    (``views.exchange_choose`` only checks that the viewer is one of them). So in a Tesoro swap of a
    sharing in phase 2, once the swapper has chosen by face the card they give, the partner posts
    ``step=give`` with every card code of the session: the one answered without an error is the
    card chosen from the other's deck — before the partner chooses their own, and even if the
    Mayor then calls the swap off. Suggested fix: treat a repeated step as a double submit only for
    the user who took it (``chosen["_<step>"]["by"] == by.pk``) or the Mayor, and answer everyone
    else exactly as for any other stale step."""
    session, mayor, [(p1, a), (p2, b)], _ = make_table(players=2, minions=0)
    phase_switch(session=session, by=mayor)  # phase 2: each sees their own deck
    sharing = treasure_share_start(session=session, by=mayor, sharers=[a, b], count=1, swaps=1,
                                            request_key="share")
    for sharer, user in ((a, p1), (b, p2)):
        treasure_share_vote(exchange=sharing, by=user, sharer=sharer, keepers=[a])  # a keeps it
    treasure_share_swap(exchange=sharing, by=p2, sharer=b, partner=a, request_key="swap")  # b swaps
    swap = Exchange.objects.get(session=session, kind="treasure_swap")
    assert (swap.first, swap.second, swap.step) == (seat_key(b.pk), seat_key(a.pk), "give")
    own = [o for o in exchange_choices(engine(session), swap, seat_key(b.pk)) if o["uid"]]
    given = own[0]["uid"]
    exchange_choose(exchange=swap, by=p2, step="give", picks=[given])  # b's card, by face
    assert given not in rules_session.visible_cards(engine(session), seat_key(a.pk))  # a may not see it
    client = _client(p1)
    url = reverse("play_exchange_choose", args=[session.pk, swap.pk])
    refused = ("This exchange is already settled.", "This choice is not yours to make.")
    answer = client.post(url, {"step": "give", "picks": [own[1]["uid"]]}, **HX).content.decode()
    assert any(m in answer for m in refused)
    probe = client.post(url, {"step": "give", "picks": [given]}, **HX).content.decode()
    assert any(m in probe for m in refused), "the card the other side chose must not answer differently"


def _errors(text):
    return re.findall(r'data-testid="combat-error"[^>]*>([^<]*)', text)


def test_fr_cmb_1_the_mayor_cannot_probe_a_players_hand_or_locked_in_card_before_the_reveal():
    """DEFECT — secrecy (FR-CMB-1: everyone chooses in secret; docs/sessions.md: the Mayor sees a
    protagonist's hand no more than another player, ``combat_view``'s ``holds``). Pre-dates the
    last hour's changes, reached through the fight's choose URL.

    ``views.combat_choose`` lets the Mayor post for a protagonist (``can_act_for``) and answers
    differently by card: ``CombatChooseForm(hand=...)`` says "Choose among the cards you drew." for
    a card not in the hand, ``combat_choose`` returns silently for the card the player
    locked in ("a double submit", checked before anything else) and "... has already chosen this
    turn." for the other cards of the hand. Posting each card code tells the Mayor the player's hand
    and their secret choice before the reveal. Suggested fix: answer a request for a fighter whose
    hand the user may not hold (``holds`` in ``combat_view``) with one and the same refusal (or 404),
    and check the double submit only for the user who locked in. (``check_choose`` has the
    same silent "double submit" answer for a participant's face-down choice in an opposed check.)"""
    session, mayor, [(p1, hero), (p2, rival)], (m1,) = make_table(players=2, minions=1)
    combat = combat_start(session=session, by=mayor, fighters=[
        Fighter(hero, "posse"), Fighter(rival, "posse"), Fighter(m1, "gang")])
    combat_declare(combat=combat, by=mayor, character=m1, technique="move")
    combat_declare(combat=combat, by=p2, character=rival, technique="pelea", target=m1)
    combat_draw(combat=combat, by=p2, character=rival)  # rival has not chosen: no reveal yet
    combat_declare(combat=combat, by=p1, character=hero, technique="pelea", target=m1)
    combat_draw(combat=combat, by=p1, character=hero)
    combat.refresh_from_db()
    hand = combat.state["hands"][f"k{hero.pk}"]
    combat_choose(combat=combat, by=p1, character=hero, cards=hand[:1])
    combat.refresh_from_db()
    assert not combat.state["revealed"]
    outside = next(u for u in rules_session.all_cards(engine(session)) if u not in hand)
    client = _client(mayor)
    url = reverse("play_combat_choose", args=[session.pk, combat.pk, hero.pk])
    answers = {uid: tuple(_errors(client.post(url, {"cards": [uid]}, **HX).content.decode()))
               for uid in (outside, hand[0], hand[1])}
    assert len(set(answers.values())) == 1, answers


def test_fr_hlt_3_medical_attention_given_before_dying_does_not_win_the_second_card():
    """DEFECT (FR-HLT-3, FR-CHK-5; docs/sessions.md combat ruling 2: "the table has 5 combat turns
    ... to give medical attention that wins the second card").

    ``_death_roll`` (frontera/play/services/death.py, ``medical = bool(session.tallies.get("medical",
    {}).get(...))``) reads ``tallies["medical"]``, which ``_treatment_result`` sets for *any*
    successful attention (also the FR-HLT-2 one given to a Herido hours earlier) and nobody ever
    clears. So a character treated while Herido who later dies draws 2 cards and keeps the better,
    although nobody attended the dead character. (The same stale flag also gives a second death,
    later in the session, 2 cards again.)"""
    session, mayor, [(p1, hero), (_p2, rival)], _ = make_table(players=2, minions=0)
    track_change(session=session, by=mayor, character=rival, track="health", amount=-1)  # Herido
    _treat_successfully(session, mayor, hero, p1, rival)  # FR-HLT-2: recovers faster
    track_change(session=session, by=mayor, character=rival, track="health", amount=-3)  # now Muerto
    death_roll(session=session, by=mayor, character=rival, request_key="roll-1")
    [roll] = _death_rolls(session)
    assert len(roll.params["cards"].split()) == 1, "no medical attention since dying: one card"
    assert "FR-CHK-5" not in roll.rules


def test_fr_hlt_3_a_double_submitted_death_roll_from_the_table_tools_is_a_no_op():
    """DEFECT (low; common rule "double submits are idempotent").

    The table tools' "Tirada de muerte" (frontera/play/views/table_tools.py ``table_action``, action "death")
    calls ``death_roll`` without a request key (``TableActionForm`` has none), unlike the
    fight's button (``DeathRollForm.request_key``). A double tap draws once, but the second tap
    answers with an error: "... is dead for good: the dead man's hand has spoken." after a
    Permanente, or "Only a dead character draws for survival; this one is Incapacitado." after an
    Ace. Nothing changes, yet the Mayor is told his tap failed."""
    session, mayor, [(_p1, hero)], _ = make_table(players=1, minions=0)
    set_tracks(hero, health=-4)
    client = _client(mayor)
    url = reverse("play_table_action", args=[session.pk])
    data = {"character": hero.pk, "action": "death"}
    texts = [client.post(url, data, **HX).content.decode() for _twice in range(2)]
    assert len(_death_rolls(session)) == 1  # drawn once: holds
    for text in texts:
        assert "Only a dead character draws for survival" not in text
        assert "is dead for good: the dead man" not in text


def test_fr_char_6_the_history_filter_does_not_tell_a_player_which_npcs_exist():
    """DEFECT (low; FR-CHAR-6 as the project reads it: NPCs and minions are the Mayor's,
    ``permissions.can_view_character``; ``history.who_choices`` says "a player never learns of an
    NPC from here").

    ``parse_filters`` (frontera/play/history/log.py, the ``who`` branch) accepts any character
    id of the campaign for every viewer. For a player, ``?who=<id of an NPC never shown at the
    table>`` is accepted silently while an id that does not exist gets "That filter does not exist
    here; the whole log is shown." — an oracle that tells a player which ids are the Mayor's NPCs.
    Suggested fix: accept for a non-Mayor only the ``who_choices`` values (protagonists present and
    ``mayor``)."""
    session, _mayor, [(p1, _hero)], _ = make_table(players=1, minions=0)
    secret = make_minion(session.campaign, name="Sombra")  # prepared by the Mayor, never at the table
    client = _client(p1)
    url = reverse("play_history", args=[session.pk])
    missing = client.get(url, {"who": secret.pk + 1000}).content.decode()
    assert 'data-testid="filter-errors"' in missing
    secret_page = client.get(url, {"who": secret.pk}).content.decode()
    assert 'data-testid="filter-errors"' in secret_page, "an NPC's id answers like an id that is not there"


def test_fr_hlt_1_a_sheet_edit_during_a_fight_is_not_undone_by_the_next_hit():
    """DEFECT (docs/sessions.md combat ruling 3: "a track changed outside the round ... is the
    fighter's level from then on"; FR-HLT-1).

    The Mayor's sheet form (``frontera.characters.services.character_update``, the sheet's Salud
    field) changes a fighter's tracks without telling the open fight (only the play services call
    ``_sync_combat``). The round keeps its stale level and ``_combat_reveal``
    (frontera/play/services/combat.py, ``dataclass_replace(sheet, health=totals["health_after"], ...)``)
    writes the round's result over the sheet: a hero edited to Malherido (-2) who then takes one
    level of damage ends Herido (-1) — the edit is lost and the hit heals. Suggested fix: at the
    reveal apply each target's *loss* to the sheet's current level, or set the round's tracks from
    the sheets (``rules.combat.set_tracks``) before resolving."""
    session, mayor, [(p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel_of_two(session, mayor, hero, m1)
    set_tracks(Character.objects.get(pk=hero.pk), health=-2)  # the Mayor's sheet edit, mid-fight
    stack_pile(session, ["1:KS", "1:QS", "1:JS"])
    combat_declare(combat=combat, by=mayor, character=m1, technique="pelea", target=hero)
    combat_draw(combat=combat, by=mayor, character=m1)
    combat_declare(combat=combat, by=p1, character=hero, technique="move")
    combat_choose(combat=combat, by=mayor, character=m1, cards=["1:KS"])
    combat.refresh_from_db()
    if not combat.state["revealed"]:
        combat_reveal(combat=combat, by=mayor)
    combat.refresh_from_db()
    lost = combat.state["result"]["targets"][f"k{hero.pk}"]["health_lost"]
    assert lost >= 1
    health = Character.objects.get(pk=hero.pk).sheet["tracks"]["health"]
    assert health == max(-2 - lost, -4), "the hit is taken from the edited level, never above it"


def test_fr_hlt_3_a_fighter_put_at_muerto_by_the_mayors_override_gets_the_five_turn_death_roll():
    """DEFECT (FR-HLT-3; docs/sessions.md combat rulings 2 and 3).

    The 5-turn count of a death in a fight (``tallies["dying"]``) is recorded only in
    ``_combat_reveal`` (frontera/play/services/combat.py). A fighter put at Muerto during the fight by a
    change outside the round — the Mayor's track change, an accident, a threat — which ruling 3
    makes "the fighter's level from then on", starts no count: no "within 5 combat turns" notice,
    the combat region shows no turns left, and when the fifth turn after the death is over the rules
    draw nothing (``combat_next_turn`` only looks at ``tallies["dying"]``). Suggested fix: record
    the death in ``_sync_combat`` when the new level is Muerto and the old one was not."""
    session, mayor, [(_p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel_of_two(session, mayor, hero, m1)
    track_change(session=session, by=mayor, character=hero, track="health", amount=-4)  # Muerto now
    for _turn in range(7):
        try:
            combat_declare(combat=combat, by=mayor, character=m1, technique="move")
        except SessionError:  # the minion's jam on turn 5 (FR-CMB-12): nothing to declare
            pass
        combat_reveal(combat=combat, by=mayor)
        combat_next_turn(combat=combat, by=mayor)
    assert CombatRound.objects.get(pk=combat.pk).turn == 8  # the death was on turn 1
    assert _death_rolls(session), "the fifth turn after the death is over: the rules draw the death roll"


# --- properties checked (passing) --------------------------------------------------------------------


def test_fr_exch_2_fr_exch_7_a_face_down_pick_from_the_losers_deck_stays_unknown_until_it_moves():
    """Ruling 13 (docs/rules/decks.md): in phase 2 the winner picks from the loser's deck face down.
    Between the two steps the picked card is in no page, fragment, history export or card page of
    the winner, and no card event tells the loser which one it was (they learn it when it leaves)."""
    session, mayor, [(p1, hero), (_p2, rival)], _ = make_table(players=2, minions=0)
    phase_switch(session=session, by=mayor)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    options = exchange_choices(engine(session), exchange, seat_key(hero.pk))
    deck_b = set(engine(session).player_decks[seat_key(rival.pk)])
    assert {o["hidden"] for o in options if not o["uid"]} == deck_b  # the whole deck face down
    client = _client(p1)
    url = reverse("play_exchange_choose", args=[session.pk, exchange.pk])
    client.post(url, {"step": "take", "picks": ["#1"]}, **HX)
    exchange.refresh_from_db()
    assert exchange.step == "give"
    [taken] = exchange.chosen["take"]
    label = Card.from_uid(taken).label
    winner = _client(p1)
    for params in ({}, {"fragment": "checks"}, {"fragment": "board"}, {"fragment": "feed"}):
        page = winner.get(session.get_absolute_url(), params).content.decode()
        assert taken not in page
        assert f'aria-label="{label}"' not in page and f'data-testid="xpick-{label}"' not in page
    for name in ("play_history_json", "play_history_csv", "play_history"):
        export = winner.get(reverse(name, args=[session.pk])).content.decode()
        assert taken not in export
    assert winner.get(reverse("play_history_card", args=[session.pk, taken])).status_code == 404
    # the loser, who holds that deck, is not told which card was picked (nothing moved yet)
    assert taken in engine(session).player_decks[seat_key(rival.pk)]
    assert not SessionEvent.objects.filter(session=session, kind="card", card=taken, reason="bet").exists()


def test_fr_exch_7_the_mayor_acting_for_a_phase_1_winner_does_not_see_the_winners_deck():
    """FR-EXCH-7 / FR-MODE-2: the winner's look at their own deck is theirs; the Mayor choosing for a
    winner without a phone offers the winner's cards face down."""
    session, mayor, [(_p1, hero), (_p2, rival)], _ = make_table(players=2, minions=0)
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    exchange_choose(exchange=exchange, by=mayor, step="take", picks=["#1"])
    exchange.refresh_from_db()
    assert exchange.step == "give"
    state = engine(session)
    a = seat_key(hero.pk)
    assert set(state.player_decks[a]) <= rules_session.visible_cards(state, a)  # the winner looked
    mayor_offer = exchange_choices(state, exchange, "mayor")
    assert mayor_offer and all(o["uid"] is None for o in mayor_offer)
    page = _client(mayor).get(session.get_absolute_url(), {"fragment": "checks"}).content.decode()
    for uid in state.player_decks[a]:
        assert f'data-testid="xpick-{Card.from_uid(uid).label}"' not in page


def test_fr_exch_6_only_a_sharers_player_or_the_mayor_may_speak_for_a_sharer():
    """FR-EXCH-6: a player cannot vote or swap for another sharer, a non-sharer's player and an
    outsider get 404, a player cannot start a sharing; nothing changes."""
    session, mayor, [(p1, a), (p2, b), (p3, _c)], _ = make_table(players=3, minions=0)
    phase_switch(session=session, by=mayor)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[a, b], request_key="s1")
    url = reverse("play_treasure_share", args=[session.pk, sharing.pk])
    before = Exchange.objects.get(pk=sharing.pk).chosen
    for user, sharer in ((p1, b), (p3, a)):  # another sharer's vote; a non-sharer's
        vote = {"action": "keeper", "character": sharer.pk, "keeper": [a.pk]}
        assert _client(user).post(url, vote, **HX).status_code == 404
    outsider = make_user()
    vote = {"action": "keeper", "character": a.pk, "keeper": [a.pk]}
    assert _client(outsider).post(url, vote).status_code == 404
    new = reverse("play_treasure_new", args=[session.pk])
    start = {"sharers": [a.pk, b.pk], "count": 1, "swaps": 1, "request_key": "x"}
    assert _client(p1).post(new, start).status_code == 404
    assert _client(outsider).post(new, {"sharers": [a.pk, b.pk], "count": 1, "swaps": 1}).status_code == 404
    assert Exchange.objects.get(pk=sharing.pk).chosen == before
    assert Exchange.objects.filter(session=session, kind="treasure_take").count() == 1


def test_fr_exch_6_a_called_off_sharing_takes_no_vote_and_no_swap():
    """An action on a finished object: after the Mayor calls the sharing off, a vote or a swap is
    refused with a message and nothing moves."""
    session, mayor, [(p1, a), (p2, b)], _ = make_table(players=2, minions=0)
    phase_switch(session=session, by=mayor)
    sharing = treasure_share_start(session=session, by=mayor, sharers=[a, b], request_key="s1")
    exchange_cancel(exchange=sharing, by=mayor)
    state = engine(session).to_json()
    url = reverse("play_treasure_share", args=[session.pk, sharing.pk])
    vote = {"action": "keeper", "character": a.pk, "keeper": [b.pk]}
    text = _client(p1).post(url, vote, **HX).content.decode()
    assert "already settled" in text or "closed" in text or "already agreed" in text
    text = _client(p1).post(url, {"action": "swap", "character": a.pk, "partner": b.pk, "request_key": "k"},
                            **HX).content.decode()
    assert 'class="errors"' in text or 'role="alert"' in text
    assert engine(session).to_json() == state
    assert not Exchange.objects.filter(session=session, kind="treasure_swap").exists()
    assert Exchange.objects.get(pk=sharing.pk).status == "cancelled"


def test_fr_hlt_3_the_fights_death_roll_url_is_the_mayors_of_this_session_only():
    """An outsider and a player get 404 from the death roll of a fight; a fight of another session
    is 404 to its Mayor too; nothing is drawn."""
    session, mayor, [(p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel_of_two(session, mayor, hero, m1)
    set_tracks(hero, health=-4)
    url = reverse("play_combat_death_roll", args=[session.pk, combat.pk])
    for user in (make_user(), p1):
        assert _client(user).post(url, {"character": hero.pk, "request_key": "k"}, **HX).status_code == 404
    other, other_mayor, _seated, _extras = make_table(players=1, minions=0)
    wrong = reverse("play_combat_death_roll", args=[other.pk, combat.pk])
    response = _client(other_mayor).post(wrong, {"character": hero.pk, "request_key": "k"}, **HX)
    assert response.status_code == 404
    assert not _death_rolls(session)


BAD_UIDS = ["1:ZZ", "0:7H", "99999999999999999999:7H", "1:JK3", "abc", "1:7h", "-1:7H", "1:JK", "9:7H",
            "1:1H"]
BAD_FILTERS = [{"who": "99999999999999999999999"}, {"check": "99999999999999999999999"}, {"card": ":"},
               {"card": "1:"}, {"card": "%"}, {"card": "♥"}, {"card": "JK1"}, {"card": "0:7H"},
               {"card": "99999999999999999999999:7H"}, {"page": "-1"}, {"page": "x"}, {"round": "1-1"},
               {"kind": "x"}, {"card": "7H" * 30}, {"card": "\x00"}, {"who": "-3"}, {"check": "1e3"}]


def test_bad_history_input_is_a_clear_answer_never_a_server_error():
    """Bad input on every history URL: a card that is not there is a 404, a bad filter value a 200
    with the filter dropped (and a message on the page), never a 500."""
    session, _mayor, [(p1, _hero)], _ = make_table(players=1, minions=1)
    client = _client(p1)
    client.raise_request_exception = False
    for uid in BAD_UIDS:
        assert client.get(reverse("play_history_card", args=[session.pk, uid])).status_code == 404, uid
    for name in ("play_history", "play_history_csv", "play_history_json", "play_history_charts"):
        for params in BAD_FILTERS:
            response = client.get(reverse(name, args=[session.pk]), params)
            assert response.status_code == 200, (name, params)
            if name == "play_history_json":
                json.loads(response.content)
    page = client.get(reverse("play_history", args=[session.pk]), {"card": "1:"}).content.decode()
    assert re.search(r'data-testid="filter-errors"', page)


def test_fr_cmb_1_bad_declarations_from_the_page_get_a_message_and_change_nothing():
    """Bad input on the declare form (FR-CMB-1, -2, -6, -9, -11, FR-CHK-5): oneself as a target, an
    unknown band, cover or target, a huge id, medical attention without a wounded patient: a 200
    with the error in the combat region, never a 500, and no declaration recorded."""
    session, mayor, [(p1, hero), (_p2, _doc)], (m1, m2) = make_table(players=2, minions=2)
    combat = combat_start(session=session, by=mayor, fighters=[
        Fighter(hero, "posse"), Fighter(_doc, "posse"), Fighter(m1, "gang"), Fighter(m2, "gang")])
    for minion in (m1, m2):
        combat_declare(combat=combat, by=mayor, character=minion, technique="move")
    client = _client(p1)
    client.raise_request_exception = False
    url = reverse("play_combat_declare", args=[session.pk, combat.pk, hero.pk])
    for data in ({"technique": "pelea", "targets": [hero.pk]},
                 {"technique": "pelea", "targets": [m1.pk], f"band_{m1.pk}": "lejisimo"},
                 {"technique": "pelea", "targets": ["abc"]},
                 {"technique": "pelea", "target": "99999999999999999999999"},
                 {"technique": "medical", "patient": "99999999999999999999999"},
                 {"technique": "medical", "patient": m1.pk},  # unhurt
                 {"technique": "move", "cover": "zzz"},
                 {"technique": "pelea", "targets": [m1.pk], "move_band": "corto"},  # acting: adyacente only
                 {"technique": "nada"}):
        response = client.post(url, data, **HX)
        assert response.status_code == 200, data
        assert 'data-testid="combat-error"' in response.content.decode(), data
        combat.refresh_from_db()
        assert f"k{hero.pk}" not in combat.state["declarations"], data


def test_fr_hlt_3_the_fights_death_roll_of_a_living_fighter_is_refused_and_draws_nothing():
    session, mayor, [(_p1, hero)], (m1,) = make_table(players=1, minions=1)
    combat = _duel_of_two(session, mayor, hero, m1)
    set_tracks(hero, health=-3)  # Incapacitado, not Muerto
    url = reverse("play_combat_death_roll", args=[session.pk, combat.pk])
    text = _client(mayor).post(url, {"character": hero.pk, "request_key": "k"}, **HX).content.decode()
    assert "Only a dead character draws for survival" in text
    assert not _death_rolls(session)
    assert Character.objects.get(pk=hero.pk).sheet["tracks"]["health"] == -3
