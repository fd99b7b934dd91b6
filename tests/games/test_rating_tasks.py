"""The whole path on a real worker: a ranked game played to its end through the games services
is rated by the task its end queues; voiding it rolls the ratings back the same way."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.utils import timezone

from games import tasks
from games.models import Event, Game
from games.notify import game_finished_signal
from games.selectors import rated_results
from games.services.lobby import game_begin_ranked
from games.services.play import game_leave
from games.services.staff import game_void
from ratings.models import Rating, RatingChange
from ratings.rating import DEFAULT, rate
from ratings.rebuild import compare
from tests.factories import PlayerFactory
from tests.games.conftest import wait_for


@pytest.mark.usefixtures("celery_worker")
def test_a_ranked_game_played_to_the_end_is_rated_then_rolled_back(settings) -> None:
    settings.YANIV_CPU_THINK_SECONDS = 0
    players = [PlayerFactory.create() for _ in range(3)]
    with transaction.atomic():
        game = game_begin_ranked(players=players).game
        game_id = game.pk
        # Straight to the last round (a whole game takes a few hundred moves): at 100 points
        # each, the first round that scores anything puts every scorer out.
        assert game.state is not None
        Game.objects.filter(pk=game_id).update(state={**game.state, "totals": [100] * 3})
    # Everyone leaves: the CPU plays every seat to the end, and the result still counts.
    for player in players:
        game_leave(game_id=game_id, player=player)

    game = wait_for(lambda: Game.objects.filter(pk=game_id, rated_at__isnull=False).first(), 60)

    seats = list(game.seats.order_by("seat"))
    expected = rate([DEFAULT] * 3, [seat.place for seat in seats])
    for seat, skill in zip(seats, expected, strict=True):
        row = Rating.objects.get(player=seat.player)
        assert (row.mu, row.sigma, row.games) == (skill.mu, skill.sigma, 1)
    rated = Event.objects.get(game=game, type="rated")
    assert [entry["player_id"] for entry in rated.payload["ratings"]] == [
        str(seat.player_id) for seat in seats
    ]
    assert compare(rated_results()).equal

    game_void(game_id=game_id, reason="collusion")

    wait_for(lambda: not RatingChange.objects.filter(game_id=game_id).exists(), 30)
    assert not Rating.objects.exists()
    assert compare(rated_results()).equal


def test_only_ranked_games_queue_a_rating(make_game, players, monkeypatch) -> None:
    queued: list[str] = []
    monkeypatch.setattr(tasks.game_rate, "delay", queued.append)
    private = make_game([(players[0], 1), (players[1], 2)], ranked=False)
    ranked = make_game([(players[2], 1), (players[3], 2)])

    game_finished_signal.send(sender=Game, game_id=private.pk)
    game_finished_signal.send(sender=Game, game_id=ranked.pk)

    assert queued == [str(ranked.pk)]


def test_the_pending_sweep_rates_games_whose_task_was_lost(players, make_game) -> None:
    a, b, c, d = players[:4]
    lost = make_game([(a, 1), (b, 2)])
    just_ended = make_game([(c, 1), (d, 2)], finished_at=timezone.now())

    assert tasks.games_rate_pending() == 1
    lost.refresh_from_db()
    just_ended.refresh_from_db()
    assert lost.rated_at is not None
    assert just_ended.rated_at is None  # its own task is still on its way
    assert tasks.games_rate_pending() == 0
