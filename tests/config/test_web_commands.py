"""The web tier runs alike wherever it is started: the image (Dockerfile), `make run`
(Procfile) and the benches (bench/_server.py) give uvicorn the same options; and its websockets
are not compressed (docs/operations.md, "Websockets": a socket's zlib streams would hold some
100 KiB from its first message on, bench/README.md, capacity)."""

from __future__ import annotations

import shlex

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bench import _server
from tests.servers import dockerfile_command, procfile_command, serving, uvicorn_parameters

ALIKE = ("loop", "http", "ws", "ws_per_message_deflate", "proxy_headers", "access_log")


def _bench_command() -> str:
    return shlex.join(["uvicorn", *_server.web_command(8000, 2, server="uvicorn")[1:]])


@pytest.mark.parametrize("command", [dockerfile_command, _bench_command])
def test_every_web_command_gives_uvicorn_the_procfiles_options(command) -> None:
    procfile = uvicorn_parameters(procfile_command())
    other = uvicorn_parameters(command())

    assert {name: other[name] for name in ALIKE} == {name: procfile[name] for name in ALIKE}


def test_websockets_are_served_without_per_message_deflate() -> None:
    assert uvicorn_parameters(procfile_command())["ws_per_message_deflate"] is False


def test_a_client_that_offers_compression_is_answered_without_it() -> None:
    """A browser offers permessage-deflate; the server, as the Procfile runs it, declines."""
    with serving() as port, connect(f"ws://127.0.0.1:{port}/ws/v1/me/", open_timeout=10) as socket:
        assert socket.request is not None
        assert socket.response is not None
        offered = socket.request.headers["Sec-WebSocket-Extensions"]
        accepted = socket.response.headers.get("Sec-WebSocket-Extensions")
        with pytest.raises(ConnectionClosed) as closed:  # no ticket: 4401 after the accept
            socket.recv(timeout=10)

    assert "permessage-deflate" in offered
    assert accepted is None
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4401
