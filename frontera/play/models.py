"""A campaign's live sessions, their checks and their append-only event log.

The card state of a session is the rules engine's own JSON (:class:`frontera.rules.session.Session`)
stored on :attr:`GameSession.state`; only the services change it, under the row's lock
(``GameSession.objects.row(pk, lock=True)``: ``SELECT … FOR UPDATE OF`` the session's row). Every
card movement and every rule decision is a :class:`SessionEvent`, whose ids are the live versions
of the ``session:<id>`` topic.
"""

from functools import cache

from django.conf import settings
from django.db import connection, models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from frontera.campaigns.models import Campaign
from frontera.campaigns.permissions import role_sql
from frontera.sql import column, columns_as, load, table

# the campaign's columns read with a session, in the model's order
CAMPAIGN_READ = ("id", "name", "mayor_id")


class GameSessionManager(models.Manager):
    def row(self, pk: int, *, role_of=None, lock: bool = False):
        """The session ``pk`` with its campaign (its :data:`CAMPAIGN_READ`; the rest loads if ever
        asked for), or ``None``: one statement loaded by :func:`frontera.sql.load`. Every
        request to a session and every table action reads it, and the querysets took ~0.5 ms to
        build. With ``role_of`` (a user), ``viewer_role`` is their role in that campaign (``None``
        for an outsider); with ``lock``, the session's row is locked for the transaction (``FOR
        UPDATE OF`` it, not its campaign's row: actions of one campaign's sessions and edits of
        the campaign do not wait on each other; SQLite's write transaction holds the whole
        database)."""
        params = ((role_of.pk,) if role_of is not None else ()) + (pk,)
        for_update = lock and connection.features.has_select_for_update
        of = for_update and connection.features.has_select_for_update_of  # else the campaign's too
        found = load(self.model, _row_sql(role_of is not None, for_update, of), params)
        if not found:
            return None
        session = found[0]
        session.campaign = Campaign.from_db(self.db, list(CAMPAIGN_READ),
                                            [getattr(session, f"campaign_{name}") for name in CAMPAIGN_READ])
        return session


@cache
def _row_sql(with_role: bool, for_update: bool, of: bool = False) -> str:
    campaign = ", ".join(f"{column(Campaign, name.removesuffix('_id'))} AS campaign_{name}"
                         for name in CAMPAIGN_READ)
    role = f", ({role_sql(GameSession)}) AS viewer_role" if with_role else ""
    return (f"SELECT {table(GameSession)}.*, {campaign}{role} FROM {table(GameSession)} "
            f"INNER JOIN {table(Campaign)} ON {column(Campaign, 'pk')} = {column(GameSession, 'campaign')} "
            f"WHERE {column(GameSession, 'pk')} = %s"
            + (f" FOR UPDATE{f' OF {table(GameSession)}' if of else ''}" if for_update else ""))


class GameSession(models.Model):
    class Mode(models.TextChoices):
        NORMAL = "normal", _("Normal")
        SIN_GESTION = "sin_gestion", _("Sin gestión")
        CON_DESGASTE = "con_desgaste", _("Con desgaste")

    class Status(models.TextChoices):
        ACTIVE = "active", _("in play")
        ENDED = "ended", _("ended")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="game_sessions")
    number = models.PositiveIntegerField(_("number"))
    date = models.DateField(_("date"))
    mode = models.CharField(_("mode"), max_length=14, choices=Mode.choices, default=Mode.NORMAL)
    phase = models.PositiveSmallIntegerField(_("phase"), null=True, blank=True)
    decks = models.PositiveSmallIntegerField(_("decks"))
    jokers = models.PositiveSmallIntegerField(_("jokers per deck"), default=2)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    characters = models.ManyToManyField(
        "characters.Character", through="Seat", related_name="game_sessions", verbose_name=_("present")
    )
    state = models.JSONField(default=dict)  # frontera.rules.session.Session.to_json()
    tallies = models.JSONField(default=dict)  # per-session counters, e.g. {"alcohol": {"<character id>": 3}}
    request_key = models.CharField(max_length=40, blank=True)  # the start form's: a double click starts one
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = GameSessionManager()

    class Meta:
        ordering = ["campaign", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_session_number"),
            models.UniqueConstraint(fields=["campaign", "request_key"], condition=~models.Q(request_key=""),
                                    name="one_session_per_start_request"),
        ]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")

    def __str__(self) -> str:
        return f"{self.campaign} #{self.number}"

    def get_absolute_url(self) -> str:
        return reverse("play_session", args=[self.pk])


