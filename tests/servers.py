"""The project's ASGI application served for real, for tests that need a socket: uvicorn, as
the Procfile runs it (HTTP and the Channels websockets), in a thread of the test process; and
the web commands of the Procfile and the image read as uvicorn reads them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shlex
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.main import main as uvicorn_command

from config.asgi import application
from core.drain import drain
from core.heartbeat import heartbeat

_LOOPS: dict[int, asyncio.AbstractEventLoop] = {}  # each served port's event loop
ROOT = Path(__file__).resolve().parents[1]


def uvicorn_arguments(command: str) -> list[str]:
    """The arguments after `uvicorn` in a shell command line, with ${VAR:-default} filled."""
    command = re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", command).replace("$PORT", "8000")
    command = command.replace("$(nproc)", "2")
    words = shlex.split(command)
    return words[words.index("uvicorn") + 1 :]


def uvicorn_parameters(command: str) -> dict[str, Any]:
    """uvicorn's options as `command` sets them (its defaults for the rest)."""
    parameters: dict[str, Any] = uvicorn_command.make_context(
        "uvicorn", uvicorn_arguments(command)
    ).params
    return parameters


def dockerfile_command() -> str:
    """The image's web command (the `sh -c` argument of the Dockerfile's CMD)."""
    line = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD")
    )
    return str(json.loads(line.removeprefix("CMD"))[-1])


def procfile_command() -> str:
    """`make run`'s web command (the Procfile's `web:`)."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith("web:"):
            return line.removeprefix("web:")
    raise AssertionError("no web process in the Procfile")


@contextlib.contextmanager
def serving() -> Iterator[int]:
    """The application on a free port of 127.0.0.1 (the port), until the block ends."""
    procfile = uvicorn_parameters(procfile_command())
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=0,
        ws=procfile["ws"],
        ws_per_message_deflate=procfile["ws_per_message_deflate"],
        lifespan="off",
        log_config=None,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    port = 0
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            thread.join(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        _LOOPS[port] = server.servers[0].get_loop()
        yield port
    finally:
        _LOOPS.pop(port, None)
        server.should_exit = True
        thread.join(10)


def close_sockets_as_a_drain(port: int) -> None:
    """Close every socket the server on `port` has open as its process's drain does
    (core/drain.py: 4503, through each socket's `drain_close`), all at once, and leave the
    server serving: its clients reconnect to it as they would to another process. (This
    server is a thread of the test process, which a SIGTERM would end; a real process is
    drained in tests/config/test_drain.py.)"""
    closing = asyncio.run_coroutine_threadsafe(
        drain(0, lambda: list(heartbeat().sockets)), _LOOPS[port]
    )
    closing.result(timeout=10)
