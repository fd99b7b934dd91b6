"""The players and ratings endpoints of API.md: thin views over ratings.selectors."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.apis import PlayerSerializer, RatingSerializer
from accounts.selectors import player_data, player_rating
from config.errors import error_responses
from config.schema import paginated
from games.models import Seat
from ratings.models import Rating, RatingChange
from ratings.selectors import (
    leaderboard,
    leaderboard_rank,
    player_games,
    player_get,
    player_rating_history,
)

PAGE_PARAMETERS = [OpenApiParameter("limit", int), OpenApiParameter("offset", int)]


class Pagination(LimitOffsetPagination):
    max_limit = 200


class PlayerGameSerializer(serializers.Serializer[Seat]):
    """One finished game, from the seat of the player whose games are listed."""

    id = serializers.UUIDField(source="game.id")
    ranked = serializers.BooleanField(source="game.ranked")
    finished_at = serializers.DateTimeField(source="game.finished_at")
    players = serializers.SerializerMethodField(
        help_text="Per seat, in seat order: the seat's `player`, or null for a CPU seat."
    )
    place = serializers.IntegerField(help_text="This player's final place (RULES.md §8).")

    @extend_schema_field(serializers.ListField(child=PlayerSerializer(allow_null=True)))
    def get_players(self, seat: Seat) -> list[dict[str, Any] | None]:
        return [
            None if other.player is None else dict(player_data(other.player))
            for other in seat.game.seats.all()
        ]


class RatingPointSerializer(serializers.Serializer[RatingChange]):
    """A player's rating right after one rated game."""

    game_id = serializers.UUIDField()
    at = serializers.DateTimeField(help_text="When the game ended.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class LeaderboardEntrySerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField(
        help_text="1 + the number of players with a higher ordinal: equal ordinals share a rank."
    )
    player = PlayerSerializer()
    rating = RatingSerializer()


class PlayerDetailApi(APIView):
    @extend_schema(
        operation_id="players_get",
        responses={200: PlayerSerializer, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        return Response(PlayerSerializer(player_get(player_id)).data)


class PlayerGamesApi(APIView):
    @extend_schema(
        operation_id="players_games",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(PlayerGameSerializer(many=True), "PlayerGame"),
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        paginator = Pagination()
        seats = player_games(player_get(player_id))
        page = paginator.paginate_queryset(seats, request, view=self)
        assert page is not None  # a paginator is always configured here
        return paginator.get_paginated_response([PlayerGameSerializer(seat).data for seat in page])


class PlayerRatingHistoryApi(APIView):
    @extend_schema(
        operation_id="players_rating_history",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(RatingPointSerializer(many=True), "RatingPoint"),
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, player_id: UUID) -> Response:
        paginator = Pagination()
        changes = player_rating_history(player_get(player_id))
        page = paginator.paginate_queryset(changes, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(
            [RatingPointSerializer(change).data for change in page]
        )


class LeaderboardApi(APIView):
    @extend_schema(
        operation_id="leaderboard",
        description="Every rated player who is not banned, by ordinal, highest first. "
        "Provisional players are listed (their `rating.provisional` is true): the ordinal "
        "already takes three sigmas off their mu.",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(LeaderboardEntrySerializer(many=True), "LeaderboardEntry"),
            **error_responses(401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        page = paginator.paginate_queryset(leaderboard(), request, view=self)
        assert page is not None
        entries = _ranked(page, paginator.offset or 0)
        return paginator.get_paginated_response(
            [LeaderboardEntrySerializer(entry).data for entry in entries]
        )


def _ranked(page: list[Rating], offset: int) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    rank = 1
    for index, rating in enumerate(page):
        if index == 0:
            rank = 1 if offset == 0 else leaderboard_rank(rating)
        elif rating.ordinal != page[index - 1].ordinal:
            # Everyone above sorts strictly higher, as the ordinals are ordered.
            rank = offset + index + 1
        entries.append(
            {"rank": rank, "player": rating.player, "rating": player_rating(rating.player)}
        )
    return entries
