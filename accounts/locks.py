"""Every row lock of the accounts app: a player's (core/locks.py: the order across apps).

A player's row lock orders the writes that must see each other: registration, a ban and its
lifting, and (matchmaking) a ticket queued against a ban or a second request of the same
player.
"""

from __future__ import annotations

from uuid import UUID

from accounts.models import Player


def player_lock(player_id: UUID) -> Player:
    """The player's row, read afresh and locked until the transaction ends."""
    return Player.objects.select_for_update().get(pk=player_id)
