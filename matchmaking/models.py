"""Matchmaking tickets: a player waiting for a ranked table, and what became of the wait."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Pool

# The table sizes a ranked game can have.
PLAYER_COUNTS = (2, 3, 4, 5)


class TicketStatus(models.TextChoices):
    SEARCHING = "searching", _("Searching")
    MATCHED = "matched", _("Matched")
    CANCELLED = "cancelled", _("Cancelled")
    EXPIRED = "expired", _("Expired")


class Ticket(models.Model):
    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("id")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tickets",
        verbose_name=_("player"),
    )
    status = models.CharField(
        max_length=10,
        choices=TicketStatus.choices,
        default=TicketStatus.SEARCHING,
        verbose_name=_("status"),
    )
    # Sorted, without duplicates: the table sizes the player accepts.
    player_counts = ArrayField(models.PositiveSmallIntegerField(), verbose_name=_("player counts"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    # When the ticket left `searching` (matched, cancelled or expired); null while it waits.
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("game"),
    )
    # How many of the game's seats CPU players filled (YANIV_QUEUE_CPU_FILL_SECONDS).
    cpu_seats = models.PositiveSmallIntegerField(default=0, verbose_name=_("cpu seats"))
    # The human queue, or the bots' ladder (docs/api.md, The bot ladder).
    pool = models.CharField(
        max_length=8, choices=Pool.choices, default=Pool.RANKED, verbose_name=_("pool")
    )

    class Meta:
        verbose_name = _("ticket")
        verbose_name_plural = _("tickets")
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(status="searching"),
                name="ticket_one_searching_per_player",
            ),
            models.CheckConstraint(
                condition=Q(player_counts__len__gte=1, player_counts__contained_by=PLAYER_COUNTS),
                name="ticket_player_counts_valid",
            ),
        ]
        # The pass reads the queue, and expires its oldest, every second; a bot's ticket
        # counts its ladder games of the last day (YANIV_BOT_GAMES_PER_DAY).
        indexes = [
            models.Index(
                fields=["created_at"],
                name="ticket_searching_idx",
                condition=Q(status="searching"),
            ),
            models.Index(
                fields=["player", "ended_at"],
                name="ticket_bots_matched_idx",
                condition=Q(status="matched", pool="bots"),
            ),
        ]

    def __str__(self) -> str:
        return gettext("ticket %(id)s (%(status)s)") % {"id": self.id, "status": self.status}
