"""One Redis client per process, shared by everything that is not Celery or Channels; and the
bound on every Redis call a request makes.

A Redis that stops answering without closing its connections (paused, swapping, a partition)
would hold a request's thread until the kernel gives up. So every call has a connect and a read
timeout (REDIS_CONNECT_TIMEOUT, REDIS_SOCKET_TIMEOUT), and once a call in this process has
timed out, every Redis call of the next OUTAGE_SECONDS fails at once (`RedisUnavailable`)
instead of waiting out a timeout of its own: a move makes several (the throttle, its pushes,
the CPU's task), and web threads each waiting several timeouts per request would soon all be
waiting. After that, the next call tries Redis again.
"""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import redis
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

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


class Connection(redis.Connection):
    """A redis-py connection that fails at once during an outage, and starts one on a timeout."""

    def connect_check_health(self, *args: Any, **kwargs: Any) -> None:
        check_available()
        try:
            super().connect_check_health(*args, **kwargs)
        except redis.TimeoutError:
            outage_begins()
            raise

    def send_packed_command(self, *args: Any, **kwargs: Any) -> None:
        check_available()
        super().send_packed_command(*args, **kwargs)  # type: ignore[no-untyped-call]

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)
        except redis.TimeoutError:
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


@cache
def get_redis() -> redis.Redis:
    return redis.Redis.from_url(
        settings.REDIS_URL,
        health_check_interval=30,
        decode_responses=True,
        **connection_options(),
    )
