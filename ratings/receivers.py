"""What ratings do when a game ends or is voided. Both signals are sent after the commit that
caused them (games/notify.py), so the tasks can be queued at once."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from games.models import Game
from ratings import tasks


def game_finished(sender: Any, game_id: UUID, **kwargs: Any) -> None:
    # Private games are never rated: no task for them.
    if Game.objects.filter(pk=game_id, ranked=True).exists():
        tasks.rate_game.delay(str(game_id))


def game_voided(sender: Any, game_id: UUID, **kwargs: Any) -> None:
    tasks.unrate_game.delay(str(game_id))
