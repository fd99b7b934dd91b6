from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.services import auth_token_issue
from accounts.throttles import CACHE_KEY_PREFIX
from config.celery import app as celery_app
from config.redis import get_redis


def pytest_configure(config: pytest.Config) -> None:
    """Give this run a database, Redis key space and Celery queue of its own, so that runs
    side by side (and a `make run` on the same servers) never see each other's data, nor
    run each other's tasks (a dev worker took test tasks: "No such game.")."""
    run = f"run{os.getpid()}"
    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = f"test_{database['NAME']}_{run}"
    settings.CACHES["default"]["KEY_PREFIX"] = f"yaniv-test-{run}"
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"yaniv-test-{run}"
    # Tasks (and beat's entries, which name no queue) go to the default queue.
    settings.CELERY_TASK_DEFAULT_QUEUE = celery_app.conf.task_default_queue = _run_queue(run)


def _run_queue(run: str) -> str:
    return f"yaniv-test-{run}.tasks"


def pytest_unconfigure(config: pytest.Config) -> None:
    """What this run's tasks left in its queue (no worker consumed them) goes with it."""
    queue = _run_queue(f"run{os.getpid()}")
    with contextlib.suppress(RedisError):
        # kombu keeps a list per priority step ("<queue>\x06\x16<n>") and the bindings.
        steps = [f"{queue}\x06\x16{priority}" for priority in range(10)]
        bindings = [f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"]
        get_redis().delete(queue, *steps, *bindings)


def clear_throttle_counters() -> None:
    """Reset every rate-limit counter, and nothing else in Redis (a dev server may share it)."""
    redis = get_redis()
    keys = list(redis.scan_iter(match=cache.make_key(f"{CACHE_KEY_PREFIX}*"), count=1000))
    if keys:
        redis.delete(*keys)


@pytest.fixture
def clear_throttles() -> None:
    """Counters outlive a test (they are in Redis): without this, a suite would trip the
    limits meant for clients. The API client fixtures use it."""
    clear_throttle_counters()


@pytest.fixture
def api_client(clear_throttles: None) -> APIClient:
    return APIClient()


@pytest.fixture
def client_for(clear_throttles: None) -> Callable[[Player], APIClient]:
    """`client_for(player)`: an API client that sends a fresh bearer token of `player`."""

    def make(player: Player) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {auth_token_issue(player=player)}")
        return client

    return make
