"""A season's end (docs/api.md, Seasons): the rollover happens exactly once, after every game
of the season is rated and before any of the next; the soft reset's formula; the frozen
standings; and recompute_ratings replays it all to the last digit."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from games.models import Game
from games.selectors import rated_results
from games.services.rating import game_rate, game_unrate, seasons_roll_over
from games.services.staff import game_void
from ratings.models import ChangeKind, Rating, RatingChange
from ratings.payloads import aged_from, player_data
from ratings.rating import DEFAULT, Skill, reset
from ratings.rebuild import compare
from ratings.services import cpu_players
from seasons import services
from seasons.models import Season, SeasonStanding, SeasonStatus
from seasons.payloads import tier
from seasons.selectors import season_starts
from tests.games.test_rating_concurrency import at_once
from tests.seasons.conftest import NOW

pytestmark = pytest.mark.django_db


def skill_of(player) -> Skill:
    row = Rating.objects.get(player=player)
    return Skill(row.mu, row.sigma)


def replay_equal() -> bool:
    return compare(rated_results(), season_starts()).equal


# The formula ---------------------------------------------------------------------------


def test_the_soft_reset_against_hand_worked_numbers() -> None:
    # sqrt(3^2 + 2^2) = sqrt(13); mu kept.
    assert reset(Skill(31.5, 3.0), 2.0) == Skill(31.5, math.sqrt(13.0))
    assert math.isclose(reset(Skill(31.5, 3.0), 2.0).sigma, 3.605551275463989, rel_tol=1e-15)
    # sqrt(8^2 + 2^2) = 8.246... is below 25/3: kept; sqrt(8.2^2 + 4) = 8.44... is capped.
    assert math.isclose(reset(Skill(20.0, 8.0), 2.0).sigma, 8.246211251235321, rel_tol=1e-15)
    assert reset(Skill(20.0, 8.2), 2.0) == Skill(20.0, DEFAULT.sigma)
    assert reset(Skill(20.0, 4.0), 0.0) == Skill(20.0, 4.0)


def test_tiers_by_rank_among_the_placed() -> None:
    # 200 placed: the top 1% is 2 players, 5% 10, 10% 20, 25% 50, 50% 100.
    assert [tier(rank, 200) for rank in (1, 2, 3, 10, 11, 20, 21, 50, 51, 100, 101, 200)] == [
        "legend", "legend", "master", "master", "diamond", "diamond",
        "gold", "gold", "silver", "silver", "bronze", "bronze",
    ]  # fmt: skip
    # Rounded up: a board of 3 has one legend (1% of 3 is 0.03 -> 1), no master, diamond or
    # gold beyond it (0.15, 0.3, 0.75 -> 1), a silver (1.5 -> 2) and a bronze.
    assert [tier(rank, 3) for rank in (1, 2, 3)] == ["legend", "silver", "bronze"]


# The rollover --------------------------------------------------------------------------


def test_the_rollover_freezes_the_standings_resets_and_opens_the_next(
    players, play, season_one, settings
) -> None:
    settings.YANIV_SEASON_PLACEMENT_GAMES = 2
    a, b, c = players[:3]
    start = season_one.ends_at - timedelta(hours=2)
    for minute in range(3):
        play([(a, 1), (b, 2)], start + timedelta(minutes=minute))
    play([(c, 1), (a, 2)], start + timedelta(minutes=10))
    before = {player: skill_of(player) for player in (a, b, c)}

    following = seasons_roll_over()

    assert following is not None
    assert (following.number, following.name, following.status) == (2, "Season 2", "current")
    assert following.starts_at == season_one.ends_at
    assert following.ends_at == NOW + timedelta(days=settings.YANIV_SEASON_DAYS)
    season_one.refresh_from_db()
    assert (season_one.status, season_one.placement_games) == (SeasonStatus.FINISHED, 2)
    # Frozen: a and b placed (4 and 3 games), c not (1 game); ranked by ordinal.
    standings = {s.player_id: s for s in SeasonStanding.objects.filter(season=season_one)}
    assert {p: standings[p.pk].games for p in (a, b, c)} == {a: 4, b: 3, c: 1}
    assert standings[c.pk].rank is None
    assert standings[c.pk].tier == ""
    placed = sorted((a, b), key=lambda p: -before[p].ordinal)
    assert [standings[p.pk].rank for p in placed] == [1, 2]
    assert [standings[p.pk].tier for p in placed] == ["legend", "bronze"]  # of 2: 1% and 50% -> 1
    assert standings[a.pk].ordinal == before[a].ordinal  # aged to the end: the same UTC day
    # The reset: sigma widened, mu kept, an entry of its own in each history.
    for player in (a, b, c):
        assert skill_of(player) == reset(before[player], 2.0)
        entry = RatingChange.objects.get(player=player, kind=ChangeKind.SEASON_RESET)
        assert (entry.season, entry.at, entry.game_id) == (2, following.starts_at, None)
        assert Skill(entry.mu_before, entry.sigma_before) == before[player]
        assert Rating.objects.get(player=player).season_games == 0
        assert player_data(player)["placement_games_left"] == 2
    assert Rating.objects.get(player=a).games == 4  # all-time games are kept
    assert replay_equal()
    # Not ended yet: nothing more happens.
    assert seasons_roll_over() is None
    assert Season.objects.count() == 2


def test_the_frozen_standing_is_the_rating_aged_to_the_end(players, play, season_one) -> None:
    """Frozen in SQL, aged as Python ages it: to the last bit."""
    a, b = players[:2]
    play([(a, 1), (b, 2)], season_one.ends_at - timedelta(days=5))
    stored = skill_of(a)

    seasons_roll_over()

    standing = SeasonStanding.objects.get(player=a)
    shown = aged_from(stored, season_one.ends_at - timedelta(days=5), season_one.ends_at)
    assert shown.sigma > stored.sigma  # five days of ageing
    assert (standing.mu, standing.sigma, standing.ordinal) == (*shown, shown.ordinal)


@pytest.mark.django_db(transaction=True)
def test_two_rollovers_at_once_roll_over_once(players, play, season_one) -> None:
    play([(players[0], 1), (players[1], 2)], season_one.ends_at - timedelta(minutes=5))

    results = at_once(2, lambda: seasons_roll_over())

    assert sorted(r is None for r in results) == [False, True]
    assert list(Season.objects.values_list("number", "status")) == [
        (2, "current"),
        (1, "finished"),
    ]
    assert RatingChange.objects.filter(kind=ChangeKind.SEASON_RESET).count() == 2
    assert SeasonStanding.objects.count() == 2
    assert replay_equal()


def test_a_rollover_that_fails_midway_leaves_nothing(
    players, play, season_one, monkeypatch
) -> None:
    play([(players[0], 1), (players[1], 2)], season_one.ends_at - timedelta(minutes=5))

    def dies(**_: object) -> int:
        raise RuntimeError("the worker died")

    monkeypatch.setattr(services, "ratings_season_reset", dies)
    with pytest.raises(RuntimeError):
        seasons_roll_over()
    season_one.refresh_from_db()
    assert season_one.status == SeasonStatus.CURRENT
    assert not SeasonStanding.objects.exists()
    assert Season.objects.count() == 1
    monkeypatch.undo()
    assert seasons_roll_over() is not None  # the next run does it, once
    assert SeasonStanding.objects.count() == 2


def test_a_pending_game_of_the_old_season_is_rated_before_the_reset(
    players, play, season_one
) -> None:
    a, b = players[:2]
    play([(a, 1), (b, 2)], season_one.ends_at - timedelta(minutes=30))
    pending = play([(a, 2), (b, 1)], season_one.ends_at - timedelta(minutes=1), rate=False)

    seasons_roll_over()

    change = RatingChange.objects.get(game=pending, player=a)
    reset_entry = RatingChange.objects.get(player=a, kind=ChangeKind.SEASON_RESET)
    assert Skill(reset_entry.mu_before, reset_entry.sigma_before) == Skill(change.mu, change.sigma)
    assert SeasonStanding.objects.get(player=a).games == 2
    assert replay_equal()


def test_a_game_of_the_next_season_rated_before_the_beat_rolls_it_over_first(
    players, play, season_one
) -> None:
    a, b = players[:2]
    play([(a, 1), (b, 2)], season_one.ends_at - timedelta(minutes=30))
    after = play([(a, 1), (b, 2)], season_one.ends_at + timedelta(minutes=1))

    assert Season.objects.get(status=SeasonStatus.CURRENT).number == 2
    reset_entry = RatingChange.objects.get(player=a, kind=ChangeKind.SEASON_RESET)
    change = RatingChange.objects.get(game=after, player=a)
    assert Skill(change.mu_before, change.sigma_before) == Skill(reset_entry.mu, reset_entry.sigma)
    assert Rating.objects.get(player=a).season_games == 1
    assert SeasonStanding.objects.get(player=a).games == 1  # the new game is not season 1's
    assert replay_equal()


def test_a_game_rated_after_the_reset_that_ended_before_it_is_put_in_its_place(
    players, play, season_one
) -> None:
    """A finish that committed just as the season turned: rated after the reset, it is the
    old season's game, and the reset (and what follows) is replayed after it."""
    a, b, c = players[:3]
    play([(a, 1), (b, 2)], season_one.ends_at - timedelta(minutes=30))
    seasons_roll_over()
    play([(a, 2), (c, 1)], season_one.ends_at + timedelta(minutes=5))
    # b's game, and c's first: it ended before the season did.
    late = Game.objects.create(
        ranked=True, rules={}, max_players=2, status="finished",
        finished_at=season_one.ends_at - timedelta(minutes=1),
    )  # fmt: skip
    late.seats.create(seat=0, player=b, place=1, live=False)
    late.seats.create(seat=1, player=c, place=2, live=False)

    assert game_rate(game_id=late.pk)

    assert replay_equal()  # as if it had been rated in time
    # c was rated before the reset now: a reset entry of their own, and one season-2 game.
    assert RatingChange.objects.filter(player=c, kind=ChangeKind.SEASON_RESET).count() == 1
    assert Rating.objects.get(player=c).season_games == 1
    assert Rating.objects.get(player=b).season_games == 0


