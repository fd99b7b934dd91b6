"""GET /metrics: the Prometheus scrape. Not public: with METRICS_TOKEN set it wants
`Authorization: Bearer <token>` (401 otherwise); unset, it answers loopback clients only
(the real client address: accounts.throttles.client_ip) and 404 to anyone else."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from accounts.throttles import client_ip
from config import metrics
from ops.collectors import DatabaseCollector


def _loopback(address: str | None) -> bool:
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    token: str = settings.METRICS_TOKEN
    if token:
        sent = request.headers.get("Authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            response = HttpResponse("A bearer token is required.\n", status=401)
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return response
    elif not _loopback(client_ip(request)):
        raise Http404
    metrics.mark_dead_processes()
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(metrics.MULTIPROC_DIR))  # type: ignore[no-untyped-call]
    registry.register(DatabaseCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
