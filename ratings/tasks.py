"""Celery tasks: thin wrappers around the rating services, safe to run twice or at once."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from ratings import services
from ratings.selectors import pending_games

PENDING_GRACE = timedelta(seconds=30)


# A lock wait cut short or a lost connection: the next attempt finds the work still to do (or
# done), so retrying is always safe.
@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=10,
)
def rate_game(game_id: str) -> bool:
    return services.game_rate(game_id=game_id)


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=10,
)
def unrate_game(game_id: str) -> bool:
    return services.game_unrate(game_id=game_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def rate_pending_games() -> int:
    """Beat: rate finished ranked games whose own task was lost (a worker killed before it
    ran). Games that ended only moments ago are left to their task."""
    settled = timezone.now() - PENDING_GRACE
    ids = list(
        pending_games()
        .filter(finished_at__lt=settled)
        .order_by("finished_at", "id")
        .values_list("id", flat=True)[:100]
    )
    return sum(services.game_rate(game_id=game_id) for game_id in ids)


# Beat's entries for these tasks (config/celery.py collects every app's).
BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Every finished ranked game is rated exactly once, even when its own task was lost.
    "rate-pending-games": {
        "task": "ratings.tasks.rate_pending_games",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
}
