"""core/negotiation.py answers the common requests itself: always as DRF's own negotiation
would, a refusal (406, or 404 for an unknown `?format=`) included."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.http import Http404
from django.test import RequestFactory
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.request import Request

from core.negotiation import ContentNegotiation
from core.renderers import JSONRenderer

ACCEPTS = [
    None,
    "",
    "*/*",
    " */* ",
    "application/*",
    "application/json",
    "application/json, text/plain",
    "text/html, */*",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json; indent=2",
    "application/json;q=0.5",
    "text/html",
    "image/png",
]


def _negotiate(negotiation: Any, accept: str | None, query: str, renderers: list[Any]) -> Any:
    headers: dict[str, Any] = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(RequestFactory().get(f"/api/v1/rules/{query}", **headers))
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)
    except (NotAcceptable, Http404) as refused:
        return type(refused).__name__
    return type(renderer).__name__, media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api", "?formats=1"])
@pytest.mark.parametrize("debug", [False, True])
def test_it_negotiates_as_drf_does(accept: str | None, query: str, debug: bool) -> None:
    renderers = [JSONRenderer(), *([BrowsableAPIRenderer()] if debug else [])]
    ours = _negotiate(ContentNegotiation(), accept, query, renderers)
    assert ours == _negotiate(DefaultContentNegotiation(), accept, query, renderers)


def test_a_plain_request_is_not_parsed() -> None:
    with mock.patch.object(DefaultContentNegotiation, "select_renderer") as drf:
        found = _negotiate(ContentNegotiation(), "application/json", "", [JSONRenderer()])
    assert found == ("JSONRenderer", "application/json")
    assert not drf.called
