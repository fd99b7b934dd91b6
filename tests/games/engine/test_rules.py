import json
from dataclasses import fields
from typing import Any

import pytest

from games.engine.cards import full_deck
from games.engine.errors import InvalidRules
from games.engine.rules import AssafScores, Ending, ExactScores, Rules

DEFAULTS = {
    "call_limit": 5,
    "assaf_penalty": 30,
    "assaf_scores": "hand",
    "jokers": 2,
    "exact_scores": "100_200",
    "ending": "out_over_100",
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
        ({"ending": ["out_over_100"]}, "ending must be one of"),
    ],
)
def test_bad_rules_are_refused_with_a_reason(data: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidRules, match=words):
        Rules.from_dict(data)


def test_rules_must_be_an_object() -> None:
    with pytest.raises(InvalidRules, match="object"):
        Rules.from_dict(["call_limit", 5])


def test_the_first_bad_key_in_rule_order_is_named() -> None:
    with pytest.raises(InvalidRules, match="call_limit"):
        Rules.from_dict({"ending": "sometime", "call_limit": 11})
    with pytest.raises(InvalidRules, match="unknown rule 'speed'"):
        Rules.from_dict({"call_limit": 11, "speed": 1})


def test_the_engine_rules_have_no_clock() -> None:
    # The turn limit is the server's (games.table_rules); the engine refuses it as any other key.
    with pytest.raises(InvalidRules, match="unknown rule 'turn_seconds'"):
        Rules.from_dict({"turn_seconds": 30})


def test_a_parsed_value_is_not_mistaken_for_an_equal_one_of_another_type() -> None:
    # Parses are remembered: 1 first, then `true` (equal to 1, and hashed alike) is still refused.
    assert Rules.from_dict({"call_limit": 1}).call_limit == 1
    with pytest.raises(InvalidRules, match="call_limit"):
        Rules.from_dict({"call_limit": True})
    with pytest.raises(InvalidRules, match="call_limit"):
        Rules.from_dict({"call_limit": 1.0})


def test_options_are_typed_and_stored_as_plain_json() -> None:
    rules = Rules.from_dict(
        {"assaf_scores": "zero", "exact_scores": "none", "ending": "out_over_200"}
    )
    assert rules.assaf_scores is AssafScores.ZERO
    assert rules.exact_scores is ExactScores.NONE
    assert rules.ending is Ending.OUT_OVER_200
    stored = rules.to_dict()
    assert all(type(value) in (int, str) for value in stored.values())
    assert Rules.from_dict(json.loads(json.dumps(stored))) == rules


def test_every_field_has_a_check_and_is_stored() -> None:
    names = [field.name for field in fields(Rules)]
    assert list(Rules().to_dict()) == names
    for name in names:
        with pytest.raises(InvalidRules, match=name):
            Rules.from_dict({name: "not a value of any rule"})


@pytest.mark.parametrize(
    ("option", "values"),
    [
        (AssafScores, ["hand", "zero"]),
        (ExactScores, ["100_200", "halve_50", "none"]),
        (Ending, ["out_over_100", "out_over_200", "first_over_100"]),
    ],
)
def test_every_value_of_an_option_round_trips(option: Any, values: list[str]) -> None:
    assert [member.value for member in option] == values
    key = {AssafScores: "assaf_scores", ExactScores: "exact_scores", Ending: "ending"}[option]
    for value in values:
        assert getattr(Rules.from_dict({key: value}), key) is option(value)


@pytest.mark.parametrize(
    ("mode", "before", "after"),
    [
        ("100_200", 100, 50),
        ("100_200", 200, 100),
        ("100_200", 150, 150),
        ("100_200", 50, 50),
        ("halve_50", 50, 25),
        ("halve_50", 100, 50),
        ("halve_50", 150, 75),
        ("halve_50", 200, 100),
        ("halve_50", 75, 75),
        ("halve_50", 0, 0),
        ("none", 100, 100),
        ("none", 200, 200),
    ],
)
def test_exact_drop(mode: str, before: int, after: int) -> None:
    assert ExactScores(mode).drop(before) == after


@pytest.mark.parametrize(
    ("ending", "limit", "knocks_out"),
    [
        (Ending.OUT_OVER_100, 100, True),
        (Ending.OUT_OVER_200, 200, True),
        (Ending.FIRST_OVER_100, 100, False),
    ],
)
def test_an_ending_knows_its_limit(ending: Ending, limit: int, knocks_out: bool) -> None:
    assert ending.limit == limit
    assert ending.knocks_out is knocks_out
    # Strictly over: landing on the limit keeps a player in.
    assert ending.room(limit - 7) == 7
    assert ending.room(limit) == 0
    assert not ending.over(limit)
    assert ending.room(limit + 1) == -1
    assert ending.over(limit + 1)


def test_what_the_assaf_makers_score() -> None:
    assert AssafScores.HAND.score(4) == 4
    assert AssafScores.ZERO.score(4) == 0


def test_the_rules_deal_their_deck() -> None:
    assert Rules().deck == full_deck(2)
    assert len(Rules(jokers=0).deck) == 52
    assert Rules(jokers=0).deck == full_deck(0)
