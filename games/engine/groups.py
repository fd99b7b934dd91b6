"""Discard groups: singles, sets and runs (RULES.md §4.1)."""

from collections.abc import Sequence

from games.engine.cards import RANK, SUIT
from games.engine.errors import Reason

_KING = 13


def group_error(cards: Sequence[str]) -> Reason | None:
    """Why ``cards``, laid in this order, are not a group; None when they are one.

    Assumes known, distinct codes (the caller checks those against the hand first).
    """
    count = len(cards)
    if count == 1:
        return None
    if count == 0:
        return Reason.NO_CARDS
    naturals = [(index, card) for index, card in enumerate(cards) if RANK[card]]
    if not naturals:
        return Reason.JOKER_IN_SET
    first_index, first = naturals[0]
    rank = RANK[first]
    if all(RANK[card] == rank for _, card in naturals):
        if len(naturals) == count:
            return None
        # A lone natural with jokers can still be a run (X1 5H X2 is 4-5-6); two of a rank
        # plus a joker, or any two-card group, can only be a set.
        if count == 2 or len(naturals) > 1:
            return Reason.JOKER_IN_SET
    if count == 2:
        return Reason.INVALID_GROUP
    suit = SUIT[first]
    if any(SUIT[card] != suit for _, card in naturals):
        return Reason.INVALID_GROUP
    low = rank - first_index
    if any(RANK[card] != low + index for index, card in naturals):
        return Reason.NOT_CONSECUTIVE
    if low < 1 or low + count - 1 > _KING:
        return Reason.RUN_OUT_OF_RANGE
    return None


def takeable(group: Sequence[str]) -> tuple[str, ...]:
    """The cards the next player may draw from ``group``: its first and last laid card."""
    if len(group) == 1:
        return (group[0],)
    return (group[0], group[-1])
