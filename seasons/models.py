"""Seasons (docs/api.md, Seasons): the ranked ladder starts again every YANIV_SEASON_DAYS days.

A season is a row; exactly one is current. When it ends, its standings are frozen here (a row
per player who played a rated game in it) and the next opens with a soft reset of every rated
player's sigma, which is ratings' to keep (a `season_reset` entry in each player's history).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class SeasonStatus(models.TextChoices):
    CURRENT = "current", _("Current")
    FINISHED = "finished", _("Finished")


class Season(models.Model):
    number = models.PositiveIntegerField(primary_key=True, verbose_name=_("number"))
    name = models.CharField(max_length=64, verbose_name=_("name"))
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    # When it ends (staff may move it, or end the season now, in the admin); for a finished
    # season, when it ended.
    ends_at = models.DateTimeField(verbose_name=_("ends at"))
    status = models.CharField(
        max_length=16,
        choices=SeasonStatus.choices,
        default=SeasonStatus.CURRENT,
        verbose_name=_("status"),
    )
    # What opening it did to every rated player's sigma (YANIV_SEASON_SIGMA_BUMP then; the first
    # season opened with no reset): recompute_ratings replays it.
    sigma_bump = models.FloatField(default=0.0, verbose_name=_("sigma bump"))
    # The rated games in the season that placed a player (YANIV_SEASON_PLACEMENT_GAMES), kept
    # when the standings are frozen; null while the season is current (the setting applies).
    placement_games = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("placement games")
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["status"],
                condition=models.Q(status="current"),
                name="season_one_current",
            ),
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="season_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class SeasonStanding(models.Model):
    """Where one player stood when a season ended: frozen, never changed after (a void of one
    of the season's games re-rates the players, not what the board said)."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="standings", verbose_name=_("season")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="season_standings",
        verbose_name=_("player"),
    )
    games = models.PositiveIntegerField(
        help_text=_("Rated games in the season."), verbose_name=_("games")
    )
    # The rating at the season's end, aged to it.
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    ordinal = models.FloatField(verbose_name=_("ordinal"))
    # Null: not placed (fewer rated games than the season's placement games, or banned then).
    rank = models.PositiveIntegerField(null=True, verbose_name=_("rank"))
    tier = models.CharField(max_length=16, blank=True, default="", verbose_name=_("tier"))

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_standing_once"),
        ]
        indexes = [
            models.Index(fields=["season", "rank", "player"], name="season_standing_board_idx"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in season %(season)s: %(rank)s") % {
            "player": self.player_id,
            "season": self.season_id,
            "rank": self.rank or gettext("not placed"),
        }
