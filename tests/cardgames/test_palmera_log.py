"""En la palmera's log of moves says how each fight ended (PA-4..PA-8) and a round's scores (PA-6,
PA-9), naming only the cards its reader may see: the engine's ``apply_logged`` records what a move
did, ``events_view`` redacts it per reader, the presenter words it."""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from cardgames import presenters, selectors
from cardgames.engines import palmera as pa
from cardgames.presenters.words import card_text
from tests.cardgames.test_palmera import C, D, e, make_state

NAMES = {D: "clementine", C: "Bot fuerte 2"}
READERS = (D, C, None)


def seat_name(seat: int) -> str:
    return NAMES[seat]


def _line(state: dict, action: dict, reader: int | None) -> str:
    seat = state["turn"]
    _after, events = pa.apply_logged(state, seat, action)
    with translation.override("en"):
        return presenters.move_text("palmera", seat_name, seat, action, reader, pa.events_view(events, reader))


def test_pa_4_a_bot_attack_lost_to_a_face_down_queen_says_so_to_every_reader():
    """The bot's 5♣ on perch 10 meets clementine's face-down Q♦: the line names both cards (both
    are turned up in the fight), who won and that the 5♣ left the game."""
    state = make_state(turn=C, hand="5C", board={10: (D, [e("QD")])})
    for reader in READERS:
        line = _line(state, {"type": "place", "square": 10}, reader)
        assert line.startswith("Bot fuerte 2 puts a bird on perch 10."), line
        assert "clementine’s Q♦ beats Bot fuerte 2’s 5♣: the 5♣ leaves the game." in line, line


def test_pa_4_the_players_own_lost_attack_and_a_won_attack_are_told():
    lost = make_state(turn=D, hand="3D", board={6: (C, [e("9C")])})
    line = _line(lost, {"type": "place", "square": 6}, D)
    assert "Bot fuerte 2’s 9♣ beats clementine’s 3♦: the 3♦ leaves the game." in line, line
    won = make_state(turn=D, hand="JD", board={6: (C, [e("9C")])})
    line = _line(won, {"type": "place", "square": 6}, C)
    assert "clementine’s J♦ beats Bot fuerte 2’s 9♣: the 9♣ leaves the game." in line, line
    assert "clementine now holds perch 6." in line, line


def test_pa_5_a_tie_says_who_won_it_and_why():
    free = make_state(turn=D, hand="7D", board={5: (C, [e("7C")])})
    assert "and wins as the attacker, as nobody holds perch 1" in _line(free, {"type": "place", "square": 5}, None)
    held = make_state(turn=D, hand="7D", board={5: (C, [e("7C")]), 1: (C, [e("2C")])})
    line = _line(held, {"type": "place", "square": 5}, None)
    assert "Bot fuerte 2’s 7♣ ties with clementine’s 7♦ and wins, as Bot fuerte 2 holds perch 1" in line, line


def test_pa_6_a_king_that_empties_the_perch_is_told():
    state = make_state(turn=C, hand="KC", board={10: (D, [e("4D")])})
    line = _line(state, {"type": "place", "square": 10}, D)
    assert "Bot fuerte 2’s K♣ meets clementine’s 4♦: a King empties the perch, and both leave the game." in line
    defended = make_state(turn=D, hand="QD", board={9: (C, [e("KC")])})
    assert "a King empties the perch" in _line(defended, {"type": "place", "square": 9}, None)


def test_pa_8_an_attacking_king_on_two_defenders_names_them_only_to_who_may_see_them():
    """The two defenders leave unseen: their owner reads their cards, the attacker only the one it
    had looked at (PA-7), a spectator neither."""
    state = make_state(turn=C, hand="KC", board={8: (D, [e("4D"), e("9D", peeked=True)])})
    action = {"type": "place", "square": 8, "first": 0}
    owner, attacker, spectator = (_line(state, action, reader) for reader in READERS)
    assert "K♣ is a King and empties perch 8" in owner and "4♦" in owner and "9♦" in owner, owner
    assert "9♦" in attacker and "4♦" not in attacker and "a face-down bird" in attacker, attacker
    assert "two face-down birds" in spectator and "4♦" not in spectator and "9♦" not in spectator, spectator


