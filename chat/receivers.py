"""What chat does when other apps signal: an erased account's chat goes."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from accounts.models import Player
from accounts.signals import player_erased
from chat import services


@receiver(player_erased, dispatch_uid="chat.erased")
def forget_an_erased_players_chat(sender: Any, player: Player, **kwargs: Any) -> None:
    services.player_chat_erase(player_id=player.pk)
