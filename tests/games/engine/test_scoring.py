"""Scoring, exact-score drops, elimination, endings, next starter and standings (§6-§8)."""

import random

import pytest

from games.engine.rules import AssafScores, Ending, ExactScores, Rules
from games.engine.scoring import score_round, standings
from games.engine.state import STOCK, CallYaniv, Play, apply
from tests.games.engine.support import deck_for, start, with_totals

ACTIVE: tuple[int | None, ...] = (None, None, None, None)


def test_yaniv_stands_when_everyone_else_is_strictly_higher() -> None:
    score = score_round(Rules(), 1, [10, 3, 4, 20], [5, 5, 5, 5], ACTIVE, 1)
    assert score.outcome == "yaniv"
    assert score.points == (10, 0, 4, 20)
    assert score.totals == (15, 5, 9, 25)
    assert score.next_starter == 1


def test_an_equal_total_is_an_assaf() -> None:
    score = score_round(Rules(), 1, [10, 3, 3, 20], [0, 0, 0, 0], ACTIVE, 1)
    assert score.outcome == "assaf"
    assert score.points == (10, 33, 3, 20)
    assert score.next_starter == 2


def test_assaf_penalty_is_a_house_rule() -> None:
    score = score_round(Rules(assaf_penalty=25), 0, [5, 2], [0, 0], (None, None), 1)
    assert score.points == (30, 2)


def test_assaf_scores_zero_gives_zero_to_every_tied_lowest_player() -> None:
    rules = Rules(assaf_scores=AssafScores.ZERO)
    score = score_round(rules, 0, [4, 2, 9, 2], [10, 10, 10, 10], ACTIVE, 1)
    assert score.outcome == "assaf"
    assert score.points == (34, 0, 9, 0)
    assert score.totals == (44, 10, 19, 10)


def test_assaf_scores_zero_only_applies_on_an_assaf() -> None:
    score = score_round(
        Rules(assaf_scores=AssafScores.ZERO), 0, [1, 2, 9, 2], [0, 0, 0, 0], ACTIVE, 1
    )
    assert score.points == (0, 2, 9, 2)


@pytest.mark.parametrize(
    ("caller", "lowest", "starter"),
    [
        (2, [0, 3], 3),  # clockwise from seat 2: 3 comes before 0
        (0, [1, 3], 1),
        (3, [0, 2], 0),
        (1, [0, 2], 2),
    ],
)
def test_on_assaf_the_first_lowest_player_clockwise_from_the_caller_starts(
    caller: int, lowest: list[int], starter: int
) -> None:
    hands = [9, 9, 9, 9]
    hands[caller] = 5
    for seat in lowest:
        hands[seat] = 3
    score = score_round(Rules(), caller, hands, [0, 0, 0, 0], ACTIVE, 1)
    assert score.outcome == "assaf"
    assert score.next_starter == starter


def test_a_starter_who_has_just_gone_out_hands_the_lead_clockwise() -> None:
    score = score_round(Rules(), 0, [5, 4, 20], [0, 98, 0], (None, None, None), 3)
    assert score.outcome == "assaf"
    assert score.eliminated == (1,)
    assert score.out_round == (None, 3, None)
    assert score.next_starter == 2


def test_the_lead_passes_over_seats_that_went_out_earlier() -> None:
    out = (None, 1, None, 1, None)
    score = score_round(Rules(), 2, [30, None, 5, None, 4], [0, 0, 0, 0, 99], out, 2)
    assert score.outcome == "assaf"
    assert score.eliminated == (4,)
    assert score.next_starter == 0


def test_exact_scores_apply_to_the_new_total_of_those_who_scored() -> None:
    rules = Rules(exact_scores=ExactScores.HALVE_50, ending=Ending.OUT_OVER_200)
    score = score_round(rules, 0, [3, 10, 20], [100, 40, 130], (None, None, None), 1)
    # The caller scored 0: their 100 stays. 40+10 and 130+20 land on multiples of 50.
    assert score.points == (0, 10, 20)
    assert score.totals == (100, 25, 75)


def test_exact_drops_happen_once_per_round() -> None:
    score = score_round(
        Rules(exact_scores=ExactScores.HALVE_50), 0, [3, 10], [0, 90], (None, None), 1
    )
    assert score.totals == (0, 50)


def test_default_drops_100_to_50_and_200_to_100() -> None:
    rules = Rules(ending=Ending.OUT_OVER_200)
    score = score_round(rules, 0, [3, 10, 20], [0, 90, 180], (None, None, None), 1)
    assert score.totals == (0, 50, 100)


def test_an_assaf_zero_scorer_gets_no_drop() -> None:
    rules = Rules(assaf_scores=AssafScores.ZERO, exact_scores=ExactScores.NONE)
    score = score_round(rules, 0, [3, 2], [0, 100], (None, None), 1)
    assert score.totals == (33, 100)


@pytest.mark.parametrize(("ending", "limit"), [("out_over_100", 100), ("out_over_200", 200)])
def test_knock_out_players_strictly_above_the_limit(ending: str, limit: int) -> None:
    rules = Rules.from_dict({"ending": ending, "exact_scores": "none"})
    totals = [0, limit - 10, limit - 9, 0]
    score = score_round(rules, 0, [1, 10, 10, 10], totals, ACTIVE, 4)
    assert score.totals == (0, limit, limit + 1, 10)
    assert score.eliminated == (2,)
    assert score.out_round == (None, None, 4, None)
    assert score.standings is None


