"""`action_input` checks a well-formed action without building `ActionInput` (games/apis.py):
for any body, it must give what the serializer gives, and refuse what it refuses."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.apis import ActionInput, action_input

CARDS = ["AS", "9H", "TD", "KC", "X1", "X4", "X5", "1S", "as", " 9H", "9H ", "", "10H", "QQ"]
_values = st.one_of(
    st.integers(min_value=-3, max_value=2**70),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.sampled_from(["play", "yaniv", "stock", "PLAY", " play", "5", "-1", "5.0", *CARDS]),
    st.lists(st.sampled_from(CARDS), max_size=15),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
_bodies = st.one_of(
    st.fixed_dictionaries(
        {"seq": _values, "type": _values},
        optional={"cards": _values, "draw": _values, "extra": _values},
    ),
    st.fixed_dictionaries(
        {
            "seq": st.integers(min_value=0, max_value=99),
            "type": st.just("play"),
            "cards": st.lists(st.sampled_from(CARDS), max_size=15),
            "draw": st.sampled_from(["stock", *CARDS]),
        }
    ),
    st.lists(st.integers(), max_size=2),
    st.text(max_size=5),
    st.none(),
)


def _serializer(data: Any) -> dict[str, Any] | None:
    serializer = ActionInput(data=data)
    return dict(serializer.validated_data) if serializer.is_valid() else None


def _fast(data: Any) -> dict[str, Any] | None:
    try:
        return dict(action_input(data))
    except ValidationError:
        return None


@settings(max_examples=600, deadline=None)
@given(_bodies)
def test_it_answers_every_body_as_the_serializer_does(data: Any) -> None:
    assert _fast(data) == _serializer(data)


@pytest.mark.parametrize(
    "data",
    [
        {"seq": 3, "type": "play", "cards": ["9H", "9S"], "draw": "stock"},
        {"seq": 0, "type": "play", "cards": ["X1"], "draw": "KC"},
        {"seq": 12, "type": "yaniv"},
    ],
)
def test_a_well_formed_action_skips_the_serializer(data: dict[str, Any], monkeypatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the serializer was built")

    monkeypatch.setattr(ActionInput, "__init__", refuse)
    assert action_input(data) == data


def test_a_refusal_is_the_serializers() -> None:
    with pytest.raises(ValidationError) as refused:
        action_input({"seq": 3, "type": "play", "cards": ["9H"]})
    assert "draw" in refused.value.detail
