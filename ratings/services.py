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
from ratings.payloads import RatedData, aged_from, shown_skill
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

    The caller rates each game once, in the order the games ended (games/services/rating.py).
    Each player's prior is their rating aged to the game's end (ratings/rating.py `aged`): the
    days between their previous rated game and this one widen its sigma."""
    ratings_lock()
    seats = result.seats
    if len(seats) < 2:
        return []
    current = {
        rating.player_id: rating
        for rating in Rating.objects.filter(player_id__in=[seat.player_id for seat in seats])
    }
    before = [_prior(current.get(seat.player_id), seat.start, result.finished_at) for seat in seats]
    after = rate(before, [seat.place for seat in seats])
    games = [current[s.player_id].games if s.player_id in current else 0 for s in seats]
    # The latest end of a rated game, even when a game that ended earlier is rated later.
    last = [
        max(current[s.player_id].last_game_at, result.finished_at)
        if s.player_id in current
        else result.finished_at
        for s in seats
    ]
    _store_ratings(
        (seat.player_id, skill, played + 1, at)
        for seat, skill, played, at in zip(seats, after, games, last, strict=True)
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


def _prior(rating: Rating | None, start: Skill, at: datetime) -> Skill:
    return start if rating is None else shown_skill(rating, at)


def _aged(skill: Skill, last_game_at: datetime | None, at: datetime) -> Skill:
    """The skill a player brings to a game ending `at`, after their last one at `last_game_at`
    (None: this is their first, and they bring their start as it is)."""
    return skill if last_game_at is None else aged_from(skill, last_game_at, at)


def _store_ratings(rows: Iterable[tuple[UUID, Skill, int, datetime]]) -> None:
    """Insert or overwrite the rating rows of (player id, skill, rated games, last game's end)."""
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=player_id,
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                games=games,
                last_game_at=last_game_at,
            )
            for player_id, skill, games, last_game_at in rows
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "ordinal", "games", "last_game_at"],
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
    only a few games. A touched player's prior in a replayed game is aged from their game
    before it, as when it was first rated.
    """
    ratings_lock()
    voided = list(RatingChange.objects.filter(game_id=game_id))
    if not voided:
        return False
    position = (voided[0].at, voided[0].game_id)
    # The skill each touched player had after the last game replayed so far, and that game's
    # end: before the voided game, what their previous change left (a change's "before" is
    # already aged), or for a first game their start as it was, with no game to age from.
    skills: dict[UUID, Skill] = {}
    last: dict[UUID, datetime | None] = {}
    for change in voided:
        previous = _change_before(change.player_id, *position)
        if previous is None:
            skills[change.player_id] = Skill(change.mu_before, change.sigma_before)
            last[change.player_id] = None
        else:
            skills[change.player_id] = Skill(previous.mu, previous.sigma)
            last[change.player_id] = previous.at
    lost_game = set(skills)
    RatingChange.objects.filter(game_id=game_id).delete()
    for changes in _games_after(*position):
        if not any(change.player_id in skills for change in changes):
            continue
        before = [
            _aged(skills[c.player_id], last[c.player_id], c.at)
            if c.player_id in skills
            else Skill(c.mu_before, c.sigma_before)
            for c in changes
        ]
        after = rate(before, [change.place for change in changes])
        for change, old, new in zip(changes, before, after, strict=True):
            change.mu_before, change.sigma_before = old.mu, old.sigma
            change.mu, change.sigma = new.mu, new.sigma
            skills[change.player_id] = new
            last[change.player_id] = change.at
        RatingChange.objects.bulk_update(changes, ["mu_before", "sigma_before", "mu", "sigma"])
    _store_after_unrate(skills, last, lost_game)
    return True


def _change_before(player_id: UUID, at: datetime, game_id: UUID) -> RatingChange | None:
    """The player's latest rating change before this position in the rating order."""
    earlier = RatingChange.objects.filter(
        Q(at__lt=at) | Q(at=at, game_id__lt=game_id), player_id=player_id
    )
    return earlier.order_by("-at", "-game_id").first()


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


def _store_after_unrate(
    skills: dict[UUID, Skill], last: dict[UUID, datetime | None], lost_game: set[UUID]
) -> None:
    current = {r.player_id: r.games for r in Rating.objects.filter(player_id__in=list(skills))}
    games = {
        player_id: current.get(player_id, 0) - (player_id in lost_game) for player_id in skills
    }
    # A player whose only rated game was voided is back to having no rating at all.
    gone = [player_id for player_id, played in games.items() if played <= 0]
    Rating.objects.filter(player_id__in=gone).delete()
    # A player left with rated games has a change, so a last game's end (never None).
    _store_ratings(
        (player_id, skill, games[player_id], at)
        for player_id, skill in skills.items()
        if games[player_id] > 0 and (at := last[player_id]) is not None
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
        ("player_id", "mu", "sigma", "ordinal", "games", "last_game_at"),
        (
            (
                player_id,
                skill.mu,
                skill.sigma,
                skill.ordinal,
                replay.games[player_id],
                replay.last_game_at[player_id],
            )
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
