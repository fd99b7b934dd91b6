"""What the OpenAPI schema says beyond each view's own `extend_schema`.

Views declare their payloads and the refusals that are theirs (404, 409...). The statuses that
any operation can answer for reasons of the transport (a rate limit, a body too large or of the
wrong type, a server that cannot reach its database or Redis) are added here, once, so that a
generated client knows every status it must handle. (The websocket messages, which no
operation answers: config/socket_messages.py.)
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

_RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 1},
        "description": "Seconds to wait before trying again.",
    }
}
_BODY_METHODS = {"post", "put", "patch"}


def paginated(item: serializers.Serializer[Any], name: str) -> serializers.Serializer[Any]:
    """The page every list answers (docs/api.md, Lists): count, next, previous, results."""
    return inline_serializer(
        name=f"Paginated{name}List",
        fields={
            "count": serializers.IntegerField(help_text="Items in the whole list."),
            "next": serializers.URLField(allow_null=True, help_text="The next page, or null."),
            "previous": serializers.URLField(allow_null=True, help_text="The previous page."),
            "results": item,
        },
    )


def _error(description: str, retry_after: bool = False) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    if retry_after:
        response["headers"] = _RETRY_AFTER
    return response


TRANSPORT_ERRORS = {
    "413": _error("`too_large`: the body is over the size limit; nothing was read or applied."),
    "415": _error("`unsupported_media_type`: the body is not `application/json`."),
    "429": _error("`throttled`: a rate limit; wait `Retry-After` seconds.", retry_after=True),
    "503": _error(
        "`unavailable`: the server cannot reach its database or Redis right now; nothing was "
        "applied. Retry after `Retry-After` seconds.",
        retry_after=True,
    ),
}


def add_transport_errors(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: every operation documents 429 and 503; those
    that take a body also 413, and those that parse one 415."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            wanted = ["429", "503"]
            if method in _BODY_METHODS:
                wanted.append("413")
            if "requestBody" in operation:
                wanted.append("415")
            responses = operation.setdefault("responses", {})
            for status in sorted(wanted):
                standard = copy.deepcopy(TRANSPORT_ERRORS[status])
                declared = responses.get(status)
                if declared:
                    # A view that lists the status itself keeps its words, gains the header.
                    standard["description"] = declared.get("description") or standard["description"]
                responses[status] = standard
    return result
