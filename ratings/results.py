"""What ratings take from a finished game, as plain data: games hand it over
(games/services/rating.py), so that ratings never read or lock a game row."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A rated player's seat and final place in one game."""

    player_id: UUID
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's human seats, in seat order (CPU seats are left out: the humans'
    places keep their order among them), and when it ended: games are rated in the order
    (finished_at, game_id)."""

    game_id: UUID
    finished_at: datetime
    seats: list[SeatResult]
