"""Abuse limits, counted in Redis under the cache's key prefix. Rates: REST_FRAMEWORK's
DEFAULT_THROTTLE_RATES, each overridable from the environment (config/settings.py). Here the
window every limit counts in, the client address, and the limits of every view: the general
one, and the public reads' (core/public.py); the accounts' own endpoints add theirs
(accounts/throttles.py).

DRF's throttle keeps each client's request times as a list in the cache, read and written
whole at every request: two round trips and a pickled list (up to a rate's worth of times),
and two requests at once can both pass. Here the same sliding window is one Redis sorted set,
checked and updated by one script: one round trip, atomic.

A limit reached raises `ThrottledError` (429 naming the limit's scope) from the throttle
itself: DRF's own `Throttled` knows the wait, not which limit it was. So the first of a view's
limits to refuse answers; the ones after it neither count nor check that request.
"""

from __future__ import annotations

import logging
import secrets
import time
from functools import cache
from typing import TYPE_CHECKING, Any

from django.core.cache import cache as django_cache
from django.http import HttpRequest
from redis import RedisError
from redis.commands.core import Script
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from core.errors import ThrottledError

if TYPE_CHECKING:  # rest_framework.views imports this module (DEFAULT_THROTTLE_CLASSES)
    from rest_framework.views import APIView

logger = logging.getLogger(__name__)

# Every throttle key starts with this (under the cache's own prefix), so that tests can clear
# the counters without touching anything else in Redis.
CACHE_KEY_PREFIX = "throttle_"

# KEYS[1]: the client's window; ARGV: now, window (s), limit, a unique member.
# Returns {1, 0} when the request may go, else {0, seconds until the oldest leaves the window}.
_SLIDING_WINDOW = """
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then
    redis.call('ZADD', KEYS[1], now, ARGV[4])
    redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
    return {1, '0'}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return {0, tostring(oldest + window - now)}
"""


@cache
def _sliding_window() -> Script:
    # Imported here: core.redis reads settings, and DRF imports this module early.
    from core.redis import get_redis

    return Script(get_redis(), _SLIDING_WINDOW)


def client_ip(request: HttpRequest | Request) -> str | None:
    """The address per-IP limits count (throttles, and django-axes on the admin): the peer's,
    which config/asgi.py has already replaced by the forwarded client for a request from a
    trusted proxy (FORWARDED_ALLOW_IPS). Never a header a client could set itself."""
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


class RateThrottle(SimpleRateThrottle):
    """A limit counted in one Redis sorted set per client and scope (the module's window)."""

    # A sorted set; (`_` in place of `:` named DRF's pickled lists, which may still be there.)
    cache_format = CACHE_KEY_PREFIX + "%(scope)s:%(ident)s"
    # Whether a request goes unchecked while Redis is down (else the request fails).
    open_without_redis = False

    def get_ident(self, request: Request) -> str:
        return client_ip(request) or ""

    def get_rate(self) -> str | None:
        # Read at each request, not at import as DRF does, so changed settings take effect.
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates[self.scope]  # type: ignore[index, no-any-return]

    def allow_request(self, request: Request, view: APIView) -> bool:
        limit, duration = self.parse_rate(self.rate)  # (None, None): no limit
        key = self.get_cache_key(request, view)
        if limit is None or duration is None or key is None:
            return True
        now = time.time()
        window: list[float | str] = [now, duration, limit, f"{now}:{secrets.token_hex(4)}"]
        try:
            allowed, wait = _sliding_window()(keys=[django_cache.make_key(key)], args=window)
        except RedisError:
            if not self.open_without_redis:
                raise
            logger.warning("rate limit %s not checked: Redis unavailable", self.scope)
            return True
        if not allowed:
            raise ThrottledError(str(self.scope), float(wait))
        return True


class PlayerRateThrottle(RateThrottle):
    """The general limit: per player when authenticated, else per client address."""

    scope = "player"
    # Games still play without Redis (pushes and CPU turns catch up when it is back): the
    # general limit does not stop them meanwhile. Guest creation and logins stay closed.
    open_without_redis = True

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        ident = request.user.pk if request.user else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class PublicIpThrottle(RateThrottle):
    """Reads without a token (core/public.py), per client address; a caller with a token
    counts against their player limit instead."""

    scope = "public"
    open_without_redis = True  # as the general limit: reads go on while Redis is down

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.user is not None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