def test_a_void_of_an_old_game_re_rates_but_the_frozen_board_stays(
    players, play, season_one, staff
) -> None:
    a, b, c = players[:3]
    old = play([(a, 1), (b, 2)], season_one.ends_at - timedelta(minutes=30))
    play([(b, 1), (c, 2)], season_one.ends_at - timedelta(minutes=20))
    seasons_roll_over()
    play([(a, 1), (c, 2)], season_one.ends_at + timedelta(minutes=5))
    frozen = list(SeasonStanding.objects.order_by("player_id").values())
    before = {p: skill_of(p) for p in (a, b, c)}

    game_void(game_id=old.pk, by=staff, reason="collusion")
    game_unrate(game_id=old.pk)

    assert all(skill_of(p) != before[p] for p in (a, b))  # re-rated without the game
    assert replay_equal()  # the reset and the later game replayed too
    assert list(SeasonStanding.objects.order_by("player_id").values()) == frozen
    assert Rating.objects.get(player=a).games == 1


def test_a_void_of_a_players_only_game_before_a_reset_removes_their_reset(
    players, play, season_one, staff
) -> None:
    a, b = players[:2]
    only = play([(a, 1), (b, 2)], season_one.ends_at - timedelta(minutes=30))
    seasons_roll_over()
    play([(a, 1), (players[2], 2)], season_one.ends_at + timedelta(minutes=5))

    game_void(game_id=only.pk, by=staff, reason="test")
    game_unrate(game_id=only.pk)

    assert not Rating.objects.filter(player=b).exists()
    assert not RatingChange.objects.filter(player=b).exists()
    # a's next game starts from the default again: no reset between.
    assert not RatingChange.objects.filter(player=a, kind=ChangeKind.SEASON_RESET).exists()
    assert replay_equal()


