"""The tournaments' Celery tasks: beat's pass (start, pair, finish) and a game's points."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from tournaments import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournaments_tick() -> int:
    """Beat: start, pair and finish the tournaments (each under its lock: two beats, or a
    worker that died midway, never seat anyone twice)."""
    return services.tournaments_tick()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_game_score(game_id: str) -> bool:
    return services.tournament_game_score(game_id=game_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_game_unscore(game_id: str) -> bool:
    return services.tournament_game_unscore(game_id=game_id)


BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "tournaments.tick": {
        "task": "tournaments.tasks.tournaments_tick",
        "schedule": settings.YANIV_TOURNAMENT_PAIRING_SECONDS,
        "options": {"expires": settings.YANIV_TOURNAMENT_PAIRING_SECONDS},
    },
}
