"""HTTP for accounts (API.md, Accounts), and the `player` object every app answers with."""

from __future__ import annotations

import unicodedata
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from accounts.models import AuthToken, Player
from accounts.selectors import MeExtras, RatingData, me_extras, player_data
from accounts.services import (
    auth_token_revoke,
    guest_create,
    player_login,
    player_register,
    player_update,
    ws_ticket_issue,
)
from accounts.throttles import (
    GuestCreateThrottle,
    LoginIpThrottle,
    LoginUsernameThrottle,
    PlayerRateThrottle,
)
from accounts.usernames import USERNAME_PATTERN
from config.errors import error_responses

# Joiners are format characters too, but emoji sequences (family, flags...) need them.
_ALLOWED_FORMAT_CHARACTERS = {"\u200c", "\u200d"}


def _validate_display_name(value: str) -> None:
    """No control, format (bidi overrides, invisible characters), private-use, unassigned or
    line-breaking characters: a name must look like what it is, on one line."""
    for character in value:
        category = unicodedata.category(character)
        if category in {"Zl", "Zp"} or (
            category.startswith("C") and character not in _ALLOWED_FORMAT_CHARACTERS
        ):
            raise serializers.ValidationError(
                f"Display names may not contain the character U+{ord(character):04X}."
            )


class DisplayNameField(serializers.CharField):
    """1..32 characters after trimming the ends."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=1, max_length=32, validators=[_validate_display_name], **kwargs)


class RatingSerializer(serializers.Serializer[RatingData]):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="`mu - 3*sigma`; leaderboards sort by it.")
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField()


class PlayerSerializer(serializers.Serializer[Player]):
    """A player, as every response shows one."""

    # The one representation of a player (API.md `player`); other apps nest this serializer.
    id = serializers.UUIDField(read_only=True)
    display_name = serializers.CharField(read_only=True)
    is_guest = serializers.BooleanField(read_only=True)
    rating = RatingSerializer(read_only=True)

    def to_representation(self, instance: Player) -> dict[str, Any]:
        # The fields above document the shape; player_data is the one place that builds it.
        return dict(player_data(instance))


class MeSerializer(PlayerSerializer):
    """The caller's `player`, plus what they are doing now."""

    # Built from the context's `extras` (a MeExtras), which the view reads once.
    active_game = serializers.UUIDField(allow_null=True, read_only=True)
    ticket = serializers.DictField(
        allow_null=True, read_only=True, help_text="The active matchmaking ticket, or null."
    )

    def to_representation(self, instance: Player) -> dict[str, Any]:
        extras: MeExtras = self.context["extras"]
        game = extras["active_game"]
        return {
            **super().to_representation(instance),
            "active_game": None if game is None else str(game),
            "ticket": extras["ticket"],
        }


class AuthOutputSerializer(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")
    player = PlayerSerializer()


class GuestInputSerializer(serializers.Serializer[dict[str, Any]]):
    display_name = DisplayNameField(required=False, help_text="Generated when omitted.")


class RegisterInputSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.RegexField(
        USERNAME_PATTERN,
        help_text="3 to 30 of A-Z a-z 0-9 _ . @ + -; unique regardless of case.",
    )
    # Bounded: Argon2 hashes whatever it is given, so a huge password costs server time.
    password = serializers.CharField(max_length=256, trim_whitespace=False, write_only=True)


class RegisterOutputSerializer(serializers.Serializer[dict[str, Any]]):
    player = PlayerSerializer()


class LoginInputSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=256, trim_whitespace=False, write_only=True)


class MeUpdateInputSerializer(serializers.Serializer[dict[str, Any]]):
    # Optional, as in any PATCH: what is absent stays as it is.
    display_name = DisplayNameField(required=False)


class WsTicketOutputSerializer(serializers.Serializer[dict[str, Any]]):
    ticket = serializers.CharField(help_text="Connect with `?ticket=<ticket>`; single use.")
    expires_at = serializers.DateTimeField()


def _user_agent(request: Request) -> str:
    return str(request.META.get("HTTP_USER_AGENT", ""))


class GuestCreateApi(APIView):
    # Open, and deaf to any Authorization header: a stale token must not stop a fresh start.
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (GuestCreateThrottle, PlayerRateThrottle)

    @extend_schema(
        operation_id="auth_guest",
        request=GuestInputSerializer,
        responses={201: AuthOutputSerializer, **error_responses(400, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = GuestInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player, token = guest_create(
            display_name=serializer.validated_data.get("display_name"),
            user_agent=_user_agent(request),
        )
        output = AuthOutputSerializer({"token": token, "player": player})
        return Response(output.data, status=status.HTTP_201_CREATED)


class RegisterApi(APIView):
    @extend_schema(
        operation_id="auth_register",
        request=RegisterInputSerializer,
        responses={200: RegisterOutputSerializer, **error_responses(400, 401, 403, 409, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = RegisterInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = player_register(player=request_player(request), **serializer.validated_data)
        return Response(RegisterOutputSerializer({"player": player}).data)


class LoginApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (LoginIpThrottle, LoginUsernameThrottle, PlayerRateThrottle)

    @extend_schema(
        operation_id="auth_login",
        request=LoginInputSerializer,
        responses={200: AuthOutputSerializer, **error_responses(400, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = LoginInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player, token = player_login(**serializer.validated_data, user_agent=_user_agent(request))
        return Response(AuthOutputSerializer({"token": token, "player": player}).data)


class LogoutApi(APIView):
    @extend_schema(
        operation_id="auth_logout", request=None, responses={204: None, **error_responses(401, 403)}
    )
    def post(self, request: Request) -> Response:
        token = request.auth
        assert isinstance(token, AuthToken)  # the only authentication class yields one
        auth_token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    @extend_schema(
        operation_id="me_retrieve", responses={200: MeSerializer, **error_responses(401, 403)}
    )
    def get(self, request: Request) -> Response:
        player = request_player(request)
        return Response(MeSerializer(player, context={"extras": me_extras(player)}).data)

    @extend_schema(
        operation_id="me_update",
        request=MeUpdateInputSerializer,
        responses={200: PlayerSerializer, **error_responses(400, 401, 403)},
    )
    def patch(self, request: Request) -> Response:
        serializer = MeUpdateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = player_update(player=request_player(request), **serializer.validated_data)
        return Response(PlayerSerializer(player).data)


class WsTicketApi(APIView):
    @extend_schema(
        operation_id="auth_ws_ticket",
        request=None,
        responses={201: WsTicketOutputSerializer, **error_responses(401, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        token = request.auth
        assert isinstance(token, AuthToken)  # the only authentication class yields one
        ticket, expires_at = ws_ticket_issue(player=request_player(request), token=token)
        output = WsTicketOutputSerializer({"ticket": ticket, "expires_at": expires_at})
        return Response(output.data, status=status.HTTP_201_CREATED)
