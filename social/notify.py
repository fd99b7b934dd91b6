"""What leaves social, always after the commit that caused it: a request and an acceptance on
the other player's `ws /ws/v1/me/`, a challenge's every change on both players', and presence
changes on every friend's."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from core.sockets import player_group, send_to_group, send_to_groups
from social.payloads import (
    ChallengeData,
    ChallengeMessage,
    FriendData,
    FriendMessage,
    FriendRequestData,
    FriendRequestMessage,
    PresenceMessage,
)
from social.selectors import PresenceOf


def friend_request_sent(receiver_id: UUID, request: FriendRequestData) -> None:
    message: FriendRequestMessage = {"type": "friend_request", "request": request}
    _after_commit(receiver_id, dict(message))


def friend_request_accepted(sender_id: UUID, friend: FriendData) -> None:
    message: FriendMessage = {"type": "friend", "friend": friend}
    _after_commit(sender_id, dict(message))


def challenge_changed(challenge: ChallengeData) -> None:
    """Both players are told of a challenge made, answered, withdrawn or expired."""
    message: ChallengeMessage = {"type": "challenge", "challenge": challenge}
    for player in (challenge["challenger"], challenge["challenged"]):
        _after_commit(UUID(player["id"]), dict(message))


def _after_commit(player_id: UUID, message: dict[str, object]) -> None:
    group = player_group(player_id)
    payload = {"type": "me.message", "message": message}
    transaction.on_commit(lambda: send_to_group(group, payload), robust=True)


def presence_changed(player_id: UUID, shown: PresenceOf, friend_ids: list[UUID]) -> None:
    """Tell each friend at once (one round trip, however many)."""
    message: PresenceMessage = {
        "type": "presence",
        "player_id": str(player_id),
        "presence": shown[0],
        "game_id": shown[1],
    }
    groups = [player_group(friend_id) for friend_id in friend_ids]
    send_to_groups(groups, {"type": "me.message", "message": dict(message)})
