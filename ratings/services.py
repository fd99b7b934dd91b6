"""Every write to ratings: rate a finished game's result, roll back a voided game's ratings,
store a rebuild. Ratings work from what games hand them (ratings/results.py) and from their
own rows: they never read or lock a game row (games/services/rating.py does that, and
calls these). All of them run under the one right to write ratings (ratings/locks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from django.db import connection, transaction
from django.db.models import Count, F, Q

from accounts.models import Player
from core.copy import copy_rows, insert_rows
from ratings.cpu import cpu_display_name
from ratings.locks import ratings_lock
from ratings.models import ChangeKind, Rating, RatingChange
from ratings.payloads import RatedData, aged_from, shown_skill
from ratings.rating import DEFAULT, Skill, rate, reset
from ratings.rebuild import Replay, ResetReplayed, replayed_rows
from ratings.results import FixedSeats, GameResult, SeasonStart, SeatResult, no_fixed_seats
from ratings.selectors import bot_ids

_BATCH = 10_000


# Rating a finished game ------------------------------------------------------------------


# No savepoint (here and in game_ratings_undo): a failure rolls the caller's whole transaction
# back anyway.
@transaction.atomic(savepoint=False)
def game_ratings_apply(
    *,
    result: GameResult,
    starts: Sequence[SeasonStart] = (),
    fixed_seats: FixedSeats = no_fixed_seats,
) -> list[RatedData]:
    """Rate one finished game from its players' current ratings: store their new ratings and
    the game's rating changes, and answer what the game's `rated` event lists. With fewer
    than two rated players nobody's rating moves: nothing is stored, and the answer is empty.

    The caller rates each game once, in the order the games ended (games/services/rating.py),
    and hands over every season's start (`starts`, seasons/selectors.py). Each player's prior is
    their rating aged to the game's end (ratings/rating.py `aged`): the days between their
    previous rated game and this one widen its sigma.

    A game whose place in the history is not its end (a season opened after it ended, before
    it was rated: a finish that committed just as the season turned) is put where it belongs,
    and what follows it for its players (resets, later games) is replayed, as recompute_ratings
    would.

    A game's fixed seats (the bots' ladder's CPU anchors: ratings/results.py) rate at their
    start and are left out of everything stored and answered; `fixed_seats` gives those of any
    later game such a replay rates again (their rating changes do not hold them)."""
    ratings_lock()
    seats = result.seats
    ids = [seat.player_id for seat in result.rated_seats()]
    if len(seats) < 2 or not ids:
        return []
    if _history_after(ids, result.finished_at, result.game_id, starts):
        return _apply_in_place(result, starts, fixed_seats)
    current = {rating.player_id: rating for rating in Rating.objects.filter(player_id__in=ids)}
    bots = bot_ids(ids)
    at = result.finished_at
    before = [
        seat.start if seat.fixed else _prior(current.get(seat.player_id), seat.start, at)
        for seat in seats
    ]
    moved = result.moved(before, rate(before, [seat.place for seat in seats]))
    played = [current.get(seat.player_id) for seat, _, _ in moved]
    _store_ratings(
        (
            seat.player_id,
            skill,
            (row.games if row else 0) + 1,
            # No reset after the game, so it is the current season's (a bot's is no season's).
            (row.season_games if row else 0) + int(seat.player_id not in bots),
            # The latest end of a rated game, even when a game that ended earlier is rated later.
            max(row.last_game_at, result.finished_at) if row else result.finished_at,
        )
        for (seat, _, skill), row in zip(moved, played, strict=True)
    )
    _store_game_changes(result, moved)
    return _rated(moved)


# A rated seat with its skill before and after a game.
_Moved = tuple[SeatResult, Skill, Skill]


def _store_game_changes(result: GameResult, moved: Sequence[_Moved]) -> None:
    insert_rows(RatingChange, _CHANGE_COLUMNS, [_game_row(result, *row) for row in moved])


def _rated(moved: Sequence[_Moved]) -> list[RatedData]:
    return [
        {
            "seat": seat.seat,
            "player_id": str(seat.player_id),
            "mu": new.mu,
            "sigma": new.sigma,
            "ordinal": new.ordinal,
            "delta": new.ordinal - old.ordinal,
        }
        for seat, old, new in moved
    ]


def _prior(rating: Rating | None, start: Skill, at: datetime) -> Skill:
    return start if rating is None else shown_skill(rating, at)


def _store_ratings(rows: Iterable[tuple[UUID, Skill, int, int, datetime]]) -> None:
    """Insert or overwrite the rating rows of (player id, skill, rated games, of which this
    season's, last game's end)."""
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=player_id,
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                games=games,
                season_games=season_games,
                last_game_at=last_game_at,
            )
            for player_id, skill, games, season_games, last_game_at in rows
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "ordinal", "games", "season_games", "last_game_at"],
    )


def _after(at: datetime, game_id: UUID) -> Q:
    """The rating changes after the place (at, game id) in the history (a reset at `at`
    itself comes before the games of that instant)."""
    return Q(at__gt=at) | Q(at=at, game_id__gt=game_id)


def _before(at: datetime, game_id: UUID) -> Q:
    return Q(at__lt=at) | Q(at=at, game_id__lt=game_id) | Q(at=at, game__isnull=True)


def _history_after(
    player_ids: list[UUID], at: datetime, game_id: UUID, starts: Sequence[SeasonStart]
) -> bool:
    """Whether anything of these players' history (or a season's reset) comes after the place
    (at, game id): then a game rated there must be put in its place."""
    if any(start.at > at for start in starts):
        return True
    return RatingChange.objects.filter(_after(at, game_id), player_id__in=player_ids).exists()


def _apply_in_place(
    result: GameResult, starts: Sequence[SeasonStart], fixed_seats: FixedSeats
) -> list[RatedData]:
    at, game_id = result.finished_at, result.game_id
    states = {
        seat.player_id: _state_before(seat.player_id, at, game_id, seat.start)
        for seat in result.rated_seats()
    }
    before = [
        seat.start if seat.fixed else states[seat.player_id].prior(at) for seat in result.seats
    ]
    moved = result.moved(before, rate(before, [seat.place for seat in result.seats]))
    _store_game_changes(result, moved)
    for seat, _, skill in moved:
        states[seat.player_id] = _State(skill, True, at)
    _replay_after(at, game_id, states, starts, fixed_seats)
    return _rated(moved)


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
def game_ratings_undo(
    *,
    game_id: UUID,
    starts: Sequence[SeasonStart] = (),
    fixed_seats: FixedSeats = no_fixed_seats,
) -> bool:
    """Undo the ratings of a voided game, from the rating changes it left. False (nothing
    done) when it has none (never rated, or rolled back already), so running it again does
    nothing. Whether the game is voided is for the caller (games/services/rating.py) to say.

    The game's changes are removed, and what its players' history holds after it (later
    games, and every season's reset: `starts`) is replayed, in order, from the corrected
    ratings: exactly what the history without the voided game gives (recompute_ratings
    agrees). Games that involve none of the players touched so far keep their stored changes,
    so a recent void replays only a few games. A touched player's prior in a replayed game is
    aged from their game before it, as when it was first rated, and its fixed seats (anchors)
    are `fixed_seats`' at their starts.
    """
    ratings_lock()
    voided = list(RatingChange.objects.filter(game_id=game_id))
    if not voided:
        return False
    at = voided[0].at
    # Each player's rating just before the voided game; for a first game, their start as it
    # was (the change's "before": nothing came before it to age it).
    states = {
        change.player_id: _state_before(
            change.player_id, at, game_id, Skill(change.mu_before, change.sigma_before)
        )
        for change in voided
    }
    RatingChange.objects.filter(game_id=game_id).delete()
    _replay_after(at, game_id, states, starts, fixed_seats)
    return True


@dataclass(slots=True)
class _State:
    """A player's rating at one place in the history, as a replay carries it forward."""

    skill: Skill
    rated: bool  # a rated game came before: a season's reset applies to them
    last_game_at: datetime | None  # their latest rated game's end (None: none yet)

    def prior(self, at: datetime) -> Skill:
        """The skill they bring to a game that ends `at`: aged since their last game."""
        if self.last_game_at is None:
            return self.skill
        return aged_from(self.skill, self.last_game_at, at)


def _state_before(player_id: UUID, at: datetime, game_id: UUID, start: Skill) -> _State:
    """The player's rating just before the place (at, game id) in the history: what their
    latest change before it left, or `start` when they had none."""
    earlier = RatingChange.objects.filter(_before(at, game_id), player_id=player_id)
    previous = earlier.order_by("-at", F("game_id").desc(nulls_last=True)).first()
    if previous is None:
        return _State(start, False, None)
    games = earlier.filter(kind=ChangeKind.GAME).order_by("-at", "-game_id")
    return _State(
        Skill(previous.mu, previous.sigma), True, games.values_list("at", flat=True).first()
    )


def _replay_after(
    at: datetime,
    game_id: UUID,
    states: dict[UUID, _State],
    starts: Sequence[SeasonStart],
    fixed_seats: FixedSeats,
) -> None:
    """Replay the history after the place (at, game id) for the players of `states` (their
    ratings there): every later game with one of them is rated again (its other players join
    `states` from that game on; its fixed seats, from `fixed_seats`, at their starts), every
    later season's reset recomputed for those rated by then (and removed for a player no longer
    rated then), and the touched players' ratings stored."""
    resets = sorted((start for start in starts if start.at > at), key=lambda start: start.at)
    for changes in _games_after(at, game_id):
        while resets and resets[0].at <= changes[0].at:
            _replay_reset(resets.pop(0), states)
        if not any(change.player_id in states for change in changes):
            continue
        before = [
            states[c.player_id].prior(c.at)
            if c.player_id in states
            else Skill(c.mu_before, c.sigma_before)
            for c in changes
        ]
        played = changes[0].game_id
        assert played is not None  # a game's changes (`_games_after`)
        after = _rate_again(changes, before, fixed_seats(played))
        for change, old, new in zip(changes, before, after, strict=True):
            change.mu_before, change.sigma_before = old.mu, old.sigma
            change.mu, change.sigma = new.mu, new.sigma
            states[change.player_id] = _State(new, True, change.at)
        RatingChange.objects.bulk_update(changes, ["mu_before", "sigma_before", "mu", "sigma"])
    for start in resets:
        _replay_reset(start, states)
    _store_states(states, starts)


def _rate_again(
    changes: list[RatingChange], before: list[Skill], fixed: list[SeatResult]
) -> list[Skill]:
    """A stored game rated again from these priors of its rated seats (`changes`, in seat
    order), with its fixed seats at their starts: the rated seats' new skills, the table in
    seat order as it was first rated."""
    if not fixed:
        return rate(before, [change.place or 0 for change in changes])
    table = sorted(
        [
            (change.seat or 0, skill, change.place or 0, True)
            for change, skill in zip(changes, before, strict=True)
        ]
        + [(seat.seat, seat.start, seat.place, False) for seat in fixed]
    )
    after = rate([skill for _, skill, _, _ in table], [place for _, _, place, _ in table])
    return [skill for (_, _, _, moves), skill in zip(table, after, strict=True) if moves]


def _replay_reset(start: SeasonStart, states: dict[UUID, _State]) -> None:
    """A season's reset again, for the touched players: rewritten for those rated by then,
    removed for any no longer rated then (their only game before it was voided). Never a
    bot's: bots stand outside seasons."""
    RatingChange.objects.filter(
        kind=ChangeKind.SEASON_RESET, season=start.season, player_id__in=list(states)
    ).delete()
    bots = bot_ids(states)
    rows = []
    for player_id, state in states.items():
        if not state.rated or player_id in bots:
            continue
        new = reset(state.skill, start.bump)
        rows.append(_reset_row(player_id, start, state.skill, new))
        state.skill = new
    insert_rows(RatingChange, _CHANGE_COLUMNS, rows)


def _games_after(at: datetime, game_id: UUID) -> Iterable[list[RatingChange]]:
    """The rating changes of the games rated after this place, a list per game, in order."""
    later = RatingChange.objects.filter(_after(at, game_id), kind=ChangeKind.GAME).order_by(
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


def _store_states(states: dict[UUID, _State], starts: Sequence[SeasonStart]) -> None:
    """Store the touched players' ratings as a replay left them, their counts of rated games
    (all, and since the latest season's start: none for a bot) counted from the history."""
    season_start = max((start.at for start in starts), default=None)
    in_season = Q() if season_start is None else Q(at__gte=season_start)
    bots = bot_ids(states)
    counts = {
        row["player_id"]: (row["games"], 0 if row["player_id"] in bots else row["season_games"])
        for row in RatingChange.objects.filter(player_id__in=list(states), kind=ChangeKind.GAME)
        .values("player_id")
        .annotate(games=Count("id"), season_games=Count("id", filter=in_season))
    }
    # A player whose only rated game was voided is back to having no rating at all.
    Rating.objects.filter(player_id__in=[p for p in states if p not in counts]).delete()
    _store_ratings(
        (player_id, state.skill, *counts[player_id], state.last_game_at)
        for player_id, state in states.items()
        if player_id in counts and state.last_game_at is not None
    )


# Opening a season ----------------------------------------------------------------------


@transaction.atomic(savepoint=False)
def ratings_season_reset(*, start: SeasonStart) -> int:
    """The soft reset of a season's opening (docs/api.md, Seasons): every rated player's
    sigma becomes `min(25/3, sqrt(sigma^2 + bump^2))`, mu kept, each a `season_reset` entry of
    their history at the season's start; their season's games start again from 0. How many
    ratings it reset. Bots' ratings are left alone: they stand outside seasons (their ladder
    has none).

    The caller (games/services/rating.py) first rates every game that ended before the start
    and no game after it, so the reset comes last in the history; anything after it is
    refused rather than put out of order."""
    ratings_lock()
    if RatingChange.objects.filter(at__gte=start.at).exists():
        raise ValueError(f"the rating history already holds changes from {start.at} on")
    # In two statements, not a row at a time through Python: a season resets every rated player.
    # The SQL does ratings/rating.py `reset`'s arithmetic operation for operation (the same
    # IEEE doubles: bump^2 computed here, as there), so the stored values are `reset`'s to the
    # last bit (tests/seasons/test_rollover.py compares them exactly).
    if start.bump == 0:
        sigma, params = "sigma", []
    else:
        sigma, params = (
            "LEAST(%s, SQRT(sigma * sigma + %s))",
            [DEFAULT.sigma, start.bump * start.bump],
        )
    table, changes = Rating._meta.db_table, RatingChange._meta.db_table
    columns = ", ".join(_CHANGE_COLUMNS)
    # Every rating but a bot's (bots stand outside seasons).
    people = f"player_id NOT IN (SELECT id FROM {Player._meta.db_table} WHERE is_bot)"  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {changes} ({columns}) SELECT player_id, NULL, NULL, NULL, %s, "  # noqa: S608
            f"mu, sigma, mu, {sigma}, %s, %s FROM {table} WHERE {people}",
            [start.at, *params, ChangeKind.SEASON_RESET, start.season],
        )
        cursor.execute(
            f"UPDATE {table} SET sigma = {sigma}, ordinal = mu - 3 * {sigma}, "  # noqa: S608
            f"season_games = 0 WHERE {people}",
            [*params, *params],
        )
        count: int = cursor.rowcount
        return count


def _reset_row(player_id: UUID, start: SeasonStart, old: Skill, new: Skill) -> tuple[object, ...]:
    """A reset's entry as a row of `_CHANGE_COLUMNS`."""
    kind = ChangeKind.SEASON_RESET
    return (player_id, None, None, None, start.at, *old, *new, kind, start.season)


# Rebuilding everything -------------------------------------------------------------------


@transaction.atomic
def ratings_rebuild(
    *,
    games: Iterable[GameResult],
    starts: Iterable[SeasonStart] = (),
    progress: Callable[[int], None] | None = None,
) -> Replay:
    """Replace every rating change and rating by a replay of these games (every rated game,
    in the order they ended: games/services/rating.py's `rated_results`) and seasons' resets
    (which pass the bots by)."""
    ratings_lock()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    replay = Replay(bots=bot_ids())
    batch: list[tuple[object, ...]] = []
    for entry in replay.run(games, starts, progress):
        if isinstance(entry, ResetReplayed):
            batch.extend(
                _reset_row(player_id, entry.start, old, new)
                for _, player_id, old, new in replayed_rows(entry)
            )
        else:
            result = entry.result
            batch.extend(_game_row(result, *row) for row in entry.moved())
        if len(batch) >= _BATCH:
            copy_rows(RatingChange, _CHANGE_COLUMNS, batch)
            batch = []
    copy_rows(RatingChange, _CHANGE_COLUMNS, batch)
    copy_rows(
        Rating,
        ("player_id", "mu", "sigma", "ordinal", "games", "season_games", "last_game_at"),
        (
            (
                player_id,
                skill.mu,
                skill.sigma,
                skill.ordinal,
                replay.games[player_id],
                replay.season_games[player_id],
                replay.last_game_at[player_id],
            )
            for player_id, skill in replay.skills.items()
        ),
    )
    return replay


def _game_row(result: GameResult, seat: SeatResult, old: Skill, new: Skill) -> tuple[object, ...]:
    """A game's entry as a row of `_CHANGE_COLUMNS`."""
    at, kind = result.finished_at, ChangeKind.GAME
    return (seat.player_id, result.game_id, seat.seat, seat.place, at, *old, *new, kind, None)


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
    "kind",
    "season",
)
