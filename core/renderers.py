"""The API's one renderer: DRF's JSON renderer, its bytes encoded by orjson (core/encoding.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework import renderers

from core.encoding import Fragment, json_bytes


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if self.get_indent(accepted_media_type or "", renderer_context or {}):
            # `Accept: application/json; indent=2` asks for it laid out (and the browsable
            # API, in DEBUG): DRF's own, seldom; a body encoded already is read back first.
            if isinstance(data, Fragment):
                data = orjson.loads(data.contents)
            laid_out: bytes = super().render(data, accepted_media_type, renderer_context)
            return laid_out
        # A `Fragment` (a body encoded already: games/apis.py) is written as it is.
        return json_bytes(data)
