"""HTTP for players (docs/api.md, Accounts and Players): signing up and in, /me, a player's
page, games and rating history, and the leaderboard. Thin views: the writes are accounts'
services, the reads the selectors of players and ratings, and every `player` in an answer is
ratings' PlayerSerializer."""

from __future__ import annotations

import unicodedata
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from accounts.models import AuthToken, BotToken, ChallengesFrom, ChatShown, Player
from accounts.services import (
    auth_token_revoke,
    bot_token_create,
    bot_token_revoke,
    client_seed_set,
    guest_create,
    player_erase,
    player_login,
    player_register,
    player_update,
    ws_ticket_issue,
)
from accounts.throttles import GuestCreateThrottle, LoginIpThrottle, LoginUsernameThrottle
from accounts.usernames import USERNAME_PATTERN
from core.errors import ApplicationError, error_responses
from core.i18n import CODES as LANGUAGE_CODES
from core.i18n import request_language
from core.payloads import PayloadSerializers
from core.public import (
    ETAG,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    PAGE_PARAMETERS,
    Pagination,
    PublicReadApi,
)
from core.schema import paginated
from core.throttles import PlayerRateThrottle
from games.engine.cpu import Level
from games.models import Pool, Seat
from games.selectors import player_active_game_id, seat_name
from matchmaking.apis import TicketSerializer
from matchmaking.selectors import TicketData
from players.selectors import (
    HelloMessage,
    bot_tokens,
    me_data,
    player_games,
    player_get,
    player_rating_changes,
    players_named,
    profile_data,
)
from players.services import bot_upgrade
from ratings.models import Rating, RatingChange
from ratings.payloads import PlayerData, PlayerSerializer, RatingSerializer, player_data
from ratings.rating import Skill
from ratings.selectors import POOLS, Leaderboard, leaderboard, player_rating_history, ranked
from ratings.services import cpu_players
from seasons.apis import SCHEMAS as SEASON_SCHEMAS
from seasons.payloads import PlayerSeasonData, player_season_data
from seasons.selectors import player_seasons, season_at, season_start_times
from seasons.services import season_current

# The me socket's first message, for the schema (config/socket_messages.py).
HelloMessageSerializer = PayloadSerializers(
    {PlayerData: PlayerSerializer, TicketData: TicketSerializer}
).of(HelloMessage)

# Accounts ----------------------------------------------------------------------------------

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
                _("Display names may not contain the character %(code)s.")
                % {"code": f"U+{ord(character):04X}"}
            )


