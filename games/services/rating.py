"""Rating games: the games' side. A finished ranked game is rated exactly once, in the order
games ended; a voided game's ratings are rolled back; a season ends (its games all rated
first) and the next opens with its reset exactly once.

Games own the game rows, so this is where they are locked and read: the game under its
`LockedGame` lock, checked (ranked, finished, not rated yet), its players' earlier games that
still wait for their rating rated first, then its result handed to ratings as plain data
(ratings/results.py), `rated_at` set and the `rated` event appended. Ratings only keep their
own rows (ratings/services.py). Every transaction here takes the ratings lock before any game
row, so rating transactions queue on it and never wait on each other's game rows.
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games import notify
from games.locks import LockedGame
from games.models import Game, GameStatus, Pool
from games.selectors import cpu_seat_result, fixed_seats, pending_games, pending_games_before
from ratings.locks import ratings_lock
from ratings.results import GameResult, SeasonStart, SeatResult
from ratings.services import cpu_players, game_ratings_apply, game_ratings_undo
from seasons.locks import locked_season
from seasons.models import Season
from seasons.selectors import season_calendar, season_starts
from seasons.services import season_close, season_current

# Rating a finished game ------------------------------------------------------------------


@transaction.atomic
def game_rate(*, game_id: UUID | str) -> bool:
    """Rate a finished ranked game, exactly once. False (and nothing written) when the game is
    unknown, unranked, not finished (voided, say) or already rated.

    Its players' earlier finished games that still wait for their rating (a task delayed or
    redelivered) are rated first, so that every player's games count in the order they ended:
    the order `recompute_ratings` replays them in.
    """
    ratings_lock()
    locked = LockedGame.try_lock(game_id)
    if locked is None or not _ratable(locked.game):
        return False
    finished_at = locked.game.finished_at
    assert finished_at is not None  # _ratable
    calendar = season_calendar()
    current = calendar.current or season_current(since=finished_at)
    if finished_at >= current.ends_at:
        # The game is the next season's: the season it ended after closes first.
        seasons_roll_over()
        calendar = season_calendar()
    _rate_after_pending(locked, calendar.starts)
    return True


def _ratable(game: Game) -> bool:
    return (
        game.ranked
        and game.rated
        and game.status == GameStatus.FINISHED
        and game.finished_at is not None
        and game.rated_at is None
        and game.voided_at is None
    )


def _rate_after_pending(locked: LockedGame, starts: list[SeasonStart]) -> None:
    result = _result(locked)
    # A ladder game's CPU seats are fixed anchors: no earlier game of theirs counts first.
    levels = [
        seat.cpu_level
        for seat in locked.seats
        if seat.is_cpu and seat.cpu_level and locked.game.pool != Pool.BOTS
    ]
    for earlier in pending_games_before(
        result.finished_at, [seat.player_id for seat in result.seats], levels
    ):
        earlier_locked = LockedGame.try_lock(earlier)
        # Rating one earlier game may have rated another on the list (through a shared player).
        if earlier_locked is not None and _ratable(earlier_locked.game):
            _rate_after_pending(earlier_locked, starts)
    _rate(locked, result, starts)


def _result(locked: LockedGame) -> GameResult:
    """The game's result as ratings take it: each seat as its player (a seat its player left
    and the CPU finished still counts for them), a CPU seat as its level's player (on the bots'
    ladder a fixed anchor at the level's calibrated start: docs/api.md, The bot ladder)."""
    finished_at = locked.game.finished_at
    assert finished_at is not None  # _ratable
    cpus = cpu_players(seat.cpu_level for seat in locked.seats if seat.is_cpu and seat.cpu_level)
    seats = []
    for seat in locked.seats:
        if seat.place is None:
            continue
        if seat.player_id is not None:
            seats.append(SeatResult(seat.player_id, seat.seat, seat.place))
        elif seat.is_cpu and seat.cpu_level:
            cpu = cpus[seat.cpu_level].pk
            seats.append(
                cpu_seat_result(cpu, seat.seat, seat.place, seat.cpu_level, locked.game.pool)
            )
    return GameResult(locked.game.pk, finished_at, seats)


def _rate(locked: LockedGame, result: GameResult, starts: list[SeasonStart]) -> None:
    locked.game.rated_at = timezone.now()
    locked.save("rated_at")
    ratings = game_ratings_apply(result=result, starts=starts, fixed_seats=fixed_seats)
    if not ratings:
        return  # nobody to compare: the game is done with, and nobody's rating moves
    locked.append("rated", ratings=ratings)
    notify.game_changed(locked.game.pk)


def games_rate_pending(*, ended_before: datetime | None = None, limit: int | None = None) -> int:
    """Rate the pending games (those that ended before `ended_before`, the first `limit` of
    them), oldest first, each in its own transaction; how many were rated."""
    games = pending_games()
    if ended_before is not None:
        games = games.filter(finished_at__lt=ended_before)
    ids = games.order_by("finished_at", "id").values_list("id", flat=True)
    return sum(game_rate(game_id=game_id) for game_id in list(ids[:limit]))


# Rolling back a voided game --------------------------------------------------------------


@transaction.atomic
def game_unrate(*, game_id: UUID | str) -> bool:
    """Undo the ratings of a voided game (ratings/services.py replays the later games). False
    (nothing done) unless the game is voided and still has rating changes, so running it
    again does nothing."""
    ratings_lock()
    locked = LockedGame.try_lock(game_id)
    if locked is None or locked.game.voided_at is None:
        return False
    return game_ratings_undo(
        game_id=locked.game.pk, starts=season_starts(), fixed_seats=fixed_seats
    )


# Seasons -----------------------------------------------------------------------------------


@transaction.atomic
def seasons_roll_over(*, now: datetime | None = None) -> Season | None:
    """Close the current season if its end has passed and open the next (seasons/services.py):
    the next season, or None when the current one has not ended. Exactly once: under the
    ratings lock, a second run (two beats, a redelivered task) finds the next season current
    and does nothing, and a run that dies midway rolls back whole.

    Every game that ended before the season's end and still waits for its rating is rated
    first, and no game that ended after it is rated before it closes (`game_rate` closes it
    first), so the reset sits between the two seasons' games, as recompute_ratings replays it."""
    ratings_lock()
    now = now or timezone.now()
    season = locked_season(season_current(now=now).number)
    if season.ends_at > now:
        return None
    games_rate_pending(ended_before=season.ends_at)
    return season_close(season, now=now)
