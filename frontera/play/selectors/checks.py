"""Open and recent checks as a viewer may see them, with the holder's exact odds over the cards they
have not seen (FR-ODDS-1 generalised)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from django.db import connection
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop, pgettext

from frontera import glossary
from frontera.characters.models import Character
from frontera.play.models import CONTEST_KINDS, Check, Gamble, GameSession, Participant, PistolDuel
from frontera.play.selectors.core import (
    Viewer,
    card_view,
    cards_view,
    render_message,
    seen_cards,
    unseen_cards,
)
from frontera.play.services.checks import why
from frontera.play.services.core import OUTCOME_LABELS
from frontera.rules import checks as rules_checks
from frontera.rules import odds as rules_odds
from frontera.rules import session as rules_session
from frontera.rules.cards import SUIT_SYMBOL, TRAIT_SUIT, Card
from frontera.rules.checks import RIGHT_COLOUR, RIGHT_SUIT
from frontera.rules.errors import RulesError
from frontera.sql import column, load, table

RECENT_CHECKS = 6
PHONE_RECENT_CHECKS = 2


def _percent(value: Fraction) -> str:
    """A probability as a percentage with one decimal, written as the reader's language writes it
    ("67,0" in Spanish, "67.0" in English)."""
    return number_format(round(float(value) * 100, 1), 1)  # (number_format cuts the digits it drops)


def holds(p: Participant, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees a participant's drawn cards: the character's player, or the Mayor for
    his own seat and for a draw he made himself (the rule of ``services.checks._holds_drawn``)."""
    return p.seat in viewer.seats or (viewer.is_mayor and p.drawn_by_id == viewer.user.pk)


class _Knowledge:
    """What one viewer knows of the cards while a page is built: computed once, when odds are due."""

    def __init__(self, state, viewer: Viewer, checks) -> None:
        self.state, self.viewer, self.checks = state, viewer, checks
        self._unseen = None

    def unseen(self) -> tuple[frozenset[str], list[str]]:
        if self._unseen is None:
            held = [uid for prueba in self.checks for p in prueba.listed
                    if p.status != Check.Status.RESOLVED and holds(p, self.viewer) for uid in p.drawn]
            seen = seen_cards(self.state, self.viewer, held)
            self._unseen = (seen, unseen_cards(self.state, seen))
        return self._unseen


def _source(cards, zone: str, seen: frozenset[str]) -> rules_odds.Source:
    known = tuple(uid for uid in cards if uid in seen)
    return rules_odds.Source(known=known, hidden=len(cards) - len(known), zone=zone)


def _party(state, p: Participant, seen: frozenset[str]) -> rules_odds.Party:
    """A participant's draw as the viewer knows it: where the cards will come from, or the hand
    drawn (its cards the viewer does not hold stay hidden), or the card played if the viewer sees it."""
    if p.status == Check.Status.REQUESTED:
        if p.cards <= 0:
            return rules_odds.Party(rules_odds.Source(), 0, p.trait)
        zone, cards = rules_session.draw_zone(state, p.seat, p.cards)
        return rules_odds.Party(_source(cards, zone, seen), p.cards, p.trait)
    if p.played and p.played in seen:
        return rules_odds.Party(rules_odds.Source(known=(p.played,)), 1, p.trait)
    return rules_odds.Party(_source(p.drawn, f"pending:{p.pk}", seen), len(p.drawn), p.trait)


def _odds(knowledge: _Knowledge, prueba: Check, p: Participant, participants: list) -> dict | None:
    """FR-ODDS-1 generalised: the holder's exact odds over the cards they have not seen, never over
    the real hidden order or contents. A trait check: Éxito / Éxito parcial / Fracaso before drawing;
    an opposed check (FR-OPP-1..5): win / Tablas / lose, before drawing and while choosing."""
    seen, unseen = knowledge.unseen()
    state = knowledge.state
    try:
        if prueba.kind == Check.Kind.OPPOSED:
            rivals = [_party(state, r, seen) for r in participants if r.pk != p.pk]
            odds = rules_odds.opposed_odds_seen(unseen, _party(state, p, seen), rivals)
            if odds is None:
                return None
            return {"opposed": True, **{key: _percent(value) for key, value in odds.items()}}
        zone, cards = rules_session.draw_zone(state, p.seat, p.cards)
        source = _source(cards, zone, seen)
        odds = rules_odds.check_odds_seen(source, unseen, p.cards, p.trait, prueba.difficulty)
    except RulesError:
        return None
    return {key: _percent(value) for key, value in odds.items()}


