"""The tournament row's lock: every change of a tournament's participants (a join, a pause, a
game's points, a pairing pass) holds it, so a pass never seats a player who is pausing, and a
game's points never race the next pass. The pass takes it without waiting (`skip`): a
tournament another worker is pairing is left to it."""

from __future__ import annotations

from uuid import UUID

from tournaments.models import Tournament


def locked_tournament(tournament_id: UUID | str, *, skip: bool = False) -> Tournament | None:
    """The tournament, its row locked until the commit; None when there is none (or, with
    `skip`, when another transaction holds it)."""
    rows = Tournament.objects.select_for_update(skip_locked=skip).filter(pk=tournament_id)
    return rows.first()
