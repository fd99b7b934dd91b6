"""What leaves a game transaction, always after its commit (docs/architecture.md's house rules,
Zulip's notify_*).

A locked game's change is published already projected (`game_update`): each seated player's
group gets the game and the new events as that seat may see them, and a ranked game's watchers
get the stranger's view. So a socket forwards what it is given, without reading the database, and
no card travels through Redis towards a socket that may not see it. Each message names the
last event before it (`after`): a socket that missed one reads the events it lacks instead.
Changes made without the game's lock (a rating) only say *that* the game changed
(`game_changed`).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction
from django.dispatch import Signal

from core.encoding import Fragment, json_bytes, json_text
from core.sockets import game_group, player_group, send_to_group, viewer_group
from games.locks import LockedGame
from games.models import Game, Seat
from games.payloads import EventData, game_message, your_turn_message
from games.projection import events_shown

# Sent after the commit that finished (or voided) a game; games/receivers.py queues its rating
# (or the roll back of its ratings) on them.
game_finished_signal = Signal()
game_voided_signal = Signal()
# Sent after the commit of a change that started or ended some players' part in an active game
# (its start, its end or void, a player leaving it), with `game_id` and `player_ids`: social
# tells their friends what they are doing now (presence `playing`).
game_playing_changed_signal = Signal()
# Sent after the commit of a player leaving an active game for good (the CPU plays their seat),
# with `game_id` and `player_id`: tournaments pause the leaver of an arena's game at once.
game_seat_left_signal = Signal()

_WHOLE_TABLE_EVENTS = frozenset({"game_started", "game_ended", "game_voided"})


def game_changed(game_id: UUID | str) -> None:
    """The game changed outside its lock: every socket reads what it has not sent yet."""
    message = {"type": "game.changed"}
    transaction.on_commit(lambda: send_to_group(game_group(game_id), message), robust=True)


def game_update(locked: LockedGame) -> None:
    """The locked game changed: publish it, projected per viewer, once the commit is done (the
    sockets' `game.update`)."""
    assert not locked.unsaved, "what `record` took is saved before it is published"
    if not locked.published:
        locked.published = True
        transaction.on_commit(lambda: _publish(locked), robust=True)
        transaction.on_commit(lambda: _playing_changed(locked), robust=True)


def _publish(locked: LockedGame) -> None:
    """Every viewer's projection of the one state the transaction left (never parsed again), as
    the frames its sockets send: `{"type": "game", "event", "game"}` for each event it may see (one
    with `event` null when it may see none)."""
    game, seats, events = locked.game, locked.seats, locked.new_events
    span = {
        "after": locked.last_event_id,
        "last": events[-1].pk if events else locked.last_event_id,
    }
    viewers: list[tuple[Any, int | None]] = [
        (seat.player_id, seat.seat) for seat in seats if seat.player_id is not None
    ]
    if game.ranked:
        viewers.append((None, None))
    for player_id, seat in viewers:
        # Encoded here once, not by each of the viewer's sockets: the frames the sockets send
        # as they are, the game in each of them (and in the mover's answer) the same bytes.
        encoded = locked.encoded[seat] = json_bytes(locked.payload(seat))
        game_json = Fragment(encoded)
        shown: list[EventData | None] = [*events_shown(events, seat)] or [None]
        frames = [json_text(game_message(event, game_json)) for event in shown]  # type: ignore[arg-type]
        message = {"type": "game.update", **span, "frames": frames}
        send_to_group(viewer_group(game.pk, player_id), message)


def _playing_changed(locked: LockedGame) -> None:
    """`game_playing_changed_signal` for the players whose part began or ended: everyone seated
    at a start or an end, the leavers when players left."""
    kinds = {event.type for event in locked.new_events}
    if kinds & _WHOLE_TABLE_EVENTS:
        seats = locked.seats
    elif "player_left" in kinds:
        left = {e.payload.get("seat") for e in locked.new_events if e.type == "player_left"}
        seats = [seat for seat in locked.seats if seat.seat in left]
    else:
        return
    player_ids = [seat.player_id for seat in seats if seat.player_id is not None]
    if player_ids:
        game_playing_changed_signal.send_robust(
            sender=Game, game_id=locked.game.pk, player_ids=player_ids
        )


def your_turn(seat: Seat, game: Game) -> None:
    if seat.player_id is None:
        return
    message = {"type": "me.message", "message": your_turn_message(game.pk)}
    group = player_group(seat.player_id)
    transaction.on_commit(lambda: send_to_group(group, message), robust=True)


# Every hook after a commit is `robust`: the change stands, so a failing subscriber (a rating
# task that cannot be queued) is logged, and neither fails the request nor stops the hooks
# after it (the game's last push). `send_robust` keeps one receiver's error from the next.
# (A lost rating task is made up by the `games_rate_pending` beat task.)


def game_finished(game: Game) -> None:
    transaction.on_commit(
        lambda: game_finished_signal.send_robust(sender=Game, game_id=game.pk), robust=True
    )


def seat_left(game_id: UUID, player_id: UUID) -> None:
    transaction.on_commit(
        lambda: game_seat_left_signal.send_robust(
            sender=Game, game_id=game_id, player_id=player_id
        ),
        robust=True,
    )


def game_voided(game: Game) -> None:
    transaction.on_commit(
        lambda: game_voided_signal.send_robust(sender=Game, game_id=game.pk), robust=True
    )
