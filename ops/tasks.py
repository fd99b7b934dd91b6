"""Celery tasks of ops: the minute's snapshot of the counters the staff page's rates need."""

from __future__ import annotations

from celery import shared_task

from ops import live


@shared_task(ignore_result=True)
def snapshot_take() -> None:
    """Beat, every minute: keep the deployment's totals (ops/live.py)."""
    live.snapshot_take()


# Beat's entries for these tasks (config/celery.py collects every app's).
BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "ops.snapshot-metrics": {
        "task": "ops.tasks.snapshot_take",
        "schedule": 60.0,
        # A late snapshot is still a snapshot (its time is its own), but not after the next.
        "options": {"expires": 60},
    },
}
