"""`GET /healthz`: whether this process reaches PostgreSQL and Redis."""

from __future__ import annotations

import logging

from django.db import connection
from django.http import HttpRequest, JsonResponse

from core.redis import get_redis

logger = logging.getLogger(__name__)


def _check_db() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.exception("health check: database unreachable")
        return "error"
    return "ok"


def _check_redis() -> str:
    try:
        get_redis().ping()
    except Exception:
        logger.exception("health check: redis unreachable")
        return "error"
    return "ok"


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"db": _check_db(), "redis": _check_redis()}
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(checks, status=200 if healthy else 503)
