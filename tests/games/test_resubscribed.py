"""The channel layer subscribes again after losing its Redis connection, and tells its sockets
(core/layer.py): a game's socket then reads back the events whose pushes were lost, a
tournament's standings socket its board. (tests/core/test_failover.py: the same after a real
failover.)"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from accounts.services import auth_token_issue, ws_ticket_issue
from config.asgi import application
from core import layer as core_layer
from core.perf.channels import group_channel
from core.redis import get_redis
from tests.factories import PlayerFactory
from tests.games.conftest import simple_move
from tests.games.test_sockets import _table
from tests.tournaments.test_socket import _arena_of
from tournaments.selectors import board_key
from tournaments.services import tournament_join


async def _subscribed(group: str) -> None:
    for _ in range(100):  # the layer subscribes on a connection of its own
        if get_redis().pubsub_numsub(group_channel(group))[0][1]:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{group} not subscribed")


async def test_a_lost_subscription_is_made_again_and_every_channel_told() -> None:
    """Its Redis connection killed (as a Redis restart or a dead primary does): the layer
    connects again, subscribes again, and hands each of its channels `layer.resubscribed`."""
    layer = channel_layers.make_backend("default")
    group = "layer.resubscribe"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        await _subscribed(group)
        (shard,) = layer._get_layer()._shards
        host, port = shard._pubsub.connection._writer.get_extra_info("sockname")[:2]
        before = time.monotonic()
        assert get_redis().client_kill_filter(_type=None, addr=f"{host}:{port}") == 1
        told = await asyncio.wait_for(layer.receive(channel), timeout=10)
        assert told["type"] == "layer.resubscribed"
        assert told["at"] >= before
        await _subscribed(group)
        await layer.group_send(group, {"type": "after"})
        assert await asyncio.wait_for(layer.receive(channel), timeout=5) == {"type": "after"}
    finally:
        await layer.group_discard(group, channel)
        await layer.flush()


def _resubscribed() -> None:
    """What the layer does once subscribed again, to every channel of this process."""
    layer = channel_layers["default"]
    for shard in layer._get_layer()._shards:
        shard.resubscribed()


@pytest.mark.django_db(transaction=True)
async def test_a_game_socket_reads_back_the_moves_whose_pushes_were_lost(make_client) -> None:
    host, guest, game = await database_sync_to_async(_table)(make_client)
    ticket, _ = await database_sync_to_async(ws_ticket_issue)(player=guest.player)
    socket = WebsocketCommunicator(application, f"/ws/v1/games/{game['id']}/?ticket={ticket}")
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=5))["game"]["seq"] == 0

    mover = host if game["turn"]["seat"] == 0 else guest
    # Two moves made while the process was not subscribed: their pushes reach nobody.
    with mock.patch("core.sockets.group_publish"):
        for _ in range(2):
            view = await database_sync_to_async(mover.game)(game["id"])
            response = await database_sync_to_async(mover.act)(view, **simple_move(view))
            assert response.status_code == 200
            mover = guest if mover is host else host
    assert await socket.receive_nothing(timeout=0.3)

    _resubscribed()
    read_back = [await socket.receive_json_from(timeout=5) for _ in range(2)]
    assert [message["event"]["seq"] for message in read_back] == [1, 2]
    assert read_back[-1]["game"]["seq"] == 2
    # Told again with nothing missed: nothing is sent twice.
    _resubscribed()
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_sockets_without_anything_to_read_back_stay_open(make_client) -> None:
    """The player's own socket has no handler of its own: it ignores the message."""
    client = await database_sync_to_async(make_client)("Me")
    ticket, _ = await database_sync_to_async(ws_ticket_issue)(player=client.player)
    socket = WebsocketCommunicator(application, f"/ws/v1/me/?ticket={ticket}")
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from(timeout=5))["type"] == "hello"
    _resubscribed()
    assert await socket.receive_nothing(timeout=0.3)
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(timeout=5) == {"type": "pong"}
    await socket.disconnect()


def test_the_settings_layer_is_this_one() -> None:
    layer: Any = channel_layers["default"]
    assert isinstance(layer, core_layer.RedisPubSubChannelLayer)


@pytest.mark.django_db(transaction=True)
async def test_a_standings_socket_reads_the_board_again_whatever_version_redis_lost() -> None:
    """A change announced while the process was not subscribed, and the board version gone
    back (a failover lost its last increments): the socket sends the board read again, and
    the changes counted from the lower version still reach it."""
    players = await database_sync_to_async(PlayerFactory.create_batch)(4)
    raw = await database_sync_to_async(auth_token_issue)(player=players[0])
    tournament_id = await database_sync_to_async(_arena_of)(players[:2])
    socket = WebsocketCommunicator(
        application,
        f"/ws/v1/tournaments/{tournament_id}/",
        headers=[(b"authorization", f"Bearer {raw}".encode())],
    )
    assert (await socket.connect())[0]
    try:
        assert (await socket.receive_json_from(timeout=5))["players_count"] == 2
        with mock.patch("core.sockets.group_publish"):
            await database_sync_to_async(tournament_join)(
                tournament_id=tournament_id, player=players[2]
            )
        assert await socket.receive_nothing(timeout=0.3)
        await database_sync_to_async(cache.delete)(board_key(tournament_id))

        _resubscribed()
        again = await socket.receive_json_from(timeout=5)
        assert again["players_count"] == 3
        assert [row["player"]["id"] for row in again["changed"]] == [str(players[2].pk)]
        await database_sync_to_async(tournament_join)(
            tournament_id=tournament_id, player=players[3]
        )
        update = await socket.receive_json_from(timeout=5)
        assert update["players_count"] == 4
    finally:
        await socket.disconnect()
