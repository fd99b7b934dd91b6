"""Reads about ratings, from ratings' own rows: players' current ratings, histories, the
leaderboard, and the stored rating changes that recompute_ratings checks."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db.models import (
    DateField,
    ExpressionWrapper,
    F,
    FloatField,
    Func,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Coalesce, Greatest, Least, Sqrt, TruncDate
from django.utils import timezone

from accounts.models import Player
from ratings.cpu import cpu_start
from ratings.models import Rating, RatingChange
from ratings.payloads import PlayerData, RatingData, player_data, player_rating, shown_skill
from ratings.rating import DEFAULT

# The leaderboards' pools (docs/api.md, Leaderboard): the people's (`ranked`, the human queue's
# games) and the bots' ladder (`bots`, where the CPU levels stand as fixed anchors).
POOLS = ("ranked", "bots")


def player_ratings(player_ids: Iterable[UUID | str]) -> dict[UUID, RatingData]:
    """The current (aged) ratings of many players in one query (matchmaking pairs by
    `ordinal`). Unknown ids are left out; a player with no rated game has the defaults."""
    players = Player.objects.filter(pk__in=list(player_ids)).select_related("rating")
    return {player.pk: player_rating(player) for player in players}


def cpu_player_ids() -> dict[str, UUID]:
    """The CPU levels' rated players that exist so far, by level."""
    rows = Player.objects.filter(cpu_level__isnull=False).values_list("cpu_level", "pk")
    return {level: pk for level, pk in rows if level is not None}


def cpu_ratings() -> dict[str, float]:
    """The (aged) ordinals of the CPU levels that have a rating, by level: a level ages as
    anyone does, so where it stands among people stays honest."""
    rows = Rating.objects.filter(player__cpu_level__isnull=False).select_related("player")
    return {
        row.player.cpu_level: shown_skill(row).ordinal
        for row in rows
        if row.player.cpu_level is not None
    }


def banned_players(now: datetime) -> QuerySet[Player]:
    """The players banned at `now`: no leaderboard lists them."""
    return Player.objects.filter(
        Q(banned_until__isnull=True) | Q(banned_until__gt=now), banned_at__isnull=False
    )


def bot_players() -> QuerySet[Player]:
    """The bot accounts: the people's boards never list them (their ratings are the bots'
    pool's)."""
    return Player.objects.filter(is_bot=True)


def _listed(now: datetime, *, bots: bool = False) -> QuerySet[Rating]:
    """Who the leaderboard lists (after lichess): not banned, at least
    YANIV_LEADERBOARD_MIN_GAMES rated games, one of them in the last
    YANIV_LEADERBOARD_ACTIVE_DAYS days; people, or with `bots` bots alone.

    The last of those is the row's `last_game_at` (the latest of the player's rating changes,
    which recompute_ratings checks), and the banned are the few players left out by id: each
    read of the board then scans rating rows alone, not a join per player."""
    recent = now - timedelta(days=settings.YANIV_LEADERBOARD_ACTIVE_DAYS)
    rows = Rating.objects.filter(
        games__gte=settings.YANIV_LEADERBOARD_MIN_GAMES, last_game_at__gte=recent
    ).exclude(player_id__in=banned_players(now).values("pk"))
    bot_ids = bot_players().values("pk")
    return rows.filter(player_id__in=bot_ids) if bots else rows.exclude(player_id__in=bot_ids)


def shown_ordinal(today: date) -> ExpressionWrapper[CombinedExpression]:
    """ratings/rating.py `aged`'s ordinal in SQL, from the stored columns and `today`'s UTC
    date, operation for operation as Python computes it (the same IEEE doubles, so the same
    value)."""
    return ExpressionWrapper(F("mu") - Value(3.0) * shown_sigma(today), output_field=FloatField())


def shown_sigma(today: date) -> Least:
    """`aged`'s sigma in SQL, as `shown_ordinal`'s."""
    tau = settings.YANIV_RATING_TAU_PER_DAY
    days = Greatest(
        Func(
            Value(today, output_field=DateField()),
            TruncDate("last_game_at", tzinfo=UTC),
            template="(%(expressions)s)",
            arg_joiner=" - ",
            output_field=FloatField(),
        ),
        Value(0.0),
    )
    return Least(Value(DEFAULT.sigma), Sqrt(F("sigma") * F("sigma") + Value(tau * tau) * days))