def test_cpu_levels_are_reset_like_everyone(players, make_game, season_one, clock) -> None:
    game = make_game([(players[0], 2), (None, 1)], finished_at=season_one.ends_at - timedelta(1))
    game.seats.filter(is_cpu=True).update(cpu_level="hard")
    game_rate(game_id=game.pk)
    cpu = cpu_players(["hard"])["hard"]
    before = skill_of(cpu)

    seasons_roll_over()

    assert skill_of(cpu) == reset(before, 2.0)
    assert SeasonStanding.objects.filter(player=cpu).exists()
    assert replay_equal()


def test_recompute_replays_several_seasons(players, play, season_one, settings, clock) -> None:
    a, b, c = players[:3]
    at = season_one.ends_at - timedelta(days=3)
    for day in range(3):
        play([(a, 1 + day % 2), (b, 2 - day % 2)], at + timedelta(days=day))
    seasons_roll_over()
    second = Season.objects.get(number=2)
    second.ends_at = NOW + timedelta(hours=5)
    second.save()
    play([(a, 1), (c, 2)], NOW - timedelta(minutes=30))
    settings.YANIV_SEASON_SIGMA_BUMP = 1.0  # the third season's reset differs: replayed as it was
    clock.move_to(NOW + timedelta(hours=6))

    play([(b, 1), (c, 2)], NOW + timedelta(hours=5, minutes=1))

    assert Season.objects.get(status="current").number == 3
    assert Season.objects.get(number=3).sigma_bump == 1.0
    # Season 2's reset: a and b; season 3's: a, b and c.
    assert RatingChange.objects.filter(kind=ChangeKind.SEASON_RESET).count() == 2 + 3
    assert replay_equal()
