"""Payloads as TypedDicts: one definition that types what a builder returns and is the schema.

A hot payload (the `game` object, built per viewer per move) is a plain dict: at four seats
it takes ~15 us, and its serializer's `.data` would add ~500 us. Its TypedDict types the
builder, and `PayloadSerializers` turns that same TypedDict into the serializer
drf-spectacular reads, so the OpenAPI schema cannot say other than what the code builds.
(drf-spectacular reads a TypedDict itself only inline, without components, descriptions or
formats.)

What the schema says beyond the Python type goes in `Annotated` metadata: `Doc` (the field's
description), `Default`; `Uuid` and `Timestamp` are strings with a format.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from rest_framework import serializers

SerializerClass = type[serializers.Serializer[Any]]
Field = serializers.Field[Any, Any, Any, Any]


@dataclass(frozen=True)
class Doc:
    """`Annotated[int, Doc("...")]`: the field's description in the schema."""

    text: str


@dataclass(frozen=True)
class Default:
    """`Annotated[str, Default("x")]`: the value a client assumes when the key is absent."""

    value: Any


@dataclass(frozen=True)
class _Format:
    name: Literal["uuid", "date-time"]


Uuid = Annotated[str, _Format("uuid")]
Timestamp = Annotated[str, _Format("date-time")]  # ISO 8601

_SIMPLE: dict[Any, type[Field]] = {
    bool: serializers.BooleanField,
    int: serializers.IntegerField,
    float: serializers.FloatField,
    str: serializers.CharField,
}
_FORMATS: dict[str, type[Field]] = {
    "uuid": serializers.UUIDField,
    "date-time": serializers.DateTimeField,
}


class PayloadSerializers:
    """The serializers of TypedDicts, one class per TypedDict (a schema component named after
    it, less a `Data` suffix). `known` maps a TypedDict to the serializer that already
    describes it (the `player`, ratings.payloads.PlayerSerializer)."""

    def __init__(self, known: Mapping[type, SerializerClass] | None = None) -> None:
        self._classes: dict[type, SerializerClass] = dict(known or {})

    def of(self, data: type) -> SerializerClass:
        """The serializer of the TypedDict `data`, for the schema only (it builds nothing).
        Its docstring, if any, is the component's description: write it for clients."""
        if data not in self._classes:
            if not is_typeddict(data):
                raise TypeError(f"{data!r} is not a TypedDict")
            hints = get_type_hints(data, include_extras=True)
            required = data.__required_keys__  # type: ignore[attr-defined]
            fields = {
                key: self._field(hint, required=key in required) for key, hint in hints.items()
            }
            name = data.__name__.removesuffix("Data")
            # drf-spectacular shows a serializer's docstring as its component's description.
            attrs: dict[str, Any] = {**fields, "__doc__": data.__doc__}
            self._classes[data] = type(name, (serializers.Serializer,), attrs)
        return self._classes[data]

    def _field(self, hint: Any, **options: Any) -> Field:
        """The field of one key's type: `Annotated`, `NotRequired` and `| None` peeled off
        into the field's options, then the type itself."""
        fmt = None
        while True:
            origin = get_origin(hint)
            if origin is Annotated:
                for item in hint.__metadata__:
                    if isinstance(item, Doc):
                        options["help_text"] = item.text
                    elif isinstance(item, Default):
                        options["default"] = item.value
                    elif isinstance(item, _Format):
                        fmt = item.name
                hint = hint.__origin__
            elif origin is NotRequired or origin is Required:
                # Said again here: under `from __future__ import annotations`, Python 3.11
                # does not see these in a TypedDict's string annotations (__required_keys__).
                options["required"] = origin is Required
                hint = get_args(hint)[0]
            elif origin is Union or origin is types.UnionType:
                kinds = [arg for arg in get_args(hint) if arg is not type(None)]
                if len(kinds) != 1:
                    raise TypeError(f"a payload field has one type, or it and None: {hint}")
                options["allow_null"] = True
                hint = kinds[0]
            else:
                break
        args = get_args(hint)
        if hint in self._classes or is_typeddict(hint):
            return self.of(hint)(**options)
        if origin is Literal:
            return serializers.ChoiceField(choices=list(args), **options)
        if isinstance(hint, type) and issubclass(hint, Enum):
            return serializers.ChoiceField(choices=[item.value for item in hint], **options)
        if origin is list:
            child = self._field(args[0])
            if isinstance(child, serializers.BaseSerializer) and child.allow_null:
                # drf-spectacular would publish the items as never null.
                raise TypeError(f"no schema for a list of nullable objects: {hint}")
            return serializers.ListField(child=child, **options)
        if origin is dict:
            if args[1] is Any:
                return serializers.DictField(**options)
            return serializers.DictField(child=self._field(args[1]), **options)
        if fmt is not None:
            return _FORMATS[fmt](**options)
        if hint in _SIMPLE:
            return _SIMPLE[hint](**options)
        raise TypeError(f"no schema for the payload type {hint!r}")
