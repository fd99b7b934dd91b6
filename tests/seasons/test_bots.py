"""Bots stand outside seasons (docs/api.md, Seasons): a season's reset passes a bot's rating by,
live (the rollover, a late game put in its place, a void's replay) and in recompute_ratings'
replay alike; a bot's ladder games are no season's; its seasons are none; its
`placement_games_left` is 0."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

import pytest

from accounts.models import Player
from games.models import Game, GameStatus, Pool, Seat
from games.selectors import rated_results
from games.services.rating import game_rate, game_unrate, seasons_roll_over
from games.services.staff import game_void
from ratings.models import ChangeKind, Rating, RatingChange
from ratings.payloads import player_data
from ratings.rating import Skill, reset
from ratings.rebuild import compare
from ratings.services import ratings_rebuild
from seasons.models import Season, SeasonStanding
from seasons.selectors import season_starts
from tests.factories import PlayerFactory
from tests.seasons.conftest import NOW

pytestmark = pytest.mark.django_db

Who = Player | str  # a bot, or a CPU seat's level
Ladder = Callable[..., Game]


@pytest.fixture
def bots(db) -> list[Player]:
    return [PlayerFactory.create(registered=True, is_bot=True) for _ in range(2)]


@pytest.fixture
def ladder(clock) -> Ladder:
    """`ladder([(who, place), ...], at, rate=True)`: a bots' ladder game that ended `at`."""

    def make(places: Sequence[tuple[Who, int]], at: datetime, *, rate: bool = True) -> Game:
        game = Game.objects.create(
            ranked=True,
            pool=Pool.BOTS,
            rules={},
            max_players=len(places),
            status=GameStatus.FINISHED,
            finished_at=at,
        )
        Seat.objects.bulk_create(
            Seat(game=game, seat=index, place=place, live=False, player=who)
            if isinstance(who, Player)
            else Seat(game=game, seat=index, place=place, live=False, is_cpu=True, cpu_level=who)
            for index, (who, place) in enumerate(places)
        )
        if rate:
            assert game_rate(game_id=game.pk)
        return game

    return make


def skill_of(player: Player) -> Skill:
    row = Rating.objects.get(player=player)
    return Skill(row.mu, row.sigma)


def resets_of(player: Player) -> int:
    return RatingChange.objects.filter(player=player, kind=ChangeKind.SEASON_RESET).count()


def replay_equal() -> bool:
    return compare(rated_results(), season_starts()).equal


def get(client: Any, path: str) -> Any:
    response = client.get(f"/api/v1/{path}")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_reset_passes_a_bots_ladder_rating_by(
    players, play, season_one, bots, ladder, api_client, settings
) -> None:
    settings.YANIV_SEASON_PLACEMENT_GAMES = 2
    a, b = bots
    person, other = players[:2]
    before_end = season_one.ends_at - timedelta(hours=3)
    for minute in range(3):
        ladder([(a, 1), ("hard", 2), (b, 3)], before_end + timedelta(minutes=minute))
    play([(person, 1), (other, 2)], before_end + timedelta(minutes=10))
    # Ladder games count for no season: before the season's end too.
    assert Rating.objects.get(player=a).season_games == 0
    assert player_data(a)["placement_games_left"] == 0
    bot_skill, person_skill = skill_of(a), skill_of(person)

    seasons_roll_over()

    # The people's reset, and nothing of the bots': no entry, sigma and games as they were.
    assert skill_of(person) == reset(person_skill, 2.0)
    assert resets_of(person) == 1
    for bot in (a, b):
        assert resets_of(bot) == 0
        assert Rating.objects.get(player=bot).season_games == 0
        assert Rating.objects.get(player=bot).games == 3
    assert skill_of(a) == bot_skill
    assert not SeasonStanding.objects.filter(player__in=bots).exists()
    assert replay_equal()

    # Across the season's start: the next ladder game rates from the bot's unreset rating.
    after = ladder([(b, 1), ("hard", 2), (a, 3)], season_one.ends_at + timedelta(minutes=5))
    change = RatingChange.objects.get(game=after, player=a)
    assert Skill(change.mu_before, change.sigma_before) == bot_skill
    assert Rating.objects.get(player=a).season_games == 0
    assert Rating.objects.get(player=a).games == 4
    assert replay_equal()

    # Where a bot stood in the seasons: nowhere; and nothing to be placed in.
    assert get(api_client, f"players/{a.pk}/seasons/")["results"] == []
    assert get(api_client, f"players/{a.pk}/")["placement_games_left"] == 0
    history = get(api_client, f"players/{a.pk}/rating-history/")["results"]
    assert [point["kind"] for point in history] == ["game"] * 4
    # A person's: their season 1 row, and season 2's placement still ahead.
    assert [row["season"]["number"] for row in get(api_client, f"players/{person.pk}/seasons/")[
        "results"
    ]] == [1]  # fmt: skip
    assert get(api_client, f"players/{person.pk}/")["placement_games_left"] == 2


