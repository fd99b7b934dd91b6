import json
from collections import Counter
from dataclasses import fields
from typing import Any

import pytest

from games.engine.cards import full_deck
from games.engine.errors import InvalidRules
from games.engine.rules import (
    PRESETS,
    AssafPenaltyRule,
    AssafScores,
    Direction,
    DrawFrom,
    Ending,
    ExactScores,
    Preset,
    Rules,
    Values,
)

DEFAULTS = {
    "preset": "standard",
    "call_limit": 5,
    "assaf_penalty": 30,
    "assaf_scores": "hand",
    "jokers": 2,
    "exact_scores": "100_200",
    "ending": "out_over_100",
    "decks": 1,
    "hand_size": 5,
    "direction": "clockwise",
    "values": "standard",
    "joker_value": 0,
    "draw_from": "ends",
    "final_turns": False,
    "first_turn_call": True,
    "assaf_penalty_rule": "fixed",
    "wild_rank": False,
    "sevens": False,
    "spy_queen": False,
}


def test_defaults_follow_the_rules_table() -> None:
    assert Rules().to_dict() == DEFAULTS
    assert Rules.from_dict({}) == Rules()


def test_from_dict_takes_every_allowed_value() -> None:
    chosen = {
        "preset": "dhumbal",
        "call_limit": 7,
        "assaf_penalty": 25,
        "assaf_scores": "zero",
        "jokers": 0,
        "exact_scores": "halve_50",
        "ending": "first_over_100",
        "decks": 2,
        "hand_size": 8,
        "direction": "counterclockwise",
        "values": "jacks_zero",
        "joker_value": 20,
        "draw_from": "any_of_last",
        "final_turns": True,
        "first_turn_call": False,
        "assaf_penalty_rule": "twice_highest",
        "wild_rank": True,
        "sevens": True,
        "spy_queen": True,
    }
    rules = Rules.from_dict(chosen)
    assert rules.to_dict() == chosen
    assert Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("call_limit", 0),
        ("call_limit", 10),
        ("call_limit", 15),
        ("hand_size", 5),
        ("hand_size", 8),
        ("ending", "out_at_100"),
        ("ending", "first_at_200"),
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
        ({"call_limit": 16}, "call_limit must be an integer from 0 to 15"),
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
        ({"preset": "klondike"}, "preset must be one of 'standard', 'nepalese'"),
        ({"preset": "nepalese", "jokers": 1}, "jokers"),
        ({"decks": 3}, "decks must be one of 1, 2"),
        ({"decks": True}, "decks"),
        ({"hand_size": 4}, "hand_size must be an integer from 5 to 8"),
        ({"hand_size": 9}, "hand_size"),
        ({"direction": "widdershins"}, "direction must be one of 'clockwise', 'counterclockwise'"),
        ({"values": "aces_high"}, "values"),
        ({"joker_value": 10}, "joker_value must be one of 0, 20"),
        ({"draw_from": "anywhere"}, "draw_from"),
        ({"final_turns": 1}, "final_turns must be one of True, False"),
        ({"first_turn_call": "no"}, "first_turn_call"),
        ({"assaf_penalty_rule": "thrice"}, "assaf_penalty_rule"),
        ({"wild_rank": None}, "wild_rank"),
        ({"sevens": 0}, "sevens"),
        ({"spy_queen": "QD"}, "spy_queen"),
        ({"ending": "out_at_150"}, "ending"),
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
        Rules.from_dict({"ending": "sometime", "call_limit": 16})
    with pytest.raises(InvalidRules, match="unknown rule 'speed'"):
        Rules.from_dict({"call_limit": 16, "speed": 1})
    with pytest.raises(InvalidRules, match="preset"):
        Rules.from_dict({"sevens": "often", "preset": "none"})


def test_the_engine_rules_have_no_clock() -> None:
    # The turn limit is the server's (games.game_rules); the engine refuses it as any other key.
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
    assert all(type(value) in (int, str, bool) for value in stored.values())
    assert Rules.from_dict(json.loads(json.dumps(stored))) == rules


