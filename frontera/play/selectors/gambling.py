"""Open bancas and drinking duels as the table sees them."""

from __future__ import annotations

from functools import cache

from django.utils.translation import gettext, gettext_noop

from frontera.characters.models import Character
from frontera.play.models import Check, Gamble, GameSession, seat_key
from frontera.play.selectors.core import Viewer, card_view
from frontera.rules.tracks import SOBRIETY_NAMES
from frontera.sql import column, columns_as, load, table

BANCA_STATUS = {"playing": gettext_noop("playing"), "last_round": gettext_noop("leaves after the next round"),
                "left": gettext_noop("has left")}


# the gambles the pages show while open (azar and habilidad show as their opposed check)
GAMBLES_SHOWN = (Gamble.Kind.BANCA, Gamble.Kind.DRINKING_DUEL)


def open_gambles(session: GameSession) -> tuple[list[Gamble], dict[int, Character]]:
    """The session's open bancas and drinking duels, and their characters: one query (two if any is open)."""
    gambles = load(Gamble, _open_gambles_sql(), (session.pk, Gamble.Status.OPEN, *GAMBLES_SHOWN),
                   related={"prueba": Check})
    characters = Character.objects.by_id([int(k) for g in gambles for k in g.players]) if gambles else {}
    return gambles, characters


@cache
def _open_gambles_sql() -> str:
    """The open gambles the pages show, each with its check if any (:func:`frontera.sql.load`: the
    queryset took ~0.5 ms to build for every page of a session; issue #11)."""
    prueba = column(Gamble, "prueba")
    return (f"SELECT {table(Gamble)}.*, {columns_as(Check, 'prueba')} FROM {table(Gamble)} "
            f"LEFT OUTER JOIN {table(Check)} ON {column(Check, 'pk')} = {prueba} "
            f"WHERE {column(Gamble, 'session')} = %s AND {column(Gamble, 'status')} = %s "
            f"AND {column(Gamble, 'kind')} IN ({', '.join(['%s'] * len(GAMBLES_SHOWN))}) ORDER BY {column(Gamble, 'pk')}")


def gambling_view(session: GameSession, viewer: Viewer, loaded=None) -> tuple[list[dict], list[dict]]:
    """Open bancas and open drinking duels as ``viewer`` sees them: ``(bancas, duels)``, from
    ``loaded`` (what :func:`open_gambles` read, shared by every viewer of one state) or read now."""
    gambles, characters = loaded if loaded is not None else open_gambles(session)
    bancas = [g for g in gambles if g.kind == Gamble.Kind.BANCA]
    duels = [g for g in gambles if g.kind == Gamble.Kind.DRINKING_DUEL]
    return banca_view(bancas, characters, viewer), drinking_duels_view(duels, characters, viewer)


def banca_view(gambles: list[Gamble], characters: dict[int, Character], viewer: Viewer) -> list[dict]:
    """Open bancas: the cards turned are public (played face up, docs/sessions.md), the points,
    whether the player cheats (open at the table, as its feed lines and its check say: the check
    to leave is Manos (Maña) for everyone to see, FR-GMB-6), and the buttons the viewer may use: the Mayor turns cards; the player (or the Mayor for them)
    tries to leave with a check."""
    rows = []
    for gamble in gambles:
        state = gamble.state
        character = characters[int(next(iter(gamble.players)))]
        own = seat_key(character.pk) in viewer.seats
        checking = gamble.prueba is not None and gamble.prueba.status != Check.Status.RESOLVED
        rows.append({
            "pk": gamble.pk, "name": character.name, "money": state["money"], "cheating": state["cheating"],
            "bank": state["bank"], "player": state["player"], "rounds": len(state["rounds"]),
            "cards": [dict(card_view(r["card"]), side=r["side"], points=r["points"]) for r in state["rounds"][-12:]],
            "status": gettext(BANCA_STATUS[state["status"]]), "checking": checking,
            "can_deal": viewer.is_mayor and not checking,
            "can_withdraw": viewer.is_mayor,
            "can_stop": (viewer.is_mayor or own) and state["status"] == "playing" and state["may_stop"] and not checking,
        })
    return rows


def drinking_duels_view(gambles: list[Gamble], characters: dict[int, Character], viewer: Viewer) -> list[dict]:
    """Open drinking duels (FR-SOB-2): public; a drinker's player (or the Mayor) taps "drink"."""
    rows = []
    for gamble in gambles:
        state = gamble.state
        drinkers = []
        for key, d in state["drinkers"].items():
            character = characters[int(key)]
            own = seat_key(character.pk) in viewer.seats
            drinkers.append({"pk": character.pk, "name": character.name, "drinks": d["drinks"],
                             "sobriety": SOBRIETY_NAMES[d["sobriety"]], "drank": key in state["drank"],
                             "can_drink": (viewer.is_mayor or own) and key not in state["drank"]})
        rows.append({"pk": gamble.pk, "round": state["round"], "drinkers": drinkers})
    return rows
