"""Every write to ratings: rate a finished ranked game, roll back a voided one, store a rebuild.

All of them run under one PostgreSQL advisory lock (`ratings_lock`), so rating writes happen
one at a time: a game is rated from its players' current ratings, and two games that share a
player must not both read the same "before". Rating a game takes milliseconds and games last
minutes, so one writer at a time is far from any limit, and it makes a void's replay of later
games and a rebuild safe against a game being rated meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Model, Q
from django.utils import timezone
from psycopg import sql

from games import notify
from games.models import Event, Game, GameStatus, Seat
from ratings.models import Rating, RatingChange
from ratings.rating import DEFAULT, Skill, rate
from ratings.rebuild import Replay

# Any fixed number: the key of the advisory lock that every rating write takes.
_RATINGS_LOCK = 0x7961_6E69_765F_7274
_BATCH = 10_000


def ratings_lock() -> None:
    """Wait for, then hold until the commit, the one right to write ratings."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_RATINGS_LOCK])


def _lock_game(game_id: UUID | str) -> Game | None:
    try:
        return Game.objects.select_for_update().filter(pk=game_id).first()
    except (ValueError, ValidationError):
        return None


@dataclass(frozen=True)
class Result:
    """A rated player's seat and place in one game."""

    player_id: UUID
    seat: int
    place: int


def _results(game: Game) -> list[Result]:
    """The players to rate: CPU seats are left out, and the humans' places keep their order."""
    return [
        Result(seat.player_id, seat.seat, seat.place)
        for seat in Seat.objects.filter(game=game).order_by("seat")
        if seat.player_id is not None and seat.place is not None
    ]


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
    game = _lock_game(game_id)
    if game is None or not _ratable(game):
        return False
    _rate_after_pending(game)
    return True


def _ratable(game: Game) -> bool:
    return (
        game.ranked
        and game.status == GameStatus.FINISHED
        and game.finished_at is not None
        and game.rated_at is None
    )


def _rate_after_pending(game: Game) -> None:
    results = _results(game)
    assert game.finished_at is not None
    for earlier in _pending_before(game.finished_at, [result.player_id for result in results]):
        locked = _lock_game(earlier)
        # Rating one earlier game may have rated another on the list (through a shared player).
        if locked is not None and _ratable(locked):
            _rate_after_pending(locked)
    _rate(game, results)


def _pending_before(finished_at: datetime, player_ids: Sequence[UUID]) -> list[UUID]:
    """Finished ranked games of these players that ended earlier and are not rated yet."""
    seats = Seat.objects.filter(
        player_id__in=player_ids,
        game__ranked=True,
        game__status=GameStatus.FINISHED,
        game__rated_at__isnull=True,
        game__finished_at__lt=finished_at,
    )
    return list(
        seats.order_by("game__finished_at", "game_id").values_list("game_id", flat=True).distinct()
    )


def _rate(game: Game, results: list[Result]) -> None:
    assert game.finished_at is not None
    game.rated_at = timezone.now()
    game.save(update_fields=["rated_at"])
    if len(results) < 2:
        return  # nobody to compare: the game is done with, and nobody's rating moves
    current = {
        rating.player_id: rating
        for rating in Rating.objects.filter(player_id__in=[r.player_id for r in results])
    }
    before = [_skill(current.get(result.player_id)) for result in results]
    after = rate(before, [result.place for result in results])
    games = [current[r.player_id].games if r.player_id in current else 0 for r in results]
    _store_ratings(
        (result.player_id, skill, played + 1)
        for result, skill, played in zip(results, after, games, strict=True)
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            player_id=result.player_id,
            game=game,
            seat=result.seat,
            place=result.place,
            at=game.finished_at,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu=new.mu,
            sigma=new.sigma,
        )
        for result, old, new in zip(results, before, after, strict=True)
    )
    Event.objects.create(
        game=game, seq=game.seq, type="rated", payload=_rated_payload(results, before, after)
    )
    notify.game_changed(game.pk)


def _skill(rating: Rating | None) -> Skill:
    return DEFAULT if rating is None else Skill(rating.mu, rating.sigma)


def _store_ratings(rows: Iterable[tuple[UUID, Skill, int]]) -> None:
    """Insert or overwrite the rating rows of (player id, skill, rated games)."""
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=player_id,
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                games=games,
            )
            for player_id, skill, games in rows
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "ordinal", "games"],
    )


