"""Keep-alives and idle closes for every listening socket (docs/api.md, Staying in sync), from
one timer loop per process rather than one per socket.

A web process may hold thousands of sockets (bench/README.md, capacity), and each task, timer
or future a socket keeps is objects that every full garbage collection visits
(core/perf/garbage.py). So a socket only notes two times, `heard_at` (its client's last frame)
and `sent_at` (its last message), and joins this process's `Heartbeat` while it is open. The
heartbeat's one loop wakes every quarter of the shorter of the two settings, and for each
socket: one whose client has sent nothing for `YANIV_WS_IDLE_SECONDS` is closed (4408); one that
has sent nothing for `YANIV_WS_KEEPALIVE_SECONDS` is sent `{"type": "keepalive"}`. Those sends
run as tasks of their own, so that a client that reads slowly holds up no other socket. The
loop ends with the last socket, and starts again with the next.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Coroutine
from typing import Any, Protocol

from django.conf import settings

logger = logging.getLogger(__name__)

CLOSE_IDLE = 4408


class Beating(Protocol):
    heard_at: float
    sent_at: float

    async def keepalive(self) -> None: ...

    async def idle_close(self) -> None: ...

    async def drain_close(self) -> None: ...  # the process drains (core/drain.py)


class Heartbeat:
    """The open sockets of one event loop, and the loop that keeps them alive."""

    def __init__(self) -> None:
        self.sockets: set[Beating] = set()
        self.task: asyncio.Task[None] | None = None
        self.sending: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak refs

    def add(self, socket: Beating) -> None:
        self.sockets.add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, socket: Beating) -> None:
        self.sockets.discard(socket)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.sockets:
            keepalive, idle = settings.YANIV_WS_KEEPALIVE_SECONDS, settings.YANIV_WS_IDLE_SECONDS
            await asyncio.sleep(min(keepalive, idle) / 4)
            self.beat(loop.time(), keepalive, idle)

    def beat(self, now: float, keepalive: float, idle: float) -> None:
        """Close the sockets idle for `idle` seconds; send a keep-alive on those silent for
        `keepalive`."""
        for socket in list(self.sockets):
            if now - socket.heard_at >= idle:
                self.sockets.discard(socket)
                self._spawn(socket.idle_close())
            elif now - socket.sent_at >= keepalive:
                socket.sent_at = now
                self._spawn(socket.keepalive())

    def _spawn(self, send: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(send)
        self.sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self.sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # A socket that closed meanwhile: its disconnect takes it out of `sockets`.
            logger.debug("keep-alive not sent", exc_info=task.exception())


_HEARTBEATS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat] = (
    weakref.WeakKeyDictionary()
)


def heartbeat() -> Heartbeat:
    """The running event loop's heartbeat (a server has one loop; tests start one per test)."""
    loop = asyncio.get_running_loop()
    beat = _HEARTBEATS.get(loop)
    if beat is None:
        beat = _HEARTBEATS[loop] = Heartbeat()
    return beat
