"""What leaves a game transaction, always after its commit (STYLE.md, Zulip's notify_*).

Sockets are told *that* a game changed, never what: each connection then reads the new
events and projects them for its own viewer, so no hidden card ever travels through Redis.
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.dispatch import Signal

from games.models import Game, Seat

logger = logging.getLogger(__name__)

# Sent after the commit that finished (or voided) a game; ratings subscribe to them.
game_finished_signal = Signal()
game_voided_signal = Signal()


def game_group(game_id: UUID | str) -> str:
    return f"game.{game_id}"


def player_group(player_id: UUID | str) -> str:
    return f"player.{player_id}"


def send_to_group(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        # A socket push is a courtesy: clients refetch on a gap. Never fail a move for it.
        logger.exception("could not notify %s", group)


def game_changed(game_id: UUID | str) -> None:
    transaction.on_commit(lambda: send_to_group(game_group(game_id), {"type": "game.changed"}))


def your_turn(seat: Seat, game: Game) -> None:
    if seat.player_id is None:
        return
    message = {"type": "me.message", "message": {"type": "your_turn", "game_id": str(game.pk)}}
    group = player_group(seat.player_id)
    transaction.on_commit(lambda: send_to_group(group, message))


def game_finished(game: Game) -> None:
    transaction.on_commit(lambda: game_finished_signal.send(sender=Game, game_id=game.pk))


def game_voided(game: Game) -> None:
    transaction.on_commit(lambda: game_voided_signal.send(sender=Game, game_id=game.pk))