# An aged ordinal is at most the stored one, and a listed player has a rated game within
# `days` days (YANIV_LEADERBOARD_ACTIVE_DAYS; a season's length so far), so at most that many
# days of ageing: sqrt(s^2 + t^2 d) is below s + t sqrt(d), and their aged ordinal is within
# 3 t sqrt(d) of the stored one. The tiny slack absorbs the floats' last bits.
def _ageing_margin(days: float) -> float:
    tau: float = settings.YANIV_RATING_TAU_PER_DAY
    return 3 * tau * math.sqrt(max(0.0, days)) * (1 + 1e-9) + 1e-9


class Leaderboard:
    """Every eligible player (`_listed`), highest aged ordinal first (ties by id, so that pages
    never overlap), as a paginator takes it: `count()` and a slice for a page.

    Provisional players are listed too, flagged: the ordinal already takes three sigmas off a
    new player's mu, so they rank only as high as the evidence puts them.

    The order is by the aged ordinal, computed in SQL for today's UTC date; a page reads only
    the players whose stored ordinal (the index's order) is close enough to the page to be on
    it after ageing: the aged ordinal is never above the stored one nor more than
    `_ageing_margin` below it. So a page of the first hundred reads about a hundred rows, not
    every rated player.
    """

    def __init__(self, now: datetime | None = None) -> None:
        self.now = now or timezone.now()
        self._shown = shown_ordinal(self.now.astimezone(UTC).date())

    def listed(self) -> QuerySet[Rating]:
        return _listed(self.now)

    def ageing_days(self) -> float:
        """The most days of ageing a listed player's rating can have."""
        days: int = settings.YANIV_LEADERBOARD_ACTIVE_DAYS
        return days

    def count(self) -> int:
        return self.listed().count()

    def __getitem__(self, page: slice) -> list[Rating]:
        start, stop = page.start or 0, page.stop
        listed = self.listed()
        if stop is not None and stop > start:
            # The stop-th stored ordinal: the first `stop` by stored ordinal all age to at
            # least this less the margin, so the stop-th aged ordinal does too, and nobody
            # stored below that can reach the page. A subquery, so that a page is one query
            # (with fewer than `stop` listed, no bound).
            last = listed.order_by("-ordinal", "player_id").values("ordinal")[stop - 1 : stop]
            floor = Coalesce(
                Subquery(last) - Value(_ageing_margin(self.ageing_days())),
                Value(-math.inf),
                output_field=FloatField(),
            )
            # As a range (to +inf, which holds every row): PostgreSQL cannot know the
            # subquery's value, and estimates a range of one such bound at a few rows (a lone
            # `>=` at a third of the table), so it reads the band off the ordinal's index.
            listed = listed.filter(ordinal__gte=floor, ordinal__lte=math.inf)
        ordered = listed.alias(shown=self._shown).order_by("-shown", "player_id")
        return list(ordered.select_related("player")[start:stop])

    def rank(self, ordinal: float) -> int:
        """Standard competition rank of an aged ordinal: 1 + the number of listed players
        with a higher one (only those stored above it can be)."""
        above = self.listed().filter(ordinal__gt=ordinal).alias(shown=self._shown)
        return 1 + above.filter(shown__gt=ordinal).count()


class SeasonLeaderboard(Leaderboard):
    """The current season's standings as they are now: every player not banned with at least
    YANIV_SEASON_PLACEMENT_GAMES rated games since the season started at `season_start`, by
    aged ordinal, as the leaderboard orders them."""

    def __init__(self, season_start: datetime, now: datetime | None = None) -> None:
        super().__init__(now)
        self.season_start = season_start

    def listed(self) -> QuerySet[Rating]:
        placed = Rating.objects.filter(season_games__gte=settings.YANIV_SEASON_PLACEMENT_GAMES)
        placed = placed.exclude(player_id__in=bot_players().values("pk"))
        return placed.exclude(player_id__in=banned_players(self.now).values("pk"))

    def ageing_days(self) -> float:
        # A placed player's last game is in the season: at most its days so far (a whole day
        # more, for the UTC dates' rounding).
        return (self.now - self.season_start).total_seconds() / 86400 + 1


