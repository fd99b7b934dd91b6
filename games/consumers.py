"""Websockets (API.md, Realtime): one game's changes, and a player's own notifications.

A game socket is told only *that* its game changed (games/notify.py); it then reads the new
events and projects them for its own viewer, so what it sends is exactly what REST would.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.models import Player
from accounts.ws_auth import ws_require_player
from config.errors import ApplicationError
from games import services
from games.models import Event, Game
from games.notify import game_group, player_group
from games.selectors import event_payload, game_payload, game_seats, may_view, viewer_seat

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class GameConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    player: Player
    game_id: str
    last_event_id: int

    async def connect(self) -> None:
        player = await ws_require_player(self)
        if player is None:
            return
        self.player = player
        self.game_id = str(self.scope["url_route"]["kwargs"]["game_id"])
        refusal = await database_sync_to_async(self._admit)()
        await self.accept()
        if refusal is not None:
            await self.close(code=refusal)
            return
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        snapshot = await database_sync_to_async(self._snapshot)()
        await self.send_json({"type": "game", "event": None, "game": snapshot})

    def _admit(self) -> int | None:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return CLOSE_NOT_FOUND
        if not may_view(game, viewer_seat(game_seats(game), self.player)):
            return CLOSE_FORBIDDEN
        try:
            services.game_player_returned(game_id=self.game_id, player=self.player)
        except ApplicationError:
            return CLOSE_NOT_FOUND
        return None

    def _snapshot(self) -> dict[str, Any]:
        game = Game.objects.get(pk=self.game_id)
        seats = game_seats(game)
        last = Event.objects.filter(game=game).order_by("-id").values_list("id", flat=True)
        self.last_event_id = last.first() or 0
        return game_payload(game, seats, viewer_seat(seats, self.player))

    def _changes(self) -> list[dict[str, Any]]:
        game = Game.objects.get(pk=self.game_id)
        seats = game_seats(game)
        seat = viewer_seat(seats, self.player)
        events = list(Event.objects.filter(game=game, id__gt=self.last_event_id).order_by("id"))
        if not events:
            return []
        self.last_event_id = events[-1].id
        current = game_payload(game, seats, seat)
        return [
            {"type": "game", "event": event_payload(event, seat), "game": current}
            for event in events
        ]

    async def game_changed(self, message: dict[str, Any]) -> None:
        for change in await database_sync_to_async(self._changes)():
            await self.send_json(change)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # Moves go through REST (one validated, idempotent path); the socket only listens.
        await self.send_json(
            {"type": "error", "code": "read_only", "detail": "Send actions with POST .../actions/."}
        )

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "game_id"):
            await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)


class MeConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """`ws /ws/v1/me/`: ticket changes and `your_turn`, for the connected player only."""

    group: str

    async def connect(self) -> None:
        player = await ws_require_player(self)
        if player is None:
            return
        self.group = player_group(player.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def me_message(self, message: dict[str, Any]) -> None:
        await self.send_json(message["message"])

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
