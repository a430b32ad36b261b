"""The presenters word every position and action of the four bonus games for a player.

Over seeded playouts of each engine (random legal moves, so every kind of action turns up), every
legal action of every sampled position gets a label without internal keys, suit letters, rule IDs
or Python reprs; the board template renders in Spanish and in English; and a seat's rendered board
holds no card that only another seat's view has.
"""

from __future__ import annotations

import random
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import strip_tags

from cardgames import presenters
from cardgames.engines import get
from cardgames.presenters.words import card_spoken, card_text, is_card_code

NAMES = ("Ana", "Bruno", "Carmen", "Diego")


def seat_name(seat: int) -> str:
    return NAMES[seat]


# What no label may contain: a snake_case word, a card code or a lone suit letter, a rule ID,
# a Python repr (braces, straight quotes), a "None"/"True".
BAD = [
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "snake_case word"),
    (re.compile(r"\b(10|[2-9AJQK])[SHDC]\b"), "card code"),
    (re.compile(r"(^|\s)[SHDC](\s|$|[,.:;)])"), "lone suit letter"),
    (re.compile(r"\b[A-Z]{2}-[A-Z]?\d+\b"), "rule ID"),
    (re.compile(r"[{}'\[\]]"), "repr character"),
    (re.compile(r"\b(None|True|False)\b"), "Python literal"),
    (re.compile(r"%\(|\)s\b"), "unfilled placeholder"),
]

# seats, seeds, ply cap, how often a position is sampled
PLAYOUTS = {
    "boom": (3, range(4), 300, 5),
    "palmera": (2, range(6), 200, 3),
    "pocobot": (2, range(3), 120, 6),
    "nismatch": (2, range(3), 220, 5),
}


def _samples(game: str):
    """(state, seat-to-move) pairs from seeded random playouts, the final positions included."""
    engine = get(game)
    seats, seeds, cap, every = PLAYOUTS[game]
    out = []
    for seed in seeds:
        n = 2 if game != "boom" else 2 + seed % 3
        state = engine.new_game(n if game == "boom" else seats, seed)
        rng = random.Random(seed)
        ply = 0
        while engine.to_move(state) and ply < cap:
            seat = engine.to_move(state)[0]
            if ply % every == 0:
                out.append((state, seat))
            actions = engine.legal_actions(state, seat)
            state = engine.apply(state, seat, rng.choice(actions))
            ply += 1
        out.append((state, None))
    return out


_CACHE: dict[str, list] = {}


def samples(game: str):
    if game not in _CACHE:
        _CACHE[game] = _samples(game)
    return _CACHE[game]


def _problems(text: str) -> list[str]:
    return [f"{what}: {text!r}" for pattern, what in BAD if pattern.search(text)]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("game", presenters.GAMES)
def test_every_legal_action_has_a_clean_label(game, lang):
    engine = get(game)
    seen_types = set()
    problems = []
    with translation.override(lang):
        for state, seat in samples(game):
            if seat is None:
                continue
            view = engine.view(state, seat)
            actions = engine.legal_actions(state, seat)
            groups = presenters.action_groups(game, actions, view, seat_name)
            index = {id(a): i for i, a in enumerate(actions)}
            positions = [[index[id(a)] for a, _ in g["actions"]] for g in groups]
            expected = list(range(len(actions)))
            if game == "nismatch":  # another copy of the same card makes the same move: one button
                from cardgames.presenters.nismatch import copy_blind

                firsts = {}
                for i, a in enumerate(actions):
                    firsts.setdefault(copy_blind(a), i)
                expected = sorted(firsts.values())
            assert sorted(i for p in positions for i in p) == expected, \
                "every action (but a copy's twin) appears exactly once in the groups"
            assert all(p == sorted(p) for p in positions), "the engine's order inside a group"
            for group in groups:
                problems += _problems(group["title"])
                for action, label in group["actions"]:
                    seen_types.add(action["type"])
                    assert label.strip(), action
                    problems += _problems(label)
                    text = presenters.move_text(game, seat_name, seat, action, seat)
                    problems += _problems(text)
                    problems += _problems(presenters.move_text(game, seat_name, seat, action, None))
    assert not problems, problems[:10]
    assert len(seen_types) >= (2 if game == "palmera" else 3), seen_types


