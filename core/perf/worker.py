"""The Celery worker in threads (`WORKER_POOL`, default "threads"), with what prefork's time
limits were for kept by other means.

Why threads: prefork pickles each task to a child process and its result back (billiard);
with the threads pool a task runs in a thread of the process that received it: a fifth to a
half less worker CPU a move in five A/B pairs (bench/README.md, "What helped"). The code the
tasks run already runs in threads in the web process (each request in a thread of its own,
with its own database connection from the process's pool).

Celery enforces `CELERY_TASK_TIME_LIMIT` and `CELERY_TASK_SOFT_TIME_LIMIT` in prefork only (a
child past its hard limit is killed). They stood for two things, and each has its guard here:

1. A task stuck while it holds a game's row lock (a hung statement, a lock it waits for, a
   thread that stopped between two statements of its transaction) would hold the game for
   good: the sweeper skips a locked game, and every move waits on it. `database_guard` has
   PostgreSQL itself bound that on each of the worker's connections (libpq's `options`, sent at
   login: no statement more): `statement_timeout`, `lock_timeout` and
   `idle_in_transaction_session_timeout` (`DB_WORKER_*_TIMEOUT`). Whatever the Python does, a
   statement, a lock wait or a transaction left idle ends past them, its transaction rolls back
   and its locks go. The task fails (a cancelled statement or lock wait is an OperationalError,
   which the retried tasks retry: `games/tasks.py`; a thread that resumes after its idle
   session was ended gets an InternalError on its next statement), and the sweeper plays the
   turn (`CPU_GRACE`). A move is never played twice: every turn task is keyed by (game, seq)
   and checks it under the game's lock, and a rolled-back transaction played nothing. In
   prefork too the worker has these timeouts (the children inherit them).
2. A thread that never returns holds one of the pool's threads for good. The `Watchdog` logs
   its stack at the soft limit and, at the hard limit, fails its task as prefork does (Celery's
   own `on_timeout`: the failure is logged and counted, the message acknowledged) and ends the
   worker process, which its supervisor starts again (the Procfile's loop, compose's restart
   policy, Kubernetes). Python cannot stop a thread from outside; a process is what can be
   ended. The other tasks it ran then are those of a killed worker (bench.faults, (a)): their
   transactions roll back with their connections, their messages stay unacknowledged and come
   back after the broker's `visibility_timeout`, and the sweeper plays their turns long before.

A threads worker cannot cancel a running task when its broker connection drops
(`CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS`: Celery warns that it could not):
the task runs on, and kombu may give its message back to the queue meanwhile (it restores a
closed channel's unacknowledged messages), so it may run a second time. That is the case every
task is written for: the second run waits for the game's lock, then finds its (game, seq)
played and does nothing.

Behind PgBouncer (`DATABASE_POOLER=pgbouncer`) nothing is sent at login (PgBouncer refuses a
startup `options` it does not know): the worker's PostgreSQL role carries the timeouts instead
(docs/operations.md, "Worker pool").

Relies on (tests/core/perf/test_worker.py): Django passes an `options` key of OPTIONS to psycopg
as libpq's; Celery keeps the requests a worker runs in `celery.worker.state.active_requests`,
with `time_start` (wall clock) once a thread took one, `time_limits` from the message, and
`on_timeout(soft, timeout)`; it sends `celeryd_init` and `worker_ready` in a `celery worker`
process only (not in the tests' in-process workers).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from celery import Celery
from celery.signals import celeryd_init, task_postrun, task_prerun, worker_ready
from celery.worker import state
from django.conf import settings

logger = logging.getLogger(__name__)

# PostgreSQL's parameter for each setting (seconds; 0 turns one off).
GUARD = {
    "statement_timeout": "DB_WORKER_STATEMENT_TIMEOUT",
    "lock_timeout": "DB_WORKER_LOCK_TIMEOUT",
    "idle_in_transaction_session_timeout": "DB_WORKER_IDLE_IN_TRANSACTION_TIMEOUT",
}


def guard_options() -> str:
    """libpq's `options` for the worker's connections: the timeouts, in milliseconds."""
    return " ".join(
        f"-c {name}={round(float(getattr(settings, setting)) * 1000)}"
        for name, setting in GUARD.items()
    )


def database_guard() -> bool:
    """Have every connection this process opens from now on carry the timeouts (at login);
    False behind PgBouncer, where the worker's role carries them instead."""
    from django.db import connections

    if settings.DATABASE_POOLER == "pgbouncer":
        logger.info("worker timeouts: the PostgreSQL role's (behind PgBouncer)")
        return False
    for alias in connections:
        options = connections[alias].settings_dict.setdefault("OPTIONS", {})
        # Kept: options that DATABASE_URL may have given (libpq applies the last of a name).
        options["options"] = f"{options.get('options', '')} {guard_options()}".strip()
        # A connection or pool made before has no timeouts: none is kept.
        connections[alias].close()
        if connections[alias].vendor == "postgresql" and alias in _pools():
            connections[alias].close_pool()  # type: ignore[attr-defined]
    return True


