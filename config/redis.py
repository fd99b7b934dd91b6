"""One Redis client per process, shared by everything that is not Celery or Channels."""

from __future__ import annotations

from functools import cache

import redis
from django.conf import settings


@cache
def get_redis() -> redis.Redis:
    return redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=2,
        socket_timeout=2,
        health_check_interval=30,
        decode_responses=True,
    )
