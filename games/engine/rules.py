"""The rules of one game (docs/rules.md §9 and the variants of §12): ``Rules`` and the typed
options it holds.

Each option that changes how the game is played is a type carrying that behaviour, and the
engine and the CPU ask it rather than spell the rule out again: an ``Ending`` knows its limit,
whether players go out one by one and whether the limit itself is out; an ``ExactScores`` its
drop; an ``AssafScores`` what the players who made an Assaf score; an ``AssafPenaltyRule`` what
the caller pays; a ``Direction`` the order of seats; ``Values`` the points of a card; a
``DrawFrom`` which cards of the last group may be drawn. ``Rules`` itself answers what depends
on several keys: ``deck`` (the multiset the rules deal: with two decks every code twice, jokers
``X1``..``X4``), ``max_players``, ``card_values`` (per round: the wild rank scores 0),
``forced_draws`` (sevens) and ``spies`` (the spy queen). Nothing anywhere asks which preset a
game was made from.

Where a new rule goes:

- A new value of an option (``ending: out_at_100``): a member of its enum, and whatever it
  changes in that enum's methods (``room``, and so ``over``, for "at" rather than "over");
  callers stay as they are.
- A new option: a field of ``Rules`` with its docs/rules.md default, its entry in ``to_dict`` and
  its check in ``_CHECKS`` (in field order: the first bad key in that order is the one an error
  names), and, if it is a choice that changes behaviour, an enum like those below with that
  behaviour as its methods. The engine then reads it from ``Rules`` where it applies
  (``state``, ``scoring``, ``cpu``), and ``tests/games/engine/test_rules.py`` covers its
  values. (The two fields outside ``__init__``, ``codes_repeat`` and ``variant_play``, are no
  options: ``__post_init__`` derives them from the others.)
- A preset (several keys at once, docs/rules.md §12): a member of ``Preset`` and its keys in
  ``PRESETS``, plain data. ``Rules.from_dict`` lays the keys given next to a preset over its
  keys, before the checks, so everything past the parse sees plain options.

``preset`` stays a field: the name the host chose, shown back (``to_dict``) beside every key it
resolved to. The resolved keys are the truth: reading ``to_dict()`` back gives the same rules
whatever the preset says, since every key is explicit there, and no rule reads the name.

Not here: the turn limit (``turn_seconds``). The engine never looks at a clock; the server
keeps the limit beside these rules (``games.game_rules``).
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any, Literal

from games.engine.cards import JACK, JOKERS, MAX_VALUE, NATURALS, RANK, full_deck
from games.engine.errors import InvalidRules
from games.engine.groups import takeable

SEVEN = 7
SPY = "QD"
"""The spy queen (RULES.md §12): the queen of diamonds."""
PLAYERS_PER_DECK = {1: 5, 2: 8}


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
    """Which running totals are halved when a round lands exactly on them (docs/rules.md §6)."""

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
    """How the game ends (docs/rules.md §7, §12): players past the limit go out one by one until one
    is left, or the whole game ends as soon as anyone is past it. "over" endings let a player
    stay on the limit itself; "at" endings put them out there too."""

    OUT_OVER_100 = "out_over_100"
    OUT_OVER_200 = "out_over_200"
    FIRST_OVER_100 = "first_over_100"
    OUT_AT_100 = "out_at_100"
    OUT_AT_200 = "out_at_200"
    FIRST_AT_200 = "first_at_200"

    # Cached on the member: scoring asks these for every seat at every round's end.
    @cached_property
    def limit(self) -> int:
        """The total named by the rule; ``room`` and ``over`` say which totals lie past it."""
        return 200 if self.value.endswith("200") else 100

    @cached_property
    def knocks_out(self) -> bool:
        """Whether a player past the limit goes out and the others play on (else the game ends,
        and places go by total alone)."""
        return self.value.startswith("out")

    @cached_property
    def limit_is_out(self) -> bool:
        """Whether a total of exactly the limit is past it ("at" endings)."""
        return "_at_" in self.value

    def room(self, total: int) -> int:
        """How many points a player on ``total`` may still score and stay in (negative once
        past the limit): under "over" endings the limit itself is still in, under "at" ones
        it is out."""
        return self.limit - self.limit_is_out - total

    def over(self, total: int) -> bool:
        """Whether a running total of ``total`` knocks its player out (or ends the game)."""
        return self.room(total) < 0


class AssafPenaltyRule(StrEnum):
    """What an Assaf costs the caller on top of their own total (docs/rules.md §6, §12)."""

    FIXED = "fixed"
    """``assaf_penalty``."""
    TWICE_HIGHEST = "twice_highest"
    """Twice the highest hand total among the other active players."""

    def penalty(self, fixed: int, others: Iterable[int]) -> int:
        """The penalty, given ``assaf_penalty`` and the other active players' hand totals."""
        return 2 * max(others) if self is AssafPenaltyRule.TWICE_HIGHEST else fixed


