"""The game and me websockets, through the real ASGI app and the Redis channel layer."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest
import redis
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import transaction

from accounts.services import ws_ticket_issue
from config.asgi import application
from core.perf.channels import group_channel
from core.sockets import viewer_group
from games.models import Event, Seat
from games.projection import viewer_seat
from games.services.clock import game_cpu_turn
from games.services.lobby import game_begin_ranked
from tests.games.conftest import Client, simple_move

pytestmark = pytest.mark.django_db(transaction=True)


def _table(make_client, *, start: bool = True) -> tuple[Client, Client, dict[str, Any]]:
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    if start:
        game = host.post(f"/api/v1/games/{game['id']}/start/").json()
    return host, guest, game


def _socket(path: str, client: Client | None = None, query: str = "") -> WebsocketCommunicator:
    headers = [] if client is None else [(b"authorization", f"Bearer {client.token}".encode())]
    return WebsocketCommunicator(application, f"{path}{query}", headers=headers)


async def test_connect_receive_the_state_then_each_move(make_client) -> None:
    host, guest, game = await database_sync_to_async(_table)(make_client)
    ticket, _ = await database_sync_to_async(ws_ticket_issue)(player=guest.player)
    socket = _socket(f"/ws/v1/games/{game['id']}/", query=f"?ticket={ticket}")
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == "game"
    assert first["event"] is None
    assert first["game"]["you"]["seat"] == 1
    assert first["game"]["seq"] == 0

    mover = host if game["turn"]["seat"] == 0 else guest
    view = await database_sync_to_async(mover.game)(game["id"])
    response = await database_sync_to_async(mover.act)(view, **simple_move(view))
    assert response.status_code == 200
    message = await socket.receive_json_from(timeout=5)
    assert message["event"]["type"] == "played"
    assert message["event"]["seq"] == 1
    assert message["game"]["seq"] == 1
    assert message["event"]["cards"] == response.json()["discard"]["cards"]
    await socket.disconnect()


@pytest.mark.parametrize("query", ["", "?ticket=not-a-ticket"])
async def test_a_bad_or_missing_ticket_closes_with_4401(make_client, query) -> None:
    _, _, game = await database_sync_to_async(_table)(make_client)
    socket = _socket(f"/ws/v1/games/{game['id']}/", query=query)
    await socket.connect()
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_a_ticket_works_once(make_client) -> None:
    _, guest, game = await database_sync_to_async(_table)(make_client)
    ticket, _ = await database_sync_to_async(ws_ticket_issue)(player=guest.player)
    first = _socket(f"/ws/v1/games/{game['id']}/", query=f"?ticket={ticket}")
    assert (await first.connect())[0]
    await first.disconnect()
    second = _socket(f"/ws/v1/games/{game['id']}/", query=f"?ticket={ticket}")
    await second.connect()
    assert await second.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_strangers_may_not_watch_a_private_game(make_client) -> None:
    _, _, game = await database_sync_to_async(_table)(make_client)
    stranger = await database_sync_to_async(make_client)("Stranger")
    socket = _socket(f"/ws/v1/games/{game['id']}/", stranger)
    connected, _ = await socket.connect()
    assert connected  # accepted first, so that the close code reaches the client
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}


async def test_opening_the_socket_returns_an_away_player(make_client) -> None:
    _, guest, game = await database_sync_to_async(_table)(make_client)

    def make_away() -> None:
        seat = Seat.objects.get(game_id=game["id"], player=guest.player)
        seat.away = True
        seat.save(update_fields=["away"])

    await database_sync_to_async(make_away)()
    socket = _socket(f"/ws/v1/games/{game['id']}/", guest)
    assert (await socket.connect())[0]
    first = await socket.receive_json_from(timeout=5)
    assert first["game"]["seats"][1]["away"] is False
    returned = await database_sync_to_async(
        Event.objects.filter(game_id=game["id"], type="player_returned").count
    )()
    assert returned == 1
    await socket.disconnect()


async def test_me_socket_says_your_turn(make_client) -> None:
    host, guest, game = await database_sync_to_async(_table)(make_client, start=False)
    sockets = {}
    for client in (host, guest):
        sockets[client.player.pk] = _socket("/ws/v1/me/", client)
        assert (await sockets[client.player.pk].connect())[0]
        assert (await sockets[client.player.pk].receive_json_from(timeout=5))["type"] == "hello"
    started = await database_sync_to_async(host.post)(f"/api/v1/games/{game['id']}/start/")
    turn = started.json()["turn"]["seat"]
    first = (host, guest)[turn]
    message = await sockets[first.player.pk].receive_json_from(timeout=5)
    assert message == {"type": "your_turn", "game_id": game["id"]}
    other = (host, guest)[1 - turn]
    assert await sockets[other.player.pk].receive_nothing(timeout=0.2)
    for socket in sockets.values():
        await socket.disconnect()


UNREADABLE_FRAMES = {
    "binary": ({"bytes": b"\x00\xff"}, "Frames must be JSON text, not binary."),
    "not JSON": ({"text": "hello"}, "This frame is not JSON."),
    "empty": ({"text": ""}, "This frame is not JSON."),
    "5000 deep": ({"text": "[" * 5000 + "]" * 5000}, "This frame's JSON is nested too deeply."),
}


@pytest.mark.parametrize("frame", UNREADABLE_FRAMES.values(), ids=UNREADABLE_FRAMES)
@pytest.mark.parametrize("which", ["game", "me"])
async def test_an_unreadable_frame_is_answered_and_the_socket_stays_open(
    make_client, which, frame
) -> None:
    """Channels raises on a frame that is not JSON text, which killed the socket (1006)."""
    _, guest, game = await database_sync_to_async(_table)(make_client)
    path = f"/ws/v1/games/{game['id']}/" if which == "game" else "/ws/v1/me/"
    socket = _socket(path, guest)
    assert (await socket.connect())[0]
    first = await socket.receive_json_from(timeout=5)
    assert first["type"] == ("game" if which == "game" else "hello")
    data, detail = frame
    await socket.send_input({"type": "websocket.receive", **data})
    assert await socket.receive_json_from(timeout=5) == {
        "type": "error",
        "code": "invalid",
        "detail": detail,
    }
    # Still open, and still reading: a JSON frame gets the listener's usual answer.
    await socket.send_json_to({"type": "play"})
    assert (await socket.receive_json_from(timeout=5))["code"] == "read_only"
    await socket.disconnect()


async def test_a_change_without_events_is_pushed_with_a_null_event(make_client) -> None:
    host = await database_sync_to_async(make_client)("Host")
    game = (await database_sync_to_async(host.post)("/api/v1/games/", {"max_players": 3})).json()
    socket = _socket(f"/ws/v1/games/{game['id']}/", host)
    assert (await socket.connect())[0]
    assert len((await socket.receive_json_from(timeout=5))["game"]["seats"]) == 1
    await database_sync_to_async(host.post)(f"/api/v1/games/{game['id']}/cpu/")
    message = await socket.receive_json_from(timeout=5)
    assert message["event"] is None
    assert [seat["is_cpu"] for seat in message["game"]["seats"]] == [False, True]
    await socket.disconnect()


async def _move(client: Client, game_id: str) -> dict[str, Any]:
    view = await database_sync_to_async(client.game)(game_id)
    response = await database_sync_to_async(client.act)(view, **simple_move(view))
    assert response.status_code == 200
    return response.json()


async def _guest_watching(make_client) -> tuple[Client, Client, dict[str, Any], Any]:
    """A started table of two, its guest's socket open past the first message."""
    host, guest, game = await database_sync_to_async(_table)(make_client)
    socket = _socket(f"/ws/v1/games/{game['id']}/", guest)
    assert (await socket.connect())[0]
    await socket.receive_json_from(timeout=5)
    return host, guest, game, socket


