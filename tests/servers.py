"""The project's ASGI application served for real, for tests that need a socket: uvicorn, as
the Procfile runs it (HTTP and the Channels websockets), in a thread of the test process."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import uvicorn

from config.asgi import application


@contextlib.contextmanager
def serving() -> Iterator[int]:
    """The application on a free port of 127.0.0.1 (the port), until the block ends."""
    config = uvicorn.Config(
        application, host="127.0.0.1", port=0, ws="wsproto", lifespan="off", log_config=None
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            thread.join(0.01)
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)
