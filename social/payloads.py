"""What social puts in payloads (docs/api.md, Friends, blocks and presence): a friend, a
request, a block, and the `ws /ws/v1/me/` messages."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from core.payloads import Doc, Timestamp, Uuid
from ratings.payloads import PlayerData

Presence = Literal["online", "playing", "offline"]

_PRESENCE = (
    '"online" (a `ws /ws/v1/me/` socket open), "playing" (and at an active table) or '
    '"offline" (no socket, or the player appears offline).'
)
_GAME_ID = 'With "playing", the game when it is public (ranked); else null.'


class FriendData(TypedDict):
    player: PlayerData
    since: Timestamp
    presence: Annotated[Presence, Doc(_PRESENCE)]
    game_id: Annotated[Uuid | None, Doc(_GAME_ID)]


class FriendRequestData(TypedDict):
    player: Annotated[PlayerData, Doc("The other player: the sender of an incoming request.")]
    direction: Literal["incoming", "outgoing"]
    created_at: Timestamp


class FriendOutcomeData(TypedDict):
    """What `POST /me/friends/` did: sent a request, or accepted theirs."""

    status: Annotated[
        Literal["requested", "friends"],
        Doc('"requested": a request was sent; "friends": theirs was accepted.'),
    ]
    request: Annotated[FriendRequestData | None, Doc('The request sent ("requested").')]
    friend: Annotated[FriendData | None, Doc('The new friend ("friends").')]


class BlockData(TypedDict):
    player: PlayerData
    since: Timestamp


class FriendRequestMessage(TypedDict):
    """`ws /ws/v1/me/`: a player asks to be your friend (accept with `POST /me/friends/`)."""

    type: Literal["friend_request"]
    request: FriendRequestData


class FriendMessage(TypedDict):
    """`ws /ws/v1/me/`: a player you asked accepted: you are friends."""

    type: Literal["friend"]
    friend: FriendData


class PresenceMessage(TypedDict):
    """`ws /ws/v1/me/`: what a friend is doing changed."""

    type: Literal["presence"]
    player_id: Uuid
    presence: Annotated[Presence, Doc(_PRESENCE)]
    game_id: Annotated[Uuid | None, Doc(_GAME_ID)]
