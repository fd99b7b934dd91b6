"""The replay of the rated games (ratings/rebuild.py), from the results the caller gives."""

from __future__ import annotations

from games.models import Game
from ratings.rebuild import compare
from ratings.results import GameResult, SeatResult
from ratings.services import game_ratings_apply, ratings_rebuild


def result(game: Game, *seats: SeatResult) -> GameResult:
    assert game.finished_at is not None
    return GameResult(game.pk, game.finished_at, list(seats))


def test_the_replay_compares_the_stored_rows_with_the_games_it_is_given(players, make_game) -> None:
    a, b, c = players[:3]
    first = result(make_game([(a, 1), (b, 2)]), SeatResult(a.pk, 0, 1), SeatResult(b.pk, 1, 2))
    second = result(make_game([(b, 1), (c, 1)]), SeatResult(b.pk, 0, 1), SeatResult(c.pk, 1, 1))
    for game in (first, second):
        game_ratings_apply(result=game)

    assert compare([first, second]).equal
    missing = compare([first])
    # Not replayed: the second game's two changes, and c's rating (c played only that one).
    assert (missing.unexpected, missing.equal) == (3, False)
    assert not compare([second, first]).equal  # out of order: other ratings

    replay = ratings_rebuild(games=[second])
    assert set(replay.skills) == {b.pk, c.pk}
    assert compare([second]).equal
