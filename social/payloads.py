"""What social puts in payloads (docs/api.md, Friends, blocks and presence): a friend, a
request, a block, a challenge, and the `ws /ws/v1/me/` messages."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from core.payloads import Doc, Timestamp, Uuid
from games.payloads import RulesData
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


ChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]


class ChallengeData(TypedDict):
    id: Uuid
    challenger: Annotated[PlayerData, Doc("Who asks; the table's host when accepted.")]
    challenged: PlayerData
    max_players: int
    rules: Annotated[RulesData, Doc("The table's rules, every key resolved.")]
    status: Annotated[
        ChallengeStatus,
        Doc(
            '"open" until answered, withdrawn ("cancelled": by the challenger, or by a block) or '
            'past `expires_at` ("expired").'
        ),
    ]
    created_at: Timestamp
    expires_at: Timestamp
    game_id: Annotated[Uuid | None, Doc('The table it made ("accepted"); else null.')]


class ChallengeListData(TypedDict):
    incoming: Annotated[list[ChallengeData], Doc("Open challenges to the caller, newest first.")]
    outgoing: Annotated[list[ChallengeData], Doc("Open challenges the caller sent, newest first.")]


class ChallengeMessage(TypedDict):
    """`ws /ws/v1/me/`: a challenge to or from you was made or changed (both players are told
    of every change; accepted, `game_id` is the table both now sit at)."""

    type: Literal["challenge"]
    challenge: ChallengeData
