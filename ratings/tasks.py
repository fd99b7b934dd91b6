"""Celery tasks: thin wrappers around the rating services, safe to run twice or at once."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from ratings import services


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
