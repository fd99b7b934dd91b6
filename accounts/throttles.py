"""The accounts' own abuse limits: creating guests, and logging in (per address, and per
account). The window they count in, the general limit and the public reads' limit:
core/throttles.py."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from rest_framework.request import Request

from accounts.usernames import username_key
from core.throttles import RateThrottle

if TYPE_CHECKING:
    from rest_framework.views import APIView


class GuestCreateThrottle(RateThrottle):
    scope = "guest_create"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginIpThrottle(RateThrottle):
    scope = "login_ip"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LoginUsernameThrottle(RateThrottle):
    """Guessing one account's password from many addresses is limited here."""

    scope = "login_username"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        username = request.data.get("username") if isinstance(request.data, dict) else None
        if not isinstance(username, str) or not username:
            return None  # the body is invalid anyway; the serializer answers 400
        # The lookup's key: every spelling that reaches an account counts in its one bucket.
        # Hashed: keys stay short and free of characters the cache backend may dislike.
        ident = hashlib.sha256(username_key(username).encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": ident}
