"""What games do when something happens elsewhere."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from accounts.models import Player
from accounts.signals import player_banned
from games.services.play import player_hand_over_games


@receiver(player_banned)
def hand_banned_players_seats_to_the_cpu(sender: Any, player: Player, **kwargs: Any) -> None:
    player_hand_over_games(player=player)
