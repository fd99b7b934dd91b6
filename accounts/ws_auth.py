"""Who is on the other end of a websocket (docs/api.md, Realtime auth).

`PlayerAuthMiddleware` wraps the websocket router (config/asgi.py) and sets `scope["player"]`:
the Player, or None when the connection is not authenticated. A connection authenticates with
`?ticket=<ticket>` (from `POST /api/v1/auth/ws-ticket/`, single use) or, for clients that can
set headers, `Authorization: Bearer <token>`.

Consumers start `connect()` with `ws_require_player(self)`, which closes refused connections
consistently: 4401 for a missing, bad, used or expired ticket or token, 4403 for a banned player
(the websocket twin of REST's 403 `banned`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from rest_framework import exceptions

from accounts.authentication import bearer_token, token_authenticate
from accounts.models import Player
from accounts.services import ws_ticket_redeem
from core.encoding import json_text
from core.sockets import player_sockets_group

CLOSE_UNAUTHENTICATED = 4401
CLOSE_BANNED = 4403

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _header(scope: Scope, name: bytes) -> bytes:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value)
    return b""


def _player_by_ticket(ticket: str) -> tuple[Player | None, int | None]:
    player = ws_ticket_redeem(ticket=ticket)
    if player is None:
        return None, CLOSE_UNAUTHENTICATED
    if player.is_banned:
        return None, CLOSE_BANNED
    return player, None


def _player_by_header(header: bytes) -> tuple[Player | None, int | None]:
    try:
        raw = bearer_token(header)
        if raw is None:
            return None, CLOSE_UNAUTHENTICATED
        return token_authenticate(raw).player, None
    except exceptions.PermissionDenied:
        return None, CLOSE_BANNED
    except exceptions.AuthenticationFailed:
        return None, CLOSE_UNAUTHENTICATED


def _authenticate(scope: Scope) -> tuple[Player | None, int | None]:
    """(player, None) or (None, close code)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    tickets = query.get("ticket")
    if tickets:
        return _player_by_ticket(tickets[0])
    header = _header(scope, b"authorization")
    if header:
        return _player_by_header(header)
    return None, CLOSE_UNAUTHENTICATED


class PlayerAuthMiddleware:
    def __init__(self, inner: ASGIApp) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        outcome: tuple[Player | None, int | None] = await database_sync_to_async(_authenticate)(
            scope
        )
        player, refusal = outcome
        # A copy: the scope may be shared with whatever wraps this middleware.
        scope = {**scope, "player": player, "player_refusal": refusal}
        await self.inner(scope, receive, send)


async def ws_require_player(consumer: Any) -> Player | None:
    """The connection's player; or None after closing it with 4401 / 4403.

    The socket is accepted before it is closed: a close during the handshake reaches the
    client as a bare HTTP 403, without the close code that tells it why.
    """
    player: Player | None = consumer.scope.get("player")
    if player is None:
        await consumer.accept()
        await consumer.close(code=consumer.scope.get("player_refusal") or CLOSE_UNAUTHENTICATED)
    return player


class PlayerConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Base of the consumers of players' sockets: each socket of an authenticated player is in
    the player's group (core.sockets.player_sockets_group) from its first message to its
    last, and a ban, once committed, closes it with 4403; a change of the player's `chat`
    setting reaches it too."""

    sockets_group: str | None = None

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Every message as the REST answers are encoded (core/encoding.py: orjson)."""
        return json_text(content)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        player: Player | None = self.scope.get("player")
        if player is not None:
            self.sockets_group = player_sockets_group(player.pk)
            await self.channel_layer.group_add(self.sockets_group, self.channel_name)
        await super().websocket_connect(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.sockets_group is not None:
            await self.channel_layer.group_discard(self.sockets_group, self.channel_name)
        await super().websocket_disconnect(message)

    async def player_banned(self, message: dict[str, Any]) -> None:
        await self.close(code=CLOSE_BANNED)

    async def player_chat(self, message: dict[str, Any]) -> None:
        """The player changed their `chat` setting (`PATCH /me/`, after its commit): the
        socket's player takes it at once (a watcher's game socket filters its room's pushes by
        it), without reading the database."""
        player: Player | None = self.scope.get("player")
        if player is not None:
            player.chat = message["chat"]
