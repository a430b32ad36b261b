"""Test data built through the real services, never raw ORM writes."""

import itertools

from frontera.accounts.services import user_create
from frontera.campaigns.services import campaign_create, invite_accept, invite_create

PASSWORD = "una-clave-larga-7"
_counter = itertools.count(1)


def make_user(username: str | None = None, *, password: str = PASSWORD):
    name = username or f"user{next(_counter)}"
    return user_create(username=name, email=f"{name}@example.com", password=password)


def make_campaign(mayor=None, *, name: str = "La frontera", players=()):
    mayor = mayor or make_user()
    campaign = campaign_create(mayor=mayor, name=name)
    for player in players:
        _invite, token = invite_create(campaign=campaign, by=mayor)
        invite_accept(token=token, user=player)
    return campaign


# ==== Live sessions (frontera/play) ====


def make_protagonist(campaign, player, *, name: str | None = None, traits=None):
    """A protagonist made through the creation steps: Manos/Sentidos/Músculo/Cabeza 3 each unless
    ``traits`` (points on top of the starting 1s, 8 in all) says otherwise; Pelea, Agilidad,
    Percepción and Saber; a revolver."""
    from frontera.characters.services import character_create

    return character_create(
        campaign=campaign, by=player, owner=player, name=name or f"Prota {next(_counter)}",
        skills=["pelea", "agilidad", "percepcion"],
        trait_points=traits or {"manos": 2, "sentidos": 2, "musculo": 2, "cabeza": 2},
        extra_skill="saber", starting_weapon="revolver", purchases={},
    )


def make_minion(campaign, *, name: str | None = None, cards: int = 3, aguante: int = 5):
    from frontera.characters.services import npc_create

    return npc_create(campaign=campaign, by=campaign.mayor, kind="minion", name=name or f"Esbirro {next(_counter)}",
                      cards_per_check=cards, aguante=aguante)


def set_tracks(character, *, health: int = 0, morale: int = 0, sobriety: int = 0):
    """The Mayor edits the sheet's tracks (the characters app's own service)."""
    from frontera.characters.services import character_update

    sheet = character.sheet
    return character_update(
        character=character, by=character.campaign.mayor, name=character.name, description="", notes="",
        money=sheet["money"], skills=sheet["skills"], equipment=sheet["equipment"], health=health, morale=morale,
        sobriety=sobriety, traits=sheet["traits"], cards_per_check=sheet["cards_per_check"],
        flat_aguante=sheet["flat_aguante"], flat_confianza=sheet["flat_confianza"],
    )


def dead_for_good(session, character) -> None:
    """``character`` at Muerto, and left dead for good by the dead man's hand (FR-HLT-3), as the death
    roll leaves him: what the death exchange asks of its protagonist (FR-EXCH-4)."""
    set_tracks(character, health=-4)
    session.refresh_from_db()
    session.tallies.setdefault("dead", {})[str(character.pk)] = True
    session.save(update_fields=["tallies"])


def make_table(*, players: int = 2, minions: int = 1, mode: str = "normal", **start):
    """A campaign with ``players`` players (one protagonist each) and minions, and a started session.
    Returns ``(session, mayor, [(player, protagonist)...], [minion...])``."""
    from frontera.play.services.sessions import session_start

    users = [make_user() for _ in range(players)]
    campaign = make_campaign(players=users)
    seated = [(u, make_protagonist(campaign, u)) for u in users]
    extras = [make_minion(campaign) for _ in range(minions)]
    session = session_start(campaign=campaign, by=campaign.mayor, mode=mode, characters=[c for _, c in seated],
                            **start)
    return session, campaign.mayor, seated, extras


def engine(session):
    """The engine's card state of a session, as stored now."""
    from frontera.play.models import GameSession
    from frontera.rules import session as rules_session

    return rules_session.Session.from_json(GameSession.objects.get(pk=session.pk).state)


def assert_conserved(session) -> None:
    """Design §6: the multiset of a session's cards never changes."""
    from collections import Counter

    from frontera.rules import session as rules_session

    state = engine(session)
    held = [uid for cards in rules_session.zones(state).values() for uid in cards]
    assert Counter(held) == Counter(rules_session.all_cards(state))


def stack_pile(session, uids) -> None:
    """Scenario set-up from a hand-built state: put ``uids`` on top of the pile (the last one is
    drawn first) by swapping each with a pile card, wherever it was. The multiset is unchanged."""
    from frontera.play.models import GameSession
    from frontera.rules import session as rules_session

    state = engine(session)
    for position, uid in enumerate(reversed(uids)):
        target = len(state.pile) - 1 - position
        if state.pile[target] == uid:
            continue
        zone = rules_session.zone_of(state, uid)
        holder = rules_session._zone_list(state, zone, None)
        index = holder.index(uid)
        holder[index], state.pile[target] = state.pile[target], uid
    GameSession.objects.filter(pk=session.pk).update(state=state.to_json())
# ==== end of Live sessions ====


def make_character(campaign, owner, *, name: str = "Clementine", **overrides):
    """A protagonist built through the creation service (FR-CHAR-3): the book's Clementine by default."""
    from frontera.characters.services import character_create

    values = {
        "skills": ["apuntar", "agilidad", "astucia"],
        "trait_points": {"manos": 1, "sentidos": 3, "musculo": 2, "cabeza": 2},
        "extra_skill": "percepcion",
        "starting_weapon": "revolver",
        "purchases": {"rifle": 1, "ropa_de_trabajo": 1},
        **overrides,
    }
    return character_create(campaign=campaign, by=owner, owner=owner, name=name, **values)
