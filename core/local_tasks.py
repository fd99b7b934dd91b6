"""Work a web process runs itself, after a delay and off the request's path, without a broker:
the CPU's reply to a move the process took (games/services/clock.py).

Why: a Celery task a move cost some 1.3 ms of server CPU (the publish, the worker's fetch, its
bookkeeping for `acks_late`, the ack), over a tenth of a whole move (bench/README.md, "The
CPU's reply without a task"). What a task guaranteed is kept by what already stands behind
every task: the game's lock and `seq` (a turn is played once; whoever comes second finds the
game moved on) and beat's sweeper (a turn overdue by its think time plus `CPU_GRACE` is played
whatever became of the process that should have played it).

How: `install` (the ASGI lifespan's startup, config/asgi.py) gives the process a runner.
`call_later(delay, fn, name)`, from any thread, arms a timer on the process's event loop; when
it is due, `fn` runs in one of the runner's threads, its database connection handled as around
a request (given back to the pool before and after). `shutdown` (the lifespan's shutdown: after
the drain, once the requests in flight are answered) runs what is still pending at once and
waits for it, so a deploy delays no reply. A process killed outright loses its pending calls:
the sweeper plays them.

Where no runner is installed (a Celery worker, a management command, the tests' in-process
clients and servers), `call_later` returns False and the caller queues a task as before.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections

from core import metrics

logger = logging.getLogger(__name__)

# Threads a runner plays its calls in: beside the HTTP threads (WEB_THREADS), each holding a
# database connection while it runs.
THREADS = 2

_runner: Runner | None = None
# What to run, its name (metrics, logs) and the context it was asked for in.
_Call = tuple[Callable[[], object], str, contextvars.Context]


class Runner:
    """Calls run after a delay in threads of this process (see above). Its timers live on
    `loop`; `call_later` may come from any thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, threads: int = THREADS) -> None:
        self.loop = loop
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="local-task")
        self.closed = threading.Event()
        # Armed and not yet due: touched on the loop only.
        self.timers: dict[asyncio.TimerHandle, _Call] = {}

    def call_later(self, delay: float, fn: Callable[[], object], name: str) -> bool:
        """Run `fn` in `delay` seconds: False (and nothing armed) once the runner is shut. It
        runs in the caller's context (its logs' request and game ids: core/logs.py)."""
        if self.closed.is_set():
            return False
        call = (fn, name, contextvars.copy_context())
        try:
            self.loop.call_soon_threadsafe(self._arm, delay, call)
        except RuntimeError:  # the loop is closed
            return False
        return True

    def _arm(self, delay: float, call: _Call) -> None:
        if self.closed.is_set():  # came in while the runner shut: run it now
            self._submit(None, call)
            return
        handle: asyncio.TimerHandle = self.loop.call_later(
            max(delay, 0.0), lambda: self._submit(handle, call)
        )
        self.timers[handle] = call

    def _submit(self, handle: asyncio.TimerHandle | None, call: _Call) -> None:
        if handle is not None:
            self.timers.pop(handle, None)
        fn, name, context = call
        try:
            self.executor.submit(context.run, _run, fn, name)
        except RuntimeError:  # the executor has shut down: the sweeper plays it
            logger.warning("local task %s dropped at shutdown", name)
            metrics.LOCAL_TASK_RUNS.labels(name, "dropped").inc()

    async def shutdown(self, timeout: float) -> None:
        """Run every pending call now and wait for all of them, `timeout` seconds at most."""
        self.closed.set()
        for handle, call in list(self.timers.items()):
            handle.cancel()
            self._submit(handle, call)
        waiting = self.loop.run_in_executor(None, self.executor.shutdown, True)
        try:
            await asyncio.wait_for(asyncio.shield(waiting), timeout)
        except TimeoutError:
            logger.warning("local tasks still running after %.1f s: left to them", timeout)


def _run(fn: Callable[[], object], name: str) -> None:
    close_old_connections()
    try:
        fn()
    except Exception:
        logger.exception("local task %s failed (the sweeper plays what it left)", name)
        metrics.LOCAL_TASK_RUNS.labels(name, "failure").inc()
    else:
        metrics.LOCAL_TASK_RUNS.labels(name, "success").inc()
    finally:
        close_old_connections()


def install(loop: asyncio.AbstractEventLoop, threads: int = THREADS) -> Runner:
    """Give this process its runner, its timers on `loop` (the server's event loop)."""
    global _runner
    _runner = Runner(loop, threads)
    return _runner


def uninstall() -> Runner | None:
    """Take the process's runner away (it is shut by whoever holds it): the runner, or None."""
    global _runner
    runner, _runner = _runner, None
    return runner


def call_later(delay: float, fn: Callable[[], object], name: str) -> bool:
    """Run `fn` in this process in `delay` seconds, off the caller's thread: False when the
    process runs no local tasks (or no longer does), and the caller must see to it otherwise."""
    runner = _runner
    return runner is not None and runner.call_later(delay, fn, name)


async def shutdown(timeout: float = 10.0) -> None:
    """The lifespan's shutdown: the process's pending calls run now; waits for them."""
    runner = uninstall()
    if runner is not None:
        await runner.shutdown(timeout)