class DisplayNameField(serializers.CharField):
    """1..32 characters after trimming the ends."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_length=1, max_length=32, validators=[_validate_display_name], **kwargs)


class MeFairnessSerializer(serializers.Serializer[dict[str, Any]]):
    commitment = serializers.CharField(help_text="Lowercase hex SHA-256 of the server seed.")
    client_seed = serializers.CharField()


class MeSerializer(PlayerSerializer):
    """The caller's `player`, plus what they are doing now."""

    active_game = serializers.UUIDField(allow_null=True, read_only=True)
    ticket = serializers.DictField(
        allow_null=True, read_only=True, help_text="The active matchmaking ticket, or null."
    )
    queue_ban_until = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text="When the caller's ban from the ranked queue ends (offences in ranked "
        "games: README, Fair play), or null.",
    )
    appear_offline = serializers.BooleanField(
        read_only=True, help_text="Friends see the caller offline (`PATCH /me/` sets it)."
    )
    chat = serializers.ChoiceField(
        choices=ChatShown.values,
        read_only=True,
        help_text="What of a game's chat the caller is shown (`PATCH /me/` sets it).",
    )
    challenges_from = serializers.ChoiceField(
        choices=ChallengesFrom.values,
        read_only=True,
        help_text="Who may challenge the caller (`PATCH /me/` sets it).",
    )
    bot_description = serializers.CharField(
        read_only=True, help_text="A bot's description, as its profile shows it ('' if none)."
    )
    language = serializers.ChoiceField(
        choices=LANGUAGE_CODES,
        read_only=True,
        help_text="The language of the caller's pushes, and of their answers when a request "
        "names none in `Accept-Language` (`PATCH /me/` sets it; docs/languages.md).",
    )
    fairness = MeFairnessSerializer(
        read_only=True,
        help_text="The caller's current seed pair (docs/fairness.md §1): the commitment to "
        "the server seed the next game will take, and the client seed it will meet.",
    )

    def to_representation(self, instance: Player) -> dict[str, Any]:
        # The fields document the shape; players.selectors.me_data builds it.
        return dict(me_data(instance))


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
    appear_offline = serializers.BooleanField(
        required=False,
        help_text="Friends see you offline whatever you do (docs/api.md, Friends, blocks and "
        "presence); `GET /me/` shows it.",
    )
    chat = serializers.ChoiceField(
        choices=ChatShown.values,
        required=False,
        help_text='What of a game\'s chat you are shown: "all", "phrases" (the fixed phrases '
        'only) or "off" (docs/api.md, Chat); `GET /me/` shows it.',
    )
    client_seed = serializers.RegexField(
        r"\A[\x21-\x7e]{1,64}\Z",
        trim_whitespace=False,  # " abc" is refused, not read as "abc"
        required=False,
        help_text="Your part of the next game's seed: 1 to 64 printable ASCII characters, no "
        "space (docs/fairness.md). Refused (409 `in_game`) while you hold a seat at a waiting "
        "or active game; `GET /me/` shows it beside the commitment it will meet.",
    )
    challenges_from = serializers.ChoiceField(
        choices=ChallengesFrom.values,
        required=False,
        help_text='Who may challenge you to a private table: "everyone" (but players you '
        'block), "friends" (the default) or "nobody" (docs/api.md, Challenges).',
    )
    bot_description = serializers.CharField(
        max_length=500,
        allow_blank=True,
        required=False,
        help_text="Bots only (else 409 `not_bot`): what the bot's profile says of it.",
    )
    language = serializers.ChoiceField(
        choices=LANGUAGE_CODES,
        required=False,
        help_text='Your language: "en", "he", "ne" or "hi" (docs/languages.md). Your pushes '
        "speak it, and so do answers to requests without an `Accept-Language` of ours.",
    )


