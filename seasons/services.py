"""Every write to seasons: the current season (the first made on first use), closing a season
(its standings frozen, the next opened with ratings' soft reset), and staff's changes.

Closing a season is the second half of the rollover: games/services/rating.py holds the
ratings lock, rates every game that ended before the season's end, and then calls
`season_close`, so the reset lands after every game of the old season and before any of the
new one (ratings/services.py refuses it otherwise).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import BooleanField, ExpressionWrapper, F, Min, Q, Window
from django.db.models.functions import Rank
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from ratings.locks import ratings_lock
from ratings.models import Rating, RatingChange
from ratings.results import SeasonStart
from ratings.selectors import banned_players, bot_players, shown_ordinal, shown_sigma
from ratings.services import ratings_season_reset
from seasons.locks import locked_season
from seasons.models import Season, SeasonStanding, SeasonStatus
from seasons.payloads import LAST_TIER, tier_cutoffs


def season_current(*, now: datetime | None = None, since: datetime | None = None) -> Season:
    """The current season. The first is made on first use (as the CPU levels' players are:
    nothing depends on a row a flushed database lacks), starting at the earliest of now, the
    first rated game, and `since` (a game about to be rated), so that every rated game so far is
    the first season's."""
    season = Season.objects.filter(status=SeasonStatus.CURRENT).first()
    if season is not None:
        return season
    now = now or timezone.now()
    first = RatingChange.objects.aggregate(first=Min("at"))["first"]
    starts_at = min(at for at in (now, first, since) if at is not None)
    try:
        with transaction.atomic():
            return Season.objects.create(
                number=1,
                name="Season 1",
                starts_at=starts_at,
                ends_at=now + timedelta(days=settings.YANIV_SEASON_DAYS),
            )
    except IntegrityError:
        # Made meanwhile by another request (the number and "one current" are unique).
        return Season.objects.get(status=SeasonStatus.CURRENT)


def season_close(season: Season, *, now: datetime) -> Season:
    """Close the current `season` at its `ends_at` (past): freeze its standings, open the next,
    and reset every rated player's sigma at its start (not a bot's: bots stand outside
    seasons). The next season, which the caller
    (games/services/rating.py `seasons_roll_over`, under the ratings lock, every game of the
    season rated) gets back."""
    ratings_lock()
    end = season.ends_at
    _freeze(season, end)
    season.status = SeasonStatus.FINISHED
    season.placement_games = settings.YANIV_SEASON_PLACEMENT_GAMES
    season.save(update_fields=["status", "placement_games"])
    number = season.number + 1
    bump = settings.YANIV_SEASON_SIGMA_BUMP
    following = Season.objects.create(
        number=number,
        name=f"Season {number}",
        starts_at=end,
        ends_at=max(end, now) + timedelta(days=settings.YANIV_SEASON_DAYS),
        sigma_bump=bump,
    )
    ratings_season_reset(start=SeasonStart(number, end, bump))
    return following


def _freeze(season: Season, end: datetime) -> None:
    """A standing per player (not a bot: bots rate on their ladder) with a rated game in the
    season: their rating aged to its end, and for the placed (YANIV_SEASON_PLACEMENT_GAMES
    games, not banned) a rank, standard competition ranking by that ordinal (equal ordinals
    share it), and a tier.

    One statement: a season's end writes a row per player who played, and through Python that
    is seconds of loading and encoding rows. The ageing is ratings' own SQL (`shown_sigma`,
    `shown_ordinal`: Python's arithmetic, the same doubles) and the tiers' cut-offs are
    `tier_cutoffs`', so the board says what the live one would have said at the end."""
    day = end.astimezone(UTC).date()
    banned = banned_players(end).values("pk")
    # Bots' ratings are their ladder's, not the season's (docs/api.md, Leaderboard).
    people = Rating.objects.exclude(player_id__in=bot_players().values("pk"))
    played = people.filter(season_games__gt=0).annotate(
        placed=ExpressionWrapper(
            Q(season_games__gte=settings.YANIV_SEASON_PLACEMENT_GAMES) & ~Q(player_id__in=banned),
            output_field=BooleanField(),
        ),
        shown_sigma=shown_sigma(day),
        shown_ordinal=shown_ordinal(day),
    )
    ranked = played.annotate(
        position=Window(Rank(), partition_by=[F("placed")], order_by=F("shown_ordinal").desc())
    ).values(
        "player_id", "season_games", "mu", "shown_sigma", "shown_ordinal", "placed", "position"
    )
    select, params = ranked.query.sql_with_params()
    cutoffs = tier_cutoffs(played.filter(placed=True).count())
    tiers = " ".join("WHEN position <= %s THEN %s" for _ in cutoffs)
    columns = "season_id, player_id, games, mu, sigma, ordinal, rank, tier"
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {SeasonStanding._meta.db_table} ({columns}) "  # noqa: S608
            "SELECT %s, player_id, season_games, mu, shown_sigma, shown_ordinal, "
            "CASE WHEN placed THEN position END, "
            f"CASE WHEN NOT placed THEN '' {tiers} ELSE %s END FROM ({select}) AS played",
            [
                season.number,
                *[value for name, rank in cutoffs for value in (rank, name)],
                LAST_TIER,
                *params,
            ],
        )


# Staff's changes (the admin) -------------------------------------------------------------


@transaction.atomic
def season_update(season: Season, *, name: str, ends_at: datetime) -> Season:
    """Rename a season, or move the current one's end (to a time still ahead: to end it now,
    `season_end_now`). Under the ratings lock, so that no game is being rated against the end
    it had."""
    ratings_lock()
    locked = locked_season(season.number)
    if ends_at != locked.ends_at:
        season_end_check(locked, ends_at)
    locked.name, locked.ends_at = name, ends_at
    locked.save(update_fields=["name", "ends_at"])
    return locked


def season_end_check(season: Season, ends_at: datetime | None) -> None:
    """Refuse a new end for `season` unless it is the current one's, and ahead."""
    if season.status != SeasonStatus.CURRENT:
        raise ApplicationError("finished", _("A finished season's end cannot move."), 409)
    if ends_at is None or ends_at <= timezone.now():
        raise ApplicationError(
            "invalid", _("The end must be ahead; to end the season now, use End now."), 400
        )


@transaction.atomic
def season_end_now(season: Season, *, now: datetime | None = None) -> Season:
    """End the current season now: its end becomes this instant, and the rollover (the beat's,
    or the rating of the next game that ends) closes it and opens the next."""
    ratings_lock()
    locked = locked_season(season.number)
    if locked.status != SeasonStatus.CURRENT:
        raise ApplicationError("finished", _("The season has ended already."), 409)
    locked.ends_at = max(now or timezone.now(), locked.starts_at + timedelta(microseconds=1))
    locked.save(update_fields=["ends_at"])
    return locked
