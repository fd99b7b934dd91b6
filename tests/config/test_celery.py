"""The Celery app: a test run's tasks stay in its own queue, and beat's entries are declared
beside their tasks. (Its connections and bounded publish: tests/core/perf/test_celery.py.)"""

from __future__ import annotations

import importlib
import json
import os

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

import accounts.tasks
from accounts.tasks import auth_tokens_purge_expired
from config.celery import app, beat_schedule
from core.redis import get_redis


def test_a_task_sent_by_the_test_run_goes_to_its_own_queue() -> None:
    """Not to `celery`, which the worker of a `make run` on the same Redis consumes."""
    queue = app.conf.task_default_queue
    assert queue == f"yaniv-test-run{os.getpid()}.tasks"
    sent = auth_tokens_purge_expired.apply_async()
    redis = get_redis()
    try:
        messages = redis.lrange(queue, 0, -1)
        assert sent.id in [json.loads(message)["headers"]["id"] for message in messages]
        assert sent.id not in str(redis.lrange("celery", 0, -1))
    finally:
        for message in messages:
            if json.loads(message)["headers"]["id"] == sent.id:
                redis.lrem(queue, 0, str(message))


@pytest.mark.parametrize("entry", sorted(beat_schedule()))
def test_beats_entries_are_routed_to_the_runs_queue(entry: str) -> None:
    schedule = beat_schedule()[entry]
    options = dict(schedule.get("options", {}))
    route = app.amqp.router.route(options, str(schedule["task"]))
    assert route["queue"].name == f"yaniv-test-run{os.getpid()}.tasks"


def test_beat_runs_every_entry_as_it_was_scheduled() -> None:
    app.finalize()
    assert app.conf.beat_schedule == {
        "sweep-deadlines": {
            "task": "games.tasks.games_timeout_overdue",
            "schedule": settings.YANIV_SWEEP_SECONDS,
            "options": {"expires": 10},
        },
        "rate-pending-games": {
            "task": "games.tasks.games_rate_pending",
            "schedule": 60.0,
            "options": {"expires": 60},
        },
        "season-rollover": {
            "task": "games.tasks.seasons_roll_over",
            "schedule": 60.0,
            "options": {"expires": 60},
        },
        "accounts.purge-expired-tokens": {
            "task": "accounts.tasks.auth_tokens_purge_expired",
            "schedule": 3600.0,
        },
        "matchmaking.pass": {
            "task": "matchmaking.tasks.matchmaking_pass",
            "schedule": 1.0,
            "options": {"expires": 2},
        },
        "tournaments.tick": {
            "task": "tournaments.tasks.tournaments_tick",
            "schedule": settings.YANIV_TOURNAMENT_PAIRING_SECONDS,
            "options": {"expires": settings.YANIV_TOURNAMENT_PAIRING_SECONDS},
        },
        "ops.snapshot-metrics": {
            "task": "ops.tasks.snapshot_take",
            "schedule": 60.0,
            "options": {"expires": 60},
        },
        "social.presence-sweep": {
            "task": "social.tasks.presence_sweep",
            "schedule": settings.YANIV_PRESENCE_TTL_SECONDS / 3,
            "options": {"expires": settings.YANIV_PRESENCE_TTL_SECONDS / 3},
        },
        "social.purge-friend-requests": {
            "task": "social.tasks.friend_requests_purge",
            "schedule": 3600.0,
            "options": {"expires": 3600.0},
        },
        "social.purge-challenges": {
            "task": "social.tasks.challenges_purge",
            "schedule": 3600.0,
            "options": {"expires": 3600.0},
        },
        "chat.purge": {
            "task": "chat.tasks.chat_purge",
            "schedule": 3600.0,
            "options": {"expires": 3600.0},
        },
    }


def test_each_beat_entry_is_declared_beside_the_task_it_runs() -> None:
    """Not in one block of settings: a task's schedule is read where the task is."""
    app.finalize()
    for name, entry in app.conf.beat_schedule.items():
        module = importlib.import_module(entry["task"].rpartition(".")[0])
        assert module.BEAT_SCHEDULE[name] is entry
    assert not hasattr(settings, "CELERY_BEAT_SCHEDULE")


def test_two_apps_declaring_one_beat_entry_is_an_error(monkeypatch) -> None:
    taken = {
        "sweep-deadlines": {"task": "accounts.tasks.auth_tokens_purge_expired", "schedule": 1.0}
    }
    monkeypatch.setattr(accounts.tasks, "BEAT_SCHEDULE", taken)

    with pytest.raises(ImproperlyConfigured, match="sweep-deadlines"):
        beat_schedule()
