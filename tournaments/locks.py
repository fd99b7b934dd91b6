"""The tournament row's lock: every change of a tournament's participants (a join, a pause, a
game's points, a pairing pass) holds it, so a pass never seats a player who is pausing, and a
game's points never race the next pass. The pass takes it without waiting (`skip`): a
tournament another worker is pairing is left to it.

A table the pass decided is made after it, under its pending row's lock alone
(`locked_pending_table`), so two makers of one table take turns and the second finds it gone."""

from __future__ import annotations

from uuid import UUID

from tournaments.models import PendingTable, Tournament


def locked_tournament(tournament_id: UUID | str, *, skip: bool = False) -> Tournament | None:
    """The tournament, its row locked until the commit; None when there is none (or, with
    `skip`, when another transaction holds it)."""
    rows = Tournament.objects.select_for_update(skip_locked=skip).filter(pk=tournament_id)
    return rows.first()


def locked_pending_table(game_id: UUID) -> PendingTable | None:
    """A table a pass decided, its row locked until the commit; None once it has been made."""
    return PendingTable.objects.select_for_update().filter(pk=game_id).first()
