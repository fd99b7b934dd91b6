"""Chat's Celery tasks: beat's purge of what is older than YANIV_CHAT_KEEP_DAYS."""

from __future__ import annotations

from celery import shared_task

from chat import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def chat_purge() -> int:
    return services.chat_purge()


BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "chat.purge": {
        "task": "chat.tasks.chat_purge",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
}
