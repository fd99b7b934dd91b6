"""The cache backend: Django's Redis cache, reusing one client per connection pool."""

from __future__ import annotations

from django.core.cache import cache

from config.cache import RedisCacheClient


def test_the_cache_reuses_its_redis_client() -> None:
    client = cache._cache  # type: ignore[attr-defined]
    assert isinstance(client, RedisCacheClient)
    assert client.get_client(write=True) is client.get_client(write=True)


def test_the_cache_still_stores_and_expires_values() -> None:
    cache.set("test_cache_reuse", {"n": 1}, timeout=30)
    assert cache.get("test_cache_reuse") == {"n": 1}
    cache.delete("test_cache_reuse")
    assert cache.get("test_cache_reuse") is None
