"""Celery, with a task's database connections kept as a web request keeps them, and its publish
bounded as the project's other Redis calls are.

`keep_pooled_connections` replaces what Celery's Django fixup does around each task. The fixup
closes every database connection before and after each task, and with a connection pool in a prefork
worker it closes the whole pool: every task opened a new PostgreSQL connection (about 5 ms of CPU in
the worker, plus a backend started in PostgreSQL; worker CPU per task 7.0 -> 3.6 ms without it:
bench/README.md, "What helped"). Its "reuse" setting turns that off (it would close them only every
2**30 tasks); instead a task treats connections as a web request does: given back to the pool (a
broken one dropped) before and after it runs.

`BoundedTask` is every task's class (config/celery.py): a task is queued as the project's
other Redis calls are made (core/redis.py), refused at once while Redis is known not to
answer, and a publish that timed out starts that outage, so a request that queues a task
waits one timeout at most, not one per call.

Relies on (tests/core/perf/test_celery.py): the fixup (`celery.fixups.django`) reads
`CELERY_DB_REUSE_MAX` from the app's configuration and closes connections only every that many
tasks; `task_cls` is the class of the tasks `shared_task` makes; kombu raises a publish that
timed out as its `OperationalError` chained from redis-py's `TimeoutError`.
"""

from __future__ import annotations

from typing import Any

import redis
from celery import Celery, Task
from celery.signals import task_postrun, task_prerun
from kombu.exceptions import OperationalError

from core.redis import check_available, outage_begins


class BoundedTask(Task[Any, Any]):
    """Queued as the project's other Redis calls are bounded (core/redis.py): refused at once
    while Redis is known not to answer, and a publish that timed out starts that outage."""

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        check_available()
        try:
            return super().apply_async(*args, **kwargs)
        except OperationalError as error:
            if isinstance(error.__cause__, redis.TimeoutError):
                outage_begins()
            raise


def keep_pooled_connections(app: Celery) -> None:
    """The app's tasks keep the worker's pool of database connections (see above)."""
    app.conf["CELERY_DB_REUSE_MAX"] = 2**30
    task_prerun.connect(release_connections)
    task_postrun.connect(release_connections)


def release_connections(**kwargs: Any) -> None:
    """As around a web request: give the connection back to the pool (a broken one is dropped)."""
    if not getattr(kwargs["task"].request, "is_eager", False):
        from django.db import close_old_connections

        close_old_connections()
