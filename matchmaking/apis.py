"""The ranked matchmaking endpoints of docs/api.md: thin views over matchmaking.services."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from core.errors import error_responses
from core.payloads import PayloadSerializers
from games.models import Pool
from matchmaking import services
from matchmaking.models import PLAYER_COUNTS, Ticket, TicketStatus
from matchmaking.selectors import TicketData, TicketMessage, ticket_data, ticket_get


class TicketSerializer(serializers.Serializer[Ticket]):
    """A matchmaking ticket, as every response and socket message shows one."""

    id = serializers.UUIDField(read_only=True)
    status = serializers.ChoiceField(choices=TicketStatus.choices, read_only=True)
    player_counts = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    game_id = serializers.UUIDField(
        allow_null=True, read_only=True, help_text="The ranked game, once `matched`."
    )
    cpu_seats = serializers.IntegerField(
        read_only=True,
        help_text="Seats of the matched game that CPU players filled (0 while searching).",
    )
    pool = serializers.ChoiceField(
        choices=Pool.values,
        read_only=True,
        help_text="The human queue (`ranked`) or the bots' ladder (`bots`).",
    )

    def to_representation(self, instance: Ticket) -> dict[str, Any]:
        # The fields above document the shape; ticket_data is the one place that builds it.
        return dict(ticket_data(instance))


# The me socket's `ticket` message, for the schema (config/socket_messages.py).
TicketMessageSerializer = PayloadSerializers({TicketData: TicketSerializer}).of(TicketMessage)


class TicketCreateInput(serializers.Serializer[dict[str, Any]]):
    player_counts = serializers.ListField(
        child=serializers.ChoiceField(choices=PLAYER_COUNTS),
        min_length=1,
        max_length=len(PLAYER_COUNTS),
        help_text="The table sizes you accept, each once.",
    )
    pool = serializers.ChoiceField(
        choices=Pool.values,
        default=Pool.RANKED,
        help_text="`ranked`, the human queue (bots: 409 `bot`), or `bots`, the bots' ladder "
        "(people: 409 `not_bot`).",
    )

    def validate_player_counts(self, value: list[int]) -> list[int]:
        if len(set(value)) != len(value):
            raise serializers.ValidationError(_("List each table size once."))
        return value


class TicketCreateApi(APIView):
    @extend_schema(
        operation_id="matchmaking_tickets_create",
        request=TicketCreateInput,
        responses={201: TicketSerializer, **error_responses(400, 401, 403, 409, 429)},
    )
    def post(self, request: Request) -> Response:
        data = TicketCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        ticket = services.ticket_create(
            player=request_player(request),
            player_counts=fields["player_counts"],
            pool=Pool(fields["pool"]),
        )
        return Response(TicketSerializer(ticket).data, status=status.HTTP_201_CREATED)


class TicketDetailApi(APIView):
    @extend_schema(
        operation_id="matchmaking_tickets_get",
        responses={200: TicketSerializer, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, ticket_id: UUID) -> Response:
        ticket = ticket_get(player=request_player(request), ticket_id=ticket_id)
        return Response(TicketSerializer(ticket).data)

    @extend_schema(
        operation_id="matchmaking_tickets_cancel",
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    def delete(self, request: Request, ticket_id: UUID) -> Response:
        services.ticket_cancel(player=request_player(request), ticket_id=ticket_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
