"""Sharing a treasure among several protagonists (FR-EXCH-6).

The sharers agree on a keeper for each treasure card, then each may swap the agreed number of cards
with another sharer (each swap an FR-EXCH exchange). The cards stay in the Tesoro until agreed
(FR-MODE-4).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from frontera.campaigns.permissions import can_act_for
from frontera.characters.models import Character
from frontera.messages import names as listed  # a list of names, joined the reader's way
from frontera.play.models import Exchange, GameSession, seat_key
from frontera.play.services.core import (
    E_NO_CHARACTERS,
    E_NOT_PROTAGONIST,
    EventLog,
    SessionError,
    load_state,
    lock_for_request,
    lock_session,
    msg,
    new_rng,
    rules_message,
    save_state,
)
from frontera.play.services.exchanges import (
    E_EXCHANGE_CLOSED,
    E_NOT_YOUR_CHOICE,
    E_SHARING_OPEN,
    SHARING,
    exchange_party,
    exchange_start,
    open_exchange,
    open_sharing,
)
from frontera.rules import exchanges as rules_exchanges
from frontera.rules.errors import RulesError, ngettext  # ngettext: the engine's plural marker

E_NOT_A_SHARER = _("%(name)s does not share this treasure.")
E_SHARING_DECIDED = _("The sharers have already agreed on who keeps the treasure.")
E_SHARING_NOT_YET = _("First the sharers agree on who keeps the treasure.")
E_NO_SWAP_LEFT = _("%(name)s has no swap left in this sharing.")
E_SWAP_PARTNER = _("Choose another sharer to swap with.")
E_BAD_SWAPS = _("Say how many cards each may swap: 0 or more.")
E_NOTHING_TO_SHARE = _("The Tesoro is empty and nobody may swap: there is nothing to share.")
E_KEEPER_PER_CARD = _("Name one keeper for each treasure card.")

# feed lines with plural forms: marked where the module loads, so that a process knows their forms
# before it logs one (a server just started read "2 carta")
N_SHARING = ngettext("Sharing the Tesoro among %(who)s: %(count)s random card drawn; the sharers decide "
                     "among themselves who keeps it.",
                     "Sharing the Tesoro among %(who)s: %(count)s random cards drawn; the sharers decide "
                     "among themselves who keeps them.")
N_MAY_SWAP = ngettext("%(who)s may swap up to %(swaps)s card with another sharer.",
                      "%(who)s may swap up to %(swaps)s cards with another sharer.", "swaps")


def _lock_sharing(exchange: Exchange) -> tuple[GameSession, Exchange, dict]:
    session = lock_session(GameSession(pk=exchange.session_id))
    exchange = Exchange.objects.get(pk=exchange.pk)
    if exchange.kind != SHARING or "sharing" not in exchange.chosen:
        raise SessionError(E_EXCHANGE_CLOSED)
    return session, exchange, exchange.chosen["sharing"]


def _sharer(session: GameSession, by, data: dict, character: Character) -> str:
    """The sharer's engine player, if ``by`` may act for them: their player, or the Mayor (for a
    player without a phone at hand)."""

    seat = seat_key(character.pk)
    if seat not in data["sharers"] or character.campaign_id != session.campaign_id:
        raise SessionError(E_NOT_A_SHARER % {"name": character.name})
    if not can_act_for(by, character):
        raise SessionError(E_NOT_YOUR_CHOICE)
    return seat


def _sharing_over(exchange: Exchange, data: dict, log: EventLog) -> None:
    if not any(data["left"].values()):
        exchange.status, exchange.chooser = Exchange.Status.DONE, ""
        log.decide(gettext_noop("The sharing of the Tesoro among %(who)s is over."), rules=["FR-EXCH-6"],
                   who=listed(data["names"][s] for s in data["sharers"]))


@transaction.atomic
def treasure_share_start(*, session: GameSession, by, sharers: Sequence[Character], count: int = 1,
                         swaps: int = 1, request_key: str = "") -> Exchange:
    """A treasure, loot or reward shared by protagonists (FR-EXCH-6). A lone finder keeps ``count``
    random Tesoro card(s) at once. Two or more sharers: ``count`` random card(s) are drawn (seen by
    the sharers in phase 2, by nobody in phase 1, FR-MODE-4) and the sharers decide among
    themselves who keeps each (:func:`treasure_share_vote`, on their phones); then each of the
    others may swap ``swaps`` card(s) with another sharer (:func:`treasure_share_swap`). With an
    empty Tesoro, every sharer may swap. The Mayor never takes treasure (nor does an NPC of his)."""

    session, existing = lock_for_request(session, Exchange, request_key)
    if existing is not None:
        return existing  # a double submit of the same form
    unique = list({c.pk: c for c in sharers}.values())
    if not unique:
        raise SessionError(E_NO_CHARACTERS)
    for character in unique:
        if character.kind != Character.Kind.PROTAGONIST:
            raise SessionError(E_NOT_PROTAGONIST % {"name": character.name})
    if isinstance(swaps, bool) or not isinstance(swaps, int) or swaps < 0:
        raise SessionError(E_BAD_SWAPS)
    if open_sharing(session) is not None:
        raise SessionError(E_SHARING_OPEN)
    if len(unique) == 1:
        return exchange_start(session=session, by=by, kind=Exchange.Kind.TREASURE_TAKE, first=unique[0],
                              count=count, request_key=request_key)
    state = load_state(session)
    seats = set(state.players)
    parties = [exchange_party(session, c, seats) for c in unique]
    rng, seed = new_rng()
    try:
        keys = rules_exchanges.treasure_sharers(state, [seat for seat, _name in parties])
        cards = rules_exchanges.treasure_draw(state, rng, count) if state.treasure else []
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    if not cards and not swaps:
        raise SessionError(E_NOTHING_TO_SHARE)
    names = dict(parties)
    data = {"sharers": keys, "names": names, "cards": cards, "votes": {}, "keepers": [], "swaps": swaps,
            "left": {} if cards else dict.fromkeys(keys, swaps)}
    exchange = Exchange(session=session, kind=SHARING, first=keys[0], second=keys[-1],
                        first_name=", ".join(names[k] for k in keys[:-1])[:120], second_name=names[keys[-1]],
                        step="keeper" if cards else "swap", chooser="", chosen={"sharing": data}, seed=seed,
                        request_key=request_key, created_by=by)
    exchange.save()
    log = EventLog(session, by, [])
    who = listed(names[k] for k in keys)
    if cards:
        log.decide(N_SHARING, rules=["FR-EXCH-6"], who=who, count=len(cards),
                   seed=seed)
    else:
        log.decide(gettext_noop("Sharing the Tesoro among %(who)s: the Tesoro is empty, so each may swap up to "
                                "%(swaps)s card(s) with another sharer."), rules=["FR-EXCH-6"], who=who, swaps=swaps)
    log.flush()
    return exchange


@transaction.atomic
def treasure_share_vote(*, exchange: Exchange, by, sharer: Character,
                        keepers: Sequence[Character]) -> Exchange:
    """``sharer`` names who keeps each drawn Tesoro card (FR-EXCH-6: "decidirán ellos quién se la
    queda"), on their phone or through the Mayor. When every sharer has named the same keepers the
    cards move (unseen until phase 2 if in phase 1, FR-MODE-4) and the swaps open. The same vote
    again is a no-op; a vote after the agreement is refused."""

    session, exchange, data = _lock_sharing(exchange)
    seat = _sharer(session, by, data, sharer)
    named = [seat_key(c.pk) for c in keepers]
    if data["votes"].get(seat) == named:
        return exchange  # a double submit
    if exchange.status != Exchange.Status.PENDING or exchange.step != "keeper":
        raise SessionError(E_SHARING_DECIDED if exchange.status == Exchange.Status.PENDING else E_EXCHANGE_CLOSED)
    if len(named) != len(data["cards"]):
        raise SessionError(E_KEEPER_PER_CARD)
    for character, key in zip(keepers, named, strict=True):
        if key not in data["sharers"]:
            raise SessionError(E_NOT_A_SHARER % {"name": character.name})
    votes = {**data["votes"], seat: named}
    try:
        agreed = rules_exchanges.treasure_agreement(data["sharers"], votes, len(data["cards"]))
    except RulesError as err:
        raise SessionError(rules_message(err)) from err
    names = data["names"]
    data = {**data, "votes": votes}
    log = EventLog(session, by, [])
    # which card to whom, by its place, as the agreement says it ("keep(s) the Tesoro card(s)")
    log.decide(gettext_noop("%(who)s says: %(keepers)s."), rules=["FR-EXCH-6"], who=names[seat],
               keepers=[msg(gettext_noop("card %(n)s to %(who)s"), n=n, who=names[k]) for n, k in enumerate(named, start=1)])
    if agreed is not None:
        before = load_state(session)
        try:
            after, events = rules_exchanges.treasure_keep(before, agreed, data["cards"])
        except RulesError as err:
            raise SessionError(rules_message(err)) from err
        save_state(session, after)
        log.cards(events, before, after)
        swappers = rules_exchanges.treasure_swappers(data["sharers"], agreed)
        data["keepers"], data["left"] = agreed, {s: data["swaps"] for s in swappers}
        # which card goes to whom, by its place in the sharing (the feed names no card)
        log.decide(gettext_noop("The sharers agree: %(keepers)s."), rules=["FR-EXCH-6"],
                   keepers=[msg(gettext_noop("card %(n)s to %(who)s"), n=n, who=names[k])
                            for n, k in enumerate(agreed, start=1)])
        for swapper in swappers if data["swaps"] else ():  # one line each: "X may each swap" read wrong for one
            log.decide(N_MAY_SWAP, rules=["FR-EXCH-6"], who=names[swapper], swaps=data["swaps"])
        exchange.step = "swap"
        _sharing_over(exchange, data, log)
    exchange.chosen = {"sharing": data}
    exchange.save(update_fields=["chosen", "step", "status", "chooser"])
    log.flush()
    return exchange


@transaction.atomic
def treasure_share_swap(*, exchange: Exchange, by, sharer: Character, partner: Character | None,
                        request_key: str = "") -> Exchange:
    """One of the other sharers swaps a card with another sharer, or lets it go (``partner`` None)
    (FR-EXCH-6). A swap is a :data:`Exchange.Kind.TREASURE_SWAP` in which each of the two chooses
    the card they give, on their own phone. ``request_key`` makes a double tap a no-op."""
    session, exchange, data = _lock_sharing(exchange)
    seat = _sharer(session, by, data, sharer)
    if request_key and Exchange.objects.filter(session=session, request_key=request_key).exists():
        return exchange  # this swap was already opened
    if exchange.step != "swap":
        raise SessionError(E_SHARING_NOT_YET if exchange.status == Exchange.Status.PENDING else E_EXCHANGE_CLOSED)
    left = data["left"].get(seat, 0)
    if partner is None and not left:
        return exchange  # "no swap" again
    if exchange.status != Exchange.Status.PENDING:
        raise SessionError(E_EXCHANGE_CLOSED)
    if not left:
        raise SessionError(E_NO_SWAP_LEFT % {"name": data["names"].get(seat, sharer.name)})
    names = data["names"]
    data = {**data, "left": {**data["left"]}}
    log = EventLog(session, by, [])
    if partner is None:
        data["left"][seat] = 0
        log.decide(gettext_noop("%(who)s does not swap any card."), rules=["FR-EXCH-6"], who=names[seat])
    else:
        other = seat_key(partner.pk)
        if other == seat or other not in data["sharers"]:
            raise SessionError(E_SWAP_PARTNER)
        open_exchange(session, by, log, Exchange.Kind.TREASURE_SWAP, seat, names[seat], other, names[other],
                       request_key=request_key)
        data["left"][seat] = left - 1
    _sharing_over(exchange, data, log)
    exchange.chosen = {"sharing": data}
    exchange.save(update_fields=["chosen", "status", "chooser"])
    log.flush()
    return exchange
