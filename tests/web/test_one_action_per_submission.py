"""Issue #10, "nothing irreversible by accident": every POST form at the table is one action per
submission. Each test renders the page a person really sees, takes the form from it, and posts
exactly the same form data twice: once as htmx (a double tap that beat the button's in-flight
disabling) and once without ``HX-Request`` (a browser without JavaScript, double-clicked). The table
changes exactly once (the log, the card zones, the turn, the statuses, the sheets) and the second
answer is the success's: no error for the person, in any language."""

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from frontera.characters.models import Character
from frontera.play.models import Check, CombatRound, Exchange, Gamble, GameSession, Participant, SessionEvent
from frontera.play.services.checks import check_draw, check_request
from frontera.play.services.combat import Fighter, combat_choose, combat_declare, combat_draw, combat_start
from frontera.play.services.duels import drinking_duel_start
from frontera.play.services.exchanges import exchange_start
from frontera.play.services.gambling import banca_begin, banca_deal
from frontera.play.services.table_tools import drink
from frontera.play.services.treasure import treasure_share_start
from tests.factories import assert_conserved, engine, make_table, stack_pile

pytestmark = pytest.mark.django_db

HTMX = pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-js"])
# no jokers on top of the pile: a joker asks for its suit, which these forms leave at "—"
LOW_CARDS = ["1:2S", "1:3S", "1:4S", "1:5S", "1:6S", "1:7S", "1:8S", "1:9S", "1:2H", "1:3H", "1:4H", "1:5H"]


@dataclass
class Form:
    action: str
    hx_target: str = ""
    data: dict[str, list[str]] = field(default_factory=dict)
    options: dict[str, list[str]] = field(default_factory=dict)  # unchecked boxes and radios
    buttons: list[tuple[str, str]] = field(default_factory=list)  # named submit buttons


class _Forms(HTMLParser):
    """The forms of a page as a browser would submit them: hidden fields, checked boxes, each
    select's selected (or first) option; named submit buttons and unchecked options apart."""

    def __init__(self):
        super().__init__()
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._first: str | None = None
        self._picked = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = Form(a.get("action", ""), a.get("hx-target", "").lstrip("#"))
            self.forms.append(self._form)
        form = self._form
        if form is None:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                form.options.setdefault(a["name"], []).append(a.get("value", "on"))
            else:
                form.data.setdefault(a["name"], []).append(a.get("value", "on" if kind == "checkbox" else ""))
        elif tag == "button" and a.get("name"):
            form.buttons.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._first, self._picked = a.get("name"), None, False
        elif tag == "option" and self._select:
            value = a.get("value", "")
            if self._first is None:
                self._first = value
            if "selected" in a and not self._picked:
                form.data[self._select] = [value]
                self._picked = True

    def handle_endtag(self, tag):
        if tag == "select" and self._select and self._form is not None:
            if not self._picked and self._first is not None:
                self._form.data[self._select] = [self._first]
            self._select = None
        elif tag == "form":
            self._form = None


def form_on(client, page: str, action: str, **params) -> Form:
    """The form posting to ``action`` on the page (or fragment) the logged-in person sees."""
    parser = _Forms()
    parser.feed(client.get(page, params).content.decode())
    found = [f for f in parser.forms if f.action == action]
    assert found, f"no form posting to {action} on {page}"
    return found[0]


def keyed_form_on(client, page: str, action: str, **params) -> Form:
    """A form that carries its own request key, fresh at every rendering: the next click after the
    page has shown the result is a new action."""
    form, again = form_on(client, page, action, **params), form_on(client, page, action, **params)
    key = form.data.get("request_key", [""])[0]
    assert key and key != again.data["request_key"][0]
    return form