def test_labels_speak_the_games_words():
    """A few labels read exactly as a player would say the move."""
    with translation.override("es"):
        view = get("boom").view(get("boom").new_game(2, 1), 0)
        view["boards"][1] = [{"card": "7H", "on": [], "life": 7}]
        view["hand"] = ["7S"]
        label = presenters.action_label("boom", {"type": "attack", "card": "7S", "target": 1, "storage": 0},
                                        view, seat_name)
        assert label == "Ataca el almacenador 7♥ (vida 7) de Bruno con 7♠: lo destruye y ganas una vida extra"
    with translation.override("en"):
        label = presenters.action_label("boom", {"type": "attack", "card": "7S", "target": 1, "storage": 0},
                                        view, seat_name)
        assert label == "Attack Bruno’s 7♥ (life 7) with the 7♠: destroys it and wins you an extra life"


def _codes(data, game: str) -> set[str]:
    """Every card code a view holds."""
    found: set[str] = set()

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            if game == "nismatch":
                if re.fullmatch(r"[a-z_]+\.\d+\.\d+", value):
                    found.add(value.split(".")[0])
            elif is_card_code(value):
                found.add(value)

    walk(data)
    return found


def _forms(code: str, game: str) -> list[re.Pattern]:
    """How a card may show up in rendered text."""
    if game == "nismatch":
        from cardgames.engines.nismatch.cards import card_def

        return [re.compile(re.escape(card_def(code)["name"]))]
    return [re.compile(r"(?<![0-9])" + re.escape(card_text(code))),
            re.compile(r"(?<![0-9])" + re.escape(card_spoken(code)), re.IGNORECASE)]


def _render(game: str, view: dict, seat) -> str:
    board = presenters.present(game, view, seat, seat_name)
    html = render_to_string(board["template"], {"board": board, "seat": seat})
    return html


@pytest.mark.parametrize("game", presenters.GAMES)
def test_a_seats_board_never_shows_what_only_another_seat_sees(game):
    engine = get(game)
    checked = detected = 0
    for i, (state, _mover) in enumerate(samples(game)):
        n = len(engine.view(state, None).get("hand_counts", [0, 0])) if game != "nismatch" else 2
        views = {s: engine.view(state, s) for s in [*range(n), None]}
        codes = {s: _codes(v, game) for s, v in views.items()}
        with translation.override(("es", "en")[i % 2]):
            texts = {s: strip_tags(_render(game, v, s)) for s, v in views.items()}
        for viewer in views:
            secret = set().union(*(codes[o] for o in views if o != viewer)) - codes[viewer]
            if not secret:
                continue
            leaks = [c for c in secret for form in _forms(c, game) if form.search(texts[viewer])]
            assert not leaks, (game, viewer, leaks)
            checked += 1
            # the control: the same search over another seat's own board finds its secrets
            other = next(o for o in views if o is not None and o != viewer)
            mine_only = codes[other] - codes[viewer]
            if any(form.search(texts[other]) for c in mine_only for form in _forms(c, game)):
                detected += 1
    assert checked >= 5
    assert detected >= checked // 3, (checked, detected)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("game", presenters.GAMES)
def test_the_board_renders_for_every_sampled_position(game, lang):
    engine = get(game)
    with translation.override(lang):
        for state, seat in samples(game):
            for viewer in {seat, None}:
                html = _render(game, engine.view(state, viewer), viewer)
                text = strip_tags(html)
                assert "cg-board" in html
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), re.search(r"\b[a-z]+_[a-z_]+\b", text)
                assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", text), text
                assert "style=" not in html and " on" + "click" not in html


def test_spanish_board_is_in_spanish():
    engine = get("pocobot")
    state = engine.new_game(2, 3)
    with translation.override("es"):
        text = strip_tags(_render("pocobot", engine.view(state, 0), 0))
    assert "Proyectiles" in text and "Armadura" in text and "Tu mano" in text


