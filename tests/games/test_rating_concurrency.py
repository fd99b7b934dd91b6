"""Exactly once on PostgreSQL: the same game rated by two workers at the same moment."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from games import tasks
from games.models import Event
from games.selectors import rated_results
from games.services.rating import game_rate
from ratings.models import Rating, RatingChange
from ratings.rebuild import compare


def at_once(count: int, work: Callable[[], object]) -> list[object]:
    """Run `work` in `count` threads, each on its own database connection, released together."""
    barrier = threading.Barrier(count)
    results: list[object] = []

    def run() -> None:
        barrier.wait()
        try:
            results.append(work())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_two_workers_rating_one_game_rate_it_once(players, make_game) -> None:
    game = make_game([(players[0], 1), (players[1], 2), (players[2], 2)])

    results = at_once(2, lambda: tasks.game_rate.apply(args=(str(game.pk),)).get())

    assert sorted(results) == [False, True]  # type: ignore[type-var]
    assert RatingChange.objects.filter(game=game).count() == 3
    assert set(Rating.objects.values_list("games", flat=True)) == {1}
    assert Event.objects.filter(game=game, type="rated").count() == 1


@pytest.mark.django_db(transaction=True)
def test_games_sharing_players_rated_at_once_chain_their_ratings(players, make_game) -> None:
    """Every game of one player, rated concurrently: each rating starts from the one before."""
    a = players[0]
    games = [make_game([(a, 1 + n % 2), (players[1 + n % 5], 2 - n % 2)]) for n in range(6)]
    ids = iter(games)
    lock = threading.Lock()

    def rate_next() -> object:
        with lock:
            game = next(ids)
        return game_rate(game_id=game.pk)

    at_once(len(games), rate_next)

    assert Rating.objects.get(player=a).games == 6
    assert RatingChange.objects.count() == 12
    assert compare(rated_results()).equal  # as if the games had been rated one by one, in order
