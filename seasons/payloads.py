"""What seasons put in payloads: a `season`, a season leaderboard's row, a player's season, and
the tiers (docs/api.md, Seasons)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, TypedDict

from django.conf import settings

from core.payloads import Doc, Timestamp
from ratings.payloads import PlayerData
from seasons.models import Season, SeasonStatus

# A placed player's tier, by their rank among the season's placed players: the best of these
# whose share of the board (rounded up, so every season has a first tier) holds their rank;
# every other placed player is "bronze".
TIERS: tuple[tuple[str, float], ...] = (
    ("legend", 0.01),
    ("master", 0.05),
    ("diamond", 0.10),
    ("gold", 0.25),
    ("silver", 0.50),
)
LAST_TIER = "bronze"


def tier_cutoffs(placed: int) -> list[tuple[str, int]]:
    """Each tier but the last, with the lowest rank it holds among `placed` players."""
    return [(name, math.ceil(placed * share)) for name, share in TIERS]


def tier(rank: int, placed: int) -> str:
    """The tier of the `rank`-th of `placed` players."""
    for name, lowest in tier_cutoffs(placed):
        if rank <= lowest:
            return name
    return LAST_TIER


class SeasonData(TypedDict):
    number: int
    name: str
    starts_at: Timestamp
    ends_at: Annotated[
        Timestamp, Doc("When it ends (it may move until then: staff), or when it ended.")
    ]
    status: Annotated[str, Doc('"current" or "finished".')]
    placement_games: Annotated[int, Doc("Rated games in the season that place a player.")]


class SkillData(TypedDict):
    mu: float
    sigma: float
    ordinal: float


class SeasonStandingData(TypedDict):
    """A row of a season's leaderboard."""

    rank: int
    player: PlayerData
    rating: Annotated[SkillData, Doc("Now (the current season), or at the season's end.")]
    games: Annotated[int, Doc("Rated games in the season.")]


def season_data(season: Season) -> SeasonData:
    placement = season.placement_games
    if season.status == SeasonStatus.CURRENT or placement is None:
        placement = settings.YANIV_SEASON_PLACEMENT_GAMES
    return {
        "number": season.number,
        "name": season.name,
        "starts_at": season.starts_at.isoformat(),
        "ends_at": season.ends_at.isoformat(),
        "status": season.status,
        "placement_games": placement,
    }


class PlayerSeasonData(TypedDict):
    """Where a player stood in one season they played a rated game in."""

    season: SeasonData
    games: Annotated[int, Doc("Their rated games in the season.")]
    placed: Annotated[bool, Doc("Whether they were placed (enough games, not banned).")]
    rank: Annotated[int | None, Doc("Their rank among the placed (now, for the current season).")]
    rating: Annotated[SkillData, Doc("Their rating at the season's end (now, for the current).")]
    tier: Annotated[
        str | None,
        Doc(
            '"legend" (top 1%), "master" (5%), "diamond" (10%), "gold" (25%), "silver" '
            '(50%), "bronze" (the other placed players); null when not placed.'
        ),
    ]
    placed_players: Annotated[int, Doc("How many players the season placed (so far).")]


@dataclass(frozen=True, slots=True)
class PlayerSeason:
    """Where a player stood in one season: frozen at its end, or now for the current one."""

    season: Season
    games: int
    mu: float
    sigma: float
    ordinal: float
    rank: int | None
    tier: str | None
    placed_players: int


def skill_data(mu: float, sigma: float, ordinal: float) -> SkillData:
    return {"mu": mu, "sigma": sigma, "ordinal": ordinal}


def player_season_data(row: PlayerSeason) -> PlayerSeasonData:
    return {
        "season": season_data(row.season),
        "games": row.games,
        "placed": row.rank is not None,
        "rank": row.rank,
        "rating": skill_data(row.mu, row.sigma, row.ordinal),
        "tier": row.tier,
        "placed_players": row.placed_players,
    }
