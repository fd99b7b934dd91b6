from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import Player
from social import services
from tests.factories import PlayerFactory

FRIENDS = "/api/v1/me/friends/"
REQUESTS = "/api/v1/me/friend-requests/"
BLOCKS = "/api/v1/me/blocks/"


@pytest.fixture
def registered(db: None) -> Callable[..., Player]:
    def make(**fields: Any) -> Player:
        return PlayerFactory.create(registered=True, **fields)

    return make


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """`ws /ws/v1/me/` messages leaving social's requests, as (group, message) (presence is
    heard on real sockets: tests/social/test_presence.py)."""
    log: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(
        "social.notify.send_to_group", lambda group, message: log.append((group, message))
    )
    return log


def befriend(one: Player, other: Player) -> None:
    services.friend_add(player=one, other_id=other.pk)
    services.friend_add(player=other, other_id=one.pk)


def add(client: APIClient, player: Player) -> Any:
    return client.post(FRIENDS, {"player_id": str(player.pk)}, format="json")


def block(client: APIClient, player: Player) -> Any:
    return client.post(BLOCKS, {"player_id": str(player.pk)}, format="json")