class Direction(StrEnum):
    """The order of dealing and turns, and of every "clockwise" of docs/rules.md §3-§7 (§12)."""

    CLOCKWISE = "clockwise"
    """By increasing seat index."""
    COUNTERCLOCKWISE = "counterclockwise"

    @cached_property
    def step(self) -> int:
        """What the next seat adds to a seat's index (modulo the number of seats)."""
        return 1 if self is Direction.CLOCKWISE else -1

    def order(self, start: int, players: int) -> list[int]:
        """Every seat once, starting at ``start`` and going this way round."""
        step = self.step
        return [(start + step * index) % players for index in range(players)]


class Values(StrEnum):
    """The points of a natural card (docs/rules.md §1, §12); the rank order of runs never
    changes."""

    STANDARD = "standard"
    """Ace 1, 2-10 their face, J, Q and K 10."""
    JACKS_ZERO = "jacks_zero"
    """As standard, but a jack is worth 0."""
    FACES_HIGH = "faces_high"
    """J 11, Q 12, K 13: every card its rank."""

    def points(self, rank: int) -> int:
        """The points of a natural card of ``rank`` (A=1 .. K=13)."""
        if self is Values.FACES_HIGH:
            return rank
        if self is Values.JACKS_ZERO and rank == JACK:
            return 0
        return min(rank, MAX_VALUE)


class DrawFrom(StrEnum):
    """Which cards of the previous player's group may be drawn (docs/rules.md §4.2, §12)."""

    ENDS = "ends"
    """Its first and last laid card."""
    ANY_OF_LAST = "any_of_last"
    """Any of its cards, middle included."""

    def takeable(self, group: Sequence[str]) -> tuple[str, ...]:
        """The codes that may be drawn from ``group``, each once."""
        if self is DrawFrom.ANY_OF_LAST:
            return tuple(dict.fromkeys(group))
        return takeable(group)


class Preset(StrEnum):
    """A named set of keys (docs/rules.md §12); ``PRESETS`` holds them."""

    STANDARD = "standard"
    NEPALESE = "nepalese"
    DHUMBAL = "dhumbal"
    YELLOW_LEMON = "yellow_lemon"
    LEAST_COUNT = "least_count"
    DECLARE = "declare"


PRESETS: Mapping[Preset, Mapping[str, object]] = {
    Preset.STANDARD: {},
    Preset.NEPALESE: {
        "direction": "counterclockwise",
        "jokers": 0,
        "values": "jacks_zero",
        "draw_from": "any_of_last",
        "assaf_penalty": 25,
        "ending": "out_at_100",
        "exact_scores": "none",
    },
    Preset.DHUMBAL: {"jokers": 0, "values": "faces_high", "call_limit": 15, "assaf_penalty": 20},
    Preset.YELLOW_LEMON: {
        "joker_value": 20,
        "hand_size": 7,
        "call_limit": 9,
        "final_turns": True,
        "assaf_penalty": 20,
    },
    Preset.LEAST_COUNT: {
        "decks": 2,
        "jokers": 0,
        "wild_rank": True,
        "call_limit": 4,
        "assaf_penalty": 25,
        "ending": "out_at_200",
        "exact_scores": "none",
    },
    Preset.DECLARE: {
        "first_turn_call": False,
        "final_turns": True,
        "assaf_penalty_rule": "twice_highest",
        "ending": "first_at_200",
    },
}
"""The keys of each preset, as JSON would spell them (RULES.md §12's table)."""