def test_the_last_player_in_wins() -> None:
    rules = Rules(exact_scores=ExactScores.NONE)
    score = score_round(rules, 0, [1, 10, None], [99, 95, 150], (None, None, 2), 5)
    assert score.eliminated == (1,)
    assert score.next_starter is None
    assert score.standings == ((0, 1), (1, 2), (2, 3))


def test_when_all_go_out_together_the_lowest_total_wins() -> None:
    rules = Rules(exact_scores=ExactScores.NONE)
    score = score_round(rules, 0, [6, 5, 7], [97, 97, 97], (None, None, None), 3)
    assert score.outcome == "assaf"
    assert score.totals == (133, 102, 104)
    assert score.eliminated == (0, 1, 2)
    assert score.next_starter is None
    assert score.standings == ((1, 1), (2, 2), (0, 3))


def test_when_all_go_out_together_equal_lowest_totals_draw() -> None:
    rules = Rules(exact_scores=ExactScores.NONE)
    score = score_round(rules, 2, [3, 3, 5], [98, 98, 90], (None, None, None), 3)
    assert score.totals == (101, 101, 125)
    assert score.standings == ((0, 1), (1, 1), (2, 3))


def test_first_over_100_ends_the_game_with_lowest_total_first() -> None:
    rules = Rules(ending=Ending.FIRST_OVER_100, exact_scores=ExactScores.NONE)
    score = score_round(rules, 1, [20, 3, 8, 8], [85, 60, 40, 40], ACTIVE, 9)
    assert score.totals == (105, 60, 48, 48)
    assert score.eliminated == ()
    assert score.out_round == ACTIVE
    assert score.next_starter is None
    assert score.standings == ((2, 1), (3, 1), (1, 3), (0, 4))


def test_first_over_100_goes_on_at_exactly_100() -> None:
    rules = Rules(ending=Ending.FIRST_OVER_100, exact_scores=ExactScores.NONE)
    score = score_round(rules, 1, [20, 3], [80, 60], (None, None), 9)
    assert score.totals == (100, 60)
    assert score.standings is None


def test_knock_out_standings_order_by_round_out_then_total_sharing_ties() -> None:
    places = standings(Rules(), [40, 130, 120, 120, 101], [None, 2, 5, 5, 5])
    assert places == ((0, 1), (4, 2), (2, 3), (3, 3), (1, 5))


def test_first_over_standings_share_places_1_1_3() -> None:
    places = standings(Rules(ending=Ending.FIRST_OVER_100), [50, 120, 50, 70], [None] * 4)
    assert places == ((0, 1), (2, 1), (3, 3), (1, 4))


def test_an_eliminated_seat_is_skipped_in_the_next_deal_and_turns() -> None:
    hands = {
        0: ["AS", "2S", "X1", "X2", "KD"],
        1: ["KS", "QD", "QS", "6S", "AC"],
        2: ["9S", "9D", "9H", "8C", "7C"],
    }
    second = deck_for(
        {0: ["AH", "2H", "3H", "4H", "5H"], 1: ["AD", "2D", "3D", "4D", "5D"]}, 0, "KC", players=3
    )
    state, _, rng = start(hands, face_up="3S", stock=["AD", "7H", "8H"], later=[second])
    state = with_totals(state, [0, 0, 90])
    state, _ = apply(state, Play(0, ["KD"], STOCK), rng)
    state, _ = apply(state, Play(1, ["QD", "QS"], STOCK), rng)
    state, _ = apply(state, Play(2, ["9S", "9D", "9H"], STOCK), rng)
    state, events = apply(state, CallYaniv(0), rng)
    ended = events[1]
    assert ended["eliminated"] == [2]
    assert ended["totals"] == [0, 24, 113]
    assert state.out_round == (None, None, 1)
    assert state.hands == (("AH", "2H", "3H", "4H", "5H"), ("AD", "2D", "3D", "4D", "5D"), ())
    assert events[2]["deck"] == second


def test_round_two_skips_out_seats_in_turn_order() -> None:
    hands = {
        0: ["AS", "2S", "X1", "X2", "KD"],
        1: ["KS", "QD", "QS", "6S", "AC"],
        2: ["9S", "9D", "9H", "8C", "7C"],
    }
    state, _, rng = start(hands, face_up="3S", stock=["AD", "7H", "8H"])
    state = with_totals(state, [0, 90, 0])
    state, _ = apply(state, Play(0, ["KD"], STOCK), rng)
    state, _ = apply(state, Play(1, ["QD", "QS"], STOCK), rng)
    state, _ = apply(state, Play(2, ["9S", "9D", "9H"], STOCK), rng)
    state, events = apply(state, CallYaniv(0), rng)
    assert events[1]["eliminated"] == [1]
    assert state.turn == 0
    state, _ = apply(state, Play(0, [state.hands[0][0]], STOCK), random.Random(0))
    assert state.turn == 2
    assert state.hands[1] == ()
