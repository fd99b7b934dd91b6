"""Reads without a token (docs/api.md, Public reads): who may see which games, ETags and
304s, Cache-Control, the per-IP limit; the match history's ratings before and after; the
leaderboard's eligibility and its deprecated `rating`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Seat
from games.selectors import seat_name
from ratings.models import RatingChange
from tests.factories import PlayerFactory
from tests.players.test_apis import rated

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous(clear_throttles) -> APIClient:
    return APIClient()


def test_every_public_read_answers_without_a_token(anonymous, players, make_game) -> None:
    a, b = players[:2]
    ranked = rated(make_game, [(a, 1), (b, 2)])
    for path in (
        f"/api/v1/players/{a.pk}/",
        f"/api/v1/players/{a.pk}/games/",
        f"/api/v1/players/{a.pk}/rating-history/",
        "/api/v1/leaderboard/",
        "/api/v1/games/live/",
        f"/api/v1/games/{ranked.pk}/record/",
        "/api/v1/rules/",
    ):
        response = anonymous.get(path)
        assert response.status_code == 200, path
        assert response["Cache-Control"] == "public, max-age=10", path
        assert "Authorization" in response["Vary"]
        assert response["ETag"].startswith('"')


def test_a_private_game_is_shown_only_to_those_who_sat_at_it(
    anonymous, client_for, players, make_game
) -> None:
    a, b, c = players[:3]
    ranked = make_game([(a, 1), (b, 2)])
    private = make_game([(a, 1), (b, 2), (None, 3)], ranked=False)

    def listed(client: APIClient) -> list[str]:
        return [
            game["id"] for game in client.get(f"/api/v1/players/{a.pk}/games/").json()["results"]
        ]

    assert listed(anonymous) == [str(ranked.pk)]
    assert listed(client_for(c)) == [str(ranked.pk)]  # a stranger to the private table
    assert listed(client_for(b)) == [str(private.pk), str(ranked.pk)]
    assert listed(client_for(a)) == [str(private.pk), str(ranked.pk)]
    # Its record too: a seated player's, nobody else's.
    record = f"/api/v1/games/{private.pk}/record/"
    assert anonymous.get(record).status_code == 403
    assert client_for(c).get(record).status_code == 403
    assert client_for(b).get(record).status_code == 200


def test_a_conditional_get_is_answered_304_until_the_answer_changes(
    anonymous, players, make_game
) -> None:
    a, b = players[:2]
    rated(make_game, [(a, 1), (b, 2)])
    first = anonymous.get("/api/v1/leaderboard/")
    etag = first["ETag"]
    again = anonymous.get("/api/v1/leaderboard/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    rated(make_game, [(b, 1), (a, 2)])
    changed = anonymous.get("/api/v1/leaderboard/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_with_a_token_the_answer_is_private_and_a_bad_token_is_refused(
    anonymous, client_for, players
) -> None:
    response = client_for(players[0]).get(f"/api/v1/players/{players[1].pk}/")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-cache"
    anonymous.credentials(HTTP_AUTHORIZATION="Bearer nonsense")
    assert anonymous.get(f"/api/v1/players/{players[1].pk}/").status_code == 401
    banned = PlayerFactory.create(banned=True)
    response = client_for(banned).get("/api/v1/leaderboard/")
    assert (response.status_code, response.json()["code"]) == (403, "banned")


def test_anonymous_reads_have_their_own_limit_per_ip(anonymous, client_for, players, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "public": "3/min",
        },
    }
    path = f"/api/v1/players/{players[0].pk}/"
    assert [anonymous.get(path).status_code for _ in range(4)] == [200, 200, 200, 429]
    other = APIClient(REMOTE_ADDR="10.0.0.9")
    assert other.get(path).status_code == 200  # another address has its own count
    # A player with a token counts against their own limit, not the address's.
    assert client_for(players[1]).get(path).status_code == 200


def test_the_match_history_shows_the_rating_before_and_after_each_game(
    anonymous, players, make_game
) -> None:
    a, b = players[:2]
    first = rated(make_game, [(a, 1), (b, 2)])
    second = rated(make_game, [(a, 2), (b, 1), (None, 3)])
    games = anonymous.get(f"/api/v1/players/{a.pk}/games/").json()["results"]
    assert [game["id"] for game in games] == [str(second.pk), str(first.pk)]
    for game, played in zip(games, (second, first), strict=True):
        change = RatingChange.objects.get(player=a, game=played)
        assert game["rating_before"] == {
            "mu": change.mu_before,
            "sigma": change.sigma_before,
            "ordinal": change.mu_before - 3 * change.sigma_before,
        }
        assert game["rating_after"] == {
            "mu": change.mu,
            "sigma": change.sigma,
            "ordinal": change.ordinal,
        }
    # Each game's own numbers, not today's rating: the second began where the first ended.
    assert games[0]["rating_before"] == games[1]["rating_after"]
    assert games[0]["rating_after"]["mu"] < games[0]["rating_before"]["mu"]
    assert games[0]["seat_names"] == [a.display_name, b.display_name, "CPU"]
    assert games[0]["seat"] == 0


def test_the_leaderboard_lists_players_with_enough_recent_rated_games(
    anonymous, players, make_game, settings
) -> None:
    settings.YANIV_LEADERBOARD_MIN_GAMES = 2
    settings.YANIV_LEADERBOARD_ACTIVE_DAYS = 30
    a, b, c, d = players[:4]
    rated(make_game, [(a, 1), (b, 2)])
    rated(make_game, [(a, 1), (c, 2)])  # a: two games, b and c one each
    old = timezone.now() - timedelta(days=40)
    rated(make_game, [(d, 1), (b, 2)], finished_at=old)
    rated(make_game, [(d, 1), (b, 2)], finished_at=old + timedelta(minutes=1))

    def listed() -> list[str]:
        return [
            entry["player"]["id"]
            for entry in anonymous.get("/api/v1/leaderboard/").json()["results"]
        ]

    # b: three games, one recent; d: two games, none recent; c: one game.
    assert sorted(listed()) == sorted([str(a.pk), str(b.pk)])
    settings.YANIV_LEADERBOARD_ACTIVE_DAYS = 60
    assert str(d.pk) in listed()
    settings.YANIV_LEADERBOARD_MIN_GAMES = 1
    assert str(c.pk) in listed()
    entry = anonymous.get("/api/v1/leaderboard/").json()["results"][0]
    assert "provisional" in entry["player"]["rating"]


def test_the_schema_marks_the_public_reads_and_the_deprecated_rating(anonymous) -> None:
    schema = anonymous.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    entry = schema["components"]["schemas"]["LeaderboardEntry"]
    assert entry["properties"]["rating"]["deprecated"] is True
    for path in (
        "/api/v1/leaderboard/",
        "/api/v1/players/{player_id}/games/",
        "/api/v1/games/live/",
        "/api/v1/rules/",
    ):
        operation = schema["paths"][path]["get"]
        assert {} in operation["security"], path  # a token is optional
        assert "304" in operation["responses"], path
    game = schema["components"]["schemas"]["PlayerGame"]
    assert {"seat", "seat_names", "rating_before", "rating_after"} <= set(game["properties"])


def test_a_later_pages_rank_counts_only_eligible_players(
    anonymous, players, make_game, settings
) -> None:
    settings.YANIV_LEADERBOARD_MIN_GAMES = 2
    a, b, c, d = players[:4]
    rated(make_game, [(d, 1), (c, 2)])  # d: one game only, however well rated
    for _ in range(2):
        rated(make_game, [(a, 1), (b, 2), (c, 3)])
    page = anonymous.get("/api/v1/leaderboard/?limit=1&offset=1").json()
    assert page["count"] == 3
    assert [entry["rank"] for entry in page["results"]] == [2]
    assert page["results"][0]["player"]["id"] == str(b.pk)


def test_a_cpu_seat_is_named_by_its_level(players) -> None:
    assert seat_name(Seat(seat=1, is_cpu=True, cpu_level="expert")) == "CPU (expert)"
    assert seat_name(Seat(seat=1, is_cpu=True)) == "CPU"  # a seat from before the levels
    assert seat_name(Seat(seat=0, player=players[0])) == players[0].display_name
