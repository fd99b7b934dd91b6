"""Chat on the real game socket (the ASGI app, the Redis channel layer): each room reaches its
readers only, blocks and chat settings hold there too, and a deletion arrives live.

Nothing arriving is shown without waiting: the socket's next chat message is a later one
(sent after the one it must not get, through the same group), so that a message that leaked
would have come first."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.services import auth_token_issue
from chat.models import ChatMessage
from chat.services import chat_delete, chat_post
from config.asgi import application
from games.models import Game
from social.services import block_create
from tests.chat.conftest import ranked_table, veteran
from tests.factories import PlayerFactory
from tests.games.conftest import Client, simple_move

pytestmark = pytest.mark.django_db(transaction=True)


class Viewer:
    """A player's socket on the game, past its first message (the game)."""

    def __init__(self, player: Player, socket: WebsocketCommunicator) -> None:
        self.player, self.socket = player, socket

    async def next_message(self) -> dict[str, Any]:
        """The next chat or chat_deleted message (game messages are skipped)."""
        while True:
            message = await self.socket.receive_json_from(timeout=5)
            if message["type"] != "game":
                return message

    async def next_said(self) -> str:
        message = (await self.next_message())["message"]
        return str(message.get("text") or message.get("phrase"))


async def _open(player: Player, game: Game) -> Viewer:
    token = await database_sync_to_async(auth_token_issue)(player=player)
    socket = WebsocketCommunicator(
        application,
        f"/ws/v1/games/{game.pk}/",
        headers=[(b"authorization", f"Bearer {token}".encode())],
    )
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "game"
    return Viewer(player, socket)


async def _say(player: Player, game: Game, room: str = "players", **said: str) -> ChatMessage:
    return await database_sync_to_async(chat_post)(
        player=player, game_id=game.pk, room=room, **said
    )


async def _table() -> tuple[Game, Player, Player]:
    ann = await database_sync_to_async(veteran)(display_name="Ann")
    bob = await database_sync_to_async(veteran)(display_name="Bob")
    game = await database_sync_to_async(ranked_table)([ann, bob])
    return game, ann, bob


async def _close(*viewers: Viewer) -> None:
    for viewer in viewers:
        await viewer.socket.disconnect()


async def test_a_seated_player_never_receives_the_spectators_room() -> None:
    game, ann, bob = await _table()
    watcher = await database_sync_to_async(veteran)()
    sockets = [await _open(p, game) for p in (ann, bob, watcher)]
    seated, watching = sockets[:2], sockets[2]
    try:
        said = await _say(watcher, game, "spectators", text="Ann plays badly")
        await _say(ann, game, phrase="good_luck")
        for viewer in seated:
            message = await viewer.next_message()
            assert message["message"]["room"] == "players"
            assert message["message"]["phrase"] == "good_luck"
        first = await watching.next_message()
        assert first == {
            "type": "chat",
            "message": {
                "id": str(said.pk),
                "room": "spectators",
                "player": first["message"]["player"],
                "text": "Ann plays badly",
                "at": said.created_at.isoformat(),
            },
        }
        assert first["message"]["player"]["id"] == str(watcher.pk)
        # The players' phrase never reached the watcher: their next is their room's next.
        await _say(watcher, game, "spectators", phrase="wow")
        assert await watching.next_said() == "wow"
        # Nor does a deletion in the spectators' room reach the players.
        await database_sync_to_async(chat_delete)(message=said, by=None)
        assert await watching.next_message() == {
            "type": "chat_deleted",
            "id": str(said.pk),
            "room": "spectators",
        }
        await _say(bob, game, phrase="thanks")
        for viewer in seated:
            assert await viewer.next_said() == "thanks"
    finally:
        await _close(*sockets)


@pytest.mark.parametrize("blocker", ["author", "reader"])
async def test_a_block_keeps_pushes_from_the_players_room_both_ways(blocker) -> None:
    game, ann, bob = await _table()
    one, other = (ann, bob) if blocker == "author" else (bob, ann)
    await database_sync_to_async(block_create)(player=one, other_id=other.pk)
    sockets = [await _open(p, game) for p in (ann, bob)]
    try:
        await _say(ann, game, text="from Ann")
        await _say(bob, game, text="from Bob")
        assert await sockets[0].next_said() == "from Ann"
        assert await sockets[1].next_said() == "from Bob"
        await _say(ann, game, text="Ann again")
        assert await sockets[0].next_said() == "Ann again"
    finally:
        await _close(*sockets)


@pytest.mark.parametrize("blocker", ["author", "reader"])
async def test_a_block_keeps_pushes_from_the_spectators_room_both_ways(blocker) -> None:
    game, _, _ = await _table()
    author = await database_sync_to_async(veteran)()
    reader = await database_sync_to_async(veteran)()
    other = await database_sync_to_async(PlayerFactory.create)()
    one, two = (author, reader) if blocker == "author" else (reader, author)
    await database_sync_to_async(block_create)(player=one, other_id=two.pk)
    watching = await _open(reader, game)
    try:
        await _say(author, game, "spectators", text="hidden from the reader")
        await _say(other, game, "spectators", phrase="hello")
        assert await watching.next_said() == "hello"
    finally:
        await _close(watching)


