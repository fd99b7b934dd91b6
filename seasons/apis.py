"""HTTP for seasons (docs/api.md, Seasons): the seasons, the current one, and a season's
leaderboard (live for the current season, frozen for a finished one). Public reads."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ApplicationError, error_responses
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
from ratings.payloads import PlayerData, PlayerSerializer, player_data
from ratings.selectors import ranked
from seasons.models import Season, SeasonStatus
from seasons.payloads import SeasonData, SeasonStandingData, season_data, skill_data
from seasons.selectors import current_board, frozen_board, season_get, seasons
from seasons.services import season_current

SCHEMAS = PayloadSerializers(known={PlayerData: PlayerSerializer})
SeasonSerializer = SCHEMAS.of(SeasonData)
_READ = [IF_NONE_MATCH, ETAG]


def season_or_404(number: int) -> Season:
    season = season_get(number)
    if season is None:
        season_current()  # the first season exists once anyone asks
        season = season_get(number)
    if season is None:
        raise ApplicationError("not_found", _("No such season."), 404)
    return season


def _skill(player: PlayerData) -> tuple[float, float, float]:
    rating = player["rating"]
    return rating["mu"], rating["sigma"], rating["ordinal"]


class SeasonListApi(PublicReadApi):
    @extend_schema(
        operation_id="seasons_list",
        description="Every season, newest first (the current one is the first).",
        parameters=[*PAGE_PARAMETERS, *_READ],
        responses={
            200: paginated(SeasonSerializer(many=True), "Season"),
            **NOT_MODIFIED,
            **error_responses(401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        season_current()
        paginator = Pagination()
        page = paginator.paginate_queryset(seasons(), request, view=self)
        assert page is not None
        return paginator.get_paginated_response([season_data(season) for season in page])


class SeasonCurrentApi(PublicReadApi):
    @extend_schema(
        operation_id="seasons_current",
        parameters=_READ,
        responses={200: SeasonSerializer, **NOT_MODIFIED, **error_responses(401, 403)},
    )
    def get(self, request: Request) -> Response:
        return Response(season_data(season_current()))


class SeasonDetailApi(PublicReadApi):
    @extend_schema(
        operation_id="seasons_get",
        parameters=_READ,
        responses={200: SeasonSerializer, **NOT_MODIFIED, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, number: int) -> Response:
        return Response(season_data(season_or_404(number)))


class SeasonLeaderboardApi(PublicReadApi):
    @extend_schema(
        operation_id="seasons_leaderboard",
        description="The season's placed players (at least `placement_games` rated games in "
        "the season, not banned), highest ordinal first: now, for the current season (ratings "
        "aged to today); as frozen at its end, for a finished one. Equal ordinals share a rank.",
        parameters=[*PAGE_PARAMETERS, *_READ],
        responses={
            200: paginated(SCHEMAS.of(SeasonStandingData)(many=True), "Standing"),
            **NOT_MODIFIED,
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, number: int) -> Response:
        season = season_or_404(number)
        paginator = Pagination()
        if season.status == SeasonStatus.CURRENT:
            board = current_board(season)
            rows: Any = board  # what the paginator uses of a QuerySet: count() and slices
            page = paginator.paginate_queryset(rows, request, view=self)
            assert page is not None
            entries: list[SeasonStandingData] = [
                {
                    "rank": rank,
                    "player": player,
                    "rating": skill_data(
                        player["rating"]["mu"],
                        player["rating"]["sigma"],
                        player["rating"]["ordinal"],
                    ),
                    "games": rating.season_games,
                }
                for rank, rating, player in ranked(board, page, paginator.offset or 0)
            ]
        else:
            standings = paginator.paginate_queryset(frozen_board(season), request, view=self)
            assert standings is not None
            entries = [
                {
                    "rank": standing.rank or 0,
                    "player": player_data(standing.player),
                    "rating": skill_data(standing.mu, standing.sigma, standing.ordinal),
                    "games": standing.games,
                }
                for standing in standings
            ]
        return paginator.get_paginated_response(entries)
