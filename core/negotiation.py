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


class ContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        if len(renderers) == 1 and not format_suffix and renderers[0].media_type in _PLAIN:
            meta: dict[str, Any] = request._request.META
            accept = meta.get("HTTP_ACCEPT")
            plain = accept is None or all(token.strip() in _PLAIN for token in accept.split(","))
            if plain and "format" not in meta.get("QUERY_STRING", ""):
                return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
