"""GET /metrics: the Prometheus scrape. Not public: with METRICS_TOKEN set it wants
`Authorization: Bearer <token>` (401 otherwise); unset, it answers loopback clients only
(the real client address: core.throttles.client_ip) and 404 to anyone else.

A scrape reads this host's (this pod's) metrics directory: each pod is scraped on its own.

And the staff page of live figures (ops/live.py): the whole deployment's, from the database
and Redis."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from core.throttles import client_ip
from ops import live
from ops.collectors import DatabaseCollector, scrape_registry


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
    return HttpResponse(generate_latest(scrape_registry()), content_type=CONTENT_TYPE_LATEST)


def live_figures_view(request: HttpRequest) -> TemplateResponse:
    """The staff page (admin, "Live figures"; admin.site.admin_view makes it staff only)."""
    found = live.figures(DatabaseCollector())
    context = {
        **admin.site.each_context(request),
        "title": gettext("Live figures"),
        **live.page_context(found),
    }
    return TemplateResponse(request, "admin/ops/live.html", context)
