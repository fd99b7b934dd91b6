"""What social does when other apps signal: presence changes told to friends, in a task (a
player may have 500 friends, and a socket or a game's commit must not wait for them); an erased
account's friendships, requests and blocks gone."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.dispatch import receiver

from accounts.models import Player
from accounts.signals import player_erased, player_presence_changed
from games.notify import game_playing_changed_signal
from social import services, tasks


@receiver(player_presence_changed, dispatch_uid="social.presence_changed")
def tell_friends_of_a_presence(sender: Any, player_id: UUID, **kwargs: Any) -> None:
    tasks.presence_push.delay([str(player_id)])


@receiver(game_playing_changed_signal, dispatch_uid="social.playing_changed")
def tell_friends_who_plays(sender: Any, player_ids: list[UUID], **kwargs: Any) -> None:
    tasks.presence_push.delay([str(player_id) for player_id in player_ids])


@receiver(player_erased, dispatch_uid="social.erased")
def forget_an_erased_player(sender: Any, player: Player, **kwargs: Any) -> None:
    services.player_social_erase(player_id=player.pk)
