"""The one application error type, and the one place that turns errors into HTTP answers.

Services raise `ApplicationError` (no HTTP knowledge beyond a suggested status); DRF's own
exceptions (validation, authentication...) are reshaped here too, so that every 4xx body has
at least `detail` (human text) and `code` (a stable, machine-readable string). Every 429, of
every limit, is a `ThrottledError` (the throttles raise it themselves: core/throttles.py). A Redis
or broker that does not answer is a 503 `unavailable` with `Retry-After`, from wherever in the
request it was called (throttles, tickets, idempotency keys, a task queued in the request).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Annotated, Any, NotRequired, TypedDict

import redis
from django import db
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from kombu.exceptions import OperationalError as BrokerError
from rest_framework import exceptions, serializers
from rest_framework.response import Response

from core.payloads import Doc, PayloadSerializers, Timestamp, Uuid

logger = logging.getLogger(__name__)


class ApplicationError(Exception):
    """A refusal the client can act on: `code` is stable, `detail` explains, `extra` adds data.

    `extra` is merged into the response body (e.g. `{"game": {...}}` with `stale_seq`); it must
    not use the keys `detail` or `code`.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        status: int = 400,
        extra: Mapping[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status
        self.extra: dict[str, Any] = dict(extra or {})
        # Seconds, sent as `Retry-After` (every 429 has one: ThrottledError).
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return {**self.extra, "detail": self.detail, "code": self.code}


class ThrottledError(ApplicationError):
    """The one 429, whatever the limit: `Retry-After` and `{"detail", "code": "throttled",
    "scope", "retry_after"}`, `scope` naming the limit and `retry_after` the header's seconds
    (`wait` rounded up, at least 1)."""

    def __init__(self, scope: str, wait: float, detail: str | None = None) -> None:
        seconds = max(1, math.ceil(wait))
        super().__init__(
            "throttled",
            detail
            or _("Too many requests (%(scope)s): try again in %(seconds)s seconds.")
            % {"scope": scope, "seconds": seconds},
            429,
            extra={"scope": scope, "retry_after": seconds},
            retry_after=seconds,
        )


class ErrorData(TypedDict):
    """Every error body. Some codes add keys of their own (`stale_seq` adds `game`...)."""

    detail: str
    code: str
    errors: NotRequired[
        Annotated[
            dict[str, list[str]],
            Doc("With `invalid`: messages per field (`non_field_errors` for the whole body)."),
        ]
    ]
    until: NotRequired[Annotated[Timestamp, Doc("With `queue_banned`: when the ban ends.")]]
    game_id: NotRequired[Annotated[Uuid, Doc("With `rematch_started`: the new game.")]]
    scope: NotRequired[
        Annotated[str, Doc("With `throttled`: the limit reached (`player`, `chat_flood`...).")]
    ]
    retry_after: NotRequired[
        Annotated[int, Doc("With `throttled`: seconds to wait, as the `Retry-After` header.")]
    ]


ErrorSerializer = PayloadSerializers().of(ErrorData)


def error_responses(*statuses: int) -> dict[int, type[serializers.Serializer[Any]]]:
    """`extend_schema(responses={200: X, **error_responses(400, 404)})`: the error bodies."""
    return dict.fromkeys(statuses, ErrorSerializer)


# Redis (and Celery's broker, which is Redis) not answering: a moment's outage, not a bug. (Not
# every RedisError: a refused command or script is a bug, a 500.) The same for PostgreSQL: an
# OperationalError is a lost or refused connection, a pool that gave none in time, a deadlock
# or a cancelled statement, all worth retrying; a bad query is a ProgrammingError, a 500.
# Whatever the request changed is rolled back with the answer.
_UNAVAILABLE = (
    redis.ConnectionError,
    redis.TimeoutError,
    BrokerError,
    db.OperationalError,
    db.InterfaceError,
)
# Long enough for a brief stall to pass (core/redis.py refuses calls for a second after one).
UNAVAILABLE_RETRY_AFTER = 2


# DRF's own codes are kept (`not_authenticated`, `permission_denied`, `throttled`...), except
# where the contract names a different one: a body that does not parse is just invalid input.
_CODE_OVERRIDES = {"parse_error": "invalid"}


def _flatten(errors: Any, prefix: str = "") -> dict[str, list[str]]:
    """`{"a": {"b": ["msg"]}}` -> `{"a.b": ["msg"]}`: clients show messages by field path."""
    if isinstance(errors, Mapping):
        flat: dict[str, list[str]] = {}
        for key, value in errors.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            flat.update(_flatten(value, path))
        return flat
    if isinstance(errors, list) and any(isinstance(item, Mapping | list) for item in errors):
        flat = {}
        for index, item in enumerate(errors):
            flat.update(_flatten(item, f"{prefix}.{index}" if prefix else str(index)))
        return flat
    messages = errors if isinstance(errors, list) else [errors]
    return {prefix or "non_field_errors": [str(message) for message in messages]}


def _validation_body(exc: exceptions.ValidationError) -> ErrorData:
    errors = _flatten(exc.detail)
    detail = _("Invalid input.")
    for field, messages in errors.items():
        if messages:
            detail = messages[0] if field == "non_field_errors" else f"{field}: {messages[0]}"
            break
    return {"detail": detail, "code": "invalid", "errors": errors}


def _api_exception_body(exc: exceptions.APIException) -> ErrorData:
    detail = exc.detail
    if isinstance(detail, list | dict):
        # Only ValidationError carries structured details in DRF; others may, if raised so.
        return {"detail": str(exc.default_detail), "code": str(exc.default_code)}
    code = getattr(detail, "code", None) or exc.default_code
    return {"detail": str(detail), "code": _CODE_OVERRIDES.get(code, code)}


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER. Anything not recognised stays a 500 (returns None)."""
    # Imported here: rest_framework.views loads the authentication classes, which import the
    # services that import this module.
    from rest_framework.views import set_rollback

    if isinstance(exc, ApplicationError):
        set_rollback()
        retry = {} if exc.retry_after is None else {"Retry-After": str(max(1, exc.retry_after))}
        return Response(exc.body(), status=exc.status, headers=retry)
    if isinstance(exc, _UNAVAILABLE):
        logger.warning("answered 503: %r", exc)
        set_rollback()
        body: ErrorData = {
            "detail": _("Briefly unavailable: retry in a moment."),
            "code": "unavailable",
        }
        return Response(body, status=503, headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER)})

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None

    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    if isinstance(exc, exceptions.ValidationError):
        body = _validation_body(exc)
    else:
        body = _api_exception_body(exc)
    set_rollback()
    return Response(body, status=exc.status_code, headers=headers)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """`handler404`: JSON under /api/ (a URL no view matched), Django's page elsewhere."""
    if _is_api(request):
        return JsonResponse({"detail": _("Not found."), "code": "not_found"}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """`handler500`: JSON under /api/, Django's page elsewhere."""
    if _is_api(request):
        body = {"detail": _("Internal server error."), "code": "server_error"}
        return JsonResponse(body, status=500)
    return defaults.server_error(request)