Jokers = Literal[2, 0]
Decks = Literal[1, 2]
JokerValue = Literal[0, 20]


def one_of(key: str, value: object, choices: Sequence[object]) -> Any:
    """``value`` if it is one of ``choices`` (of the same JSON type: ``true`` is not 1), else
    ``InvalidRules`` naming them; ``None`` among the choices reads ``null``."""
    for choice in choices:
        if type(value) is type(choice) and value == choice:
            return value
    shown = ", ".join("null" if choice is None else repr(choice) for choice in choices)
    raise InvalidRules("%(key)s must be one of %(choices)s", key=key, choices=shown)


def _integer(low: int, high: int) -> Callable[[str, object], Any]:
    def check(key: str, value: object) -> Any:
        # bool is an int subclass, but `true` is not a call limit.
        if type(value) is not int or not low <= value <= high:
            raise InvalidRules(
                "%(key)s must be an integer from %(low)s to %(high)s", key=key, low=low, high=high
            )
        return value

    return check


def _choice(choices: Sequence[object]) -> Callable[[str, object], Any]:
    return lambda key, value: one_of(key, value, choices)


def _option(option: type[StrEnum]) -> Callable[[str, object], Any]:
    values = tuple(member.value for member in option)
    return lambda key, value: option(one_of(key, value, values))


@dataclass(frozen=True)
class Rules:
    preset: Preset = Preset.STANDARD
    """The name the host chose; its keys are already laid into the fields below."""
    call_limit: int = 5
    assaf_penalty: int = 30
    assaf_scores: AssafScores = AssafScores.HAND
    jokers: Jokers = 2
    """Per deck."""
    exact_scores: ExactScores = ExactScores.HALVE_100_200
    ending: Ending = Ending.OUT_OVER_100
    decks: Decks = 1
    hand_size: int = 5
    direction: Direction = Direction.CLOCKWISE
    values: Values = Values.STANDARD
    joker_value: JokerValue = 0
    draw_from: DrawFrom = DrawFrom.ENDS
    final_turns: bool = False
    """A call freezes the caller's hand and every other active player takes one more turn."""
    first_turn_call: bool = True
    """Whether a player may call on their first turn of a round."""
    assaf_penalty_rule: AssafPenaltyRule = AssafPenaltyRule.FIXED
    wild_rank: bool = False
    """Whether each round turns a wild card up, whose rank scores 0 and is joker-like in runs."""
    sevens: bool = False
    """Whether each seven discarded makes every other active player draw a card."""
    spy_queen: bool = False
    """Whether discarding the queen of diamonds shows the discarder the other hands."""
    # Derived from the options above when the rules are made, not options themselves. The
    # engine asks them on every play: plain fields read fastest (a property runs a call; a
    # ``cached_property`` moves every attribute of the instance into a slower dict).
    codes_repeat: bool = field(init=False, repr=False, compare=False)
    """Whether two cards may share a code (two decks)."""
    variant_play: bool = field(init=False, repr=False, compare=False)
    """Whether a play may do more than §4 says (forced draws, spying) or must be counted
    (no call on a first turn)."""

    def __post_init__(self) -> None:
        # Frozen: the derived fields are set the way the generated __init__ sets the others.
        object.__setattr__(self, "codes_repeat", self.decks > 1)
        variant = self.sevens or self.spy_queen or not self.first_turn_call
        object.__setattr__(self, "variant_play", variant)

    @property
    def deck(self) -> tuple[str, ...]:
        """The unshuffled deck these rules play with: a multiset with two decks."""
        return full_deck(self.jokers, self.decks)

    @property
    def max_players(self) -> int:
        """The most seats these rules can deal to: 5 with one deck, 8 with two."""
        return PLAYERS_PER_DECK[self.decks]

    def card_values(self, wild: str | None = None) -> Mapping[str, int]:
        """The points of every code in a round whose wild card is ``wild`` (None: no wild card;
        a joker: no wild rank). Shared, never to be changed."""
        return _card_values(self.values, self.joker_value, RANK.get(wild or "", 0))

    @property
    def max_card_value(self) -> int:
        """The most points one card can be worth under these rules."""
        return max(self.card_values().values())

    def forced_draws(self, group: Iterable[str]) -> int:
        """How many cards every other active player draws after ``group`` is discarded."""
        return sum(RANK[card] == SEVEN for card in group) if self.sevens else 0

    def spies(self, group: Iterable[str]) -> bool:
        """Whether discarding ``group`` shows the discarder the other hands."""
        return self.spy_queen and SPY in group

    @classmethod
    def from_dict(cls, data: object) -> "Rules":
        """Rules from API/record JSON: a ``preset``'s keys under the keys given, the defaults
        for the rest; anything else is refused."""
        if not isinstance(data, Mapping):
            raise InvalidRules("rules must be an object")
        try:
            # The JSON types are part of the key: `true` and `1.0` equal 1 but are refused.
            return _parse(tuple(data.items()), tuple(map(type, data.values())))
        except TypeError:  # an unhashable value, which no rule takes: let the checks say so
            return _check(data)

    def to_dict(self) -> dict[str, Any]:
        """Every key, resolved: plain JSON types, in field order."""
        return {
            "preset": self.preset.value,
            "call_limit": self.call_limit,
            "assaf_penalty": self.assaf_penalty,
            "assaf_scores": self.assaf_scores.value,
            "jokers": self.jokers,
            "exact_scores": self.exact_scores.value,
            "ending": self.ending.value,
            "decks": self.decks,
            "hand_size": self.hand_size,
            "direction": self.direction.value,
            "values": self.values.value,
            "joker_value": self.joker_value,
            "draw_from": self.draw_from.value,
            "final_turns": self.final_turns,
            "first_turn_call": self.first_turn_call,
            "assaf_penalty_rule": self.assaf_penalty_rule.value,
            "wild_rank": self.wild_rank,
            "sevens": self.sevens,
            "spy_queen": self.spy_queen,
        }