def test_pb_15_pb_16_pb_17_the_dodge_buttons_tell_what_the_attack_takes():
    """PB-17's example: 12 dodged with 5♦ leaves 7; armour 2♣ 4♣ 7♣ loses 2♣ and 4♣, the hearts stay.
    Without the dodge, 12 goes through 2♣ and 4♣ (6 left), 7♣ holds. A bare panel collapses (PB-16)."""
    engine = get("pocobot")
    view = engine.view(engine.new_game(2, 1), 0)
    view["panels"][0].update({"C": ["2C", "4C", "7C"], "H": ["3H", "6H"]})
    view["pending"] = {"attacker": 1, "attack": 12, "kind": "fuel"}
    with translation.override("en"):
        dodge = presenters.action_label("pocobot", {"type": "dodge", "card": "5D"}, view, seat_name)
        take = presenters.action_label("pocobot", {"type": "dodge", "card": None}, view, seat_name)
        view["panels"][0].update({"C": [], "H": []})
        bare = presenters.action_label("pocobot", {"type": "dodge", "card": None}, view, seat_name)
    assert dodge == "Dodge with the 5♦: the attack drops to 7 (you lose 2♣ and 4♣)"
    assert take == "Take the attack without dodging (you lose 2♣ and 4♣)"
    assert bare == "Take the attack without dodging (your mecha collapses)"


# Actions whose cards are played face up for everyone to see at that moment, even if the same
# action then hides them (a PoCoBOT discard reshuffled into the pile, PB-7; a Boom attack card that
# destroys a storage and goes to the uncounted discard, BO-5): the log may name them.
FACE_UP = {"pocobot": {"modify", "burn", "crew_draw", "fuel_attack", "projectile", "pass", "dodge"},
           "boom": {"attack", "change"}}


@pytest.mark.parametrize("game", presenters.GAMES)
def test_the_log_of_moves_never_names_a_card_the_reader_cannot_see(game):
    """A move's line, read by another seat or a spectator, names no card that reader's view showed
    neither before nor after the move (a bird placed face down, a Boom discard, a face-down Torso),
    unless the move itself shows it face up (FACE_UP)."""
    engine = get(game)
    seats, seeds, cap, _every = PLAYOUTS[game]
    checked = 0
    for seed in list(seeds)[:2]:
        state = engine.new_game(seats, seed)
        rng = random.Random(seed)
        for _ply in range(cap):
            if not engine.to_move(state):
                break
            seat = engine.to_move(state)[0]
            action = rng.choice(engine.legal_actions(state, seat))
            after = engine.apply(state, seat, action)
            in_action = set() if action["type"] in FACE_UP.get(game, ()) else _codes(action, game)
            if game == "palmera":  # the bird placed is the one the mover drew, named by no action
                in_action |= _codes(engine.view(state, seat)["hand"], game)
            for reader in [s for s in range(seats) if s != seat] + [None]:
                hidden = in_action - _codes(engine.view(state, reader), game) - _codes(engine.view(after, reader), game)
                if not hidden:
                    continue
                with translation.override("en"):
                    text = presenters.move_text(game, seat_name, seat, action, reader)
                assert not [c for c in hidden for form in _forms(c, game) if form.search(text)], (game, action, text)
                checked += 1
            state = after
    if game != "pocobot":  # every PoCoBOT move is played face up
        assert checked > 0


