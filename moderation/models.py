"""Players' reports about other seats of games they played, and what staff made of them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game


class ReportReason(models.TextChoices):
    CHEATING = "cheating", _("Cheating")
    ABUSE = "abuse", _("Abuse")
    AFK = "afk", _("AFK (not playing)")
    OTHER = "other", _("Other")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("Open")
    DISMISSED = "dismissed", _("Dismissed")
    WARNED = "warned", _("Warned")
    BANNED = "banned", _("Banned")


class Report(models.Model):
    # Declared for its name in the admin's list ("ID", as Django names one it makes).
    id = models.BigAutoField(primary_key=True, verbose_name=_("ID"))
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="+", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    # The seat's player when the report was made (a CPU seat cannot be reported).
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_about",
        verbose_name=_("reported"),
    )
    reason = models.CharField(max_length=10, choices=ReportReason.choices, verbose_name=_("reason"))
    text = models.CharField(max_length=1000, blank=True, verbose_name=_("text"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    status = models.CharField(
        max_length=10,
        choices=ReportStatus.choices,
        default=ReportStatus.OPEN,
        verbose_name=_("status"),
    )
    resolved_at = models.DateTimeField(null=True, blank=True, verbose_name=_("resolved at"))
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("resolved by"),
    )
    resolution_note = models.CharField(
        max_length=500, blank=True, verbose_name=_("resolution note")
    )

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
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
        return gettext("report %(id)s: %(reason)s about seat %(seat)s of %(game)s") % {
            "id": self.pk,
            "reason": self.reason,
            "seat": self.seat,
            "game": self.game_id,
        }