def _odds_due(p: Participant, prueba: Check, viewer: Viewer) -> bool:
    if prueba.status == Check.Status.RESOLVED or p.seat not in viewer.seats or p.cards <= 0:
        return False
    if p.status == Check.Status.REQUESTED:
        return True
    return prueba.kind == Check.Kind.OPPOSED and p.status == Check.Status.DRAWN


def check_label(prueba: Check) -> str:
    """A label the table wrote, in the reader's language; else the Mayor's words (or a msgid: azar)."""
    if prueba.label_msg:
        params = dict(prueba.label_msg)
        return render_message(params.pop("_msg"), params)
    return gettext(prueba.label) if prueba.label else ""


def _participant_row(p: Participant, prueba: Check, viewer: Viewer, knowledge: _Knowledge,
                     participants: list[Participant]) -> dict:
    held = holds(p, viewer)
    can_act = viewer.is_mayor or p.seat in viewer.seats
    # A withdrawn check is closed (status resolved) but revealed nothing: its drawn cards, and an opposed
    # check's face-down choices, went back unrevealed (services.check_withdrawal, FR-MODE-7).
    # None of them is shown, as drawn or as played, to anyone.
    revealed = p.status == Check.Status.RESOLVED and not prueba.withdrawn
    drawn = cards_view(p.drawn) if held and p.status != Check.Status.REQUESTED and not prueba.withdrawn else []
    choosing = can_act and held and p.status == Check.Status.DRAWN
    if choosing:
        drawn = _reads(drawn, p.trait, prueba)
    played = card_view(p.played, p.declared) if p.played and not prueba.withdrawn and (held or revealed) else None
    return {
        "pk": p.pk,
        "name": p.character.name,
        "kind": p.character.kind,
        "what": _what(p),
        "cards": max(p.cards, 0),  # a sum below 0 draws none ("-1 cartas" on an automatic failure)
        "status": p.status,
        "drawn_count": 0 if prueba.withdrawn else len(p.drawn),
        "drawn": drawn,
        "has_joker": any(c["is_joker"] for c in drawn),
        "played": played,
        "outcome": p.outcome,
        "outcome_label": gettext(OUTCOME_LABELS[p.outcome]) if p.outcome else "",
        "why": _why(p, prueba) if revealed and p.played and prueba.kind == Check.Kind.TRAIT else
        _opposed_why(p) if revealed and p.played else (
            # no card to draw (FR-CHK-1, FR-MODE-8): "0 cartas · Fracaso" said nothing of why
            gettext("no card to draw, so it fails without drawing") if p.outcome == "failure" and not p.played
            and not prueba.withdrawn else ""),
        # a drawn participant's next step ("1 carta · robadas" read wrong): "to choose"
        "status_label": gettext("withdrawn") if prueba.withdrawn else (
            pgettext("a participant's status", "to choose") if p.status == Check.Status.DRAWN
            else p.get_status_display()),
        "can_draw": can_act and p.status == Check.Status.REQUESTED,
        # fewer cards to draw from than the check allows (FR-MODE-8): the button said "Robar 6 cartas"
        # and 5 were drawn; a zone's size is public
        "short": _short(knowledge.state, p) if can_act and p.status == Check.Status.REQUESTED else None,
        # the Mayor drawing for a player's protagonist (a player without a phone): he will see the cards
        "draws_for_player": viewer.is_mayor and p.seat not in viewer.seats
        and p.character.kind == Character.Kind.PROTAGONIST,
        "can_choose": choosing,
        "counts": _counts(p.trait) if choosing else "",
        "mine": p.seat in viewer.seats,
        "odds": _odds(knowledge, prueba, p, participants) if _odds_due(p, prueba, viewer) else None,
    }


# what a card does if played, by its strength in an opposed check (FR-OPP-2..4)
STRENGTH_LABELS = {RIGHT_SUIT: gettext_noop("your suit"), RIGHT_COLOUR: gettext_noop("your colour"),
                   0: gettext_noop("neither suit nor colour")}
STRENGTH_CSS = {RIGHT_SUIT: "success", RIGHT_COLOUR: "partial", 0: "failure"}