@lru_cache(maxsize=64)
def _card_values(values: Values, joker_value: int, wild_rank: int) -> Mapping[str, int]:
    points = {
        code: 0 if RANK[code] == wild_rank else values.points(RANK[code]) for code in NATURALS
    }
    points.update(dict.fromkeys(JOKERS, joker_value))
    return points


_BOOLEAN = _choice((True, False))

# One check per field, in field order: the first bad key found is the one the error names.
_CHECKS: dict[str, Callable[[str, object], Any]] = {
    "preset": _option(Preset),
    "call_limit": _integer(0, 15),
    "assaf_penalty": _integer(0, 100),
    "assaf_scores": _option(AssafScores),
    "jokers": _choice((2, 0)),
    "exact_scores": _option(ExactScores),
    "ending": _option(Ending),
    "decks": _choice((1, 2)),
    "hand_size": _integer(5, 8),
    "direction": _option(Direction),
    "values": _option(Values),
    "joker_value": _choice((0, 20)),
    "draw_from": _option(DrawFrom),
    "final_turns": _BOOLEAN,
    "first_turn_call": _BOOLEAN,
    "assaf_penalty_rule": _option(AssafPenaltyRule),
    "wild_rank": _BOOLEAN,
    "sevens": _BOOLEAN,
    "spy_queen": _BOOLEAN,
}


def _check(data: Mapping[str, object]) -> Rules:
    for key in data:
        if key not in _CHECKS:
            raise InvalidRules("unknown rule %(key)s", key=repr(key))
    if "preset" in data:
        preset = _CHECKS["preset"]("preset", data["preset"])
        data = {**PRESETS[preset], **data}
    return Rules(**{key: check(key, data[key]) for key, check in _CHECKS.items() if key in data})


@lru_cache(maxsize=256)
def _parse(items: tuple[tuple[str, object], ...], types: tuple[type, ...]) -> Rules:
    """``_check`` of the rules ``items`` (whose values have these ``types``), once per distinct
    spelling: every stored state holds its game's rules, and a game has one set of them.
    Errors are not cached."""
    return _check(dict(items))


DEFAULT_RULES = Rules()
