"""HTTP for a game's chat (docs/api.md, Chat). Thin views over chat's services and reads."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from chat import selectors
from chat.payloads import (
    ChatDeletedMessage,
    ChatMessageData,
    ChatMessageMessage,
    ChatReportData,
    PhraseData,
)
from chat.services import chat_post, chat_report
from core.errors import error_responses
from core.payloads import PayloadSerializers
from core.public import PAGE_PARAMETERS, Pagination
from core.schema import paginated
from ratings.payloads import PlayerData, PlayerSerializer

SCHEMAS = PayloadSerializers(known={PlayerData: PlayerSerializer})
ChatMessageSerializer = SCHEMAS.of(ChatMessageData)
PhraseSerializer = SCHEMAS.of(PhraseData)
ChatReportSerializer = SCHEMAS.of(ChatReportData)
ChatMessageMessageSerializer = SCHEMAS.of(ChatMessageMessage)
ChatDeletedMessageSerializer = SCHEMAS.of(ChatDeletedMessage)

_ROOM = OpenApiParameter(
    "room", str, enum=["players", "spectators"], required=True, description="Which room."
)


class ChatPostInput(serializers.Serializer[dict[str, Any]]):
    room = serializers.ChoiceField(choices=["players", "spectators"])
    # Not trimmed here: the service trims, then counts (an empty message is its `invalid`).
    text = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=1000,
        help_text="Free text, 1-200 characters (registered players with enough finished "
        "games, not muted).",
    )
    phrase = serializers.CharField(
        required=False, max_length=32, help_text="A phrase's id (`GET /chat/phrases/`)."
    )


class ChatReportInput(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class GameChatApi(APIView):
    @extend_schema(
        operation_id="games_chat",
        description="A room's messages as the caller is shown them (their `chat` setting; "
        "nothing by a player blocked either way), the newest last; `offset` counts back from "
        "the newest.",
        parameters=[_ROOM, *PAGE_PARAMETERS],
        responses={
            200: paginated(ChatMessageSerializer(many=True), "ChatMessage"),
            **error_responses(400, 401, 403, 404),
        },
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        player = request_player(request)
        room = selectors.room_of(request.query_params.get("room"))
        game, _ = selectors.room_game(game_id, player, room)
        paginator = Pagination()
        page = paginator.paginate_queryset(
            selectors.room_messages(game, room, player), request, view=self
        )
        assert page is not None
        return paginator.get_paginated_response(
            [selectors.message_data(row) for row in reversed(page)]
        )

    @extend_schema(
        operation_id="games_chat_post",
        description="Say a `phrase` (anyone) or `text` (registered players with "
        "`YANIV_CHAT_MIN_GAMES` finished games, not muted) in a room; pushed on the game's "
        "sockets as `chat` to those who read the room.",
        request=ChatPostInput,
        responses={201: ChatMessageSerializer, **error_responses(400, 401, 403, 404, 429)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = ChatPostInput(data=request.data)
        data.is_valid(raise_exception=True)
        message = chat_post(
            player=request_player(request),
            game_id=game_id,
            room=selectors.room_of(data.validated_data["room"]),
            text=data.validated_data.get("text"),
            phrase=data.validated_data.get("phrase"),
        )
        return Response(selectors.message_data(message), status=status.HTTP_201_CREATED)


class PhrasesApi(APIView):
    @extend_schema(
        operation_id="chat_phrases",
        description="The fixed phrases anyone may send (guests and muted players too).",
        responses={200: PhraseSerializer(many=True), **error_responses(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.phrases())


class ChatReportApi(APIView):
    @extend_schema(
        operation_id="chat_message_report",
        description="Report a message you can read: the report keeps the room's last 20 "
        "messages for the moderators. Once per message.",
        request=ChatReportInput,
        responses={201: ChatReportSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, message_id: UUID) -> Response:
        data = ChatReportInput(data=request.data)
        data.is_valid(raise_exception=True)
        report = chat_report(
            player=request_player(request),
            message_id=message_id,
            reason=data.validated_data.get("reason", ""),
        )
        body = selectors.report_data(report.pk, message_id, report.created_at)
        return Response(body, status=status.HTTP_201_CREATED)
