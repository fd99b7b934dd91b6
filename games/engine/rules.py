"""House rules of one game (RULES.md §9)."""

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, cast

from games.engine.errors import InvalidRules

AssafScores = Literal["hand", "zero"]
ExactScores = Literal["100_200", "halve_50", "none"]
Ending = Literal["out_over_100", "out_over_200", "first_over_100"]

_CHOICES: dict[str, tuple[object, ...]] = {
    "assaf_scores": ("hand", "zero"),
    "jokers": (2, 0),
    "exact_scores": ("100_200", "halve_50", "none"),
    "ending": ("out_over_100", "out_over_200", "first_over_100"),
    "turn_seconds": (None, 30, 60),
}
_RANGES: dict[str, tuple[int, int]] = {"call_limit": (0, 10), "assaf_penalty": (0, 100)}


@dataclass(frozen=True, slots=True)
class Rules:
    call_limit: int = 5
    assaf_penalty: int = 30
    assaf_scores: AssafScores = "hand"
    jokers: Literal[2, 0] = 2
    exact_scores: ExactScores = "100_200"
    ending: Ending = "out_over_100"
    # The engine never looks at the clock; the limit travels with the rules so that a record
    # and the API describe the whole table.
    turn_seconds: Literal[30, 60] | None = None

    @classmethod
    def from_dict(cls, data: object) -> "Rules":
        """Rules from API/record JSON: missing keys take the defaults, anything else is refused."""
        if not isinstance(data, Mapping):
            raise InvalidRules("rules must be an object")
        known = {field.name for field in fields(cls)}
        for key in data:
            if key not in known:
                raise InvalidRules(f"unknown rule {key!r}")
        for key, (low, high) in _RANGES.items():
            if key in data:
                value = data[key]
                # bool is an int subclass, but `true` is not a call limit.
                if type(value) is not int or not low <= value <= high:
                    raise InvalidRules(f"{key} must be an integer from {low} to {high}")
        for key, choices in _CHOICES.items():
            if key in data:
                value = data[key]
                if not any(type(value) is type(c) and value == c for c in choices):
                    shown = ", ".join("null" if c is None else repr(c) for c in choices)
                    raise InvalidRules(f"{key} must be one of {shown}")
        return cls(**cast(Mapping[str, Any], data))

    def to_dict(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in fields(self)}


DEFAULT_RULES = Rules()
