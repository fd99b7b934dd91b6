"""Websockets (docs/api.md, Realtime): one game's changes, and what every listening socket
shares (the player's own socket, players/consumers.py, and a tournament's are listeners too).

A game socket joins its viewer's group (games/notify.py): every change arrives there already
projected for that viewer, and is forwarded as is. Only when a message shows that one was
missed (or a change was announced without its content) does the socket read the events it
lacks, and project them itself, through the same projection as REST. A socket opened with
`?after=SEQ` first sends the events after that seq the same way, read from the database once
it listens: what happens meanwhile comes live, after them, and what they hold is not sent again
(`last_event_id`).

The game's rooms (the chat app, above games) reach the socket through the game's group as a
`room.message`, forwarded as is, but only to the room's readers (`room_message`).
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.utils.translation import gettext as _

from accounts.models import Player
from accounts.ws_auth import PlayerConsumer, ws_require_player
from core import metrics
from core.drain import CLOSE_DRAINING
from core.encoding import json_text
from core.errors import ApplicationError
from core.heartbeat import CLOSE_IDLE, heartbeat
from core.i18n import handshake_language, speaking
from core.perf.channels import DirectDispatch
from core.sockets import game_group, viewer_group
from games.models import Event, Game
from games.payloads import (
    GameMessage,
    KeepaliveMessage,
    PongMessage,
    game_message,
    socket_error_message,
)
from games.projection import events_shown, game_payload, game_state, may_view, viewer_seat
from games.selectors import game_get, game_seats
from games.services import play

CLOSE_INVALID = 4400
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
KEEPALIVE: KeepaliveMessage = {"type": "keepalive"}
KEEPALIVE_TEXT = json_text(KEEPALIVE)  # encoded once: every silent socket sends it
PONG: PongMessage = {"type": "pong"}


class ListeningConsumer(DirectDispatch, PlayerConsumer):
    """A socket that only listens (a game's, the player's, a tournament's): its handlers run
    without Channels' thread hop before each message (core/perf/channels.py); those that read
    the database go through `database_sync_to_async`. While open it is in the process's
    heartbeat (core/heartbeat.py): a keep-alive after a silence, a close (4408) when its client
    has sent nothing for too long, and a `pong` for a client's `ping`; and a close (4503) at its
    moment of the process's drain (core/drain.py), after which its client reconnects at once."""

    _counted = False
    heard_at = 0.0  # when the client last sent a frame (the event loop's clock)
    sent_at = 0.0  # when this socket last sent a message

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        if not self._counted:
            self._counted = True
            metrics.OPEN_WEBSOCKETS.inc()
            self.heard_at = self.sent_at = asyncio.get_running_loop().time()
            heartbeat().add(self)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        self.sent_at = asyncio.get_running_loop().time()
        await super().send(text_data, bytes_data, close)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        heartbeat().discard(self)
        await super().close(code, reason)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        heartbeat().discard(self)
        if self._counted:
            self._counted = False
            metrics.OPEN_WEBSOCKETS.dec()
        await super().websocket_disconnect(message)

    async def keepalive(self) -> None:
        await self.send(text_data=KEEPALIVE_TEXT)

    async def idle_close(self) -> None:
        await self.close(code=CLOSE_IDLE)

    async def drain_close(self) -> None:
        await self.close(code=CLOSE_DRAINING)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Channels raises on a frame that is not JSON text, and the exception kills the socket
        (1006, a traceback in the log); a client's bad frame is answered instead. Any frame
        keeps the socket open."""
        self.heard_at = asyncio.get_running_loop().time()
        with speaking(self.language):  # a socket speaks its player's language
            if text_data is None:
                await self.send_error("invalid", _("Frames must be JSON text, not binary."))
                return
            try:
                content = await self.decode_json(text_data)
            except RecursionError:  # some 1,000 levels of nesting exhaust the decoder's stack
                await self.send_error("invalid", _("This frame's JSON is nested too deeply."))
                return
            except ValueError:
                await self.send_error("invalid", _("This frame is not JSON."))
                return
            await self.receive_json(content, **kwargs)

    @property
    def language(self) -> str | None:
        """The language of the socket's player (docs/languages.md), once they are known; else
        the handshake's Accept-Language."""
        player_language = getattr(getattr(self, "player", None), "language", None)
        return player_language or handshake_language(self.scope)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json(PONG)
            return
        # Moves go through REST (one validated, idempotent path); the sockets only listen.
        await self.send_error("read_only", _("Send actions with POST .../actions/."))

    async def send_error(self, code: str, detail: str) -> None:
        await self.send_json(socket_error_message(code, detail))

    async def layer_resubscribed(self, message: dict[str, Any]) -> None:
        """The process subscribed again after losing Redis (core/layer.py): pushes of the gap
        were lost. A socket that can read back what it missed does (its own handler)."""


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
        try:
            after = _after(self.scope)
        except ValueError:
            await self.accept()
            with speaking(player.language):
                await self.send_error("invalid", _("`after` must be an integer >= 0 (a seq)."))
            await self.close(code=CLOSE_INVALID)
            return
        refusal = await database_sync_to_async(self._admit)()
        await self.accept()
        if refusal is not None:
            await self.close(code=refusal)
            return
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        for message in await database_sync_to_async(self._first)(after):
            await self.send_json(message)

    def _admit(self) -> int | None:
        game = game_get(self.game_id)
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

    def _game(self) -> Game:
        game = game_get(self.game_id)
        if game is None:
            raise Game.DoesNotExist(self.game_id)
        return game

    def _first(self, after: int | None) -> list[GameMessage]:
        """What a socket sends on connect, once it listens to its groups: each event after seq
        `after` the viewer sees (through the projection), with the game as it is now; or the
        game alone (no `after`, or nothing missed). The events are read before the game: a
        change committed between the two reads comes live after these, so none is lost."""
        events = Event.objects.filter(game_id=self.game_id).order_by("id")
        missed = [] if after is None else list(events.filter(seq__gt=after))
        last = missed[-1].id if missed else events.values_list("id", flat=True).last()
        self.last_event_id = last or 0
        game = self._game()
        seats = game_seats(game)
        seat = viewer_seat(seats, self.player)
        current = game_payload(game, game_state(game), seats, seat)
        shown = events_shown(missed, seat)
        return [game_message(event, current) for event in shown] or [game_message(None, current)]

    def _changes(self) -> list[GameMessage]:
        game = self._game()
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

    async def layer_resubscribed(self, message: dict[str, Any]) -> None:
        """Pushes were lost while the process was not subscribed (core/layer.py): the events
        after the last one sent, read from the database, as for a push seen to be missed."""
        await self.game_changed(message)

    async def game_update(self, message: dict[str, Any]) -> None:
        """A change, projected for this socket's viewer (games/notify.py)."""
        if message["after"] != self.last_event_id:
            if message["last"] > self.last_event_id:
                await self.game_changed(message)  # one was missed (or overtaken): read them
            return  # else already sent, from the database
        self.last_event_id = message["last"]
        for frame in message["frames"]:  # encoded by the publisher, once for every socket
            await self.send(text_data=frame)

    async def room_message(self, message: dict[str, Any]) -> None:
        """A message of one of the game's rooms (chat/notify.py): a seated player reads the
        players' room only, anyone else the spectators' room only (so nothing of a spectators'
        room ever reaches a player); never a viewer it names as `hidden` (blocks, and seated
        players whose chat setting hides it); a watcher's own setting last (the player's as the
        socket read it at connect, or as `PATCH /me/` changed it since: `player_chat`)."""
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


def _after(scope: dict[str, Any]) -> int | None:
    """The connection's `?after=` (a seq, >= 0), or None; ValueError for anything else."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    if "after" not in query:
        return None
    after = query["after"][0]
    if not (after.isascii() and after.isdigit()):
        raise ValueError(after)
    return int(after)
