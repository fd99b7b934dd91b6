"""ops/tasks_signals.py: a `celery worker` whose threads ran its tasks drops its live metrics as
it exits, as a prefork child does; neither a prefork master nor the tests' in-process workers
(the test process goes on)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from celery.apps.worker import Worker
from celery.concurrency.prefork import TaskPool as PreforkPool
from celery.concurrency.thread import TaskPool as ThreadsPool
from celery.contrib.testing.worker import TestWorkController
from celery.signals import worker_shutdown


def controller(kind: type, pool: type) -> Any:
    made: Any = object.__new__(kind)  # no worker started: only what the receiver reads
    made.pool = pool(limit=1)
    return made


@pytest.mark.parametrize(
    ("kind", "pool", "marked"),
    [
        (Worker, ThreadsPool, True),
        (Worker, PreforkPool, False),  # its children did, each as it exited
        (TestWorkController, ThreadsPool, False),
    ],
    ids=["threads worker", "prefork master", "in-process test worker"],
)
def test_a_threads_workers_exit_drops_its_live_metrics(
    kind: type, pool: type, marked: bool
) -> None:
    with mock.patch("core.metrics.mark_process_dead") as mark:
        worker_shutdown.send(sender=controller(kind, pool))
    assert mark.called is marked
