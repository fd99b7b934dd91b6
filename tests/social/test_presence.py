"""Presence on real `ws /ws/v1/me/` sockets (docs/api.md, Friends, blocks and presence): a
friend's first socket makes them online, their last closing offline, a table playing; a second
device says nothing; appear_offline hides it; a block hides it both ways; a socket whose
process died is reported offline by the sweep. Friends are told by a real Celery worker."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import transaction

from accounts.models import Player
from accounts.services import auth_token_issue
from config.asgi import application
from core import presence
from core.heartbeat import running
from games.engine.cpu import Level
from games.services.lobby import game_add_cpu, game_begin_ranked, game_create, game_start
from games.services.play import game_leave
from players.consumers import PresenceRenewal
from social import services
from social.services import block_create
from tests.factories import PlayerFactory
from tests.games.conftest import celery_worker  # noqa: F401
from tests.social.conftest import FRIENDS, befriend

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker"),
]


async def registered(count: int) -> list[Player]:
    return await database_sync_to_async(
        lambda: [PlayerFactory.create(registered=True) for _ in range(count)]
    )()


async def friends(one: Player, other: Player) -> None:
    await database_sync_to_async(befriend)(one, other)


async def me_socket(player: Player) -> WebsocketCommunicator:
    raw = await database_sync_to_async(auth_token_issue)(player=player)
    socket = WebsocketCommunicator(
        application, "/ws/v1/me/", headers=[(b"authorization", f"Bearer {raw}".encode())]
    )
    connected, _ = await socket.connect()
    assert connected
    # Open once it says hello (the socket counts its player online before that).
    assert (await socket.receive_json_from(timeout=10))["type"] == "hello"
    return socket


async def next_presence(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The next `presence` message (the socket may hear of other things meanwhile)."""
    while True:
        message = await socket.receive_json_from(timeout=10)
        if message["type"] == "presence":
            return message


def said(player: Player, shown: str, game_id: Any = None) -> dict[str, Any]:
    return {
        "type": "presence",
        "player_id": str(player.pk),
        "presence": shown,
        "game_id": None if game_id is None else str(game_id),
    }


async def test_a_friend_online_then_offline(client_for) -> None:
    alice, bob = await registered(2)
    await friends(alice, bob)
    watching = await me_socket(alice)
    try:
        bobs = await me_socket(bob)
        assert await next_presence(watching) == said(bob, "online")

        listed = await database_sync_to_async(lambda: client_for(alice).get(FRIENDS).json())()
        assert [row["presence"] for row in listed["results"]] == ["online"]

        await bobs.disconnect()
        assert await next_presence(watching) == said(bob, "offline")
    finally:
        await watching.disconnect()


async def test_a_second_device_says_nothing_and_the_last_to_close_says_offline() -> None:
    alice, bob, carol = await registered(3)
    await friends(alice, bob)
    await friends(alice, carol)
    watching = await me_socket(alice)
    try:
        phone = await me_socket(bob)
        assert await next_presence(watching) == said(bob, "online")
        laptop = await me_socket(bob)
        await phone.disconnect()
        # Had either told anything, it would come before carol's news.
        carols = await me_socket(carol)
        assert await next_presence(watching) == said(carol, "online")
        await laptop.disconnect()
        assert await next_presence(watching) == said(bob, "offline")
        await carols.disconnect()
    finally:
        await watching.disconnect()


def _ranked_game(player: Player) -> Any:
    with transaction.atomic():
        return game_begin_ranked(players=[player], cpu_levels=[Level.EASY]).game


def _private_game(player: Player) -> Any:
    game = game_create(host=player, max_players=2, rules={})
    game_add_cpu(game_id=game.pk, player=player)
    return game_start(game_id=game.pk, player=player).game


async def test_playing_a_ranked_game_shows_it_and_leaving_it_ends_that(client_for) -> None:
    alice, bob = await registered(2)
    await friends(alice, bob)
    watching = await me_socket(alice)
    try:
        bobs = await me_socket(bob)
        assert await next_presence(watching) == said(bob, "online")

        game = await database_sync_to_async(_ranked_game)(bob)
        assert await next_presence(watching) == said(bob, "playing", game.pk)
        listed = await database_sync_to_async(lambda: client_for(alice).get(FRIENDS).json())()
        [row] = listed["results"]
        assert (row["presence"], row["game_id"]) == ("playing", str(game.pk))

        await database_sync_to_async(game_leave)(game_id=game.pk, player=bob)
        assert await next_presence(watching) == said(bob, "online")
        await bobs.disconnect()
    finally:
        await watching.disconnect()