def _rated_payload(
    results: list[Result], before: list[Skill], after: list[Skill]
) -> dict[str, Any]:
    # `delta` is the change of the ordinal: the number a leaderboard moves by.
    return {
        "ratings": [
            {
                "seat": result.seat,
                "player_id": str(result.player_id),
                "mu": new.mu,
                "sigma": new.sigma,
                "ordinal": new.ordinal,
                "delta": new.ordinal - old.ordinal,
            }
            for result, old, new in zip(results, before, after, strict=True)
        ]
    }


# Rolling back a voided game --------------------------------------------------------------


@transaction.atomic
def game_unrate(*, game_id: UUID | str) -> bool:
    """Undo the ratings of a voided game. False (nothing done) unless the game is voided and
    still has rating changes, so running it again does nothing.

    The game's changes are removed, and every later rated game whose players' ratings this
    alters is rated again, in order, from the corrected ratings: exactly what rating the games
    without the voided one would have given (recompute_ratings agrees). Games that involve
    none of the players touched so far keep their stored changes, so a recent void replays
    only a few games.
    """
    ratings_lock()
    game = _lock_game(game_id)
    if game is None or game.status != GameStatus.ABORTED:
        return False
    voided = list(RatingChange.objects.filter(game=game))
    if not voided:
        return False
    # The skill each touched player had after the last game replayed so far.
    skills = {change.player_id: Skill(change.mu_before, change.sigma_before) for change in voided}
    lost_game = {change.player_id for change in voided}
    position = (voided[0].at, voided[0].game_id)
    RatingChange.objects.filter(game=game).delete()
    for changes in _games_after(*position):
        if not any(change.player_id in skills for change in changes):
            continue
        before = [skills.get(c.player_id, Skill(c.mu_before, c.sigma_before)) for c in changes]
        after = rate(before, [change.place for change in changes])
        for change, old, new in zip(changes, before, after, strict=True):
            change.mu_before, change.sigma_before = old.mu, old.sigma
            change.mu, change.sigma = new.mu, new.sigma
            skills[change.player_id] = new
        RatingChange.objects.bulk_update(changes, ["mu_before", "sigma_before", "mu", "sigma"])
    _store_after_unrate(skills, lost_game)
    return True


def _games_after(at: datetime, game_id: UUID) -> Iterable[list[RatingChange]]:
    """The rating changes of the games rated after this position, a list per game, in order."""
    later = RatingChange.objects.filter(Q(at__gt=at) | Q(at=at, game_id__gt=game_id)).order_by(
        "at", "game_id", "seat"
    )
    changes: list[RatingChange] = []
    for change in later.iterator(chunk_size=2000):
        if changes and changes[0].game_id != change.game_id:
            yield changes
            changes = []
        changes.append(change)
    if changes:
        yield changes


def _store_after_unrate(skills: dict[UUID, Skill], lost_game: set[UUID]) -> None:
    current = {r.player_id: r.games for r in Rating.objects.filter(player_id__in=list(skills))}
    games = {
        player_id: current.get(player_id, 0) - (player_id in lost_game) for player_id in skills
    }
    # A player whose only rated game was voided is back to having no rating at all.
    gone = [player_id for player_id, played in games.items() if played <= 0]
    Rating.objects.filter(player_id__in=gone).delete()
    _store_ratings(
        (player_id, skill, games[player_id])
        for player_id, skill in skills.items()
        if games[player_id] > 0
    )


# Rebuilding everything -------------------------------------------------------------------


@transaction.atomic
def ratings_rebuild(*, progress: Callable[[int], None] | None = None) -> Replay:
    """Replace every rating change and rating by a replay of the rated games, in order."""
    ratings_lock()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    replay = Replay()
    batch: list[tuple[object, ...]] = []
    for game in replay.run(progress):
        batch.extend(
            (seat.player_id, seat.game_id, seat.seat, seat.place, seat.at, *old, *new)
            for seat, old, new in zip(game.seats, game.before, game.after, strict=True)
        )
        if len(batch) >= _BATCH:
            _copy(RatingChange, _CHANGE_COLUMNS, batch)
            batch = []
    _copy(RatingChange, _CHANGE_COLUMNS, batch)
    _copy(
        Rating,
        ("player_id", "mu", "sigma", "ordinal", "games"),
        (
            (player_id, skill.mu, skill.sigma, skill.ordinal, replay.games[player_id])
            for player_id, skill in replay.skills.items()
        ),
    )
    return replay


_CHANGE_COLUMNS = (
    "player_id",
    "game_id",
    "seat",
    "place",
    "at",
    "mu_before",
    "sigma_before",
    "mu",
    "sigma",
)


def _copy(model: type[Model], columns: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """Insert rows with COPY: a rebuild writes hundreds of thousands of them, and COPY is many
    times faster than INSERT (bulk_create) for that."""
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(model._meta.db_table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
