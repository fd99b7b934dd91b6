"""The websocket messages (docs/api.md, Realtime) in the OpenAPI schema.

No operation answers them, so drf-spectacular would not list them: this hook adds them as
components, `GameSocketMessage` and `MeSocketMessage`, each one of its socket's messages told
apart by `type`, so that clients generate their types too (and tests/schema_check.py checks
every message the suite receives). It sits in config, which no app imports: the me socket
carries four apps' messages, and only config may see them all.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.plumbing import build_mocked_view
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema

from chat.apis import ChatDeletedMessageSerializer, ChatMessageMessageSerializer
from games.apis import (
    GameMessageSerializer,
    KeepaliveMessageSerializer,
    PongMessageSerializer,
    SocketErrorMessageSerializer,
    YourTurnMessageSerializer,
)
from matchmaking.apis import TicketMessageSerializer
from players.apis import HelloMessageSerializer
from social.apis import (
    ChallengeMessageSerializer,
    FriendMessageSerializer,
    FriendRequestMessageSerializer,
    PresenceMessageSerializer,
)
from tournaments.apis import StandingsMessageSerializer, TournamentGameMessageSerializer

# What every listening socket sends besides its own messages (core/heartbeat.py).
LISTENING = {"keepalive": KeepaliveMessageSerializer, "pong": PongMessageSerializer}

# Each socket's messages, by the value of their `type`.
SOCKETS = [
    PolymorphicProxySerializer(
        component_name="GameSocketMessage",
        serializers={
            "game": GameMessageSerializer,
            "chat": ChatMessageMessageSerializer,
            "chat_deleted": ChatDeletedMessageSerializer,
            "error": SocketErrorMessageSerializer,
            **LISTENING,
        },
        resource_type_field_name="type",
    ),
    PolymorphicProxySerializer(
        component_name="MeSocketMessage",
        serializers={
            "hello": HelloMessageSerializer,
            "ticket": TicketMessageSerializer,
            "your_turn": YourTurnMessageSerializer,
            "tournament_game": TournamentGameMessageSerializer,
            "friend_request": FriendRequestMessageSerializer,
            "challenge": ChallengeMessageSerializer,
            "friend": FriendMessageSerializer,
            "presence": PresenceMessageSerializer,
            "error": SocketErrorMessageSerializer,
            **LISTENING,
        },
        resource_type_field_name="type",
    ),
    PolymorphicProxySerializer(
        component_name="TournamentSocketMessage",
        serializers={
            "standings": StandingsMessageSerializer,
            "error": SocketErrorMessageSerializer,
            **LISTENING,
        },
        resource_type_field_name="type",
    ),
]


def add_socket_messages(result: dict[str, Any], generator: Any, **_: Any) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: the sockets' components, resolved through the
    generator's own registry (so they share the operations' `Game`, `Event`, `Ticket`)."""
    view = build_mocked_view("get", "/", extend_schema(), generator.registry)
    for socket in SOCKETS:
        view.schema.resolve_serializer(socket, "response")
    result["components"] = generator.registry.build(spectacular_settings.APPEND_COMPONENTS)
    return result
