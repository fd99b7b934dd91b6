"""Ratings' writes from plain data (ratings/services.py): a finished game's result rated from
its players' current ratings, and a voided game's ratings rolled back from ratings' own rows.
(Which games are rated, once and in order, is games' side: tests/games/test_rating.py.)"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection, transaction

from accounts.models import Player
from games.models import Event, Game
from ratings.models import Rating, RatingChange
from ratings.rating import DEFAULT, Skill, rate
from ratings.rebuild import compare
from ratings.results import GameResult, SeatResult
from ratings.services import game_ratings_apply, game_ratings_undo
from tests.games.conftest import Places


def finished(make_game: Callable[..., Game], places: Places) -> GameResult:
    """A finished game's row (the rating changes name it), and its result as games hand it
    over: the human seats, in seat order."""
    game = make_game(places)
    assert game.finished_at is not None
    seats = [
        SeatResult(player.pk, seat, place)
        for seat, (player, place) in enumerate(places)
        if player is not None
    ]
    return GameResult(game.pk, game.finished_at, seats)


def skill_of(player: Player) -> Skill:
    row = Rating.objects.get(player=player)
    return Skill(row.mu, row.sigma)


def test_a_result_is_rated_from_the_players_current_ratings(players, make_game) -> None:
    a, b, c = players[:3]
    first = finished(make_game, [(a, 2), (b, 1), (None, 3), (c, 4)])

    updates = game_ratings_apply(result=first)

    expected = rate([DEFAULT] * 3, [2, 1, 4])
    # What the game's `rated` event lists: the humans, by seat, with the ordinal's change.
    assert [(u["seat"], u["player_id"]) for u in updates] == [
        (0, str(a.pk)),
        (1, str(b.pk)),
        (3, str(c.pk)),
    ]
    assert [Skill(u["mu"], u["sigma"]) for u in updates] == expected
    assert [(u["ordinal"], u["delta"]) for u in updates] == [
        (skill.ordinal, skill.ordinal - DEFAULT.ordinal) for skill in expected
    ]
    assert [skill_of(player) for player in (a, b, c)] == expected
    change = RatingChange.objects.get(game_id=first.game_id, player=c)
    assert (change.seat, change.place, change.at) == (3, 4, first.finished_at)

    second = finished(make_game, [(c, 1), (a, 2)])
    game_ratings_apply(result=second)

    assert [skill_of(c), skill_of(a)] == rate([expected[2], expected[0]], [1, 2])
    assert Rating.objects.get(player=a).games == 2
    assert compare([first, second]).equal
    # The game rows are games' to write: ratings leave them as they were.
    assert not Game.objects.filter(rated_at__isnull=False).exists()
    assert not Event.objects.exists()


def test_a_result_with_one_rated_player_moves_nobody(players, make_game) -> None:
    assert game_ratings_apply(result=finished(make_game, [(players[0], 2), (None, 1)])) == []
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_rating_holds_the_ratings_lock_until_the_commit(players, make_game) -> None:
    result = finished(make_game, [(players[0], 1), (players[1], 2)])
    with transaction.atomic(), connection.cursor() as cursor:
        game_ratings_apply(result=result)
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND pid = pg_backend_pid()"
        )
        assert cursor.fetchone() == (1,)


def test_a_games_ratings_are_undone_from_ratings_own_rows(players, make_game) -> None:
    a, b, c = players[:3]
    voided = finished(make_game, [(a, 1), (b, 2)])
    later = finished(make_game, [(b, 1), (c, 2)])
    for result in (voided, later):
        game_ratings_apply(result=result)

    assert game_ratings_undo(game_id=voided.game_id) is True

    assert not Rating.objects.filter(player=a).exists()
    assert [skill_of(b), skill_of(c)] == rate([DEFAULT, DEFAULT], [1, 2])
    assert compare([later]).equal
    assert game_ratings_undo(game_id=voided.game_id) is False  # nothing left to undo
    assert compare([later]).equal
