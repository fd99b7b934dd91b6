"""The hot endpoints without Django's request cycle (issue 34): a game's reads, a move, a ticket.

Why: a request through Django's handler, its fifteen middleware and DRF's `APIView` costs
the web process about a millisecond of CPU around the work it exists for (the token's query,
the limit's Redis script, the game's query): a poll answered 304 cost 2.2 ms in all. Polls and
moves are most of what the web serves; the lean path takes half a millisecond off each
(bench/README.md, "The lean path and the load generator").

What: `Lean` is asked first, by core/perf/http.py, in the pool thread that would run Django. It
takes a request only when it can answer it exactly as Django and DRF would: a route of its own
(method and path, `Route`), a bearer token that authenticates, no cookie (a session, the web
client's language cookie), no query string, a plain `Accept`, a valid `Host`, and what the
route itself asks (a JSON body it accepts). Anything else, a token refused included, goes to
Django untouched: nothing has been counted or written before that decision (a token's sliding
expiry aside, which Django's path writes the same).

From the limits on the request is the lean path's: it counts the view's own throttles, runs
the route's answer (the same functions the DRF view calls), and answers an error through the
API's exception handler (core/errors.py), in the request's language. Each answer then goes
through the response hooks of the middleware that write headers (`response_hooks`: language,
security headers, CSP, Content-Length, X-Frame-Options) and gets the view's own headers
(`Allow`) and the request id, and is counted and logged as Django's would be. The request
object is Django's own `WSGIRequest` (lazy: it parses nothing until asked), so the hooks,
the throttles and the conditional-request helpers read it as they do on Django's path.
tests/core/test_lean.py holds the two paths to the same answers, header for header.

`WEB_LEAN_PATH=false` turns it off (every request through Django), for a comparison or should
a difference be found.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CSPMiddleware
from django.conf import settings
from django.core import signals
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest, get_script_name
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import resolve, set_script_prefix
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.log import log_response
from rest_framework.authentication import get_authorization_header
from rest_framework.response import Response as DRFResponse
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from core import logs, metrics
from core.errors import exception_handler, server_error
from core.i18n import header_language
from core.negotiation import plain_accept
from core.renderers import JSONRenderer

logger = logging.getLogger(__name__)

# What the lean path answers with: core/perf/http.py's response (status, headers, body).
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]
# An `Authorization` header's player and token, None without a bearer token; it raises for a
# token refused (accounts/authentication.py's header_authenticate).
Authenticate = Callable[[bytes], tuple[Any, Any] | None]


def _unused(request: Any) -> Any:  # the hooks below are called for their responses only
    raise AssertionError("a response hook's get_response")


class _CSP:
    """CSPMiddleware's response hook for one route, its headers built once per status: the
    policy is the settings' own there (no view changes it, no nonce; only the path, for the
    policy's excluded prefixes, and the status, for DEBUG's error pages, could change it), and
    building it was a tenth of a lean request's CPU."""

    def __init__(self, path: str) -> None:
        self.middleware = CSPMiddleware(_unused)
        self.path = path  # the route's example: every path of it is alike to the policy
        self.by_status: dict[int, tuple[tuple[str, str], ...]] = {}

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        status = response.status_code
        if status not in self.by_status:
            probe = HttpRequest()
            probe.path = probe.path_info = self.path
            blank = self.middleware.process_response(probe, HttpResponse(status=status))
            names = (HEADER, HEADER_REPORT_ONLY)
            self.by_status[status] = tuple((name, blank[name]) for name in names if name in blank)
        for name, value in self.by_status[status]:
            if name not in response:
                response[name] = value
        return response


def response_hooks(path: str) -> tuple[Any, ...]:
    """The middleware (config/settings.py's MIDDLEWARE) whose response hooks write headers, in
    the order Django runs them (the innermost first). The others have nothing to do for a
    request the lean path takes (tests/core/test_lean.py says why of each, and fails on one it
    does not know); the request id and the metrics are written by the lean path itself.

    The hooks of the route at `path`, reading the settings as they are now (as Django's handler
    reads them once)."""
    return (
        XFrameOptionsMiddleware(_unused),
        CommonMiddleware(_unused),
        _CSP(path),
        SecurityMiddleware(_unused),
        LocaleMiddleware(_unused),
    )


@dataclass(frozen=True)
class Route:
    """A lean endpoint: `view` answers the same URL on Django's path (its throttles and `Allow`
    are the route's), `example` a path of it (its metrics label is read from Django's URLs).

    `prepare(request, kwargs)`: what `answer` needs from the request, or None to leave the
    request to Django; it may read the body but change nothing. `answer(request, kwargs,
    prepared)`: the response, after the limits; it raises as the view does."""

    method: str
    pattern: re.Pattern[str]
    view: type[APIView]
    example: str
    prepare: Callable[[WSGIRequest, dict[str, Any]], Any]
    answer: Callable[[WSGIRequest, dict[str, Any], Any], HttpResponseBase]
    query: bool = False  # whether it reads a query string (else one sends it to Django)


@dataclass(frozen=True)
class _Bound:
    route: Route
    label: str  # its metrics' route, as HttpMetricsMiddleware labels it
    throttles: tuple[type[BaseThrottle], ...]
    view_headers: dict[str, str]  # what DRF's finalize_response adds (Allow, maybe Vary)
    hooks: tuple[Any, ...]  # response_hooks


