"""Every write to a ticket, and the matchmaking pass that turns tickets into ranked games
(with CPU players in the seats of a ticket that waited YANIV_QUEUE_CPU_FILL_SECONDS alone),
never seating together two players of whom one blocks the other (social's blocks). The bots'
ladder is a pool of its own (docs/api.md, The bot ladder), paired apart from the human queue
by the same pairing, its tickets filled with CPU levels after YANIV_BOT_FILL_SECONDS.

Ticket changes reach the player's `ws /ws/v1/me/` after the commit that made them
(docs/architecture.md's house rules); a pass is requested after the commit that queued a ticket, and
the beat runs one every second.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import player_lock
from accounts.models import Player
from accounts.selectors import queue_ban_until
from core import metrics
from core.errors import ApplicationError, ThrottledError
from core.sockets import player_group, send_to_group
from games.engine.cpu import Level
from games.models import Pool
from games.selectors import player_active_game_id
from games.services.lobby import game_begin_ranked
from matchmaking import pairing, selectors
from matchmaking.locks import pass_lock, ticket_lock, tickets_lock
from matchmaking.models import Ticket, TicketStatus

logger = logging.getLogger(__name__)

TRIGGER_FLAG = "matchmaking:pass-requested"
# YANIV_BOT_GAMES_PER_DAY's day.
BOT_GAMES_WINDOW = timedelta(hours=24)


def _notify(ticket: Ticket) -> None:
    message = {"type": "me.message", "message": selectors.ticket_message(ticket)}
    group = player_group(ticket.player_id)
    transaction.on_commit(lambda: send_to_group(group, message), robust=True)


def request_pass() -> None:
    """Run a pass now rather than at the next beat: a new ticket may complete a table. At most
    one request a second goes out; the beat covers any ticket a request missed."""
    from matchmaking import tasks  # tasks import this module

    if cache.add(TRIGGER_FLAG, value=True, timeout=1):
        tasks.matchmaking_pass.delay()


# Tickets --------------------------------------------------------------------------------


@transaction.atomic
def ticket_create(*, player: Player, player_counts: list[int], pool: Pool = Pool.RANKED) -> Ticket:
    """Queue the player in a pool: people in the human queue (`ranked`), bots on their ladder
    (`bots`), never the other way round (docs/api.md, The bot ladder)."""
    # The player's row lock orders this against a ban (player_ban takes it too) and against a
    # second request of the same player: either this ticket commits before the ban, and the
    # ban's receiver cancels it, or the ban is seen here.
    player = player_lock(player.pk)
    if player.is_banned:
        raise ApplicationError("banned", player.ban_message, 403)
    if player.is_bot and pool != Pool.BOTS:
        raise ApplicationError(
            "bot", _('Bots play on their own ladder: ask for the pool "bots".'), 409
        )
    if not player.is_bot and pool == Pool.BOTS:
        raise ApplicationError("not_bot", _("Only bot accounts play on the bots' ladder."), 409)
    banned_until = queue_ban_until(player.pk)
    if banned_until is not None:
        raise ApplicationError(
            "queue_banned",
            _(
                "Offences in ranked games (leaving, idling) keep you from the ranked queue until "
                "%(until)s."
            )
            % {"until": banned_until.isoformat()},
            403,
            extra={"until": banned_until.isoformat()},
        )
    if Ticket.objects.filter(player=player, status=TicketStatus.SEARCHING).exists():
        raise ApplicationError(
            "already_queued", _("You are already searching: cancel that ticket first."), 409
        )
    if player_active_game_id(player) is not None:
        raise ApplicationError(
            "in_game", _("You are already at a table: finish or leave it first."), 409
        )
    if pool == Pool.BOTS:
        _bot_games_allowed(player)
    ticket = Ticket.objects.create(
        player=player, player_counts=sorted(set(player_counts)), pool=pool
    )
    _notify(ticket)
    # robust: a lost request only delays the match to the next beat.
    transaction.on_commit(request_pass, robust=True)
    return ticket


def _bot_games_allowed(player: Player) -> None:
    """429 `throttled` (scope `bot_games`) for a bot that started YANIV_BOT_GAMES_PER_DAY
    ladder games in the last 24 hours, `retry_after` the seconds until it may queue again:
    until the oldest of them that keeps it at the limit leaves the 24 hours."""
    limit: int = settings.YANIV_BOT_GAMES_PER_DAY
    now = timezone.now()
    started = selectors.bot_games_since(player, now - BOT_GAMES_WINDOW)
    if len(started) < limit:
        return
    wait = (started[len(started) - limit] + BOT_GAMES_WINDOW - now).total_seconds()
    raise ThrottledError(
        "bot_games",
        wait,
        _(
            "A bot plays at most %(limit)s ladder games in 24 hours: try again in "
            "%(seconds)s seconds."
        )
        % {"limit": limit, "seconds": max(1, math.ceil(wait))},
    )


@transaction.atomic
def ticket_cancel(*, player: Player, ticket_id: UUID | str) -> Ticket:
    """Stop searching. Cancelling a ticket that already ended (cancelled or expired) is a no-op;
    a matched one is refused: the game has begun."""
    ticket = ticket_lock(player=player, ticket_id=ticket_id)
    if ticket is None:
        raise ApplicationError("not_found", _("No such ticket."), 404)
    if ticket.status == TicketStatus.MATCHED:
        raise ApplicationError(
            "already_matched",
            _("This ticket was matched: the game has begun."),
            409,
            extra={"ticket": selectors.ticket_data(ticket)},
        )
    if ticket.status == TicketStatus.SEARCHING:
        ticket.status, ticket.ended_at = TicketStatus.CANCELLED, timezone.now()
        ticket.save(update_fields=["status", "ended_at"])
        _notify(ticket)
    return ticket


@transaction.atomic
def players_tickets_cancel(*, player_ids: list[UUID]) -> int:
    """Cancel these players' searches (a ban; an accepted challenge seated them at a private
    table); the number of tickets cancelled. Each player is told as for their own
    cancellation."""
    tickets = Ticket.objects.filter(player_id__in=player_ids)
    return len(_end_searching(tickets, TicketStatus.CANCELLED))


@transaction.atomic
def tickets_cancel(*, ticket_ids: list[UUID]) -> int:
    """Cancel these tickets where they still search (staff); the number cancelled."""
    return len(_end_searching(Ticket.objects.filter(pk__in=ticket_ids), TicketStatus.CANCELLED))


def _end_searching(
    tickets: QuerySet[Ticket],
    status: TicketStatus,
    *,
    now: datetime | None = None,
    skip_locked: bool = False,
) -> list[Ticket]:
    """Move the searching ones of `tickets` to `status`, locked in pk order (one lock order
    everywhere, so two of these never deadlock), and tell their players after the commit."""
    now = now or timezone.now()
    ended = tickets_lock(tickets.filter(status=TicketStatus.SEARCHING), skip_locked=skip_locked)
    Ticket.objects.filter(pk__in=[ticket.pk for ticket in ended]).update(
        status=status, ended_at=now
    )
    for ticket in ended:
        ticket.status, ticket.ended_at = status, now
        _notify(ticket)
    return ended


# The pass -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PassResult:
    expired: int
    games: list[UUID]


@transaction.atomic
def matchmaking_pass(*, now: datetime | None = None) -> PassResult | None:
    """Expire stale tickets, pair the queue, and start a ranked game for each match; None when
    another pass is running. At most YANIV_MATCHMAKING_TABLES_PER_PASS games per pass, the
    longest waiters' first, so the transaction (and the ticket locks) stay short."""
    if not pass_lock():
        return None
    with metrics.MATCHMAKING_PASS.time():
        return _pass(now or timezone.now())


