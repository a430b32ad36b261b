"""Open card exchanges and treasure sharings, with the cards each chooser may pick among."""

from __future__ import annotations

from functools import cache

from django.utils.text import capfirst
from django.utils.translation import gettext, gettext_noop

from frontera.messages import names_text
from frontera.play.models import MAYOR_SEAT, Exchange, GameSession, seat_key
from frontera.play.selectors.core import Viewer, card_view, render_message
from frontera.play.services.exchanges import EXCHANGE_LABELS, EXCHANGE_RULES, exchange_choices
from frontera.rules import exchanges as rules_exchanges
from frontera.rules.errors import RulesError
from frontera.sql import column, load, table

EXCHANGE_HINTS = {
    ("bet", "take"): gettext_noop("%(chooser)s chooses the card of %(other)s's deck to keep."),
    ("bet", "give"): gettext_noop("%(chooser)s chooses one of their own cards to give to %(other)s."),
    ("cheat", "take"): gettext_noop("%(chooser)s chooses the card of %(other)s's deck to keep; nothing goes back."),
    ("duel", "take"): gettext_noop("%(chooser)s may choose up to 2 cards of %(other)s's deck."),
    ("duel", "give"): gettext_noop("%(chooser)s chooses as many of their own cards to give back to %(other)s."),
    ("treasure_swap", "give"): gettext_noop("%(chooser)s chooses one of their own cards to give to %(other)s."),
    ("treasure_swap", "give_b"): gettext_noop("%(chooser)s chooses one of their own cards to give to %(other)s."),
    ("coma", "give"): gettext_noop("The Mayor chooses one of his cards to give back to %(other)s."),
}


def pending_exchanges(session: GameSession) -> list[Exchange]:
    """The session's pending exchanges, oldest first (:func:`frontera.sql.load`: the queryset took
    ~0.3 ms to build for every whole page; issue #11)."""
    return load(Exchange, _pending_sql(), (session.pk, Exchange.Status.PENDING))


@cache
def _pending_sql() -> str:
    return (f"SELECT * FROM {table(Exchange)} WHERE {column(Exchange, 'session')} = %s "
            f"AND {column(Exchange, 'status')} = %s ORDER BY {column(Exchange, 'pk')}")


def exchanges_view(session: GameSession, viewer: Viewer, state, pending: list[Exchange] | None = None) -> list[dict]:
    """Pending card exchanges (FR-EXCH): who must choose and, for whoever may choose now (the
    chooser on their phone, or the Mayor acting for anyone), the cards offered — by face only the
    cards both the chooser and the viewer may see (FR-EXCH-7, FR-MODE-2), the rest face down by
    position. A player sees only the exchanges their characters take part in. ``pending``: what
    :func:`pending_exchanges` read (shared by every viewer of one state), else read now."""
    rows = []
    for exchange in pending if pending is not None else pending_exchanges(session):
        if exchange.kind == Exchange.Kind.TREASURE_TAKE:  # a sharing among several protagonists
            row = sharing_row(exchange, viewer, state)
            if row is not None:
                rows.append(row)
            continue
        involved = {exchange.first, exchange.second} & viewer.seats
        if not viewer.is_mayor and not involved:
            continue
        names = {seat: gettext(name) if seat == MAYOR_SEAT else name
                 for seat, name in ((exchange.first, exchange.first_name), (exchange.second, exchange.second_name))}
        chooser = exchange.chooser
        other = exchange.second if chooser == exchange.first else exchange.first
        actor = chooser if chooser in viewer.seats else (MAYOR_SEAT if viewer.is_mayor else None)
        options, error = [], ""
        if actor is not None and chooser in state.players and other in state.players:
            try:
                options = [{"value": o["value"], "card": card_view(o["uid"]) if o["uid"] else None,
                            "position": o["value"][1:] if not o["uid"] else ""}
                           for o in exchange_choices(state, exchange, actor)]
            except RulesError:
                options = []
        if exchange.kind == Exchange.Kind.DUEL and exchange.step == "take":
            most = 2
        elif exchange.kind == Exchange.Kind.DUEL:
            most = min(len(exchange.chosen.get("take", [])), len(options))
        else:
            most = 1 if options else 0
        rows.append({
            # its heading: "Apuesta · Clementine y Djamal" (it read "apuesta: Clementine · Djamal", and a
            # treasure swap "Tesoro: cambio: …")
            "pk": exchange.pk, "kind": exchange.kind,
            "kind_label": capfirst(gettext(EXCHANGE_LABELS[exchange.kind])) if exchange.kind in EXCHANGE_LABELS
            else capfirst(exchange.get_kind_display()),
            "who": names_text([names[exchange.first], names[exchange.second]]),
            "step": exchange.step, "a": names[exchange.first], "b": names[exchange.second],
            "chooser": names[chooser],
            "hint": render_message(EXCHANGE_HINTS[(exchange.kind, exchange.step)],
                                   {"chooser": names[chooser], "other": names[other]}),
            "can_choose": actor is not None, "acting_for": actor == MAYOR_SEAT and chooser != MAYOR_SEAT,
            "options": options, "most": most, "multiple": most > 1, "error": error,
            # a duel's winner gives back exactly as many as taken ("up to 2" was refused for 1)
            "exact": exchange.kind == Exchange.Kind.DUEL and exchange.step != "take",
            "rules": ", ".join(EXCHANGE_RULES[exchange.kind]),
        })
    return rows


