"""Load the demo campaign: a Mayor and three players. Idempotent: running it again changes nothing."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from frontera.accounts.services import user_create
from frontera.campaigns.models import Campaign
from frontera.campaigns.services import campaign_add_player, campaign_create
from frontera.characters.models import Character
from frontera.characters.services import character_create, npc_create
from frontera.play.models import GameSession
from frontera.play.services.sessions import session_start

DEMO_PASSWORD = "frontera-demo"
MAYOR = "mayor"
PLAYERS = ("clementine", "djamal", "policarpo")
CAMPAIGN = "Demo: El oro de Black Rock"


# Demo characters, built through the creation service (FR-CHAR-3); Clementine is the book's example.
DEMO_CHARACTERS = {
    "clementine": {
        "name": "Clementine", "description": "Pistolera de Black Rock. Nunca falla a media distancia.",
        "skills": ["apuntar", "agilidad", "astucia"], "extra_skill": "percepcion",
        "trait_points": {"manos": 1, "sentidos": 3, "musculo": 2, "cabeza": 2},
        "starting_weapon": "revolver", "purchases": {"rifle": 1, "ropa_de_trabajo": 1},
    },
    "djamal": {
        "name": "Djamal", "description": "Rastreador del desierto, rápido con los cuchillos.",
        "skills": ["pelea", "fuerza", "percepcion"], "extra_skill": "agilidad",
        "trait_points": {"manos": 3, "sentidos": 2, "musculo": 3, "cabeza": 0},
        "starting_weapon": "cuchillos", "purchases": {"funda_de_cuchillos": 1, "tomahawk": 1, "cuerda": 1},
    },
    "policarpo": {
        "name": "Policarpo", "description": "Curandero y tahúr; habla más de lo que dispara.",
        "skills": ["disparo_rapido", "mana", "labia"], "extra_skill": "saber",
        "trait_points": {"manos": 2, "sentidos": 1, "musculo": 1, "cabeza": 4},
        "starting_weapon": "revolver", "purchases": {"material_de_curandero": 1, "botella_de_whisky": 2},
    },
}


class Command(BaseCommand):
    help = "Create the demo accounts and campaign (idempotent) and print the logins."

    @transaction.atomic
    def handle(self, *args, **options):
        users = {}
        for username in (MAYOR, *PLAYERS):
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                user = user_create(username=username, email=f"{username}@example.com", password=DEMO_PASSWORD)
            users[username] = user
        campaign = Campaign.objects.filter(name=CAMPAIGN, mayor=users[MAYOR]).first()
        if campaign is None:
            campaign = campaign_create(
                mayor=users[MAYOR], name=CAMPAIGN, description="Una campaña de ejemplo para probar la mesa."
            )
        for username in PLAYERS:
            campaign_add_player(campaign=campaign, user=users[username])
        self._characters(campaign, users)
        self._session(campaign, users)
        self.stdout.write(f"Demo campaign: {campaign.name} (id {campaign.pk})")
        self.stdout.write(f"  Mayor:   {MAYOR} / {DEMO_PASSWORD}")
        for username in PLAYERS:
            self.stdout.write(f"  Player:  {username} / {DEMO_PASSWORD}")

    def _characters(self, campaign, users) -> None:
        """One character per demo player, and the book's minion for the Mayor; only those missing."""
        for username, values in DEMO_CHARACTERS.items():
            player = users[username]
            if not Character.objects.filter(campaign=campaign, owner=player).exists():
                character_create(campaign=campaign, by=player, owner=player, **values)
        if not Character.objects.filter(campaign=campaign, kind=Character.Kind.MINION).exists():
            npc_create(campaign=campaign, by=users[MAYOR], kind=Character.Kind.MINION, name="Esbirro de los Hartley",
                       cards_per_check=3, aguante=5)

    def _session(self, campaign, users) -> None:
        """A Normal session with every protagonist present, started through the session service
        (the cards are dealt); only if the campaign has none yet."""
        if GameSession.objects.filter(campaign=campaign).exists():
            return
        session_start(campaign=campaign, by=users[MAYOR], mode=GameSession.Mode.NORMAL,
                      characters=Character.objects.filter(campaign=campaign, kind=Character.Kind.PROTAGONIST))
