"""A rematch's steps reach the finished game's sockets (docs/api.md, Rematch)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.models import Game
from tests.games.conftest import Client

pytestmark = pytest.mark.django_db(transaction=True)


def _finished_table(make_client, make_game) -> tuple[Client, Client, Game]:
    host, guest = make_client("Host"), make_client("Guest")
    game = make_game([(host.player, 1), (guest.player, 2)], ranked=False, host=host.player)
    return host, guest, game


async def test_offer_accept_and_start_are_pushed_to_the_seated_players(
    make_client, make_game
) -> None:
    host, guest, game = await database_sync_to_async(_finished_table)(make_client, make_game)
    socket = WebsocketCommunicator(
        application,
        f"/ws/v1/games/{game.pk}/",
        headers=[(b"authorization", f"Bearer {guest.token}".encode())],
    )
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=5))["event"] is None
    rematch = f"/api/v1/games/{game.pk}/rematch/"

    offered = await database_sync_to_async(host.post)(rematch)
    assert offered.status_code == 200
    message = await socket.receive_json_from(timeout=5)
    assert message["event"]["type"] == "rematch_offered"
    assert message["event"]["seat"] == 0

    started = (await database_sync_to_async(guest.post)(rematch)).json()
    types = []
    for _ in range(2):
        message = await socket.receive_json_from(timeout=5)
        types.append(message["event"]["type"])
    assert types == ["rematch_accepted", "rematch_started"]
    assert message["event"]["game_id"] == started["game_id"]
    await socket.disconnect()
