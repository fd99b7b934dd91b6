"""Every operation of the OpenAPI schema, fuzzed by schemathesis as an authenticated player.

The schema is what client generators read: a 5xx, a status it does not list, or a body or a
header that contradicts it breaks a generated client. Examples are derandomised, so a run
tests the same cases every time and a failure reproduces.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import auth_token_issue
from games.services import lobby
from tests.conftest import clear_throttle_counters
from tests.factories import PlayerFactory

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

schema = schemathesis.openapi.from_dict(
    SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
)
app = get_wsgi_application()


@pytest.fixture
def world(db) -> Iterator[dict[str, Any]]:
    """A player's token and what they can reach (their id, an active game of theirs against
    the CPU), and the WSGI app kept on the test's connection and transaction (as Django's
    test client does: a request must not close the connection the test holds)."""
    clear_throttle_counters()
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    player = PlayerFactory.create()
    game = lobby.game_create(host=player, max_players=2, rules={})
    lobby.game_add_cpu(game_id=game.pk, player=player)
    lobby.game_start(game_id=game.pk, player=player)
    try:
        yield {
            "headers": {"Authorization": f"Bearer {auth_token_issue(player=player)}"},
            "ids": {"player_id": str(player.pk), "game_id": str(game.pk)},
        }
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _aim(case: Any, ids: dict[str, str]) -> None:
    """Send about half of the generated ids to things that exist, so that answers other than
    404 (a real game, a real player) are checked too; the choice follows the generated value,
    so a derandomised run makes the same choices every time."""
    for name, value in (case.path_parameters or {}).items():
        if name in ids and sum(map(ord, str(value))) % 2 == 0:
            case.path_parameters[name] = ids[name]


def test_the_schema_has_every_operation_to_fuzz() -> None:
    assert len(list(schema.get_all_operations())) >= 23


@schema.parametrize()
@settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_operation_conforms(case: Any, world: dict[str, Any]) -> None:
    _aim(case, world["ids"])
    case.call_and_validate(app=app, headers=world["headers"], checks=CHECKS)
