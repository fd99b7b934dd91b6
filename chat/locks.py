"""Every lock chat takes: the author's player row, while a post is checked against the flood
limits and written, so that two posts at once are counted one after the other (core/locks.py:
a player, second in the order; these transactions take no other lock)."""

from __future__ import annotations

from uuid import UUID

from accounts.models import Player


def author_lock(player_id: UUID) -> Player:
    """The player's row, read afresh and locked until the transaction ends."""
    return Player.objects.select_for_update().get(pk=player_id)
