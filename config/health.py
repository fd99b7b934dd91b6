"""The probes: `GET /healthz`, whether this process reaches PostgreSQL and Redis; `GET /livez`,
whether it runs (Kubernetes' liveness: nothing else is checked, so that a database outage does
not restart every web process); `GET /readyz`, whether it should be sent clients: it reaches
both and is not draining (core/drain.py: 503 from its SIGTERM on). None of them is rate
limited, authenticated or redirected to HTTPS, and each answers any `Host` (config/internal.py)."""

from __future__ import annotations

import logging

from django.db import connection
from django.http import HttpRequest, JsonResponse

from core import drain
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


def livez(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> JsonResponse:
    """200 `{"db": "ok", "redis": "ok", "draining": false}`; else 503, with `"error"` for the
    part that fails, or `"draining": true` from the process's SIGTERM on."""
    draining = drain.draining()
    checks: dict[str, str | bool] = {"db": _check_db(), "redis": _check_redis()}
    ready = checks["db"] == "ok" and checks["redis"] == "ok" and not draining
    checks["draining"] = draining
    response = JsonResponse(checks, status=200 if ready else 503)
    if draining and checks["db"] == checks["redis"] == "ok":
        # A drain is no error: Django would log every probe's 503 as one (django.utils.log).
        response._has_been_logged = True  # type: ignore[attr-defined]
    return response
