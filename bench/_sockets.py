"""Many websockets from one load generator, opened as the web client opens them: a ticket
(`POST /auth/ws-ticket/` with the player's token), then the socket with `?ticket=`
(bench.capacity's waiting players, bench.chat's tables and friends)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import resource
import sys
import time

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

CONNECT_TIMEOUT = 30.0

# httpcore asks which async library runs on every request it sends (`import sniffio`, then
# sniffio's answer). Without sniffio installed (anyio 4 no longer needs it) that import fails
# each time, and a failed import is not remembered: it searches sys.path again, some 0.5 ms of
# the load generator's CPU a request (bench.chat's profile). Marked absent, it fails at once,
# with the same answer (asyncio).
if importlib.util.find_spec("sniffio") is None:
    sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]

# What opening a socket may raise when the server refuses it or is too busy to answer.
OPEN_ERRORS = (OSError, TimeoutError, InvalidHandshake, InvalidURI, httpx.HTTPError)


def raise_open_files() -> tuple[int, int]:
    """The soft limit on open files up to the hard one (each socket is a file); (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        soft = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft, hard


async def ticket(http: httpx.AsyncClient, headers: dict[str, str]) -> str:
    """A single-use websocket ticket for the player of `headers`."""
    response = await http.post("/api/v1/auth/ws-ticket/", headers=headers)
    response.raise_for_status()
    return str(response.json()["ticket"])


async def open_socket(
    http: httpx.AsyncClient,
    ws_url: str,
    path: str,
    headers: dict[str, str],
    *,
    timeout: float = CONNECT_TIMEOUT,
) -> ClientConnection:
    """`path` (`/ws/v1/me/`, `/ws/v1/games/{id}/`) opened with a fresh ticket, and kept alive
    as the web client keeps its sockets (`keep_alive`). Raises one of OPEN_ERRORS."""
    url = f"{ws_url}{path}?ticket={await ticket(http, headers)}"
    socket = await connect(url, ping_interval=None, open_timeout=timeout)
    keep_alive(socket)
    return socket


# What every client sends (docs/api.md, Staying in sync): a socket that sends nothing for 60 s
# is closed (4408). The protocol's own pings never reach the server's code: these are frames.
PING = '{"type": "ping"}'
PING_SECONDS = 20.0
# The pings' tasks, held until their socket closes (the loop keeps only weak references).
_PINGING: set[asyncio.Task[None]] = set()


def keep_alive(socket: ClientConnection) -> None:
    """Ping `socket` every PING_SECONDS until it closes, as the web client does."""

    async def ping() -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.sleep(PING_SECONDS)
                await socket.send(PING)

    # Its first send after the socket closed ends it (within PING_SECONDS).
    task = asyncio.get_running_loop().create_task(ping())
    _PINGING.add(task)
    task.add_done_callback(_PINGING.discard)


def is_game(message: dict[str, object]) -> bool:
    """A game socket's `game` message (not a keep-alive, pong or room's message)."""
    return message.get("type") == "game"


class Lag:
    """How late this process's loop wakes up (a late loop would count as delivery time)."""

    def __init__(self, tick: float = 0.02) -> None:
        self.tick, self.samples = tick, [0.0]
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(self.tick)
            self.samples.append(time.monotonic() - before - self.tick)

    def __enter__(self) -> Lag:
        self.task = asyncio.create_task(self.run())
        return self

    def __exit__(self, *exc: object) -> None:
        if self.task is not None:
            self.task.cancel()
