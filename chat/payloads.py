"""What chat puts in payloads (docs/api.md, Chat): a message, a phrase, a report, and the game
socket's `chat` and `chat_deleted` messages."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from core.payloads import Doc, Timestamp, Uuid
from ratings.payloads import PlayerData

RoomName = Literal["players", "spectators"]

_ROOM = '"players" (the seated players\') or "spectators" (a ranked game\'s watchers\').'


class ChatMessageData(TypedDict):
    """One message: free `text`, or a `phrase` (its id: `GET /chat/phrases/`), never both."""

    id: Uuid
    room: Annotated[RoomName, Doc(_ROOM)]
    player: Annotated[PlayerData, Doc("The author.")]
    text: NotRequired[Annotated[str, Doc("Free text (1-200 characters).")]]
    phrase: NotRequired[Annotated[str, Doc("A phrase's id (`GET /chat/phrases/`).")]]
    at: Timestamp


class PhraseData(TypedDict):
    id: str
    text: str


class ChatReportData(TypedDict):
    id: Uuid
    message_id: Uuid
    created_at: Timestamp


class ChatMessageMessage(TypedDict):
    """`ws /ws/v1/games/{id}/`: a message in a room the viewer reads."""

    type: Literal["chat"]
    message: ChatMessageData


class ChatDeletedMessage(TypedDict):
    """`ws /ws/v1/games/{id}/`: a moderator deleted this message: clients remove it."""

    type: Literal["chat_deleted"]
    id: Uuid
    room: Annotated[RoomName, Doc(_ROOM)]
