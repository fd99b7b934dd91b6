"""Reads about ratings: players' current ratings, histories, the leaderboard, and the rated
games in the order ratings replay them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from accounts.models import Player
from accounts.selectors import RatingData, player_rating
from config.errors import ApplicationError
from games.models import Game, GameStatus, Seat
from games.selectors import player_finished_games
from ratings.models import Rating, RatingChange


def player_ratings(player_ids: Iterable[UUID | str]) -> dict[UUID, RatingData]:
    """The current ratings of many players in one query (matchmaking pairs by `ordinal`).
    Unknown ids are left out; a player with no rated game has the defaults."""
    players = Player.objects.filter(pk__in=list(player_ids)).select_related("rating")
    return {player.pk: player_rating(player) for player in players}


def player_get(player_id: UUID | str) -> Player:
    try:
        player = Player.objects.select_related("rating").filter(pk=player_id).first()
    except (ValueError, ValidationError):
        player = None
    if player is None:
        raise ApplicationError("not_found", "No such player.", 404)
    return player


def _not_banned() -> Q:
    now = timezone.now()
    banned = Q(player__banned_at__isnull=False) & (
        Q(player__banned_until__isnull=True) | Q(player__banned_until__gt=now)
    )
    return ~banned


def leaderboard() -> QuerySet[Rating]:
    """Every rated player who is not banned, highest ordinal first (the index's order).

    Provisional players are listed too, flagged: the ordinal already takes three sigmas off a
    new player's mu, so they rank only as high as the evidence puts them.
    """
    return (
        Rating.objects.filter(_not_banned())
        .select_related("player")
        .order_by("-ordinal", "player_id")
    )


def leaderboard_rank(rating: Rating) -> int:
    """Standard competition rank: 1 + the number of listed players with a higher ordinal."""
    return 1 + Rating.objects.filter(_not_banned(), ordinal__gt=rating.ordinal).count()


def player_rating_history(player: Player) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(player=player).order_by("at", "game_id")


def player_games(player: Player) -> QuerySet[Seat]:
    """The player's seats at finished games, newest first, with every seat's player."""
    seats = Seat.objects.select_related("player__rating").order_by("seat")
    return player_finished_games(player).prefetch_related(Prefetch("game__seats", queryset=seats))


# What recompute_ratings replays and checks -------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatedSeat:
    game_id: UUID
    at: datetime
    player_id: UUID
    seat: int
    place: int


def rated_games() -> QuerySet[Game]:
    """The games whose ratings stand: finished (not voided), ranked, rated."""
    return Game.objects.filter(
        ranked=True, status=GameStatus.FINISHED, rated_at__isnull=False, finished_at__isnull=False
    )


def rated_seats() -> Iterator[list[RatedSeat]]:
    """The rated players of every rated game, a list per game, in the order they are rated."""
    rows = (
        Seat.objects.filter(game__in=rated_games(), player__isnull=False, place__isnull=False)
        .order_by("game__finished_at", "game_id", "seat")
        .values_list("game_id", "game__finished_at", "player_id", "seat", "place")
    )
    game: list[RatedSeat] = []
    for game_id, at, player_id, number, place in rows.iterator(chunk_size=5000):
        # The query excludes nulls; the column types cannot say so.
        assert at is not None
        assert place is not None
        seat = RatedSeat(game_id, at, player_id, number, place)
        if game and game[0].game_id != seat.game_id:
            yield game
            game = []
        game.append(seat)
    if game:
        yield game


@dataclass(frozen=True, slots=True)
class StoredChange:
    key: tuple[datetime, UUID, int]  # (at, game id, seat): the order of rated_seats()
    player_id: UUID
    values: tuple[float, float, float, float]  # mu and sigma before, mu and sigma after


def stored_changes() -> Iterator[StoredChange]:
    """Every stored rating change, in the order of rated_seats()."""
    rows = RatingChange.objects.order_by("at", "game_id", "seat").values_list(
        "at", "game_id", "seat", "player_id", "mu_before", "sigma_before", "mu", "sigma"
    )
    for at, game_id, seat, player_id, mu_before, sigma_before, mu, sigma in rows.iterator(
        chunk_size=5000
    ):
        yield StoredChange((at, game_id, seat), player_id, (mu_before, sigma_before, mu, sigma))


def stored_ratings() -> Iterator[Rating]:
    return Rating.objects.iterator(chunk_size=5000)


def pending_games() -> QuerySet[Game]:
    """Finished ranked games still waiting for their rating."""
    return Game.objects.filter(ranked=True, status=GameStatus.FINISHED, rated_at__isnull=True)
