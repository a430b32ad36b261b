"""The common protocol of cardgames/engines: shared validation helpers, the outcome shape, and the
seeded random-playout fuzzer every engine's ``test_*_fuzz.py`` runs (issue #4).

The fuzzer (:func:`fuzz`) plays thousands of complete games with fixed seeds and checks:

- on EVERY ply: the seat(s) to move have a non-empty list of legal actions and every other seat an
  empty one; the chosen listed action applies (no exception) and returns a new state; no card is
  created or lost (the engine's card multiset is the one dealt); the game is still within its
  ply bound;
- on the first state, on every ``full_every``-th ply and on the final state of EVERY game (so at
  several points of each playout): every listed action of the seat to move applies; the state is
  JSON text and ``from_json(to_json(state))`` round-trips it; the view of every seat and of a
  spectator is JSON and contains no card hidden from that viewer; ``determinize`` of each seat's
  view agrees with that view and conserves the cards; random garbage actions, other
  states' actions and wrong seats raise :class:`IllegalAction` and nothing else; applying anything
  leaves the input state unchanged;
- at the end: the game is over within the bound, ``outcome`` has the protocol's shape, nobody has
  an action left and every action (garbage or formerly legal) is refused with IllegalAction.

The games of one test are split over two processes (one per core, at most two; ``FUZZ_WORKERS=1``
plays them in this process). Run them alone:
``.venv/bin/python -m pytest tests/cardgames -q -s -p no:django -k "2000_random or 2001_random"``
(``-s`` prints the counts; the junit report records them as properties). Figures: docs/cardgames/*.md.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from types import ModuleType

import pytest

from cardgames import engines
from cardgames.engines import IllegalAction
from cardgames.engines.validation import is_flat, is_legal, short

LEGAL = [{"type": "place", "square": 1}, {"type": "discard", "cards": ["2C", "3C"]}]


@pytest.mark.parametrize(
    "action",
    [
        {"type": "place", "square": True},  # bool is not int
        {"type": "place", "square": 1.0},
        {"type": "discard", "cards": ("2C", "3C")},
        {"type": "discard", "cards": ["2C", 3]},
        {1: "place"},
        ["type", "place"],
        None,
    ],
)
def test_is_legal_rejects_look_alikes(action):
    """Only a flat dict equal to a legal action passes; ``==`` alone would accept True for 1."""
    assert not is_legal(action, LEGAL)


def test_is_legal_accepts_a_legal_flat_action():
    assert is_flat({"type": "discard", "cards": ["2C"], "n": 3})
    assert is_legal({"square": 1, "type": "place"}, LEGAL)
    assert not is_legal({"type": "place", "square": 2}, LEGAL)


def test_short_bounds_untrusted_input():
    assert len(short("x" * 10_000)) <= 80
    assert len(short([list(range(50))] * 50)) <= 80
    assert short({"a": 1}) == "{'a': 1}"


@pytest.mark.parametrize("name", engines.ENGINE_NAMES)
def test_outcome_scores_have_string_seat_keys_and_int_winners(name):
    """Protocol: ``scores`` is keyed by the seat as a string (JSON-safe), ``winners`` holds ints."""
    engine = engines.get(name)
    rng = random.Random(11)
    state = engine.new_game(2, 11)
    for _ in range(5000):
        movers = engine.to_move(state)
        if not movers:
            break
        seat = movers[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    result = engine.outcome(state)
    assert result is not None, "a random game ends within 5000 plies"
    assert set(result["scores"]) == {"0", "1"}
    assert all(type(seat) is int for seat in result["winners"])
    assert json.loads(json.dumps(result)) == result


# --------------------------------------------------------------------------- the fuzzer

BAD_SEATS: tuple[object, ...] = (-1, 99, None, "0", True, 0.0, 1.0, [0])
GENERIC_JUNK: tuple[object, ...] = (None, "pass", 3, 2.5, [], ["pass"], {}, {"type": None}, {"type": 7},
                                    {"type": "pass", "extra": object()}, {"type": ["pass"]}, object())


def junk_actions(rng: random.Random, legal: list[dict], foreign: list[dict], keys: list[object],
                 types: list[object], values: list[object]) -> list[object]:
    """Random dicts with the engine's keys and types, each legal action with one field corrupted
    (wrong values, bool or float for an int, a missing or an extra field), other states' actions."""
    junk: list[object] = []
    for _ in range(4):
        action = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(1, 4))}
        action["type"] = rng.choice(types)
        junk.append(action)
    for base in rng.sample(legal, min(2, len(legal))):
        for name in base:
            junk.append({**base, name: rng.choice(values)})
            if type(base[name]) is int:
                junk.append({**base, name: float(base[name])})
                junk.append({**base, name: bool(base[name])})
        junk.append({**base, "extra": 1})
        junk.append({k: v for k, v in base.items() if k != "type"})
    return junk + rng.sample(foreign, min(3, len(foreign)))