def snapshot(session: GameSession) -> dict:
    """Everything one action at the table may change."""
    fresh = GameSession.objects.get(pk=session.pk)
    return {
        "events": SessionEvent.objects.filter(session=session).count(),
        "sessions": GameSession.objects.filter(campaign=session.campaign_id).count(),
        "state": fresh.state, "phase": fresh.phase, "status": fresh.status, "tallies": fresh.tallies,
        "checks": list(Check.objects.filter(session=session).order_by("pk").values_list("pk", "status", "withdrawn")),
        "participants": list(Participant.objects.filter(prueba__session=session).order_by("pk")
                             .values_list("pk", "drawn", "played", "outcome")),
        "fights": list(CombatRound.objects.filter(session=session).order_by("pk")
                       .values_list("pk", "status", "turn", "state")),
        "exchanges": list(Exchange.objects.filter(session=session).order_by("pk")
                          .values_list("pk", "status", "step", "chosen")),
        "gambles": list(Gamble.objects.filter(session=session).order_by("pk").values_list("pk", "state", "prueba")),
        "sheets": list(Character.objects.filter(campaign=session.campaign_id).order_by("pk").values_list("pk", "sheet")),
    }


def post_twice(client, session: GameSession, form: Form, data: dict, *, htmx: bool) -> None:
    """Post the same form data twice; the table changes once, and the repeat answers like the
    success: no error in the region htmx swaps in, no error message on the page a browser lands on."""
    before = snapshot(session)
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": form.hx_target} if htmx else {}
    answers = [client.post(form.action, data, follow=True, **headers) for _ in range(2)]
    once = snapshot(session)
    assert once != before, "the first submission did its action"
    assert snapshot(session) == once
    for answer in answers:
        assert answer.status_code == 200
        page = answer.content.decode()
        assert 'role="alert"' not in page and 'class="message error"' not in page, page[:3000]
    assert answers[1].redirect_chain == answers[0].redirect_chain  # the same answer, wherever it leads
    if htmx:
        assert answers[1].headers.get("HX-Trigger") == answers[0].headers.get("HX-Trigger")
    else:
        assert answers[0].redirect_chain, "a browser without JavaScript goes back to the page"
    if once["state"]:
        assert_conserved(session)


def _page(session) -> str:
    return session.get_absolute_url()


def _trait_check(session, mayor, hero):
    stack_pile(session, LOW_CARDS)
    prueba = check_request(session=session, by=mayor, characters=[hero], trait="manos", skill="",
                           difficulty=None, request_key="")
    return prueba.participants.get()


@HTMX
def test_fr_chk_1_a_double_tapped_draw_draws_once(client, htmx):
    session, mayor, [(player, hero), _], _ = make_table()
    participant = _trait_check(session, mayor, hero)
    client.force_login(player)
    form = form_on(client, _page(session), reverse("play_draw", args=[session.pk, participant.pk]), fragment="checks")
    post_twice(client, session, form, form.data, htmx=htmx)
    participant.refresh_from_db()
    assert len(participant.drawn) == participant.cards


@HTMX
def test_fr_chk_2_a_double_tapped_card_is_played_once(client, htmx):
    session, mayor, [(player, hero), _], _ = make_table()
    participant = check_draw(participant=_trait_check(session, mayor, hero), by=player)
    client.force_login(player)
    form = form_on(client, _page(session), reverse("play_choose", args=[session.pk, participant.pk]),
                   fragment="checks")
    name, card = form.buttons[0]
    post_twice(client, session, form, {**form.data, name: card}, htmx=htmx)
    participant.refresh_from_db()
    assert participant.played == card


def _fight(mode="normal"):
    session, mayor, [(player, hero), _], [minion] = make_table(minions=1, mode=mode)
    stack_pile(session, LOW_CARDS)
    combat = combat_start(session=session, by=mayor, fighters=[Fighter(hero, "a"), Fighter(minion, "b")])
    return session, mayor, player, hero, minion, combat


def _combat_url(name, session, combat, character=None, step=None):
    args = [session.pk, combat.pk] + ([character.pk] if character else []) + ([step] if step else [])
    return reverse(name, args=args)


