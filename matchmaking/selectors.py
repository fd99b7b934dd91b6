"""Reads about tickets: the `ticket` object of docs/api.md, a player's tickets, and the queue."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal, TypedDict
from uuid import UUID

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _

from accounts.models import Player
from core.errors import ApplicationError
from core.payloads import Doc
from games.engine.cpu import Level
from games.models import Pool, Seat
from matchmaking import pairing
from matchmaking.models import Ticket, TicketStatus
from ratings.cpu import cpu_anchor, cpu_start
from ratings.selectors import cpu_ratings, player_ratings
from social.selectors import blocked_pairs


class TicketData(TypedDict):
    id: str
    status: str
    player_counts: list[int]
    created_at: str
    game_id: str | None
    cpu_seats: Annotated[
        int, Doc("Seats of the matched game that CPU players filled (0 while searching).")
    ]
    pool: Annotated[
        Pool, Doc("The human queue (`ranked`) or the bots' ladder (`bots`): docs/api.md.")
    ]


class TicketMessage(TypedDict):
    """`ws /ws/v1/me/`: one of your tickets changed (a match found: `matched`, with `game_id`)."""

    type: Literal["ticket"]
    ticket: TicketData


def ticket_message(ticket: Ticket) -> TicketMessage:
    return {"type": "ticket", "ticket": ticket_data(ticket)}


def ticket_data(ticket: Ticket) -> TicketData:
    """The `ticket` object, for REST answers, `GET /me/` and socket messages alike."""
    return {
        "id": str(ticket.pk),
        "status": ticket.status,
        "player_counts": list(ticket.player_counts),
        "created_at": ticket.created_at.isoformat(),
        "game_id": None if ticket.game_id is None else str(ticket.game_id),
        "cpu_seats": ticket.cpu_seats,
        "pool": Pool(ticket.pool),
    }


def ticket_get(*, player: Player, ticket_id: UUID | str) -> Ticket:
    """One of the player's own tickets; another player's is as unknown as a missing one."""
    ticket = Ticket.objects.filter(pk=ticket_id, player=player).first()
    if ticket is None:
        raise ApplicationError("not_found", _("No such ticket."), 404)
    return ticket


def player_searching_ticket(player: Player) -> TicketData | None:
    ticket = Ticket.objects.filter(player=player, status=TicketStatus.SEARCHING).first()
    return None if ticket is None else ticket_data(ticket)


@dataclass(frozen=True)
class Queue:
    # Each pool's tickets: the pass pairs each pool on its own.
    pools: dict[Pool, list[pairing.Ticket]]
    # The pairs of tickets whose players may not share a table (one blocks the other).
    apart: set[frozenset[str]]

    @property
    def tickets(self) -> list[pairing.Ticket]:
        return [ticket for tickets in self.pools.values() for ticket in tickets]


def queue(*, now: datetime) -> Queue:
    """Every ticket the pass may seat, as the pairing sees it, by pool, and the pairs of them
    it must keep apart: three queries, however long the queue.

    Left out: players at a table (they could not take a seat) and banned players (their
    tickets are being cancelled)."""
    tickets = list(
        Ticket.objects.filter(status=TicketStatus.SEARCHING)
        .exclude(Exists(Seat.objects.filter(player=OuterRef("player"), live=True)))
        .filter(Q(player__banned_at__isnull=True) | Q(player__banned_until__lte=now))
        .values_list("pk", "player_id", "player_counts", "created_at", "pool")
    )
    ratings = player_ratings(player_id for _, player_id, _, _, _ in tickets)
    keys = {player_id: str(ticket_id) for ticket_id, player_id, _, _, _ in tickets}
    pools: dict[Pool, list[pairing.Ticket]] = {pool: [] for pool in Pool}
    for ticket_id, player_id, player_counts, created_at, pool in tickets:
        pools[Pool(pool)].append(
            pairing.Ticket(
                key=str(ticket_id),
                rating=ratings[player_id]["ordinal"],
                sizes=frozenset(player_counts),
                waited=(now - created_at).total_seconds(),
            )
        )
    return Queue(
        pools=pools,
        apart={frozenset(keys[player_id] for player_id in pair) for pair in blocked_pairs(keys)},
    )


def cpu_fill_ratings(pool: Pool = Pool.RANKED) -> dict[str, float]:
    """Each CPU level's ordinal, as the pairing fills seats with them: in the human queue its
    (aged) rating there (a level not rated yet: its calibrated start); on the bots' ladder its
    fixed anchor (ratings/cpu.py `cpu_anchor`)."""
    if pool == Pool.BOTS:
        return {level.value: cpu_anchor(level.value).ordinal for level in Level}
    rated = cpu_ratings()
    return {level.value: rated.get(level.value, cpu_start(level.value).ordinal) for level in Level}


def bot_games_since(player: Player, since: datetime) -> list[datetime]:
    """When each of the bot's ladder games after `since` started (its tickets matched),
    oldest first (YANIV_BOT_GAMES_PER_DAY)."""
    matched = Ticket.objects.filter(
        player=player, status=TicketStatus.MATCHED, pool=Pool.BOTS, ended_at__gt=since
    )
    return [at for at in matched.order_by("ended_at").values_list("ended_at", flat=True) if at]
