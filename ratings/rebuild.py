"""Rebuilding every rating from the rated games, and comparing the result with what is stored.

`recompute_ratings` uses this; it is the proof that the live path (one game at a time, as games
end, with voids rolled back) left exactly what replaying the games in order gives. The games
come from the caller (games/services/rating.py's `rated_results`): ratings do not read game rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from ratings.payloads import aged_from
from ratings.rating import Skill, rate
from ratings.results import GameResult
from ratings.selectors import stored_changes, stored_ratings

# Floats round-trip through PostgreSQL exactly, and the replay does the same arithmetic in the
# same order, so any difference at all is a real one; this only absorbs a last-bit wobble.
TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class Replayed:
    """One rated game: its rated seats with every player's skill before and after."""

    result: GameResult
    before: list[Skill]
    after: list[Skill]


@dataclass
class Replay:
    """Plays the rated games in order from the players' starts (the defaults, a CPU level's
    calibrated start), keeping every player's rating, aged between their games as the live
    path ages it (ratings/services.py)."""

    skills: dict[UUID, Skill] = field(default_factory=dict)
    games: dict[UUID, int] = field(default_factory=dict)
    last_game_at: dict[UUID, datetime] = field(default_factory=dict)

    def run(
        self, games: Iterable[GameResult], progress: Callable[[int], None] | None = None
    ) -> Iterator[Replayed]:
        """Rate these games, in the order given (the order they ended)."""
        for count, result in enumerate(games, 1):
            if progress is not None:
                progress(count)
            seats = result.seats
            if len(seats) < 2:
                continue  # rated with nobody to compare against: nothing changed
            before = [self._prior(seat.player_id, seat.start, result.finished_at) for seat in seats]
            after = rate(before, [seat.place for seat in seats])
            for seat, skill in zip(seats, after, strict=True):
                self.skills[seat.player_id] = skill
                self.games[seat.player_id] = self.games.get(seat.player_id, 0) + 1
                self.last_game_at[seat.player_id] = result.finished_at
            yield Replayed(result, before, after)

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
    games_differ: int = 0  # players whose count of rated games (or last game's end) differs

    @property
    def equal(self) -> bool:
        return (
            self.max_difference <= TOLERANCE
            and self.missing == self.unexpected == self.games_differ == 0
        )

    def difference(self, stored: tuple[float, ...], replayed: tuple[float, ...]) -> None:
        for a, b in zip(stored, replayed, strict=True):
            self.max_difference = max(self.max_difference, abs(a - b))


def compare(
    games: Iterable[GameResult], progress: Callable[[int], None] | None = None
) -> Comparison:
    """Replay these games (every rated game, in the order they ended) and compare, row by row,
    with the stored changes and ratings.

    Both sides come in the same order (game end, game id, seat), so they are merged as two
    streams: memory holds the current ratings, not the history.
    """
    result = Comparison()
    replay = Replay()
    stored = iter(stored_changes())
    row = next(stored, None)
    for game in replay.run(games, progress):
        rated = game.result
        for seat, old, new in zip(rated.seats, game.before, game.after, strict=True):
            result.changes += 1
            key = (rated.finished_at, rated.game_id, seat.seat)
            while row is not None and row.key < key:
                result.unexpected += 1
                row = next(stored, None)
            if row is None or row.key != key or row.player_id != seat.player_id:
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
        result.games_differ += (rating.games, rating.last_game_at) != (
            replay.games[rating.player_id],
            replay.last_game_at[rating.player_id],
        )
    result.players = len(replay.skills)
    result.missing += len(replay.skills.keys() - seen)
    return result
