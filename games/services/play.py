"""A seated player's part in a game: a move, leaving for good, coming back after being away."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Player
from core.errors import ApplicationError
from games import notify
from games.engine.errors import IllegalMove
from games.engine.state import Action, CallYaniv, Play, apply
from games.locks import LockedGame
from games.models import GameStatus, Seat
from games.projection import viewer_seat
from games.reasons import not_active_text, reason_text
from games.services import fair_play, fairness
from games.services.clock import advance, restart_turn
from games.services.lobby import leave_waiting


def parse_action(seat: int, data: dict[str, Any]) -> Action:
    if data["type"] == "yaniv":
        return CallYaniv(seat)
    return Play(seat, tuple(data["cards"]), data["draw"])


@transaction.atomic
def game_act(
    *, game_id: UUID | str, player: Player, seq: int, action: dict[str, Any]
) -> LockedGame:
    """A seated player's move. `seq` is the game's seq as the client last saw it."""
    locked = LockedGame.lock(game_id)
    seat = locked.seat_of(player)
    game = locked.game
    if game.status != GameStatus.ACTIVE:
        raise ApplicationError("not_active", not_active_text(game.status), 409)
    if seq != game.seq:
        raise ApplicationError(
            "stale_seq",
            _("The game has moved on: its seq is %(seq)s, you sent %(sent)s.")
            % {"seq": game.seq, "sent": seq},
            409,
            extra={"game": locked.payload_for(player)},
        )
    state = locked.playing_state()
    if state.turn != seat.seat:
        raise ApplicationError("not_your_turn", _("It is not your turn."), 409)
    if seat.left:
        raise ApplicationError("left", _("You left this game; the CPU plays your seat."), 409)
    try:
        new_state, events = apply(state, parse_action(seat.seat, action), fairness.chance(locked))
    except IllegalMove as error:
        raise ApplicationError("illegal_move", reason_text(error.reason)) from error
    if seat.away:
        _return(locked, seat)
    advance(locked, new_state, events, by="player")
    return locked


def _return(locked: LockedGame, seat: Seat) -> None:
    seat.away = False
    locked.save_seats("away", seats=[seat])
    locked.append("player_returned", seat=seat.seat)


@transaction.atomic
def game_leave(*, game_id: UUID | str, player: Player, offence: bool = True) -> LockedGame:
    """Leave for good: the CPU plays the seat to the end, and the result counts. (Before the
    start, leaving frees the seat: lobby.leave_waiting.) Leaving a ranked game is an offence
    (fair play) unless `offence` is False: staff took the seat (a ban, an erasure)."""
    locked = LockedGame.lock(game_id)
    seat = locked.seat_of(player)
    status = locked.game.status
    if status == GameStatus.WAITING:
        leave_waiting(locked, seat, player)
    elif status == GameStatus.ACTIVE and not seat.left:
        _hand_to_cpu(locked, seat)
        if offence:
            fair_play.seat_left(locked, seat)
    return locked


def _hand_to_cpu(locked: LockedGame, seat: Seat) -> None:
    seat.left = True
    seat.live = False
    locked.save_seats("left", "live", seats=[seat])
    locked.append("player_left", seat=seat.seat)
    if locked.playing_state().turn == seat.seat:
        restart_turn(locked)
    notify.game_update(locked)
    if seat.player_id is not None:
        notify.seat_left(locked.game.pk, seat.player_id)


def player_hand_over_games(*, player: Player) -> None:
    """A banned (or erased) player's live tables: the CPU takes their seats (waiting tables
    are left). Not an offence of theirs: the ban is the sanction."""
    for game_id in Seat.objects.filter(player=player, live=True).values_list("game_id", flat=True):
        game_leave(game_id=game_id, player=player, offence=False)


@transaction.atomic
def game_player_returned(*, game_id: UUID | str, player: Player) -> None:
    """Opening the game's socket brings an away player back to their seat."""
    locked = LockedGame.lock(game_id)
    index = viewer_seat(locked.seats, player)
    if index is None or locked.game.status != GameStatus.ACTIVE:
        return
    seat = locked.seats[index]
    if not seat.away or seat.left:
        return
    _return(locked, seat)
    if locked.playing_state().turn == seat.seat:
        restart_turn(locked)  # their turn again: the full turn time from now
    notify.game_update(locked)
