"""Card codes, values and decks (RULES.md §1).

Cards are their two-character codes everywhere (``"TH"``, ``"AS"``, ``"X1"``): the codes are
what the API, records and logs carry, so keeping them as the internal form too means no
conversion on the hot path. The lookup tables below are keyed by the interned codes.
"""

from collections.abc import Iterable
from sys import intern

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKERS: tuple[str, ...] = ("X1", "X2")

NATURALS: tuple[str, ...] = tuple(intern(rank + suit) for suit in SUITS for rank in RANKS)

KING = 13
MAX_VALUE = 10
"""A card's value is its rank, up to this (T, J, Q and K are all worth 10)."""
# Rank for runs: A=1 .. K=13; a joker has no rank of its own (0).
RANK: dict[str, int] = {code: RANKS.index(code[0]) + 1 for code in NATURALS}
RANK.update(dict.fromkeys(JOKERS, 0))

SUIT: dict[str, str] = {code: code[1] for code in NATURALS}
SUIT.update(dict.fromkeys(JOKERS, ""))

VALUE: dict[str, int] = {code: min(RANK[code], MAX_VALUE) for code in NATURALS}
VALUE.update(dict.fromkeys(JOKERS, 0))

HAND_SIZE = 5

_value = VALUE.__getitem__

_DECKS: dict[int, tuple[str, ...]] = {2: NATURALS + JOKERS, 0: NATURALS}


def full_deck(jokers: int) -> tuple[str, ...]:
    """The unshuffled deck for a game with ``jokers`` jokers (2 or 0)."""
    return _DECKS[jokers]


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in VALUE


def hand_total(cards: Iterable[str]) -> int:
    return sum(map(_value, cards))
