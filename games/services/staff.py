"""What staff do to a game: void it."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from games import notify
from games.models import GameStatus
from games.table import LockedGame


@transaction.atomic
def game_void(*, game_id: UUID | str, reason: str) -> LockedGame:
    """End a game without a result; its rating changes are rolled back."""
    locked = LockedGame.lock(game_id)
    game = locked.game
    if game.status == GameStatus.ABORTED:
        return locked
    was_rated = game.rated_at is not None
    game.status = GameStatus.ABORTED
    game.turn_deadline = None
    locked.save("status", "turn_deadline")
    for seat in locked.seats:
        seat.live = False
    locked.save_seats("live")
    locked.append("game_voided", reason=reason)
    notify.table_changed(locked)
    if was_rated:
        notify.game_voided(game)
    return locked
