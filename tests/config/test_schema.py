"""The generated OpenAPI schema validates, warns about nothing, and covers all of docs/api.md."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator

CONTRACT = {
    ("post", "/api/v1/auth/guest/"),
    ("post", "/api/v1/auth/register/"),
    ("post", "/api/v1/auth/login/"),
    ("post", "/api/v1/auth/logout/"),
    ("post", "/api/v1/auth/ws-ticket/"),
    ("get", "/api/v1/me/"),
    ("patch", "/api/v1/me/"),
    ("get", "/api/v1/players/{id}/"),
    ("get", "/api/v1/players/{id}/games/"),
    ("get", "/api/v1/players/{id}/rating-history/"),
    ("get", "/api/v1/leaderboard/"),
    ("post", "/api/v1/matchmaking/tickets/"),
    ("get", "/api/v1/matchmaking/tickets/{id}/"),
    ("delete", "/api/v1/matchmaking/tickets/{id}/"),
    ("post", "/api/v1/games/"),
    ("post", "/api/v1/games/{id}/join/"),
    ("post", "/api/v1/games/{id}/cpu/"),
    ("post", "/api/v1/games/{id}/start/"),
    ("get", "/api/v1/games/{id}/"),
    ("post", "/api/v1/games/{id}/actions/"),
    ("get", "/api/v1/games/{id}/events/"),
    ("get", "/api/v1/games/{id}/record/"),
    ("post", "/api/v1/games/{id}/leave/"),
}


def _normalised(path: str) -> str:
    """`/games/{game_id}/` -> `/games/{id}/`: docs/api.md names every id parameter `id`."""
    parts = ["{id}" if part.startswith("{") else part for part in path.split("/")]
    return "/".join(parts)


def test_the_schema_validates_and_covers_the_contract(tmp_path) -> None:
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    described = {
        (method, _normalised(path))
        for path, operations in schema["paths"].items()
        for method in operations
    }
    assert not CONTRACT - described, sorted(CONTRACT - described)


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    ]


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]


LISTS = [
    "/api/v1/games/{game_id}/events/",
    "/api/v1/players/{player_id}/games/",
    "/api/v1/players/{player_id}/rating-history/",
    "/api/v1/leaderboard/",
]


@pytest.mark.parametrize("path", LISTS)
def test_lists_are_described_as_pages(schema, path: str) -> None:
    """What the lists return (a DRF page), not a bare array: generated clients rely on it."""
    ref = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    page = schema["components"]["schemas"][ref["schema"]["$ref"].rsplit("/", 1)[1]]
    assert set(page["properties"]) == {"count", "next", "previous", "results"}
    assert page["properties"]["results"]["type"] == "array"


def test_every_operation_lists_the_transport_statuses(schema) -> None:
    for method, path, operation in _operations(schema):
        responses = operation["responses"]
        assert {"429", "503"} <= set(responses), (method, path)
        assert "Retry-After" in responses["429"]["headers"]
        assert "Retry-After" in responses["503"]["headers"]
        if method in {"post", "patch", "put"}:
            assert "413" in responses, (method, path)
        if "requestBody" in operation:
            assert "415" in responses, (method, path)


def test_the_events_list_says_how_to_read_from_the_start(schema) -> None:
    parameters = schema["paths"]["/api/v1/games/{game_id}/events/"]["get"]["parameters"]
    after = next(parameter for parameter in parameters if parameter["name"] == "after")
    assert "after=-1" in after["description"]
    assert "seq 0" in after["description"]


def test_the_docs_page_works_offline(client) -> None:
    """Swagger UI comes from the project (drf-spectacular-sidecar), pinned, not a CDN."""
    page = client.get("/api/docs/").content.decode()
    assert "cdn" not in page.lower()
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert any(asset.endswith("swagger-ui-bundle.js") for asset in assets), assets
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200, asset
