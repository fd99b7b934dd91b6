"""Request bodies the JSON parser refuses: whatever a client sends, the answer is a 4xx."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from accounts.models import Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ENDPOINTS = [
    ("post", "/api/v1/auth/guest/", "display_name"),
    ("patch", "/api/v1/me/", "display_name"),
    ("post", "/api/v1/games/", "rules"),
]


def _nested(depth: int, key: str) -> str:
    """`{"max_players": 2, key: [[[...]]]}`, `depth` levels in all."""
    return '{"max_players": 2, "' + key + '": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


@pytest.mark.parametrize(("method", "path", "key"), ENDPOINTS)
def test_json_nested_5000_deep_is_400_invalid(
    client_for: Callable[[Player], APIClient], method: str, path: str, key: str
) -> None:
    """Deeper than Python's recursion limit: the decoder itself gives up."""
    client = client_for(PlayerFactory.create())
    response = getattr(client, method)(path, _nested(5_000, key), content_type="application/json")

    assert response.status_code == 400, response.content
    assert response.json() == {
        "detail": "JSON parse error - the body is nested too deeply.",
        "code": "invalid",
    }


@pytest.mark.parametrize(("method", "path", "key"), ENDPOINTS)
def test_json_that_parses_however_deep_is_refused_by_validation(
    client_for: Callable[[Player], APIClient], method: str, path: str, key: str
) -> None:
    """Just under the limit the body parses; what reads it next refuses it, still a 400."""
    client = client_for(PlayerFactory.create())
    response = getattr(client, method)(path, _nested(900, key), content_type="application/json")

    assert response.status_code == 400, response.content
    assert response.json()["code"] in ("invalid", "invalid_rules")
