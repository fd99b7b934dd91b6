"""What matchmaking does when other apps signal (connected in MatchmakingConfig.ready)."""

from __future__ import annotations

from typing import Any

from accounts.models import Player
from matchmaking import services


def cancel_banned_players_tickets(sender: type[Player], *, player: Player, **kwargs: Any) -> None:
    """A banned player stops searching (accounts.signals.player_banned, after the ban's commit)."""
    services.player_tickets_cancel(player=player)
