"""Social's Celery tasks: presence changes told to friends, beat's sweep of the presence of
sockets that died with their process, the purge of old closed requests and challenges, and a
challenge's expiry at its time."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from social import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def presence_push(player_ids: list[str]) -> int:
    return services.presence_push(player_ids=player_ids)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def presence_sweep() -> int:
    return services.presence_sweep()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def friend_requests_purge() -> int:
    return services.friend_requests_purge()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def challenges_purge() -> int:
    return services.challenges_purge()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def challenge_expire(challenge_id: str) -> bool:
    return services.challenge_expire(challenge_id=challenge_id)


_SWEEP_SECONDS = settings.YANIV_PRESENCE_TTL_SECONDS / 3

BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "social.presence-sweep": {
        "task": "social.tasks.presence_sweep",
        "schedule": _SWEEP_SECONDS,
        "options": {"expires": _SWEEP_SECONDS},
    },
    "social.purge-friend-requests": {
        "task": "social.tasks.friend_requests_purge",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
    "social.purge-challenges": {
        "task": "social.tasks.challenges_purge",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
}
