"""The API's one request parser: DRF's JSON parser, with a body nested too deeply for Python's
decoder refused as bad input (400 `invalid`) rather than left to escape as a 500."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            # The decoder recurses once per level: some 1,000 levels exhaust the stack (no
            # body this API takes is more than three deep). DRF turns only ValueError into a
            # ParseError, which core/errors.py answers as 400 `invalid`.
            raise ParseError(_("JSON parse error - the body is nested too deeply.")) from error