async def test_a_push_is_forwarded_without_touching_the_database(make_client) -> None:
    host, guest, game, socket = await _guest_watching(make_client)
    mover = host if game["turn"]["seat"] == 0 else guest
    view = await database_sync_to_async(mover.game)(game["id"])
    closes = mock.AsyncMock()
    with mock.patch("channels.consumer.aclose_old_connections", closes):
        await database_sync_to_async(mover.act)(view, **simple_move(view))
        message = await socket.receive_json_from(timeout=5)
    assert message["event"]["type"] == "played"
    assert closes.await_count == 0  # Channels' own dispatch closes connections (a thread hop)
    await socket.disconnect()


async def test_a_missed_update_is_read_from_the_database(make_client) -> None:
    host, guest, game, socket = await _guest_watching(make_client)
    players = (host, guest)
    turn = game["turn"]["seat"]
    with mock.patch("games.notify._publish"):  # this move's update is lost
        await _move(players[turn], game["id"])
    assert await socket.receive_nothing(timeout=0.2)
    await _move(players[1 - turn], game["id"])
    seqs = []
    for _ in range(2):
        message = await socket.receive_json_from(timeout=5)
        seqs.append((message["event"]["type"], message["event"]["seq"], message["game"]["seq"]))
    # Both moves, in order; the first read back with the game as it now is.
    assert seqs == [("played", 1, 2), ("played", 2, 2)]
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_an_update_already_sent_is_not_sent_again(make_client) -> None:
    host, guest, game, socket = await _guest_watching(make_client)
    first = await database_sync_to_async(Event.objects.filter(game_id=game["id"]).first)()
    assert first is not None
    stale = {"type": "game.update", "after": 0, "last": first.pk, "frames": []}
    await get_channel_layer().group_send(viewer_group(game["id"], guest.player.pk), stale)
    assert await socket.receive_nothing(timeout=0.3)
    await _move((host, guest)[game["turn"]["seat"]], game["id"])
    assert (await socket.receive_json_from(timeout=5))["event"]["type"] == "played"
    await socket.disconnect()


