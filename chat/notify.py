"""What leaves chat's transactions, after their commit: a room's news on its game's sockets.

Games sit below chat and know nothing of it: a room's message goes to the game's group as a
`room.message`, which every game socket receives and forwards only when it reads that room
(games/consumers.py): a seated player's socket the players' room, anyone else's the
spectators' room; never to a viewer the message lists as `hidden` (blocked either way with the
author, or, in the players' room, a seated player whose chat setting hides it); and a
spectator's socket applies its own chat setting to `kind`.
"""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction

from chat.models import ChatMessage
from chat.payloads import ChatDeletedMessage, ChatMessageMessage, RoomName
from chat.selectors import message_data
from core.sockets import game_group, send_to_group


def _to_room(message: ChatMessage, hidden: list[str], payload: Any) -> None:
    envelope = {
        "type": "room.message",
        "room": message.room,
        "kind": "text" if message.text else "phrase",
        "hidden": hidden,
        "message": payload,
    }
    group = game_group(message.game_id)
    transaction.on_commit(lambda: send_to_group(group, envelope), robust=True)


def chat_posted(message: ChatMessage, hidden: list[str]) -> None:
    payload: ChatMessageMessage = {"type": "chat", "message": message_data(message)}
    _to_room(message, hidden, payload)


def chat_deleted(message: ChatMessage, hidden: list[str]) -> None:
    payload: ChatDeletedMessage = {
        "type": "chat_deleted",
        "id": str(message.pk),
        "room": cast(RoomName, message.room),
    }
    _to_room(message, hidden, payload)
