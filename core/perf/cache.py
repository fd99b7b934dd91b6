"""Django's Redis cache backend, with one client per connection pool instead of one per call,
and the project's bounded connections (core/redis.py).

Replaces: `django.core.cache.backends.redis.RedisCacheClient.get_client`.
Why: Django builds a new `redis.Redis` for every cache operation, which fills a table of some
170 response callbacks each time: about a fifth of a millisecond, twice per API request (the
throttle reads and writes its counter). A client is thread-safe, so one per pool serves all.

Relies on (Django's private API, tests/core/perf/test_cache.py): every operation of the
client gets its `redis.Redis` from `get_client`; `RedisCache._class` is the client class it
builds; the client keeps its pools' options in `_pool_options`, builds a pool with
`_get_connection_pool(write)` and a client with `_client(connection_pool=...)`. Keys and values
stay Django's: a stock backend reads what this one writes. A `sentinel://` LOCATION
(core/sentinel.py) is one server, reached through `_get_connection_pool(write)` (the pools kept
in `_pools` by index, the servers in `_servers`), and Django's `RedisCache` splits LOCATION
into `_servers` in its `__init__`.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis

from core import sentinel
from core.redis import connection_options, sentinel_pool


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Private to Django too: what each of its pools is built with (OPTIONS still win).
        self._pool_options = {**connection_options(), **self._pool_options}  # type: ignore[has-type]
        self._clients: dict[int, Any] = {}

    def _get_connection_pool(self, write: bool) -> Any:
        """Django's, except for a `sentinel://` LOCATION: a pool to the primary its Sentinels
        name (core/redis.py), which follows a failover."""
        # All three private to Django, which the stubs leave out.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        pools: dict[int, Any] = self._pools  # type: ignore[attr-defined]
        if index not in pools:
            target = sentinel.parse(self._servers[index])  # type: ignore[attr-defined]
            if target is not None:
                pools[index] = sentinel_pool(target, **self._pool_options)
        return super()._get_connection_pool(write)  # type: ignore[misc]

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            # Private to Django, which the stubs leave out.
            client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            self._clients[id(pool)] = client
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        if sentinel.is_sentinel(server):
            # One server, whose Sentinels are listed with commas: not Django's list of servers
            # (a primary and its replicas) split at each comma.
            self._servers = [server]
        self._class = RedisCacheClient
