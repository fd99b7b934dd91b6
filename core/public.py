"""Reads anyone may make without a token (docs/api.md, Public reads): players, their games
and rating history, the leaderboard, the live ranked games and a finished ranked game's record.

A website's widget polls these, so each answer carries an `ETag` (a digest of its body) and
`Cache-Control`, and a request whose `If-None-Match` names the current ETag gets `304 Not
Modified` with no body: the server still builds the answer (the digest is of the body), but
sends nothing and the client parses nothing. Anonymous answers may be kept by any cache for
`YANIV_PUBLIC_MAX_AGE_SECONDS`; an authenticated caller's answer may hold what only they may
see (a private game they sat at), so it is private and revalidated each time (`Vary:
Authorization`). A token sent is still checked: a bad one is 401, as everywhere.

`with_etag` and `not_modified` are also what a read that knows its ETag before it builds its
answer uses (`GET /games/{id}/`: games/apis.py), so that both kinds answer alike.
"""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.throttles import PlayerRateThrottle, PublicIpThrottle

R = TypeVar("R", bound=HttpResponse)

IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The `ETag` of an answer you hold: 304 with no body while it is current.",
)
ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description="The answer's tag: send it back as `If-None-Match`.",
)
NOT_MODIFIED = {
    304: OpenApiResponse(description="Not modified: the `ETag` sent is still the answer's.")
}


def with_etag(response: R, etag: str, *, public: bool) -> R:
    """`response` with `etag` and the caching headers of a read: kept by any cache for
    `YANIV_PUBLIC_MAX_AGE_SECONDS` when `public`, else private and revalidated each time."""
    response["ETag"] = etag
    patch_vary_headers(response, ["Authorization"])
    if public:
        patch_cache_control(response, public=True, max_age=settings.YANIV_PUBLIC_MAX_AGE_SECONDS)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    return response


def not_modified(request: Request | HttpRequest, response: HttpResponse) -> HttpResponseBase | None:
    """304 Not Modified, with `response`'s ETag and caching headers and no body, when the
    request's `If-None-Match` names `response`'s ETag (or 412 for an `If-Match` that fails);
    else None: `response` stands."""
    http = request._request if isinstance(request, Request) else request
    answer = get_conditional_response(http, etag=response["ETag"], response=response)
    return None if answer is response else answer


class PublicReadApi(APIView):
    """A GET view open to anyone, with ETags, Cache-Control and a per-IP limit for anonymous
    callers (authenticated callers count against their own player limit)."""

    permission_classes = (AllowAny,)
    throttle_classes = (PlayerRateThrottle, PublicIpThrottle)

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method not in {"GET", "HEAD"} or response.status_code != 200:
            return response
        response.render()
        digest = f'"{hashlib.sha256(response.content).hexdigest()[:32]}"'
        with_etag(response, digest, public=request.user is None)
        return not_modified(request, response) or response


PAGE_PARAMETERS = [OpenApiParameter("limit", int), OpenApiParameter("offset", int)]


class Pagination(LimitOffsetPagination):
    max_limit = 200

    @classmethod
    def respond(
        cls,
        request: Request,
        view: APIView,
        rows: Any,
        serializer: type[serializers.Serializer[Any]],
    ) -> Response:
        """The page of `rows` the request asks for, each as `serializer` shows it."""
        paginator = cls()
        page = paginator.paginate_queryset(rows, request, view=view)
        assert page is not None  # a paginator is always configured here
        return paginator.get_paginated_response([serializer(row).data for row in page])
