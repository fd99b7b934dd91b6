"""Staying in sync (docs/api.md): a game socket opened with `?after=SEQ` sends exactly the
events missed, then live ones; every listening socket sends keep-alives, answers pings, and
closes when its client has been silent too long (core/heartbeat.py)."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from core.heartbeat import CLOSE_IDLE, Heartbeat, heartbeat
from games.models import Event
from games.projection import game_payload
from tests.games.conftest import Client, play_moves

pytestmark = pytest.mark.django_db(transaction=True)


def _table(make_client) -> tuple[list[Client], str]:
    """A started table of two guests, in seat order."""
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    host.post(f"/api/v1/games/{game['id']}/start/")
    return [host, guest], game["id"]


async def _open(client: Client, path: str) -> WebsocketCommunicator:
    headers = [(b"authorization", f"Bearer {client.token}".encode())]
    socket = WebsocketCommunicator(application, path, headers=headers)
    assert (await socket.connect())[0]
    return socket


async def _all_messages(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Every message until the socket stays quiet."""
    messages = []
    while not await socket.receive_nothing(timeout=0.3):
        messages.append(await socket.receive_json_from(timeout=5))
    return messages


def _play_past_a_round_end(game_id: str, clients: list[Client], after: int) -> None:
    """Moves until a round has ended after seq `after`, and two more."""
    events = Event.objects.filter(game_id=game_id, seq__gt=after, type="round_ended")
    while not events.exists():
        play_moves(game_id, clients, 1)
    play_moves(game_id, clients, 2)


def _missed(client: Client, game_id: str, after: int) -> list[dict[str, Any]]:
    """The events after `after` as REST shows them to `client` (the same projection)."""
    response = client.get(f"/api/v1/games/{game_id}/events/?after={after}&limit=500")
    assert response.status_code == 200
    return list(response.json()["results"])


async def test_a_reconnect_with_after_gets_exactly_the_missed_events(make_client) -> None:
    clients, game_id = await database_sync_to_async(_table)(make_client)
    guest = clients[1]
    socket = await _open(guest, f"/ws/v1/games/{game_id}/")
    seen = (await socket.receive_json_from(timeout=5))["game"]["seq"]
    await socket.disconnect()

    await database_sync_to_async(_play_past_a_round_end)(game_id, clients, seen)
    missed = await database_sync_to_async(_missed)(guest, game_id, seen)
    now = await database_sync_to_async(guest.game)(game_id)

    socket = await _open(guest, f"/ws/v1/games/{game_id}/?after={seen}")
    messages = await _all_messages(socket)
    events = [message["event"] for message in messages]
    assert events == missed  # exactly those, in order
    assert all(message["game"] == now for message in messages)  # each with the game as it is
    types = [event["type"] for event in events]
    assert "round_ended" in types
    assert "round_started" in types
    # Projected for the guest's seat: what it drew itself, never what the host drew.
    plays = [event for event in events if event["type"] == "played"]
    assert {event["seat"] for event in plays} == {0, 1}
    for event in plays:
        assert ("drawn" in event) == (event["seat"] == 1)
    assert now["you"]["seat"] == 1
    assert all("hand" not in seat for seat in now["seats"])

    # Then live, from where the catch-up stopped.
    await database_sync_to_async(play_moves)(game_id, clients, 1)
    live = await socket.receive_json_from(timeout=5)
    assert live["event"]["seq"] == now["seq"] + 1
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_change_during_the_catch_up_is_sent_once(make_client) -> None:
    """A move committed after the catch-up read its events comes live, once, after them."""
    clients, game_id = await database_sync_to_async(_table)(make_client)
    await database_sync_to_async(play_moves)(game_id, clients, 3)
    moved: list[bool] = []

    def move_then_payload(*args: Any) -> Any:
        if not moved:
            moved.append(True)
            play_moves(game_id, clients, 1)  # the catch-up's events are read: this one is not
        return game_payload(*args)

    with mock.patch("games.consumers.game_payload", move_then_payload):
        socket = await _open(clients[0], f"/ws/v1/games/{game_id}/?after=1")
        messages = await _all_messages(socket)
    assert moved
    missed = await database_sync_to_async(_missed)(clients[0], game_id, 1)
    assert [message["event"] for message in messages] == missed
    assert missed[-1]["seq"] == 4
    await socket.disconnect()


