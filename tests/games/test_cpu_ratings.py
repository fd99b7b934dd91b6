"""CPU levels are rated players: a ranked game's CPU seats are rated as their levels' players,
from their calibrated starts, and a rebuild agrees."""

from __future__ import annotations

import pytest

from accounts.models import Player
from games.models import Game, GameStatus, Pool, Seat
from games.selectors import rated_results
from games.services.rating import game_rate
from ratings import cpu
from ratings.models import Rating, RatingChange
from ratings.rating import DEFAULT, Skill, rate
from ratings.rebuild import compare

pytestmark = pytest.mark.django_db

EXPERT_START = Skill(31.0, 4.0)


@pytest.fixture(autouse=True)
def _calibrated(monkeypatch) -> None:
    monkeypatch.setattr(cpu, "_starts", lambda: {"expert": EXPERT_START})


def ranked_game(make_game, places, pool: Pool = Pool.RANKED) -> Game:
    """A finished ranked game of `pool`: `(player, place)` or `(level, place)` for a CPU seat."""
    game = make_game([], pool=pool)
    game.max_players = len(places)
    game.save()
    Seat.objects.bulk_create(
        Seat(game=game, seat=index, place=place, live=False, player=who)
        if isinstance(who, Player)
        else Seat(game=game, seat=index, place=place, live=False, is_cpu=True, cpu_level=who)
        for index, (who, place) in enumerate(places)
    )
    return game


def test_a_cpu_seat_is_rated_as_its_level_s_player(players, make_game) -> None:
    a, b = players[:2]
    game = ranked_game(make_game, [(a, 1), ("expert", 2), (b, 3)])

    assert game_rate(game_id=game.pk) is True

    expert = Player.objects.get(cpu_level="expert")
    assert (expert.display_name, expert.is_cpu, expert.has_usable_password()) == (
        "CPU (expert)",
        True,
        False,
    )
    won, lost_to_a, _ = rate([DEFAULT, EXPERT_START, DEFAULT], [1, 2, 3])
    assert Rating.objects.get(player=a).mu == won.mu
    assert Rating.objects.get(player=expert).mu == lost_to_a.mu
    change = RatingChange.objects.get(player=expert, game=game)
    assert (change.seat, change.place, change.mu_before) == (1, 2, EXPERT_START.mu)


def test_cpu_ratings_change_game_after_game(players, make_game) -> None:
    a = players[0]
    first = ranked_game(make_game, [(a, 2), ("hard", 1)])
    second = ranked_game(make_game, [("hard", 2), (a, 1)])
    game_rate(game_id=second.pk)  # the earlier game is rated first, through the CPU's level
    hard = Player.objects.get(cpu_level="hard")
    assert set(RatingChange.objects.filter(player=hard).values_list("game", flat=True)) == {
        first.pk,
        second.pk,
    }
    after_first = rate([DEFAULT, DEFAULT], [2, 1])
    after_second = rate([after_first[1], after_first[0]], [2, 1])
    row = Rating.objects.get(player=hard)
    assert (row.mu, row.sigma, row.games) == (after_second[0].mu, after_second[0].sigma, 2)
    assert compare(rated_results()).equal  # recompute_ratings agrees


def test_one_level_seated_alone_with_a_human_rates_both(players, make_game) -> None:
    game = ranked_game(make_game, [(players[0], 1), ("easy", 2)])
    game_rate(game_id=game.pk)
    assert Rating.objects.filter(player__cpu_level="easy").count() == 1
    assert Rating.objects.filter(player=players[0]).exists()


def test_private_tables_stay_unrated(players, make_game) -> None:
    game = ranked_game(make_game, [(players[0], 1), ("easy", 2)])
    Game.objects.filter(pk=game.pk).update(ranked=False)
    assert game_rate(game_id=game.pk) is False
    assert not Rating.objects.exists()
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED


def test_the_leaderboard_flags_cpus(players, make_game, make_client) -> None:
    game = ranked_game(make_game, [(players[0], 2), ("expert", 1)])
    game_rate(game_id=game.pk)
    entries = make_client("Reader").get("/api/v1/leaderboard/").json()["results"]
    flags = {entry["player"]["display_name"]: entry["player"]["is_cpu"] for entry in entries}
    assert flags == {"CPU (expert)": True, players[0].display_name: False}
