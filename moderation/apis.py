"""`POST /api/v1/games/{id}/reports/`: a player reports another seat of their game."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from core.errors import error_responses
from moderation.models import Report, ReportReason
from moderation.services import report_create


class ReportInputSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField(min_value=0, help_text="The seat reported.")
    reason = serializers.ChoiceField(choices=ReportReason.choices)
    text = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class ReportOutputSerializer(serializers.Serializer[Report]):
    """The report as received; what staff do about it is not told."""

    id = serializers.IntegerField()
    game_id = serializers.UUIDField()
    seat = serializers.IntegerField()
    reason = serializers.ChoiceField(choices=ReportReason.choices)
    text = serializers.CharField()
    created_at = serializers.DateTimeField()


class GameReportApi(APIView):
    @extend_schema(
        operation_id="games_report",
        request=ReportInputSerializer,
        responses={201: ReportOutputSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        data = ReportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        report = report_create(
            reporter=request_player(request), game_id=game_id, **data.validated_data
        )
        return Response(ReportOutputSerializer(report).data, status=status.HTTP_201_CREATED)