async def test_a_seated_players_chat_setting_filters_their_pushes() -> None:
    game, ann, bob = await _table()
    bob.chat = "phrases"
    await database_sync_to_async(bob.save)(update_fields=["chat"])
    sockets = [await _open(p, game) for p in (ann, bob)]
    try:
        await _say(ann, game, text="a long story")
        await _say(ann, game, phrase="your_turn")
        assert await sockets[1].next_said() == "your_turn"
        bob.chat = "off"
        await database_sync_to_async(bob.save)(update_fields=["chat"])
        await _say(ann, game, phrase="hello")
        bob.chat = "all"
        await database_sync_to_async(bob.save)(update_fields=["chat"])
        await _say(ann, game, text="shown again")
        assert await sockets[1].next_said() == "shown again"
    finally:
        await _close(*sockets)


async def test_a_spectators_socket_applies_its_chat_setting_read_at_connect() -> None:
    game, _, _ = await _table()
    author = await database_sync_to_async(veteran)()
    phrases_only = await database_sync_to_async(PlayerFactory.create)(chat="phrases")
    sockets = [await _open(phrases_only, game)]
    try:
        await _say(author, game, "spectators", text="a long story")
        await _say(author, game, "spectators", phrase="wow")
        assert await sockets[0].next_said() == "wow"
    finally:
        await _close(*sockets)


def _set_chat(player: Player, setting: str) -> None:
    """The player's `PATCH /me/ {"chat"}`, as a client sends it."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {auth_token_issue(player=player)}")
    response = client.patch("/api/v1/me/", {"chat": setting}, format="json")
    assert response.status_code == 200, response.content


async def test_a_spectators_chat_setting_changed_while_watching_holds_at_once() -> None:
    game, _, _ = await _table()
    author = await database_sync_to_async(veteran)()
    other = await database_sync_to_async(veteran)()
    watcher = await database_sync_to_async(PlayerFactory.create)()  # chat "all"
    watching = await _open(watcher, game)
    try:
        await _say(author, game, "spectators", text="shown to all")
        assert await watching.next_said() == "shown to all"
        # Off, on the same socket: neither a text nor a phrase comes.
        await database_sync_to_async(_set_chat)(watcher, "off")
        await _say(author, game, "spectators", text="not while off")
        await _say(author, game, "spectators", phrase="wow")
        # Phrases only: the text does not come, the phrase does (the first thing that comes).
        await database_sync_to_async(_set_chat)(watcher, "phrases")
        await _say(author, game, "spectators", text="not with phrases only")
        await _say(other, game, "spectators", phrase="good_game")
        assert await watching.next_said() == "good_game"
        # All again: the text comes.
        await database_sync_to_async(_set_chat)(watcher, "all")
        await _say(other, game, "spectators", text="shown again")
        assert await watching.next_said() == "shown again"
    finally:
        await _close(watching)


async def test_a_spectators_socket_with_chat_off_gets_the_game_only() -> None:
    ann = await database_sync_to_async(Client.guest)("Ann")
    bob = await database_sync_to_async(Client.guest)("Bob")
    game = await database_sync_to_async(ranked_table)([ann.player, bob.player])
    author = await database_sync_to_async(PlayerFactory.create)()
    off = await database_sync_to_async(PlayerFactory.create)(chat="off")
    watching = await _open(off, game)
    try:
        await _say(author, game, "spectators", phrase="wow")
        view = await database_sync_to_async(ann.game)(str(game.pk))
        mover = ann if view["you"]["seat"] == view["turn"]["seat"] else bob
        view = await database_sync_to_async(mover.game)(str(game.pk))
        assert (
            await database_sync_to_async(mover.act)(view, **simple_move(view))
        ).status_code == 200
        message = await watching.socket.receive_json_from(timeout=5)
        assert (message["type"], message["event"]["type"]) == ("game", "played")
    finally:
        await _close(watching)


async def test_a_deletion_reaches_the_connected_players_live() -> None:
    game, ann, bob = await _table()
    sockets = [await _open(p, game) for p in (ann, bob)]
    try:
        said = await _say(ann, game, text="regrettable")
        assert await sockets[1].next_said() == "regrettable"
        moderator = await database_sync_to_async(PlayerFactory.create)(registered=True)
        assert await database_sync_to_async(chat_delete)(message=said, by=moderator)
        for viewer in sockets:
            if viewer is sockets[0]:
                assert await viewer.next_said() == "regrettable"
            assert await viewer.next_message() == {
                "type": "chat_deleted",
                "id": str(said.pk),
                "room": "players",
            }
    finally:
        await _close(*sockets)
