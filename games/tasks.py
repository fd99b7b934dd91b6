"""Celery tasks: thin, idempotent wrappers around services, keyed by (game_id, seq)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games.selectors import overdue_game_ids
from games.services import clock


@shared_task(acks_late=True, reject_on_worker_lost=True)
def cpu_turn(game_id: str, seq: int) -> bool:
    return clock.game_cpu_turn(game_id=game_id, seq=seq)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def turn_timeout(game_id: str, seq: int) -> bool:
    return clock.game_timeout(game_id=game_id, seq=seq)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def sweep_deadlines() -> int:
    """Beat, every few seconds: enforce every overdue turn, whatever happened to its task."""
    handled = 0
    for game_id, seq in overdue_game_ids():
        handled += clock.game_timeout(game_id=game_id, seq=seq, skip_locked=True)
    return handled


# Beat's entries for these tasks (config/celery.py collects every app's).
BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # The second path that enforces deadlines (the first is a task per turn): it also
    # recovers CPU turns whose task was lost with a dead worker.
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": settings.YANIV_SWEEP_SECONDS,
        "options": {"expires": 10},
    },
}