async def test_a_private_table_is_playing_without_its_id() -> None:
    alice, bob = await registered(2)
    await friends(alice, bob)
    watching = await me_socket(alice)
    try:
        bobs = await me_socket(bob)
        assert await next_presence(watching) == said(bob, "online")
        await database_sync_to_async(_private_game)(bob)
        assert await next_presence(watching) == said(bob, "playing")
        await bobs.disconnect()
    finally:
        await watching.disconnect()


async def test_appear_offline_hides_a_player_until_turned_off(client_for) -> None:
    alice, bob = await registered(2)
    await friends(alice, bob)
    watching = await me_socket(alice)
    bob_client = await database_sync_to_async(client_for)(bob)

    def patch_me(value: bool) -> Any:
        return bob_client.patch("/api/v1/me/", {"appear_offline": value}, format="json")

    try:
        bobs = await me_socket(bob)
        assert await next_presence(watching) == said(bob, "online")

        assert (await database_sync_to_async(patch_me)(True)).status_code == 200
        assert await next_presence(watching) == said(bob, "offline")
        me = await database_sync_to_async(lambda: bob_client.get("/api/v1/me/").json())()
        assert me["appear_offline"] is True
        listed = await database_sync_to_async(lambda: client_for(alice).get(FRIENDS).json())()
        assert [row["presence"] for row in listed["results"]] == ["offline"]
        # A new device changes nothing for the friends either.
        tablet = await me_socket(bob)
        await tablet.disconnect()

        assert (await database_sync_to_async(patch_me)(False)).status_code == 200
        assert await next_presence(watching) == said(bob, "online")
        await bobs.disconnect()
    finally:
        await watching.disconnect()


async def test_a_block_hides_presence_both_ways() -> None:
    alice, bob, carol = await registered(3)
    await friends(alice, bob)
    await friends(alice, carol)
    await friends(bob, carol)
    await database_sync_to_async(block_create)(player=alice, other_id=bob.pk)

    alices = await me_socket(alice)
    bobs = await me_socket(bob)  # alice would hear of it first, were they friends
    carols = await me_socket(carol)
    assert await next_presence(alices) == said(carol, "online")
    await alices.disconnect()  # bob would hear of it, were they friends
    await carols.disconnect()
    assert await next_presence(bobs) == said(carol, "online")
    assert await next_presence(bobs) == said(carol, "offline")
    await bobs.disconnect()


async def test_an_open_socket_is_renewed_by_its_process_timer(settings) -> None:
    settings.YANIV_PRESENCE_TTL_SECONDS = 1  # renewed every third of a second
    (alice,) = await registered(1)
    socket = await me_socket(alice)
    renewal = running(PresenceRenewal)
    try:
        assert [consumer.player_id for consumer in renewal.sockets] == [alice.pk]
        await asyncio.sleep(2.5)  # past two lifetimes of an entry: online only if renewed
        assert presence.online([alice.pk]) == {str(alice.pk)}
    finally:
        await socket.disconnect()
    assert not renewal.sockets
    assert presence.online([alice.pk]) == set()


async def test_a_socket_whose_process_died_is_reported_offline_by_the_sweep() -> None:
    alice, bob = await registered(2)
    await friends(alice, bob)
    watching = await me_socket(alice)
    try:
        # A socket of bob's on a web process that then died: counted, never closed.
        assert presence.socket_opened(bob.pk, "specific.dead-process!1")
        await database_sync_to_async(services.presence_push)(player_ids=[str(bob.pk)])
        assert await next_presence(watching) == said(bob, "online")

        ttl = settings.YANIV_PRESENCE_TTL_SECONDS
        assert await database_sync_to_async(services.presence_sweep)(now=time.time() + ttl + 1)
        assert await next_presence(watching) == said(bob, "offline")
    finally:
        await watching.disconnect()