@pytest.mark.parametrize("game", presenters.GAMES)
def test_an_engines_refusal_reaches_the_player_without_codes_or_keys(game):
    """Actions a page never offers (another seat's, a taken square, a card not held, forged keys)
    are refused by the engine; the message a player reads has words and suit symbols only."""
    from cardgames.engines import IllegalAction

    engine = get(game)
    refused = 0
    for state, seat in samples(game)[:40]:
        if seat is None:
            continue
        legal = engine.legal_actions(state, seat)
        tries = [{"type": "teleport"}, {"type": legal[0]["type"], "bogus_key": 1}, {"type": "pass", "cards": ["9S"]},
                 {"type": "attack", "card": "KD", "target": 0, "storage": 0}, {"type": "place", "square": 11},
                 {"type": "burn", "card": "7S"}, {"type": "modify", "ops": [{"op": "copilot", "card": "QD"}]},
                 {"type": "modify", "ops": [{"op": "place", "card": "2S"}, {"op": "place", "card": "3S"},
                                             {"op": "place", "card": "4S"}]},
                 *[a for s in range(2) if s != seat for a in engine.legal_actions(state, s)][:3]]
        for action in tries:
            for who in {seat, 1 - seat if seat in (0, 1) else 0}:
                try:
                    engine.apply(state, who, action)
                except IllegalAction as err:
                    for lang in ("es", "en"):
                        with translation.override(lang):
                            text = presenters.error_message(game, err)
                        # an apostrophe inside a word ("can't") is English, not a repr
                        assert text and not _problems(re.sub(r"(?<=\w)'(?=\w)", "", text)), (action, text)
                    refused += 1
    assert refused > 20


def test_a_buttons_accessible_name_says_the_cards_in_words():
    """Each grouped action comes with a spoken label: the same words, the cards said in full."""
    engine = get("boom")
    state = engine.new_game(2, 3)
    seat = engine.to_move(state)[0]
    with translation.override("es"):
        groups = presenters.action_groups("boom", engine.legal_actions(state, seat), engine.view(state, seat))
    spoken = [s for g in groups for s in g["spoken"]]
    assert len(spoken) == sum(len(g["actions"]) for g in groups)
    assert any(" de picas" in s or " de corazones" in s or " de diamantes" in s or " de tréboles" in s for s in spoken)
    assert not [s for s in spoken if re.search("[♠♥♦♣]", s)]


@pytest.mark.parametrize("game", presenters.GAMES)
def test_no_two_buttons_of_a_position_read_the_same(game):
    """A player tells every button apart by its label alone."""
    engine = get(game)
    with translation.override("es"):
        for state, seat in samples(game):
            if seat is None:
                continue
            view = engine.view(state, seat)
            groups = presenters.action_groups(game, engine.legal_actions(state, seat), view, seat_name)
            labels = [label for g in groups for _, label in g["actions"]]
            twins = {label for label in labels if labels.count(label) > 1}
            assert not twins, (game, twins)


def test_pb_7_the_board_shows_the_whole_discard_not_its_last_eight_by_suit():
    """The engine keeps the discard sorted by suit, so "the top of the discard" (its last 8) left
    out a card just fired and showed the highest-sorted ones as if latest: a walk on a phone."""
    engine = get("pocobot")
    view = engine.view(engine.new_game(2, 1), 0)
    view["discard"] = ["3C", "4C", "7C", "8C", "9C", "5D", "9D", "KD", "8S", "2H", "AH"]
    with translation.override("en"):
        board = presenters.present("pocobot", view, 0, seat_name)
    assert [c["text"] for c in board["discard"]] == [card_text(c) for c in view["discard"]]
    assert board["discard_text"] == "11 cards in the discard"


def test_pb_5_a_panel_says_how_far_its_mecha_is_from_mounted():
    """PB-5: a Pilot and 6 module cards, 3 of the Pilot's suit; the board counts what is there."""
    engine = get("pocobot")
    view = engine.view(engine.new_game(2, 1), 0)
    view["panels"][0].update({"pilot": "KS", "S": ["2S", "3S"], "H": ["4H"], "C": [], "D": ["5D"]})
    view["panels"][1].update({"pilot": None, "S": [], "H": [], "C": [], "D": []})
    with translation.override("en"):
        board = presenters.present("pocobot", view, 0, seat_name)
    mine = next(p for p in board["panels"] if p["is_you"])
    theirs = next(p for p in board["panels"] if not p["is_you"])
    assert mine["mounted_text"] == ("Not mounted yet: it needs 3 more module cards, 1\u00a0♠ among them "
                                    "(it has 3 module cards, 2\u00a0♠).")
    assert theirs["mounted_text"] == "Not mounted yet: it needs a Pilot, then 6 module cards, 3 of the Pilot’s suit."