def test_recompute_replays_no_bot_reset_and_a_rebuild_agrees(
    players, play, season_one, bots, ladder, settings, clock
) -> None:
    a, b = bots
    person, other = players[:2]
    at = season_one.ends_at - timedelta(days=2)
    for day in range(2):
        ladder([(a, 1 + day), ("expert", 2), (b, 2 - day)], at + timedelta(days=day))
        play([(person, 1), (other, 2)], at + timedelta(days=day, minutes=1))
    seasons_roll_over()
    second = Season.objects.get(number=2)
    second.ends_at = NOW + timedelta(hours=5)
    second.save()
    ladder([(b, 1), (a, 2)], NOW - timedelta(minutes=30))
    clock.move_to(NOW + timedelta(hours=6))
    # A ladder game of season 3's time rolls season 2 over first, as any game does.
    ladder([(a, 1), ("hard", 2)], NOW + timedelta(hours=5, minutes=1))

    assert Season.objects.get(status="current").number == 3
    assert replay_equal()
    # Seasons 2's and 3's resets: the two people's each, never a bot's.
    assert RatingChange.objects.filter(kind=ChangeKind.SEASON_RESET).count() == 2 + 2
    stored = {
        row.player_id: (row.mu, row.sigma, row.games, row.season_games)
        for row in Rating.objects.all()
    }
    assert stored[a.pk][2:] == (4, 0)

    ratings_rebuild(games=rated_results(), starts=season_starts())

    assert {
        row.player_id: (row.mu, row.sigma, row.games, row.season_games)
        for row in Rating.objects.all()
    } == stored
    assert RatingChange.objects.filter(player__in=bots, kind=ChangeKind.SEASON_RESET).count() == 0
    assert replay_equal()


def test_recompute_finds_a_bots_reset_and_a_rebuild_removes_it(season_one, bots, ladder) -> None:
    """A bot reset before bots stood outside seasons is a row the replay does not make: the
    check fails until `recompute_ratings --write` rebuilds."""
    a = bots[0]
    ladder([(a, 1), ("hard", 2)], season_one.ends_at - timedelta(minutes=30))
    seasons_roll_over()
    old = skill_of(a)
    RatingChange.objects.create(
        player=a,
        kind=ChangeKind.SEASON_RESET,
        season=2,
        at=season_one.ends_at,
        mu_before=old.mu,
        sigma_before=old.sigma,
        mu=old.mu,
        sigma=reset(old, 2.0).sigma,
    )
    assert not replay_equal()

    ratings_rebuild(games=rated_results(), starts=season_starts())

    assert resets_of(a) == 0
    assert skill_of(a) == old
    assert replay_equal()


def test_a_late_ladder_game_put_in_its_place_replays_no_bot_reset(season_one, bots, ladder) -> None:
    """A ladder game that ended before the season's end, rated after its reset: put in its
    place, the history after it replayed, still with no reset of a bot's."""
    a, b = bots
    ladder([(a, 1), ("hard", 2)], season_one.ends_at - timedelta(minutes=30))
    seasons_roll_over()
    ladder([(a, 2), ("hard", 1)], season_one.ends_at + timedelta(minutes=5))
    late = ladder([(b, 1), (a, 2)], season_one.ends_at - timedelta(minutes=1), rate=False)

    assert game_rate(game_id=late.pk)

    assert resets_of(a) == resets_of(b) == 0
    assert Rating.objects.get(player=a).season_games == 0
    assert Rating.objects.get(player=b).season_games == 0
    assert Rating.objects.get(player=a).games == 3
    assert replay_equal()


def test_a_void_before_the_reset_replays_no_bot_reset(
    players, play, season_one, bots, ladder, staff
) -> None:
    a, b = bots
    person, other = players[:2]
    voided = ladder([(a, 1), (b, 2)], season_one.ends_at - timedelta(minutes=30))
    ladder([(a, 2), ("hard", 1), (b, 3)], season_one.ends_at - timedelta(minutes=20))
    play([(person, 1), (other, 2)], season_one.ends_at - timedelta(minutes=10))
    seasons_roll_over()
    ladder([(b, 1), (a, 2)], season_one.ends_at + timedelta(minutes=5))

    game_void(game_id=voided.pk, by=staff, reason="a bug in the bot")
    assert game_unrate(game_id=voided.pk)

    assert resets_of(a) == resets_of(b) == 0
    assert resets_of(person) == 1
    assert {Rating.objects.get(player=bot).season_games for bot in bots} == {0}
    assert Rating.objects.get(player=a).games == 2
    assert replay_equal()