@HTMX
def test_fr_cmb_1_a_double_submitted_declaration_is_one_declaration(client, htmx):
    session, mayor, player, hero, minion, combat = _fight()
    client.force_login(mayor)
    url = _combat_url("play_combat_declare", session, combat, minion)
    form = form_on(client, url, url)  # the Mayor's declaration opens on its own URL (his dialog, or a page)
    post_twice(client, session, form, form.data, htmx=htmx)
    combat.refresh_from_db()
    assert f"k{minion.pk}" in combat.state["declarations"]


@HTMX
def test_fr_cmb_1_a_double_tapped_fight_draw_draws_once(client, htmx):
    session, mayor, player, hero, minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero, band="adyacente")
    client.force_login(mayor)
    form = form_on(client, _page(session), _combat_url("play_combat_draw", session, combat, minion), fragment="combat")
    post_twice(client, session, form, form.data, htmx=htmx)
    combat.refresh_from_db()
    assert len(combat.state["hands"][f"k{minion.pk}"]) == combat.state["required"][f"k{minion.pk}"]


@HTMX
def test_fr_cmb_6_a_double_tapped_lock_in_locks_in_once(client, htmx):
    session, mayor, player, hero, minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero, band="adyacente")
    combat_draw(combat=combat, by=mayor, character=minion)
    client.force_login(mayor)
    form = form_on(client, _page(session), _combat_url("play_combat_choose", session, combat, minion),
                   fragment="combat")
    post_twice(client, session, form, {**form.data, "cards": form.options["cards"][:1]}, htmx=htmx)
    combat.refresh_from_db()
    assert f"k{minion.pk}" in combat.state["plays"]


def _revealed_fight():
    session, mayor, player, hero, minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero, band="adyacente")
    combat_draw(combat=combat, by=mayor, character=minion)
    combat_declare(combat=combat, by=player, character=hero, technique="pelea", target=minion, band="adyacente")
    combat_draw(combat=combat, by=player, character=hero)
    combat.refresh_from_db()
    combat_choose(combat=combat, by=mayor, character=minion, cards=combat.state["hands"][f"k{minion.pk}"][:1])
    combat_choose(combat=combat, by=player, character=hero, cards=combat.state["hands"][f"k{hero.pk}"][:1])
    combat.refresh_from_db()
    assert combat.state["revealed"]
    return session, mayor, player, hero, minion, combat


@HTMX
def test_fr_cmb_1_a_double_clicked_reveal_reveals_once(client, htmx):
    """Both fighters only move (no cards): the Mayor's Reveal ends the turn."""
    session, mayor, player, hero, minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="move", move_band="adyacente")
    combat_declare(combat=combat, by=player, character=hero, technique="move", move_band="adyacente")
    client.force_login(mayor)
    form = form_on(client, _page(session), _combat_url("play_combat_step", session, combat, step="revelar"),
                   fragment="combat")
    post_twice(client, session, form, form.data, htmx=htmx)
    combat.refresh_from_db()
    assert combat.state["revealed"]


@HTMX
def test_fr_cmb_3_a_double_clicked_next_turn_moves_on_one_turn(client, htmx):
    session, mayor, player, hero, minion, combat = _revealed_fight()
    client.force_login(mayor)
    form = keyed_form_on(client, _page(session), _combat_url("play_combat_step", session, combat, step="siguiente"),
                   fragment="combat")
    post_twice(client, session, form, form.data, htmx=htmx)
    combat.refresh_from_db()
    assert combat.turn == 2


@HTMX
def test_fr_cmb_1_a_double_clicked_end_of_the_fight_ends_it_once(client, htmx):
    session, mayor, player, hero, minion, combat = _revealed_fight()
    client.force_login(mayor)
    form = keyed_form_on(client, _page(session), _combat_url("play_combat_step", session, combat, step="terminar"),
                   fragment="combat")
    post_twice(client, session, form, form.data, htmx=htmx)
    combat.refresh_from_db()
    assert combat.status == CombatRound.Status.ENDED


