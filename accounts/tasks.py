from __future__ import annotations

from celery import shared_task

from accounts.services import auth_tokens_purge_expired


@shared_task
def purge_expired_tokens() -> int:
    return auth_tokens_purge_expired()
