"""Every write to ratings: rate a finished game's result, roll back a voided game's ratings,
store a rebuild. Ratings work from what games hand them (ratings/results.py) and from their
own rows: they never read or lock a game row (games/services/rating.py does that, and
calls these). All of them run under the one right to write ratings (ratings/locks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from uuid import UUID

from django.db import connection, transaction
from django.db.models import Model, Q
from psycopg import sql

from accounts.models import Player
from ratings.cpu import cpu_display_name
from ratings.locks import ratings_lock
from ratings.models import Rating, RatingChange
from ratings.payloads import RatedData
from ratings.rating import Skill, rate
from ratings.rebuild import Replay
from ratings.results import GameResult

_BATCH = 10_000


# Rating a finished game ------------------------------------------------------------------


# No savepoint (here and in game_ratings_undo): a failure rolls the caller's whole transaction
# back anyway.
@transaction.atomic(savepoint=False)
def game_ratings_apply(*, result: GameResult) -> list[RatedData]:
    """Rate one finished game from its players' current ratings: store their new ratings and
    the game's rating changes, and answer what the game's `rated` event lists. With fewer
    than two rated players nobody's rating moves: nothing is stored, and the answer is empty.

    The caller rates each game once, in the order the games ended (games/services/rating.py)."""
    ratings_lock()
    seats = result.seats
    if len(seats) < 2:
        return []
    current = {
        rating.player_id: rating
        for rating in Rating.objects.filter(player_id__in=[seat.player_id for seat in seats])
    }
    before = [_skill(current.get(seat.player_id), seat.start) for seat in seats]
    after = rate(before, [seat.place for seat in seats])
    games = [current[s.player_id].games if s.player_id in current else 0 for s in seats]
    _store_ratings(
        (seat.player_id, skill, played + 1)
        for seat, skill, played in zip(seats, after, games, strict=True)
    )
    RatingChange.objects.bulk_create(
        RatingChange(
            player_id=seat.player_id,
            game_id=result.game_id,
            seat=seat.seat,
            place=seat.place,
            at=result.finished_at,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu=new.mu,
            sigma=new.sigma,
        )
        for seat, old, new in zip(seats, before, after, strict=True)
    )
    return [
        {
            "seat": seat.seat,
            "player_id": str(seat.player_id),
            "mu": new.mu,
            "sigma": new.sigma,
            "ordinal": new.ordinal,
            "delta": new.ordinal - old.ordinal,
        }
        for seat, old, new in zip(seats, before, after, strict=True)
    ]


def _skill(rating: Rating | None, start: Skill) -> Skill:
    return start if rating is None else Skill(rating.mu, rating.sigma)


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


# The CPU levels' players --------------------------------------------------------------


def cpu_players(levels: Iterable[str]) -> dict[str, Player]:
    """The rated player of each CPU level, created the first time a level is rated (under the
    ratings lock, so two games never create one twice). Created on first use rather than by a
    migration: nothing then depends on rows a database flush (or a new level) lacks."""
    ratings_lock()
    wanted = set(levels)
    players = {p.cpu_level: p for p in Player.objects.filter(cpu_level__in=wanted)}
    for level in sorted(wanted - players.keys()):
        player = Player(cpu_level=level, display_name=cpu_display_name(level), is_guest=False)
        player.set_unusable_password()
        player.save()
        players[level] = player
    return {level: player for level, player in players.items() if level is not None}


# Rolling back a voided game --------------------------------------------------------------


@transaction.atomic(savepoint=False)
def game_ratings_undo(*, game_id: UUID) -> bool:
    """Undo the ratings of a voided game, from the rating changes it left. False (nothing
    done) when it has none (never rated, or rolled back already), so running it again does
    nothing. Whether the game is voided is for the caller (games/services/rating.py) to say.

    The game's changes are removed, and every later rated game whose players' ratings this
    alters is rated again, in order, from the corrected ratings: exactly what rating the games
    without the voided one would have given (recompute_ratings agrees). Games that involve
    none of the players touched so far keep their stored changes, so a recent void replays
    only a few games.
    """
    ratings_lock()
    voided = list(RatingChange.objects.filter(game_id=game_id))
    if not voided:
        return False
    # The skill each touched player had after the last game replayed so far.
    skills = {change.player_id: Skill(change.mu_before, change.sigma_before) for change in voided}
    lost_game = {change.player_id for change in voided}
    position = (voided[0].at, voided[0].game_id)
    RatingChange.objects.filter(game_id=game_id).delete()
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
def ratings_rebuild(
    *, games: Iterable[GameResult], progress: Callable[[int], None] | None = None
) -> Replay:
    """Replace every rating change and rating by a replay of these games: every rated game,
    in the order they ended (games/services/rating.py's `rated_results`)."""
    ratings_lock()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    replay = Replay()
    batch: list[tuple[object, ...]] = []
    for game in replay.run(games, progress):
        result = game.result
        batch.extend(
            (seat.player_id, result.game_id, seat.seat, seat.place, result.finished_at, *old, *new)
            for seat, old, new in zip(result.seats, game.before, game.after, strict=True)
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