def _pass(now: datetime) -> PassResult:
    expired = _end_searching(
        Ticket.objects.filter(
            created_at__lte=now - timedelta(seconds=settings.YANIV_TICKET_EXPIRY_SECONDS)
        ),
        TicketStatus.EXPIRED,
        now=now,
        # A ticket being cancelled right now ends either way.
        skip_locked=True,
    )
    queue = selectors.queue(now=now)
    waited = {ticket.key: ticket.waited for ticket in queue.tickets}
    # Each pool on its own: a bot and a person never share a table.
    matches = [
        (pool, match)
        for pool, tickets in queue.pools.items()
        if tickets
        for match in pairing.pair(tickets, _policy(pool), apart=queue.apart)
    ]
    matches.sort(key=lambda entry: -max(waited[key] for key in entry[1].tickets))
    games = []
    for pool, match in matches[: settings.YANIV_MATCHMAKING_TABLES_PER_PASS]:
        game_id = _seat(match, now, pool)
        if game_id is not None:
            games.append(game_id)
    return PassResult(expired=len(expired), games=games)


def _policy(pool: Pool) -> pairing.Policy:
    """A pool's pairing: the human queue's CPU fills after YANIV_QUEUE_CPU_FILL_SECONDS at the
    levels' ratings, the bots' after YANIV_BOT_FILL_SECONDS at their fixed anchors."""
    fill: float = (
        settings.YANIV_QUEUE_CPU_FILL_SECONDS
        if pool == Pool.RANKED
        else settings.YANIV_BOT_FILL_SECONDS
    )
    cpus = tuple(selectors.cpu_fill_ratings(pool).items()) if fill > 0 else ()
    return pairing.Policy(cpu_fill_seconds=fill, cpus=cpus)


def _seat(match: pairing.Match, now: datetime, pool: Pool) -> UUID | None:
    """The ranked game of one match, its tickets matched to it; None (and nothing written)
    when a ticket or a player changed since the queue was read."""
    try:
        # A savepoint: one match that fails leaves the rest of the pass standing.
        with transaction.atomic():
            tickets = tickets_lock(
                Ticket.objects.filter(
                    pk__in=match.tickets, status=TicketStatus.SEARCHING
                ).select_related("player"),
                skip_locked=True,
            )
            if len(tickets) != len(match.tickets):
                return None  # cancelled, or being cancelled: the others wait for the next pass
            game = game_begin_ranked(
                players=[ticket.player for ticket in tickets],
                cpu_levels=[Level(level) for level in match.cpus],
                pool=pool,
            ).game
            cpu_seats = len(match.cpus)
            Ticket.objects.filter(pk__in=[ticket.pk for ticket in tickets]).update(
                status=TicketStatus.MATCHED, game=game, ended_at=now, cpu_seats=cpu_seats
            )
            for ticket in tickets:
                ticket.status, ticket.game, ticket.ended_at = TicketStatus.MATCHED, game, now
                ticket.cpu_seats = cpu_seats
                _notify(ticket)
                metrics.TICKET_WAIT.observe((now - ticket.created_at).total_seconds())
            if cpu_seats:
                metrics.CPU_FILLS.inc()
    except (ApplicationError, IntegrityError):
        # A player sat down at another table after the queue was read: games refuse a second
        # live seat. The savepoint undid this match; its tickets stay in the queue.
        logger.info("matchmaking: match %s not seated", match.tickets, exc_info=True)
        return None
    return game.pk
