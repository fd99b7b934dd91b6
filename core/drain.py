"""Deploys that drop nothing: a web process's drain on SIGTERM (docs/operations.md, "Deploys
that drop nothing"; docs/api.md, Staying in sync).

uvicorn's own SIGTERM stops listening at once and closes every websocket in the same instant
(1012): every player of the process reconnects at the same moment, to whichever processes are
left. Here SIGTERM starts a drain instead, in each uvicorn process (with `--workers N` the
supervisor sends each worker SIGTERM, and each drains its own sockets):

1. at once, the process is `draining`: `/readyz` answers 503 (config/health.py), so the load
   balancer or Kubernetes stops sending it new clients, and a websocket handshake is refused
   (`refusing_while_draining`: accepted and closed at once with 4503, before authentication, so
   that no ticket is spent and the client hears the code); plain HTTP is still served, since a
   balancer may send requests until it has seen the 503;
2. each open socket is closed with 4503 ("server draining, reconnect") at its own moment, drawn
   uniformly over `WEB_DRAIN_SECONDS`: the clients reconnect at once (to another process) and
   resume with `?after=<seq>`, spread over the window instead of all in one instant; a socket
   that opened late (its handshake began before the signal) is closed at the window's end;
3. at the window's end, uvicorn's own handler runs, as if the signal came then: it stops
   listening, finishes the HTTP requests in flight, and the process exits.

`install` runs in the ASGI lifespan's startup (config/asgi.py), once uvicorn has set its signal
handlers: it puts its own in front of uvicorn's for SIGTERM (SIGINT, a developer's Ctrl-C, stays
uvicorn's: at once). A second SIGTERM during the drain changes nothing (a process group's
signal and the supervisor's both reach a worker).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import signal
import threading
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from types import FrameType
from typing import Any, Protocol

logger = logging.getLogger(__name__)

CLOSE_DRAINING = 4503

_draining = threading.Event()  # read by /readyz from a pool thread, set on the event loop


class Drainable(Protocol):
    async def drain_close(self) -> None: ...


def draining() -> bool:
    """Whether this process has started to drain (it has had its SIGTERM)."""
    return _draining.is_set()


def start_draining() -> None:
    _draining.set()


def stop_draining() -> None:
    """Back to serving: for tests that drain an in-process server and go on using it."""
    _draining.clear()


def install(window: float, sockets: Callable[[], Iterable[Drainable]]) -> bool:
    """SIGTERM starts a drain of `window` seconds over `sockets()` (the process's open
    sockets, read when the drain starts and again at its end), then hands the signal to the
    handler it replaces (uvicorn's). Call it on the server's event loop, in the main thread
    (signals go there only); elsewhere (a server in a thread) nothing is installed: False."""
    if threading.current_thread() is not threading.main_thread():
        return False
    loop = asyncio.get_running_loop()
    previous = signal.getsignal(signal.SIGTERM)
    tasks: set[asyncio.Task[None]] = set()

    def on_sigterm(sig: int, frame: FrameType | None) -> None:
        if _draining.is_set():
            return
        _draining.set()

        def begin() -> None:
            task = loop.create_task(_drain_then(window, sockets, lambda: _hand_over(previous, sig)))
            tasks.add(task)  # held: the loop keeps only a weak reference

        # A signal handler runs between two bytecodes of the main thread, which may be the
        # loop's own: the drain is only scheduled here, and starts on the loop's next turn.
        loop.call_soon_threadsafe(begin)

    signal.signal(signal.SIGTERM, on_sigterm)
    return True


def _hand_over(previous: Any, sig: int) -> None:
    """Run the SIGTERM handler this module replaced, as if the signal came now."""
    if callable(previous):
        previous(sig, None)
    elif previous == signal.SIG_DFL:
        signal.signal(sig, signal.SIG_DFL)
        signal.raise_signal(sig)


async def _drain_then(
    window: float, sockets: Callable[[], Iterable[Drainable]], then: Callable[[], None]
) -> None:
    try:
        await drain(window, sockets)
    except Exception:
        logger.exception("drain failed: stopping now")
    then()


async def drain(
    window: float,
    sockets: Callable[[], Iterable[Drainable]],
    rng: Any = None,
) -> None:
    """Close each of `sockets()` with 4503 at its own moment, uniform over `window` seconds
    from now (all at once for 0); then, at the window's end, those that opened meanwhile.
    Returns once the window is over and every close has been sent (or a second after).
    `rng`: a `random.Random` (tests); else the system's."""
    draw = (rng or secrets.SystemRandom()).uniform
    loop = asyncio.get_running_loop()
    start = loop.time()
    schedule = sorted(((draw(0, window), socket) for socket in sockets()), key=lambda p: p[0])
    logger.info("draining %d sockets over %.1f s", len(schedule), window)
    closing: set[asyncio.Task[None]] = set()
    done: set[Drainable] = set()
    for at, socket in schedule:
        delay = start + at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        done.add(socket)
        closing.add(loop.create_task(_close(socket)))
    rest = start + window - loop.time()
    if rest > 0:
        await asyncio.sleep(rest)
    for socket in list(sockets()):
        if socket not in done:
            closing.add(loop.create_task(_close(socket)))
    if closing:
        await asyncio.wait(closing, timeout=1.0)


async def _close(socket: Drainable) -> None:
    try:
        await socket.drain_close()
    except Exception:  # a socket that closed meanwhile
        logger.debug("drain close not sent", exc_info=True)


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def refusing_while_draining(app: ASGIApp) -> ASGIApp:
    """The websocket application `app`, but a handshake while the process drains is accepted
    and closed at once with 4503, before anything else reads it (no ticket spent, no query)."""

    async def websocket(scope: Scope, receive: Receive, send: Send) -> None:
        if not _draining.is_set():
            await app(scope, receive, send)
            return
        if (await receive())["type"] != "websocket.connect":
            return  # the client left before its handshake was read
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_DRAINING})

    return websocket