def _pools() -> dict[str, Any]:
    from django.db.backends.postgresql.base import DatabaseWrapper

    pools: dict[str, Any] = DatabaseWrapper._connection_pools  # type: ignore[attr-defined]
    return pools


class Watchdog:
    """For a pool that enforces no time limits: a task's stack logged at its soft limit; at
    its hard limit its failure, as prefork has it, and the end of the process (see above)."""

    def __init__(
        self,
        app: Celery,
        *,
        end: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.app = app
        self.end = end or _end_process
        self.clock = clock
        self.threads: dict[str, int] = {}  # task id -> the thread that runs it
        self.warned: set[str] = set()

    def limits(self, request: Any) -> tuple[float | None, float | None]:
        """The request's (hard, soft) limits: its message's, else its task's, else the app's."""
        hard, soft = request.time_limits
        conf = self.app.conf
        return (
            hard or request.task.time_limit or conf.task_time_limit,
            soft or request.task.soft_time_limit or conf.task_soft_time_limit,
        )

    def check(self) -> None:
        now = self.clock()
        for request in list(state.active_requests):
            started = request.time_start
            if started is None:  # not yet taken by a thread
                continue
            hard, soft = self.limits(request)
            ran = now - started
            if hard and ran >= hard:
                logger.critical(
                    "task %s[%s] ran past its hard time limit (%s s): ending the worker\n%s",
                    request.name,
                    request.id,
                    hard,
                    self.stack(request.id),
                )
                try:
                    request.on_timeout(soft=False, timeout=hard)
                finally:
                    self.end()
                return
            if soft and ran >= soft and request.id not in self.warned:
                self.warned.add(request.id)
                logger.error(
                    "task %s[%s] ran past its soft time limit (%s s)\n%s",
                    request.name,
                    request.id,
                    soft,
                    self.stack(request.id),
                )
        self.warned &= {request.id for request in list(state.active_requests)}

    def stack(self, task_id: str) -> str:
        ident = self.threads.get(task_id)
        frame = sys._current_frames().get(ident) if ident is not None else None
        return "".join(traceback.format_stack(frame)) if frame is not None else "(no stack)"

    def task_started(self, task_id: str, **_: Any) -> None:
        self.threads[task_id] = threading.get_ident()  # the signal runs in the task's thread

    def task_ended(self, task_id: str, **_: Any) -> None:
        self.threads.pop(task_id, None)

    def start(self, interval: float = 1.0) -> threading.Thread:
        task_prerun.connect(self.task_started, weak=False)
        task_postrun.connect(self.task_ended, weak=False)

        def watch() -> None:
            while True:
                time.sleep(interval)
                try:
                    self.check()
                except Exception:
                    logger.exception("worker watchdog")

        thread = threading.Thread(target=watch, name="worker-watchdog", daemon=True)
        thread.start()
        return thread


def _end_process() -> None:
    """Now, whatever the other threads do (a hung one would hold up a clean exit)."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(70)  # EX_SOFTWARE


def enforces_limits(pool: Any) -> bool:
    from celery.concurrency.prefork import TaskPool

    return isinstance(pool, TaskPool)


def install(app: Celery) -> None:
    """In a `celery worker` process: the guard on its connections, before any is made; once
    its pool runs, the watchdog unless the pool enforces the limits itself."""

    def guard(**_: Any) -> None:
        database_guard()

    def watch(sender: Any = None, **_: Any) -> None:
        pool = sender.controller.pool if sender is not None else None
        if pool is not None and not enforces_limits(pool):
            Watchdog(app).start()

    celeryd_init.connect(guard, weak=False)
    worker_ready.connect(watch, weak=False)