def sharing_row(exchange: Exchange, viewer: Viewer, state) -> dict | None:
    """A treasure being shared (FR-EXCH-6), for its sharers' players and the Mayor only: the cards
    drawn — by face only to a sharer's player in phase 2 (``treasure_sharers_see``), face down in
    phase 1 (FR-MODE-4) and always to the Mayor, who takes no part —, who named whom, and a form
    for each sharer the viewer may act for (their own; the Mayor: anyone, for a player without a
    phone): naming the keepers, then swapping a card with another sharer or not."""

    data = exchange.chosen.get("sharing")
    if not data:
        return None
    sharers, names = data["sharers"], data["names"]
    mine = [s for s in sharers if s in viewer.seats]
    if not viewer.is_mayor and not mine:
        return None
    see = bool(mine) and rules_exchanges.treasure_sharers_see(state)
    cards = [{"n": i + 1, "card": card_view(uid) if see and uid in state.treasure else None}
             for i, uid in enumerate(data["cards"])]
    people = [(int(s[1:]), names[s]) for s in sharers]
    votes = [{"name": names[s], "named": [names[k] for k in data["votes"].get(s, [])]} for s in sharers]
    forms = []
    for s in (sharers if viewer.is_mayor else mine):
        acting_for = s not in viewer.seats
        if exchange.step == "keeper":
            current = data["votes"].get(s, [])
            forms.append({"pk": int(s[1:]), "name": names[s], "acting_for": acting_for, "slots": [
                # the card by its face where the viewer sees it ("card 1" beside a face-up 3♦)
                {"n": c["n"], "card": c["card"]["label"] if c["card"] else "",
                 "choices": [(pk, name, bool(current) and current[c["n"] - 1] == seat_key(pk))
                                          for pk, name in people]} for c in cards]})
        elif data["left"].get(s, 0) > 0:
            forms.append({"pk": int(s[1:]), "name": names[s], "acting_for": acting_for, "left": data["left"][s],
                          "request_key": f"share-{exchange.pk}-{s}-{data['left'][s]}",
                          "partners": [(pk, name) for pk, name in people if seat_key(pk) != s]})
    swappers = [{"name": names[s], "left": n} for s, n in data["left"].items()]
    return {"pk": exchange.pk, "sharing": True, "step": exchange.step, "names": [n for _pk, n in people],
            "who": names_text([n for _pk, n in people]),
            "cards": cards, "votes": votes, "keepers": list(dict.fromkeys(names[k] for k in data["keepers"])),
            "swappers": swappers, "forms": forms, "rules": "FR-EXCH-6", "can_choose": bool(forms)}