class BotsLeaderboard(Leaderboard):
    """The bots' ladder (docs/api.md, Leaderboard): the listed bots (`_listed`'s rules) by aged
    ordinal, and among them the CPU levels at their fixed anchors (ratings/cpu.py
    `cpu_start`), always listed, ranked together.

    An anchor is a CPU level's player with an unsaved `Rating` of its anchor (never aged: its
    last game is `now`), so that a page's rows are all alike and `player_data` shows the anchor
    as the player's rating. An anchor comes before a bot of the same ordinal. A page costs the
    bots' board's queries and one count per anchor."""

    def __init__(self, cpus: Iterable[Player], now: datetime | None = None) -> None:
        super().__init__(now)
        anchors = []
        for player in cpus:
            assert player.cpu_level is not None
            skill = cpu_start(player.cpu_level)
            anchors.append(
                Rating(
                    player=player,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    ordinal=skill.ordinal,
                    games=0,
                    last_game_at=self.now,
                )
            )
        self.anchors = sorted(anchors, key=lambda row: (-row.ordinal, row.player_id))
        self._anchors_at: list[int] | None = None

    def listed(self) -> QuerySet[Rating]:
        return _listed(self.now, bots=True)

    def count(self) -> int:
        return super().count() + len(self.anchors)

    def _bots_above(self, ordinal: float) -> int:
        return super().rank(ordinal) - 1

    def anchors_at(self) -> list[int]:
        """Each anchor's index in the whole board: the bots above it, and the anchors."""
        if self._anchors_at is None:
            self._anchors_at = [
                self._bots_above(row.ordinal) + index for index, row in enumerate(self.anchors)
            ]
        return self._anchors_at

    def __getitem__(self, page: slice) -> list[Rating]:
        start, stop = page.start or 0, page.stop
        at = self.anchors_at()
        here = [
            row
            for row, index in zip(self.anchors, at, strict=True)
            if index >= start and (stop is None or index < stop)
        ]
        first_bot = start - sum(index < start for index in at)
        last_bot = None if stop is None else first_bot + (stop - start) - len(here)
        bots = super().__getitem__(slice(first_bot, last_bot))
        shown = {row.player_id: shown_skill(row, self.now).ordinal for row in bots}
        rows = [*here, *bots]
        # Anchors first among equals (their ordinal is exact: they are never aged).
        rows.sort(
            key=lambda row: (
                -shown.get(row.player_id, row.ordinal),
                row.player_id in shown,
                row.player_id,
            )
        )
        return rows

    def rank(self, ordinal: float) -> int:
        return super().rank(ordinal) + sum(row.ordinal > ordinal for row in self.anchors)


def leaderboard(now: datetime | None = None, *, pool: str = "ranked") -> Leaderboard:
    """The leaderboard of a pool (`POOLS`): the bots' needs the CPU levels' players
    (ratings/services.py `cpu_players` makes any missing)."""
    if pool == "bots":
        return BotsLeaderboard(Player.objects.filter(cpu_level__isnull=False), now)
    return Leaderboard(now)


def ranked(
    board: Leaderboard, page: list[Rating], offset: int
) -> Iterator[tuple[int, Rating, PlayerData]]:
    """A page of `board` (starting at `offset`) with each row's rank and `player` (rating aged
    as the board orders it): standard competition ranks, so equal ordinals share one. Built as
    plain data (`player_data`): a page of 200 through nested serializers costs more than its
    query."""
    rank = 1
    previous: float | None = None
    for index, rating in enumerate(page):
        player = player_data(rating.player, board.now)
        shown = player["rating"]["ordinal"]
        if index == 0:
            rank = 1 if offset == 0 else board.rank(shown)
        elif shown != previous:
            # Everyone above sorts strictly higher, as the ordinals are ordered.
            rank = offset + index + 1
        previous = shown
        yield rank, rating, player


def player_rating_history(player: Player) -> QuerySet[RatingChange]:
    """The player's rated games and season resets, oldest first (the history's order)."""
    return history_order(RatingChange.objects.filter(player=player))


# What recompute_ratings checks ------------------------------------------------------------


# A row's place in the history: (at, 1, game id, seat) for a game's, (at, 0, season, player id)
# for a reset's, so that a reset comes before the games that end at its very instant.
HistoryKey = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class StoredChange:
    key: HistoryKey
    player_id: UUID
    values: tuple[float, float, float, float]  # mu and sigma before, mu and sigma after


def history_order(changes: QuerySet[RatingChange]) -> QuerySet[RatingChange]:
    """Rating changes in the history's order (`HistoryKey`): by time, a reset before the
    games of the same instant, then games by id and seat, resets by season and player."""
    return changes.order_by("at", F("game_id").asc(nulls_first=True), "season", "seat", "player_id")


def stored_changes() -> Iterator[StoredChange]:
    """Every stored rating change, in the history's order."""
    rows = history_order(RatingChange.objects.all()).values_list(
        "at", "game_id", "season", "seat", "player_id", "mu_before", "sigma_before", "mu", "sigma"
    )
    for at, game_id, season, seat, player_id, *values in rows.iterator(chunk_size=5000):
        key = (at, 0, season, player_id) if game_id is None else (at, 1, game_id, seat)
        yield StoredChange(key, player_id, (values[0], values[1], values[2], values[3]))


def stored_ratings() -> Iterator[Rating]:
    return Rating.objects.iterator(chunk_size=5000)
