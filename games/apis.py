"""The games endpoints of docs/api.md: thin views over games.services, games.selectors and the
projection (games/projection.py)."""

from __future__ import annotations

import logging
import re
import time
from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from accounts.models import Player
from core import logs, metrics
from core.encoding import Fragment
from core.errors import ApplicationError, error_responses
from core.payloads import PayloadSerializers
from core.public import ETAG, IF_NONE_MATCH, NOT_MODIFIED, PublicReadApi, not_modified, with_etag
from core.schema import paginated
from core.throttles import PlayerRateThrottle, RateThrottle
from games import idempotency
from games.engine.cpu import DEFAULT_LEVEL, Level
from games.game_rules import MAX_SEATS
from games.locks import LockedGame
from games.models import Game, GameStatus
from games.payloads import (
    EventData,
    GameData,
    GameMessage,
    KeepaliveMessage,
    LegalMovesData,
    PongMessage,
    RecordData,
    RematchData,
    RulesCatalogData,
    SocketErrorMessage,
    YourTurnMessage,
)
from games.projection import (
    event_payload,
    game_events,
    game_payload,
    game_state,
    legal_moves_payload,
    may_view,
    rules_catalog,
    viewer_seat,
)
from games.reasons import not_active_text
from games.selectors import (
    game_get,
    game_record,
    game_seats,
    game_view_tag,
    game_view_tag_and_game,
    live_ranked_games,
)
from games.services import lobby, play, rematch
from ratings.payloads import PlayerData, PlayerSerializer

logger = logging.getLogger(__name__)

# Jokers X1..X4: two decks bring four (docs/rules.md §12).
CARD_PATTERN = r"[A2-9TJQK][SHDC]|X[1-4]"
CARD_CODE = serializers.RegexField(rf"^({CARD_PATTERN})$", max_length=2)
# The longest group: a run of every rank, ace to king (a set holds at most 8, with two decks).
MAX_GROUP = 13

# What the schema says the payloads are: the serializers of their TypedDicts (games/payloads.py),
# which build nothing; the `player` in them is accounts' own serializer.
PAYLOADS = PayloadSerializers({PlayerData: PlayerSerializer})
GameSerializer = PAYLOADS.of(GameData)
EventSerializer = PAYLOADS.of(EventData)
RecordSerializer = PAYLOADS.of(RecordData)
LegalMovesSerializer = PAYLOADS.of(LegalMovesData)
# The sockets' messages (games/consumers.py), listed in the schema by config/socket_messages.py.
GameMessageSerializer = PAYLOADS.of(GameMessage)
YourTurnMessageSerializer = PAYLOADS.of(YourTurnMessage)
SocketErrorMessageSerializer = PAYLOADS.of(SocketErrorMessage)
KeepaliveMessageSerializer = PAYLOADS.of(KeepaliveMessage)
PongMessageSerializer = PAYLOADS.of(PongMessage)


def _game_response(locked: LockedGame, player: Player, code: int = 200) -> Response:
    """The game as `player` sees it after the change: the bytes its pushes carry when the
    change was published (games/notify.py encodes each viewer's game once), else built."""
    seat = viewer_seat(locked.seats, player)
    encoded = locked.encoded.get(seat)
    if encoded is not None:
        return Response(Fragment(encoded), status=code)
    return Response(locked.payload(seat), status=code)


def _no_game() -> ApplicationError:
    return ApplicationError("not_found", _("No such game."), 404)


def _require_view(ranked: bool, seat: int | None) -> None:
    if not may_view(ranked, seat):
        raise ApplicationError("forbidden", _("This is a private game you have no seat at."), 403)


def _visible_game(game_id: UUID, player: Player | None) -> tuple[Game, list[Any], int | None]:
    game = game_get(game_id)
    if game is None:
        raise _no_game()
    seats = game_seats(game)
    seat = viewer_seat(seats, player)
    _require_view(game.ranked, seat)
    return game, seats, seat


class GameCreateInput(serializers.Serializer[dict[str, Any]]):
    max_players = serializers.IntegerField(
        min_value=2,
        max_value=MAX_SEATS,
        help_text="2 to 5 with one deck, up to 8 with `decks: 2` (RULES.md §12); more than the "
        "rules seat: 400 `invalid_rules`.",
    )
    rules = serializers.JSONField(
        required=False,
        default=dict,
        help_text="RULES.md §9 and §12: a `preset` and any keys (given keys override the "
        "preset's); missing keys take the defaults. The game shows them resolved, every key.",
    )