def _reads(cards: list[dict], trait: str, prueba: Check) -> list[dict]:
    """Each card of the hand to choose from with what it does if played, for whoever chooses (they
    see these cards): its outcome in a trait check (FR-CHK-3, FR-CHK-4), or in an opposed check
    whether it has the trait's suit, its colour or neither (FR-OPP-2..4). A joker reads as played
    with the trait's suit (FR-CARD-2). A walk through an evening found a player who held the right
    suit play another card: nothing said which suit counts."""
    right = TRAIT_SUIT[trait]
    read = []
    for card in cards:
        face = Card.from_uid(card["uid"])
        suit, value = (right, 15) if face.is_joker else (face.suit, face.value)
        if prueba.kind == Check.Kind.TRAIT:
            outcome = rules_checks.outcome_for(suit, value, right, prueba.difficulty)
            read.append({**card, "reads": gettext(OUTCOME_LABELS[outcome]), "reads_css": outcome})
        else:
            tier = rules_checks.strength_for(suit, value, right)[0]
            read.append({**card, "reads": gettext(STRENGTH_LABELS[tier]), "reads_css": STRENGTH_CSS[tier]})
    return read


def _counts(trait: str) -> str:
    """Which suit the check counts, for the one who chooses ("♦ counts (Cabeza)")."""
    return gettext("%(suit)s counts (%(trait)s)") % {"suit": SUIT_SYMBOL[TRAIT_SUIT[trait]],
                                                     "trait": glossary.name("trait", trait)}


def _why(p: Participant, prueba: Check) -> str:
    card = Card.from_uid(p.played)
    card = card.declare(p.declared) if p.declared else card
    explained = why(card, p.trait, prueba.difficulty, p.outcome)
    return render_message(explained["_msg"], {k: v for k, v in explained.items() if k != "_msg"})


def _short(state, p: Participant) -> int | None:
    """How many cards a draw would find, when fewer than the participant's (FR-MODE-8), else None."""
    if p.cards <= 0 or p.seat not in state.players:
        return None
    found = len(rules_session.draw_source(state, p.seat, p.cards))
    return found if found < p.cards else None


def _opposed_why(p: Participant) -> str:
    """What a revealed opposed card counted as for its player (FR-OPP-2..5): their trait's suit or
    colour and its value, or neither; "gana" / "pierde" said nothing of why."""
    card = Card.from_uid(p.played)
    card = card.declare(p.declared) if p.declared else card
    grade, value = rules_checks.opposed_strength(p.trait, card)
    trait = glossary.name("trait", p.trait)
    if grade == RIGHT_SUIT:
        return gettext("the suit of %(trait)s, value %(value)s") % {"trait": trait, "value": value}
    if grade == RIGHT_COLOUR:
        return gettext("the colour of %(trait)s, value %(value)s") % {"trait": trait, "value": value}
    return gettext("neither the suit nor the colour of %(trait)s") % {"trait": trait}


def _what(p: Participant) -> str:
    name = glossary.name("trait", p.trait)
    return f"{name} ({glossary.name('skill', p.skill)})" if p.skill else name


def check_rows(checks, viewer: Viewer, state, *, only_seats: set[str] | None = None) -> list[dict]:
    rows = []
    knowledge = _Knowledge(state, viewer, checks)
    for prueba in checks:
        participants = prueba.listed
        if only_seats is not None and not any(p.seat in only_seats for p in participants):
            continue
        rows.append({
            "pk": prueba.pk,
            "kind": prueba.kind,
            "label": check_label(prueba),
            "difficulty": prueba.difficulty,
            "status": prueba.status,
            "open": prueba.status != Check.Status.RESOLVED,
            "withdrawn": prueba.withdrawn,
            "can_withdraw": viewer.is_mayor and prueba.status != Check.Status.RESOLVED and not getattr(prueba, "owned", True),
            "calls_off_a_game": bool(getattr(prueba, "contest", False)),
            "calls_off_a_duel": bool(getattr(prueba, "duel", False)),
            # "Again…" refills the call dialog: for the Mayor's own trait checks, not for one a table
            # action made (medical attention, a banca's attempt to leave: its title is the table's),
            # which the dialog would repeat as a bare check
            "can_repeat": viewer.is_mayor and prueba.kind == Check.Kind.TRAIT and not prueba.label_msg,
            "participants": (rows_of := [_participant_row(p, prueba, viewer, knowledge, participants)
                                         for p in participants]),
            # a player's view of another's check: no form, no card or odds of their own in it, so
            # every such player's article of it is the same (templates/play/_checks_list.html)
            "theirs": not viewer.is_mayor and not any(p["mine"] for p in rows_of),
        })
    return rows


