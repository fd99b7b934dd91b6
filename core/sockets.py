"""The socket groups, named here once, and the one way to publish to them.

A socket joins its groups in its consumer (`group_add`), and code that changes something tells
them after the commit that changed it (`send_to_group`):

- `player_sockets_group`: every open websocket of a player (accounts.ws_auth), so that a ban
  closes them all, and a change of the player's `chat` setting reaches them all;
- `player_group`: the player's `ws /ws/v1/me/` (ticket changes, `your_turn`, friends' news and
  presence);
- `game_group`: every socket on a game, told only *that* it changed;
- `viewer_group`: a game's sockets of one seated player, or of anyone watching, each given the
  change already projected for that viewer (games/notify.py decides what each is sent);
- `tournament_group`: every socket on an arena tournament's standings, told that they changed.
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from redis import RedisError

from core.perf.channels import group_publish, groups_publish

logger = logging.getLogger(__name__)


def tournament_group(tournament_id: UUID | str) -> str:
    return f"tournament.{tournament_id}"


def player_sockets_group(player_id: UUID | str) -> str:
    return f"player.{player_id}.sockets"


def player_group(player_id: UUID | str) -> str:
    return f"player.{player_id}"


def game_group(game_id: UUID | str) -> str:
    return f"game.{game_id}"


def viewer_group(game_id: UUID | str, player_id: UUID | str | None) -> str:
    """Where a game's updates go for one seated player, or (None) for anyone watching."""
    return f"game.{game_id}.{'watch' if player_id is None else player_id}"


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Publish a channel-layer message to a group, from synchronous code, before returning
    (core/perf/channels.py: why not the layer's `group_send`). A push never fails the change
    that caused it (clients refetch on a gap): a Redis error is logged."""
    try:
        group_publish(group, message)
    except RedisError:
        logger.exception("could not notify %s", group)


def send_to_groups(groups: list[str], message: dict[str, Any]) -> None:
    """`send_to_group` of one message to many groups, in one round trip."""
    if not groups:
        return
    try:
        groups_publish(groups, message)
    except RedisError:
        logger.exception("could not notify %d groups", len(groups))
