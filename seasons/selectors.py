"""Reads about seasons: the seasons, their starts as ratings replay them, and the standings
(frozen for a finished season, ratings' live ones for the current)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, QuerySet
from django.utils import timezone

from accounts.models import Player
from ratings.models import Rating
from ratings.payloads import shown_skill
from ratings.results import SeasonStart
from ratings.selectors import SeasonLeaderboard
from seasons.models import Season, SeasonStanding, SeasonStatus
from seasons.payloads import PlayerSeason, tier


def season_starts() -> list[SeasonStart]:
    """Every season's start that reset ratings (all but the first), in order: what ratings
    are handed to rate, roll back and replay games across seasons."""
    return season_calendar().starts


@dataclass(frozen=True, slots=True)
class Calendar:
    """Every season in one read: the current one (None before the first is made) and the
    starts that reset ratings."""

    current: Season | None
    starts: list[SeasonStart]


def season_calendar() -> Calendar:
    rows = list(Season.objects.order_by("number"))
    current = next((row for row in rows if row.status == SeasonStatus.CURRENT), None)
    starts = [SeasonStart(row.number, row.starts_at, row.sigma_bump) for row in rows[1:]]
    return Calendar(current, starts)


def season_start_times() -> list[tuple[datetime, int]]:
    """Every season's (start, number), in order: `season_at` bins times with it."""
    return list(Season.objects.order_by("number").values_list("starts_at", "number"))


def season_at(starts: list[tuple[datetime, int]], at: datetime) -> int:
    """The number of the season `at` falls in (a season's reset, at its start, is its own);
    times before the first season's start are the first's."""
    index = bisect.bisect_right(starts, at, key=lambda start: start[0])
    return starts[max(0, index - 1)][1] if starts else 1


def seasons() -> QuerySet[Season]:
    """Every season, newest first."""
    return Season.objects.order_by("-number")


def season_get(number: int) -> Season | None:
    return Season.objects.filter(number=number).first()


def current_board(season: Season, now: datetime | None = None) -> SeasonLeaderboard:
    """The current season's leaderboard now (ratings/selectors.py)."""
    return SeasonLeaderboard(season.starts_at, now)


def frozen_board(season: Season) -> QuerySet[SeasonStanding]:
    """A finished season's placed players, by their rank at its end."""
    placed = SeasonStanding.objects.filter(season=season, rank__isnull=False)
    return placed.select_related("player__rating").order_by("rank", "player_id")


def player_seasons(
    player: Player, current: Season, now: datetime | None = None
) -> list[PlayerSeason]:
    """The seasons the player played a rated game in, newest first: the current one as it
    stands now, the finished ones as they were frozen. None for a bot: bots stand outside
    seasons (their ladder games are no season's)."""
    if player.is_bot:
        return []
    now = now or timezone.now()
    rows: list[PlayerSeason] = []
    rating = Rating.objects.filter(player=player).first()
    if rating is not None and rating.season_games > 0:
        board = current_board(current, now)
        skill = shown_skill(rating, now)
        count = board.count()
        rank = board.rank(skill.ordinal) if board.listed().filter(pk=player.pk).exists() else None
        rows.append(
            PlayerSeason(
                current,
                rating.season_games,
                skill.mu,
                skill.sigma,
                skill.ordinal,
                rank,
                None if rank is None else tier(rank, count),
                count,
            )
        )
    standings = list(
        SeasonStanding.objects.filter(player=player).select_related("season").order_by("-season")
    )
    placed = dict(
        SeasonStanding.objects.filter(
            season__in=[standing.season_id for standing in standings], rank__isnull=False
        )
        .values_list("season")
        .annotate(Count("id"))
    )
    rows.extend(
        PlayerSeason(
            standing.season,
            standing.games,
            standing.mu,
            standing.sigma,
            standing.ordinal,
            standing.rank,
            standing.tier or None,
            placed.get(standing.season_id, 0),
        )
        for standing in standings
    )
    return rows
