"""The probes (`/healthz`, `/livez`, `/readyz`) and `/metrics` answer whatever `Host` they are
asked with.

Probes and scrapers call a replica by its address (Prometheus sends `Host: 172.30.80.5:8000`,
a load balancer's health check the same), which ALLOWED_HOSTS cannot list: a subnet is no
host name. Django checks the host in CommonMiddleware (`request.get_host()`), so these
paths are answered here, before it, by their own views: none builds a URL from the host,
which is what the check protects, and each guards itself (`/metrics`: a token or loopback).
Every other path keeps the check.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import resolve

INTERNAL_PATHS = frozenset({"/healthz", "/livez", "/readyz", "/metrics"})


class InternalEndpointsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info in INTERNAL_PATHS:
            match = resolve(request.path_info)
            request.resolver_match = match  # as Django's handler sets it (the route's metrics)
            response: HttpResponse = match.func(request, *match.args, **match.kwargs)
            return response
        return self.get_response(request)
