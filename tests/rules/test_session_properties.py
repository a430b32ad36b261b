"""Random sequences of session operations (FR-MODE-1..12, FR-EXCH-1..7, FR-SOB-1).

Whatever happens — checks in both phases, the phase switch, exchanges, drunk and coma swaps,
deaths, late joiners, rest — no card is lost, duplicated or in two zones; the events describe
exactly the movements; cards change owner only through exchanges (FR-MODE-12); nobody sees
another player's drawn cards or the pile; JSON round-trips at every step; and replaying the same
seeds and operations gives the same state.
"""

import json
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from frontera.rules import RulesError, exchanges, session
from frontera.rules.session import BOX, all_cards, draw_source, new_session, owned_cards, visible_cards, zones
from tests.rules.test_session import assert_invariants

OPERATIONS = {
    name: getattr(module, name)
    for module, names in (
        (
            session,
            (
                "draw_for_check",
                "play_cards",
                "settle_check",
                "switch_to_phase_2",
                "join_with_new_deck",
                "join_from_players",
                "leave_game",
                "rest",
            ),
        ),
        (
            exchanges,
            (
                "bet_win",
                "bet_tie",
                "bet_caught_cheating",
                "duel_win",
                "duel_tie",
                "drunk_swap",
                "coma_exchange",
                "treasure_take",
                "treasure_swap",
            ),
        ),
    )
    for name in names
}
# FR-MODE-12: the only operations that may move a card from one player to another
CHANGE_OWNER = {name for name in OPERATIONS if getattr(exchanges, name, None)} | {"join_from_players"}


def apply(state, operation):
    """Run ``(name, kwargs)``; a ``seed`` kwarg becomes a fresh ``random.Random``."""
    name, kwargs = operation
    kwargs = dict(kwargs)
    if "seed" in kwargs:
        kwargs["rng"] = random.Random(kwargs.pop("seed"))
    return OPERATIONS[name](state, **kwargs)


def replay(setup, operations):
    state = new_session(**{k: v for k, v in setup.items() if k != "seed"}, rng=random.Random(setup["seed"]))
    for operation in operations:
        state, _ = apply(state, operation)
    return state


def holder(zone):
    """The player whose zone this is, or ``None`` for a shared zone."""
    return zone.split(":", 1)[1] if ":" in zone else None


def locations(state):
    return {uid: zone for zone, cards in zones(state).items() for uid in cards}


seeds = st.integers(0, 2**16)


