"""`ws /ws/v1/tournaments/{id}/` (docs/api.md, Tournaments): the standings, on connect and after
every change. Each change is announced to the tournament's group (`tournament_changed`); each
socket then reads the standings and sends the first rows and those that differ from what it
sent before, so a client keeps a whole board up to date from the rows that changed."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from accounts.ws_auth import ws_require_player
from core.sockets import tournament_group
from games.consumers import CLOSE_NOT_FOUND, ListeningConsumer
from tournaments.models import Tournament
from tournaments.payloads import StandingsMessage, TournamentStandingData, standing_data
from tournaments.selectors import standings, standings_ranked

FIRST_ROWS = 20


class StandingsConsumer(ListeningConsumer):
    group: str
    sent: dict[str, TournamentStandingData]

    async def connect(self) -> None:
        if await ws_require_player(self) is None:
            return
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.sent = {}
        message = await database_sync_to_async(self._standings)(tournament_id)
        await self.accept()
        if message is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json(message)

    def _standings(self, tournament_id: Any) -> StandingsMessage | None:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            return None
        rows = [standing_data(*row) for row in standings_ranked(list(standings(tournament)))]
        changed = [row for row in rows if self.sent.get(row["player"]["id"]) != row]
        self.sent = {row["player"]["id"]: row for row in rows}
        return {
            "type": "standings",
            "tournament_id": str(tournament.pk),
            "status": tournament.status,
            "ends_at": tournament.ends_at.isoformat(),
            "players_count": len(rows),
            "rows": rows[:FIRST_ROWS],
            "changed": changed,
        }

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        standings_message = await database_sync_to_async(self._standings)(
            self.scope["url_route"]["kwargs"]["tournament_id"]
        )
        if standings_message is not None:
            await self.send_json(standings_message)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
