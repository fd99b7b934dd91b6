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

The same kind of loop (`SocketTimer`) renews the presence of the process's me sockets
(players/consumers.py): one timer a process for each chore, never one a socket.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Coroutine
from typing import Any, Generic, Protocol, TypeVar, cast

from django.conf import settings

logger = logging.getLogger(__name__)

CLOSE_IDLE = 4408

S = TypeVar("S")
T = TypeVar("T", bound="SocketTimer[Any]")


class Beating(Protocol):
    heard_at: float
    sent_at: float

    async def keepalive(self) -> None: ...

    async def idle_close(self) -> None: ...

    async def drain_close(self) -> None: ...  # the process drains (core/drain.py)


class SocketTimer(Generic[S]):
    """Some of one event loop's open sockets, and one timer loop over them while any is open
    (rather than a timer or a task a socket): every `interval()` seconds, `tick(now)`. What a
    tick sends or asks runs as tasks of its own (`spawn`), so that one slow socket, or one slow
    round trip, holds up no other."""

    def __init__(self) -> None:
        self.sockets: set[S] = set()
        self.task: asyncio.Task[None] | None = None
        self.sending: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak refs

    def add(self, socket: S) -> None:
        self.sockets.add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, socket: S) -> None:
        self.sockets.discard(socket)

    def interval(self) -> float:
        raise NotImplementedError

    def tick(self, now: float) -> None:
        raise NotImplementedError

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self.sockets:
            await asyncio.sleep(self.interval())
            self.tick(loop.time())

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self.sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # A socket that closed meanwhile: its disconnect takes it out of `sockets`.
            logger.debug("%s: not done", type(self).__name__, exc_info=task.exception())


_TIMERS: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[type[SocketTimer[Any]], SocketTimer[Any]]
] = weakref.WeakKeyDictionary()


def running(kind: type[T]) -> T:
    """The running event loop's timer of this kind (a server has one loop; tests start one per
    test)."""
    timers = _TIMERS.setdefault(asyncio.get_running_loop(), {})
    timer = timers.get(kind)
    if timer is None:
        timer = timers[kind] = kind()
    return cast(T, timer)


class Heartbeat(SocketTimer[Beating]):
    """The listening sockets of one event loop, kept alive."""

    def interval(self) -> float:
        keepalive: float = settings.YANIV_WS_KEEPALIVE_SECONDS
        idle: float = settings.YANIV_WS_IDLE_SECONDS
        return min(keepalive, idle) / 4

    def tick(self, now: float) -> None:
        self.beat(now, settings.YANIV_WS_KEEPALIVE_SECONDS, settings.YANIV_WS_IDLE_SECONDS)

    def beat(self, now: float, keepalive: float, idle: float) -> None:
        """Close the sockets idle for `idle` seconds; send a keep-alive on those silent for
        `keepalive`."""
        for socket in list(self.sockets):
            if now - socket.heard_at >= idle:
                self.sockets.discard(socket)
                self.spawn(socket.idle_close())
            elif now - socket.sent_at >= keepalive:
                socket.sent_at = now
                self.spawn(socket.keepalive())


def heartbeat() -> Heartbeat:
    """The running event loop's heartbeat."""
    return running(Heartbeat)
