"""Every lock the social app takes: the two players of a friendship, request or block.

A write between two players (a request, an acceptance, a removal, a block) locks both players'
rows (accounts' table), in pk order, so that two such writes of one pair take turns (A asking B
while B asks A makes friends once, not two crossed requests), and a block never misses a
request being sent. Players are locked second in core/locks.py's order, like a ticket's player:
these transactions take no other lock, but an acceptance of a challenge: its row next, then the
table it makes (games' lock).
"""

from __future__ import annotations

from uuid import UUID

from accounts.models import Player
from social.models import Challenge


def pair_lock(player_id: UUID, other_id: UUID) -> tuple[Player, Player]:
    """Both players' rows, read afresh and locked in pk order until the transaction ends."""
    rows = Player.objects.select_for_update().filter(pk__in=[player_id, other_id]).order_by("pk")
    by_id = {player.pk: player for player in rows}
    return by_id[player_id], by_id[other_id]


def challenge_lock(challenge_id: UUID | str) -> Challenge | None:
    """The challenge's row, read afresh and locked until the transaction ends (after its two
    players' rows when the transaction takes those: an acceptance seats them)."""
    return (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger__rating", "challenged__rating")
        .filter(pk=challenge_id)
        .first()
    )
