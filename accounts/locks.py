"""Every row lock of the accounts app: a player's (core/locks.py: the order across apps).

A player's row lock orders the writes that must see each other: registration, a ban and its
lifting, and (matchmaking) a ticket queued against a ban or a second request of the same
player.
"""

from __future__ import annotations

from uuid import UUID

from accounts.models import Player, SeedPair


def player_lock(player_id: UUID) -> Player:
    """The player's row, read afresh and locked until the transaction ends."""
    return Player.objects.select_for_update().get(pk=player_id)


def seed_pairs_lock(player_ids: list[UUID]) -> list[SeedPair]:
    """The seed pairs of these players, locked in pk order until the transaction ends. Taken
    last of all (core/locks.py): by a game's start after its game's row, by `PATCH /me` alone,
    so nothing that holds one waits for another lock."""
    return list(
        SeedPair.objects.select_for_update().filter(player_id__in=player_ids).order_by("pk")
    )
