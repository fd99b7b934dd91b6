"""`ws /ws/v1/me/` opens with a hello that says what `GET /me/` says of the player's table and
ticket (docs/api.md, Staying in sync)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import guest_create
from config.asgi import application
from matchmaking import services as matchmaking

pytestmark = pytest.mark.django_db(transaction=True)


async def _hello(token: str) -> dict[str, Any]:
    headers = [(b"authorization", f"Bearer {token}".encode())]
    socket = WebsocketCommunicator(application, "/ws/v1/me/", headers=headers)
    assert (await socket.connect())[0]
    hello: dict[str, Any] = await socket.receive_json_from(timeout=5)
    await socket.disconnect()
    return hello


def _as_me_says(me: dict[str, Any], hello: dict[str, Any]) -> None:
    assert hello["type"] == "hello"
    assert hello["player"] == {key: me[key] for key in hello["player"]}
    assert hello["player"]["id"] == me["id"]
    assert (hello["active_game"], hello["ticket"]) == (me["active_game"], me["ticket"])


async def test_the_hello_names_the_table(api_client, settings) -> None:
    _, token = await database_sync_to_async(guest_create)(display_name="Seated")
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    post = database_sync_to_async(api_client.post)
    game = (await post("/api/v1/games/", {"max_players": 2}, format="json")).json()
    me = (await database_sync_to_async(api_client.get)("/api/v1/me/")).json()
    assert me["active_game"] == game["id"]
    settings.YANIV_WS_KEEPALIVE_SECONDS = 7.5

    hello = await _hello(token)

    _as_me_says(me, hello)
    assert (hello["keepalive_seconds"], hello["idle_seconds"]) == (7.5, 60)


async def test_the_hello_names_the_searching_ticket(api_client, monkeypatch) -> None:
    monkeypatch.setattr("matchmaking.tasks.matchmaking_pass.delay", lambda: None)
    player, token = await database_sync_to_async(guest_create)(display_name="Queued")
    await database_sync_to_async(matchmaking.ticket_create)(player=player, player_counts=[2])
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    me = (await database_sync_to_async(api_client.get)("/api/v1/me/")).json()
    assert me["ticket"]["status"] == "searching"

    _as_me_says(me, await _hello(token))


async def test_the_hello_of_a_player_doing_nothing(api_client) -> None:
    _, token = await database_sync_to_async(guest_create)(display_name="Idle")
    hello = await _hello(token)
    assert (hello["active_game"], hello["ticket"]) == (None, None)
