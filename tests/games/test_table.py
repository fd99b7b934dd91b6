"""A move reads the game's state once (games/table.py): the response and every viewer's push are
built from the state the engine returned, not parsed again from the row."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings

from games.engine.state import GameState
from games.notify import _group_channel, viewer_group
from tests.games.conftest import Client, simple_move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each call of `GameState.from_dict`, the one way a stored state becomes a GameState."""
    calls: list[object] = []
    parse = GameState.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: type[GameState], data: Any) -> GameState:
        calls.append(data)
        return parse(cls, data)

    monkeypatch.setattr(GameState, "from_dict", classmethod(counted))
    return calls


def _four_players() -> tuple[list[Client], dict[str, Any]]:
    clients = [Client.guest(name) for name in ("North", "East", "South", "West")]
    game = clients[0].post("/api/v1/games/", {"max_players": 4}).json()
    for client in clients[1:]:
        joined = client.post(
            f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]}
        )
        assert joined.status_code == 200, joined.content
    started = clients[0].post(f"/api/v1/games/{game['id']}/start/")
    assert started.status_code == 200, started.content
    return clients, started.json()


@pytest.fixture
def pushes() -> Iterator[tuple[Any, list[Client], dict[str, Any]]]:
    clients, game = _four_players()
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub()  # type: ignore[no-untyped-call]
    for client in clients:
        listener.subscribe(_group_channel(viewer_group(game["id"], client.player.pk)))
    for _ in clients:
        assert listener.get_message(timeout=2)["type"] == "subscribe"
    yield listener, clients, game
    listener.close()


def _received(listener: Any) -> list[dict[str, Any]]:
    layer = get_channel_layer()
    found = []
    while (message := listener.get_message(timeout=0.5)) is not None:
        if message["type"] == "message":
            found.append(layer.deserialize(message["data"]))
    return found


def test_a_move_at_a_four_player_table_parses_the_state_once(pushes, parses) -> None:
    listener, clients, game = pushes
    mover = clients[game["turn"]["seat"]]
    view = mover.game(game["id"])
    parses.clear()  # the GET above parsed it for its own response

    response = mover.act(view, **simple_move(view))

    assert response.status_code == 200, response.content
    assert response.json()["seq"] == view["seq"] + 1
    received = _received(listener)
    assert [push["type"] for push in received] == ["game.update"] * 4  # one per seated player
    assert {push["game"]["you"]["seat"] for push in received} == {0, 1, 2, 3}
    assert len(parses) == 1


def test_a_get_parses_the_state_once(pushes, parses) -> None:
    _, clients, game = pushes
    parses.clear()
    assert clients[0].game(game["id"])["seq"] == game["seq"]
    assert len(parses) == 1