async def test_nothing_missed_sends_the_game_alone(make_client) -> None:
    clients, game_id = await database_sync_to_async(_table)(make_client)
    await database_sync_to_async(play_moves)(game_id, clients, 2)
    socket = await _open(clients[0], f"/ws/v1/games/{game_id}/?after=2")
    messages = await _all_messages(socket)
    assert [(message["event"], message["game"]["seq"]) for message in messages] == [(None, 2)]
    await socket.disconnect()


@pytest.mark.parametrize("after", ["-1", "x", "", "1.5", "+1", "٣"])
async def test_a_bad_after_is_refused_with_4400(make_client, after: str) -> None:
    clients, game_id = await database_sync_to_async(_table)(make_client)
    socket = await _open(clients[0], f"/ws/v1/games/{game_id}/?after={after}")
    error = await socket.receive_json_from(timeout=5)
    assert (error["type"], error["code"]) == ("error", "invalid")
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4400}


async def _listening(make_client, which: str) -> WebsocketCommunicator:
    """A game or me socket, open past its first message."""
    clients, game_id = await database_sync_to_async(_table)(make_client)
    path = f"/ws/v1/games/{game_id}/" if which == "game" else "/ws/v1/me/"
    socket = await _open(clients[0], path)
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == ("game" if which == "game" else "hello")
    return socket


@pytest.mark.parametrize("which", ["game", "me"])
async def test_a_silent_socket_is_sent_keepalives(make_client, settings, which: str) -> None:
    settings.YANIV_WS_KEEPALIVE_SECONDS = 0.1
    socket = await _listening(make_client, which)
    for _ in range(2):
        assert await socket.receive_json_from(timeout=5) == {"type": "keepalive"}
    await socket.disconnect()


@pytest.mark.parametrize("which", ["game", "me"])
async def test_a_ping_is_answered_and_keeps_the_socket_open(
    make_client, settings, which: str
) -> None:
    settings.YANIV_WS_IDLE_SECONDS = 0.6
    socket = await _listening(make_client, which)
    for _ in range(8):  # 0.8 s in all, past the idle limit: each ping renews it
        await socket.send_json_to({"type": "ping"})
        assert await socket.receive_json_from(timeout=5) == {"type": "pong"}
        await asyncio.sleep(0.1)
    # Silent from now: closed as idle.
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_IDLE}
    await socket.disconnect()


async def test_sockets_share_one_timer(make_client) -> None:
    sockets = [await _listening(make_client, which) for which in ("game", "me", "me")]
    beat = heartbeat()
    assert len(beat.sockets) == 3
    task = beat.task
    assert task is not None
    assert not task.done()
    for socket in sockets:
        await socket.disconnect()
    assert not beat.sockets


class FakeSocket:
    def __init__(self, heard_at: float, sent_at: float) -> None:
        self.heard_at, self.sent_at = heard_at, sent_at
        self.calls: list[str] = []

    async def keepalive(self) -> None:
        self.calls.append("keepalive")

    async def idle_close(self) -> None:
        self.calls.append("close")

    async def drain_close(self) -> None:
        self.calls.append("drain")


async def test_a_beat_closes_the_idle_and_wakes_the_silent() -> None:
    beat = Heartbeat()
    idle, silent, busy = FakeSocket(0, 95), FakeSocket(50, 70), FakeSocket(90, 95)
    beat.sockets = {idle, silent, busy}
    beat.beat(100, keepalive=20, idle=60)
    await asyncio.gather(*beat.sending)
    assert (idle.calls, silent.calls, busy.calls) == (["close"], ["keepalive"], [])
    assert beat.sockets == {silent, busy}
    assert silent.sent_at == 100  # the next keep-alive 20 s from now
    beat.beat(105, keepalive=20, idle=60)
    assert not beat.sending
