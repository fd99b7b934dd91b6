"""Players' reports about other seats of games they played, and what staff made of them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models import Game


class ReportReason(models.TextChoices):
    CHEATING = "cheating", "Cheating"
    ABUSE = "abuse", "Abuse"
    AFK = "afk", "AFK (not playing)"
    OTHER = "other", "Other"


class ReportStatus(models.TextChoices):
    OPEN = "open"
    DISMISSED = "dismissed"
    WARNED = "warned"
    BANNED = "banned"


class Report(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made"
    )
    # The seat's player when the report was made (a CPU seat cannot be reported).
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_about"
    )
    reason = models.CharField(max_length=10, choices=ReportReason.choices)
    text = models.CharField(max_length=1000, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(
        max_length=10, choices=ReportStatus.choices, default=ReportStatus.OPEN
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolution_note = models.CharField(max_length=500, blank=True)

    class Meta:
        constraints = [
            # The limit per player and game: one report per other seat.
            models.UniqueConstraint(
                fields=["game", "reporter", "seat"], name="report_once_per_seat"
            ),
        ]
        indexes = [
            models.Index(fields=["created_at"], name="report_open_idx", condition=Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"report {self.pk}: {self.reason} about seat {self.seat} of {self.game_id}"