@HTMX
def test_fr_mode_4_a_double_clicked_withdrawal_of_a_fight_withdraws_it_once(client, htmx):
    session, mayor, player, hero, minion, combat = _fight()
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=hero, band="adyacente")
    combat_draw(combat=combat, by=mayor, character=minion)
    client.force_login(mayor)
    form = keyed_form_on(client, _page(session), _combat_url("play_combat_step", session, combat, step="retirar"),
                   fragment="combat")
    post_twice(client, session, form, form.data, htmx=htmx)
    combat.refresh_from_db()
    assert combat.status == CombatRound.Status.WITHDRAWN


@HTMX
def test_fr_exch_2_a_double_submitted_exchange_choice_is_one_choice(client, htmx):
    session, mayor, [(player, hero), (_p2, rival)], _ = make_table()
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    client.force_login(player)
    form = form_on(client, _page(session), reverse("play_exchange_choose", args=[session.pk, exchange.pk]),
                   fragment="checks")
    post_twice(client, session, form, {**form.data, "picks": form.options["picks"][:1]}, htmx=htmx)
    exchange.refresh_from_db()
    assert exchange.step != "take"


@HTMX
def test_a_double_clicked_withdrawal_of_an_exchange_withdraws_it_once(client, htmx):
    session, mayor, [(_p1, hero), (_p2, rival)], _ = make_table()
    exchange = exchange_start(session=session, by=mayor, kind="bet", first=hero, second=rival)
    client.force_login(mayor)
    form = form_on(client, _page(session), reverse("play_exchange_cancel", args=[session.pk, exchange.pk]),
                   fragment="checks")
    post_twice(client, session, form, form.data, htmx=htmx)
    exchange.refresh_from_db()
    assert exchange.status == Exchange.Status.CANCELLED


@HTMX
def test_fr_exch_6_a_double_submitted_treasure_vote_is_one_vote(client, htmx):
    session, mayor, [(player, hero), (_p2, rival)], _ = make_table()
    state = engine(session)  # a Tesoro seeded in phase 1 (FR-MODE-3)
    state.treasure += state.pile[:3]
    del state.pile[:3]
    GameSession.objects.filter(pk=session.pk).update(state=state.to_json())
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival], count=1)
    client.force_login(player)
    form = form_on(client, _page(session), reverse("play_treasure_share", args=[session.pk, sharing.pk]),
                   fragment="checks")
    # the keeper is chosen, as a person does: the menu names nobody beforehand
    post_twice(client, session, form, {**form.data, "keeper": [str(hero.pk)]}, htmx=htmx)
    sharing.refresh_from_db()
    assert sharing.chosen["sharing"]["votes"]


@HTMX
def test_fr_exch_6_a_double_submitted_treasure_swap_opens_one_swap(client, htmx):
    session, mayor, [(player, hero), (_p2, rival)], _ = make_table()
    sharing = treasure_share_start(session=session, by=mayor, sharers=[hero, rival])  # an empty Tesoro: swaps
    client.force_login(player)
    form = form_on(client, _page(session), reverse("play_treasure_share", args=[session.pk, sharing.pk]),
                   fragment="checks")
    post_twice(client, session, form, {**form.data, "partner": [str(rival.pk)]}, htmx=htmx)
    assert Exchange.objects.filter(session=session, kind=Exchange.Kind.TREASURE_SWAP).count() == 1


@HTMX
def test_fr_gmb_3_a_double_tapped_banca_deal_turns_one_round(client, htmx):
    session, mayor, [(_p1, hero), _], _ = make_table()
    gamble = banca_begin(session=session, by=mayor, character=hero)
    client.force_login(mayor)
    form = form_on(client, _page(session), reverse("play_gamble_step", args=[session.pk, gamble.pk, "repartir"]),
                   fragment="checks")
    post_twice(client, session, form, form.data, htmx=htmx)
    gamble.refresh_from_db()
    assert len(gamble.state["rounds"]) == 1


