from typing import Any

import pytest

from games.engine.errors import InvalidRules
from games.engine.rules import Rules

DEFAULTS = {
    "call_limit": 5,
    "assaf_penalty": 30,
    "assaf_scores": "hand",
    "jokers": 2,
    "exact_scores": "100_200",
    "ending": "out_over_100",
    "turn_seconds": None,
}


def test_defaults_follow_the_rules_table() -> None:
    assert Rules().to_dict() == DEFAULTS
    assert Rules.from_dict({}) == Rules()


def test_from_dict_takes_every_allowed_value() -> None:
    chosen = {
        "call_limit": 7,
        "assaf_penalty": 25,
        "assaf_scores": "zero",
        "jokers": 0,
        "exact_scores": "halve_50",
        "ending": "first_over_100",
        "turn_seconds": 60,
    }
    rules = Rules.from_dict(chosen)
    assert rules.to_dict() == chosen
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("call_limit", 0),
        ("call_limit", 10),
        ("assaf_penalty", 0),
        ("assaf_penalty", 100),
        ("exact_scores", "none"),
        ("ending", "out_over_200"),
        ("turn_seconds", 30),
        ("turn_seconds", None),
    ],
)
def test_boundary_values_are_accepted(key: str, value: Any) -> None:
    assert Rules.from_dict({key: value}).to_dict()[key] == value


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"colour": "red"}, "unknown rule 'colour'"),
        ({"call_limit": 11}, "call_limit must be an integer from 0 to 10"),
        ({"call_limit": -1}, "call_limit"),
        ({"call_limit": 5.0}, "call_limit"),
        ({"call_limit": True}, "call_limit"),
        ({"call_limit": "5"}, "call_limit"),
        ({"assaf_penalty": 101}, "assaf_penalty must be an integer from 0 to 100"),
        ({"assaf_scores": "half"}, "assaf_scores must be one of 'hand', 'zero'"),
        ({"jokers": 1}, "jokers"),
        ({"jokers": "2"}, "jokers"),
        ({"jokers": False}, "jokers"),
        ({"exact_scores": "100"}, "exact_scores"),
        ({"ending": "out_over_150"}, "ending"),
        ({"turn_seconds": 45}, "turn_seconds must be one of null, 30, 60"),
        ({"turn_seconds": 30.0}, "turn_seconds"),
    ],
)
def test_bad_rules_are_refused_with_a_reason(data: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidRules, match=words):
        Rules.from_dict(data)


def test_rules_must_be_an_object() -> None:
    with pytest.raises(InvalidRules, match="object"):
        Rules.from_dict(["call_limit", 5])
