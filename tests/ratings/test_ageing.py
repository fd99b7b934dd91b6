"""Ageing (docs/api.md, Ratings): a rating's sigma widens with each whole UTC day since the
player's last rated game, in every read and in the next update's prior; mu never moves, and
the stored rating changes only when a game is rated."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from datetime import timezone as dt_timezone

import time_machine

from accounts.models import Player
from games.models import Game
from ratings.cpu import cpu_start
from ratings.models import Rating, RatingChange
from ratings.payloads import player_rating
from ratings.rating import DEFAULT, Skill, aged, days_between, rate
from ratings.results import GameResult, SeatResult
from ratings.selectors import cpu_ratings, player_ratings
from ratings.services import cpu_players, game_ratings_apply

NOON = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
TAU = 0.05  # the default YANIV_RATING_TAU_PER_DAY


def rated_at(
    make_game: Callable[..., Game], at: datetime, *seats: tuple[Player, int, Skill]
) -> GameResult:
    """A game of these (player, place, start) that ended `at`, rated."""
    game = make_game([(player, place) for player, place, _ in seats], finished_at=at)
    result = GameResult(
        game.pk,
        at,
        [
            SeatResult(player.pk, seat, place, start)
            for seat, (player, place, start) in enumerate(seats)
        ],
    )
    game_ratings_apply(result=result)
    return result


def stored(player: Player) -> Skill:
    row = Rating.objects.get(player=player)
    return Skill(row.mu, row.sigma)


def test_the_formula_against_hand_worked_numbers() -> None:
    # sqrt(3.0^2 + 0.05^2 * 100) = sqrt(9 + 0.25)
    widened = aged(Skill(25.0, 3.0), 100, TAU)
    assert widened.mu == 25.0
    assert widened.sigma == math.sqrt(9.25)
    assert round(widened.sigma, 4) == 3.0414
    # A year: sqrt(9 + 0.0025 * 365) = 3.1484.
    assert round(aged(Skill(25.0, 3.0), 365, TAU).sigma, 4) == 3.1484
    # Capped at the start: sqrt(64 + 0.0025 * 10000) = 9.43 is more than 25/3.
    assert aged(Skill(25.0, 8.0), 10_000, TAU) == Skill(25.0, DEFAULT.sigma)
    # No day, or no ageing: the skill as it is.
    assert aged(Skill(25.0, 3.0), 0, TAU) == Skill(25.0, 3.0)
    assert aged(Skill(25.0, 3.0), 100, 0.0) == Skill(25.0, 3.0)


def test_days_are_whole_utc_days() -> None:
    late = datetime(2026, 6, 15, 23, 59, tzinfo=UTC)
    assert days_between(datetime(2026, 6, 15, 0, 1, tzinfo=UTC), late) == 0
    # Two minutes, one midnight.
    assert days_between(late, datetime(2026, 6, 16, 0, 1, tzinfo=UTC)) == 1
    assert days_between(late, datetime(2026, 7, 15, 0, 1, tzinfo=UTC)) == 30
    # The UTC dates, in whatever zone the times are written: 01:00 at +03:00 is 22:00 UTC.
    plus_three = dt_timezone(timedelta(hours=3))
    assert days_between(datetime(2026, 6, 16, 1, 0, tzinfo=plus_three), late) == 0
    assert days_between(late, datetime(2026, 6, 15, 12, 0, tzinfo=UTC)) == 0  # never negative


def test_a_read_is_the_same_all_day_and_ages_at_utc_midnight(players, make_game) -> None:
    a, b = players[:2]
    rated_at(make_game, NOON, (a, 1, DEFAULT), (b, 2, DEFAULT))
    skill = stored(a)

    with time_machine.travel(NOON + timedelta(hours=1), tick=False):
        first = player_ratings([a.pk])[a.pk]
    with time_machine.travel(datetime(2026, 6, 15, 23, 59, 59, tzinfo=UTC), tick=False):
        assert player_ratings([a.pk])[a.pk] == first
    assert (first["mu"], first["sigma"], first["ordinal"]) == (*skill, skill.ordinal)

    with time_machine.travel(datetime(2026, 6, 16, 0, 0, 1, tzinfo=UTC), tick=False):
        after_midnight = player_ratings([a.pk])[a.pk]
    one_day = aged(skill, 1, TAU)
    assert one_day.sigma == math.sqrt(skill.sigma**2 + TAU**2)
    assert after_midnight == {**first, "sigma": one_day.sigma, "ordinal": one_day.ordinal}
    assert after_midnight["mu"] == skill.mu
    # Reads age what is shown, never what is stored.
    assert stored(a) == skill


def test_a_long_absence_makes_a_player_provisional_again(players, make_game, settings) -> None:
    a, b = players[:2]
    rated_at(make_game, NOON, (a, 1, DEFAULT), (b, 2, DEFAULT))
    settings.YANIV_PROVISIONAL_SIGMA = stored(a).sigma
    a = Player.objects.select_related("rating").get(pk=a.pk)
    assert player_rating(a, NOON)["provisional"] is False
    assert player_rating(a, NOON + timedelta(days=1))["provisional"] is True


def test_ageing_off(players, make_game, settings) -> None:
    settings.YANIV_RATING_TAU_PER_DAY = 0
    a, b = players[:2]
    rated_at(make_game, NOON, (a, 1, DEFAULT), (b, 2, DEFAULT))
    a = Player.objects.select_related("rating").get(pk=a.pk)
    shown = player_rating(a, NOON + timedelta(days=400))
    assert (shown["mu"], shown["sigma"]) == stored(a)


def test_the_update_starts_from_the_aged_rating(players, make_game) -> None:
    a, b, c = players[:3]
    rated_at(make_game, NOON, (a, 1, DEFAULT), (b, 2, DEFAULT))
    after_first = stored(a)

    later = NOON + timedelta(days=10, hours=3)
    second = game_ratings_apply(
        result=GameResult(
            make_game([(a, 1), (c, 2)], finished_at=later).pk,
            later,
            [SeatResult(a.pk, 0, 1), SeatResult(c.pk, 1, 2)],
        )
    )

    prior = aged(after_first, 10, TAU)
    assert prior.sigma > after_first.sigma
    expected = rate([prior, DEFAULT], [1, 2])
    assert stored(a) == expected[0]
    assert stored(c) == expected[1]  # a first game: the start as it is
    change = RatingChange.objects.get(player=a, at=later)
    assert (change.mu_before, change.sigma_before) == prior
    assert second[0]["delta"] == expected[0].ordinal - prior.ordinal
    assert Rating.objects.get(player=a).last_game_at == later
    assert Rating.objects.get(player=b).last_game_at == NOON


def test_a_cpu_level_ages_like_everyone(players, make_game) -> None:
    easy = cpu_players(["easy"])["easy"]
    rated_at(make_game, NOON, (players[0], 1, DEFAULT), (easy, 2, cpu_start("easy")))
    skill = stored(easy)

    with time_machine.travel(NOON + timedelta(days=40), tick=False):
        ordinal = cpu_ratings()["easy"]
        shown = player_ratings([easy.pk])[easy.pk]
    assert ordinal == aged(skill, 40, TAU).ordinal < skill.ordinal
    assert shown["ordinal"] == ordinal
    assert shown["mu"] == skill.mu
