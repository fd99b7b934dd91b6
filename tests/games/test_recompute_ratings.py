"""`manage.py recompute_ratings`: the replay equals what rating game by game stored, and any
difference is found (exit status 1) and, with --write, repaired."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.models import Game
from games.services.rating import game_rate, game_unrate
from ratings.models import Rating, RatingChange
from ratings.rating import DEFAULT, Skill, rate

pytestmark = pytest.mark.django_db(transaction=True)  # the command runs its own transactions


def recompute(*args: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command("recompute_ratings", *args, stdout=out, stderr=err)
    assert "replaying [" in err.getvalue()  # the progress bar
    return out.getvalue()


@pytest.fixture
def history(players, make_game) -> list[Game]:
    """Rated games in which ratings carry over, with a tie, a CPU seat and a voided game."""
    a, b, c, d, e, f = players
    games = [
        make_game([(a, 1), (b, 2), (c, 2)]),
        make_game([(b, 1), (None, 2), (d, 3)]),
        make_game([(c, 1), (a, 1), (e, 3), (f, 4), (d, 5)]),
        make_game([(f, 1), (a, 2)]),
    ]
    for game in games:
        game_rate(game_id=game.pk)
    Game.objects.filter(pk=games[1].pk).update(voided_at=timezone.now())
    game_unrate(game_id=games[1].pk)
    return games


def test_the_stored_ratings_equal_the_replay(history) -> None:
    out = recompute()
    assert "max difference: 0\n" in out
    assert "rows missing: 0, unexpected: 0, game counts differing: 0" in out
    assert "players: 6, rating changes: 10" in out
    assert "equal" in out


def test_a_changed_rating_is_found_and_rewritten(history, players) -> None:
    Rating.objects.filter(player=players[0]).update(mu=26.5)

    with pytest.raises(CommandError, match="differ"):
        recompute()

    out = recompute("--write")
    assert "written" in out
    assert "equal" in recompute()
    assert Rating.objects.get(player=players[0]).games == 3


@pytest.mark.parametrize(
    "damage",
    [
        lambda: RatingChange.objects.filter(pk=RatingChange.objects.earliest("id").pk).update(
            sigma=1
        ),
        lambda: RatingChange.objects.filter(pk=RatingChange.objects.latest("id").pk).delete(),
        lambda: Rating.objects.filter(pk__in=Rating.objects.all()[:1]).update(games=9),
        lambda: Rating.objects.filter(pk__in=Rating.objects.all()[:1]).delete(),
        lambda: Rating.objects.filter(pk__in=Rating.objects.all()[:1]).update(
            last_game_at=timezone.now() - timedelta(days=3)
        ),
    ],
    ids=["history value", "history row", "game count", "rating row", "last game"],
)
def test_any_damage_is_found(history, damage) -> None:
    damage()
    with pytest.raises(CommandError):
        recompute()


def test_a_rating_left_from_a_voided_game_is_found(history, players) -> None:
    """A void whose roll back never ran: the replay leaves the game out."""
    voided = history[0]
    Game.objects.filter(pk=voided.pk).update(voided_at=timezone.now())
    with pytest.raises(CommandError):
        recompute()
    game_unrate(game_id=voided.pk)
    assert "equal" in recompute()


def test_games_waiting_for_their_rating_are_reported_and_can_be_rated(players, make_game) -> None:
    a, b = players[:2]
    waiting = make_game([(a, 2), (b, 1)])

    assert "1 finished ranked games are not rated yet" in recompute()

    out = recompute("--rate-pending")
    assert "rated 1 pending games" in out
    assert "not rated yet" not in out
    assert Rating.objects.get(player=b).mu == rate([DEFAULT, DEFAULT], [2, 1])[1].mu
    assert Game.objects.get(pk=waiting.pk).rated_at is not None


def test_the_replay_ages_ratings_between_games_as_the_live_path_did(players, make_game) -> None:
    """Games weeks apart, and a void in the middle that replays aged priors: the stored
    ratings are the replay's to the last digit."""
    a, b, c, d = players[:4]
    start = timezone.now() - timedelta(days=200)
    games = [
        make_game(places, finished_at=start + timedelta(days=days, hours=hours))
        for places, days, hours in (
            ([(a, 1), (b, 2)], 0, 0),
            ([(b, 1), (c, 2), (None, 3)], 3, 5),
            ([(a, 2), (c, 1), (d, 3)], 40, 1),
            ([(a, 1), (b, 1), (d, 2)], 41, 23),
            ([(d, 1), (b, 2)], 150, 0),
            ([(a, 1), (c, 2)], 151, 0),
        )
    ]
    for game in games:
        game_rate(game_id=game.pk)
    later = RatingChange.objects.get(game=games[2], player=a)
    earlier = RatingChange.objects.get(game=games[0], player=a)
    assert Skill(later.mu_before, later.sigma_before) != Skill(earlier.mu, earlier.sigma)  # aged

    out = recompute()
    assert "max difference: 0\n" in out
    assert "equal" in out

    Game.objects.filter(pk=games[2].pk).update(voided_at=timezone.now())
    game_unrate(game_id=games[2].pk)
    out = recompute()
    assert "max difference: 0\n" in out
    assert "rows missing: 0, unexpected: 0, game counts differing: 0" in out
    assert Rating.objects.get(player=a).last_game_at == games[5].finished_at
