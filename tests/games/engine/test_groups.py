from collections.abc import Sequence

import pytest

from games.engine.errors import Reason
from games.engine.groups import group_error, takeable


@pytest.mark.parametrize(
    "cards",
    [
        ["7H"],
        ["X1"],
        ["9S", "9D"],
        ["9D", "9S"],
        ["QS", "QH", "QD", "QC"],
        ["QC", "QS", "QD"],
        ["5H", "6H", "7H"],
        ["AS", "2S", "3S"],
        ["JD", "QD", "KD"],
        ["9C", "TC", "JC", "QC", "KC"],
        ["4H", "X1", "6H"],  # a joker in the gap: 4-5-6
        ["X1", "5H", "6H"],  # at the low end: 4-5-6
        ["5H", "6H", "X1"],  # at the high end: 5-6-7
        ["X1", "X2", "5H"],  # 3-4-5
        ["X1", "5H", "X2"],  # 4-5-6
        ["5H", "X1", "X2"],  # 5-6-7
        ["4H", "X1", "X2", "7H"],  # two jokers in the gap
        ["AS", "2S", "X2"],  # A-2-3
        ["X1", "2S", "3S"],  # the joker is the ace
        ["X1", "QD", "KD"],  # J-Q-K
        ["4H", "5H", "6H", "X1"],  # a joker for the 7 although the hand may hold it
    ],
)
def test_legal_groups(cards: Sequence[str]) -> None:
    assert group_error(cards) is None


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ([], Reason.NO_CARDS),
        (["9S", "9D", "X1"], Reason.JOKER_IN_SET),
        (["9S", "X1"], Reason.JOKER_IN_SET),
        (["X1", "X2"], Reason.JOKER_IN_SET),
        (["9S", "8S"], Reason.INVALID_GROUP),
        (["9S", "TS"], Reason.INVALID_GROUP),  # a run needs three cards
        (["5H", "6S", "7H"], Reason.INVALID_GROUP),  # one suit only
        (["5H", "5S", "6H"], Reason.INVALID_GROUP),
        (["7H", "6H", "5H"], Reason.NOT_CONSECUTIVE),  # descending
        (["7C", "X2", "5C"], Reason.NOT_CONSECUTIVE),
        (["5H", "7H", "8H"], Reason.NOT_CONSECUTIVE),  # a gap with no joker
        (["6H", "5H", "7H"], Reason.NOT_CONSECUTIVE),
        (["QH", "KH", "AH"], Reason.NOT_CONSECUTIVE),  # the ace is low only
        (["KH", "AH", "2H"], Reason.NOT_CONSECUTIVE),
        (["X1", "AH", "2H"], Reason.RUN_OUT_OF_RANGE),  # no joker below the ace
        (["QH", "KH", "X1"], Reason.RUN_OUT_OF_RANGE),  # nor above the king
        (["KH", "X1", "X2"], Reason.RUN_OUT_OF_RANGE),
        (["X1", "X2", "2H"], Reason.RUN_OUT_OF_RANGE),
    ],
)
def test_illegal_groups(cards: Sequence[str], reason: Reason) -> None:
    assert group_error(cards) == reason


def test_takeable_ends_are_the_first_and_last_laid_cards() -> None:
    assert takeable(["5H", "6H", "7H"]) == ("5H", "7H")
    assert takeable(["4H", "X1", "6H"]) == ("4H", "6H")
    assert takeable(["X1", "5H", "6H"]) == ("X1", "6H")
    assert takeable(["9D", "9S", "9C"]) == ("9D", "9C")
    assert takeable(["KS"]) == ("KS",)