async def test_a_stranger_watches_a_ranked_game_as_a_stranger(make_client) -> None:
    def ranked() -> tuple[list[Client], str]:
        clients = [make_client(f"Ranked {index}") for index in range(2)]
        with transaction.atomic():
            table = game_begin_ranked(players=[client.player for client in clients])
        clients.sort(key=lambda client: viewer_seat(table.seats, client.player) or 0)
        return clients, str(table.game.pk)

    (first, second), game_id = await database_sync_to_async(ranked)()
    watcher = await database_sync_to_async(make_client)("Watcher")
    socket = _socket(f"/ws/v1/games/{game_id}/", watcher)
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=5))["game"]["you"] is None
    view = await database_sync_to_async(first.game)(game_id)
    mover = (first, second)[view["turn"]["seat"]]
    await _move(mover, game_id)
    message = await socket.receive_json_from(timeout=5)
    assert message["game"]["you"] is None
    assert message["event"]["type"] == "played"
    assert "drawn" not in message["event"]
    await socket.disconnect()


def test_a_failing_push_or_queue_does_not_fail_a_committed_move(make_client, caplog) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    view = host.post(f"/api/v1/games/{game['id']}/start/").json()
    if view["turn"]["seat"] != 0:  # the CPU starts: play its turn here, without a worker
        assert game_cpu_turn(game_id=game["id"], seq=view["seq"])
        view = host.game(game["id"])
    broken = mock.Mock(side_effect=RuntimeError("redis is down"))
    with (
        mock.patch("games.notify.send_to_group", broken),
        mock.patch("games.tasks.game_cpu_turn.apply_async", broken),
    ):
        response = host.act(view, **simple_move(view))
    assert response.status_code == 200
    assert response.json()["seq"] == view["seq"] + 1
    assert broken.call_count >= 2  # the push and the CPU's task were both tried
    assert "redis is down" in caplog.text


def test_a_change_returns_only_once_its_pushes_are_in_redis(make_client) -> None:
    """So that a client cannot get one change's push after the next change's, even when two
    web processes serve the two changes."""
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub()  # type: ignore[no-untyped-call]
    listener.subscribe(group_channel(viewer_group(game["id"], host.player.pk)))
    assert listener.get_message(timeout=1)["type"] == "subscribe"
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    # Redis answers a subscriber in order: a push published before the response is read
    # before the answer to a PING sent after it (a push published later would come after).
    listener.ping()
    received: list[Any] = []
    while not received or received[-1]["type"] != "pong":
        received.append(listener.get_message(timeout=2))
        assert received[-1] is not None
    listener.close()
    assert [message["type"] for message in received] == ["message", "pong"]
    pushed = get_channel_layer().deserialize(received[0]["data"])
    assert pushed["type"] == "game.update"
    assert len(json.loads(pushed["frames"][-1])["game"]["seats"]) == 2
