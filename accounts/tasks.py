from __future__ import annotations

from celery import shared_task

from accounts import services


@shared_task
def auth_tokens_purge_expired() -> int:
    return services.auth_tokens_purge_expired()


# Beat's entries for these tasks (config/celery.py collects every app's).
BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "accounts.purge-expired-tokens": {
        "task": "accounts.tasks.auth_tokens_purge_expired",
        "schedule": 3600.0,
    },
}
