"""Websockets (docs/api.md, Realtime): one game's changes, and a player's own notifications.

A game socket joins its viewer's group (games/notify.py): every change arrives there already
projected for that viewer, and is forwarded as is. Only when a message shows that one was
missed (or a change was announced without its content) does the socket read the events it
lacks, and project them itself, through the same projection as REST.

The game's rooms (the chat app, above games) reach the socket through the game's group as a
`room.message`, forwarded as is, but only to the room's readers (`room_message`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from uuid import UUID

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from redis import RedisError

from accounts.models import Player
from accounts.signals import player_presence_changed
from accounts.ws_auth import PlayerConsumer, ws_require_player
from core import metrics, presence
from core.errors import ApplicationError
from core.perf.channels import DirectDispatch
from core.sockets import game_group, player_group, viewer_group
from games.models import Event, Game
from games.payloads import GameData, GameMessage, game_message, socket_error_message
from games.projection import events_shown, game_payload, game_state, may_view, viewer_seat
from games.selectors import game_seats
from games.services import play

logger = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class ListeningConsumer(DirectDispatch, PlayerConsumer):
    """A socket that only listens (a game's, the player's, a tournament's): its handlers run
    without Channels' thread hop before each message (core/perf/channels.py); those that read
    the database go through `database_sync_to_async`."""

    _counted = False

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        if not self._counted:
            self._counted = True
            metrics.OPEN_WEBSOCKETS.inc()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self._counted:
            self._counted = False
            metrics.OPEN_WEBSOCKETS.dec()
        await super().websocket_disconnect(message)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Channels raises on a frame that is not JSON text, and the exception kills the socket
        (1006, a traceback in the log); a client's bad frame is answered instead."""
        if text_data is None:
            await self.send_error("invalid", "Frames must be JSON text, not binary.")
            return
        try:
            content = await self.decode_json(text_data)
        except RecursionError:  # some 1,000 levels of nesting exhaust the decoder's stack
            await self.send_error("invalid", "This frame's JSON is nested too deeply.")
            return
        except ValueError:
            await self.send_error("invalid", "This frame is not JSON.")
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # Moves go through REST (one validated, idempotent path); the sockets only listen.
        await self.send_error("read_only", "Send actions with POST .../actions/.")

    async def send_error(self, code: str, detail: str) -> None:
        await self.send_json(socket_error_message(code, detail))


class GameConsumer(ListeningConsumer):
    player: Player
    game_id: str
    last_event_id: int
    groups: tuple[str, ...] = ()
    seated = False

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
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        snapshot = await database_sync_to_async(self._snapshot)()
        await self.send_json(game_message(None, snapshot))

    def _admit(self) -> int | None:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return CLOSE_NOT_FOUND
        seat = viewer_seat(game_seats(game), self.player)
        if not may_view(game.ranked, seat):
            return CLOSE_FORBIDDEN
        try:
            play.game_player_returned(game_id=self.game_id, player=self.player)
        except ApplicationError:
            return CLOSE_NOT_FOUND
        self.seated = seat is not None
        viewer = viewer_group(self.game_id, None if seat is None else self.player.pk)
        self.groups = (game_group(self.game_id), viewer)
        return None

    def _snapshot(self) -> GameData:
        game = Game.objects.get(pk=self.game_id)
        seats = game_seats(game)
        last = Event.objects.filter(game=game).order_by("-id").values_list("id", flat=True)
        self.last_event_id = last.first() or 0
        return game_payload(game, game_state(game), seats, viewer_seat(seats, self.player))

    def _changes(self) -> list[GameMessage]:
        game = Game.objects.get(pk=self.game_id)
        seats = game_seats(game)
        seat = viewer_seat(seats, self.player)
        events = list(Event.objects.filter(game=game, id__gt=self.last_event_id).order_by("id"))
        if not events:
            return []
        self.last_event_id = events[-1].id
        current = game_payload(game, game_state(game), seats, seat)
        return [game_message(shown, current) for shown in events_shown(events, seat)]

    async def game_changed(self, message: dict[str, Any]) -> None:
        for change in await database_sync_to_async(self._changes)():
            await self.send_json(change)

    async def game_update(self, message: dict[str, Any]) -> None:
        """A change, projected for this socket's viewer (games/notify.py)."""
        if message["after"] != self.last_event_id:
            if message["last"] > self.last_event_id:
                await self.game_changed(message)  # one was missed (or overtaken): read them
            return  # else already sent, from the database
        self.last_event_id = message["last"]
        game = message["game"]
        for event in message["events"] or [None]:
            await self.send_json(game_message(event, game))

    async def room_message(self, message: dict[str, Any]) -> None:
        """A message of one of the game's rooms (chat/notify.py): a seated player reads the
        players' room only, anyone else the spectators' room only (so nothing of a spectators'
        room ever reaches a player); never a viewer it names as `hidden` (blocks, and seated
        players whose chat setting hides it); a watcher's own setting, read at connect, last."""
        if (message["room"] == "players") != self.seated:
            return
        if str(self.player.pk) in message["hidden"]:
            return
        shown = self.player.chat
        if not self.seated and (
            shown == "off" or (shown == "phrases" and message["kind"] == "text")
        ):
            return
        await self.send_json(message["message"])

    async def disconnect(self, code: int) -> None:
        for group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)


class MeConsumer(ListeningConsumer):
    """`ws /ws/v1/me/`: ticket changes, `your_turn` and friends' news, for the connected player
    only. Each open me socket makes its player online (core/presence.py): it counts itself when
    it opens, renews that while open and takes it back when it closes; when that turns the
    player on- or offline, `player_presence_changed` tells whoever cares (social tells the
    friends, in a task: the socket never waits for that)."""

    group: str
    player_id: UUID
    _presence: asyncio.Task[None] | None = None
    _gone = False

    async def connect(self) -> None:
        player = await ws_require_player(self)
        if player is None:
            return
        self.player_id = player.pk
        self.group = player_group(player.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # After the accept: the client has its socket whatever this costs.
        await sync_to_async(self._opened, thread_sensitive=False)()
        self._presence = asyncio.create_task(self._keep_present())

    async def _keep_present(self) -> None:
        while True:
            await asyncio.sleep(presence.refresh_seconds())
            await sync_to_async(self._opened, thread_sensitive=False)()

    def _opened(self) -> None:
        if self._gone:
            return  # a renewal that raced the close: counting it again would outlive the socket
        try:
            changed = presence.socket_opened(self.player_id, self.channel_name)
        except RedisError:
            logger.warning("presence of %s not counted: Redis unavailable", self.player_id)
            return
        if changed:
            _presence_changed(self.player_id)

    def _closed(self) -> None:
        try:
            changed = presence.socket_closed(self.player_id, self.channel_name)
        except RedisError:
            logger.warning("presence of %s not uncounted: Redis unavailable", self.player_id)
            return
        if changed:
            _presence_changed(self.player_id)

    async def me_message(self, message: dict[str, Any]) -> None:
        await self.send_json(message["message"])

    async def disconnect(self, code: int) -> None:
        self._gone = True
        if self._presence is not None:
            self._presence.cancel()
            self._presence = None
            await sync_to_async(self._closed, thread_sensitive=False)()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)


def _presence_changed(player_id: UUID) -> None:
    for receiver, result in player_presence_changed.send_robust(sender=Player, player_id=player_id):
        if isinstance(result, Exception):
            logger.error("presence receiver %r failed for %s", receiver, player_id, exc_info=result)
