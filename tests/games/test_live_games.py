"""`GET /api/v1/games/live/`: the ranked games in play, each as a stranger sees it."""

from __future__ import annotations

from django.db import transaction

from games.models import Game, GameStatus
from games.services.lobby import game_begin_ranked
from tests.factories import PlayerFactory

LIVE = "/api/v1/games/live/"


def _ranked_game() -> Game:
    with transaction.atomic():
        return game_begin_ranked(players=[PlayerFactory.create() for _ in range(2)]).game


def test_live_ranked_games_are_listed_newest_first_as_a_stranger_sees_them(make_client) -> None:
    older, newer = _ranked_game(), _ranked_game()
    watcher = make_client("Watcher")

    response = watcher.get(LIVE)

    assert response.status_code == 200, response.content
    page = response.json()
    assert (page["count"], page["next"], page["previous"]) == (2, None, None)
    assert [game["id"] for game in page["results"]] == [str(newer.pk), str(older.pk)]
    for game in page["results"]:
        assert (game["status"], game["ranked"], game["you"], game["invite_code"]) == (
            "active",
            True,
            None,
            None,
        )
        # Exactly what the game's own endpoint shows a stranger.
        assert game == watcher.game(game["id"])


def test_private_and_ended_games_are_not_listed(make_client) -> None:
    host = make_client("Host")
    private = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{private['id']}/cpu/")
    assert host.post(f"/api/v1/games/{private['id']}/start/").status_code == 200
    ended = _ranked_game()
    Game.objects.filter(pk=ended.pk).update(status=GameStatus.FINISHED)

    assert host.get(LIVE).json()["count"] == 0


def test_the_list_is_paginated(make_client) -> None:
    for _ in range(3):
        _ranked_game()
    page = make_client("Watcher").get(f"{LIVE}?limit=2").json()

    assert page["count"] == 3
    assert len(page["results"]) == 2
    assert page["next"] is not None


def test_the_list_is_public_but_a_bad_token_is_refused(api_client, db) -> None:
    # Public since issue 17 (docs/api.md, Public reads); a token sent is still checked.
    assert api_client.get(LIVE).status_code == 200
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert api_client.get(LIVE).status_code == 401
