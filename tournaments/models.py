"""Arena tournaments (docs/api.md, Tournaments): a fixed time in which the participants are
seated again as soon as their game ends, scoring by their places (tournaments/arena.py).

A tournament is a row; a participant is a row per player who joined it, carrying their score
and what the pairing needs (idle since when, the table they last sat at, the game they are at).
Its games are ordinary ranked games that name it (`Game.tournament_id`). A table a pass decided
is a pending table until its game is made (a row of its own, so that the pass writes one row a
table rather than one a player).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# What a tournament may last and the turn limit its games may set (inclusive): the API's
# create, the admin's forms and a schedule's fields share them.
MINUTES = (5, 720)
TURN_SECONDS = (10, 300)


def _within(bounds: tuple[int, int]) -> list[Any]:
    return [MinValueValidator(bounds[0]), MaxValueValidator(bounds[1])]


class TournamentStatus(models.TextChoices):
    UPCOMING = "upcoming", _("Upcoming")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class TournamentSchedule(models.Model):
    """A recurring tournament staff define in the admin (tournaments/schedule.py's rule): the
    next one is always made ahead, so clients show it before it starts."""

    name = models.CharField(max_length=64, verbose_name=_("name"))
    every = models.CharField(
        max_length=8,
        choices=[("hourly", _("hourly")), ("daily", _("daily"))],
        verbose_name=_("every"),
    )
    minute = models.PositiveSmallIntegerField(
        default=0, help_text=_("0-59, past the hour."), verbose_name=_("minute")
    )
    hour = models.PositiveSmallIntegerField(
        default=19, help_text=_("0-23 UTC (daily)."), verbose_name=_("hour")
    )
    weekdays: models.JSONField[list[int]] = models.JSONField(
        default=list,
        blank=True,
        help_text=_("0 Monday .. 6 Sunday; empty: every day."),
        verbose_name=_("weekdays"),
    )
    minutes = models.PositiveIntegerField(
        default=60, validators=_within(MINUTES), verbose_name=_("minutes")
    )
    table_sizes: models.JSONField[list[int]] = models.JSONField(
        default=list, verbose_name=_("table sizes")
    )
    rated = models.BooleanField(default=True, verbose_name=_("rated"))
    turn_seconds = models.PositiveIntegerField(
        default=30, validators=_within(TURN_SECONDS), verbose_name=_("turn seconds")
    )
    min_rated_games = models.PositiveIntegerField(default=0, verbose_name=_("min rated games"))
    max_players = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("max players"))
    active = models.BooleanField(default=True, verbose_name=_("active"))

    class Meta:
        verbose_name = _("tournament schedule")
        verbose_name_plural = _("tournament schedules")

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id")
    )
    name = models.CharField(max_length=64, verbose_name=_("name"))
    status = models.CharField(
        max_length=16,
        choices=TournamentStatus.choices,
        default=TournamentStatus.UPCOMING,
        verbose_name=_("status"),
    )
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    ends_at = models.DateTimeField(verbose_name=_("ends at"))
    table_sizes: models.JSONField[list[int]] = models.JSONField(verbose_name=_("table sizes"))
    rated = models.BooleanField(default=True, verbose_name=_("rated"))
    # The games' house rules (games.game_rules.GameRules as a dict, the turn limit included).
    rules: models.JSONField[dict[str, Any]] = models.JSONField(verbose_name=_("rules"))
    min_rated_games = models.PositiveIntegerField(default=0, verbose_name=_("min rated games"))
    max_players = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("max players"))
    # A hash (Django's password hashers), or empty: no password.
    password = models.CharField(max_length=256, blank=True, verbose_name=_("password"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    schedule = models.ForeignKey(
        TournamentSchedule,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        verbose_name=_("schedule"),
    )
    # When it became finished (its last game ended after ends_at) or was cancelled.
    closed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("closed at"))

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [
            models.Index(fields=["status", "starts_at"], name="tournament_status_idx"),
        ]
        constraints = [
            # A schedule makes each of its starts once, however many beats run.
            models.UniqueConstraint(
                fields=["schedule", "starts_at"], name="tournament_once_per_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class Participant(models.Model):
    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="participants",
        verbose_name=_("tournament"),
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    joined_at = models.DateTimeField(auto_now_add=True, verbose_name=_("joined at"))
    paused = models.BooleanField(default=False, verbose_name=_("paused"))
    score = models.FloatField(default=0.0, verbose_name=_("score"))
    games = models.PositiveIntegerField(default=0, verbose_name=_("games"))
    firsts = models.PositiveIntegerField(
        default=0, help_text=_("Outright first places."), verbose_name=_("firsts")
    )
    # Outright firsts in a row, up to the last game (2 or more: on fire for the next).
    streak = models.PositiveSmallIntegerField(default=0, verbose_name=_("streak"))
    # When the score last changed (the standings' last tie-break: who reached it first).
    score_at = models.DateTimeField(auto_now_add=True, verbose_name=_("score at"))
    # Since when they wait for a table (joined, back from a pause, or their game ended).
    idle_since = models.DateTimeField(auto_now_add=True, verbose_name=_("idle since"))
    # The tournament game they sit at now, or null.
    game_id = models.UUIDField(null=True, blank=True, verbose_name=_("game id"))
    # The other players (ids) of their previous tournament table.
    previous: models.JSONField[list[str]] = models.JSONField(
        default=list, verbose_name=_("previous")
    )

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="participant_once"),
        ]
        indexes = [
            models.Index(
                fields=["tournament", "-score", "-firsts", "score_at"],
                name="participant_standings_idx",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(tournament)s: %(score)s") % {
            "player": self.player_id,
            "tournament": self.tournament_id,
            "score": self.score,
        }


class PendingTable(models.Model):
    """A table a pass decided whose game is not made yet: the game's id and its players. Its
    players are not idle while it exists; making the game sets their `game_id` and deletes it
    (tournaments/services.py `tournament_tables_make`)."""

    game_id = models.UUIDField(primary_key=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pending_tables"
    )
    players = ArrayField(models.UUIDField())
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"table {self.game_id} of {self.tournament_id}"
