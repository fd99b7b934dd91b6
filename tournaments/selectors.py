"""Reads about tournaments: the standings' order, the idle participants a pass seats."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.core.cache import cache
from django.db import connection
from django.db.models import Q, QuerySet
from redis.exceptions import RedisError

from tournaments import arena
from tournaments.models import Participant, Tournament, TournamentStatus


def standings(tournament: Tournament) -> QuerySet[Participant]:
    """Every participant, in the standings' order (tournaments/arena.py `standings_order`:
    score, then outright firsts, then who reached their score first); none for a cancelled
    tournament, which has no standings."""
    if tournament.status == TournamentStatus.CANCELLED:
        return Participant.objects.none()
    rows = Participant.objects.filter(tournament=tournament).select_related("player__rating")
    return rows.order_by("-score", "-firsts", "score_at", "id")


def board_key(tournament_id: UUID | str) -> str:
    return f"tournament-board:{tournament_id}"


def board_version(tournament_id: UUID | str) -> int:
    """How many changes of the tournament's standings have been announced (tournaments/services.py
    `_changed`), in the cache (Redis): 0 before the first, or when it is unreachable."""
    try:
        return int(cache.get(board_key(tournament_id), 0))
    except RedisError:
        return 0


def standing_rank(entry: Participant) -> int:
    """A participant's rank in `standings` (as `standings_ranked` gives it): one more than
    the participants whose key is strictly better, so equal keys share it. (A cancelled
    tournament's participants have none: the caller asks only of the others.)"""
    ahead = (
        Q(score__gt=entry.score)
        | Q(score=entry.score, firsts__gt=entry.firsts)
        | Q(score=entry.score, firsts=entry.firsts, score_at__lt=entry.score_at)
    )
    return 1 + Participant.objects.filter(ahead, tournament_id=entry.tournament_id).count()


def standings_ranked(rows: list[Participant]) -> list[tuple[int, Participant]]:
    """Rows in the standings' order with their ranks (equal keys share one)."""
    keys = [arena.standings_order(row.score, row.firsts, row.score_at) for row in rows]
    return list(zip(arena.standings_ranks(keys), rows, strict=True))


# The standings' ranks over every participant (equal keys share one: `standings_ranked`),
# then who of them a pass may seat, with how long each has waited: the work in PostgreSQL, so
# that Python parses no timestamp (2,000 rows in a few milliseconds).
IDLE_SQL = """
SELECT standing.player_id, standing.rank, standing.waited, standing.previous
FROM (
    SELECT player_id, paused, game_id,
           RANK() OVER (ORDER BY score DESC, firsts DESC, score_at) AS rank,
           EXTRACT(EPOCH FROM %(now)s - idle_since)::float8 AS waited,
           ARRAY(SELECT jsonb_array_elements_text(previous)) AS previous
    FROM tournaments_participant
    WHERE tournament_id = %(tournament)s
) AS standing
WHERE NOT standing.paused AND standing.game_id IS NULL
  AND standing.player_id NOT IN (
      SELECT unnest(pending.players) FROM tournaments_pendingtable AS pending
      WHERE pending.tournament_id = %(tournament)s
  )
"""
# Which of them sit at a live table elsewhere, off the live-seat index: asked with their ids as
# one array (a string: no id adapted one by one), so that however little the planner knows of
# a tournament's new participants (their statistics not gathered yet) it probes the index once
# an id rather than scanning it once a participant.
LIVE_SQL = """
SELECT player_id FROM games_seat
WHERE live AND player_id IS NOT NULL AND player_id = ANY(string_to_array(%s, ',')::uuid[])
"""


def idle_participants(tournament: Tournament, now: datetime) -> list[arena.Idle]:
    """Who a pass may seat: joined, not paused, not at a tournament table nor at one a pass
    decided (pending), and at no other live table either (a private table they sit at keeps
    them), with their rank in the standings now."""
    with connection.cursor() as cursor:
        cursor.execute(IDLE_SQL, {"now": now, "tournament": tournament.pk})
        rows = [(str(player_id), *rest) for player_id, *rest in cursor.fetchall()]
        cursor.execute(LIVE_SQL, [",".join(row[0] for row in rows)])
        busy = {str(player_id) for (player_id,) in cursor.fetchall()}
    return [
        arena.Idle(key=key, rank=rank, idle_seconds=max(0.0, waited), previous=frozenset(previous))
        for key, rank, waited, previous in rows
        if key not in busy
    ]
