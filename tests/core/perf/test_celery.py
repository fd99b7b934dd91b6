"""core/perf/celery.py: tasks keep pooled database connections across tasks, as the web does,
and a task's publish is bounded; each test fails if Celery or kombu stops doing what it leans on."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
import redis
from celery import Celery, Task
from celery.fixups.django import DjangoWorkerFixup  # type: ignore[attr-defined]
from celery.signals import task_postrun, task_prerun
from kombu.exceptions import OperationalError

from config.celery import app
from core import redis as core_redis
from core.perf import celery as perf_celery
from core.perf.celery import BoundedTask
from games import tasks
from tests.core.conftest import BOUND, within


def test_the_django_fixup_no_longer_closes_the_pool_around_each_task() -> None:
    fixup = DjangoWorkerFixup(app)
    with mock.patch.object(fixup, "_close_database") as close:
        for _ in range(1000):
            fixup.close_database()
    close.assert_not_called()


def test_without_the_setting_the_fixup_closes_the_pool_around_every_task() -> None:
    """Why the setting is there; when this fails, Celery stopped closing them on its own."""
    fixup = DjangoWorkerFixup(Celery("stock", set_as_current=False))
    with mock.patch.object(fixup, "_close_database") as close:
        for _ in range(3):
            fixup.close_database()
    assert close.call_count == 3


def test_a_task_gives_its_connection_back_before_and_after_it_runs() -> None:
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    with mock.patch("django.db.close_old_connections") as release:
        perf_celery.release_connections(task=task)
    release.assert_called_once_with()


def test_an_eager_task_keeps_the_callers_connection() -> None:
    task = SimpleNamespace(request=SimpleNamespace(is_eager=True))
    with mock.patch("django.db.close_old_connections") as release:
        perf_celery.release_connections(task=task)
    release.assert_not_called()


def test_celerys_task_signals_reach_the_release() -> None:
    task = SimpleNamespace(request=SimpleNamespace(is_eager=False))
    with mock.patch("django.db.close_old_connections") as release:
        task_prerun.send(sender=None, task=task)
        task_postrun.send(sender=None, task=task)
    assert release.call_count == 2


def test_every_task_of_the_project_is_bounded() -> None:
    """`task_cls` is the class of the tasks `shared_task` makes."""
    app.finalize()
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    assert "games.tasks.game_cpu_turn" in ours
    assert all(isinstance(task, BoundedTask) for task in ours.values()), ours


@pytest.mark.django_db(transaction=True)
def test_a_publish_that_times_out_starts_the_outage(stalled_redis: str) -> None:
    """kombu raises it as its OperationalError, chained from redis-py's TimeoutError."""
    with pytest.raises(OperationalError) as raised:
        within(BOUND, lambda: tasks.game_cpu_turn.apply_async(("game", 1), countdown=1))
    assert isinstance(raised.value.__cause__, redis.TimeoutError)
    with pytest.raises(core_redis.RedisUnavailable):
        core_redis.check_available()


def test_kombu_makes_a_redis_client_for_each_publish_and_ack() -> None:
    """Why `reuse_broker_clients` is there; when this fails, kombu keeps its client itself."""
    connection = app.connection_for_write()
    try:
        channel: Any = connection.default_channel
        stock = type(channel)._create_client.stock
        assert stock(channel) is not stock(channel)
    finally:
        connection.release()


def test_a_channel_keeps_its_client_while_it_keeps_its_pool() -> None:
    connection = app.connection_for_write()
    try:
        channel: Any = connection.default_channel
        client = channel._create_client()
        assert channel._create_client() is client
        assert client.connection_pool is channel.pool
        channel._disconnect_pools()  # as in a forked child: a pool of its own, a client with it
        again = channel._create_client()
        assert again is not client
        assert again.connection_pool is channel.pool
        assert channel._create_client(asynchronous=True) is not channel._create_client(True)
    finally:
        connection.release()


def published(call: Any) -> dict[str, Any]:
    """The headers of the message `call` would publish (nothing is sent)."""
    with mock.patch.object(app.amqp, "send_task_message") as send:
        call()
    message = send.call_args.args[2]  # (producer, name, message)
    return dict(message.headers)


def test_plain_arguments_are_told_by_their_repr_as_celery_tells_them() -> None:
    key = ("6f1c2b1e-8a4b-4c3d-9e2f-0123456789ab", 57)
    headers = published(lambda: tasks.game_cpu_turn.apply_async(key, countdown=1))
    stock = published(lambda: Task.apply_async(tasks.game_cpu_turn, key, countdown=1))
    assert headers["argsrepr"] == stock["argsrepr"] == repr(key)
    assert headers["kwargsrepr"] == stock["kwargsrepr"] == "{}"


def test_other_arguments_are_left_to_celery() -> None:
    ids = [str(n) for n in range(100)]
    headers = published(lambda: tasks.game_rate.apply_async(kwargs={"game_id": "g"}))
    assert headers["kwargsrepr"] == "{'game_id': 'g'}"
    assert not perf_celery.plain((ids,))
    assert not perf_celery.plain(("x" * 65,))
    assert perf_celery.plain(("g", 1))
