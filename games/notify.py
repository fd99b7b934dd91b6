"""What leaves a game transaction, always after its commit (STYLE.md, Zulip's notify_*).

A locked table's change is published already projected: each seated player's group gets the
game and the new events as that seat may see them, and a ranked game's watchers get the
stranger's view. So a socket forwards what it is given, without reading the database, and
no card travels through Redis towards a socket that may not see it. Each message names the
last event before it (`after`): a socket that missed one reads the events it lacks instead.
Changes made without the table's lock (a rating) only say *that* the game changed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent import futures
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any
from uuid import UUID

from channels.layers import get_channel_layer
from django.db import transaction
from django.dispatch import Signal

from games.models import Game, Seat
from games.selectors import event_payload, game_payload

if TYPE_CHECKING:
    from games.services import Table

logger = logging.getLogger(__name__)

# Sent after the commit that finished (or voided) a game; ratings subscribe to them.
game_finished_signal = Signal()
game_voided_signal = Signal()


def game_group(game_id: UUID | str) -> str:
    return f"game.{game_id}"


def player_group(player_id: UUID | str) -> str:
    return f"player.{player_id}"


def viewer_group(game_id: UUID | str, player_id: UUID | str | None) -> str:
    """Where a game's updates go for one seated player, or (None) for anyone watching."""
    return f"game.{game_id}.{'watch' if player_id is None else player_id}"


# How long a change waits for its pushes to be in Redis (a Redis that hangs): then it goes on.
PUSH_TIMEOUT = 1.0


class _Sender:
    """One event loop per process, in a thread, that sends channel-layer messages in order.

    `async_to_sync` would run each send on a new loop, and channels_redis keeps its Redis
    connections per loop: every move would open and close connections. One queue, one sender:
    order kept, one connection busy at a time. A push never fails a move (clients refetch on a
    gap), but the change waits until its pushes are in Redis (`wait`): so a client that had the
    response to one change can never get that change's push after the next change's, even when
    another web process serves the next one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[_Send] | None = None
        self._pid = 0

    def _start(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Queue[_Send]]:
        with self._lock:
            # A forked worker child inherits the attributes but not the thread.
            if self._loop is None or self._queue is None or self._pid != os.getpid():
                loop = asyncio.new_event_loop()
                queue: asyncio.Queue[_Send] = asyncio.Queue()
                threading.Thread(
                    target=loop.run_until_complete,
                    args=(self._drain(queue),),
                    name="channel-sender",
                    daemon=True,
                ).start()
                self._loop, self._queue, self._pid = loop, queue, os.getpid()
            return self._loop, self._queue

    @staticmethod
    async def _drain(queue: asyncio.Queue[_Send]) -> None:
        layer = get_channel_layer()
        while True:
            group, message, done = await queue.get()
            try:
                if layer is not None:
                    await layer.group_send(group, message)
            except Exception:
                logger.exception("could not notify %s", group)
            finally:
                done.set_result(None)

    def send(self, group: str, message: dict[str, Any]) -> Future[None]:
        loop, queue = self._start()
        done: Future[None] = Future()
        loop.call_soon_threadsafe(queue.put_nowait, (group, message, done))
        return done


_Send = tuple[str, dict[str, Any], "Future[None]"]
_sender = _Sender()


def send_to_group(group: str, message: dict[str, Any]) -> Future[None]:
    """Queue a push; the future is done once it is in Redis (or has failed, and was logged)."""
    return _sender.send(group, message)


def wait(sent: list[Future[None]]) -> None:
    """Until these pushes are in Redis, for at most PUSH_TIMEOUT."""
    _, late = futures.wait(sent, timeout=PUSH_TIMEOUT)
    if late:
        logger.warning("%d pushes still unsent after %s s", len(late), PUSH_TIMEOUT)


def game_changed(game_id: UUID | str) -> None:
    """The game changed outside its lock: every socket reads what it has not sent yet."""
    transaction.on_commit(lambda: send_to_group(game_group(game_id), {"type": "game.changed"}))


def table_changed(table: Table) -> None:
    """The locked table changed: publish it, projected per viewer, once the commit is done."""
    if not table.published:
        table.published = True
        transaction.on_commit(lambda: _publish(table), robust=True)


def _publish(table: Table) -> None:
    game, seats, events = table.game, table.seats, table.new_events
    span = {"after": table.last_event_id, "last": events[-1].pk if events else table.last_event_id}
    viewers: list[tuple[Any, int | None]] = [
        (seat.player_id, seat.seat) for seat in seats if seat.player_id is not None
    ]
    if game.ranked:
        viewers.append((None, None))
    sent = []
    for player_id, seat in viewers:
        message = {
            "type": "game.update",
            **span,
            "game": game_payload(game, seats, seat),
            "events": [event_payload(event, seat) for event in events],
        }
        sent.append(send_to_group(viewer_group(game.pk, player_id), message))
    wait(sent)


def your_turn(seat: Seat, game: Game) -> None:
    if seat.player_id is None:
        return
    message = {"type": "me.message", "message": {"type": "your_turn", "game_id": str(game.pk)}}
    group = player_group(seat.player_id)
    transaction.on_commit(lambda: send_to_group(group, message), robust=True)


def game_finished(game: Game) -> None:
    transaction.on_commit(lambda: game_finished_signal.send(sender=Game, game_id=game.pk))


def game_voided(game: Game) -> None:
    transaction.on_commit(lambda: game_voided_signal.send(sender=Game, game_id=game.pk))
