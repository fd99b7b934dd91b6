"""The pure OpenSkill wrapper: the draw rule of docs/api.md, proved numerically, and ordering."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from accounts.models import Player
from ratings.payloads import player_rating
from ratings.rating import DEFAULT, MAX_PLAYERS, Skill, rate

Rate = Callable[[Sequence[Skill], Sequence[int]], list[Skill]]

# Players of different strengths and certainties, so that no symmetry hides an error.
MIXED = [Skill(30.0, 4.0), Skill(22.0, 7.0), Skill(25.0, 5.0), Skill(18.0, 8.0), Skill(27.0, 3.0)]


def orders_without_tie(places: Sequence[int], tied: Sequence[int]) -> list[list[int]]:
    """Every way of breaking the tie between the players `tied` (who share one place), with
    everyone else's order kept: the untied orders a draw is the mean of."""
    orders = []
    for order in itertools.permutations(tied):
        # Only the order of places counts: spread them out, then slot the tied players in.
        broken = [place * len(tied) for place in places]
        for offset, player in enumerate(order):
            broken[player] += offset
        orders.append(broken)
    return orders


def draw_rule_error(
    rating: Rate, skills: Sequence[Skill], places: Sequence[int], tied: Sequence[int]
) -> float:
    """The largest gap, over every player, between the change the tie gives and the mean of the
    changes of the untied orders; sigma must not depend on how the tie is broken either."""
    with_tie = rating(skills, places)
    untied = [rating(skills, order) for order in orders_without_tie(places, tied)]
    error = 0.0
    for index, skill in enumerate(skills):
        mean = sum(outcome[index].mu for outcome in untied) / len(untied)
        error = max(error, abs((with_tie[index].mu - skill.mu) - (mean - skill.mu)))
        for outcome in untied:
            error = max(error, abs(outcome[index].sigma - with_tie[index].sigma))
    return error