MAYOR_SEAT = "mayor"


def seat_key(character_id: int) -> str:
    """The engine's player key of a protagonist: its own deck (FR-MODE-2)."""
    return f"c{character_id}"


class SeatManager(models.Manager):
    def at(self, session_id: int, *, owner_id: int | None = None) -> list:
        """The seats of a session in their order (of ``owner_id``'s characters only, when given),
        each with its character and its player's username (``player``): what the pages read with
        ``select_related``, in one statement loaded by :func:`frontera.sql.load` (issue #11)."""
        character = self.model._meta.get_field("character").related_model
        params = (session_id,) if owner_id is None else (session_id, owner_id)
        return load(self.model, _seats_sql(owner_id is not None), params, related={"character": character})


@cache
def _seats_sql(of_owner: bool) -> str:
    character = Seat._meta.get_field("character").related_model
    user = character._meta.get_field("owner").related_model
    return (f"SELECT {table(Seat)}.*, {columns_as(character, 'character')}, "
            f"{column(user, user.USERNAME_FIELD)} AS player FROM {table(Seat)} "
            f"INNER JOIN {table(character)} ON {column(character, 'pk')} = {column(Seat, 'character')} "
            f"INNER JOIN {table(user)} ON {column(user, 'pk')} = {column(character, 'owner')} "
            f"WHERE {column(Seat, 'session')} = %s" + (f" AND {column(character, 'owner')} = %s" if of_owner else "")
            + f" ORDER BY {column(Seat, 'pk')}")


