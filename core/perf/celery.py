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

`reuse_broker_clients` keeps one redis-py client per kombu channel. kombu's Redis channel makes
a new client for each publish and each ack (`conn_or_acquire`), and redis-py builds some 170
response callbacks into every new client: with the task's arguments given a plain `repr` (below,
instead of Celery's `saferepr`, made for arbitrary objects), the web's publish of a move's CPU
turn takes a quarter less CPU (bench/README.md, "What helped"). A client is stateless (each
command takes a connection from the channel's pool, which it keeps): one serves every thread.

Relies on (tests/core/perf/test_celery.py): kombu's Redis channel gets its synchronous clients
from `Channel._create_client` and its connections from `Channel.pool`; the fixup
(`celery.fixups.django`) reads `CELERY_DB_REUSE_MAX` from the app's configuration and closes
connections only every that many tasks; `task_cls` is the class of the tasks `shared_task`
makes; kombu raises a publish that timed out as its `OperationalError` chained from redis-py's
`TimeoutError`.
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

    def apply_async(self, args: Any = None, kwargs: Any = None, *rest: Any, **options: Any) -> Any:
        check_available()
        if not kwargs and "argsrepr" not in options and plain(args):
            # What Celery's saferepr would write, for a fraction of its cost.
            options["argsrepr"], options["kwargsrepr"] = repr(args), "{}"
        try:
            return super().apply_async(args, kwargs, *rest, **options)
        except OperationalError as error:
            if isinstance(error.__cause__, redis.TimeoutError):
                outage_begins()
            raise


def plain(args: Any) -> bool:
    """A task's arguments as ours are (a game's id and a seq): a few short strings and
    integers, whose repr is short and cannot fail."""
    return (
        type(args) is tuple
        and len(args) <= 4
        and all(type(arg) is int or (type(arg) is str and len(arg) <= 64) for arg in args)
    )


def reuse_broker_clients() -> None:
    """kombu's Redis channels keep the synchronous client they make (see above)."""
    from kombu.transport import redis as transport

    channel_class: Any = transport.Channel
    create = channel_class._create_client
    if getattr(create, "reuses", False):
        return

    def _create_client(channel: Any, asynchronous: bool = False) -> Any:
        if asynchronous:  # the consumer's own, made once per channel already
            return create(channel, asynchronous=True)
        client = channel.__dict__.get("_sync_client")
        if client is None or client.connection_pool is not channel.pool:
            client = channel.__dict__["_sync_client"] = create(channel)
        return client

    _create_client.reuses = True  # type: ignore[attr-defined]
    _create_client.stock = create  # type: ignore[attr-defined]
    channel_class._create_client = _create_client


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
