"""Celery tasks: thin wrappers around matchmaking.services."""

from __future__ import annotations

from celery import shared_task

from matchmaking import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def matchmaking_pass() -> int:
    """Beat, every second, and after a ticket is queued: one pass; the games it started."""
    result = services.matchmaking_pass()
    return 0 if result is None else len(result.games)


# Beat's entries for these tasks (config/celery.py collects every app's).
BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "matchmaking.pass": {
        "task": "matchmaking.tasks.matchmaking_pass",
        "schedule": 1.0,
        # A pass that waited this long in the queue is superseded by the next beat's.
        "options": {"expires": 2},
    },
}
