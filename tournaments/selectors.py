"""Reads about tournaments: the standings' order, the idle participants a pass seats."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet

from games.models import Seat
from tournaments import arena
from tournaments.models import Participant, Tournament


def standings(tournament: Tournament) -> QuerySet[Participant]:
    """Every participant, in the standings' order (tournaments/arena.py `standings_order`:
    score, then outright firsts, then who reached their score first)."""
    rows = Participant.objects.filter(tournament=tournament).select_related("player__rating")
    return rows.order_by("-score", "-firsts", "score_at", "id")


def standing_rank(entry: Participant) -> int:
    """A participant's rank in `standings` (as `standings_ranked` gives it): one more than
    the participants whose key is strictly better, so equal keys share it."""
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


def idle_participants(tournament: Tournament, now: datetime) -> list[arena.Idle]:
    """Who a pass may seat: joined, not paused, not at a tournament table, and at no other
    live table either (a private table they sit at keeps them), with their rank now."""
    rows = list(standings(tournament))
    busy = set(
        Seat.objects.filter(player_id__in=[row.player_id for row in rows], live=True).values_list(
            "player_id", flat=True
        )
    )
    return [
        arena.Idle(
            key=str(row.player_id),
            rank=rank,
            idle_seconds=max(0.0, (now - row.idle_since).total_seconds()),
            previous=frozenset(row.previous),
        )
        for rank, row in standings_ranked(rows)
        if not row.paused and row.game_id is None and row.player_id not in busy
    ]
