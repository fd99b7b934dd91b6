"""Every lock the matchmaking app takes: tickets' rows, and the pass's advisory lock.

Tickets are locked in pk order, so that two transactions locking several never wait on each
other. A ticket is queued under its player's row lock (accounts/locks.py), which comes before
any ticket; a pass holds its advisory lock, then tickets, then the games it creates
(core/locks.py: the order across apps).
"""

from __future__ import annotations

from uuid import UUID

from django.db.models import QuerySet

from accounts.models import Player
from core.locks import AdvisoryLock, try_advisory_xact_lock
from matchmaking.models import Ticket


def pass_lock() -> bool:
    """The right to run a matchmaking pass until the commit; False while another pass runs."""
    return try_advisory_xact_lock(AdvisoryLock.MATCHMAKING_PASS)


def ticket_lock(*, player: Player, ticket_id: UUID | str) -> Ticket | None:
    """One of the player's tickets, locked until the transaction ends; None when there is none."""
    return Ticket.objects.select_for_update().filter(pk=ticket_id, player=player).first()


def tickets_lock(tickets: QuerySet[Ticket], *, skip_locked: bool = False) -> list[Ticket]:
    """These tickets, locked in pk order until the transaction ends (only the tickets' rows,
    whatever `tickets` joins). With `skip_locked`, those another transaction holds are left out."""
    return list(tickets.select_for_update(skip_locked=skip_locked, of=("self",)).order_by("pk"))
