"""Reads about ratings, from ratings' own rows: players' current ratings, histories, the
leaderboard, and the stored rating changes that recompute_ratings checks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts.models import Player
from ratings.models import Rating, RatingChange
from ratings.payloads import RatingData, player_rating


def player_ratings(player_ids: Iterable[UUID | str]) -> dict[UUID, RatingData]:
    """The current ratings of many players in one query (matchmaking pairs by `ordinal`).
    Unknown ids are left out; a player with no rated game has the defaults."""
    players = Player.objects.filter(pk__in=list(player_ids)).select_related("rating")
    return {player.pk: player_rating(player) for player in players}


def cpu_player_ids() -> dict[str, UUID]:
    """The CPU levels' rated players that exist so far, by level."""
    rows = Player.objects.filter(cpu_level__isnull=False).values_list("cpu_level", "pk")
    return {level: pk for level, pk in rows if level is not None}


def cpu_ratings() -> dict[str, float]:
    """The ordinals of the CPU levels that have a rating, by level."""
    rows = Rating.objects.filter(player__cpu_level__isnull=False).values_list(
        "player__cpu_level", "ordinal"
    )
    return {level: ordinal for level, ordinal in rows if level is not None}


def _not_banned() -> Q:
    now = timezone.now()
    banned = Q(player__banned_at__isnull=False) & (
        Q(player__banned_until__isnull=True) | Q(player__banned_until__gt=now)
    )
    return ~banned


def _listed() -> QuerySet[Rating]:
    """Who the leaderboard lists (after lichess): not banned, at least
    YANIV_LEADERBOARD_MIN_GAMES rated games, one of them in the last
    YANIV_LEADERBOARD_ACTIVE_DAYS days."""
    recent = timezone.now() - timedelta(days=settings.YANIV_LEADERBOARD_ACTIVE_DAYS)
    active = RatingChange.objects.filter(player=OuterRef("player"), at__gte=recent)
    return Rating.objects.filter(
        _not_banned(), Exists(active), games__gte=settings.YANIV_LEADERBOARD_MIN_GAMES
    )


def leaderboard() -> QuerySet[Rating]:
    """Every eligible player (`_listed`), highest ordinal first (the index's order).

    Provisional players are listed too, flagged: the ordinal already takes three sigmas off a
    new player's mu, so they rank only as high as the evidence puts them.
    """
    return _listed().select_related("player").order_by("-ordinal", "player_id")


def leaderboard_rank(rating: Rating) -> int:
    """Standard competition rank: 1 + the number of listed players with a higher ordinal."""
    return 1 + _listed().filter(ordinal__gt=rating.ordinal).count()


def player_rating_history(player: Player) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(player=player).order_by("at", "game_id")


# What recompute_ratings checks ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredChange:
    key: tuple[datetime, UUID, int]  # (at, game id, seat): the order games are rated in
    player_id: UUID
    values: tuple[float, float, float, float]  # mu and sigma before, mu and sigma after


def stored_changes() -> Iterator[StoredChange]:
    """Every stored rating change, in the order games are rated in (then by seat)."""
    rows = RatingChange.objects.order_by("at", "game_id", "seat").values_list(
        "at", "game_id", "seat", "player_id", "mu_before", "sigma_before", "mu", "sigma"
    )
    for at, game_id, seat, player_id, mu_before, sigma_before, mu, sigma in rows.iterator(
        chunk_size=5000
    ):
        yield StoredChange((at, game_id, seat), player_id, (mu_before, sigma_before, mu, sigma))


def stored_ratings() -> Iterator[Rating]:
    return Rating.objects.iterator(chunk_size=5000)