class SessionMachine(RuleBasedStateMachine):
    @initialize(
        mode=st.sampled_from([session.NORMAL] * 3 + [session.SIN_GESTION, session.CON_DESGASTE]),
        protagonists=st.integers(1, 5),
        jokers=st.integers(0, 2),
        skip_phase_1=st.booleans(),
        extra=st.booleans(),
        treasure_cards=st.integers(0, 6),
        seed=seeds,
    )
    def setup(self, mode, protagonists, jokers, skip_phase_1, extra, treasure_cards, seed):
        normal = mode == session.NORMAL
        self.setup_args = {
            "mode": mode,
            "players": [f"p{i}" for i in range(protagonists)],
            "mayor": "gm",
            "jokers": jokers,
            "skip_phase_1": skip_phase_1 and normal,
            "dead_mans_hand_from_extra_deck": extra and mode != session.CON_DESGASTE,
            "treasure_cards": treasure_cards if normal else 0,
            "seed": seed,
        }
        self.state = replay(self.setup_args, [])
        self.operations = []
        self.total = len(all_cards(self.state))
        self.counter = 0

    # ---------------------------------------------------------------- helpers

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def do(self, name, **kwargs):
        """Apply an operation; check its events, purity and FR-MODE-12. Rejected input changes nothing."""
        before = json.dumps(self.state.to_json())
        where = locations(self.state)
        try:
            new, events = apply(self.state, (name, kwargs))
        except RulesError as err:
            assert str(err)
            assert json.dumps(self.state.to_json()) == before
            return None
        assert json.dumps(self.state.to_json()) == before  # the input state is never modified
        for event in events:
            assert where.get(event["card"], BOX) == event["from"]
            where[event["card"]] = event["to"]
            giver, taker = holder(event["from"]), holder(event["to"])
            if name not in CHANGE_OWNER and giver and taker:
                assert giver == taker, (name, event)
        assert where == locations(new)
        if name == "join_with_new_deck":
            self.total += 52 + new.jokers
        self.state = new
        self.operations.append((name, kwargs))
        return events

    def player(self, data, protagonist=False):
        pool = self.state.protagonists if protagonist else self.state.players
        return data.draw(st.sampled_from(pool)) if pool else None

    def pair(self, data, protagonists=False):
        pool = self.state.protagonists if protagonists else self.state.players
        if len(pool) < 2:
            return None, None
        a, b = data.draw(st.permutations(pool))[:2]
        return a, b

    def pick(self, data, player):
        cards = owned_cards(self.state, player)
        return data.draw(st.sampled_from(cards)) if cards else None

    def open_check(self, data):
        open_checks = [(p, c) for p in self.state.players for c in self.state.pending[p]]
        return data.draw(st.sampled_from(open_checks)) if open_checks else (None, None)

    # ---------------------------------------------------------------- checks

    @rule(data=st.data(), count=st.integers(-1, 12), seed=seeds)
    def draw(self, data, count, seed):
        player = self.player(data)
        source = set(draw_source(self.state, player, count)) if count >= 0 else set()
        events = self.do("draw_for_check", player=player, count=count, check_id=self.fresh("c"), seed=seed)
        if events is not None:
            drawn = [e["card"] for e in events if e["reason"] == "draw"]
            assert set(drawn) <= source and len(drawn) == min(count, len(source))

    @rule(data=st.data())
    def play(self, data):
        player, check_id = self.open_check(data)
        if player is None:
            return
        drawn = self.state.pending[player][check_id]["cards"]
        chosen = []
        if drawn:
            chosen = data.draw(st.lists(st.sampled_from(drawn), min_size=1, max_size=3, unique=True))
        if drawn and data.draw(st.integers(0, 4)) == 0:  # now and then a card not drawn, or a repeat
            chosen = chosen + [data.draw(st.sampled_from([chosen[0], *all_cards(self.state)[:3]]))]
        self.do("play_cards", player=player, check_id=check_id, played_uids=chosen)

    @rule(data=st.data(), count=st.integers(1, 10), seed=seeds)
    def check(self, data, count, seed):
        """The usual flow: draw, then play one or two of the drawn cards at once."""
        player, check_id = self.player(data), self.fresh("c")
        events = self.do("draw_for_check", player=player, count=count, check_id=check_id, seed=seed) or []
        drawn = [e["card"] for e in events if e["reason"] == "draw"]
        if drawn:
            played = data.draw(st.lists(st.sampled_from(drawn), min_size=1, max_size=2, unique=True))
            self.do("play_cards", player=player, check_id=check_id, played_uids=played)

    @rule(data=st.data())
    def settle(self, data):
        player, check_id = self.open_check(data)
        if player is not None:
            self.do("settle_check", player=player, check_id=check_id, reason="cancelled")

    @precondition(lambda self: self.state.phase == 1)
    @rule()
    def phase_2(self):
        self.do("switch_to_phase_2")

    # ---------------------------------------------------------------- joining, leaving, rest

    @precondition(lambda self: len(self.state.players) < 8)
    @rule(data=st.data(), back=st.booleans(), seed=seeds)
    def join_new_deck(self, data, back, seed):
        self.do("join_with_new_deck", player=self.fresh("n"), return_to_phase_1=back, seed=seed)

    @precondition(lambda self: len(self.state.players) < 8)
    @rule(per_player=st.integers(0, 4), seed=seeds)
    def join_taking(self, per_player, seed):
        self.do("join_from_players", player=self.fresh("n"), per_player=per_player, seed=seed)

    @precondition(lambda self: len(self.state.protagonists) > 1)
    @rule(data=st.data())
    def leave(self, data):
        self.do("leave_game", player=self.player(data))

    @rule(data=st.data(), hours=st.integers(0, 3), seed=seeds)
    def rest(self, data, hours, seed):
        self.do("rest", player=self.player(data), hours=hours, seed=seed)

    # ---------------------------------------------------------------- exchanges

    @rule(data=st.data(), kind=st.sampled_from(["win", "tie", "cheat"]), seed=seeds)
    def bet(self, data, kind, seed):
        winner, loser = self.pair(data)
        if winner is None:
            return
        if kind == "win":
            take, give = self.pick(data, loser), self.pick(data, winner)
            self.do("bet_win", winner=winner, loser=loser, take=take, give=give)
        elif kind == "tie":
            self.do("bet_tie", a=winner, b=loser, seed=seed)
        else:
            self.do("bet_caught_cheating", cheat=loser, rival=winner, take=self.pick(data, loser))

    @rule(data=st.data(), tie=st.booleans(), n=st.integers(0, 2), seed=seeds)
    def duel(self, data, tie, n, seed):
        winner, loser = self.pair(data)
        if winner is None:
            return
        if tie:
            self.do("duel_tie", a=winner, b=loser, seed=seed)
            return
        theirs, mine = owned_cards(self.state, loser), owned_cards(self.state, winner)
        take = data.draw(st.permutations(theirs))[:n] if theirs else []
        give = data.draw(st.permutations(mine))[: min(len(take), len(mine))] if mine else []
        self.do("duel_win", winner=winner, loser=loser, take=take, give=give)

    @rule(data=st.data(), coma=st.booleans(), seed=seeds)
    def drink(self, data, coma, seed):
        player = self.player(data, protagonist=True)
        if player is None:
            return
        if not coma:
            self.do("drunk_swap", player=player, seed=seed)
        else:
            empty = not owned_cards(self.state, player) or not owned_cards(self.state, self.state.mayor)
            give = None if empty else self.pick(data, self.state.mayor)
            self.do("coma_exchange", player=player, give=give, seed=seed)

    @rule(data=st.data(), count=st.integers(1, 3), seed=seeds)
    def treasure(self, data, count, seed):
        self.do("treasure_take", keeper=self.player(data, protagonist=True), count=count, seed=seed)

    @rule(data=st.data())
    def swap(self, data):
        a, b = self.pair(data, protagonists=True)
        if a is not None:
            self.do("treasure_swap", a=a, b=b, give_a=self.pick(data, a), give_b=self.pick(data, b))

    # ---------------------------------------------------------------- invariants

    @invariant()
    def every_card_in_exactly_one_zone(self):
        assert_invariants(self.state)
        assert len(all_cards(self.state)) == self.total

    @invariant()
    def the_shared_zones_look_the_same_to_every_viewer(self):
        """FR-CARD-5 and the visibility rulings (rules.session.visible_cards): pile, discard,
        treasure and out of play show no card to anyone, the dead man's hand its cards to everyone;
        so ``table_view`` (read once for every phone) is what each viewer's ``view`` shows."""
        state = self.state
        shared = session.table_view(state)
        for viewer in [*state.players, None]:
            seen = session.view(state, viewer)
            assert shared == {name: seen[name] for name in session.SHARED_ZONES}

    @invariant()
    def secrets_stay_secret(self):
        state = self.state
        hidden_from_all = set(state.pile) | set(state.discard) | set(state.treasure) | set(state.out_of_play)
        for viewer in [*state.players, None]:
            seen = visible_cards(state, viewer)
            assert not seen & hidden_from_all
            for other in state.players:
                other_pending = {u for e in state.pending[other].values() for u in e["cards"]}
                if other != viewer:
                    assert not seen & other_pending
                    if viewer != state.mayor:
                        assert not seen & set(state.player_decks[other])
            if viewer is not None and state.phase == 1:
                dealt_unseen = set(state.player_decks[viewer]) - set(state.known[viewer])
                assert not seen & dealt_unseen

    def teardown(self):
        if hasattr(self, "setup_args"):
            assert replay(self.setup_args, self.operations) == self.state


SessionMachine.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_session_operations_keep_every_card = SessionMachine.TestCase
