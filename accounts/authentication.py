"""`Authorization: Bearer <token>` for DRF, and its description in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from accounts.models import AuthToken, BotToken, Player
from accounts.selectors import auth_token_get, bot_token_get
from accounts.services import auth_token_touch, bot_token_touch
from core.i18n import use_player_language

KEYWORD = "Bearer"


def bearer_token(header: bytes) -> str | None:
    """The token of an `Authorization` header value; None when it is not a bearer header.

    Raises AuthenticationFailed (`invalid_token`) for a bearer header with no or a garbled token.
    """
    parts = header.split()
    if not parts or parts[0].lower() != KEYWORD.lower().encode():
        return None
    if len(parts) != 2:
        raise exceptions.AuthenticationFailed(
            _("Malformed Authorization header: expected `Bearer <token>`."), code="invalid_token"
        )
    try:
        return parts[1].decode("ascii")
    except UnicodeDecodeError as error:
        raise exceptions.AuthenticationFailed(
            _("The token is not valid."), code="invalid_token"
        ) from error


def token_authenticate(raw: str) -> AuthToken | BotToken:
    """The live token `raw` names (a login's, its expiry slid forward, or a bot's: docs/bots.md);
    refuses unknown, expired, revoked and deactivated (401 `invalid_token`) and banned players
    (403 `banned`)."""
    bot = raw.startswith(BotToken.PREFIX)
    token = bot_token_get(raw=raw) if bot else auth_token_get(raw=raw)
    if token is None or not token.player.is_active:
        raise exceptions.AuthenticationFailed(
            _("The token is not valid, has expired or was revoked."), code="invalid_token"
        )
    if token.player.is_banned:
        # Raised here, not in a permission class, so that no view can forget it.
        raise exceptions.PermissionDenied(token.player.ban_message, code="banned")
    if isinstance(token, BotToken):
        bot_token_touch(token=token)
    else:
        auth_token_touch(token=token)
    return token


def request_player(request: Request) -> Player:
    """The authenticated player of a request to a protected endpoint."""
    if not isinstance(request.user, Player):
        raise exceptions.NotAuthenticated()
    return request.user


def header_authenticate(header: bytes) -> tuple[Player, AuthToken | BotToken] | None:
    """The player and token of an `Authorization` header's value; None when it is not a
    bearer header. Raises as `token_authenticate` does (and for a garbled header)."""
    raw = bearer_token(header)
    if raw is None:
        return None
    token = token_authenticate(raw)
    return token.player, token


class BearerTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Player, AuthToken | BotToken] | None:
        found = header_authenticate(get_authorization_header(request))
        if found is not None:
            # Where the request names no language of ours, the player's own (docs/languages.md).
            use_player_language(request._request, found[0].language)
        return found

    def authenticate_header(self, request: Request) -> str:
        # Makes DRF answer 401 (not 403) when credentials are missing or bad.
        return f'{KEYWORD} realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A token from `POST /auth/guest/` or `POST /auth/login/`, or a bot "
            "token (`POST /bot/tokens/`, docs/bots.md).",
        }
