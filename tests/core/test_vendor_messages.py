"""core/vendor_messages.py holds every message DRF can answer with, exactly as DRF spells it, so
that our catalog translates it (DRF has no Hebrew, Nepali or Hindi worth the name). A DRF
upgrade that adds or rewords one fails here: copy the printed message into the module (and
its translations into the catalog)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from django.utils import translation
from rest_framework import (
    authentication,
    exceptions,
    fields,
    pagination,
    relations,
    serializers,
    validators,
)

import core.vendor_messages

# What a paginator says of its query parameters: the schema's (English) descriptions.
_SCHEMA_ONLY = {
    "A page number within the paginated result set.",
    "Number of results to return per page.",
    "The initial index from which to return the results.",
    "The pagination cursor value.",
}


def _declared() -> set[str]:
    """Every msgid of the module, read as makemessages reads it (the literal arguments)."""
    tree = ast.parse(Path(core.vendor_messages.__file__).read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            for argument in node.args:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found.add(argument.value)
    return found


def _english(message: object) -> str:
    with translation.override(None):
        return str(message)


def _inline_messages(module: object) -> set[str]:
    """The `_("...")` texts of a module's source (authentication, pagination)."""
    found = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):  # type: ignore[arg-type]
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_":
            argument = node.args[0] if node.args else None
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
    return found


def _drf_messages() -> set[str]:
    found: set[str] = set()
    for module in (fields, serializers, relations):
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == module.__name__:
                messages = getattr(cls, "default_error_messages", {})
                found.update(_english(message) for message in messages.values())
    for cls in vars(exceptions).values():
        if inspect.isclass(cls) and issubclass(cls, exceptions.APIException):
            found.add(_english(cls.default_detail))
    found.update(_inline_messages(authentication))
    found.update(_inline_messages(pagination) - _SCHEMA_ONLY)
    found.add(_english(validators.ProhibitSurrogateCharactersValidator.message))
    return found


def test_every_drf_message_is_declared() -> None:
    missing = sorted(_drf_messages() - _declared())
    assert missing == [], "add these to core/vendor_messages.py:\n" + "\n".join(missing)


def test_the_walk_finds_drf_messages() -> None:
    messages = _drf_messages()
    assert "This field is required." in messages
    assert "Authentication credentials were not provided." in messages
    assert "Ensure this field has no more than {max_length} characters." in messages
    assert "Invalid page." in messages
