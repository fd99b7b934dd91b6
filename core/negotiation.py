"""The API's content negotiation: DRF's, with the common case answered without parsing.

Why: DRF builds the request's `headers` mapping and parses every `Accept` token into media
types for every request: half of what an `APIView` costs before the view runs (some 80 of its
170 us, in-process, issue 34). With one renderer (JSON; DEBUG adds the browsable API) and an
`Accept` that is absent or only `*/*`, `application/*` or `application/json` without
parameters, and no `?format=`, DRF's answer is known: that renderer, `application/json`. Any
other request (a browser's `text/html, ...`, `application/json; indent=2`, a `format`, an
`Accept` nothing matches: 406) goes to DRF's negotiation unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

_PLAIN = frozenset({"*/*", "application/*", "application/json"})


def plain_accept(meta: dict[str, Any]) -> bool:
    """Whether a request's `Accept` is absent or plain (the module's text), with no `format`
    in its query: one that JSON answers, whatever the renderers."""
    accept = meta.get("HTTP_ACCEPT")
    plain = accept is None or all(token.strip() in _PLAIN for token in accept.split(","))
    return plain and "format" not in meta.get("QUERY_STRING", "")


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        one = len(renderers) == 1 and renderers[0].media_type in _PLAIN
        if one and not format_suffix and plain_accept(request._request.META):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
