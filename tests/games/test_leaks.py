"""No payload sent to a seat holds a card outside that seat's sight (RULES.md §11).

Whole tables of humans (2 to 5 seats) play through REST; after every move, every seat's game
object, its event list and its websocket messages are scanned for the cards it may not see:
other seats' hands (beyond the cards they took face up), the stock, and cards others drew
from the stock.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.engine.state import GameState
from games.models import Event, Game
from tests.games.conftest import Client, simple_move

CARD = re.compile(r"\b(?:[A2-9TJQK][SHDC]|X[12])\b")


def _secrets(state: GameState, seat: int) -> set[str]:
    hidden = set(state.stock[state.stock_pos :])
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= set(hand) - set(state.known[other])
    return hidden


def _cards_in(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def _check_game(game: dict[str, Any], state: GameState, seat: int) -> None:
    current = {key: value for key, value in game.items() if key != "last_round"}
    leaked = _cards_in(current) & _secrets(state, seat)
    assert not leaked, f"seat {seat} sees {leaked}"
    # Hands shown at the end of the last round belong to that round, not the current deal.
    if game["last_round"] is not None:
        assert set(game["last_round"]["hands"]) <= {str(s) for s in range(len(state.hands))}


def _check_events(events: list[dict[str, Any]], log: list[Event], seat: int) -> None:
    drawn_by_others = {
        event.payload["drawn"]
        for event in log
        if event.type == "played"
        and event.payload["draw"] == "stock"
        and event.payload["seat"] != seat
    }
    assert len(events) == len(log)
    for shown in events:
        assert "deck" not in shown
        assert "stock" not in shown
        if shown["type"] == "played" and shown["seat"] != seat:
            assert "drawn" not in shown
            assert not (_cards_in(shown) & drawn_by_others - set(shown["cards"]))


def _play_and_scan(game_id: str, clients: list[Client], moves: int) -> int:
    checked = 0
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        state = GameState.from_dict(game.state or {})
        for client in clients:
            view = client.game(game_id)
            _check_game(view, state, view["you"]["seat"])
            checked += 1
        mover = clients[state.turn or 0]
        response = mover.act(mover.game(game_id), **simple_move(mover.game(game_id)))
        assert response.status_code == 200, response.content
        # The action's own response is a payload too.
        after = Game.objects.get(pk=game_id)
        if after.status == "active":
            _check_game(response.json(), GameState.from_dict(after.state or {}), state.turn or 0)
    log = list(Event.objects.filter(game_id=game_id).order_by("id"))
    for seat, client in enumerate(clients):
        events = client.get(f"/api/v1/games/{game_id}/events/?limit=500").json()["results"]
        _check_events(events, log, seat)
    return checked


def _table(make_client, seats: int) -> tuple[str, list[Client]]:
    clients = [make_client(f"P{index}") for index in range(seats)]
    host = clients[0]
    game = host.post("/api/v1/games/", {"max_players": seats}).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    host.post(f"/api/v1/games/{game['id']}/start/")
    return game["id"], clients


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_no_rest_payload_leaks_a_hidden_card(make_client, seats) -> None:
    game_id, clients = _table(make_client, seats)
    assert _play_and_scan(game_id, clients, moves=60) > 0


def _state(game_id: str) -> tuple[GameState, int]:
    game = Game.objects.get(pk=game_id)
    return GameState.from_dict(game.state or {}), game.seq


async def _connect(game_id: str, client: Client) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application,
        f"/ws/v1/games/{game_id}/",
        headers=[(b"authorization", f"Bearer {client.token}".encode())],
    )
    connected, _ = await socket.connect()
    assert connected
    return socket


async def _drain(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    messages = [await socket.receive_json_from(timeout=5)]
    while not await socket.receive_nothing(timeout=0.1):
        messages.append(await socket.receive_json_from(timeout=5))
    return messages


@pytest.mark.django_db(transaction=True)
async def test_no_websocket_message_leaks_a_hidden_card(make_client) -> None:
    game_id, clients = await database_sync_to_async(_table)(make_client, 3)
    sockets = [await _connect(game_id, client) for client in clients]
    state, _ = await database_sync_to_async(_state)(game_id)
    for seat, socket in enumerate(sockets):
        first = await socket.receive_json_from(timeout=5)
        assert first["event"] is None
        _check_game(first["game"], state, seat)
    for _ in range(12):
        mover = clients[state.turn or 0]
        view = await database_sync_to_async(mover.game)(game_id)
        response = await database_sync_to_async(mover.act)(view, **simple_move(view))
        assert response.status_code == 200
        state, seq = await database_sync_to_async(_state)(game_id)
        for seat, socket in enumerate(sockets):
            for message in await _drain(socket):
                assert message["type"] == "game"
                assert message["game"]["seq"] == seq
                _check_game(message["game"], state, seat)
                event = message["event"]
                if event["type"] == "played" and event["seat"] != seat:
                    assert "drawn" not in event
    for socket in sockets:
        await socket.disconnect()