def plackett_luce(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    model = PlackettLuce()
    teams = [[model.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


DRAWS = [
    pytest.param([DEFAULT] * 2, [1, 1], [0, 1], id="2 players, equal"),
    pytest.param(MIXED[:2], [1, 1], [0, 1], id="2 players, mixed"),
    pytest.param([DEFAULT] * 5, [1, 1, 3, 4, 5], [0, 1], id="5 players, tie first, equal"),
    pytest.param(MIXED, [1, 1, 3, 4, 5], [0, 1], id="5 players, tie first, mixed"),
    pytest.param(MIXED, [1, 2, 2, 4, 5], [1, 2], id="5 players, tie in the middle"),
    pytest.param(MIXED, [3, 1, 4, 3, 2], [0, 3], id="5 players, tie in the middle, any seats"),
    pytest.param(MIXED, [1, 2, 3, 4, 4], [3, 4], id="5 players, tie last"),
    pytest.param(MIXED, [2, 1, 2, 4, 2], [0, 2, 4], id="5 players, three tied"),
    pytest.param(MIXED[:3], [1, 1, 1], [0, 1, 2], id="3 players, all tied"),
]


@pytest.mark.parametrize(("skills", "places", "tied"), DRAWS)
def test_a_draw_is_the_mean_of_the_untied_orders(skills, places, tied) -> None:
    assert draw_rule_error(rate, skills, places, tied) < 1e-12


def test_the_draw_rule_in_numbers() -> None:
    """The issue's case: five new players, the first two tied."""
    with_tie = [skill.mu - DEFAULT.mu for skill in rate([DEFAULT] * 5, [1, 1, 3, 4, 5])]
    first = [skill.mu - DEFAULT.mu for skill in rate([DEFAULT] * 5, [1, 2, 3, 4, 5])]
    second = [skill.mu - DEFAULT.mu for skill in rate([DEFAULT] * 5, [2, 1, 3, 4, 5])]
    assert first[0] == pytest.approx(2.635, abs=1e-3)  # the untied winner
    assert first[1] == pytest.approx(1.318, abs=1e-3)  # the untied runner-up
    assert with_tie[0] == with_tie[1] == pytest.approx(1.977, abs=1e-3)
    assert with_tie[0] == pytest.approx((first[0] + first[1]) / 2, abs=1e-12)
    assert with_tie[0] == pytest.approx((second[0] + second[1]) / 2, abs=1e-12)
    # Tied winners gain more than the third does (Plackett-Luce gives them less: below).
    assert with_tie[0] > with_tie[2] == pytest.approx(0.0, abs=1e-12)


def test_plackett_luce_breaks_the_draw_rule() -> None:
    """The same check fails for OpenSkill's default model: it is not a check anything passes."""
    assert draw_rule_error(plackett_luce, [DEFAULT] * 5, [1, 1, 3, 4, 5], [0, 1]) > 0.5
    changes = [skill.mu - DEFAULT.mu for skill in plackett_luce([DEFAULT] * 5, [1, 1, 2, 3, 4])]
    assert changes[0] == pytest.approx(1.0, abs=0.01)
    assert changes[2] == pytest.approx(1.556, abs=0.01)  # third gains more than the winners


def test_defaults_are_openskills_and_the_players() -> None:
    assert (DEFAULT.mu, DEFAULT.sigma) == (25.0, 25.0 / 3.0)
    # What a player without a rating row is shown (ratings.payloads.player_rating).
    player = Player()
    Player.rating.related.set_cached_value(player, None)  # read along: no rating row
    shown = player_rating(player)
    assert (shown["mu"], shown["sigma"]) == (25.0, 25.0 / 3.0)


def test_a_win_and_a_loss_move_mu_and_shrink_sigma() -> None:
    winner, loser = rate([DEFAULT, DEFAULT], [1, 2])
    assert winner.mu > DEFAULT.mu > loser.mu
    assert winner.mu - DEFAULT.mu == pytest.approx(DEFAULT.mu - loser.mu)
    assert winner.sigma < DEFAULT.sigma
    assert winner.ordinal == pytest.approx(winner.mu - 3 * winner.sigma)


@pytest.mark.parametrize(
    ("skills", "places"),
    [([DEFAULT], [1]), ([DEFAULT] * 6, [1, 2, 3, 4, 5, 6]), ([DEFAULT] * 3, [1, 2])],
)
def test_a_game_needs_two_to_five_players_with_a_place_each(skills, places) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 (the message is for the caller's log)
        rate(skills, places)


# Ordering ---------------------------------------------------------------------------------

skills = st.builds(Skill, mu=st.floats(0.0, 50.0), sigma=st.floats(0.5, 9.0))


@st.composite
def games(draw: st.DrawFn, same_skill: bool) -> tuple[list[Skill], list[int]]:
    players = draw(st.integers(2, MAX_PLAYERS))
    if same_skill:
        field = [draw(skills)] * players
    else:
        field = draw(st.lists(skills, min_size=players, max_size=players))
    places = draw(st.lists(st.integers(1, players), min_size=players, max_size=players))
    return field, places


@settings(max_examples=300, deadline=None)
@given(games(same_skill=True))
def test_between_equals_a_better_place_gains_more(game) -> None:
    field, places = game
    changes = [
        after.mu - before.mu for before, after in zip(field, rate(field, places), strict=True)
    ]
    for i, j in itertools.permutations(range(len(field)), 2):
        if places[i] < places[j]:
            assert changes[i] > changes[j]
        elif places[i] == places[j]:
            assert changes[i] == pytest.approx(changes[j], abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(games(same_skill=False), st.data())
def test_a_better_place_never_gains_less(game, data) -> None:
    """Whatever the ratings, a player who finishes higher (everyone else as before) ends with
    at least the mu (and ordinal) they would have had."""
    field, places = game
    player = data.draw(st.integers(0, len(field) - 1))
    better = list(places)
    better[player] = data.draw(st.integers(0, places[player] - 1))
    worse_outcome = rate(field, places)[player]
    better_outcome = rate(field, better)[player]
    assert better_outcome.mu >= worse_outcome.mu - 1e-12
    assert better_outcome.ordinal >= worse_outcome.ordinal - 1e-12
