"""The web client's one page: every route of the client gets the same HTML, and the client's
router (static/web/app.js) shows what the path names. The client talks only to the public API
(docs/api.md), as any other client does, so this view reads nothing."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@require_safe
@never_cache  # the page names the scripts; a new release must not be served a stale page
def client(request: HttpRequest, **route: str) -> HttpResponse:
    return render(request, "web/index.html")