class Seat(models.Model):
    """A protagonist present at the session: a seat with its own deck in the engine."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="seats")
    joined_late = models.BooleanField(default=False)

    objects = SeatManager()

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["session", "character"], name="one_seat_per_character")]

    def __str__(self) -> str:
        return f"{self.character} in {self.session}"

    @property
    def key(self) -> str:
        return seat_key(self.character_id)


class TableRequest(models.Model):
    """What the Mayor (or a player) asked the table for through a form: who, when, and the form's
    ``request_key``, which makes a double submit one action (unique per session when given)."""

    request_key = models.CharField(max_length=40, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        constraints = [
            models.UniqueConstraint(
                fields=["session", "request_key"], condition=~models.Q(request_key=""), name="one_%(class)s_per_request"
            )
        ]


class Check(TableRequest):
    """A trait check (one or several characters, each on their own) or an opposed check."""

    class Kind(models.TextChoices):
        TRAIT = "trait", _("trait check")
        OPPOSED = "opposed", _("opposed check")

    class Status(models.TextChoices):
        REQUESTED = "requested", _("requested")
        DRAWN = "drawn", _("drawn")
        CHOSEN = "chosen", _("chosen")
        RESOLVED = "resolved", _("resolved")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="checks")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    difficulty = models.PositiveSmallIntegerField(null=True, blank=True)
    label = models.CharField(max_length=120, blank=True)  # the Mayor's own words, or a msgid
    # a label the table wrote: {"_msg": msgid, **params}, read in each reader's language
    label_msg = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REQUESTED)
    # Withdrawn by the Mayor before it resolved: closed (status resolved) with no outcome, its drawn
    # cards gone back where unchosen cards go (services.check_withdrawal).
    withdrawn = models.BooleanField(default=False)

    class Meta(TableRequest.Meta):
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"


class ParticipantManager(models.Manager):
    def with_check(self, pk: int, *, session_id: int | None = None, statuses: tuple[str, ...] = (),
                   waits: tuple = ()):
        """The participant ``pk`` with its check (``prueba``) and its character, or ``None`` (also if
        its check is not of session ``session_id``, when given): what ``select_related("prueba",
        "character")`` reads, in one statement loaded by :func:`frontera.sql.load`. A draw and a
        choice read it in the view (who may act) and again under the session's lock (issue #11: the
        queryset took ~0.4 ms to build for a ~0.05 ms statement).

        ``statuses`` (every status, least advanced first) adds what a draw and a choice need of the
        check's other participants, read in the same statement (issue #11: a round trip to the
        database fewer before the push): ``others_rank``, the position in ``statuses`` of the least
        advanced of them (``None`` without others), ``seats``, the seats of all of them and this
        one, and ``seated``, whether the participant's character has a seat at the check's session.
        ``waits`` (models with a ``prueba`` key) adds ``waited_on``: whether a row of any of them
        refers to the check."""
        character = self.model._meta.get_field("character").related_model
        params = (*statuses, pk) if session_id is None else (*statuses, pk, session_id)
        found = load(self.model, _participant_sql(session_id is not None, len(statuses), tuple(waits), connection.vendor),
                     params, related={"prueba": Check, "character": character})
        if not found:
            return None
        participant = found[0]
        if statuses:
            participant.seats = participant.seats.split(",")
            participant.seated = bool(participant.seated)
        if waits:
            participant.waited_on = bool(participant.waited_on)
        return participant


@cache
def _participant_sql(in_session: bool, statuses: int = 0, waits: tuple = (), vendor: str = "") -> str:
    character = Participant._meta.get_field("character").related_model
    extra = ""
    if statuses:
        others = connection.ops.quote_name("others")
        status, seat = column(Participant, "status", qualified=False), column(Participant, "seat", qualified=False)
        prueba = column(Participant, "prueba", qualified=False)
        ranks = " ".join(f"WHEN %s THEN {rank}" for rank in range(statuses))
        siblings = f"FROM {table(Participant)} {others} WHERE {others}.{prueba} = {column(Participant, 'prueba')}"
        seats = (f"string_agg({others}.{seat}, ',')" if vendor == "postgresql" else f"group_concat({others}.{seat}, ',')")
        extra += (f", (SELECT MIN(CASE {others}.{status} {ranks} END) {siblings} "
                  f"AND {others}.{column(Participant, 'pk', qualified=False)} <> {column(Participant, 'pk')}) AS others_rank"
                  f", (SELECT {seats} {siblings}) AS seats"
                  f", EXISTS (SELECT 1 FROM {table(Seat)} WHERE {column(Seat, 'session')} = {column(Check, 'session')} "
                  f"AND {column(Seat, 'character')} = {column(Participant, 'character')}) AS seated")
    if waits:
        extra += ", (" + " OR ".join(f"EXISTS (SELECT 1 FROM {table(model)} WHERE {column(model, 'prueba')} = "
                                     f"{column(Check, 'pk')})" for model in waits) + ") AS waited_on"
    return (f"SELECT {table(Participant)}.*, {columns_as(Check, 'prueba')}, {columns_as(character, 'character')}{extra} "
            f"FROM {table(Participant)} INNER JOIN {table(Check)} ON {column(Check, 'pk')} = {column(Participant, 'prueba')} "
            f"INNER JOIN {table(character)} ON {column(character, 'pk')} = {column(Participant, 'character')} "
            f"WHERE {column(Participant, 'pk')} = %s" + (f" AND {column(Check, 'session')} = %s" if in_session else ""))


class Participant(models.Model):
    """One character in a check: what it draws for, the cards drawn, the card played, the outcome.

    ``drawn`` holds card uids; who may see them is decided by :mod:`frontera.play.selectors`.
    """

    prueba = models.ForeignKey(Check, on_delete=models.CASCADE, related_name="participants")  # "check" is Model.check()
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    seat = models.CharField(max_length=20)  # the engine player whose cards it draws
    trait = models.CharField(max_length=10)
    skill = models.CharField(max_length=20, blank=True)
    modifier = models.SmallIntegerField(default=0)
    cards = models.SmallIntegerField(default=0)  # FR-CHK-1, may be ≤ 0: automatic failure
    achispado_card = models.CharField(max_length=10, blank=True)
    status = models.CharField(max_length=10, choices=Check.Status.choices, default=Check.Status.REQUESTED)
    drawn = models.JSONField(default=list)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    played = models.CharField(max_length=10, blank=True)
    declared = models.CharField(max_length=1, blank=True)
    outcome = models.CharField(max_length=10, blank=True)

    objects = ParticipantManager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.character} in check {self.prueba_id}"

    @property
    def engine_check(self) -> str:
        return f"p{self.pk}"


class SessionEvent(models.Model):
    """The session's append-only log. A card movement has ``card``/``from_zone``/``to_zone``; a rule
    decision has a ``message`` (an English msgid) with ``params`` and the ``rules`` it applied.

    ``seen_by`` lists the engine players who may see ``card`` (``"*"``: everyone), computed when the
    card moved from the engine's ``visible_cards`` before and after."""

    class Kind(models.TextChoices):
        CARD = "card", _("card moved")
        DECISION = "decision", _("rule decision")

    # indexed by Meta.indexes' (session, -id), which serves every lookup by session too
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="events", db_index=False)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    prueba = models.ForeignKey(Check, on_delete=models.SET_NULL, null=True, blank=True, related_name="events")
    card = models.CharField(max_length=10, blank=True)
    from_zone = models.CharField(max_length=30, blank=True)
    to_zone = models.CharField(max_length=30, blank=True)
    reason = models.CharField(max_length=20, blank=True)
    seen_by = models.JSONField(default=list)
    rules = models.JSONField(default=list)
    message = models.CharField(max_length=200, blank=True)
    params = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [
            # the session's latest event (its live version and feed stamp, read by every action,
            # page and refetch): one index entry, not a sort of the whole log (issue #11)
            models.Index(fields=["session", "-id"]),
            models.Index(fields=["session", "kind", "-id"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk} of session {self.session_id}"


class CombatRoundManager(models.Manager):
    def of_session(self, pk: int, session_id: int, *, seat_of: tuple[int, int] | None = None):
        """The fight ``pk`` if it is of session ``session_id``, or ``None``: one statement loaded by
        :func:`frontera.sql.load` (every action of a fight reads it in its view and again under the
        lock; the queryset took ~0.3 ms to build; issue #11). ``seat_of``: ``(character, user)`` ids;
        the fight then also says whether that character is seated at the session and is that user's
        (``plays_seat``: what ``services.core.plays_own_seat`` reads, read with it)."""
        params = (pk, session_id) if seat_of is None else (*seat_of, pk, session_id)
        found = load(self.model, _combat_sql(seat_of is not None), params)
        return found[0] if found else None


@cache
def _combat_sql(with_seat: bool) -> str:
    seat = ""
    if with_seat:
        character = Seat._meta.get_field("character").related_model
        seat = (f", EXISTS (SELECT 1 FROM {table(Seat)} INNER JOIN {table(character)} ON {column(character, 'pk')} = "
                f"{column(Seat, 'character')} WHERE {column(Seat, 'session')} = {column(CombatRound, 'session')} "
                f"AND {column(Seat, 'character')} = %s AND {column(character, 'owner')} = %s) AS plays_seat")
    return (f"SELECT {table(CombatRound)}.*{seat} FROM {table(CombatRound)} WHERE {column(CombatRound, 'pk')} = %s "
            f"AND {column(CombatRound, 'session')} = %s")


class CombatRound(models.Model):
    """A fight at the table: the engine's combat turn (``frontera.rules.combat``) as JSON, one
    turn after another. Combatant keys are ``k<character id>``."""

    class Status(models.TextChoices):
        OPEN = "open", _("in progress")
        ENDED = "ended", _("ended")
        WITHDRAWN = "withdrawn", _("withdrawn")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="combats")
    turn = models.PositiveIntegerField(default=1)
    state = models.JSONField(default=dict)
    # This turn's draws made by the Mayor for a protagonist (fighter key → user id): he holds that
    # hand with its player, as with checks (a player with no phone at hand).
    drawn_by = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CombatRoundManager()

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"combat {self.pk} turn {self.turn}"


def combat_key(character_id: int) -> str:
    return f"k{character_id}"


class Exchange(TableRequest):
    """A card exchange (FR-EXCH, Normal mode only). Random ones (ties, a treasure card, death) are
    done at once and kept for idempotent double submits; the others wait for a person's choice: ``step`` names what the ``chooser`` (an engine player) picks next; nothing
    moves until the last step, when the engine does the whole exchange at once.

    ``first``/``second`` are engine players: bet and duel winner/loser, cheat's rival/cheat, treasure
    swap's two sharers, coma's player/Mayor. ``chosen`` keeps each step's picks (uids)."""

    class Kind(models.TextChoices):
        BET = "bet", _("bet")
        BET_TIE = "bet_tie", _("bet ending in Tablas")
        CHEAT = "cheat", _("cheating caught")
        DUEL = "duel", _("duel")
        DUEL_TIE = "duel_tie", _("duel ending in Tablas")
        TREASURE_TAKE = "treasure_take", _("Tesoro: a random card")
        TREASURE_SWAP = "treasure_swap", _("Tesoro: a swap")
        DEATH = "death", _("death: leaves the game")
        COMA = "coma", _("En coma")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a choice")
        DONE = "done", _("done")
        CANCELLED = "cancelled", _("cancelled")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="exchanges")
    kind = models.CharField(max_length=14, choices=Kind.choices)
    first = models.CharField(max_length=20)
    second = models.CharField(max_length=20)
    first_name = models.CharField(max_length=120)
    second_name = models.CharField(max_length=120)
    step = models.CharField(max_length=10)  # "take" | "give" | "give_b"
    chooser = models.CharField(max_length=20)
    chosen = models.JSONField(default=dict)
    seed = models.BigIntegerField(default=0)  # orders face-down choices (never by value)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)

    class Meta(TableRequest.Meta):
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.kind} exchange {self.pk}"


