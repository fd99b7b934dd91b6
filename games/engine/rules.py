"""The house rules of one game (RULES.md §9): ``Rules`` and the typed options it holds.

Each option that changes how the game is played is a type carrying that behaviour, and
scoring and the CPU ask it rather than spell the rule out again: an ``Ending`` knows its
limit and whether players go out one by one, an ``ExactScores`` its drop, an ``AssafScores``
what the players who made an Assaf score. ``Rules.deck`` is the deck the rules deal.

Where a new rule goes (RULES.md §12's variants, issue 19, land here first):

- A new value of an option (``ending: out_at_100``): a member of its enum, and whatever it
  changes in that enum's methods (``room``, and so ``over``, for "at" rather than "over");
  callers stay as they are.
- A new option (``hand_size``, ``direction``...): a field of ``Rules`` with its RULES.md
  default, its entry in ``to_dict`` and its check in ``_CHECKS`` (in field order: the first
  bad key in that order is the one an error names), and, if it is a choice that changes
  behaviour, an enum like those below with that behaviour as its methods. The engine then
  reads it from ``Rules`` where it applies (``state``, ``scoring``, ``cpu``), and
  ``tests/games/engine/test_rules.py`` covers its values.
- A preset (several keys at once): resolved in ``Rules.from_dict``, before the checks, so
  that keys given next to it override it and everything past the parse sees plain options.

Not here: the turn limit (``turn_seconds``). The engine never looks at a clock; the server
keeps the limit beside these rules (``games.table_rules``).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, Literal

from games.engine.cards import full_deck
from games.engine.errors import InvalidRules


class AssafScores(StrEnum):
    """What the players who made an Assaf (lowest hand, at or under the caller's) score."""

    HAND = "hand"
    """Their hand, like everyone else."""
    ZERO = "zero"
    """Nothing."""

    def score(self, hand: int) -> int:
        """What a player who made the Assaf with a hand worth ``hand`` scores."""
        return 0 if self is AssafScores.ZERO else hand


class ExactScores(StrEnum):
    """Which running totals are halved when a round lands exactly on them (RULES.md §6)."""

    HALVE_100_200 = "100_200"
    HALVE_50 = "halve_50"
    """Every multiple of 50."""
    NONE = "none"

    def drop(self, total: int) -> int:
        """The running total ``total`` after its exact-score drop (if it has one)."""
        if self is ExactScores.HALVE_100_200:
            return total // 2 if total in (100, 200) else total
        if self is ExactScores.HALVE_50:
            return total // 2 if total and total % 50 == 0 else total
        return total


class Ending(StrEnum):
    """How the game ends (RULES.md §7): players over the limit go out one by one until one is
    left, or the whole game ends as soon as anyone is over it."""

    OUT_OVER_100 = "out_over_100"
    OUT_OVER_200 = "out_over_200"
    FIRST_OVER_100 = "first_over_100"

    @property
    def limit(self) -> int:
        """The total named by the rule; ``room`` and ``over`` say which totals lie past it."""
        return 200 if self is Ending.OUT_OVER_200 else 100

    @property
    def knocks_out(self) -> bool:
        """Whether a player over the limit goes out and the others play on (else the game ends,
        and places go by total alone)."""
        return self is not Ending.FIRST_OVER_100

    def room(self, total: int) -> int:
        """How many points a player on ``total`` may still score and not go over (negative once
        over): the limit itself is still in."""
        return self.limit - total

    def over(self, total: int) -> bool:
        """Whether a running total of ``total`` knocks its player out (or ends the game)."""
        return self.room(total) < 0


Jokers = Literal[2, 0]


def one_of(key: str, value: object, choices: Sequence[object]) -> Any:
    """``value`` if it is one of ``choices`` (of the same JSON type: ``true`` is not 1), else
    ``InvalidRules`` naming them; ``None`` among the choices reads ``null``."""
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return value
    shown = ", ".join("null" if choice is None else repr(choice) for choice in choices)
    raise InvalidRules(f"{key} must be one of {shown}")


def _integer(low: int, high: int) -> Callable[[str, object], Any]:
    def check(key: str, value: object) -> Any:
        # bool is an int subclass, but `true` is not a call limit.
        if type(value) is not int or not low <= value <= high:
            raise InvalidRules(f"{key} must be an integer from {low} to {high}")
        return value

    return check


def _choice(choices: Sequence[object]) -> Callable[[str, object], Any]:
    return lambda key, value: one_of(key, value, choices)


def _option(option: type[StrEnum]) -> Callable[[str, object], Any]:
    values = tuple(member.value for member in option)
    return lambda key, value: option(one_of(key, value, values))


@dataclass(frozen=True, slots=True)
class Rules:
    call_limit: int = 5
    assaf_penalty: int = 30
    assaf_scores: AssafScores = AssafScores.HAND
    jokers: Jokers = 2
    exact_scores: ExactScores = ExactScores.HALVE_100_200
    ending: Ending = Ending.OUT_OVER_100

    @property
    def deck(self) -> tuple[str, ...]:
        """The unshuffled deck these rules play with."""
        return full_deck(self.jokers)

    @classmethod
    def from_dict(cls, data: object) -> "Rules":
        """Rules from API/record JSON: missing keys take the defaults, anything else is refused."""
        if not isinstance(data, Mapping):
            raise InvalidRules("rules must be an object")
        try:
            # The JSON types are part of the key: `true` and `1.0` equal 1 but are refused.
            key = tuple((name, type(value), value) for name, value in data.items())
            return _parse(key)
        except TypeError:  # an unhashable value, which no rule takes: let the checks say so
            return _check(data)

    def to_dict(self) -> dict[str, Any]:
        return {
            "call_limit": self.call_limit,
            "assaf_penalty": self.assaf_penalty,
            "assaf_scores": self.assaf_scores.value,
            "jokers": self.jokers,
            "exact_scores": self.exact_scores.value,
            "ending": self.ending.value,
        }


# One check per field, in field order: the first bad key found is the one the error names.
_CHECKS: dict[str, Callable[[str, object], Any]] = {
    "call_limit": _integer(0, 10),
    "assaf_penalty": _integer(0, 100),
    "assaf_scores": _option(AssafScores),
    "jokers": _choice((2, 0)),
    "exact_scores": _option(ExactScores),
    "ending": _option(Ending),
}


def _check(data: Mapping[str, object]) -> Rules:
    for key in data:
        if key not in _CHECKS:
            raise InvalidRules(f"unknown rule {key!r}")
    return Rules(**{key: check(key, data[key]) for key, check in _CHECKS.items() if key in data})


@lru_cache(maxsize=256)
def _parse(key: tuple[tuple[str, type, object], ...]) -> Rules:
    """``_check`` of the rules in ``key``, once per distinct spelling: every stored state holds
    its game's rules, and a game has one set of them. Errors are not cached."""
    return _check({name: value for name, _, value in key})


DEFAULT_RULES = Rules()