class ProfileSerializer(PlayerSerializer):
    """`GET /players/{id}/`: the `player`, and what a bot's owner says of it."""

    bot_description = serializers.CharField(
        allow_null=True,
        read_only=True,
        help_text="A bot's description, chosen by its owner (docs/bots.md); null for others.",
    )

    def to_representation(self, instance: Player) -> dict[str, Any]:
        return dict(profile_data(instance))


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
            language=request_language(request),
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
        operation_id="auth_logout",
        description="Revokes the token used. A bot's logout revokes its bot token (never its "
        "last: 409 `last_token`).",
        request=None,
        responses={204: None, **error_responses(401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        token = request.auth
        if isinstance(token, BotToken):  # a bot's logout revokes the token it used
            bot_token_revoke(player=request_player(request), token_id=token.pk)
        else:
            assert isinstance(token, AuthToken)  # the authentication class yields one of two
            auth_token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(APIView):
    @extend_schema(
        operation_id="me_retrieve", responses={200: MeSerializer, **error_responses(401, 403)}
    )
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request_player(request)).data)

    @extend_schema(
        operation_id="me_update",
        request=MeUpdateInputSerializer,
        responses={200: PlayerSerializer, **error_responses(400, 401, 403, 409)},
    )
    @transaction.atomic
    def patch(self, request: Request) -> Response:
        serializer = MeUpdateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changes = dict(serializer.validated_data)
        client_seed = changes.pop("client_seed", None)
        player = request_player(request)
        if client_seed is not None:
            # The seed a game takes cannot move under it (docs/fairness.md §1): nothing of
            # this request changes.
            if player_active_game_id(player) is not None:
                raise ApplicationError(
                    "in_game",
                    _(
                        "You hold a seat at a waiting or active game: "
                        "set your client seed after it."
                    ),
                    409,
                )
            client_seed_set(player=player, client_seed=client_seed)
        player = player_update(player=player, **changes)
        return Response(PlayerSerializer(player).data)

    @extend_schema(
        operation_id="me_erase", request=None, responses={204: None, **error_responses(401, 403)}
    )
    def delete(self, request: Request) -> Response:
        """Erase the account: anonymised, logged out everywhere; its games stay."""
        player_erase(player=request_player(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WsTicketApi(APIView):
    @extend_schema(
        operation_id="auth_ws_ticket",
        request=None,
        responses={201: WsTicketOutputSerializer, **error_responses(401, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        return ws_ticket_answer(request_player(request), request.auth)


def ws_ticket_answer(player: Player, token: object) -> Response:
    """`POST /auth/ws-ticket/`'s answer (its view's, and the lean path's: players/lean.py)."""
    assert isinstance(token, AuthToken | BotToken)  # what the authentication yields
    ticket, expires_at = ws_ticket_issue(player=player, token=token)
    output = WsTicketOutputSerializer({"ticket": ticket, "expires_at": expires_at})
    return Response(output.data, status=status.HTTP_201_CREATED)


# Bots (docs/bots.md) -----------------------------------------------------------------------


class BotUpgradeInputSerializer(serializers.Serializer[dict[str, Any]]):
    description = serializers.CharField(
        max_length=500,
        allow_blank=True,
        required=False,
        default="",
        help_text="What the bot's profile says of it (`PATCH /me/` changes it later).",
    )


class BotTokenSerializer(serializers.Serializer[BotToken]):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    last_used_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="To the minute; null until first used."
    )


class BotTokenCreatedSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField(
        help_text="The token itself, shown this once: send it as `Authorization: Bearer`."
    )
    created_at = serializers.DateTimeField()


class BotUpgradeOutputSerializer(serializers.Serializer[dict[str, Any]]):
    player = MeSerializer()
    token = BotTokenCreatedSerializer(help_text="The bot's first token, named `default`.")


class BotTokenInputSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=64, help_text="Your name for it: 1 to 64 characters.")


def _token_created(token: BotToken, raw: str) -> dict[str, Any]:
    return {"id": token.pk, "name": token.name, "token": raw, "created_at": token.created_at}


class BotUpgradeApi(APIView):
    @extend_schema(
        operation_id="bot_upgrade",
        description="The caller's registered account, which never finished a game, becomes a "
        "bot for good: its login tokens stop working, and the answer holds its first bot token.",
        request=BotUpgradeInputSerializer,
        responses={200: BotUpgradeOutputSerializer, **error_responses(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        data = BotUpgradeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, token, raw = bot_upgrade(
            player=request_player(request), description=data.validated_data["description"]
        )
        output = {"player": player, "token": _token_created(token, raw)}
        return Response(BotUpgradeOutputSerializer(output).data)


class BotTokensApi(APIView):
    @extend_schema(
        operation_id="bot_tokens_list",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(BotTokenSerializer(many=True), "BotToken"),
            **error_responses(401, 403, 409),
        },
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        page = paginator.paginate_queryset(bot_tokens(request_player(request)), request, view=self)
        assert page is not None
        rows = [BotTokenSerializer(token).data for token in page]
        return paginator.get_paginated_response(rows)

    @extend_schema(
        operation_id="bot_tokens_create",
        request=BotTokenInputSerializer,
        responses={201: BotTokenCreatedSerializer, **error_responses(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        data = BotTokenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token, raw = bot_token_create(
            player=request_player(request), name=data.validated_data["name"]
        )
        output = BotTokenCreatedSerializer(_token_created(token, raw))
        return Response(output.data, status=status.HTTP_201_CREATED)


class BotTokenDetailApi(APIView):
    @extend_schema(
        operation_id="bot_tokens_revoke",
        request=None,
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    def delete(self, request: Request, token_id: int) -> Response:
        bot_token_revoke(player=request_player(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# Players and ratings -----------------------------------------------------------------------


class RatingBeforeAfterSerializer(serializers.Serializer[dict[str, float]]):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class PlayerGameSerializer(serializers.Serializer[Seat]):
    """One finished game, from the seat of the player whose games are listed."""

    id = serializers.UUIDField(source="game.id")
    ranked = serializers.BooleanField(source="game.ranked")
    pool = serializers.SerializerMethodField(
        help_text="As the `game` object's: a ranked game's pool, `\"ranked\"` (the human "
        "queue's, an arena's) or `\"bots\"` (the bot ladder's); null for a private game."
    )
    finished_at = serializers.DateTimeField(source="game.finished_at")
    players = serializers.SerializerMethodField(
        help_text="Per seat, in seat order: the seat's `player`, or null for a CPU seat."
    )
    place = serializers.IntegerField(help_text="This player's final place (RULES.md §8).")
    seat = serializers.IntegerField(help_text="This player's seat.")
    seat_names = serializers.SerializerMethodField(
        help_text='Per seat, in seat order: the player\'s display name, or `"CPU"` (with '
        'its level when the seat has one: `"CPU 3"`).'
    )
    rating_before = serializers.SerializerMethodField(
        help_text="This player's rating before this game; null for a game not rated (a "
        "private game, or a ranked one whose rating is pending or was rolled back)."
    )
    rating_after = serializers.SerializerMethodField(
        help_text="This player's rating right after this game; null as `rating_before`."
    )

    # A raw schema: drf-spectacular drops the allow_null of a list's child serializer.
    @extend_schema_field(
        {
            "type": "array",
            "items": {"allOf": [{"$ref": "#/components/schemas/Player"}], "nullable": True},
        }
    )
    def get_players(self, seat: Seat) -> list[dict[str, Any] | None]:
        return [
            None if other.player is None else dict(player_data(other.player))
            for other in seat.game.seats.all()
        ]

    @extend_schema_field(serializers.ChoiceField(choices=Pool.values, allow_null=True))
    def get_pool(self, seat: Seat) -> str | None:
        game = seat.game
        return Pool(game.pool).value if game.ranked and game.pool else None

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_seat_names(self, seat: Seat) -> list[str]:
        return [seat_name(other) for other in seat.game.seats.all()]

    def _change(self, seat: Seat) -> RatingChange | None:
        changes: dict[Any, RatingChange] = self.context.get("changes", {})
        return changes.get(seat.game_id)

    @extend_schema_field(RatingBeforeAfterSerializer(allow_null=True))
    def get_rating_before(self, seat: Seat) -> dict[str, float] | None:
        change = self._change(seat)
        if change is None:
            return None
        return _rating(change.mu_before, change.sigma_before)

    @extend_schema_field(RatingBeforeAfterSerializer(allow_null=True))
    def get_rating_after(self, seat: Seat) -> dict[str, float] | None:
        change = self._change(seat)
        return None if change is None else _rating(change.mu, change.sigma)


def _rating(mu: float, sigma: float) -> dict[str, float]:
    return {"mu": mu, "sigma": sigma, "ordinal": Skill(mu, sigma).ordinal}


class RatingPointSerializer(serializers.Serializer[RatingChange]):
    """A player's rating right after one rated game, or after a season's soft reset."""

    kind = serializers.ChoiceField(
        choices=["game", "season_reset"],
        help_text='"game": a rated game; "season_reset": the soft reset as a season opened '
        "(mu kept, sigma widened; docs/api.md, Seasons).",
    )
    game_id = serializers.UUIDField(allow_null=True, help_text="The game; null for a reset.")
    at = serializers.DateTimeField(help_text="When the game ended, or the season started.")
    season = serializers.SerializerMethodField(
        help_text="The season it belongs to (a reset opens that season)."
    )
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()

    def get_season(self, change: RatingChange) -> int:
        return season_at(self.context["starts"], change.at)


@extend_schema_serializer(deprecate_fields=["rating"])
class LeaderboardEntrySerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField(
        help_text="1 + the number of players with a higher ordinal: equal ordinals share a rank."
    )
    player = PlayerSerializer()
    rating = RatingSerializer(
        help_text="Deprecated: the same as `player.rating`; read that (docs/api.md, "
        "Leaderboard). Kept because API.md's contract lists it."
    )


class PlayerSearchApi(APIView):
    @extend_schema(
        operation_id="players_search",
        description="Registered players whose display name holds `search` (2 to 32 "
        "characters, any case), by name: to find a friend to add, challenge or block. Never "
        "the caller, nor a player either of you blocks.",
        parameters=[
            OpenApiParameter("search", str, required=True, description="Part of a name."),
            *PAGE_PARAMETERS,
        ],
        responses={
            200: paginated(PlayerSerializer(many=True), "PlayerFound"),
            **error_responses(400, 401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        rows = players_named(request.query_params.get("search", ""), viewer=request_player(request))
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        assert page is not None
        return paginator.get_paginated_response([player_data(player) for player in page])


class PlayerDetailApi(PublicReadApi):
    @extend_schema(
        operation_id="players_get",
        parameters=[IF_NONE_MATCH, ETAG],
        responses={200: ProfileSerializer, **NOT_MODIFIED, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        return Response(ProfileSerializer(player_get(player_id)).data)


class PlayerGamesApi(PublicReadApi):
    @extend_schema(
        operation_id="players_games",
        description="Ranked games, and the private games the caller sat at too (without a "
        "token: ranked games only).",
        parameters=[*PAGE_PARAMETERS, IF_NONE_MATCH, ETAG],
        responses={
            200: paginated(PlayerGameSerializer(many=True), "PlayerGame"),
            **NOT_MODIFIED,
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        player = player_get(player_id)
        viewer = request.user if isinstance(request.user, Player) else None
        paginator = Pagination()
        page = paginator.paginate_queryset(player_games(player, viewer=viewer), request, self)
        assert page is not None
        context = {"changes": player_rating_changes(player, [seat.game_id for seat in page])}
        return paginator.get_paginated_response(
            [PlayerGameSerializer(seat, context=context).data for seat in page]
        )


class PlayerRatingHistoryApi(PublicReadApi):
    @extend_schema(
        operation_id="players_rating_history",
        parameters=[*PAGE_PARAMETERS, IF_NONE_MATCH, ETAG],
        responses={
            200: paginated(RatingPointSerializer(many=True), "RatingPoint"),
            **NOT_MODIFIED,
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        changes = player_rating_history(player_get(player_id))
        paginator = Pagination()
        page = paginator.paginate_queryset(changes, request, view=self)
        assert page is not None
        context = {"starts": season_start_times()}
        return paginator.get_paginated_response(
            [RatingPointSerializer(change, context=context).data for change in page]
        )


class PlayerSeasonsApi(PublicReadApi):
    @extend_schema(
        operation_id="players_seasons",
        description="The seasons the player played a rated game in, newest first: games, "
        "rank, rating and tier (docs/api.md, Seasons; the current season as it stands now).",
        parameters=[*PAGE_PARAMETERS, IF_NONE_MATCH, ETAG],
        responses={
            200: paginated(SEASON_SCHEMAS.of(PlayerSeasonData)(many=True), "PlayerSeason"),
            **NOT_MODIFIED,
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        player = player_get(player_id)
        rows: Any = player_seasons(player, season_current())
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        assert page is not None
        return paginator.get_paginated_response([player_season_data(row) for row in page])


class LeaderboardApi(PublicReadApi):
    @extend_schema(
        operation_id="leaderboard",
        description="Every eligible player who is not banned, by ordinal, highest first: "
        "at least `YANIV_LEADERBOARD_MIN_GAMES` rated games, one of them in the last "
        "`YANIV_LEADERBOARD_ACTIVE_DAYS` days. Provisional players are listed (their "
        "`rating.provisional` is true): the ordinal already takes three sigmas off their mu. "
        "`pool=ranked` (the default) lists people and CPU levels, never a bot; `pool=bots` "
        "the bots' ladder: the eligible bots and the four CPU levels at their fixed anchors, "
        "ranked together.",
        parameters=[
            OpenApiParameter(
                "pool",
                str,
                enum=list(POOLS),
                default="ranked",
                description="Which pool's board: the people's (`ranked`) or the bots' ladder "
                "(`bots`); anything else is 400 `invalid`.",
            ),
            *PAGE_PARAMETERS,
            IF_NONE_MATCH,
            ETAG,
        ],
        responses={
            200: paginated(LeaderboardEntrySerializer(many=True), "LeaderboardEntry"),
            **NOT_MODIFIED,
            **error_responses(400, 401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        pool = request.query_params.get("pool", "ranked")
        if pool not in POOLS:
            raise ApplicationError("invalid", _('pool must be "ranked" or "bots".'))
        if pool == "bots":
            _cpu_players_made()
        paginator = Pagination()
        board = leaderboard(pool=pool)
        # Not a QuerySet, but it has what the paginator uses of one: count() and slices.
        rows: Any = board
        page = paginator.paginate_queryset(rows, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(_ranked(board, page, paginator.offset or 0))


def _cpu_players_made() -> None:
    """The bots' board lists every CPU level: make the players of any never rated yet (once
    per level ever; a read costs a count)."""
    levels = [level.value for level in Level]
    if Player.objects.filter(cpu_level__in=levels).count() < len(levels):
        with transaction.atomic():
            cpu_players(levels)


def _ranked(board: Leaderboard, page: list[Rating], offset: int) -> list[dict[str, Any]]:
    """The page's entries as LeaderboardEntrySerializer documents them."""
    return [
        {"rank": rank, "player": player, "rating": player["rating"]}
        for rank, _, player in ranked(board, page, offset)
    ]