class Gamble(TableRequest):
    """A gambling night (FR-GMB): the banca against the house (``state`` is the engine's banca
    state, ``frontera.rules.gambling.banca_start``), or azar / habilidad between characters, played
    as an opposed check (``prueba``). ``players`` maps character ids to ``{"cheat": bool}``."""

    class Kind(models.TextChoices):
        BANCA = "banca", _("banca")
        AZAR = "azar", _("azar")
        HABILIDAD = "habilidad", _("habilidad")
        DRINKING_DUEL = "duelo_bebida", _("drinking duel")

    class Status(models.TextChoices):
        OPEN = "open", _("in play")
        SETTLED = "settled", _("settled")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="gambles")
    kind = models.CharField(max_length=14, choices=Kind.choices)
    contest = models.CharField(max_length=30, blank=True)
    players = models.JSONField(default=dict)
    state = models.JSONField(default=dict)
    prueba = models.ForeignKey(Check, on_delete=models.SET_NULL, null=True, blank=True, related_name="gambles")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)

    class Meta(TableRequest.Meta):
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.pk}"


# the gambles played as an opposed check of their own: withdrawing the check calls the game off
CONTEST_KINDS = (Gamble.Kind.AZAR.value, Gamble.Kind.HABILIDAD.value)


class Treatment(models.Model):
    """Medical attention (FR-CHK-5): the healer's Cabeza (Saber) check (``prueba``) on a patient;
    ``speeds`` is its result once the card is played (it speeds recovery, FR-HLT-2, and never
    restores a level by itself)."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="treatments")
    prueba = models.ForeignKey(Check, on_delete=models.CASCADE, related_name="treatments")
    healer = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    patient = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    speeds = models.BooleanField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"treatment {self.pk}"


class PistolDuel(TableRequest):
    """A pistol duel (FR-CMB-15): opposed Manos (Disparo rápido) between two characters, played as
    an ordinary opposed check (``prueba``, the current round: FR-OPP-5 may call for another one),
    each with the ranged weapon the Mayor named (catalogue keys). Once revealed the loser takes one
    full-damage hit (both on Tablas) and the FR-EXCH-3 exchange (``exchange``) opens. ``result``
    keeps the engine's verdict (:func:`frontera.rules.combat.pistol_duel`)."""

    class Status(models.TextChoices):
        OPEN = "open", _("in play")
        SETTLED = "settled", _("settled")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="pistol_duels")
    prueba = models.ForeignKey(Check, on_delete=models.SET_NULL, null=True, blank=True, related_name="pistol_duels")
    first = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    first_weapon = models.CharField(max_length=40)
    second_weapon = models.CharField(max_length=40)
    rounds = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    result = models.JSONField(default=dict)
    exchange = models.ForeignKey(Exchange, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta(TableRequest.Meta):
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"pistol duel {self.pk}"


class ActionKey(models.Model):
    """A table action already done (the Mayor's tools: track changes, threats, drinks, accidents,
    rest, dead man's hands; next turn, ending or withdrawing a fight, undo, ending phase 1): its
    form's request key, so a double submit is one action. Written in the action's own transaction,
    so a refused action leaves no key and can be sent again."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="action_keys")
    key = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "key"], name="one_action_per_key")]

    def __str__(self) -> str:
        return f"{self.session_id}:{self.key}"


class TableUndo(models.Model):
    """What undoes one of the Mayor's table actions on a character (a track change, an accident,
    drinks that opened no exchange, a threat, a rest): the sheet and the session's tallies before and
    after, the card movements it made, and the session's last event right after it. It may be undone
    while all of them are still as it left them and nobody has acted since
    (``services.table_tools.table_undo``)."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="undos")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    message = models.JSONField(default=dict)  # the action's own feed line, to name it
    sheet_before = models.JSONField()
    sheet_after = models.JSONField()
    tallies_before = models.JSONField(default=dict)
    tallies_after = models.JSONField(default=dict)
    moves = models.JSONField(default=list)  # the engine's card events, taken back by rules.session.take_back
    after_event = models.BigIntegerField()
    undone = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"undo {self.session_id}:{self.pk}"
