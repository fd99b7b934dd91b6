"""What ratings take from a finished game and from the seasons' starts, as plain data: games
hand the results over (games/services/rating.py) and seasons their starts, so that ratings
never read or lock a game or season row."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from ratings.rating import DEFAULT, Skill


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A rated player's seat and final place in one game, and the player's skill before their
    first rated game (a CPU level's calibrated start: ratings/cpu.py)."""

    player_id: UUID
    seat: int
    place: int
    start: Skill = DEFAULT


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game's rated seats, in seat order (its players', and its CPU seats as their
    levels' players), and when it ended: games are rated in the order (finished_at, game_id)."""

    game_id: UUID
    finished_at: datetime
    seats: list[SeatResult]


@dataclass(frozen=True, slots=True)
class SeasonStart:
    """A season that opened with a soft reset of every rated player's sigma (every season but
    the first): its number, its start (the reset's place in the history) and the bump."""

    season: int
    at: datetime
    bump: float