def test_pa_8_a_defending_king_revealed_first_and_the_second_defender_stays_unnamed():
    state = make_state(turn=C, hand="3C", board={8: (D, [e("KD"), e("5D")])})
    action = {"type": "place", "square": 8, "first": 0}
    owner, attacker, spectator = (_line(state, action, reader) for reader in READERS)
    assert "a King empties the perch" in attacker and "K♦" in attacker
    assert "clementine’s other bird there also leaves the game, unrevealed." in attacker, attacker
    assert "5♦" not in attacker and "5♦" not in spectator
    assert "clementine’s other bird there, the 5♦, also leaves the game, unrevealed." in owner, owner


def test_pa_6_pa_9_the_last_move_of_a_round_says_the_kings_left_and_the_scores():
    state = make_state(turn=D, hand="2D", board={10: (C, [e("KC")]), 4: (D, [e("9D")])}, pile_sizes=(0, 0))
    line = _line(state, {"type": "place", "square": 5}, D)
    assert "a King leaves the board and empties its perch: K♣." in line, line
    assert "Round 1 is over: clementine scores 9, Bot fuerte 2 0." in line, line


def test_the_fight_lines_name_no_card_hidden_from_their_reader():
    """Random games: a line names no card its reader may not see at that moment (a face-down
    bird removed unseen, the bird placed without a fight), and it carries no code or key."""
    fights = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = pa.new_game(2, seed=seed)
        while pa.to_move(state):
            seat = pa.to_move(state)[0]
            action = rng.choice(pa.legal_actions(state, seat))
            hand = state["hands"][seat]
            after, events = pa.apply_logged(state, seat, action)
            fought = any(ev["type"] == "fight" for ev in events)
            fights += fought
            for reader in READERS:
                hidden = set() if fought or reader == seat or hand is None else {hand}
                for ev in events:
                    if ev["type"] == "fight":
                        owner = 1 - ev["seat"]
                        hidden |= {x["card"] for x in [d["defender"] for d in ev["duels"]] + ev["unseen"]
                                   if reader != owner and not x["up"] and not (x["peeked"] and reader == ev["seat"])}
                with translation.override("en"):
                    line = presenters.move_text("palmera", seat_name, seat, action, reader,
                                                pa.events_view(events, reader))
                for code in hidden:
                    assert not re.search(r"(?<![0-9])" + re.escape(card_text(code)), line), (reader, line)
                assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b|None|[{}\[\]]", line), line
            state = after
    assert fights > 20


@pytest.mark.django_db
def test_the_table_pages_log_tells_how_the_fights_ended():
    """selectors.log_lines replays the game for the fights: the page's log says who beat whom."""
    from cardgames import services
    from tests.factories import make_user

    ana, bea = make_user(), make_user()
    table, token = services.table_create(game="palmera", by=ana, seats=2, seed=3)
    services.table_join(table=table, by=bea, token=token)
    table.refresh_from_db()
    people = {0: ana, 1: bea} if table.seats.get(index=0).user_id == ana.pk else {0: bea, 1: ana}
    rng = random.Random(1)
    for _ in range(20):
        state = pa.from_json(table.state)
        seat = pa.to_move(state)[0]
        services.table_move(table=table.pk, action=rng.choice(pa.legal_actions(state, seat)), ply=table.ply,
                            by=people[seat])
        table.refresh_from_db()
    for viewer in (selectors.Viewer(seat=0, seated=True), selectors.Viewer(seat=None, seated=False)):
        with translation.override("en"):
            lines = selectors.log_lines(table, viewer, selectors._namer(selectors.seat_names(table)))
        assert len(lines) == 20
        assert any(" beats " in line or "a King empties" in line or " ties with " in line for line in lines), lines


def test_pa_10_in_round_two_the_points_carried_over_say_they_are_round_ones():
    """"52 de rondas terminadas" read badly: the total under the tree in round 2 is the points
    scored in round 1, said so; at the end, the points in total."""
    state = make_state(turn=D, hand="2D", round_=2, scores=[[52, 3]])
    with translation.override("en"):
        board = presenters.present("palmera", pa.view(state, D), D, seat_name)
    texts = {board["left"]["total_text"], board["right"]["total_text"]}
    assert texts == {"52 points scored in round 1", "3 points scored in round 1"}, texts
