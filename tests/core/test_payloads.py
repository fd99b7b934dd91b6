"""A payload's TypedDict is its schema (core/payloads.py): each key as the schema says it."""

from __future__ import annotations

from enum import StrEnum
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    TypedDict,
    get_origin,
    get_type_hints,
)

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from core.payloads import Default, Doc, PayloadSerializers, Timestamp, Uuid
from games.payloads import EventData, GameData, GameMessage, RecordData, SeatData


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


class InnerData(TypedDict):
    """Said to clients."""

    n: int


class SampleData(TypedDict):
    id: Uuid
    at: Timestamp | None
    note: Annotated[str, Doc("Shown to clients.")]
    kind: Literal["a", "b"]
    colour: Colour
    scores: list[int | None]
    hands: dict[str, list[str]]
    extra: dict[str, Any]
    inner: InnerData | None
    inners: list[InnerData]
    ratio: NotRequired[float]
    format: NotRequired[Annotated[str, Default("v1")]]


def _fields() -> dict[str, Any]:
    return dict(PayloadSerializers().of(SampleData)().fields)


def test_each_kind_of_key_becomes_its_field() -> None:
    fields = _fields()
    assert isinstance(fields["id"], serializers.UUIDField)
    assert isinstance(fields["at"], serializers.DateTimeField)
    assert fields["at"].allow_null
    assert fields["note"].help_text == "Shown to clients."
    assert list(fields["kind"].choices) == ["a", "b"]
    assert list(fields["colour"].choices) == ["red", "blue"]
    assert fields["scores"].child.allow_null
    assert not fields["scores"].allow_null
    assert isinstance(fields["hands"].child, serializers.ListField)
    assert isinstance(fields["extra"], serializers.DictField)
    assert fields["inner"].allow_null
    assert type(fields["inner"]).__name__ == "Inner"
    assert type(fields["inners"].child) is type(fields["inner"])  # one class: one component
    assert isinstance(fields["ratio"], serializers.FloatField)
    assert fields["format"].default == "v1"


def test_not_required_is_seen_under_postponed_annotations() -> None:
    """This module, like the app's, postpones annotations: Python 3.11 then counts a
    `NotRequired` key among the required ones; the serializer does not."""
    fields = _fields()
    assert [key for key, field in fields.items() if not field.required] == ["ratio", "format"]


def test_the_docstring_describes_the_component() -> None:
    assert PayloadSerializers().of(InnerData).__doc__ == "Said to clients."


def test_a_known_serializer_stands_for_its_typeddict() -> None:
    class Known(serializers.Serializer[Any]):
        n = serializers.IntegerField()

    fields = PayloadSerializers({InnerData: Known}).of(SampleData)().fields
    assert type(fields["inner"]) is Known


class NullableItemsData(TypedDict):
    items: list[InnerData | None]


class EitherData(TypedDict):
    value: int | str


@pytest.mark.parametrize("data", [NullableItemsData, EitherData, dict])
def test_what_the_schema_could_not_say_is_refused(data: type) -> None:
    with pytest.raises(TypeError):
        PayloadSerializers().of(data)


@pytest.mark.parametrize("data", [GameData, SeatData, EventData, RecordData, GameMessage])
def test_the_published_component_has_the_typeddicts_keys(data: type) -> None:
    """What the schema publishes is the TypedDict the builder returns, key for key."""
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    component = schema["components"]["schemas"][data.__name__.removesuffix("Data")]
    hints = get_type_hints(data, include_extras=True)
    assert list(component["properties"]) == list(hints)
    optional = {key for key, hint in hints.items() if get_origin(hint) is NotRequired}
    assert set(component["required"]) == set(hints) - optional