def test_long_sections_are_collapsed_and_pocobots_two_changes_nest_by_the_first_change():
    """PoCoBOT offers hundreds of moves in a turn: a section over 12 is collapsed, and the two-change
    moves come nested by their first change (and a pass with a big hand by the first card it
    discards), every one of them exactly once, each button the rest and its spoken name the whole move."""
    engine = get("pocobot")
    nested = passes = 0
    with translation.override("es"):
        for state, seat in samples("pocobot"):
            if seat is None:
                continue
            view = engine.view(state, seat)
            actions = engine.legal_actions(state, seat)
            for group in presenters.action_groups("pocobot", actions, view, seat_name):
                assert group["collapsed"] == (len(group["actions"]) > 12)
                sections = group.get("sections")
                if not sections:
                    continue
                two = group["title"] == "Dos cambios en un turno"
                assert group["collapsed"] and (two or group["title"] == "Pasa")
                nested += two
                passes += not two
                inner = [id(a) for s in sections for a, _label in s["actions"]]
                assert sorted(inner) == sorted(id(a) for a, _label in group["actions"])
                titles = [s["title"] for s in sections]
                prefix = ("Primero: ", "Luego: ") if two else ("Pasa y descarta ", "…")
                assert len(set(titles)) == len(titles) and all(t.startswith(prefix[0]) for t in titles)
                for section in sections:
                    firsts = {repr(a["ops"][0] if two else a["cards"][0]) for a, _label in section["actions"]}
                    assert len(firsts) == 1
                    labels = [label for _a, label in section["actions"]]
                    assert len(set(labels)) == len(labels)
                    assert all(label.startswith(prefix[1]) for label in labels)
                    assert len(section["spoken"]) == len(labels)
                    assert not [s for s in section["spoken"] if re.search("[♠♥♦♣]", s)]
    assert nested, "the seeded playouts reach a turn with many two-change moves"
    assert passes, "and a turn passing with a big hand (every pair of cards to discard)"


def test_pb_4_pb_7_a_removal_whose_dropped_cards_are_reshuffled_at_once_is_still_told():
    """A walk through PoCoBOT broke a table for good (every page of it a 500): removing the A♠
    forced two drops (PB-4), the pile was empty, and the next draw shuffled the discard into a
    new pile (PB-7) within the same action, so the viewers' log had the dropped cards as hidden.
    The log tells them as "a card", and every seat's board renders."""
    from cardgames.engines import pocobot as pb
    from tests.cardgames.test_pocobot import build, modify, panel

    state = build(panels=(panel("2S", "5S", "8S", "10S", "3H", booster="AS"), None), deck=[],
                  discard=["4C"])
    after = pb.apply(state, 0, modify({"op": "remove", "card": "AS", "discard": ["2S", "10S"]}))
    assert "reshuffle" in [e["type"] for e in after["events"]]
    for seat in (0, 1, None):
        for lang, said in (("es", "una carta"), ("en", "a card")):
            with translation.override(lang):
                board = presenters.present("pocobot", pb.view(after, seat), seat, seat_name)
                render_to_string(board["template"], {"board": board, "seat": seat})
            modified = next(line for line in board["events"] if line.startswith("Ana "))
            assert said in modified, modified


def test_pa_1_a_palmera_rounds_scores_say_whose_they_are():
    """PA-1 (the scores add up): a walk read "ronda 1: 33 a 13" under totals listed the other way round; each round's score
    is named by its player, for either seat's board."""
    engine = get("palmera")
    state = next(s for s, _seat in samples("palmera") if engine.view(s, 0)["scores"])
    scores = engine.view(state, 0)["scores"][0]
    with translation.override("es"):
        for seat in (0, 1):
            board = presenters.present("palmera", engine.view(state, seat), seat, seat_name)
            text = board["rounds"][0]["text"]
            assert text.startswith("ronda 1: ")
            assert f"Ana {scores[0]}" in text and f"Bruno {scores[1]}" in text, text