def uniform(state: dict, seat: int, actions: list[dict], rng: random.Random) -> dict:
    """The plain random playout policy: a uniformly random listed action."""
    return rng.choice(actions)


@dataclass(frozen=True)
class Fuzz:
    """How to fuzz one engine.

    ``cards(state)``: every card of the state wherever it is (a list), for conservation;
    ``hidden(state, viewer)``: the card codes ``viewer`` (a seat or ``None``) must not see;
    ``garbage(rng, state, seat, legal, foreign)``: malformed or illegal actions for the seat to move
    (some may happen to be legal: the fuzzer tells them apart); ``max_plies``: the ply bound of
    one game; ``full_every``: the expensive checks run on the first state, every ``full_every``-th
    ply and the final state.
    ``listed_only``: ``apply`` accepts exactly the listed actions, so any other garbage must raise
    IllegalAction; when False (PoCoBOT lists one canonical spelling of each legal move but accepts
    them all), a garbage action may also apply, and then its result must conserve the cards;
    ``illegal(rng, state, seat)``: more actions that must be refused whatever ``listed_only`` says.
    """

    engine: ModuleType
    cards: Callable[[dict], list[str]]
    hidden: Callable[[dict, int | None], Iterable[str]]
    garbage: Callable[..., list[object]]
    max_plies: int
    full_every: int
    listed_only: bool = True  # apply accepts exactly the listed actions (PoCoBOT: other spellings too)
    illegal: Callable[[random.Random, dict, int], list[object]] | None = None  # must be refused, always
    # engine-specific checks of a final state and its plies; may return a tag to count (e.g. how it ended)
    final: Callable[[dict, int], str | None] | None = None


