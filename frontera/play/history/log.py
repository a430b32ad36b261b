"""The session's log as a viewer reads it: filters (a card, a character, a kind, a check, a fight's
turn), its pages and its CSV/JSON exports. A constant number of queries, whatever the log's length."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from frontera.characters.models import Character
from frontera.play.history.rows import (
    SEAT_ZONE_LABELS,
    HistoryViewer,
    Names,
    event_row,
    history_viewer,
    may_see,
    names_of,
)
from frontera.play.models import MAYOR_SEAT, Check, CombatRound, GameSession, Participant, Seat, SessionEvent
from frontera.play.selectors.checks import check_label
from frontera.play.services.combat import FIGHT_BEGINS, FIGHT_OVER, FIGHT_TURN
from frontera.rules.cards import SUIT_SYMBOL, Card
from frontera.rules.errors import RulesError

PAGE_SIZE = 100
E_BAD_CARD = gettext_noop("“%(card)s” is not a card of this session.")
E_CARD_HOW = gettext_noop("Write a card like Q ♥ or queen of hearts (of deck 2: 2:Q ♥).")
CARD_TYPED = 30  # "2: reina de corazones" and the like
E_BAD_FILTER = gettext_noop("That filter does not exist here; the whole log is shown.")
SYMBOL_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}


# A card said in words, in either language ("Q de corazones", "as de picas", "queen of hearts"): what a
# phone's keyboard types without hunting for "♥"; accents and case do not matter.
RANK_WORDS = {"as": "A", "ace": "A", "rey": "K", "king": "K", "reina": "Q", "dama": "Q", "queen": "Q",
              "jota": "J", "sota": "J", "jack": "J", "joker": "JK", "comodin": "JK",
              **{word: str(n) for n, words in enumerate((("dos", "two"), ("tres", "three"), ("cuatro", "four"),
                                                         ("cinco", "five"), ("seis", "six"), ("siete", "seven"),
                                                         ("ocho", "eight"), ("nueve", "nine"), ("diez", "ten")),
                                                        start=2) for word in words}}
SUIT_WORDS = {"pica": "S", "picas": "S", "spade": "S", "spades": "S", "corazon": "H", "corazones": "H",
              "heart": "H", "hearts": "H", "trebol": "C", "treboles": "C", "club": "C", "clubs": "C",
              "diamante": "D", "diamantes": "D", "diamond": "D", "diamonds": "D"}
LINK_WORDS = {"de", "del", "of", "the", "el", "la"}


def _from_words(text: str) -> str:
    """``text`` with a card's words put as its code's parts: "reina de corazones" → "Q H"."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))
    return " ".join(RANK_WORDS.get(w) or SUIT_WORDS.get(w) or w for w in plain.split() if w not in LINK_WORDS)


# what phone keyboards type for a suit: the emoji's presentation selectors, and the white suits
KEYBOARD_SUITS = str.maketrans({"\ufe0f": None, "\ufe0e": None, "♤": "♠", "♡": "♥", "♧": "♣", "♢": "♦"})


def _uids(text: str, decks: int) -> list[str]:
    code = "".join(text.translate(KEYBOARD_SUITS).split()).upper()  # "Q ♥" as well as "Q♥", "Q♥️", "Q♡"
    for symbol, suit in SYMBOL_SUIT.items():
        code = code.replace(symbol, suit)
    if ":" in code:
        return [Card.from_uid(code).uid]
    card = Card.parse(code)
    decks = max(decks or 1, 1)
    if card.is_joker:
        return [f"{d}:JK{c}" for d in range(1, decks + 1) for c in (1, 2)]
    return [Card.parse(code, deck=d).uid for d in range(1, decks + 1)]


def card_uids(text: str, decks: int) -> list[str]:
    """The cards a filter names: a uid (``1:7H``), or a code (``7H``, ``7♥``, ``7 ♥``, ``JK``) in every deck of
    the session, or the same in words ("Q de corazones", "2: as de picas", "queen of hearts"). Raises
    :class:`RulesError` for anything else."""
    try:
        return _uids(text, decks)  # a code first: "AS" is the A♠, not the Spanish "as" (ace)
    except RulesError:
        deck, colon, card = text.rpartition(":")
        return _uids(f"{deck}{colon}{_from_words(card)}", decks)


CHECK_KINDS = {Check.Kind.TRAIT: gettext_noop("Trait check"), Check.Kind.OPPOSED: gettext_noop("Opposed check")}


