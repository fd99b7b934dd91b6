"""`GET /leaderboard/?pool=ranked|bots` (docs/api.md, Leaderboard): the bots' ladder lists the
eligible bots and the four CPU levels at their fixed anchors, ranked together; the people's
board never lists a bot; any other pool is 400 `invalid`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Player
from games.engine.cpu import Level
from ratings.cpu import cpu_start
from ratings.models import Rating
from ratings.selectors import SeasonLeaderboard
from ratings.services import cpu_players
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

# The anchors' ordinals (ratings/cpu_start.json): easy 5.72, medium 7.80, hard 12.50, expert 13.50.
ANCHORS = {level.value: cpu_start(level.value).ordinal for level in Level}


def bot(**fields: Any) -> Player:
    return PlayerFactory.create(registered=True, is_bot=True, **fields)


def rate_as(
    player: Player, ordinal: float, *, games: int = 10, days_ago: int = 0, sigma: float = 2.0
) -> None:
    """A stored rating of this ordinal, last rated `days_ago` days ago."""
    Rating.objects.create(
        player=player,
        mu=ordinal + 3 * sigma,
        sigma=sigma,
        ordinal=ordinal,
        games=games,
        season_games=games,
        last_game_at=timezone.now() - timedelta(days=days_ago),
    )


def board(client: Any, query: str = "?pool=bots") -> dict[str, Any]:
    response = client.get(f"/api/v1/leaderboard/{query}")
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def names(body: dict[str, Any]) -> list[str]:
    return [entry["player"]["display_name"] for entry in body["results"]]


def test_the_bots_board_ranks_bots_among_the_cpu_anchors(api_client) -> None:
    top, middle, low = bot(display_name="Top"), bot(display_name="Middle"), bot(display_name="Low")
    rate_as(top, 20.0)
    rate_as(middle, 10.0)
    rate_as(low, 1.0)
    person = PlayerFactory.create(display_name="Person")
    rate_as(person, 30.0)  # people are not on the bots' ladder
    # A level's people's rating (its human pool's) is not what the ladder shows.
    hard = cpu_players(["hard"])["hard"]
    rate_as(hard, 40.0)

    body = board(api_client)

    assert body["count"] == 7
    assert names(body) == [
        "Top", "CPU (expert)", "CPU (hard)", "Middle", "CPU (medium)", "CPU (easy)", "Low",
    ]  # fmt: skip
    assert [entry["rank"] for entry in body["results"]] == [1, 2, 3, 4, 5, 6, 7]
    rows = {entry["player"]["display_name"]: entry for entry in body["results"]}
    expert = rows["CPU (expert)"]
    assert expert["player"]["is_cpu"] is True
    assert expert["player"]["is_bot"] is False
    assert expert["player"]["id"] == str(Player.objects.get(cpu_level="expert").pk)
    anchor = cpu_start("expert")
    assert expert["player"]["rating"] == {
        "mu": anchor.mu,
        "sigma": anchor.sigma,
        "ordinal": anchor.ordinal,
        "games": 0,
        "provisional": False,
    }
    assert expert["rating"] == expert["player"]["rating"]
    assert rows["CPU (hard)"]["player"]["rating"]["ordinal"] == ANCHORS["hard"]
    assert rows["Top"]["player"]["is_bot"] is True
    assert rows["Top"]["player"]["rating"]["ordinal"] == 20.0


def test_the_people_board_never_lists_a_bot(api_client) -> None:
    rate_as(bot(display_name="Bot"), 50.0)
    rate_as(PlayerFactory.create(display_name="Person"), 10.0)
    for query in ("", "?pool=ranked"):
        body = board(api_client, query)
        assert names(body) == ["Person"]
        assert body["count"] == 1


def test_the_cpu_anchors_are_listed_before_any_rated_game(api_client) -> None:
    assert not Player.objects.filter(cpu_level__isnull=False).exists()
    body = board(api_client)
    assert names(body) == ["CPU (expert)", "CPU (hard)", "CPU (medium)", "CPU (easy)"]
    assert Player.objects.filter(cpu_level__isnull=False).count() == 4


def test_the_listing_rules_apply_to_bots_not_anchors(api_client, settings) -> None:
    settings.YANIV_LEADERBOARD_MIN_GAMES = 5
    settings.YANIV_LEADERBOARD_ACTIVE_DAYS = 30
    rate_as(bot(display_name="Few"), 30.0, games=4)
    rate_as(bot(display_name="Idle"), 30.0, days_ago=31)
    rate_as(bot(display_name="Banned", banned_at=timezone.now()), 30.0)
    rate_as(bot(display_name="Listed"), 30.0, games=5)
    assert names(board(api_client)) == [
        "Listed", "CPU (expert)", "CPU (hard)", "CPU (medium)", "CPU (easy)",
    ]  # fmt: skip


def test_pages_of_the_bots_board_make_up_the_whole(api_client) -> None:
    for index, ordinal in enumerate((30.0, 13.0, 12.4, 9.0, 8.0, 7.0, 6.0, 3.0)):
        rate_as(bot(display_name=f"Bot {index}"), ordinal)
    expert = cpu_start("expert")
    rate_as(bot(display_name="Bot 8"), expert.ordinal, sigma=expert.sigma)
    whole = board(api_client, "?pool=bots&limit=200")
    assert whole["count"] == 13
    ordinals = [entry["player"]["rating"]["ordinal"] for entry in whole["results"]]
    assert ordinals == sorted(ordinals, reverse=True)
    # Bot 8 ties the expert anchor: the anchor first, the two sharing a rank.
    assert names(whole)[1:3] == ["CPU (expert)", "Bot 8"]
    assert [entry["rank"] for entry in whole["results"]][1:3] == [2, 2]
    for limit in (1, 2, 3, 5):
        pages: list[dict[str, Any]] = []
        for offset in range(0, 13, limit):
            page = board(api_client, f"?pool=bots&limit={limit}&offset={offset}")
            assert page["count"] == 13
            pages.extend(page["results"])
        assert pages == whole["results"], limit


def test_any_other_pool_is_invalid(api_client) -> None:
    for pool in ("human", "BOTS", ""):
        response = api_client.get(f"/api/v1/leaderboard/?pool={pool}")
        assert response.status_code == 400, pool
        assert response.json()["code"] == "invalid"


def test_the_schema_names_the_pool(api_client) -> None:
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    parameters = schema.json()["paths"]["/api/v1/leaderboard/"]["get"]["parameters"]
    pool = next(parameter for parameter in parameters if parameter["name"] == "pool")
    assert sorted(pool["schema"]["enum"]) == ["bots", "ranked"]
    assert pool["schema"]["default"] == "ranked"


def test_the_season_board_never_lists_a_bot(settings) -> None:
    settings.YANIV_SEASON_PLACEMENT_GAMES = 1
    rate_as(bot(), 50.0)
    person = PlayerFactory.create()
    rate_as(person, 10.0)
    listed = SeasonLeaderboard(timezone.now() - timedelta(days=1)).listed()
    assert [row.player_id for row in listed] == [person.pk]
