"""The web client's pages (web/) are served at their routes with a strict
Content-Security-Policy, beside the API, whose unknown paths are still JSON 404s."""

from __future__ import annotations

import pytest

ID = "0b4a3f3e-6c39-4a8e-9a55-0c8a1d7a2f10"
ROUTES = [
    "/",
    f"/games/{ID}",
    f"/join/{ID}/ABCD1234",
    f"/players/{ID}",
    "/leaderboard",
    "/watch",
    "/seasons",
    "/seasons/2",
    "/tournaments",
    f"/tournaments/{ID}",
    f"/replay/{ID}",
    f"/games/{ID}/",
]


@pytest.mark.parametrize("path", ROUTES)
def test_every_route_of_the_client_serves_its_page(client, path: str) -> None:
    response = client.get(path)

    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="you-name"' in page
    assert '<script type="module" src="/static/web/app.js">' in page
    assert "no-cache" in response["Cache-Control"]


def test_the_page_forbids_inline_scripts_and_other_origins(client) -> None:
    policy = client.get("/")["Content-Security-Policy"]

    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert "unsafe-inline" not in policy


def test_the_scripts_are_served_as_static_files(client) -> None:
    response = client.get("/static/web/app.js")

    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]


@pytest.mark.parametrize("path", ["/api/v1/nothing/", "/api/nothing", "/games/not-an-id"])
def test_other_paths_are_not_the_client(client, path: str) -> None:
    response = client.get(path)

    assert response.status_code == 404
    if path.startswith("/api/"):
        assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_the_api_docs_load_their_script_from_a_file(client) -> None:
    page = client.get("/api/docs/")

    assert page.status_code == 200
    assert "<script>" not in page.content.decode()
    assert client.get("/api/docs/?script=").status_code == 200
