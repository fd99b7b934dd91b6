from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Player
from games.models import Game, GameStatus, Seat
from games.services.lobby import game_begin_ranked
from tests.factories import PlayerFactory

PHRASES = "/api/v1/chat/phrases/"


def chat_url(game_id: Any) -> str:
    return f"/api/v1/games/{game_id}/chat/"


def report_url(message_id: Any) -> str:
    return f"/api/v1/chat/messages/{message_id}/reports/"


def finish_games(player: Player, count: int) -> None:
    """`count` finished private games with the player placed."""
    for _ in range(count):
        game = Game.objects.create(
            status=GameStatus.FINISHED, rules={}, max_players=2, finished_at=timezone.now()
        )
        Seat.objects.create(game=game, seat=0, player=player, place=1, live=False)


def veteran(games: int = 5, **fields: Any) -> Player:
    """A registered player with `games` finished games: free text is open to them."""
    player = PlayerFactory.create(registered=True, **fields)
    finish_games(player, games)
    return player


def ranked_table(players: list[Player]) -> Game:
    with transaction.atomic():
        return game_begin_ranked(players=players).game


def private_table(players: list[Player]) -> Game:
    game = Game.objects.create(
        status=GameStatus.ACTIVE, rules={}, max_players=len(players), host=players[0]
    )
    Seat.objects.bulk_create(
        Seat(game=game, seat=index, player=player) for index, player in enumerate(players)
    )
    return game


@pytest.fixture
def api(client_for: Callable[[Player], APIClient]) -> Callable[[Player], APIClient]:
    return client_for


def say(client: APIClient, game: Game, room: str = "players", **body: Any) -> Any:
    return client.post(chat_url(game.pk), {"room": room, **body}, format="json")


def listed(client: APIClient, game: Game, room: str = "players", **query: Any) -> list[Any]:
    response = client.get(chat_url(game.pk), {"room": room, **query})
    assert response.status_code == 200, response.content
    return [m.get("text") or m.get("phrase") for m in response.json()["results"]]
