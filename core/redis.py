"""One Redis client per process, shared by everything that is not Celery or Channels; and the
bound on every Redis call a request makes.

A Redis that stops answering without closing its connections (paused, swapping, a partition)
would hold a request's thread until the kernel gives up. So every call has a connect and a read
timeout (REDIS_CONNECT_TIMEOUT, REDIS_SOCKET_TIMEOUT), and once a call in this process has
timed out, every Redis call of the next OUTAGE_SECONDS fails at once (`RedisUnavailable`)
instead of waiting out a timeout of its own: a move makes several (the throttle, its pushes,
the CPU's task), and web threads each waiting several timeouts per request would soon all be
waiting. After that, the next call tries Redis again.

With a `sentinel://` REDIS_URL (core/sentinel.py) the client follows the primary the Sentinels
name: a connection lost with the old primary is made again to the one they name then (one
immediate retry per call, bounded by the same timeouts), so calls fail while no primary is
named (the Sentinels' `down-after-milliseconds` plus their election) and go to the new one after.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry
from redis.sentinel import (
    MasterNotFoundError,
    Sentinel,
    SentinelConnectionPool,
    SentinelManagedConnection,
)

from core import sentinel
from core.sentinel import SentinelURL

OUTAGE_SECONDS = 1.0

_outage_until = 0.0  # time.monotonic() until which Redis counts as not answering


class RedisUnavailable(redis.ConnectionError):
    """Refused without trying: a Redis call of this process timed out a moment ago."""


def outage_begins() -> None:
    global _outage_until  # one process-wide state, as the pools are
    _outage_until = time.monotonic() + OUTAGE_SECONDS


def outage_ends() -> None:
    """Try Redis again at the next call (tests, after a stall of their own)."""
    global _outage_until
    _outage_until = 0.0


def check_available() -> None:
    if time.monotonic() < _outage_until:
        raise RedisUnavailable("Redis did not answer a moment ago.")


class _Bounded:
    """Fails at once during an outage, and starts one on a timeout (for a redis-py connection)."""

    def connect_check_health(self, *args: Any, **kwargs: Any) -> None:
        check_available()
        try:
            super().connect_check_health(*args, **kwargs)  # type: ignore[misc]
        except redis.TimeoutError:
            outage_begins()
            raise

    def send_packed_command(self, *args: Any, **kwargs: Any) -> None:
        check_available()
        super().send_packed_command(*args, **kwargs)  # type: ignore[misc]

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)  # type: ignore[misc]
        except redis.TimeoutError:
            outage_begins()
            raise


class Connection(_Bounded, redis.Connection):
    """A redis-py connection that fails at once during an outage, and starts one on a timeout."""


class SentinelConnection(_Bounded, SentinelManagedConnection):
    """The same, to whichever server the Sentinels name the primary (asked again on each new
    connection; a primary demoted to a replica answers writes READONLY, which drops the
    connection). The Sentinels themselves are asked over plain connections: one that times
    out must not stop the next from being asked. But when no Sentinel named a primary after
    one of them was waited for (a partition), the outage begins: the next calls fail at once
    instead of each waiting for the Sentinels again."""

    def connect(self) -> None:
        """redis-py's, tried once: the call that needs it retries once already."""
        check_available()
        started = time.monotonic()
        try:
            self._connect_retry()  # type: ignore[no-untyped-call]
        except MasterNotFoundError:
            if time.monotonic() - started >= settings.REDIS_CONNECT_TIMEOUT:
                outage_begins()
            raise


def connection_options() -> dict[str, Any]:
    """For every redis-py pool of the project (this client, the cache)."""
    return {
        "connection_class": Connection,
        "socket_connect_timeout": settings.REDIS_CONNECT_TIMEOUT,
        "socket_timeout": settings.REDIS_SOCKET_TIMEOUT,
        # One immediate retry for a connection Redis closed (a restart); none after a timeout,
        # which would only wait again (redis-py's default: ten retries, timeouts included).
        "retry": Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
    }


def sentinel_pool(target: SentinelURL, **options: Any) -> SentinelConnectionPool:
    """A pool of connections to the primary the Sentinels of `target` name, built with the
    options of a pool of `connection_options()` (whose connection class it swaps for
    `SentinelConnection`). Each new connection asks the Sentinels where the primary is."""
    timeouts = {
        key: options[key] for key in ("socket_connect_timeout", "socket_timeout") if key in options
    }
    # Each Sentinel is asked once (None: redis-py's clients would retry ten times by default):
    # the next one is asked instead.
    asking = {**target.sentinel_kwargs(**timeouts), "retry": None}
    manager = Sentinel(list(target.sentinels), sentinel_kwargs=asking)  # type: ignore[no-untyped-call]
    return SentinelConnectionPool(  # type: ignore[no-untyped-call]
        target.master_name,
        manager,
        **{**options, **target.auth_kwargs(), "connection_class": SentinelConnection},
    )


@cache
def get_redis() -> redis.Redis:
    options = {"health_check_interval": 30, "decode_responses": True, **connection_options()}
    target = sentinel.parse(settings.REDIS_URL)
    if target is not None:
        return redis.Redis(connection_pool=sentinel_pool(target, **options))
    return redis.Redis.from_url(settings.REDIS_URL, **options)
