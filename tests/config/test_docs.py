"""docs/api.md and the generated OpenAPI schema name the same operations: an endpoint the
documentation promises exists, and an endpoint the server serves is documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator

API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"

# A table row whose first cell starts with an operation: "| `POST /api/v1/games/{id}/join/` ..."
ROW = re.compile(r"^\|\s*`(?P<method>[A-Z]+) (?P<path>/api/v1/[^`\s?]*)")

Operation = tuple[str, str]


def _normalised(path: str) -> str:
    """`/games/{game_id}/` -> `/games/{id}/`: docs/api.md names every id parameter `id`."""
    return "/".join("{id}" if part.startswith("{") else part for part in path.split("/"))


def documented(text: str) -> list[Operation]:
    """The operations the tables of `text` name, as (method, normalised path), in order."""
    found = []
    for line in text.splitlines():
        match = ROW.match(line)
        if match:
            found.append((match["method"].lower(), _normalised(match["path"])))
    return found


def served() -> set[Operation]:
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return {
        (method, _normalised(path))
        for path, operations in schema["paths"].items()
        for method in operations
    }


@pytest.fixture(scope="module")
def operations() -> tuple[list[Operation], set[Operation]]:
    return documented(API_MD.read_text()), served()


def test_every_operation_docs_api_md_names_is_served(operations) -> None:
    docs, schema = operations
    unserved = sorted(set(docs) - schema)
    assert not unserved, f"docs/api.md names operations the schema lacks: {unserved}"


def test_every_served_operation_is_in_a_table_of_docs_api_md(operations) -> None:
    docs, schema = operations
    undocumented = sorted(schema - set(docs))
    assert not undocumented, f"operations no table of docs/api.md names: {undocumented}"


def test_docs_api_md_names_each_operation_once(operations) -> None:
    docs, _ = operations
    repeated = sorted({operation for operation in docs if docs.count(operation) > 1})
    assert not repeated, f"operations docs/api.md names twice: {repeated}"


def test_the_rows_are_read_with_their_method_path_and_without_the_query() -> None:
    text = "\n".join(
        [
            "| call | does |",
            "|---|---|",
            "| `GET /api/v1/games/{game_id}/events/?after=SEQ` | the events |",
            '| `POST /api/v1/games/` `{"max_players"}` | 201 |',
            "Text naming `GET /api/v1/me/` outside a table.",
            "| `GET /healthz` | not under /api/v1/ |",
        ]
    )

    assert documented(text) == [
        ("get", "/api/v1/games/{id}/events/"),
        ("post", "/api/v1/games/"),
    ]
