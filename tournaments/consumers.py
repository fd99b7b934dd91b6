"""`ws /ws/v1/tournaments/{id}/` (docs/api.md, Tournaments): the standings, on connect and after
every change. Each change is announced to the tournament's group (`tournament_changed`) with
the tournament's board version (tournaments/selectors.py `board_version`); each socket then
sends the first rows and those that differ from what it sent before, so a client keeps a whole
board up to date from the rows that changed.

The standings are read once per change and process, not once per socket: a process keeps the
last board it read of each tournament it has sockets of, with the version it was read at, and
its sockets of that tournament share it while it is as new as the change they were told of (a
2,000-player arena whose players all watch would otherwise read 2,000 rows 2,000 times a
change)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async

from accounts.ws_auth import ws_require_player
from core.sockets import tournament_group
from games.consumers import CLOSE_NOT_FOUND, ListeningConsumer
from tournaments.models import Tournament
from tournaments.payloads import StandingsMessage, TournamentStandingData, standing_data
from tournaments.selectors import board_version, standings, standings_ranked

FIRST_ROWS = 20


@dataclass(frozen=True)
class Board:
    """A tournament's standings as read at `version` (its changes counted up to the read)."""

    version: int
    tournament_id: str
    status: str
    ends_at: str
    players_count: int
    rows: list[TournamentStandingData]
    read_at: float = field(default_factory=time.monotonic)


def read_board(tournament_id: str) -> Board | None:
    version = board_version(tournament_id)  # before the read: the read has every change up to it
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    rows = [standing_data(*row) for row in standings_ranked(list(standings(tournament)))]
    # A cancelled tournament has no standings (no rows), but its participants still count.
    players = len(rows) if rows else tournament.participants.count()
    return Board(
        version,
        str(tournament.pk),
        tournament.status,
        tournament.ends_at.isoformat(),
        players,
        rows,
    )


class Boards:
    """This process's last board of each tournament it has sockets of, read once per change."""

    def __init__(self) -> None:
        self.boards: dict[str, Board] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.sockets: dict[str, int] = {}

    async def get(
        self, tournament_id: str, version: int, *, read_after: float = 0.0
    ) -> Board | None:
        """The board, read again unless the kept one is at `version` or newer, and was read
        after `read_after` (time.monotonic())."""
        async with self.locks.setdefault(tournament_id, asyncio.Lock()):
            board = self.boards.get(tournament_id)
            if board is None or board.version < version or board.read_at < read_after:
                board = await database_sync_to_async(read_board)(tournament_id)
                if board is not None and self.sockets.get(tournament_id):
                    self.boards[tournament_id] = board
            return board

    def opened(self, tournament_id: str) -> None:
        self.sockets[tournament_id] = self.sockets.get(tournament_id, 0) + 1

    def closed(self, tournament_id: str) -> None:
        self.sockets[tournament_id] -= 1
        if not self.sockets[tournament_id]:
            for kept in (self.sockets, self.boards, self.locks):
                kept.pop(tournament_id, None)


BOARDS = Boards()


class StandingsConsumer(ListeningConsumer):
    group: str
    tournament_id: str
    sent: dict[str, TournamentStandingData]

    async def connect(self) -> None:
        if await ws_require_player(self) is None:
            return
        self.tournament_id = str(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.sent = {}
        BOARDS.opened(self.tournament_id)
        # Listening before the read: a change between the read and the subscription would
        # otherwise never reach this socket (its message is handled after this one).
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        version = await database_sync_to_async(board_version)(self.tournament_id)
        board = await BOARDS.get(self.tournament_id, version)
        await self.accept()
        if board is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_json(self._message(board))

    def _message(self, board: Board) -> StandingsMessage:
        """The board as this socket sends it: the first rows, and those it has not sent yet."""
        changed = [row for row in board.rows if self.sent.get(row["player"]["id"]) != row]
        self.sent = {row["player"]["id"]: row for row in board.rows}
        return {
            "type": "standings",
            "tournament_id": board.tournament_id,
            "status": board.status,
            "ends_at": board.ends_at,
            "players_count": board.players_count,
            "rows": board.rows[:FIRST_ROWS],
            "changed": changed,
        }

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        board = await BOARDS.get(self.tournament_id, int(message.get("version", 0)))
        if board is not None:
            await self.send_json(self._message(board))

    async def layer_resubscribed(self, message: dict[str, Any]) -> None:
        """Announcements were lost while the process was not subscribed (core/layer.py), and
        the board versions may have gone back with a Redis failover: the standings read again
        (once for the process's sockets of the tournament), and what changed sent."""
        board = await BOARDS.get(self.tournament_id, 0, read_after=float(message["at"]))
        if board is not None:
            await self.send_json(self._message(board))

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "tournament_id"):
            BOARDS.closed(self.tournament_id)
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
