"""Rebuilding every rating from the rated games and the seasons' resets, and comparing the
result with what is stored.

`recompute_ratings` uses this; it is the proof that the live path (one game at a time, as games
end, a reset as each season opens, voids rolled back) left exactly what replaying the history
in order gives. The games come from the caller (games/services/rating.py's `rated_results`) and
the seasons' starts from seasons: ratings read neither's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from ratings.payloads import aged_from
from ratings.rating import Skill, rate, reset
from ratings.results import GameResult, SeasonStart, SeatResult
from ratings.selectors import HistoryKey, bot_ids, stored_changes, stored_ratings

# Floats round-trip through PostgreSQL exactly, and the replay does the same arithmetic in the
# same order, so any difference at all is a real one; this only absorbs a last-bit wobble.
TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class Replayed:
    """One rated game: its seats with every player's skill before and after."""

    result: GameResult
    before: list[Skill]
    after: list[Skill]

    def moved(self) -> list[tuple[SeatResult, Skill, Skill]]:
        """The seats the game rates (not its fixed anchors), with their before and after."""
        return self.result.moved(self.before, self.after)


@dataclass(frozen=True, slots=True)
class ResetReplayed:
    """One season's reset: every player rated by then (by id; not the bots), before and
    after."""

    start: SeasonStart
    players: list[UUID]
    before: list[Skill]
    after: list[Skill]


@dataclass
class Replay:
    """Plays the rated games in order from the players' starts (the defaults, a CPU level's
    calibrated start), keeping every player's rating, aged between their games as the live
    path ages it (ratings/services.py), and resetting every rated player's at each season's
    start (before the games that end at that very instant: they are the new season's). A fixed
    seat (the bots' ladder's CPU anchor) plays at its start, and is never kept. The `bots`
    stand outside seasons: no reset touches them, and none of their games is a season's."""

    bots: frozenset[UUID] = frozenset()
    skills: dict[UUID, Skill] = field(default_factory=dict)
    games: dict[UUID, int] = field(default_factory=dict)
    last_game_at: dict[UUID, datetime] = field(default_factory=dict)
    season_games: dict[UUID, int] = field(default_factory=dict)

    def run(
        self,
        games: Iterable[GameResult],
        starts: Iterable[SeasonStart] = (),
        progress: Callable[[int], None] | None = None,
    ) -> Iterator[Replayed | ResetReplayed]:
        """Rate these games, in the order given (the order they ended), with the resets of
        these seasons' starts between them."""
        resets = sorted(starts, key=lambda start: start.at)
        for count, result in enumerate(games, 1):
            if progress is not None:
                progress(count)
            while resets and resets[0].at <= result.finished_at:
                yield self._reset(resets.pop(0))
            seats = result.seats
            if len(seats) < 2 or not result.rated_seats():
                continue  # rated with nobody to compare against: nothing changed
            at = result.finished_at
            before = [
                seat.start if seat.fixed else self._prior(seat.player_id, seat.start, at)
                for seat in seats
            ]
            after = rate(before, [seat.place for seat in seats])
            for seat, skill in zip(seats, after, strict=True):
                if seat.fixed:
                    continue
                self.skills[seat.player_id] = skill
                self.games[seat.player_id] = self.games.get(seat.player_id, 0) + 1
                in_season = int(seat.player_id not in self.bots)  # a bot's: no season's
                self.season_games[seat.player_id] = (
                    self.season_games.get(seat.player_id, 0) + in_season
                )
                self.last_game_at[seat.player_id] = result.finished_at
            yield Replayed(result, before, after)
        for start in resets:
            yield self._reset(start)

    def _reset(self, start: SeasonStart) -> ResetReplayed:
        players = sorted(player_id for player_id in self.skills if player_id not in self.bots)
        before = [self.skills[player_id] for player_id in players]
        after = [reset(skill, start.bump) for skill in before]
        for player_id, skill in zip(players, after, strict=True):
            self.skills[player_id] = skill
            self.season_games[player_id] = 0
        return ResetReplayed(start, players, before, after)

    def _prior(self, player_id: UUID, start: Skill, at: datetime) -> Skill:
        skill = self.skills.get(player_id)
        if skill is None:
            return start
        return aged_from(skill, self.last_game_at[player_id], at)


@dataclass
class Comparison:
    changes: int = 0
    players: int = 0
    # Over mu and sigma, before and after, of every rating change and every current rating.
    max_difference: float = 0.0
    missing: int = 0  # replayed rows with no stored row
    unexpected: int = 0  # stored rows the replay does not produce
    # Players whose count of rated games (all, or this season's) or last game's end differs.
    games_differ: int = 0

    @property
    def equal(self) -> bool:
        return (
            self.max_difference <= TOLERANCE
            and self.missing == self.unexpected == self.games_differ == 0
        )

    def difference(self, stored: tuple[float, ...], replayed: tuple[float, ...]) -> None:
        for a, b in zip(stored, replayed, strict=True):
            self.max_difference = max(self.max_difference, abs(a - b))


def replayed_rows(
    entry: Replayed | ResetReplayed,
) -> Iterator[tuple[HistoryKey, UUID, Skill, Skill]]:
    """A replayed game's or reset's rows of the history, each as (its key in the history's
    order: ratings/selectors.py `stored_changes`, player id, skill before, skill after)."""
    if isinstance(entry, Replayed):
        rated = entry.result
        for seat, old, new in entry.moved():
            yield (rated.finished_at, 1, rated.game_id, seat.seat), seat.player_id, old, new
    else:
        start = entry.start
        for player_id, old, new in zip(entry.players, entry.before, entry.after, strict=True):
            yield (start.at, 0, start.season, player_id), player_id, old, new


def compare(
    games: Iterable[GameResult],
    starts: Iterable[SeasonStart] = (),
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Replay these games (every rated game, in the order they ended) and seasons' resets, and
    compare, row by row, with the stored changes and ratings.

    Both sides come in the history's order, so they are merged as two streams: memory holds
    the current ratings, not the history.
    """
    result = Comparison()
    replay = Replay(bots=bot_ids())
    stored = iter(stored_changes())
    row = next(stored, None)
    for entry in replay.run(games, starts, progress):
        for key, player_id, old, new in replayed_rows(entry):
            result.changes += 1
            while row is not None and row.key < key:
                result.unexpected += 1
                row = next(stored, None)
            if row is None or row.key != key or row.player_id != player_id:
                result.missing += 1
                continue
            result.difference(row.values, (old.mu, old.sigma, new.mu, new.sigma))
            row = next(stored, None)
    while row is not None:
        result.unexpected += 1
        row = next(stored, None)

    seen: set[UUID] = set()
    for rating in stored_ratings():
        seen.add(rating.player_id)
        skill = replay.skills.get(rating.player_id)
        if skill is None:
            result.unexpected += 1
            continue
        result.difference((rating.mu, rating.sigma), (skill.mu, skill.sigma))
        result.games_differ += (rating.games, rating.season_games, rating.last_game_at) != (
            replay.games[rating.player_id],
            replay.season_games[rating.player_id],
            replay.last_game_at[rating.player_id],
        )
    result.players = len(replay.skills)
    result.missing += len(replay.skills.keys() - seen)
    return result
