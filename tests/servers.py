"""The project's ASGI application served for real, for tests that need a socket: uvicorn, as
the Procfile runs it (HTTP and the Channels websockets), in a thread of the test process."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

import uvicorn

from config.asgi import application
from core.drain import drain
from core.heartbeat import heartbeat

_LOOPS: dict[int, asyncio.AbstractEventLoop] = {}  # each served port's event loop


@contextlib.contextmanager
def serving() -> Iterator[int]:
    """The application on a free port of 127.0.0.1 (the port), until the block ends."""
    config = uvicorn.Config(
        application, host="127.0.0.1", port=0, ws="wsproto", lifespan="off", log_config=None
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
