"""Every lock chat takes: the author's player row (accounts' `player_lock`), while a post is
checked against the flood limits and written, so that two posts at once are counted one after
the other (core/locks.py: a player, second in the order); and a message's row while a moderator
deletes it. These transactions take no other lock."""

from __future__ import annotations

from uuid import UUID

from accounts.locks import player_lock
from accounts.models import Player
from chat.models import ChatMessage


def author_lock(player_id: UUID) -> Player:
    """The player's row, read afresh and locked until the transaction ends."""
    return player_lock(player_id)


def message_lock(message_id: UUID) -> ChatMessage:
    """A message's row, read afresh and locked until the transaction ends."""
    return ChatMessage.objects.select_for_update().get(pk=message_id)
