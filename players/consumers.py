"""`ws /ws/v1/me/` (docs/api.md, Realtime): the player's own socket. It sits in players, over the
apps, since its first message tells what `GET /me/` tells (a table in games, a ticket in
matchmaking); what follows comes from every app through the player's group."""

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
from accounts.ws_auth import ws_require_player
from core import presence
from core.heartbeat import SocketTimer, running
from core.logs import send_logged
from core.sockets import player_group
from games.consumers import ListeningConsumer
from players.selectors import hello_message

logger = logging.getLogger(__name__)


class MeConsumer(ListeningConsumer):
    """`ws /ws/v1/me/`: first a `hello` (what the player is doing now), then ticket changes,
    `your_turn` and friends' news, for the connected player only. Each open me socket makes its
    player online (core/presence.py): it counts itself when it opens, renews that while open
    and takes it back when it closes (the renewals of all a process's me sockets in one timer,
    `PresenceRenewal`); when that turns the player on- or offline,
    `player_presence_changed` tells whoever cares (social tells the friends, in a task: the
    socket never waits for that). A socket closed by its process's drain (core/drain.py) leaves
    its entry to lapse instead: its client reconnects at once, so its friends see no flicker
    offline and back (and if it does not, the entry expires and the sweep reports it)."""

    group: str
    player: Player
    player_id: UUID
    renewed_at = 0.0  # when its presence was last counted (the event loop's clock)
    _gone = False
    _drained = False

    async def connect(self) -> None:
        player = await ws_require_player(self)
        if player is None:
            return
        self.player = player  # its language is the socket's (ListeningConsumer.language)
        self.player_id = player.pk
        self.group = player_group(player.pk)
        # Listening before the hello is read: a change between the two comes after it.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # After the accept (the client has its socket whatever this costs), before the hello:
        # a client that heard its hello is counted online.
        await sync_to_async(self._opened, thread_sensitive=False)()
        self.renewed_at = asyncio.get_running_loop().time()
        running(PresenceRenewal).add(self)
        await self.send_json(await database_sync_to_async(hello_message)(player))

    def _opened(self) -> None:
        if self._gone:
            return  # closed before it was counted: counting it now would outlive the socket
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

    async def drain_close(self) -> None:
        self._drained = True
        await super().drain_close()

    async def me_message(self, message: dict[str, Any]) -> None:
        await self.send_json(message["message"])

    async def disconnect(self, code: int) -> None:
        self._gone = True
        renewal = running(PresenceRenewal)
        if self in renewal.sockets:  # counted online when it opened
            renewal.discard(self)
            if not self._drained:
                await sync_to_async(self._closed, thread_sensitive=False)()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)


class PresenceRenewal(SocketTimer[MeConsumer]):
    """The me sockets of one event loop, their presence renewed together: every quarter of
    `presence.refresh_seconds()`, those renewed that long ago less that quarter, in one round
    trip (core/presence.py `sockets_renewed`) from a thread. A socket joins as it opens, so
    the renewals stay spread as the openings were."""

    def interval(self) -> float:
        return presence.refresh_seconds() / 4

    def tick(self, now: float) -> None:
        due_after = presence.refresh_seconds() - self.interval()
        due = [socket for socket in self.sockets if now - socket.renewed_at >= due_after]
        for socket in due:
            socket.renewed_at = now
        if due:
            self.spawn(sync_to_async(_renew, thread_sensitive=False)(due))


def _renew(sockets: list[MeConsumer]) -> None:
    """Renew the presence of these sockets but those closed meanwhile (a renewal after a close
    would outlive the socket); tell of the players it finds come online again (their entries
    had lapsed)."""
    live = [socket for socket in sockets if not socket._gone]
    try:
        came = presence.sockets_renewed([(s.player_id, s.channel_name) for s in live])
    except RedisError:
        logger.warning("presence of %s sockets not renewed: Redis unavailable", len(live))
        return
    for socket, online in zip(live, came, strict=True):
        if online:
            _presence_changed(socket.player_id)


def _presence_changed(player_id: UUID) -> None:
    send_logged(player_presence_changed, "presence", player_id, sender=Player, player_id=player_id)
