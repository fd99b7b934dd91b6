"""HTTP for arena tournaments (docs/api.md, Tournaments): create, list, read, join, pause,
withdraw, the standings and the games. Thin views over tournaments' services and reads."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import Count
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from accounts.models import Player
from core.errors import ApplicationError, error_responses
from core.payloads import PayloadSerializers
from core.public import PAGE_PARAMETERS, Pagination
from core.schema import paginated
from core.throttles import PlayerRateThrottle, PublicIpThrottle, RateThrottle
from games.models import Game
from ratings.payloads import PlayerData, PlayerSerializer, player_data
from tournaments.models import (
    MINUTES,
    TURN_SECONDS,
    Participant,
    Tournament,
    TournamentStatus,
)
from tournaments.payloads import (
    StandingsMessage,
    TournamentData,
    TournamentGameData,
    TournamentGameMessage,
    TournamentStandingData,
    standing_data,
    tournament_data,
)
from tournaments.selectors import standing_rank, standings, standings_ranked
from tournaments.services import (
    tournament_create,
    tournament_join,
    tournament_pause,
    tournament_starts_at_check,
    tournament_withdraw,
)

SCHEMAS = PayloadSerializers(known={PlayerData: PlayerSerializer})
TournamentSerializer = SCHEMAS.of(TournamentData)
TournamentGameMessageSerializer = SCHEMAS.of(TournamentGameMessage)
StandingsMessageSerializer = SCHEMAS.of(StandingsMessage)


class TournamentCreateThrottle(RateThrottle):
    """Tournaments a player may create (THROTTLE_RATE_TOURNAMENT_CREATE), beside the general
    limit: every one is a page and a beat's work for everyone."""

    scope = "tournament_create"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.method != "POST" or not isinstance(request.user, Player):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class TournamentCreateInput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(min_length=1, max_length=64)
    starts_at = serializers.DateTimeField()
    minutes = serializers.IntegerField(min_value=MINUTES[0], max_value=MINUTES[1])
    table_sizes = serializers.ListField(
        child=serializers.IntegerField(min_value=2, max_value=5), min_length=1, max_length=4
    )
    rated = serializers.BooleanField()
    rules = serializers.JSONField(
        required=False,
        help_text="Unrated tournaments only: docs/rules.md §9, §12 keys or a preset.",
    )
    turn_seconds = serializers.IntegerField(
        required=False, min_value=TURN_SECONDS[0], max_value=TURN_SECONDS[1]
    )
    min_rated_games = serializers.IntegerField(required=False, min_value=0, default=0)
    max_players = serializers.IntegerField(required=False, min_value=2, allow_null=True)
    password = serializers.CharField(
        required=False, max_length=128, default="", trim_whitespace=False
    )


class JoinInput(serializers.Serializer[dict[str, Any]]):
    password = serializers.CharField(
        required=False, max_length=128, default="", trim_whitespace=False
    )


def _viewer(request: Request) -> Player | None:
    return request.user if isinstance(request.user, Player) else None


def _get(tournament_id: UUID) -> Tournament:
    tournament = Tournament.objects.select_related("created_by__rating").filter(pk=tournament_id)
    found = tournament.first()
    if found is None:
        raise ApplicationError("not_found", _("No such tournament."), 404)
    return found


def _data(
    tournament: Tournament,
    viewer: Player | None,
    *,
    players: int | None = None,
    entries: dict[UUID, Participant] | None = None,
) -> TournamentData:
    """A `tournament` for `viewer`; a list passes its page's counts and the viewer's entries,
    read for the whole page at once."""
    me = None
    if viewer is not None:
        if entries is None:
            me = Participant.objects.filter(tournament=tournament, player=viewer).first()
        else:
            me = entries.get(tournament.pk)
    rank = None  # a cancelled tournament has no standings, so no ranks
    if me is not None and tournament.status != TournamentStatus.CANCELLED:
        rank = standing_rank(me)
    return tournament_data(
        tournament,
        players=tournament.participants.count() if players is None else players,
        me=me,
        rank=rank,
        viewer=viewer is not None,
    )