class GameCreateApi(APIView):
    @extend_schema(
        operation_id="games_create",
        request=GameCreateInput,
        responses={201: GameSerializer, **error_responses(400, 401, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        data = GameCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = request_player(request)
        game = lobby.game_create(host=player, **data.validated_data)
        seats = game_seats(game)
        return Response(game_payload(game, None, seats, 0), status=status.HTTP_201_CREATED)


class GameJoinInput(serializers.Serializer[dict[str, Any]]):
    invite_code = serializers.CharField(max_length=16)


class GameJoinApi(APIView):
    @extend_schema(
        operation_id="games_join",
        request=GameJoinInput,
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = GameJoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = request_player(request)
        locked = lobby.game_join(game_id=game_id, player=player, **data.validated_data)
        return _game_response(locked, player)


class GameCpuInput(serializers.Serializer[dict[str, Any]]):
    level = serializers.ChoiceField(
        choices=[level.value for level in Level],
        default=DEFAULT_LEVEL.value,
        help_text=f"How well the CPU plays (games/engine/cpu/); `{DEFAULT_LEVEL}` when left out.",
    )


class GameCpuApi(APIView):
    @extend_schema(
        operation_id="games_add_cpu",
        request=GameCpuInput,
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = GameCpuInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = request_player(request)
        level = Level(data.validated_data["level"])
        return _game_response(
            lobby.game_add_cpu(game_id=game_id, player=player, level=level), player
        )


class GameStartApi(APIView):
    @extend_schema(
        operation_id="games_start",
        request=None,
        responses={200: GameSerializer, **error_responses(401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        player = request_player(request)
        return _game_response(lobby.game_start(game_id=game_id, player=player), player)


class GameLeaveApi(APIView):
    @extend_schema(
        operation_id="games_leave",
        request=None,
        responses={200: GameSerializer, **error_responses(401, 403, 404)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        player = request_player(request)
        return _game_response(play.game_leave(game_id=game_id, player=player), player)


class GameDetailApi(APIView):
    @extend_schema(
        operation_id="games_get",
        description="The answer carries an `ETag`, the viewer's own: `If-None-Match` with it "
        "gets 304 and no body while the game as this viewer sees it has not changed, decided "
        "before the game is built (docs/api.md, Polling a game).",
        parameters=[IF_NONE_MATCH, ETAG],
        responses={200: GameSerializer, **NOT_MODIFIED, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, game_id: UUID) -> HttpResponseBase:
        return game_read(request._request, game_id, request_player(request))


def game_read(request: HttpRequest, game_id: UUID, player: Player) -> HttpResponseBase:
    """`GET /games/{id}/`'s answer (its view's, and the lean path's: games/lean.py)."""
    # The tag is read before the game, or with it: a game that moves in between is answered
    # newer than its tag, so the next poll gets it again; never older, which would hold a
    # client at a stale game through 304s. A request with no tag to match (no If-None-Match)
    # is answered the game anyway: read with its tag, one round trip.
    game: Game | None = None
    if "HTTP_IF_NONE_MATCH" in request.META:
        tag = game_view_tag(game_id, player)
    else:
        tagged = game_view_tag_and_game(game_id, player)
        tag, game = (None, None) if tagged is None else tagged
    if tag is None:
        raise _no_game()
    _require_view(tag.ranked, tag.seat)
    unchanged = not_modified(request, with_etag(HttpResponse(), tag.etag, public=False))
    if unchanged is not None:
        return unchanged
    if game is None:
        game, seats, seat = _visible_game(game_id, player)
    else:
        seats, seat = game_seats(game), tag.seat
    payload = game_payload(game, game_state(game), seats, seat)
    return with_etag(Response(payload), tag.etag, public=False)


class LiveGamesPagination(LimitOffsetPagination):
    max_limit = 200


class LiveGamesApi(PublicReadApi):
    @extend_schema(
        operation_id="games_live",
        description="Ranked games in play, the newest first, each as a stranger sees it (any "
        "ranked game may be watched: `ws /ws/v1/games/{id}/`). No token needed.",
        parameters=[
            OpenApiParameter("limit", int),
            OpenApiParameter("offset", int),
            IF_NONE_MATCH,
            ETAG,
        ],
        responses={
            200: paginated(GameSerializer(many=True), "LiveGame"),
            **NOT_MODIFIED,
            **error_responses(401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        paginator = LiveGamesPagination()
        page = paginator.paginate_queryset(live_ranked_games(), request, view=self)
        assert page is not None
        return paginator.get_paginated_response(
            [game_payload(game, game_state(game), game_seats(game), None) for game in page]
        )


class ActionInput(serializers.Serializer[dict[str, Any]]):
    seq = serializers.IntegerField(min_value=0, help_text="`game.seq` as the client saw it.")
    type = serializers.ChoiceField(choices=["play", "yaniv"])
    cards = serializers.ListField(
        child=CARD_CODE,
        min_length=1,
        max_length=MAX_GROUP,
        required=False,
        help_text="The discarded group in laid order (RULES.md §4).",
    )
    draw = serializers.RegexField(
        rf"^(stock|{CARD_PATTERN})$",
        required=False,
        help_text='`"stock"` or the code of an end card of the last discarded group.',
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["type"] == "play":
            missing = [key for key in ("cards", "draw") if key not in attrs]
            if missing:
                raise serializers.ValidationError(
                    {key: [_("This field is required to play.")] for key in missing}
                )
        elif "cards" in attrs or "draw" in attrs:
            raise serializers.ValidationError(_("A Yaniv call takes no cards and no draw."))
        return attrs


_CARD = re.compile(rf"({CARD_PATTERN})")
_DRAW = re.compile(rf"(stock|{CARD_PATTERN})")


def action_input(data: Any) -> dict[str, Any]:
    """`ActionInput`'s validated data. A well-formed action, every client's every move, is
    checked here directly (`well_formed_action`): building the serializer deep-copies its
    fields, some 0.4 ms a move (bench/README.md, issue 34). Anything else goes to the
    serializer, which decides and words the refusal (and takes what it tolerates: a `seq` sent
    as a string, padded codes, unknown keys). tests/games/test_action_input.py holds the two to
    the same answers."""
    action = well_formed_action(data)
    if action is not None:
        return action
    serializer = ActionInput(data=data)
    serializer.is_valid(raise_exception=True)
    validated: dict[str, Any] = serializer.validated_data
    return validated


def well_formed_action(data: Any) -> dict[str, Any] | None:
    """`data` as `ActionInput` validates it when it is a well-formed action, else None."""
    if type(data) is dict:
        seq, kind = data.get("seq"), data.get("type")
        if type(seq) is int and seq >= 0:
            if kind == "yaniv" and data.keys() == {"seq", "type"}:
                return {"seq": seq, "type": kind}
            cards, draw = data.get("cards"), data.get("draw")
            if (
                kind == "play"
                and len(data) == 4
                and type(cards) is list
                and 1 <= len(cards) <= MAX_GROUP
                and all(type(card) is str and _CARD.fullmatch(card) for card in cards)
                and type(draw) is str
                and _DRAW.fullmatch(draw)
            ):
                return {"seq": seq, "type": kind, "cards": cards, "draw": draw}
    return None


class BotMovesThrottle(RateThrottle):
    """A bot's moves (THROTTLE_RATE_BOT_MOVES), beside the general limit: a program can play
    far faster than a person. A human's moves count against the general limit alone."""

    scope = "bot_moves"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not isinstance(request.user, Player) or not request.user.is_bot:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class GameActionApi(APIView):
    throttle_classes = (PlayerRateThrottle, BotMovesThrottle)

    @extend_schema(
        operation_id="games_act",
        request=ActionInput,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                # No space at either end: HTTP strips it, so it would not be part of the key.
                {"type": "string", "maxLength": 255, "pattern": "^[!-~]([ -~]*[!-~])?$"},
                OpenApiParameter.HEADER,
                required=False,
                description="1 to 255 printable ASCII characters (else 400 `invalid`). A "
                "repeat with the same key and body returns the first response and applies "
                "nothing (kept for a day). Only applied actions are kept: a repeat of a "
                "refused one is evaluated afresh.",
            ),
            OpenApiParameter(
                "Idempotency-Key-Stored",
                str,
                OpenApiParameter.HEADER,
                response=[200],
                enum=["false"],
                description="Sent as `false` when the action was applied but its answer was "
                "not kept, the player's daily quota of kept answers being used up: a repeat "
                "is then evaluated afresh (409 `stale_seq`, never applied twice).",
            ),
        ],
        responses={200: GameSerializer, **error_responses(400, 401, 403, 404, 409, 422)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        player = request_player(request)
        key = request.headers.get("Idempotency-Key")
        if key is not None:
            idempotency.check_key(key)
        action = action_input(request.data)
        if key is None:
            return self._act(game_id, player, action)
        return idempotency.run_once(
            player=player,
            scope=f"{player.pk}:{game_id}:{key}",
            body=action,
            act=lambda: self._act(game_id, player, action),
        )

    @staticmethod
    def _act(game_id: UUID, player: Player, action: dict[str, Any]) -> Response:
        logs.bind(player_id=player.pk)
        start = time.perf_counter()
        try:
            locked = play.game_act(game_id=game_id, player=player, seq=action["seq"], action=action)
        except ApplicationError as error:
            metrics.MOVES_REFUSED.labels(error.code).inc()
            logger.info(
                "move refused: %s (%s)", error.code, error.detail, extra={"code": error.code}
            )
            raise
        finally:
            metrics.MOVE_DURATION.observe(time.perf_counter() - start)
        return _game_response(locked, player)


class GameLegalMovesApi(APIView):
    @extend_schema(
        operation_id="games_legal_moves",
        description="Every move the caller's seat may make now, each the body `POST "
        ".../actions/` takes (add `seq`), from the engine that judges them: none listed is "
        "refused, none missing is accepted (two laid orders the rules do not tell apart are "
        "listed once). For the seat in turn only: 409 `not_your_turn` otherwise (`not_active` "
        "before the start or after the end, `left` after leaving); 404 at a game without "
        "the caller's seat.",
        responses={200: LegalMovesSerializer, **error_responses(401, 404, 409)},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        player = request_player(request)
        game = game_get(game_id)
        seats = [] if game is None else game_seats(game)
        seat = viewer_seat(seats, player)
        if game is None or seat is None:
            raise _no_game()
        state = game_state(game)
        if game.status != GameStatus.ACTIVE or state is None:
            raise ApplicationError("not_active", not_active_text(game.status), 409)
        if seats[seat].left:
            raise ApplicationError("left", _("You left this game; the CPU plays your seat."), 409)
        if state.turn != seat:
            raise ApplicationError("not_your_turn", _("It is not your turn."), 409)
        return Response(legal_moves_payload(game, state, seat))


class EventPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 500


class GameEventsApi(APIView):
    @extend_schema(
        operation_id="games_events",
        parameters=[
            OpenApiParameter(
                "after",
                int,
                description="Only events with a seq greater than this. Without it (or with "
                "`after=-1`) the whole log from the start: `game_started` and round 1's "
                "`round_started` are at seq 0, so `after=0` leaves them out. To follow a "
                "game, pass the last seq you have.",
            ),
            OpenApiParameter("limit", int),
            OpenApiParameter("offset", int),
        ],
        responses={
            200: paginated(EventSerializer(many=True), "Event"),
            **error_responses(400, 401, 403, 404),
        },
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        return game_events_answer(request, game_id, request_player(request))


def game_events_answer(request: Request, game_id: UUID, player: Player) -> Response:
    """`GET /games/{id}/events/`'s answer (its view's, and the lean path's: games/lean.py)."""
    game, _seats, seat = _visible_game(game_id, player)
    try:
        after = int(request.query_params.get("after", "-1"))
    except ValueError as error:
        raise ApplicationError("invalid", _("`after` must be an integer.")) from error
    paginator = EventPagination()
    page = paginator.paginate_queryset(game_events(game, after, seat), request)
    assert page is not None
    return paginator.get_paginated_response([event_payload(e, seat) for e in page])


class GameRecordApi(PublicReadApi):
    @extend_schema(
        operation_id="games_record",
        description="A ranked game's record needs no token; a private game's is for its "
        "seated players (403 `forbidden` to anyone else, with a token or without).",
        parameters=[IF_NONE_MATCH, ETAG],
        responses={
            200: RecordSerializer,
            **NOT_MODIFIED,
            **error_responses(401, 403, 404, 409),
        },
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        viewer = request.user if isinstance(request.user, Player) else None
        game, seats, _seat = _visible_game(game_id, viewer)
        if game.status != GameStatus.FINISHED:  # a voided game is finished: its record stands
            raise ApplicationError(
                "not_finished", _("The record is published when the game ends."), 409
            )
        return Response(game_record(game, seats))


class RematchInput(serializers.Serializer[dict[str, Any]]):
    accept = serializers.BooleanField(
        default=True,
        help_text="true: offer a rematch, or accept the open offer; false: decline it.",
    )


RematchSerializer = PAYLOADS.of(RematchData)
RulesCatalogSerializer = PAYLOADS.of(RulesCatalogData)


class RulesApi(PublicReadApi):
    @extend_schema(
        operation_id="rules_get",
        description="What a host may choose in `POST /games/`: every key's default, each "
        "preset's keys resolved (RULES.md §12), the most seats by decks. No token needed. "
        "Each key's values are in the `rules` schema of `game`.",
        parameters=[IF_NONE_MATCH, ETAG],
        responses={200: RulesCatalogSerializer, **NOT_MODIFIED, **error_responses(401, 403)},
    )
    def get(self, request: Request) -> Response:
        return Response(rules_catalog())


class GameRematchApi(APIView):
    @extend_schema(
        operation_id="games_rematch_get",
        responses={200: RematchSerializer, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game, seats, _ = _visible_game(game_id, request_player(request))
        return Response(rematch.rematch_state(game, seats))

    @extend_schema(
        operation_id="games_rematch",
        description="After a private game ends, a seated human offers a rematch (`accept` "
        "true, no offer open) or answers the open offer (`accept` true or false). When every "
        "seated human has accepted, a new game with the same seats, CPU seats and rules "
        "starts, the seats rotated by one: `status` `started` and its `game_id`.",
        request=RematchInput,
        responses={200: RematchSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = RematchInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = request_player(request)
        answer = rematch.rematch_answer(game_id=game_id, player=player, **data.validated_data)
        return Response(answer)