class Lean:
    """The lean path's dispatcher: `lean(environ)` is its answer, or None for Django's."""

    def __init__(self, routes: Sequence[Route], authenticate: Authenticate) -> None:
        self.authenticate = authenticate
        self.routes: list[_Bound] = []
        for route in routes:
            view = route.view()
            view.setup(HttpRequest())  # as `as_view` does: with `get`, a view answers HEAD too
            match = resolve(route.example)
            if getattr(match.func, "view_class", None) is not route.view:
                raise ValueError(f"{route.example} is not {route.view.__name__}'s URL")
            self.routes.append(
                _Bound(
                    route,
                    metrics.route_label(match.route),
                    tuple(route.view.throttle_classes),
                    dict(view.default_response_headers),
                    response_hooks(route.example),
                )
            )

    def __call__(self, environ: dict[str, Any]) -> Answer | None:
        found = self._route(environ)
        if found is None:
            return None
        bound, kwargs = found
        request = WSGIRequest(environ)
        if not _plain(request, bound.route.query):
            return None
        set_script_prefix(get_script_name(environ))
        signals.request_started.send(sender=self.__class__, environ=environ)
        try:
            taken = self._take(bound, request, kwargs)
            if taken is None:
                environ["wsgi.input"].seek(0)  # for Django's path, if the route read the body
                return None
            language, prepared = taken
            with translation.override(language):
                return self._answer(bound, request, kwargs, prepared)
        finally:
            signals.request_finished.send(sender=self.__class__)

    def _take(
        self, bound: _Bound, request: WSGIRequest, kwargs: dict[str, Any]
    ) -> tuple[str, Any] | None:
        """Whether the lean path answers: the language it answers in and what the route
        prepared; None for Django's path, having counted and written nothing."""
        try:
            found = self.authenticate(get_authorization_header(request))  # type: ignore[arg-type]
            if found is None:
                return None  # no bearer token: 401 on Django's path
            request.user, request.auth = found  # type: ignore[attr-defined]
            prepared = bound.route.prepare(request, kwargs)
            if prepared is None:
                return None
            return _language(request, getattr(request.user, "language", "")), prepared
        except Exception:  # a token refused (401, 403 banned), the database down (503)...
            return None  # Django's path answers it as it does

    def _route(self, environ: dict[str, Any]) -> tuple[_Bound, dict[str, Any]] | None:
        if not settings.WEB_LEAN_PATH:
            return None
        method, path = environ["REQUEST_METHOD"], environ["PATH_INFO"]
        for bound in self.routes:
            if bound.route.method == method and (match := bound.route.pattern.fullmatch(path)):
                return bound, match.groupdict()
        return None

    def _answer(
        self, bound: _Bound, request: WSGIRequest, kwargs: dict[str, Any], prepared: Any
    ) -> Answer:
        start = time.perf_counter()
        sent = request.META.get("HTTP_X_REQUEST_ID", "")
        rid = logs.request_id_for(sent)
        logs.clear()
        logs.bind(request_id=rid, game_id=kwargs.get("game_id"))
        try:
            for throttle in bound.throttles:
                throttle().allow_request(request, None)  # type: ignore[arg-type]
            response = bound.route.answer(request, kwargs, prepared)
        except Exception as error:  # answered as DRF and Django would
            response = _error(request, error)
        response = _finalize(response, bound.view_headers)
        hook: Any  # each hook's own types of response
        for hook in bound.hooks:
            response = hook.process_response(request, response)
        response[logs.REQUEST_ID_HEADER] = rid
        if response.status_code >= 400:
            log_response(
                "%s: %s",
                response.reason_phrase,
                request.path,
                response=response,  # type: ignore[arg-type]
                request=request,
            )
        metrics.HTTP_DURATION.labels(bound.label).observe(time.perf_counter() - start)
        metrics.HTTP_REQUESTS.labels(bound.label, request.method, response.status_code).inc()
        headers = [
            (name.lower().encode("latin1"), value.encode("latin1"))
            for name, value in response.items()
        ]
        return response.status_code, headers, response.content  # type: ignore[attr-defined]


def _plain(request: WSGIRequest, query: bool) -> bool:
    """A request whose answer has no part the lean path leaves out (see the module's text); a
    query string only for a route that reads one."""
    meta = request.META
    if "HTTP_COOKIE" in meta or (meta.get("QUERY_STRING") and not query):
        return False
    if not plain_accept(meta):
        return False
    if settings.PREPEND_WWW or settings.DISALLOWED_USER_AGENTS:
        return False
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        return False  # redirected by SecurityMiddleware
    try:
        request.get_host()
    except DisallowedHost:
        return False
    return True


def _language(request: WSGIRequest, own: str) -> str:
    """What LocaleMiddleware activates, then the player's own language where the request names
    none of ours (core/i18n.py's use_player_language)."""
    language = translation.get_language_from_request(request, check_path=False)
    if own and header_language(request.META.get("HTTP_ACCEPT_LANGUAGE", "")) is None:
        return own
    return language


def _error(request: WSGIRequest, error: Exception) -> HttpResponseBase:
    """The error's answer as DRF's exception handler words it, or Django's 500."""
    answer = exception_handler(error, {"request": request})
    if answer is not None:
        return answer
    signals.got_request_exception.send(sender=None, request=request)
    logger.error("Internal Server Error: %s", request.path, exc_info=error)
    return server_error(request)


def _finalize(response: HttpResponseBase, view_headers: dict[str, str]) -> HttpResponseBase:
    """What DRF's `finalize_response` and Django's handler do to a view's answer: the view's
    headers (`Allow`; `Vary: Accept` where it has two renderers), and a DRF response rendered
    by the one renderer a plain `Accept` chooses."""
    for name, value in view_headers.items():
        if name == "Vary":
            patch_vary_headers(response, [value])
        else:
            response[name] = value
    if isinstance(response, DRFResponse):
        response.accepted_renderer = JSONRenderer()
        response.accepted_media_type = "application/json"
        response.renderer_context = {}  # type: ignore[attr-defined]
        response.render()
    return response