def test_every_field_has_a_check_and_is_stored() -> None:
    names = [field.name for field in fields(Rules) if field.init]
    assert list(Rules().to_dict()) == names
    for name in names:
        with pytest.raises(InvalidRules, match=name):
            Rules.from_dict({name: "not a value of any rule"})


@pytest.mark.parametrize(
    ("option", "values"),
    [
        (AssafScores, ["hand", "zero"]),
        (ExactScores, ["100_200", "halve_50", "none"]),
        (
            Ending,
            [
                "out_over_100",
                "out_over_200",
                "first_over_100",
                "out_at_100",
                "out_at_200",
                "first_at_200",
            ],
        ),
        (Preset, ["standard", "nepalese", "dhumbal", "yellow_lemon", "least_count", "declare"]),
        (Direction, ["clockwise", "counterclockwise"]),
        (Values, ["standard", "jacks_zero", "faces_high"]),
        (DrawFrom, ["ends", "any_of_last"]),
        (AssafPenaltyRule, ["fixed", "twice_highest"]),
    ],
)
def test_every_value_of_an_option_round_trips(option: Any, values: list[str]) -> None:
    assert [member.value for member in option] == values
    key = {
        AssafScores: "assaf_scores",
        ExactScores: "exact_scores",
        Ending: "ending",
        Preset: "preset",
        Direction: "direction",
        Values: "values",
        DrawFrom: "draw_from",
        AssafPenaltyRule: "assaf_penalty_rule",
    }[option]
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
def test_an_over_ending_knows_its_limit(ending: Ending, limit: int, knocks_out: bool) -> None:
    assert ending.limit == limit
    assert ending.knocks_out is knocks_out
    # Strictly over: landing on the limit keeps a player in.
    assert ending.room(limit - 7) == 7
    assert ending.room(limit) == 0
    assert not ending.over(limit)
    assert ending.room(limit + 1) == -1
    assert ending.over(limit + 1)


@pytest.mark.parametrize(
    ("ending", "limit", "knocks_out"),
    [
        (Ending.OUT_AT_100, 100, True),
        (Ending.OUT_AT_200, 200, True),
        (Ending.FIRST_AT_200, 200, False),
    ],
)
def test_an_at_ending_puts_the_limit_itself_out(
    ending: Ending, limit: int, knocks_out: bool
) -> None:
    assert ending.limit == limit
    assert ending.knocks_out is knocks_out
    assert ending.room(limit - 7) == 6
    assert ending.room(limit - 1) == 0
    assert not ending.over(limit - 1)
    assert ending.room(limit) == -1
    assert ending.over(limit)


def test_what_the_assaf_makers_score() -> None:
    assert AssafScores.HAND.score(4) == 4
    assert AssafScores.ZERO.score(4) == 0


def test_the_rules_deal_their_deck() -> None:
    assert Rules().deck == full_deck(2)
    assert len(Rules(jokers=0).deck) == 52
    assert Rules(jokers=0).deck == full_deck(0)


def test_two_decks_deal_every_code_twice_and_four_jokers() -> None:
    deck = Rules(decks=2).deck
    assert len(deck) == 108
    assert Counter(deck) == Counter(full_deck(2) + full_deck(2, 1)[:52] + ("X3", "X4"))
    assert {deck.count(card) for card in full_deck(0)} == {2}
    assert len(Rules(decks=2, jokers=0).deck) == 104
    assert "X3" not in Rules(decks=2, jokers=0).deck


def test_seats_per_deck() -> None:
    assert Rules().max_players == 5
    assert Rules(decks=2).max_players == 8


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("standard", {}),
        (
            "nepalese",
            {
                "direction": "counterclockwise",
                "jokers": 0,
                "values": "jacks_zero",
                "draw_from": "any_of_last",
                "assaf_penalty": 25,
                "ending": "out_at_100",
                "exact_scores": "none",
            },
        ),
        (
            "dhumbal",
            {"jokers": 0, "values": "faces_high", "call_limit": 15, "assaf_penalty": 20},
        ),
        (
            "yellow_lemon",
            {
                "joker_value": 20,
                "hand_size": 7,
                "call_limit": 9,
                "final_turns": True,
                "assaf_penalty": 20,
            },
        ),
        (
            "least_count",
            {
                "decks": 2,
                "jokers": 0,
                "wild_rank": True,
                "call_limit": 4,
                "assaf_penalty": 25,
                "ending": "out_at_200",
                "exact_scores": "none",
            },
        ),
        (
            "declare",
            {
                "first_turn_call": False,
                "final_turns": True,
                "assaf_penalty_rule": "twice_highest",
                "ending": "first_at_200",
            },
        ),
    ],
)
def test_a_preset_resolves_to_its_keys_of_rules_md(preset: str, expected: dict[str, Any]) -> None:
    # The table of docs/rules.md §12, spelled out again here so that a wrong PRESETS entry fails.
    assert PRESETS[Preset(preset)] == expected
    resolved = Rules.from_dict({"preset": preset}).to_dict()
    assert resolved == {**DEFAULTS, "preset": preset, **expected}
    assert Rules.from_dict(resolved) == Rules.from_dict({"preset": preset})


