"""The OpenAPI schema describes the accounts endpoints (players/apis.py) and bearer auth,
without warnings."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

ENDPOINTS = {
    "/api/v1/auth/guest/": {"post": "201"},
    "/api/v1/auth/register/": {"post": "200"},
    "/api/v1/auth/login/": {"post": "200"},
    "/api/v1/auth/logout/": {"post": "204"},
    "/api/v1/auth/ws-ticket/": {"post": "201"},
    "/api/v1/me/": {"get": "200", "patch": "200"},
    "/api/v1/bot/upgrade/": {"post": "200"},
    "/api/v1/bot/tokens/": {"get": "200", "post": "201"},
    "/api/v1/bot/tokens/{token_id}/": {"delete": "204"},
}
OPEN = {"/api/v1/auth/guest/", "/api/v1/auth/login/"}


@pytest.fixture(scope="module")
def generated() -> tuple[dict[str, Any], list[str]]:
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    problems = [*GENERATOR_STATS._warn_cache, *GENERATOR_STATS._error_cache]
    GENERATOR_STATS.reset()
    return schema, problems


def test_schema_is_valid_openapi(generated) -> None:
    schema, _ = generated
    validate_schema(schema)  # type: ignore[no-untyped-call]


def test_no_warnings_for_accounts(generated) -> None:
    _, problems = generated
    mine = [problem for problem in problems if "accounts" in problem or "players" in problem]
    assert mine == []


def test_bearer_auth_is_described(generated) -> None:
    schema, _ = generated
    assert schema["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "A token from `POST /auth/guest/` or `POST /auth/login/`, or a bot "
        "token (`POST /bot/tokens/`, docs/bots.md).",
    }


@pytest.mark.parametrize("path", sorted(ENDPOINTS))
def test_every_endpoint_is_described(generated, path: str) -> None:
    schema, _ = generated
    for method, success in ENDPOINTS[path].items():
        operation = schema["paths"][path][method]
        assert success in operation["responses"]
        errors = [code for code in operation["responses"] if code.startswith("4")]
        assert errors, f"{method} {path} documents no error"
        security = operation["security"]
        if path in OPEN:
            assert {"bearerAuth": []} not in security
        else:
            assert security == [{"bearerAuth": []}]


def test_the_player_object_matches_the_contract(generated) -> None:
    schema, _ = generated
    player = schema["components"]["schemas"]["Player"]
    assert set(player["properties"]) == {
        "id",
        "display_name",
        "is_bot",
        "is_guest",
        "is_cpu",
        "rating",
        "placement_games_left",
    }
    rating = schema["components"]["schemas"]["Rating"]
    assert set(rating["properties"]) == {"mu", "sigma", "ordinal", "games", "provisional"}
    me = schema["components"]["schemas"]["Me"]
    assert set(me["properties"]) == {
        *player["properties"],
        "active_game",
        "ticket",
        "queue_ban_until",
        "appear_offline",
        "chat",
        "challenges_from",
        "bot_description",
        "language",
        "fairness",
    }
