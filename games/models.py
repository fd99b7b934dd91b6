"""Games, their seats and their append-only event log.

The game row holds the engine's current state (`state`), so an action loads one row, applies
one action and appends its events: nothing is recomputed from the log. The log holds every
event with full information; the record and every client payload are derived from it, the
payloads through the viewer's projection (games/projection.py).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _


class GameStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    ACTIVE = "active", _("Active")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class Pool(models.TextChoices):
    """Where a ranked game's players rate (docs/api.md, The bot ladder): the people's pool (the
    human queue, arenas) or the bots' ladder, whose CPU seats are fixed anchors."""

    RANKED = "ranked", _("Ranked")
    BOTS = "bots", _("Bots")


class Game(models.Model):
    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id")
    )
    status = models.CharField(
        max_length=10,
        choices=GameStatus.choices,
        default=GameStatus.WAITING,
        verbose_name=_("status"),
    )
    ranked = models.BooleanField(default=False, verbose_name=_("ranked"))
    # A ranked game is rated unless it is an unrated tournament's.
    rated = models.BooleanField(default=True, verbose_name=_("rated"))
    # A ranked game's pool; blank for an unranked table.
    pool = models.CharField(
        max_length=8, choices=Pool.choices, blank=True, default="", verbose_name=_("pool")
    )
    # The arena tournament that seated it (tournaments/), or null.
    tournament_id = models.UUIDField(
        null=True, blank=True, db_index=True, verbose_name=_("tournament id")
    )
    rules: models.JSONField[dict[str, Any]] = models.JSONField(verbose_name=_("rules"))
    max_players = models.PositiveSmallIntegerField(verbose_name=_("max players"))
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("host"),
    )
    invite_code = models.CharField(max_length=16, blank=True, verbose_name=_("invite code"))
    seq = models.PositiveIntegerField(default=0, verbose_name=_("seq"))
    # The engine's GameState.to_dict(); null while the table is waiting for players.
    state: models.JSONField[dict[str, Any] | None] = models.JSONField(
        null=True, blank=True, verbose_name=_("state")
    )
    # When the server must act on its own: the deadline of a human turn (shown to clients),
    # or when a CPU-played turn is overdue (so a lost CPU task is recovered by the sweeper).
    turn_deadline = models.DateTimeField(null=True, blank=True, verbose_name=_("turn deadline"))
    # What anyone at the game may see of its fair deal from its start (docs/fairness.md §5):
    # `{"version", "seats": [{"seat", "commitment", "client_seed"}]}`; null before the start,
    # and for a game started before fair deals. The secrets are the GameSeed rows'.
    fairness: models.JSONField[dict[str, Any] | None] = models.JSONField(
        null=True, blank=True, verbose_name=_("fairness")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    # When this game's ratings were applied (ranked games only); set exactly once.
    rated_at = models.DateTimeField(null=True, blank=True, verbose_name=_("rated at"))
    # Voided by staff (games/services/staff.py): the game stays finished and readable, but has
    # no result that counts: its ratings are rolled back and it is never rated again.
    voided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("voided at"))
    void_reason = models.CharField(max_length=500, blank=True, verbose_name=_("void reason"))
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("voided by"),
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(
                fields=["turn_deadline"],
                name="game_active_deadline_idx",
                condition=Q(status="active", turn_deadline__isnull=False),
            ),
            models.Index(fields=["status", "-finished_at"], name="game_status_finished_idx"),
            # Finished ranked games still waiting for their rating (ratings' pending sweep).
            models.Index(
                fields=["finished_at"],
                name="game_unrated_idx",
                condition=Q(status="finished", ranked=True, rated_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        status = {
            GameStatus.WAITING: pgettext("game status", "waiting"),
            GameStatus.ACTIVE: pgettext("game status", "active"),
            GameStatus.FINISHED: pgettext("game status", "finished"),
            GameStatus.ABORTED: pgettext("game status", "aborted"),
        }.get(GameStatus(self.status), self.status)
        if self.ranked:
            if self.voided_at:
                text = gettext("ranked game %(id)s (%(status)s, voided)")
            else:
                text = gettext("ranked game %(id)s (%(status)s)")
        elif self.voided_at:
            text = gettext("private game %(id)s (%(status)s, voided)")
        else:
            text = gettext("private game %(id)s (%(status)s)")
        return text % {"id": self.id, "status": status}

    @property
    def ended(self) -> bool:
        """Over for good: its full record (every hand, the deck) may be read."""
        return self.status in (GameStatus.FINISHED, GameStatus.ABORTED)


class Seat(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("player"),
    )
    is_cpu = models.BooleanField(default=False, verbose_name=_("is cpu"))
    # The CPU level of a CPU seat (games.engine.cpu.Level); empty for a player's seat.
    cpu_level = models.CharField(max_length=16, blank=True, default="", verbose_name=_("cpu level"))
    # Missed a deadline: the CPU plays this seat's turns until the player acts again.
    away = models.BooleanField(default=False, verbose_name=_("away"))
    # Left for good (or banned): the CPU plays the seat to the end; the result still counts.
    left = models.BooleanField(default=False, verbose_name=_("left"))
    score = models.PositiveIntegerField(default=0, verbose_name=_("score"))
    eliminated = models.BooleanField(default=False, verbose_name=_("eliminated"))
    place = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("place"))
    # True while the player is at a waiting or active table: one live seat per player.
    live = models.BooleanField(default=True, verbose_name=_("live"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["seat"]
        constraints = [
            # Checked at the end of each statement: closing a gap renumbers seats in one UPDATE.
            models.UniqueConstraint(
                fields=["game", "seat"],
                name="seat_unique_in_game",
                deferrable=models.Deferrable.IMMEDIATE,
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(live=True, player__isnull=False),
                name="seat_one_live_game_per_player",
            ),
        ]
        indexes = [models.Index(fields=["player", "game"], name="seat_player_game_idx")]

    def __str__(self) -> str:
        return gettext("seat %(seat)s of %(game)s") % {"seat": self.seat, "game": self.game_id}

    @property
    def cpu_plays(self) -> bool:
        """Whether the CPU chooses this seat's moves now."""
        return self.is_cpu or self.away or self.left

    @property
    def playing_level(self) -> str | None:
        """The CPU level that chooses this seat's moves now: a CPU seat's own, the takeover
        level (YANIV_CPU_TAKEOVER_LEVEL) for a seat its player is away from or left, None
        while its player plays."""
        if self.is_cpu:
            return self.cpu_level or settings.YANIV_CPU_TAKEOVER_LEVEL
        if self.away or self.left:
            return str(settings.YANIV_CPU_TAKEOVER_LEVEL)
        return None


class Event(models.Model):
    """One change of a game, with full information; the projection hides what it must."""

    id = models.BigAutoField(primary_key=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    # The game's seq after the action that caused it; one action can cause several events.
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload: models.JSONField[dict[str, Any]] = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"], name="event_game_id_idx")]

    def __str__(self) -> str:
        return f"{self.type} #{self.seq} of {self.game_id}"


class GameSeed(models.Model):
    """The seed pair a human seat brought to its game (docs/fairness.md §1-§2): the server
    seed stays secret until the game has ended (the record reveals it); the game seed is the
    seats' together. Never in an admin page, a payload or a log before the end."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    server_seed = models.BinaryField(max_length=32)
    client_seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="game_seed_once_a_seat"),
        ]

    def __str__(self) -> str:
        return f"seed of seat {self.seat} of {self.game_id}"
