"""Discard groups: singles, sets and runs (docs/rules.md §4.1)."""

from collections.abc import Sequence

from games.engine.cards import KING, RANK, SUIT
from games.engine.errors import Reason


def group_error(cards: Sequence[str], wild_rank: int = 0) -> Reason | None:
    """Why ``cards``, laid in this order, are not a group; None when they are one.

    Cards of ``wild_rank`` (docs/rules.md §12; 0: none) stand for any rank in a run, as jokers do,
    and are their own rank in a set. Assumes known codes held in the hand (the caller checks
    those first); with two decks a code may come twice.
    """
    count = len(cards)
    if count == 1:
        return None
    if count == 0:
        return Reason.NO_CARDS
    # One pass over the naturals: do they share a rank, a suit, and does each sit at the rank
    # its position implies (position 0 standing for rank ``low``)?
    naturals = wild = 0
    rank = low = 0
    suit = ""
    same_rank = same_suit = consecutive = True
    for index, card in enumerate(cards):
        card_rank = RANK[card]
        if not card_rank:
            continue
        if card_rank == wild_rank:
            wild += 1
            continue
        if naturals:
            same_rank = same_rank and card_rank == rank
            same_suit = same_suit and SUIT[card] == suit
            consecutive = consecutive and card_rank == low + index
        else:
            rank, suit, low = card_rank, SUIT[card], card_rank - index
        naturals += 1
    if not naturals:
        # Only jokers and cards of the wild rank: a set if they are all of that rank.
        return None if wild == count else Reason.JOKER_IN_SET
    if same_rank:
        if naturals == count:
            return None
        # A lone natural with jokers can still be a run (X1 5H X2 is 4-5-6); two of a rank
        # plus a joker, or any two-card group, can only be a set.
        if count == 2 or naturals > 1:
            return Reason.JOKER_IN_SET
    if count == 2 or not same_suit:
        return Reason.INVALID_GROUP
    if not consecutive:
        return Reason.NOT_CONSECUTIVE
    if low < 1 or low + count - 1 > KING:
        return Reason.RUN_OUT_OF_RANGE
    return None


def takeable(group: Sequence[str]) -> tuple[str, ...]:
    """The cards the next player may draw from ``group``: its first and last laid card (one
    code once: a single, or with two decks a set laid between two copies of a card)."""
    first, last = group[0], group[-1]
    return (first,) if first == last else (first, last)
