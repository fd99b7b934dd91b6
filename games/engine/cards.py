"""Card codes, values and decks (docs/rules.md §1).

Cards are their two-character codes everywhere (``"TH"``, ``"AS"``, ``"X1"``): the codes are
what the API, records and logs carry, so keeping them as the internal form too means no
conversion on the hot path. The lookup tables below are keyed by the interned codes.
"""

from collections.abc import Iterable
from sys import intern

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKERS: tuple[str, ...] = ("X1", "X2", "X3", "X4")
"""Two per deck: a two-deck game plays ``X1``..``X4`` (RULES.md §12)."""
JOKERS_PER_DECK = 2

NATURALS: tuple[str, ...] = tuple(intern(rank + suit) for suit in SUITS for rank in RANKS)

JACK = 11
QUEEN = 12
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
"""The values of §1; the variants of §12 change them: ``Rules.card_values`` are those a
game plays by."""

HAND_SIZE = 5

_value = VALUE.__getitem__

_DECKS: dict[tuple[int, int], tuple[str, ...]] = {
    (jokers, decks): NATURALS * decks + JOKERS[: jokers * decks]
    for jokers in (JOKERS_PER_DECK, 0)
    for decks in (1, 2)
}


def full_deck(jokers: int, decks: int = 1) -> tuple[str, ...]:
    """The unshuffled deck of ``decks`` decks with ``jokers`` jokers each (2 or 0): with two,
    every natural code twice (docs/rules.md §12)."""
    return _DECKS[jokers, decks]


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in VALUE


def hand_total(cards: Iterable[str]) -> int:
    return sum(map(_value, cards))
