"""GET /players/{id}/, its games and rating history, and the leaderboard (docs/api.md)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from games.services.rating import game_rate
from ratings.models import Rating
from ratings.payloads import player_data
from ratings.rating import DEFAULT, rate
from tests.factories import PlayerFactory
from tests.games.conftest import Places


@pytest.fixture
def client(players, client_for):
    return client_for(players[0])


def rated(make_game: Callable[..., Game], places: Places, **fields: Any) -> Game:
    """A finished game, rated."""
    game = make_game(places, **fields)
    game_rate(game_id=game.pk)
    return game


def ended(game: Game) -> str:
    """When the game ended, as the API writes times."""
    assert game.finished_at is not None
    return game.finished_at.isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize(
    "path", ["players/{id}/", "players/{id}/games/", "players/{id}/rating-history/"]
)
def test_an_unknown_player_is_not_found(client, path) -> None:
    for player_id in (uuid.uuid4(), "not-a-uuid"):
        response = client.get(f"/api/v1/{path.format(id=player_id)}")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "path", ["players/{id}/", "players/{id}/games/", "players/{id}/rating-history/", "leaderboard/"]
)
def test_every_endpoint_is_public_but_refuses_a_bad_token(api_client, players, path) -> None:
    # Issue 17 made these reads public (tests/players/test_public.py); a token sent is checked.
    assert api_client.get(f"/api/v1/{path.format(id=players[0].pk)}").status_code == 200
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert api_client.get(f"/api/v1/{path.format(id=players[0].pk)}").status_code == 401


def test_a_player_is_public_with_their_rating(client, players, make_game) -> None:
    a, b = players[1:3]
    rated(make_game, [(a, 1), (b, 2)])
    response = client.get(f"/api/v1/players/{a.pk}/")
    assert response.status_code == 200
    winner = rate([DEFAULT, DEFAULT], [1, 2])[0]
    assert response.json() == {
        "id": str(a.pk),
        "display_name": a.display_name,
        "is_guest": True,
        "is_cpu": False,
        "is_bot": False,
        "rating": {
            "mu": winner.mu,
            "sigma": winner.sigma,
            "ordinal": winner.ordinal,
            "games": 1,
            "provisional": True,
        },
        "placement_games_left": 9,  # YANIV_SEASON_PLACEMENT_GAMES (10) less the one
        "bot_description": None,
    }


def test_a_players_games_newest_first_with_every_seat(client_for, players, make_game) -> None:
    a, b, c = players[1:4]
    client = client_for(c)  # a private game is listed to those who sat at it (issue 17)
    older = rated(make_game, [(a, 2), (b, 1)])
    newer = make_game([(c, 1), (None, 3), (a, 2)], ranked=False)
    make_game([(b, 1), (c, 2)])  # not a's
    make_game([(a, 1), (b, 2)], status="active", finished_at=None)  # not finished

    body = client.get(f"/api/v1/players/{a.pk}/games/").json()

    assert body["count"] == 2
    first, second = body["results"]
    assert first == {
        "id": str(newer.pk),
        "ranked": False,
        "finished_at": ended(newer),
        "players": [player_data(c), None, player_data(a)],
        "place": 2,
        "seat": 2,
        "seat_names": [c.display_name, "CPU", a.display_name],
        "rating_before": None,
        "rating_after": None,
    }
    assert second["id"] == str(older.pk)
    assert second["ranked"] is True
    assert second["place"] == 2
    assert [player["id"] for player in second["players"]] == [str(a.pk), str(b.pk)]
    # The players are shown with their ratings now.
    assert second["players"][1]["rating"]["games"] == 1


def test_a_players_games_are_paginated(client, players, make_game) -> None:
    a, b = players[1:3]
    games = [make_game([(a, 1), (b, 2)]) for _ in range(3)]

    page = client.get(f"/api/v1/players/{a.pk}/games/?limit=2").json()
    assert page["count"] == 3
    assert page["previous"] is None
    assert [game["id"] for game in page["results"]] == [str(games[2].pk), str(games[1].pk)]
    rest = client.get(page["next"]).json()
    assert [game["id"] for game in rest["results"]] == [str(games[0].pk)]
    assert rest["next"] is None


def test_the_games_list_reads_the_seats_players_and_ratings_at_once(
    client, players, make_game, django_assert_max_num_queries
) -> None:
    a = players[1]
    for _ in range(5):
        rated(make_game, [(a, 1), (players[2], 2), (players[3], 3), (None, 4)])
    # The token, the player, the count, the page, its seats, its rating changes: not a query
    # per game or seat.
    with django_assert_max_num_queries(6):
        body = client.get(f"/api/v1/players/{a.pk}/games/").json()
    assert len(body["results"]) == 5


def test_rating_history_oldest_first_and_paginated(client, players, make_game) -> None:
    a, b = players[1:3]
    first = rated(make_game, [(a, 1), (b, 2)])
    second = rated(make_game, [(a, 2), (b, 1)])
    rated(make_game, [(b, 1), (players[3], 2)])  # not a's

    body = client.get(f"/api/v1/players/{a.pk}/rating-history/").json()

    after_first = rate([DEFAULT, DEFAULT], [1, 2])
    after_second = rate([after_first[0], after_first[1]], [2, 1])[0]
    assert body["count"] == 2
    assert body["results"] == [
        {
            "kind": "game",
            "game_id": str(game.pk),
            "at": ended(game),
            "season": 1,
            "mu": skill.mu,
            "sigma": skill.sigma,
            "ordinal": skill.ordinal,
        }
        for game, skill in ((first, after_first[0]), (second, after_second))
    ]
    page = client.get(f"/api/v1/players/{a.pk}/rating-history/?limit=1&offset=1").json()
    assert [point["game_id"] for point in page["results"]] == [str(second.pk)]
    assert page["next"] is None
    assert page["previous"] is not None


def test_the_leaderboard_by_ordinal_with_shared_ranks(client, players, make_game) -> None:
    a, b, c, d, e = players[1:6]
    rated(make_game, [(a, 1), (b, 1), (c, 3), (d, 4)])  # a and b tie: equal ratings
    banned = PlayerFactory.create(banned=True)
    rated(make_game, [(e, 1), (banned, 2)])  # a banned player is not listed

    body = client.get("/api/v1/leaderboard/").json()

    assert body["count"] == 5
    entries = body["results"]
    assert [entry["rank"] for entry in entries] == [1, 2, 2, 4, 5]
    ids = [entry["player"]["id"] for entry in entries]
    assert ids[0] == str(e.pk)
    assert set(ids[1:3]) == {str(a.pk), str(b.pk)}
    assert ids[3:] == [str(c.pk), str(d.pk)]
    ordinals = [entry["rating"]["ordinal"] for entry in entries]
    assert ordinals == sorted(ordinals, reverse=True)
    top = Rating.objects.get(player=e)
    assert entries[0]["rating"] == {
        "mu": top.mu,
        "sigma": top.sigma,
        "ordinal": top.ordinal,
        "games": 1,
        "provisional": True,
    }
    assert entries[0]["player"]["rating"] == entries[0]["rating"]


def test_leaderboard_pages_keep_ranks_and_flag_provisional_players(
    client, players, make_game, settings
) -> None:
    a, b, c, d = players[1:5]
    rated(make_game, [(a, 1), (b, 2), (c, 2), (d, 4)])  # b and c share rank 2
    # A ban that has run out does not hide anyone.
    a.banned_at, a.banned_until = timezone.now() - timedelta(days=2), timezone.now()
    a.save()
    settings.YANIV_PROVISIONAL_SIGMA = 8.0  # one game takes sigma from 8.33 to about 8.07

    page = client.get("/api/v1/leaderboard/?limit=2&offset=2").json()

    assert page["count"] == 4
    assert [entry["rank"] for entry in page["results"]] == [2, 4]
    assert [entry["player"]["id"] for entry in page["results"]][1] == str(d.pk)
    assert all(entry["rating"]["provisional"] for entry in page["results"])
    settings.YANIV_PROVISIONAL_SIGMA = 9.0
    page = client.get("/api/v1/leaderboard/?limit=2&offset=2").json()
    assert not any(entry["rating"]["provisional"] for entry in page["results"])


def test_the_leaderboard_costs_the_same_queries_for_any_page(
    client, players, make_game, django_assert_max_num_queries
) -> None:
    for index in range(4):
        rated(make_game, [(players[index], 1), (players[index + 1], 2), (players[5], 3)])
    # The token, the count, the page, the rank of its first row: not a query per player.
    with django_assert_max_num_queries(4):
        body = client.get("/api/v1/leaderboard/?offset=1").json()
    assert len(body["results"]) == 5


def test_the_schema_describes_the_endpoints(api_client) -> None:
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = schema.json()["paths"]
    for path in (
        "/api/v1/players/{player_id}/",
        "/api/v1/players/{player_id}/games/",
        "/api/v1/players/{player_id}/rating-history/",
        "/api/v1/leaderboard/",
    ):
        assert "get" in paths[path], path
    games = paths["/api/v1/players/{player_id}/games/"]["get"]
    assert "404" in games["responses"]
