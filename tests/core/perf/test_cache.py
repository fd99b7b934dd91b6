"""core/perf/cache.py: Django's Redis cache, reusing one client per connection pool; each test
fails if Django's cache backend stops doing what the shim leans on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends import redis as django_redis

from core.perf.cache import RedisCache, RedisCacheClient
from core.redis import Connection


@pytest.fixture
def clients_built(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every `redis.Redis` made from now on."""
    built: list[object] = []
    original = redis.Redis.__init__

    def counting(self: redis.Redis, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counting)
    return built


def _operations(backend: Any) -> list[Callable[[], Any]]:
    """One of each kind of call the project makes (the throttle's, matchmaking's flag)."""
    return [
        lambda: backend.set("perf-cache", {"n": 1}, timeout=30),
        lambda: backend.get("perf-cache"),
        lambda: backend.add("perf-cache-flag", True, timeout=1),
        lambda: backend.get_many(["perf-cache", "perf-cache-flag"]),
        lambda: backend.delete_many(["perf-cache", "perf-cache-flag"]),
    ]


def _stock_backend() -> django_redis.RedisCache:
    """Django's own backend, with the project's cache settings."""
    params = {key: value for key, value in settings.CACHES["default"].items() if key != "BACKEND"}
    return django_redis.RedisCache(params.pop("LOCATION"), params)


def test_the_cache_reuses_its_redis_client() -> None:
    client = cache._cache  # type: ignore[attr-defined]
    assert isinstance(client, RedisCacheClient)
    assert client.get_client(write=True) is client.get_client(write=True)


def test_the_cache_still_stores_and_expires_values() -> None:
    cache.set("test_cache_reuse", {"n": 1}, timeout=30)
    assert cache.get("test_cache_reuse") == {"n": 1}
    cache.delete("test_cache_reuse")
    assert cache.get("test_cache_reuse") is None


def test_no_cache_operation_builds_a_client(clients_built: list[object]) -> None:
    """Every operation of Django's client goes through `get_client`, which reuses the one."""
    for operation in _operations(cache):
        operation()  # the pools' clients are made here, the first time
    clients_built.clear()
    for operation in _operations(cache):
        operation()
    assert clients_built == []


def test_djangos_own_client_builds_one_per_operation(clients_built: list[object]) -> None:
    """Why the shim is there; when this fails, Django reuses its clients and it can go."""
    stock = _stock_backend()
    operations = _operations(stock)
    for operation in operations:
        operation()
    assert len(clients_built) == len(operations)


def test_the_pools_are_the_projects_bounded_ones() -> None:
    """The options given to `_pool_options` reach the pools Django builds."""
    pool = cache._cache._get_connection_pool(True)  # type: ignore[attr-defined]
    assert pool.connection_class is Connection
    assert pool.connection_kwargs["socket_timeout"] == settings.REDIS_SOCKET_TIMEOUT
    assert pool.connection_kwargs["socket_connect_timeout"] == settings.REDIS_CONNECT_TIMEOUT


def test_keys_and_values_are_djangos() -> None:
    """Django's own backend reads what this one writes, under the same keys, and the reverse."""
    stock = _stock_backend()
    assert isinstance(caches["default"], RedisCache)
    assert stock.make_key("perf-cache", version=2) == cache.make_key("perf-cache", version=2)
    try:
        cache.set("perf-cache", {"written": "here"}, timeout=30, version=2)
        assert stock.get("perf-cache", version=2) == {"written": "here"}
        stock.set("perf-cache-counter", 41, timeout=30)
        assert cache.incr("perf-cache-counter") == 42
        assert stock.get("perf-cache-counter") == 42
    finally:
        cache.delete_many(["perf-cache-counter"])
        cache.delete("perf-cache", version=2)
