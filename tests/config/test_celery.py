"""The Celery app keeps pooled database connections across tasks, as the web does."""

from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

from celery.fixups.django import DjangoWorkerFixup  # type: ignore[attr-defined]

from config import celery as celery_config
from config.celery import app


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
