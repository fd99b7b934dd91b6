"""What staff do to a game: void it."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player, StaffActionKind
from accounts.services import staff_action_record
from core.errors import ApplicationError
from games import notify
from games.locks import LockedGame
from games.models import GameStatus


@transaction.atomic
def game_void(*, game_id: UUID | str, reason: str, by: Player | None = None) -> LockedGame:
    """Take away a game's result: it stays `finished` (its record readable) and is marked
    voided; its rating changes are rolled back (after the commit, games/receivers.py) and it
    is never rated. An active game ends now, with no places. Voiding twice does nothing."""
    reason = reason.strip()
    if not reason:
        raise ApplicationError("invalid", _("A void needs a reason."))
    locked = LockedGame.lock(game_id)
    game = locked.game
    if game.voided_at is not None:
        return locked
    if game.status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
        raise ApplicationError(
            "not_started", _("Only a game that was played (active or finished) can be voided."), 409
        )
    now = timezone.now()
    was_rated = game.rated_at is not None
    if game.status == GameStatus.ACTIVE:
        game.status = GameStatus.FINISHED
        game.finished_at = now
        game.turn_deadline = None
    game.voided_at = now
    game.void_reason = reason
    game.voided_by = by
    locked.save("status", "finished_at", "turn_deadline", "voided_at", "void_reason", "voided_by")
    for seat in locked.seats:
        seat.live = False
    locked.save_seats("live")
    locked.append("game_voided", reason=reason)
    staff_action_record(action=StaffActionKind.VOID, actor=by, reason=reason, game_id=game.pk)
    notify.game_update(locked)
    if was_rated or game.tournament_id is not None:
        notify.game_voided(game)  # its ratings rolled back, its tournament points taken back
    return locked