@HTMX
def test_fr_gmb_4_a_double_tapped_attempt_to_leave_the_banca_is_one_check(client, htmx):
    session, mayor, [(player, hero), _], _ = make_table()
    gamble = banca_begin(session=session, by=mayor, character=hero)
    for rounds in range(6):  # until the player may try to leave (FR-GMB-4)
        gamble = banca_deal(gamble=gamble, by=mayor, rounds_seen=rounds)
        if gamble.state["status"] != "playing" or gamble.state["may_stop"]:
            break
    assert gamble.state["status"] == "playing" and gamble.state["may_stop"]
    client.force_login(player)
    form = form_on(client, _page(session), reverse("play_gamble_step", args=[session.pk, gamble.pk, "plantarse"]),
                   fragment="checks")
    post_twice(client, session, form, form.data, htmx=htmx)
    assert Check.objects.filter(session=session).count() == 1


@HTMX
def test_fr_sob_2_a_double_tapped_drink_in_a_drinking_duel_is_one_drink(client, htmx):
    session, mayor, [(_p1, hero), (_p2, rival)], _ = make_table()
    duel = drinking_duel_start(session=session, by=mayor, characters=[hero, rival])
    client.force_login(mayor)
    form = form_on(client, _page(session), reverse("play_gamble_step", args=[session.pk, duel.pk, "beber"]),
                   fragment="checks")
    post_twice(client, session, form, form.data, htmx=htmx)
    duel.refresh_from_db()
    assert duel.state["drank"] == form.data["character"]  # that drinker, once


@HTMX
def test_fr_mode_4_a_double_clicked_withdrawal_of_a_check_withdraws_it_once(client, htmx):
    session, mayor, [(player, hero), _], _ = make_table()
    participant = check_draw(participant=_trait_check(session, mayor, hero), by=player)
    client.force_login(mayor)
    form = form_on(client, _page(session), reverse("play_check_withdraw", args=[session.pk, participant.prueba_id]),
                   fragment="checks")
    post_twice(client, session, form, form.data, htmx=htmx)
    assert Check.objects.get(pk=participant.prueba_id).withdrawn


@HTMX
def test_fr_mode_5_a_double_clicked_end_of_phase_1_switches_once(client, htmx):
    session, mayor, _seated, _ = make_table()
    client.force_login(mayor)
    url = reverse("play_phase_two", args=[session.pk])
    form = keyed_form_on(client, url, url)
    post_twice(client, session, form, form.data, htmx=htmx)
    assert GameSession.objects.get(pk=session.pk).phase == 2


@HTMX
def test_a_double_clicked_end_of_the_session_ends_it_once(client, htmx):
    session, mayor, _seated, _ = make_table()
    client.force_login(mayor)
    url = reverse("play_session_end", args=[session.pk])
    form = form_on(client, url, url)
    post_twice(client, session, form, form.data, htmx=htmx)
    assert GameSession.objects.get(pk=session.pk).status == GameSession.Status.ENDED


@HTMX
def test_fr_sob_3_a_double_clicked_undo_takes_back_one_table_action(client, htmx):
    session, mayor, [(_p1, hero), (_p2, rival)], _ = make_table()
    drink(session=session, by=mayor, character=hero)
    drink(session=session, by=mayor, character=rival)
    client.force_login(mayor)
    form = keyed_form_on(client, _page(session), reverse("play_table_undo", args=[session.pk]), fragment="board")
    post_twice(client, session, form, form.data, htmx=htmx)
    alcohol = GameSession.objects.get(pk=session.pk).tallies.get("alcohol", {})
    assert alcohol.get(str(hero.pk)) == 1 and not alcohol.get(str(rival.pk))  # only the last drink went


@HTMX
def test_fr_mode_1_a_double_clicked_start_starts_one_session(client, htmx):
    session, mayor, _seated, _ = make_table()
    client.force_login(mayor)
    url = reverse("play_sessions", args=[session.campaign_id])
    form = keyed_form_on(client, url, url)
    post_twice(client, session, form, form.data, htmx=htmx)
    assert GameSession.objects.filter(campaign=session.campaign_id).count() == 2
