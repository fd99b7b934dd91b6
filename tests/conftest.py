from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.services import auth_token_issue
from accounts.throttles import CACHE_KEY_PREFIX
from config.redis import get_redis


def pytest_configure(config: pytest.Config) -> None:
    """Give this run a database and Redis key space of its own, so that runs side by side
    (and a `make run` on the same servers) never see each other's data."""
    run = f"run{os.getpid()}"
    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = f"test_{database['NAME']}_{run}"
    settings.CACHES["default"]["KEY_PREFIX"] = f"yaniv-test-{run}"
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"yaniv-test-{run}"


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
