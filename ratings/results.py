"""What ratings take from a finished game and from the seasons' starts, as plain data: games
hand the results over (games/services/rating.py) and seasons their starts, so that ratings
never read or lock a game or season row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from ratings.rating import DEFAULT, Skill


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A rated player's seat and final place in one game, and the player's skill before their
    first rated game (a CPU level's calibrated start: ratings/cpu.py).

    A `fixed` seat (a CPU seat of the bots' ladder: docs/api.md, The bot ladder) is an anchor:
    it rates at `start` in every game, and its own rating is never read, stored or moved."""

    player_id: UUID
    seat: int
    place: int
    start: Skill = DEFAULT
    fixed: bool = False


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's rated seats, in seat order (its players', and its CPU seats as their
    levels' players), and when it ended: games are rated in the order (finished_at, game_id)."""

    game_id: UUID
    finished_at: datetime
    seats: list[SeatResult]

    def rated_seats(self) -> list[SeatResult]:
        """The seats whose players' ratings the game moves (not the fixed anchors)."""
        return [seat for seat in self.seats if not seat.fixed]

    def moved(
        self, before: Sequence[Skill], after: Sequence[Skill]
    ) -> list[tuple[SeatResult, Skill, Skill]]:
        """The rated seats (not the fixed anchors), each with its skill `before` and `after`
        the game (both in seat order, every seat)."""
        rows = zip(self.seats, before, after, strict=True)
        return [(seat, old, new) for seat, old, new in rows if not seat.fixed]


# A game's fixed seats (its anchors), by game id: what a replay of a stored game needs besides
# its rating changes, which hold its moving seats only (games/selectors.py `fixed_seats`).
FixedSeats = Callable[[UUID], list[SeatResult]]


def no_fixed_seats(game_id: UUID) -> list[SeatResult]:
    return []


@dataclass(frozen=True, slots=True)
class SeasonStart:
    """A season that opened with a soft reset of every rated player's sigma (every season but
    the first): its number, its start (the reset's place in the history) and the bump."""

    season: int
    at: datetime
    bump: float