class TournamentListApi(APIView):
    permission_classes = (AllowAny,)
    throttle_classes = (PlayerRateThrottle, PublicIpThrottle, TournamentCreateThrottle)

    @extend_schema(
        operation_id="tournaments_list",
        description="Tournaments, the soonest first for upcoming and running ones, the latest "
        "first for finished and cancelled ones (`?status=`: one of them).",
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("status", str)],
        responses={
            200: paginated(TournamentSerializer(many=True), "Tournament"),
            **error_responses(400, 401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        rows = Tournament.objects.select_related("created_by__rating").annotate(
            players_total=Count("participants")
        )
        if wanted is not None:
            if wanted not in TournamentStatus.values:
                raise ApplicationError(
                    "invalid",
                    _("status must be one of %(choices)s.") % {"choices": TournamentStatus.values},
                )
            rows = rows.filter(status=wanted)
        order = (
            ("starts_at", "id") if wanted in (None, "upcoming", "running") else ("-ends_at", "id")
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(rows.order_by(*order), request, view=self)
        assert page is not None
        viewer = _viewer(request)
        entries = (
            {}
            if viewer is None
            else {
                entry.tournament_id: entry
                for entry in Participant.objects.filter(player=viewer, tournament__in=page)
            }
        )
        return paginator.get_paginated_response(
            [_data(t, viewer, players=t.players_total, entries=entries) for t in page]
        )

    @extend_schema(
        operation_id="tournaments_create",
        request=TournamentCreateInput,
        responses={201: TournamentSerializer, **error_responses(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        player = request_player(request)
        if player.is_guest:
            raise ApplicationError("guest", _("Register to create tournaments."), 403)
        data = TournamentCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament_starts_at_check(data.validated_data["starts_at"])
        tournament = tournament_create(by=player, **data.validated_data)
        return Response(_data(tournament, player), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    permission_classes = (AllowAny,)
    throttle_classes = (PlayerRateThrottle, PublicIpThrottle)

    @extend_schema(
        operation_id="tournaments_get",
        responses={200: TournamentSerializer, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        return Response(_data(_get(tournament_id), _viewer(request)))


class _Action(APIView):
    def _answer(self, request: Request, tournament_id: UUID) -> Response:
        return Response(_data(_get(tournament_id), request_player(request)))


class TournamentJoinApi(_Action):
    @extend_schema(
        operation_id="tournaments_join",
        request=JoinInput,
        responses={200: TournamentSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        data = JoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament_join(
            tournament_id=tournament_id,
            player=request_player(request),
            password=data.validated_data["password"],
        )
        return self._answer(request, tournament_id)


class TournamentPauseApi(_Action):
    @extend_schema(
        operation_id="tournaments_pause",
        request=None,
        responses={200: TournamentSerializer, **error_responses(401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        tournament_pause(tournament_id=tournament_id, player=request_player(request))
        return self._answer(request, tournament_id)


class TournamentWithdrawApi(_Action):
    @extend_schema(
        operation_id="tournaments_withdraw",
        request=None,
        responses={200: TournamentSerializer, **error_responses(401, 403, 404, 409)},
    )
    def post(self, request: Request, tournament_id: UUID) -> Response:
        tournament_withdraw(tournament_id=tournament_id, player=request_player(request))
        return self._answer(request, tournament_id)


class TournamentStandingsApi(APIView):
    permission_classes = (AllowAny,)
    throttle_classes = (PlayerRateThrottle, PublicIpThrottle)

    @extend_schema(
        operation_id="tournaments_standings",
        description="The standings, best first (equal keys share a rank); a cancelled "
        "tournament has none: an empty page.",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(SCHEMAS.of(TournamentStandingData)(many=True), "TournamentStanding"),
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        rows = list(standings(_get(tournament_id)))
        ranked: Any = standings_ranked(rows)
        paginator = Pagination()
        page = paginator.paginate_queryset(ranked, request, view=self)
        assert page is not None
        return paginator.get_paginated_response([standing_data(*row) for row in page])


class TournamentGamesApi(APIView):
    permission_classes = (AllowAny,)
    throttle_classes = (PlayerRateThrottle, PublicIpThrottle)

    @extend_schema(
        operation_id="tournaments_games",
        description="The tournament's games, newest first: `{id, status, started_at, "
        "finished_at, players}` (`players`: each seat's `player`, in seat order).",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(SCHEMAS.of(TournamentGameData)(many=True), "TournamentGame"),
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, tournament_id: UUID) -> Response:
        tournament = _get(tournament_id)
        games = Game.objects.filter(tournament_id=tournament.pk).order_by("-started_at", "id")
        paginator = Pagination()
        page = paginator.paginate_queryset(
            games.prefetch_related("seats__player__rating"), request, view=self
        )
        assert page is not None
        return paginator.get_paginated_response(
            [
                {
                    "id": str(game.pk),
                    "status": game.status,
                    "started_at": game.started_at.isoformat() if game.started_at else None,
                    "finished_at": game.finished_at.isoformat() if game.finished_at else None,
                    "players": [
                        player_data(seat.player)
                        for seat in sorted(game.seats.all(), key=lambda seat: seat.seat)
                        if seat.player is not None
                    ],
                }
                for game in page
            ]
        )