@dataclass
class Filters:
    card: str = ""
    typed: str = ""  # what the card box held, a card or not
    uids: list[str] = field(default_factory=list)
    who: str = ""  # "mayor" or a character id
    kind: str = ""
    check: int | None = None
    round: str = ""  # "<combat id>-<turn>"
    errors: list[str] = field(default_factory=list)

    def query(self) -> dict:
        """The filters as GET parameters (for paging and export links)."""
        data = {"card": self.card, "who": self.who, "kind": self.kind,
                "check": str(self.check) if self.check else "", "round": self.round}
        return {k: v for k, v in data.items() if v}


def fight_turns(session: GameSession) -> list[dict]:
    """Every turn of every fight, as a range of event ids, from the decisions that start a fight,
    a turn and end it (one fight at a time: the n-th "fight begins" is the n-th CombatRound)."""
    combats = list(CombatRound.objects.filter(session=session).order_by("pk").values_list("pk", flat=True))
    marks = SessionEvent.objects.filter(
        session=session, kind=SessionEvent.Kind.DECISION, message__in=[FIGHT_BEGINS, FIGHT_TURN, FIGHT_OVER]
    ).order_by("pk").values_list("pk", "message", "params")
    turns: list[dict] = []
    fight = 0
    for pk, message, params in marks:
        if turns and turns[-1]["end"] is None:
            turns[-1]["end"] = pk - 1 if message != FIGHT_OVER else pk
        if message == FIGHT_BEGINS:
            fight += 1
            combat = combats[fight - 1] if fight <= len(combats) else fight
            turns.append({"combat": combat, "fight": fight, "turn": 1, "start": pk, "end": None})
        elif message == FIGHT_TURN and turns:
            turns.append({"combat": turns[-1]["combat"], "fight": fight, "turn": int(params.get("turn", 0)),
                          "start": pk, "end": None})
    for t in turns:
        t["value"] = f"{t['combat']}-{t['turn']}"
        t["label"] = gettext("Fight %(fight)s, turn %(turn)s") % {"fight": t["fight"], "turn": t["turn"]}
    return turns


def parse_filters(session: GameSession, data, turns: list[dict], who_allowed: set[str]) -> Filters:
    """Filters from GET data; a bad value is dropped with a message (nothing else changes).
    ``who_allowed``: the character filters this viewer is offered (:func:`who_choices`); any other
    id is refused alike, so the filter never tells a player which ids are the Mayor's NPCs."""
    f = Filters()
    card = (data.get("card") or "").strip()
    if card:
        f.typed = card[:CARD_TYPED]  # kept in the box, to be mended, when it names no card
        try:
            f.uids = card_uids(card, session.decks)
            f.card = card[:CARD_TYPED]
        except RulesError:
            f.errors.append(gettext(E_BAD_CARD) % {"card": card[:CARD_TYPED]} + " " + gettext(E_CARD_HOW))
    who = (data.get("who") or "").strip()
    if who in who_allowed:
        f.who = who
    elif who:
        f.errors.append(gettext(E_BAD_FILTER))
    kind = (data.get("kind") or "").strip()
    if kind in SessionEvent.Kind.values:
        f.kind = kind
    elif kind:
        f.errors.append(gettext(E_BAD_FILTER))
    check = (data.get("check") or "").strip()
    if check.isdigit() and Check.objects.filter(pk=int(check), session=session).exists():
        f.check = int(check)
    elif check:
        f.errors.append(gettext(E_BAD_FILTER))
    rnd = (data.get("round") or "").strip()
    if rnd and any(t["value"] == rnd for t in turns):
        f.round = rnd
    elif rnd:
        f.errors.append(gettext(E_BAD_FILTER))
    return f


NAME_PARAMS = ("who", "target", "patient", "healer")  # decision parameters that name a character


