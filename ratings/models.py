"""Ratings: each player's current rating, and a history row per player and rated game.

The history is the source of truth (recompute_ratings rebuilds from games and checks against
both tables); `Rating` is the latest history row of a player, kept for fast reads.
A change names its game by a lazy reference ("games.Game"): ratings sit below games and do
not import them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """A player's rating now. No row: the player has no rated game (OpenSkill's defaults)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3*sigma, stored (not aged) so that the leaderboard walks an index: an aged ordinal is
    # never above it (ratings/selectors.py `leaderboard`).
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(help_text="Rated games played.")
    # The `at` of the player's latest rated game: what is shown is this rating aged by the
    # days since (ratings/rating.py `aged`); the row itself changes only when a game is rated.
    last_game_at = models.DateTimeField()

    class Meta:
        indexes = [
            # The leaderboard's order, ties broken by id so that pages never overlap.
            models.Index(fields=["-ordinal", "player"], name="rating_leaderboard_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f} ({self.mu:.2f} ± {self.sigma:.2f})"


class RatingChange(models.Model):
    """What one rated game did to one player's rating."""

    id = models.BigAutoField(primary_key=True)
    # The (player, game) constraint below indexes the player column already.
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField()
    # The game's finished_at: games are rated in this order (then by game id), and a void
    # replays the games after this point.
    at = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_change_once_per_game"),
        ]
        indexes = [
            models.Index(fields=["player", "at", "game"], name="rating_change_player_idx"),
            models.Index(fields=["at", "game"], name="rating_change_order_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}: {self.mu_before:.2f} -> {self.mu:.2f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma
