"""The published OpenAPI schema as a check on everything the suite receives (tests/conftest.py).

Every JSON answer a test client gets is validated against its operation's response for its
status (a status the operation does not list fails too), and every websocket message against
the socket's component (`GameSocketMessage`, `MeSocketMessage`). So a payload that its builder
changed without its TypedDict, or a schema that says other than what is sent, fails the test
that met it. One check is stricter than the schema: an object may hold no key the schema does
not name (it would pass a client's decoder unseen, and a hidden card could leave that way);
error bodies are exempt, as some codes add keys of their own (docs/api.md).

Validators are compiled once per schema (jsonschema_rs), the first time one is needed.
"""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema_rs
from drf_spectacular.generators import SchemaGenerator

# The component each socket's messages are (docs/api.md, Realtime), by path prefix.
SOCKETS = {"/ws/v1/games/": "GameSocketMessage", "/ws/v1/me/": "MeSocketMessage"}
# Components that may carry keys they do not name.
OPEN = {"Error"}
_COMPOSITIONS = ("allOf", "anyOf", "oneOf")


class PayloadMismatch(AssertionError):
    """A body or a message the published schema does not describe."""


class PublishedSchema:
    """The schema `SchemaGenerator` publishes, read the first time it is asked for."""

    def __init__(self) -> None:
        self._document: dict[str, Any] | None = None
        self._components: dict[str, Any] = {}
        self._paths: list[tuple[re.Pattern[str], dict[str, Any], str]] = []
        self._validators: dict[tuple[Any, ...], Any] = {}

    def _load(self) -> dict[str, Any]:
        if self._document is None:
            document = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
            self._components = {
                name: json_schema(schema, strict=name not in OPEN)
                for name, schema in document["components"]["schemas"].items()
            }
            # A literal path before one with parameters that would match it too.
            for template in sorted(document["paths"], key=lambda path: path.count("{")):
                parts = re.split(r"\{[^}]+\}", template)
                pattern = re.compile("[^/]+".join(map(re.escape, parts)) + r"\Z")
                self._paths.append((pattern, document["paths"][template], template))
            self._document = document
        return self._document

    def check_response(
        self,
        method: str,
        path: str,
        status: int,
        body: Any,
        content_type: str = "application/json",
    ) -> None:
        """Raise PayloadMismatch unless `body` (parsed JSON, else the bytes or None) is what
        the schema says `method path` answers with `status`. Paths the schema has no
        operation for are not checked."""
        self._load()
        found = next(
            ((ops, name) for pattern, ops, name in self._paths if pattern.match(path)), None
        )
        if found is None:
            return
        operations, template = found
        operation = operations.get(method.lower())
        if operation is None:
            return  # a method the path does not serve: DRF's 405, not an operation's answer
        where = f"{method} {template} answered {status}"
        response = operation["responses"].get(str(status))
        if response is None:
            raise PayloadMismatch(f"{where}, a status the schema does not list")
        schema = response.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            if body is not None:
                raise PayloadMismatch(f"{where} with a body the schema does not describe")
            return
        if body is None or not content_type.startswith("application/json"):
            raise PayloadMismatch(f"{where} with {content_type or 'no'} content, not JSON")
        self._validate(("response", template, method, status), schema, body, where)

    def check_message(self, path: str, text: str) -> None:
        """Raise PayloadMismatch unless the websocket text frame is one of the socket's
        messages (or the path is no socket of the API)."""
        self._load()
        for prefix, component in SOCKETS.items():
            if path.startswith(prefix):
                schema = {"$ref": f"#/components/schemas/{component}"}
                message = json.loads(text)
                self._validate(("socket", component), schema, message, f"{path} sent a message")
                return

    def _validate(
        self, key: tuple[Any, ...], schema: dict[str, Any], body: Any, where: str
    ) -> None:
        validator = self._validators.get(key)
        if validator is None:
            root = {"components": {"schemas": self._components}, "allOf": [json_schema(schema)]}
            validator = jsonschema_rs.Draft202012Validator(root, validate_formats=True)
            self._validators[key] = validator
        errors = [
            f"{error.instance_path}: {error.message}" for error in validator.iter_errors(body)
        ]
        if errors:
            sent = json.dumps(body)[:2000]
            raise PayloadMismatch(f"{where} that the schema does not describe: {errors}; {sent}")


def json_schema(node: Any, strict: bool = True) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: `nullable` as a null alternative; with `strict`,
    objects that name their properties hold no others."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: json_schema(item, strict) for name, item in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = json_schema(value, strict)
        elif key in _COMPOSITIONS:
            out[key] = [json_schema(item, strict) for item in value]
        elif key != "nullable":
            out[key] = value
    if strict and "properties" in node and "additionalProperties" not in node:
        out["additionalProperties"] = False
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out
