"""The Celery app keeps pooled database connections across tasks, as the web does, and a test
run's tasks stay in its own queue."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace
from unittest import mock

import pytest
from celery.fixups.django import DjangoWorkerFixup  # type: ignore[attr-defined]
from django.conf import settings

from accounts.tasks import purge_expired_tokens
from config import celery as celery_config
from config.celery import app
from config.redis import get_redis


def test_the_django_fixup_no_longer_closes_the_pool_around_each_task() -> None:
    fixup = DjangoWorkerFixup(app)
    with mock.patch.object(fixup, "_close_database") as close:
        for _ in range(1000):
            fixup.close_database()
    close.assert_not_called()


def test_a_task_gives_its_connection_back_before_and_after_it_runs() -> None:
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    with mock.patch("django.db.close_old_connections") as release:
        celery_config._release_connections(task=task)
    release.assert_called_once_with()


def test_an_eager_task_keeps_the_callers_connection() -> None:
    task = SimpleNamespace(request=SimpleNamespace(is_eager=True))
    with mock.patch("django.db.close_old_connections") as release:
        celery_config._release_connections(task=task)
    release.assert_not_called()


def test_a_task_sent_by_the_test_run_goes_to_its_own_queue() -> None:
    """Not to `celery`, which the worker of a `make run` on the same Redis consumes."""
    queue = app.conf.task_default_queue
    assert queue == f"yaniv-test-run{os.getpid()}.tasks"
    sent = purge_expired_tokens.apply_async()
    redis = get_redis()
    try:
        messages = redis.lrange(queue, 0, -1)
        assert sent.id in [json.loads(message)["headers"]["id"] for message in messages]
        assert sent.id not in str(redis.lrange("celery", 0, -1))
    finally:
        for message in messages:
            if json.loads(message)["headers"]["id"] == sent.id:
                redis.lrem(queue, 0, str(message))


@pytest.mark.parametrize("entry", sorted(settings.CELERY_BEAT_SCHEDULE))
def test_beats_entries_are_routed_to_the_runs_queue(entry: str) -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE[entry]
    options = dict(schedule.get("options", {}))  # type: ignore[call-overload]
    route = app.amqp.router.route(options, str(schedule["task"]))
    assert route["queue"].name == f"yaniv-test-run{os.getpid()}.tasks"
