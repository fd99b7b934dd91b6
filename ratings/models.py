"""Ratings: each player's current rating, and its history: a row per player and rated game,
and one per rated player and season reset (the soft reset when a season opens: seasons/).

The history is the source of truth (recompute_ratings rebuilds from games and checks against
both tables); `Rating` is the latest history row of a player, kept for fast reads.
A change names its game by a lazy reference ("games.Game"): ratings sit below games and do
not import them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A player's rating now. No row: the player has no rated game (OpenSkill's defaults)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="rating",
        verbose_name=_("player"),
    )
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    # mu - 3*sigma, stored (not aged) so that the leaderboard walks an index: an aged ordinal is
    # never above it (ratings/selectors.py `leaderboard`).
    ordinal = models.FloatField(verbose_name=_("ordinal"))
    games = models.PositiveIntegerField(help_text=_("Rated games played."), verbose_name=_("games"))
    # The `at` of the player's latest rated game: what is shown is this rating aged by the
    # days since (ratings/rating.py `aged`); the row itself changes only when a game is rated.
    last_game_at = models.DateTimeField(verbose_name=_("last game at"))
    # Rated games since the latest season reset (the current season's): a player is placed on
    # the season's leaderboard at YANIV_SEASON_PLACEMENT_GAMES.
    season_games = models.PositiveIntegerField(default=0, verbose_name=_("season games"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [
            # The leaderboard's order, ties broken by id so that pages never overlap.
            models.Index(fields=["-ordinal", "player"], name="rating_leaderboard_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f} ({self.mu:.2f} ± {self.sigma:.2f})"


class ChangeKind(models.TextChoices):
    GAME = "game", _("Game")
    SEASON_RESET = "season_reset", _("Season Reset")


class RatingChange(models.Model):
    """What one rated game, or one season's soft reset, did to one player's rating.

    The history is in the order (at, then a reset before the games of the same instant, then
    game id): a season's reset is at its start, and the games from that instant on are its."""

    id = models.BigAutoField(primary_key=True, verbose_name=_("id"))
    # The (player, game) constraint below indexes the player column already.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
        verbose_name=_("player"),
    )
    kind = models.CharField(
        max_length=16, choices=ChangeKind.choices, default=ChangeKind.GAME, verbose_name=_("kind")
    )
    # A game's change: the game, the player's seat and final place.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        null=True,
        verbose_name=_("game"),
    )
    seat = models.PositiveSmallIntegerField(null=True, verbose_name=_("seat"))
    place = models.PositiveSmallIntegerField(null=True, verbose_name=_("place"))
    # A reset's: the number of the season it opened.
    season = models.PositiveIntegerField(null=True, verbose_name=_("season"))
    # The game's finished_at, or the season's start: the history's order, and a void replays
    # what comes after this point.
    at = models.DateTimeField(verbose_name=_("at"))
    mu_before = models.FloatField(verbose_name=_("mu before"))
    sigma_before = models.FloatField(verbose_name=_("sigma before"))
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_change_once_per_game"),
            models.UniqueConstraint(
                fields=["player", "season"], name="rating_change_one_reset_per_season"
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="game", game__isnull=False, season__isnull=True)
                    | models.Q(kind="season_reset", game__isnull=True, season__isnull=False)
                ),
                name="rating_change_game_or_reset",
            ),
        ]
        indexes = [
            models.Index(fields=["player", "at", "game"], name="rating_change_player_idx"),
            models.Index(fields=["at", "game"], name="rating_change_order_idx"),
        ]

    def __str__(self) -> str:
        numbers = {
            "player": self.player_id,
            "game": self.game_id,
            "season": self.season,
            "before": f"{self.sigma_before:.2f}",
            "after": f"{self.sigma:.2f}",
        }
        if self.game_id:
            text = gettext("%(player)s in %(game)s: %(before)s -> %(after)s sigma")
        else:
            text = gettext("%(player)s at season %(season)s's reset: %(before)s -> %(after)s sigma")
        return text % numbers

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma
