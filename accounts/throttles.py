"""Abuse limits, counted in the default (Redis) cache. Rates: REST_FRAMEWORK's
DEFAULT_THROTTLE_RATES, each overridable from the environment (config/settings.py)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:  # rest_framework.views imports this module (DEFAULT_THROTTLE_CLASSES)
    from rest_framework.views import APIView

# Every throttle key starts with this (under the cache's own prefix), so that tests can clear
# the counters without touching anything else in Redis.
CACHE_KEY_PREFIX = "throttle_"


class _RateThrottle(SimpleRateThrottle):
    cache_format = CACHE_KEY_PREFIX + "%(scope)s_%(ident)s"

    def get_rate(self) -> str | None:
        # Read at each request, not at import as DRF does, so changed settings take effect.
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        return rates[self.scope]  # type: ignore[index, no-any-return]


class PlayerRateThrottle(_RateThrottle):
    """The general limit: per player when authenticated, else per client address."""

    scope = "player"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        ident = request.user.pk if request.user else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class GuestCreateThrottle(_RateThrottle):
    scope = "guest_create"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginIpThrottle(_RateThrottle):
    scope = "login_ip"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginUsernameThrottle(_RateThrottle):
    """Guessing one account's password from many addresses is limited here."""

    scope = "login_username"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        username = request.data.get("username") if isinstance(request.data, dict) else None
        if not isinstance(username, str) or not username:
            return None  # the body is invalid anyway; the serializer answers 400
        # Hashed: keys stay short and free of characters the cache backend may dislike.
        ident = hashlib.sha256(username.lower().encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}
