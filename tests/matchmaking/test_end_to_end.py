"""Queueing through the API until a game begins: the real pass, run by a real Celery worker,
and the ticket messages on the real `ws /ws/v1/me/` socket."""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import Player
from accounts.services import auth_token_issue
from config.asgi import application
from matchmaking import services, tasks
from tests.factories import PlayerFactory
from tests.games.conftest import Client
from tests.matchmaking.conftest import TICKETS, queue


@pytest.mark.usefixtures("celery_worker")
def test_four_guests_who_queue_for_four_sit_at_one_ranked_active_game(api_client) -> None:
    clients = []
    for name in ("Noa", "Avi", "Dana", "Yossi"):
        guest = api_client.post("/api/v1/auth/guest/", {"display_name": name}).json()
        clients.append(Client(Player.objects.get(pk=guest["player"]["id"]), guest["token"]))
    tickets = []
    for client in clients:
        response = client.post(TICKETS, {"player_counts": [4]})
        assert response.status_code == 201, response.content
        tickets.append(response.json())

    started = time.monotonic()
    while True:
        seen = [
            client.get(f"{TICKETS}{t['id']}/").json()
            for client, t in zip(clients, tickets, strict=True)
        ]
        if all(ticket["status"] == "matched" for ticket in seen):
            break
        assert time.monotonic() - started < 5, seen
        # What the beat does every second (a queued ticket also asks for a pass, once a second).
        tasks.matchmaking_pass.delay()
        time.sleep(0.2)

    game_ids = {ticket["game_id"] for ticket in seen}
    assert len(game_ids) == 1
    game_id = game_ids.pop()
    for client in clients:
        game = client.game(game_id)
        assert (game["status"], game["ranked"]) == ("active", True)
        assert game["rules"]["turn_seconds"] == 60
        assert game["you"] is not None
        assert {seat["player"]["id"] for seat in game["seats"]} == {
            str(c.player.pk) for c in clients
        }
        assert client.get("/api/v1/me/").json()["ticket"] is None


async def _next_ticket(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The next ticket message (a match also brings the game's `your_turn`)."""
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "ticket":
            ticket: dict[str, Any] = message["ticket"]
            return ticket


@pytest.mark.django_db(transaction=True)
async def test_the_me_socket_hears_the_ticket_change(passes_requested) -> None:
    player, other = await database_sync_to_async(PlayerFactory.create_batch)(2)
    raw = await database_sync_to_async(auth_token_issue)(player=player)
    socket = WebsocketCommunicator(
        application, "/ws/v1/me/", headers=[(b"authorization", f"Bearer {raw}".encode())]
    )
    connected, _ = await socket.connect()
    assert connected
    try:
        ticket = await database_sync_to_async(queue)(player, [2])
        assert await _next_ticket(socket) == {
            "id": str(ticket.pk),
            "status": "searching",
            "player_counts": [2],
            "created_at": ticket.created_at.isoformat(),
            "game_id": None,
            "cpu_seats": 0,
            "pool": "ranked",
        }
        await database_sync_to_async(queue)(other, [2])
        result = await database_sync_to_async(services.matchmaking_pass)()
        assert result is not None

        matched = await _next_ticket(socket)
        assert (matched["status"], matched["game_id"]) == ("matched", str(result.games[0]))
    finally:
        await socket.disconnect()