def filtered_events(session: GameSession, viewer: HistoryViewer, f: Filters, turns: list[dict],
                    names: Names | None = None):
    """The session's events in order with the filters applied. A card filter matches only the
    events where the viewer may see that card (so it can never tell where a hidden card went)."""
    qs = SessionEvent.objects.filter(session=session)
    if f.kind:
        qs = qs.filter(kind=f.kind)
    if f.check:
        qs = qs.filter(prueba_id=f.check)
    if f.round:
        turn = next(t for t in turns if t["value"] == f.round)
        qs = qs.filter(pk__gte=turn["start"])
        if turn["end"] is not None:
            qs = qs.filter(pk__lte=turn["end"])
    if f.who:
        seat = MAYOR_SEAT if f.who == MAYOR_SEAT else f"c{f.who}"
        zones = [f"{kind}:{seat}" for kind in SEAT_ZONE_LABELS]
        who_q = Q(from_zone__in=zones) | Q(to_zone__in=zones)
        if f.who != MAYOR_SEAT:
            checks = Participant.objects.filter(prueba__session=session, character_id=int(f.who)).values("prueba_id")
            who_q |= Q(prueba_id__in=checks)
            character = (names or names_of(session)).characters.get(int(f.who))
            if character is not None:  # the decisions that name them (a track change, a hit...)
                for key in NAME_PARAMS:
                    who_q |= Q(kind=SessionEvent.Kind.DECISION, **{f"params__{key}": character.name})
        qs = qs.filter(who_q)
    if f.card:
        qs = qs.filter(kind=SessionEvent.Kind.CARD, card__in=f.uids)
        if not viewer.full:
            rows = qs.values_list("pk", "card", "seen_by", "reason", "prueba_id")
            qs = SessionEvent.objects.filter(pk__in=[pk for pk, *rest in rows if may_see(viewer, *rest)])
    return qs.order_by("pk")


def who_choices(session: GameSession, viewer: HistoryViewer, names: Names) -> list[tuple[str, str]]:
    """Filter choices: the protagonists present (with their player), the Mayor, and for the Mayor
    the NPCs and minions too (a player never learns of an NPC from here, FR-CHAR-6)."""
    seats = Seat.objects.filter(session=session).values_list("character_id", flat=True)
    choices = []
    for pk in seats:
        c = names.characters.get(pk)
        if c is not None:
            choices.append((str(pk), f"{c.name} ({c.owner.get_username()})"))
    choices.append((MAYOR_SEAT, gettext("the Mayor")))
    if viewer.is_mayor:
        choices += sorted(((str(c.pk), c.name) for c in names.characters.values()
                           if c.kind != Character.Kind.PROTAGONIST), key=lambda x: x[1])
    return choices


def history_page(session: GameSession, user, data) -> dict:
    """The history page: one page of events (``PAGE_SIZE``), the filters and their choices."""
    viewer = history_viewer(session, user)
    names = names_of(session)
    turns = fight_turns(session)
    who = who_choices(session, viewer, names)
    f = parse_filters(session, data, turns, {value for value, _label in who})
    page = Paginator(filtered_events(session, viewer, f, turns, names).select_related("actor"), PAGE_SIZE).get_page(
        data.get("page"))
    # each check by its label in the reader's language (a message the table wrote, a msgid, or the
    # Mayor's own words), else by its kind: the table's own labels (a medical attention, a banca) were
    # left out, so those checks had no title at all
    checks = [(pk, check_label(Check(label=label, label_msg=label_msg)) or gettext(CHECK_KINDS[kind]))
              for pk, kind, label, label_msg in Check.objects.filter(session=session).order_by("pk")
              .values_list("pk", "kind", "label", "label_msg")]
    return {
        "session": session, "campaign": session.campaign, "is_mayor": viewer.is_mayor, "full": viewer.full,
        "ended": session.status == GameSession.Status.ENDED,
        "page": page, "events": [event_row(e, viewer, names) for e in page.object_list],
        "filters": f, "query": urlencode(f.query()),
        "who_choices": who,
        "check_choices": [(pk, label) for pk, label in checks],
        "round_choices": [(t["value"], t["label"]) for t in turns],
    }


def export_rows(session: GameSession, user, data):
    """Every event (filtered like the page) as plain dicts for CSV/JSON, redacted like the page;
    an iterator over the log in chunks, so a long session is not held in memory."""
    viewer = history_viewer(session, user)
    names = names_of(session)
    turns = fight_turns(session)
    f = parse_filters(session, data, turns, {value for value, _label in who_choices(session, viewer, names)})
    qs = filtered_events(session, viewer, f, turns, names).select_related("actor")
    for e in qs.iterator(chunk_size=500):
        row = event_row(e, viewer, names)
        yield {
            # the time the page shows (the site's zone, with its offset), not UTC's
            "id": row["pk"], "at": timezone.localtime(row["at"]).isoformat(), "kind": row["kind"], "actor": row["actor"],
            "check": row["prueba"], "card": row["card"]["label"] if row["card"] else "",
            "card_uid": row["uid"], "hidden": e.kind == SessionEvent.Kind.CARD and row["card"] is None,
            "from": row["from"], "to": row["to"], "reason": row["reason"], "text": row["text"],
            "rules": row["rules"],
        }
