"""The Celery app: workers run CPU moves, turn deadlines and matchmaking passes."""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any

from celery import Celery
from celery.signals import celeryd_init

from core.perf import worker
from core.perf.celery import keep_pooled_connections, reuse_broker_clients

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


# Every task is a BoundedTask (core/perf/celery.py).
app = Celery("yaniv", task_cls="core.perf.celery:BoundedTask")
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


# Tasks keep the worker's database connections pooled, and kombu its Redis clients
# (core/perf/celery.py: why).
keep_pooled_connections(app)
reuse_broker_clients()
# A worker's timeouts in PostgreSQL, and the time limits' watchdog in a threads worker
# (core/perf/worker.py: why).
worker.install(app)


@celeryd_init.connect
def _worker_waits_for_redis(conf: Any, **kwargs: Any) -> None:
    """The read timeout on broker connections is for what serves requests (and beat). A worker
    waits for a paused Redis as long as it takes, as before: an ack that times out is lost (the
    task runs again an hour later), and in one bench run (bench.faults) a worker whose acks had
    timed out took no task again."""
    options = dict(conf.broker_transport_options)
    options.pop("socket_timeout", None)
    conf.broker_transport_options = options