def session_checks(session: GameSession, *, withdrawals: bool = True):
    """The session's open checks (oldest first) and its latest resolved ones, each with its
    participants in ``listed`` (oldest first).

    Two statements, run for every action's answer and every page that shows checks (issue #11):
    both lists at once (the open checks, and the last :data:`RECENT_CHECKS` resolved), then their
    participants with each one's character's name and kind, all a check's rows show of it. Both are
    written as SQL and loaded as models (:func:`frontera.sql.load`): the querysets took ~1 ms
    each to build for ~0.05 ms statements, and a ``prefetch_related`` built a queryset per check.

    Each open check knows whether another action waits on it (``owned``: a banca's attempt to
    leave), which calls it off through that action, not withdrawn on its own; and whether it is an
    azar or habilidad contest (``contest``) or a pistol duel's round (``duel``), withdrawn with its
    game or duel.
    Only the Mayor withdraws a check: a player's page asks ``withdrawals=False`` and the statement
    leaves that out (every check then counts as owned, so none offers a withdrawal)."""
    resolved = Check.Status.RESOLVED
    checks = load(Check, _checks_sql(withdrawals), (session.pk, resolved, session.pk, resolved, RECENT_CHECKS))
    listed: dict[int, list[Participant]] = {prueba.pk: [] for prueba in checks}
    if checks:
        for participant in load(Participant, _participants_sql(len(listed)), list(listed)):
            participant.character = Character.from_db(
                Participant.objects.db, ["id", "kind", "name"],
                (participant.character_id, participant.character_kind, participant.character_name))
            listed[participant.prueba_id].append(participant)
    for prueba in checks:
        prueba.listed = listed[prueba.pk]
        # resolved: nothing to withdraw; a player's page: no withdrawal at all
        prueba.owned = prueba.status == resolved or not withdrawals or bool(prueba.owned)
    return [c for c in checks if c.status != resolved], [c for c in reversed(checks) if c.status == resolved]


@cache
def _checks_sql(withdrawals: bool) -> str:
    """A session's checks that are open or among its latest resolved ones, by id, with ``owned``
    (whether a banca waits on the check: a healer's check is withdrawn with its medical attention),
    ``contest`` and ``duel`` when ``withdrawals``."""
    pk, status, session = column(Check, "pk"), column(Check, "status"), column(Check, "session")
    # a banca's attempt to leave is called off with the banca; an azar or habilidad contest is its
    # check, and so is a pistol duel's round: withdrawing the check calls the game or the duel off
    contests = ", ".join(f"'{kind}'" for kind in CONTEST_KINDS)
    waits = (f"EXISTS (SELECT 1 FROM {table(Gamble)} WHERE {column(Gamble, 'prueba')} = {pk} "
             f"AND {column(Gamble, 'kind')} NOT IN ({contests}))")
    contest = (f"EXISTS (SELECT 1 FROM {table(Gamble)} WHERE {column(Gamble, 'prueba')} = {pk} "
               f"AND {column(Gamble, 'kind')} IN ({contests}))")
    duel = f"EXISTS (SELECT 1 FROM {table(PistolDuel)} WHERE {column(PistolDuel, 'prueba')} = {pk})"
    owned = f", ({waits}) AS owned, ({contest}) AS contest, ({duel}) AS duel" if withdrawals else ""
    inner = connection.ops.quote_name("recent")
    recent = (f"SELECT {inner}.{column(Check, 'pk', qualified=False)} FROM {table(Check)} {inner} "
              f"WHERE {inner}.{column(Check, 'session', qualified=False)} = %s "
              f"AND {inner}.{column(Check, 'status', qualified=False)} = %s "
              f"ORDER BY {inner}.{column(Check, 'pk', qualified=False)} DESC LIMIT %s")
    return (f"SELECT {table(Check)}.*{owned} FROM {table(Check)} WHERE {session} = %s "
            f"AND ({status} <> %s OR {pk} IN ({recent})) ORDER BY {pk}")


@cache
def _participants_sql(count: int) -> str:
    """The participants of ``count`` checks, by id, with their characters' name and kind."""
    character = column(Participant, "character")
    return (f"SELECT {table(Participant)}.*, {column(Character, 'name')} AS character_name, "
            f"{column(Character, 'kind')} AS character_kind FROM {table(Participant)} "
            f"INNER JOIN {table(Character)} ON {column(Character, 'pk')} = {character} "
            f"WHERE {column(Participant, 'prueba')} IN ({', '.join(['%s'] * count)}) "
            f"ORDER BY {column(Participant, 'pk')}")
