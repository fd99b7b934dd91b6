"""A seated participant hears of their table on the real `ws /ws/v1/me/` socket; the standings'
socket sends the board, then what changed, read once a change for all of a process's sockets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.services import auth_token_issue
from config.asgi import application
from games.models import Game
from tests.factories import PlayerFactory
from tournaments import consumers
from tournaments.models import Tournament
from tournaments.services import (
    tournament_cancel,
    tournament_create,
    tournament_end_now,
    tournament_join,
    tournaments_tick,
)


def _arena_of(players) -> str:
    tournament = tournament_create(
        by=None,
        name="Arena",
        starts_at=timezone.now() - timedelta(seconds=1),
        minutes=10,
        table_sizes=[2],
    )
    for player in players:
        tournament_join(tournament_id=tournament.pk, player=player)
    return str(tournament.pk)


def standings_socket(tournament_id: str, raw: str) -> WebsocketCommunicator:
    """`ws /ws/v1/tournaments/{id}/` as the player of the bearer token `raw`."""
    return WebsocketCommunicator(
        application,
        f"/ws/v1/tournaments/{tournament_id}/",
        headers=[(b"authorization", f"Bearer {raw}".encode())],
    )


@pytest.mark.django_db(transaction=True)
async def test_a_seated_participant_hears_tournament_game() -> None:
    players = await database_sync_to_async(PlayerFactory.create_batch)(2)
    raw = await database_sync_to_async(auth_token_issue)(player=players[0])
    socket = WebsocketCommunicator(
        application, "/ws/v1/me/", headers=[(b"authorization", f"Bearer {raw}".encode())]
    )
    connected, _ = await socket.connect()
    assert connected
    try:
        tournament_id = await database_sync_to_async(_arena_of)(players)
        assert await database_sync_to_async(tournaments_tick)() == 1
        game = await database_sync_to_async(Game.objects.get)(tournament_id=tournament_id)
        while True:
            message = await socket.receive_json_from(timeout=5)
            if message["type"] == "tournament_game":
                break
        assert message == {
            "type": "tournament_game",
            "tournament_id": tournament_id,
            "game_id": str(game.pk),
        }
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_standings_socket_sends_the_board_then_what_changed() -> None:
    players = await database_sync_to_async(PlayerFactory.create_batch)(3)
    raw = await database_sync_to_async(auth_token_issue)(player=players[0])
    tournament_id = await database_sync_to_async(_arena_of)(players[:2])
    socket = standings_socket(tournament_id, raw)
    connected, _ = await socket.connect()
    assert connected
    try:
        first = await socket.receive_json_from(timeout=5)
        assert (first["type"], first["tournament_id"], first["players_count"]) == (
            "standings",
            tournament_id,
            2,
        )
        assert {row["player"]["id"] for row in first["changed"]} == {str(p.pk) for p in players[:2]}
        await database_sync_to_async(tournament_join)(
            tournament_id=tournament_id, player=players[2]
        )
        update = await socket.receive_json_from(timeout=5)
        assert update["players_count"] == 3
        assert [row["player"]["id"] for row in update["changed"]] == [str(players[2].pk)]
        # Staff end it early: its new end reaches the socket, with nothing else changed.
        ended = await database_sync_to_async(tournament_end_now)(tournament_id=tournament_id)
        early = await socket.receive_json_from(timeout=5)
        assert early["ends_at"] == ended.ends_at.isoformat()
        assert early["ends_at"] != first["ends_at"]
        assert early["changed"] == []
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_unknown_tournaments_socket_closes_4404() -> None:
    player = await database_sync_to_async(PlayerFactory.create)()
    raw = await database_sync_to_async(auth_token_issue)(player=player)
    socket = WebsocketCommunicator(
        application,
        "/ws/v1/tournaments/00000000-0000-0000-0000-000000000000/",
        headers=[(b"authorization", f"Bearer {raw}".encode())],
    )
    await socket.connect()
    try:
        closed = await socket.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4404}
    finally:
        await socket.disconnect()  # the client's side of the close (the socket gauge)


@pytest.mark.django_db(transaction=True)
async def test_a_change_is_read_once_for_all_the_sockets_of_a_process(monkeypatch) -> None:
    players = await database_sync_to_async(PlayerFactory.create_batch)(4)
    tournament_id = await database_sync_to_async(_arena_of)(players[:2])
    reads: list[str] = []
    reading = consumers.read_board

    def counted(key: str):
        reads.append(key)
        return reading(key)

    monkeypatch.setattr(consumers, "read_board", counted)
    sockets = []
    for player in players[:3]:
        raw = await database_sync_to_async(auth_token_issue)(player=player)
        socket = standings_socket(tournament_id, raw)
        assert (await socket.connect())[0]
        assert (await socket.receive_json_from(timeout=5))["players_count"] == 2
        sockets.append(socket)
    try:
        connects = len(reads)
        assert connects <= 3  # a socket opened after the last change shares the board
        await database_sync_to_async(tournament_join)(
            tournament_id=tournament_id, player=players[3]
        )
        updates = [await socket.receive_json_from(timeout=5) for socket in sockets]

        assert [update["players_count"] for update in updates] == [3, 3, 3]
        assert all(
            [row["player"]["id"] for row in update["changed"]] == [str(players[3].pk)]
            for update in updates
        )
        assert len(reads) == connects + 1  # one read for the three
    finally:
        for socket in sockets:
            await socket.disconnect()
    assert tournament_id not in consumers.BOARDS.boards  # forgotten with its last socket


@pytest.mark.django_db(transaction=True)
async def test_a_change_while_a_socket_reads_its_first_board_still_reaches_it(
    monkeypatch,
) -> None:
    players = await database_sync_to_async(PlayerFactory.create_batch)(2)
    tournament_id = await database_sync_to_async(_arena_of)(players)
    reading = consumers.read_board
    ended: list[Tournament] = []

    def read_then_end(key: str):
        board = reading(key)
        if not ended:  # staff end it just after the connecting socket read the board
            ended.append(tournament_end_now(tournament_id=tournament_id))
        return board

    monkeypatch.setattr(consumers, "read_board", read_then_end)
    raw = await database_sync_to_async(auth_token_issue)(player=players[0])
    socket = standings_socket(tournament_id, raw)
    assert (await socket.connect())[0]
    try:
        first = await socket.receive_json_from(timeout=5)
        assert first["ends_at"] != ended[0].ends_at.isoformat()  # read before the change
        then = await socket.receive_json_from(timeout=5)
        assert then["ends_at"] == ended[0].ends_at.isoformat()
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_standings_socket_keeps_alive_like_every_listener(settings) -> None:
    """Keep-alives, pongs and the idle close (docs/api.md, Staying in sync)."""
    settings.YANIV_WS_KEEPALIVE_SECONDS = 0.1
    settings.YANIV_WS_IDLE_SECONDS = 0.5
    players = await database_sync_to_async(PlayerFactory.create_batch)(2)
    raw = await database_sync_to_async(auth_token_issue)(player=players[0])
    tournament_id = await database_sync_to_async(_arena_of)(players)
    socket = standings_socket(tournament_id, raw)
    assert (await socket.connect())[0]
    try:
        assert (await socket.receive_json_from(timeout=5))["type"] == "standings"
        assert await socket.receive_json_from(timeout=5) == {"type": "keepalive"}
        await socket.send_json_to({"type": "ping"})
        messages = [await socket.receive_json_from(timeout=5) for _ in range(2)]
        assert {"type": "pong"} in messages  # beside, perhaps, another keep-alive
        while (message := await socket.receive_output(timeout=5))["type"] == "websocket.send":
            assert message["text"] == '{"type":"keepalive"}'
        assert message == {"type": "websocket.close", "code": 4408}
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_cancelled_tournament_s_socket_has_no_standings() -> None:
    players = await database_sync_to_async(PlayerFactory.create_batch)(2)
    raw = await database_sync_to_async(auth_token_issue)(player=players[0])
    tournament_id = await database_sync_to_async(_arena_of)(players)
    socket = standings_socket(tournament_id, raw)
    assert (await socket.connect())[0]
    try:
        assert len((await socket.receive_json_from(timeout=5))["rows"]) == 2

        await database_sync_to_async(tournament_cancel)(tournament_id=tournament_id)

        cancelled = await socket.receive_json_from(timeout=5)
        assert (cancelled["status"], cancelled["players_count"]) == ("cancelled", 2)
        assert (cancelled["rows"], cancelled["changed"]) == ([], [])
    finally:
        await socket.disconnect()
    # A socket opened after the cancel gets none either.
    late = standings_socket(tournament_id, raw)
    assert (await late.connect())[0]
    try:
        first = await late.receive_json_from(timeout=5)
        assert (first["status"], first["rows"], first["changed"]) == ("cancelled", [], [])
        assert first["players_count"] == 2
    finally:
        await late.disconnect()
