from __future__ import annotations

from celery import shared_task

from accounts.services import auth_tokens_purge_expired


@shared_task
def purge_expired_tokens() -> int:
    return auth_tokens_purge_expired()


# Beat's entries for these tasks (config/celery.py collects every app's).
BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "accounts.purge_expired_tokens": {
        "task": "accounts.tasks.purge_expired_tokens",
        "schedule": 3600.0,
    },
}
