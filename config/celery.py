"""The Celery app: workers run CPU moves, turn deadlines and matchmaking passes."""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any

import redis
from celery import Celery, Task
from celery.signals import celeryd_init, task_postrun, task_prerun
from kombu.exceptions import OperationalError

from config.redis import check_available, outage_begins

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class BoundedTask(Task[Any, Any]):
    """Queued as the project's other Redis calls are bounded (config/redis.py): refused at once
    while Redis is known not to answer, and a publish that timed out starts that outage."""

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        check_available()
        try:
            return super().apply_async(*args, **kwargs)
        except OperationalError as error:
            if isinstance(error.__cause__, redis.TimeoutError):
                outage_begins()
            raise


app = Celery("yaniv", task_cls="config.celery:BoundedTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def beat_schedule() -> dict[str, dict[str, Any]]:
    """Beat's entries: each installed app's tasks module declares those of its own tasks,
    beside them, as BEAT_SCHEDULE (the modules autodiscovery imports)."""
    from django.apps import apps
    from django.core.exceptions import ImproperlyConfigured

    schedule: dict[str, dict[str, Any]] = {}
    for config in apps.get_app_configs():
        name = f"{config.name}.tasks"
        if importlib.util.find_spec(name) is None:
            continue
        declared: dict[str, dict[str, Any]] = getattr(
            importlib.import_module(name), "BEAT_SCHEDULE", {}
        )
        if clash := sorted(schedule.keys() & declared.keys()):
            raise ImproperlyConfigured(f"{name} declares beat entries declared before: {clash}")
        schedule.update(declared)
    return schedule


@app.on_after_finalize.connect
def _collect_beat_schedule(sender: Celery, **kwargs: Any) -> None:
    """Beat reads its entries once it has finalized the app (it has imported the tasks by
    then, and set Django up): the entries are in place before its scheduler starts."""
    sender.conf.beat_schedule = {**sender.conf.beat_schedule, **beat_schedule()}


# Celery's Django fixup closes every database connection before and after each task, and with
# a connection pool in a prefork worker it closes the whole pool: every task opened a new
# PostgreSQL connection (about 5 ms of CPU in the worker, plus a backend started in
# PostgreSQL). Its "reuse" setting turns that off (it would close them only every 2**30
# tasks); instead a task treats connections as a web request does, below.
app.conf["CELERY_DB_REUSE_MAX"] = 2**30


@task_prerun.connect
@task_postrun.connect
def _release_connections(**kwargs: Any) -> None:
    """As around a web request: give the connection back to the pool (a broken one is dropped)."""
    if not getattr(kwargs["task"].request, "is_eager", False):
        from django.db import close_old_connections

        close_old_connections()


@celeryd_init.connect
def _worker_waits_for_redis(conf: Any, **kwargs: Any) -> None:
    """The read timeout on broker connections is for what serves requests (and beat). A worker
    waits for a paused Redis as long as it takes, as before: an ack that times out is lost (the
    task runs again an hour later), and in one bench run (bench.faults) a worker whose acks had
    timed out took no task again."""
    options = dict(conf.broker_transport_options)
    options.pop("socket_timeout", None)
    conf.broker_transport_options = options
