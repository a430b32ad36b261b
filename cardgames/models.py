"""The bonus tables: a :class:`Table` of one game, its :class:`Seat` s (a person or a bot) and its
append-only :class:`Move` log.

The engine's state is the engine's own JSON (``engine.to_json``) on :attr:`Table.state`; only the
services change it, under ``select_for_update``. :attr:`Table.version` goes up on every change
(a join, a leave, a move) and is the live version of the ``table:<id>`` topic. A finished game can
be replayed from ``new_game(seats, seed, options)`` and its moves (docs/cardgames/tables.md).
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from frontera.campaigns.models import Campaign


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        PLAYING = "playing", _("in play")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    class Privacy(models.TextChoices):
        PRIVATE = "private", _("private (invite link)")
        CAMPAIGN = "campaign", _("open to the campaign's members")

    game = models.CharField(_("game"), max_length=20)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    privacy = models.CharField(_("privacy"), max_length=10, choices=Privacy.choices, default=Privacy.PRIVATE)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, null=True, blank=True, related_name="card_tables")
    seed = models.BigIntegerField()
    state = models.JSONField(default=dict, blank=True)  # engine.to_json(state); empty until the game starts
    ply = models.PositiveIntegerField(default=0)  # moves applied so far
    version = models.PositiveIntegerField(default=1)  # the live version of table:<id>
    invite_token_hash = models.CharField(max_length=64, unique=True)
    rematch_of = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["game", "status"])]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("cardgames_table", args=[self.pk])


class Seat(models.Model):
    """One seat of a table: empty (waiting), a person, or a bot of a strength."""

    class Bot(models.TextChoices):
        RANDOM = "random", _("easy bot")
        GREEDY = "greedy", _("medium bot")
        STRONG = "strong", _("strong bot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    bot = models.CharField(max_length=10, choices=Bot.choices, blank=True)
    left = models.BooleanField(default=False)  # the person left a game in play

    class Meta:
        ordering = ["table_id", "index"]  # the column: "table" would join the table for its own ordering
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(fields=["table", "user"], name="one_seat_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}:{self.index}"

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot


class Move(models.Model):
    """One applied action: append-only. ``ply`` counts from 0 per table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    bot = models.CharField(max_length=10, blank=True)
    request_key = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table_id", "ply"]  # the column: "table" would join the table for its own ordering
        constraints = [
            models.UniqueConstraint(fields=["table", "ply"], name="one_move_per_ply"),
            models.UniqueConstraint(fields=["table", "request_key"], condition=~models.Q(request_key=""),
                                    name="one_move_per_request_key"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}@{self.ply}"