def test_bo_4_bo_10_a_swap_that_leaves_no_life_says_so():
    """BO-4's optional swap can leave its maker with no life (BO-10: out at once): a walk swapped
    its A♠ (life 1) for the J♣ beside a Q♥ and lost unwarned. The label says it; another does not."""
    view = get("boom").view(get("boom").new_game(2, 1), 0)
    view["boards"][0] = [{"card": "AS", "on": [], "life": 1}, {"card": "QH", "on": [], "life": 0}]
    view["hand"] = ["JC", "5C"]
    with translation.override("es"):
        fatal = presenters.action_label("boom", {"type": "change", "card": "JC", "storage": 0}, view, seat_name)
        fine = presenters.action_label("boom", {"type": "change", "card": "5C", "storage": 0}, view, seat_name)
    assert fatal.endswith(": quedas eliminado en el acto") and not fine.endswith("en el acto"), (fatal, fine)


def test_nm_4_nismatchs_english_board_speaks_english_but_for_the_cards_names():
    """NM-4: a walk in English read "PG 3 of 5" and "WORKSHOP ALFA" beside STR/DEF/SPD: hit points
    are HP and the Workshops Alpha and Beta in English (the cards keep their own names)."""
    engine = get("nismatch")
    state = samples("nismatch")[3][0]
    with translation.override("en"):
        text = strip_tags(_render("nismatch", engine.view(state, 0), 0))
    assert "HP " in text and "Workshop Alpha" in text
    assert not re.search(r"\bPG\b", text) and "Alfa" not in text
    with translation.override("es"):
        text = strip_tags(_render("nismatch", engine.view(state, 0), 0))
    assert re.search(r"\bPG\b", text) and "Alfa" in text


def test_bo_8_a_players_own_discard_is_told_as_every_other_line_of_the_log():
    """BO-8: the log is in the third person (a walk read "djamal ataca…" beside "Descartas 10♥…"
    for the same player); the cards are named to the one who discarded them only."""
    action = {"type": "discard", "cards": ["10H", "5C"]}
    with translation.override("es"):
        own = presenters.move_text("boom", seat_name, 0, action, 0)
        other = presenters.move_text("boom", seat_name, 0, action, 1)
    assert own.startswith("Ana descarta 10♥") and "5♣" in own, own
    assert other.startswith("Ana descarta 2 cartas") and "10♥" not in other, other


@pytest.mark.parametrize(("holder", "said"), [
    (1, "empate, que gana tu rival: tiene la percha 1"),
    (0, "empate, que ganas tú: tienes la percha 1"),
    (None, "empate, que ganas tú por atacar: nadie tiene la percha 1"),
])
def test_pa_5_a_known_tie_says_who_wins_it(holder, said):
    """PA-5: the holder of perch 1 wins a tie, else the attacker; the move read "(empate)" alone."""
    engine = get("palmera")
    view = engine.view(engine.new_game(2, 1), 0)
    view["hand"] = "7D"
    view["board"] = [[[], []] for _ in range(10)]
    view["board"][4][1] = [{"card": "7C", "up": True, "peeked": False}]
    if holder is not None:
        view["board"][0][holder] = [{"card": "2D" if holder == 0 else "2C", "up": True, "peeked": False}]
    with translation.override("es"):
        label = presenters.action_label("palmera", {"type": "place", "square": 5}, view, seat_name)
    assert label.endswith(f"({said})"), label


def test_nm_10_holding_priority_in_anothers_turn_is_not_called_your_turn():
    """NM-10's stack: a player who may respond in the other's turn read "Tu turno." under "turno de
    Bot fuerte 2"; the line says it is their answer, and their own turn still reads as before."""
    engine = get("nismatch")
    responding = own = None
    for state, mover in samples("nismatch"):
        if mover is None:
            continue
        view = engine.view(state, mover)
        if view.get("active") is not None and view["active"] != mover and responding is None:
            responding = (view, mover)
        if view.get("active") == mover and own is None:
            own = (view, mover)
    assert responding and own
    with translation.override("es"):
        board = presenters.present("nismatch", responding[0], responding[1], seat_name)
        assert board["your_turn_text"].startswith("Te toca responder: tienes la prioridad en el turno de ")
        assert presenters.present("nismatch", own[0], own[1], seat_name)["your_turn_text"] == ""
