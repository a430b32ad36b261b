"""A full session for the two-language crawl (issue #12), built through the real services: trait
checks (one left open for a phone to draw), an opposed check, a fight with declarations (a
thrown weapon, a quick draw and a melee attack), a drink, a threat and a track change, an azar
night, a bet exchange, a treasure sharing, and the history all of it leaves."""

from dataclasses import dataclass, field

from frontera.play.models import CombatRound, GameSession, Participant
from frontera.play.services.checks import Entry, check_choose, check_draw, check_request, opposed_request
from frontera.play.services.combat import Fighter, combat_choose, combat_declare, combat_draw, combat_start
from frontera.play.services.exchanges import exchange_start
from frontera.play.services.gambling import gamble_contest
from frontera.play.services.sessions import session_start
from frontera.play.services.table_tools import drink, threat, track_change
from frontera.rules.cards import Card
from tests.factories import make_campaign, make_character, make_minion, make_user


@dataclass
class Table:
    session: GameSession
    mayor: object
    players: list
    characters: list
    minion: object
    cards: list = field(default_factory=list)


def _play(participant: Participant, by) -> None:
    participant = check_draw(participant=participant, by=by)
    if participant.drawn:
        uid = participant.drawn[0]
        check_choose(participant=participant, by=by, card=uid, suit="S" if Card.from_uid(uid).is_joker else "")


def _fight_choose(combat: CombatRound, by, character) -> None:
    combat.refresh_from_db()
    hand = combat.state["hands"].get(f"k{character.pk}") or []
    if hand:
        suit = "S" if Card.from_uid(hand[0]).is_joker else ""
        combat_choose(combat=combat, by=by, character=character, cards=hand[:1], suit=suit)


def build_table() -> Table:
    clementine_user, djamal_user = make_user("clementine"), make_user("djamal")
    campaign = make_campaign(name="El oro de Black Rock", players=[clementine_user, djamal_user])
    mayor = campaign.mayor
    clementine = make_character(campaign, clementine_user, name="Clementine")
    djamal = make_character(
        campaign, djamal_user, name="Djamal", skills=["pelea", "fuerza", "percepcion"], extra_skill="disparo_rapido",
        trait_points={"manos": 3, "sentidos": 2, "musculo": 3, "cabeza": 0}, starting_weapon="cuchillos",
        purchases={"funda_de_cuchillos": 1, "tomahawk": 1, "cuerda": 1},
    )
    minion = make_minion(campaign, name="Esbirro de los Hartley")
    session = session_start(campaign=campaign, by=mayor, mode=GameSession.Mode.NORMAL,
                            characters=[clementine, djamal])
    # Trait checks: one played by each player, one by the Mayor's minion.
    for character, user, trait, skill in ((clementine, clementine_user, "sentidos", "apuntar"),
                                          (djamal, djamal_user, "manos", "pelea"),
                                          (minion, mayor, "cabeza", "")):
        prueba = check_request(session=session, by=mayor, characters=[character], trait=trait, skill=skill,
                               difficulty=8 if character is djamal else None)
        _play(prueba.participants.get(), user)
    # An opposed check, revealed.
    prueba = opposed_request(session=session, by=mayor, entries=[Entry(clementine, "cabeza", "astucia"),
                                                                 Entry(djamal, "sentidos", "percepcion")])
    for part, user in zip(prueba.participants.order_by("pk"), (clementine_user, djamal_user), strict=True):
        _play(part, user)
    # Table tools.
    drink(session=session, by=mayor, character=djamal)
    threat(session=session, by=mayor, character=clementine)
    track_change(session=session, by=mayor, character=clementine, track="health", amount=-1)
    # A fight: the minion attacks in melee, Djamal throws a knife, Clementine shoots.
    combat = combat_start(session=session, by=mayor, fighters=[
        Fighter(clementine, "posse"), Fighter(djamal, "posse"), Fighter(minion, "gang")])
    combat_declare(combat=combat, by=mayor, character=minion, technique="pelea", target=djamal)
    combat_draw(combat=combat, by=mayor, character=minion)
    combat_declare(combat=combat, by=djamal_user, character=djamal, technique="thrown", target=minion, band="corto",
                   weapon="cuchillo")
    combat_draw(combat=combat, by=djamal_user, character=djamal)
    combat_declare(combat=combat, by=clementine_user, character=clementine, technique="apuntar", target=minion,
                   band="medio", weapon="rifle")
    combat_draw(combat=combat, by=clementine_user, character=clementine)
    _fight_choose(combat, mayor, minion)
    _fight_choose(combat, djamal_user, djamal)
    # A night of azar between the two protagonists (an opposed check left for the phones).
    gamble_contest(session=session, by=mayor, kind="azar", characters=[clementine, djamal])
    # A bet exchange: Clementine won against Djamal.
    exchange_start(session=session, by=mayor, kind="bet", first=clementine, second=djamal)
    # A trait check left open: the phones show it to draw.
    check_request(session=session, by=mayor, characters=[djamal], trait="musculo", skill="fuerza")
    session.refresh_from_db()
    return Table(session=session, mayor=mayor, players=[clementine_user, djamal_user],
                 characters=[clementine, djamal], minion=minion)
