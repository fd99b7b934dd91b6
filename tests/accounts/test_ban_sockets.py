"""A ban closes the banned player's open websockets (4403) once it commits, through the real
ASGI application and the Redis channel layer."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import player_ban
from config.asgi import application
from tests.games.conftest import Client

pytestmark = pytest.mark.django_db(transaction=True)


def _table() -> tuple[Client, Client, dict[str, Any]]:
    host, guest = Client.guest("Host"), Client.guest("Guest")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    return host, guest, host.post(f"/api/v1/games/{game['id']}/start/").json()


async def _open(path: str, client: Client) -> WebsocketCommunicator:
    headers = [(b"authorization", f"Bearer {client.token}".encode())]
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def _close_code(socket: WebsocketCommunicator) -> int:
    """The code of the close the socket gets, after any game messages before it."""
    while True:
        message = await socket.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            return int(message["code"])
        assert message["type"] == "websocket.send", message


async def test_a_ban_closes_the_players_game_and_me_sockets_with_4403() -> None:
    host, guest, game = await database_sync_to_async(_table)()
    game_socket = await _open(f"/ws/v1/games/{game['id']}/", guest)
    assert (await game_socket.receive_json_from(timeout=5))["type"] == "game"
    me_socket = await _open("/ws/v1/me/", guest)
    host_socket = await _open("/ws/v1/me/", host)
    assert (await host_socket.receive_json_from(timeout=5))["type"] == "hello"

    await database_sync_to_async(player_ban)(player=guest.player, reason="Cheating.")

    assert await _close_code(game_socket) == 4403
    assert await _close_code(me_socket) == 4403
    for socket in (game_socket, me_socket, host_socket):
        await socket.disconnect()
    assert await host_socket.receive_nothing(timeout=0.1)  # the host's socket was not closed
