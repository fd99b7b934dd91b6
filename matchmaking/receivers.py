"""What matchmaking does when other apps signal (connected in MatchmakingConfig.ready)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from accounts.models import Player
from matchmaking import services


def cancel_banned_players_tickets(sender: type[Player], *, player: Player, **kwargs: Any) -> None:
    """A banned player stops searching (accounts.signals.player_banned, after the ban's commit)."""
    services.players_tickets_cancel(player_ids=[player.pk])


def cancel_challenged_players_tickets(
    sender: Any, *, player_ids: list[UUID], **kwargs: Any
) -> None:
    """Both players of an accepted challenge stop searching: they sit at its private table
    (social.signals.challenge_accepted, after the acceptance's commit)."""
    services.players_tickets_cancel(player_ids=player_ids)
