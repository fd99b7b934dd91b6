"""Celery task metrics and log context, from Celery's signals (each prefork child counts its
own runs, a threads worker in its one process; a process that ran tasks drops its live gauges
as it exits, here and in Redis). A worker's figures
(task runs, the matchmaking pass, CPU fills) go to its PROMETHEUS_MULTIPROC_DIR: under compose
one volume every container shares, so web's /metrics serves them (core/metrics.py); the staff
page's few series also go to Redis (core/metrics_shared.py).
"""

from __future__ import annotations

import time
from typing import Any

from celery.signals import (
    task_failure,
    task_postrun,
    task_prerun,
    task_retry,
    worker_process_shutdown,
    worker_ready,
    worker_shutdown,
)

from core import logs, metrics
from ops import worker_metrics

_started: dict[str, float] = {}


def _prerun(task_id: str, task: Any, args: Any = (), kwargs: Any = None, **_: Any) -> None:
    _started[task_id] = time.perf_counter()
    game_id = (kwargs or {}).get("game_id")
    if game_id is None and args and task.name.startswith("games."):
        game_id = args[0]
    logs.bind(request_id=task_id, game_id=str(game_id) if game_id is not None else None)


def _postrun(task_id: str, task: Any, state: str | None = None, **_: Any) -> None:
    start = _started.pop(task_id, None)
    if start is not None:
        metrics.CELERY_TASK_DURATION.labels(task.name).observe(time.perf_counter() - start)
    if state == "SUCCESS":
        metrics.CELERY_TASK_RUNS.labels(task.name, "success").inc()
    logs.clear()


def _failure(sender: Any = None, **_: Any) -> None:
    metrics.CELERY_TASK_RUNS.labels(getattr(sender, "name", "unknown"), "failure").inc()


def _retry(sender: Any = None, **_: Any) -> None:
    metrics.CELERY_TASK_RUNS.labels(getattr(sender, "name", "unknown"), "retry").inc()


def _child_exit(**_: Any) -> None:
    metrics.mark_process_dead()


def _worker_exit(sender: Any = None, **_: Any) -> None:
    """The end of a `celery worker` program whose pool ran its tasks in its own process (threads),
    where no child's exit told it (not the tests' in-process workers: not their process's end)."""
    from celery.apps.worker import Worker
    from celery.concurrency.prefork import TaskPool

    if isinstance(sender, Worker) and not isinstance(sender.pool, TaskPool):
        metrics.mark_process_dead()


def connect() -> None:
    task_prerun.connect(_prerun, weak=False)
    task_postrun.connect(_postrun, weak=False)
    task_failure.connect(_failure, weak=False)
    task_retry.connect(_retry, weak=False)
    worker_process_shutdown.connect(_child_exit, weak=False)
    worker_shutdown.connect(_worker_exit, weak=False)
    worker_ready.connect(worker_metrics.on_worker_ready, weak=False)
