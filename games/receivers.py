"""What games do when something happens elsewhere, or once a game's end is committed."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.dispatch import receiver

from accounts.models import Player
from accounts.signals import player_banned, player_erased
from games import tasks
from games.models import Game
from games.notify import game_finished_signal, game_voided_signal
from games.services.play import player_hand_over_games


@receiver(player_banned)
@receiver(player_erased)
def hand_banned_players_seats_to_the_cpu(sender: Any, player: Player, **kwargs: Any) -> None:
    player_hand_over_games(player=player)


# Both signals are sent after the commit that caused them (games/notify.py), so the tasks can
# be queued at once.


@receiver(game_finished_signal, dispatch_uid="games.rate_finished")
def rate_a_finished_ranked_game(sender: Any, game_id: UUID, **kwargs: Any) -> None:
    # Private games (and an unrated tournament's) are never rated: no task for them.
    if Game.objects.filter(pk=game_id, ranked=True, rated=True).exists():
        tasks.game_rate.delay(str(game_id))


@receiver(game_voided_signal, dispatch_uid="games.unrate_voided")
def roll_back_a_voided_games_ratings(sender: Any, game_id: UUID, **kwargs: Any) -> None:
    # Also sent for an unrated tournament game (its points are taken back): nothing to undo.
    if Game.objects.filter(pk=game_id, rated_at__isnull=False).exists():
        tasks.game_unrate.delay(str(game_id))
