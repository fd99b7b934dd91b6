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
    """Who a pass may seat: joined, not paused, not at (nor about to sit at) a tournament
    table, and at no other live table either (a private table they sit at keeps them), with
    their rank now. Only the columns the ranks and the pairing need, in the standings' index
    order, and the live seats of the idle ones alone (the live-seat index): a few
    milliseconds at 2,000 participants."""
    rows = list(
        Participant.objects.filter(tournament=tournament)
        .order_by("-score", "-firsts", "score_at", "id")
        .values_list("player_id", "score", "firsts", "score_at", "paused", "game_id",
                     "idle_since", "previous")
    )  # fmt: skip
    waiting = Participant.objects.filter(tournament=tournament, paused=False, game_id=None)
    busy = set(
        Seat.objects.filter(live=True, player_id__in=waiting.values("player_id")).values_list(
            "player_id", flat=True
        )
    )
    keys = [arena.standings_order(score, firsts, at) for _, score, firsts, at, *_ in rows]
    return [
        arena.Idle(
            key=str(player_id),
            rank=rank,
            idle_seconds=max(0.0, (now - idle_since).total_seconds()),
            previous=frozenset(previous),
        )
        for rank, (player_id, _, _, _, paused, game_id, idle_since, previous) in zip(
            arena.standings_ranks(keys), rows, strict=True
        )
        if not paused and game_id is None and player_id not in busy
    ]
