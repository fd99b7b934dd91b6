"""Websocket paths no consumer serves, through the whole ASGI application (config/asgi.py)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from config.asgi import application
from tests.servers import serving

UNKNOWN_PATHS = ["/ws/v1/games/not-a-uuid/", "/ws/v1/nothing/", "/ws/v1/games/", "/"]


def _communicator(path: str, **scope: Any) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path)
    communicator.scope.update(scope)
    return communicator


@pytest.mark.parametrize("path", UNKNOWN_PATHS)
async def test_an_unknown_path_is_a_404_at_the_handshake(path: str) -> None:
    """Servers that can answer a handshake with an HTTP response (uvicorn can) send a 404."""
    socket = _communicator(path, extensions={"websocket.http.response": {}})
    await socket.send_input({"type": "websocket.connect"})
    start = await socket.receive_output(timeout=5)
    body = await socket.receive_output(timeout=5)

    assert start == {
        "type": "websocket.http.response.start",
        "status": 404,
        "headers": [(b"content-type", b"application/json")],
    }
    assert body["type"] == "websocket.http.response.body"
    assert json.loads(body["body"]) == {"detail": "Not found.", "code": "not_found"}
    await socket.wait()


@pytest.mark.parametrize("path", UNKNOWN_PATHS)
async def test_an_unknown_path_is_refused_at_the_handshake_by_any_server(path: str) -> None:
    """Without that extension, a close before the accept: the server answers HTTP 403."""
    socket = _communicator(path)
    connected, code = await socket.connect(timeout=5)

    assert (connected, code) == (False, 1000)
    await socket.wait()


@pytest.fixture
def server() -> Iterator[str]:
    """The application under uvicorn, as the Procfile runs it, on a free port."""
    with serving() as port:
        yield f"ws://127.0.0.1:{port}"


@pytest.mark.parametrize("path", ["/ws/v1/games/not-a-uuid/", "/ws/v1/nothing/"])
def test_a_client_of_the_real_server_gets_404(
    server: str, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server}{path}", open_timeout=10).close()

    assert refused.value.response.status_code == 404
    assert json.loads(refused.value.response.body or b"") == {
        "detail": "Not found.",
        "code": "not_found",
    }
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
