"""The `player` object (ratings/payloads.py): a player shown with their rating, or OpenSkill's
defaults before their first rated game."""

from __future__ import annotations

import pytest

from ratings.payloads import PlayerSerializer, player_data, player_rating
from ratings.rating import DEFAULT, rate
from ratings.results import GameResult, SeatResult
from ratings.services import game_ratings_apply


def test_the_player_object_shows_the_rating(players, make_game, settings) -> None:
    a, b = players[:2]
    assert player_rating(a) == {
        "mu": DEFAULT.mu,
        "sigma": DEFAULT.sigma,
        "ordinal": pytest.approx(0.0),
        "games": 0,
        "provisional": True,
    }
    game = make_game([(a, 1), (b, 2)])
    game_ratings_apply(
        result=GameResult(
            game.pk, game.finished_at, [SeatResult(a.pk, 0, 1), SeatResult(b.pk, 1, 2)]
        )
    )
    a.refresh_from_db()
    winner = rate([DEFAULT] * 2, [1, 2])[0]
    assert player_rating(a) == {
        "mu": winner.mu,
        "sigma": winner.sigma,
        "ordinal": winner.ordinal,
        "games": 1,
        "provisional": True,
    }
    settings.YANIV_PROVISIONAL_SIGMA = winner.sigma
    assert player_rating(a)["provisional"] is False  # provisional while sigma is *above*


def test_the_serializer_answers_what_player_data_builds(players) -> None:
    player = players[0]
    assert PlayerSerializer(player).data == {
        "id": str(player.pk),
        "display_name": player.display_name,
        "is_guest": True,
        "is_cpu": False,
        "is_bot": False,
        "rating": player_rating(player),
        "placement_games_left": 10,
    }
    assert PlayerSerializer(player).data == player_data(player)
