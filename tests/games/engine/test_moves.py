"""Legal-move generation against a brute-force oracle, and against ``apply``."""

import random
from collections.abc import Sequence
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import full_deck
from games.engine.groups import group_error
from games.engine.moves import legal_draws, legal_groups, legal_moves
from games.engine.rules import Rules
from games.engine.state import STOCK, CallYaniv, Play, apply
from tests.games.engine.support import start


def every_group(hand: Sequence[str]) -> set[tuple[str, ...]]:
    """Every ordered selection of the hand that the group rules accept."""
    return {
        cards
        for size in range(1, len(hand) + 1)
        for cards in permutations(hand, size)
        if group_error(cards) is None
    }


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(full_deck(2)), min_size=1, max_size=5, unique=True))
def test_legal_groups_are_exactly_the_groups_the_rules_accept(hand: list[str]) -> None:
    groups = legal_groups(hand)
    assert len(groups) == len(set(groups))
    assert set(groups) == every_group(hand)


@pytest.mark.parametrize(
    "hand",
    [
        ["4H", "5H", "6H", "X1", "X2"],
        ["QS", "QH", "QD", "QC", "X1"],
        ["AS", "2S", "X1", "KS", "QS"],
        ["JD", "QD", "KD", "X2", "X1"],
        ["2C", "4C", "6C", "X1", "X2"],
    ],
)
def test_legal_groups_on_joker_heavy_hands(hand: list[str]) -> None:
    assert set(legal_groups(hand)) == every_group(hand)


def test_runs_come_with_jokers_in_every_position_they_can_stand_in() -> None:
    groups = set(legal_groups(["5H", "6H", "X1"]))
    assert ("X1", "5H", "6H") in groups  # 4-5-6
    assert ("5H", "6H", "X1") in groups  # 5-6-7
    assert ("5H", "X1", "6H") not in groups
    two = set(legal_groups(["5H", "X1", "X2"]))
    assert {
        ("X1", "X2", "5H"),
        ("X2", "X1", "5H"),
        ("X1", "5H", "X2"),
        ("X2", "5H", "X1"),
        ("5H", "X1", "X2"),
        ("5H", "X2", "X1"),
    } <= two


def test_sets_come_in_every_order_and_every_subset() -> None:
    groups = set(legal_groups(["9S", "9D", "9H"]))
    assert ("9S", "9D") in groups
    assert ("9D", "9S") in groups
    assert ("9H", "9S", "9D") in groups
    assert len([group for group in groups if len(group) > 1]) == 6 + 6


def test_legal_moves_pair_every_group_with_every_draw() -> None:
    hands = {0: ["5H", "6H", "7H", "KS", "KD"], 1: ["AS", "AD", "2C", "X1", "QS"]}
    state, _, _ = start(hands, face_up="3S")
    state, _ = apply(state, Play(0, ["5H", "6H", "7H"], STOCK), random.Random(0))
    assert legal_draws(state) == [STOCK, "5H", "7H"]
    moves = legal_moves(state, 1)
    assert len(moves) == len(legal_groups(state.hands[1])) * 3
    assert not any(isinstance(move, CallYaniv) for move in moves)
    assert legal_moves(state, 0) == []


def test_yaniv_is_offered_first_when_allowed() -> None:
    hands = {0: ["AS", "AD", "2C", "X1", "QS"], 1: ["5H", "6H", "7H", "KS", "KD"]}
    state, _, _ = start(hands, face_up="3S", stock=["AH"])
    state, _ = apply(state, Play(0, ["QS"], STOCK), random.Random(0))
    state, _ = apply(state, Play(1, ["KS", "KD"], STOCK), random.Random(0))
    assert legal_moves(state, 0)[0] == CallYaniv(0)


def test_a_finished_game_has_no_moves() -> None:
    state, _, _ = start({0: ["AS", "AD", "2C", "X1", "X2"], 1: ["5H", "6H", "7H", "KS", "KD"]})
    state = state.replace(setup=state.setup._replace(standings=((0, 1), (1, 2))))
    assert legal_moves(state, 0) == []


def test_every_legal_move_of_a_deal_is_accepted() -> None:
    state, _, _ = start(
        {0: ["4H", "5H", "X1", "X2", "5S"], 1: ["5D", "6H", "7H", "KS", "KD"]},
        rules=Rules(call_limit=10),
        face_up="5C",
    )
    for move in legal_moves(state, 0):
        apply(state, move, random.Random(0))