@dataclass
class Totals:
    """What a batch of playouts checked (printed and recorded by the tests)."""

    games: int = 0
    plies: int = 0
    longest: int = 0
    full_checks: int = 0
    listed_applied: int = 0
    garbage_refused: int = 0
    views_scanned: int = 0
    other_spellings: int = 0
    outcomes: Counter = field(default_factory=Counter)
    tags: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    workers: int = 1

    def add(self, other: Totals) -> None:
        for name in ("games", "plies", "full_checks", "listed_applied", "garbage_refused", "views_scanned",
                     "other_spellings", "cpu_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.longest = max(self.longest, other.longest)
        self.outcomes.update(other.outcomes)
        self.tags.update(other.tags)

    def line(self, name: str) -> str:
        return (f"{name}: {self.games} playouts, {self.plies} plies (longest {self.longest}), "
                f"{self.full_checks} full checks, {self.listed_applied} listed actions applied, "
                f"{self.views_scanned} views scanned, {self.garbage_refused} garbage actions refused"
                f"{f' ({self.other_spellings} other spellings of legal moves applied)' if self.other_spellings else ''}, "
                f"outcomes {dict(sorted(self.outcomes.items()))}"
                f"{f' {dict(sorted(self.tags.items()))}' if self.tags else ''}, "
                f"{self.seconds:.1f}s wall, {self.cpu_seconds:.1f}s CPU in {self.workers} process(es)")


def _canonical(action: object) -> str | None:
    try:
        return json.dumps(action, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


def _refused(engine: ModuleType, state: dict, seat: object, action: object, why: str) -> None:
    """``apply`` must raise IllegalAction, and nothing else."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction:
        return
    except Exception as exc:  # noqa: BLE001 - the property is "IllegalAction only"
        raise AssertionError(f"{why}: {short(action)} for seat {short(seat)} raised {exc!r}") from exc
    raise AssertionError(f"{why}: {short(action)} for seat {short(seat)} was accepted")


def _full_check(fz: Fuzz, state: dict, seats: int, rng: random.Random, foreign: list[dict],
                totals: Totals, listed: dict[int, list[dict]]) -> None:
    """The expensive properties on one state (see the module docstring)."""
    engine = fz.engine
    frozen = json.dumps(state, sort_keys=True)  # also: the state is JSON
    assert engine.from_json(json.loads(json.dumps(engine.to_json(state)))) == state, "JSON round trip"
    assert engine.from_json(json.loads(frozen)) == state, "JSON round trip of the raw state"
    for viewer in [*range(seats), None]:
        text = json.dumps(engine.view(state, viewer))
        leaked = [code for code in set(fz.hidden(state, viewer)) if f'"{code}"' in text]
        assert not leaked, f"viewer {viewer} sees hidden cards {sorted(leaked)}"
        totals.views_scanned += 1
    cards = sorted(fz.cards(state))
    for seat in range(seats):  # the bots' determinisation agrees with the view
        seen = engine.view(state, seat)
        sample = engine.determinize(seen, seat, rng)
        assert engine.view(sample, seat) == seen, "determinize disagrees with the view"
        assert sorted(fz.cards(sample)) == cards, "determinize created or lost a card"
    movers = engine.to_move(state)
    for seat in movers:
        legal = listed[seat] if seat in listed else engine.legal_actions(state, seat)
        for action in legal:  # every listed action applies and conserves the cards
            assert sorted(fz.cards(engine.apply(state, seat, action))) == cards, f"{action} made or lost a card"
        totals.listed_applied += len(legal)
        allowed = {_canonical(a) for a in legal}
        for junk in [*GENERIC_JUNK, *(fz.illegal(rng, state, seat) if fz.illegal else [])]:
            _refused(engine, state, seat, junk, "garbage")
            totals.garbage_refused += 1
        for junk in fz.garbage(rng, state, seat, legal, foreign):
            text = _canonical(junk)
            if text is not None and text in allowed:
                continue
            if fz.listed_only:
                _refused(engine, state, seat, junk, "garbage")
                totals.garbage_refused += 1
                continue
            try:  # another spelling of a legal move may apply
                after = engine.apply(state, seat, junk)
            except IllegalAction:
                totals.garbage_refused += 1
            except Exception as exc:  # noqa: BLE001 - the property is "IllegalAction only"
                raise AssertionError(f"garbage: {short(junk)} for seat {seat} raised {exc!r}") from exc
            else:
                assert sorted(fz.cards(after)) == cards, f"{short(junk)} made or lost a card"
                totals.other_spellings += 1
        sample = legal[0] if legal else {"type": "pass"}
        for bad in [*(s for s in range(seats) if s not in movers), *BAD_SEATS]:
            _refused(engine, state, bad, sample, "wrong seat")
            totals.garbage_refused += 1
    if not movers:  # the game is over: everything is refused
        for junk in [*GENERIC_JUNK, *foreign[:6], *fz.garbage(rng, state, 0, [], foreign)]:
            for seat in range(seats):
                _refused(engine, state, seat, junk, "action after the end")
                totals.garbage_refused += 1
    assert json.dumps(state, sort_keys=True) == frozen, "apply modified its input state"
    totals.full_checks += 1


def _check_outcome(engine: ModuleType, state: dict, seats: int) -> str:
    result = engine.outcome(state)
    assert result is not None, "a finished game has an outcome"
    assert set(result) >= {"winners", "draw", "scores"}
    assert all(type(s) is int and 0 <= s < seats for s in result["winners"])
    assert set(result["scores"]) == {str(s) for s in range(seats)}
    assert result["draw"] == (not result["winners"])
    assert json.loads(json.dumps(result)) == result
    for seat in range(seats):
        assert engine.legal_actions(state, seat) == [], "no action after the end"
    return "draw" if result["draw"] else "win"


def playout(fz: Fuzz, seats: int, seed: int, policy: Callable = uniform, totals: Totals | None = None) -> dict:
    """One seeded random game with every check; returns the final state (raises on a violation)."""
    totals = Totals() if totals is None else totals
    engine = fz.engine
    rng = random.Random(f"fuzz:{seed}")
    state = engine.new_game(seats, seed)
    dealt = sorted(fz.cards(state))
    foreign: list[dict] = []
    ply = 0
    try:
        while True:
            movers = engine.to_move(state)
            if movers:
                seat = movers[0]
                actions = engine.legal_actions(state, seat)
                assert actions, "a seat to move has a legal action"
                for other in range(seats):
                    if other not in movers:
                        assert engine.legal_actions(state, other) == [], f"seat {other} may not act now"
            if ply % fz.full_every == 0 or not movers:  # the first, every full_every-th and the last
                _full_check(fz, state, seats, rng, foreign, totals, {seat: actions} if movers else {})
            if not movers:
                break
            assert ply < fz.max_plies, f"the game did not end within {fz.max_plies} plies"
            action = policy(state, seat, actions, rng)
            after = engine.apply(state, seat, action)
            assert after is not state
            assert sorted(fz.cards(after)) == dealt, "a card was created or lost"
            ply += 1
            foreign = actions
            state = after
        totals.outcomes[(seats, _check_outcome(engine, state, seats))] += 1
        if fz.final is not None:
            tag = fz.final(state, ply)
            if tag is not None:
                totals.tags[tag] += 1
    except AssertionError as exc:
        raise AssertionError(f"{engine.__name__} seats={seats} seed={seed} ply={ply}: {exc}") from exc
    totals.games += 1
    totals.plies += ply
    totals.longest = max(totals.longest, ply)
    return state


def run_games(module: str, games: list[tuple[int, int]]) -> Totals:
    """Play ``games`` (pairs ``(seats, seed)``) with the ``FUZZ`` spec and the optional
    ``playout_policy(seed)`` of the test module ``module``, every game checked as in :func:`playout`."""
    spec = importlib.import_module(module)
    policy_of = getattr(spec, "playout_policy", None)
    totals = Totals()
    start = time.process_time()
    for seats, seed in games:
        playout(spec.FUZZ, seats, seed, policy_of(seed) if policy_of else uniform, totals)
    totals.cpu_seconds = time.process_time() - start
    return totals


def fuzz_workers() -> int:
    """Processes for :func:`fuzz`: ``FUZZ_WORKERS`` if set, else one per available core, at most 2."""
    wanted = os.environ.get("FUZZ_WORKERS")
    if wanted:
        return max(1, int(wanted))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(2, cores))


def fuzz(module: str, games: list[tuple[int, int]], chunks: int = 40) -> Totals:
    """:func:`run_games` over ``games``, split across :func:`fuzz_workers` processes (the playouts
    are independent and seeded, so the result does not depend on the split); the first failing
    game's AssertionError (naming its seats, seed and ply) is raised here."""
    start = time.perf_counter()
    workers = min(fuzz_workers(), chunks)
    if workers == 1:
        totals = run_games(module, games)
    else:
        totals = Totals()
        parts = [games[i::chunks] for i in range(chunks)]
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no state of this one
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [pool.submit(run_games, module, part) for part in parts if part]
            try:
                for done in futures:
                    totals.add(done.result())
            except BaseException:
                pool.shutdown(wait=False, cancel_futures=True)  # fail fast: drop the queued chunks
                raise
    totals.workers = workers
    totals.seconds = time.perf_counter() - start
    return totals


def report(record_property, name: str, totals: Totals) -> None:
    """Print the counts (visible with ``-s``) and record them in the junit report."""
    print("\n" + totals.line(name))
    record_property(f"{name}_playouts", totals.games)
    record_property(f"{name}_plies", totals.plies)
    record_property(f"{name}_full_checks", totals.full_checks)
    record_property(f"{name}_seconds", round(totals.seconds, 1))
    record_property(f"{name}_cpu_seconds", round(totals.cpu_seconds, 1))


def _boom_fuzz(**overrides) -> Fuzz:
    """The Boom fuzz spec (test_boom_fuzz.FUZZ) over a copy of the engine with some functions replaced."""
    from tests.cardgames import test_boom_fuzz

    engine = ModuleType("broken_boom")
    engine.__dict__.update({k: v for k, v in vars(test_boom_fuzz.bo).items() if not k.startswith("__")})
    engine.__dict__.update(overrides)
    return dataclasses.replace(test_boom_fuzz.FUZZ, engine=engine)


def test_the_fuzzer_catches_broken_engines():
    """The fuzzer is not vacuous: a view that leaks a hand, an apply that loses a card or that
    raises something other than IllegalAction on garbage, and a game longer than its bound all
    fail it."""
    from cardgames.engines import boom as bo

    def leaky_view(state, seat):
        return {**bo.view(state, seat), "hands": state["hands"]}

    def lossy_apply(state, seat, action):
        after = bo.apply(state, seat, action)
        if after["deck"]:
            after["deck"].pop()
        return after

    def fragile_apply(state, seat, action):
        if isinstance(action, dict) and action.get("type") not in ("skip_change", "change", "attack", "boom",
                                                                     "discard", "pass"):
            raise KeyError(action.get("type"))
        return bo.apply(state, seat, action)

    cases = [
        ({"view": leaky_view}, "sees hidden cards"),
        ({"apply": lossy_apply}, "made or lost|created or lost"),
        ({"apply": fragile_apply}, "raised KeyError"),
    ]
    for overrides, message in cases:
        with pytest.raises(AssertionError, match=message):
            playout(_boom_fuzz(**overrides), 2, 1)
    with pytest.raises(AssertionError, match="did not end within 5 plies"):
        playout(dataclasses.replace(_boom_fuzz(), max_plies=5), 2, 1)