def test_keys_given_next_to_a_preset_override_it() -> None:
    rules = Rules.from_dict({"preset": "nepalese", "jokers": 2, "sevens": True})
    assert rules.preset is Preset.NEPALESE
    assert rules.jokers == 2
    assert rules.sevens
    assert rules.direction is Direction.COUNTERCLOCKWISE
    # The resolved keys are the truth: read back, the preset's name changes nothing.
    assert Rules.from_dict(rules.to_dict()) == rules


def test_values_of_cards() -> None:
    standard = Rules().card_values()
    assert [standard[code] for code in ("AS", "7H", "TD", "JC", "QS", "KH", "X1", "X4")] == [
        1,
        7,
        10,
        10,
        10,
        10,
        0,
        0,
    ]
    jacks = Rules(values=Values.JACKS_ZERO).card_values()
    assert (jacks["JH"], jacks["QH"], jacks["KH"]) == (0, 10, 10)
    high = Rules(values=Values.FACES_HIGH, joker_value=20).card_values()
    assert (high["TH"], high["JH"], high["QH"], high["KH"], high["X3"]) == (10, 11, 12, 13, 20)
    assert Rules(values=Values.FACES_HIGH, joker_value=20).max_card_value == 20
    assert Rules().max_card_value == 10


def test_the_wild_rank_scores_zero_unless_the_wild_card_is_a_joker() -> None:
    wild = Rules(wild_rank=True).card_values("8C")
    assert (wild["8S"], wild["8C"], wild["9C"]) == (0, 0, 9)
    assert Rules(wild_rank=True).card_values("X2") == Rules().card_values()


def test_the_direction_orders_the_seats() -> None:
    assert Direction.CLOCKWISE.order(2, 4) == [2, 3, 0, 1]
    assert Direction.COUNTERCLOCKWISE.order(2, 4) == [2, 1, 0, 3]


def test_what_may_be_drawn_from_the_last_group() -> None:
    assert DrawFrom.ENDS.takeable(["4H", "5H", "6H"]) == ("4H", "6H")
    assert DrawFrom.ENDS.takeable(["KS"]) == ("KS",)
    assert DrawFrom.ENDS.takeable(["5S", "5D", "5S"]) == ("5S",)
    assert DrawFrom.ANY_OF_LAST.takeable(["4H", "5H", "6H"]) == ("4H", "5H", "6H")
    assert DrawFrom.ANY_OF_LAST.takeable(["5S", "5D", "5S"]) == ("5S", "5D")


def test_the_assaf_penalty() -> None:
    assert AssafPenaltyRule.FIXED.penalty(30, [4, 17, 9]) == 30
    assert AssafPenaltyRule.TWICE_HIGHEST.penalty(30, [4, 17, 9]) == 34


def test_sevens_and_the_spy_queen_only_under_their_keys() -> None:
    assert Rules(sevens=True).forced_draws(["7H", "7S", "7C"]) == 3
    assert Rules(sevens=True).forced_draws(["6H", "7H", "8H"]) == 1
    assert Rules(sevens=True).forced_draws(["QD"]) == 0
    assert Rules().forced_draws(["7H", "7S"]) == 0
    assert Rules(spy_queen=True).spies(["QD", "QS"])
    assert not Rules(spy_queen=True).spies(["QH"])
    assert not Rules().spies(["QD"])
