"""The seasons' endpoints (docs/api.md, Seasons): the seasons, the current one, a season's
leaderboard (live, then frozen), where a player stood, `placement_games_left`, the rating
history's resets, and the admin's changes."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from games.services.rating import game_unrate, seasons_roll_over
from games.services.staff import game_void
from ratings.models import Rating
from ratings.rating import Skill, reset
from seasons.models import Season, SeasonStatus
from tests.seasons.conftest import NOW

pytestmark = pytest.mark.django_db


def get(client, path: str, status: int = 200) -> Any:
    response = client.get(f"/api/v1/{path}")
    assert response.status_code == status, response.content
    return response.json()


@pytest.fixture
def two_seasons(players, play, season_one, settings) -> dict[str, Any]:
    """Season 1 played and finished (a placed 1st and 2nd, c not placed), season 2 current
    with a and c placed."""
    settings.YANIV_SEASON_PLACEMENT_GAMES = 2
    a, b, c = players[:3]
    start = season_one.ends_at - timedelta(hours=3)
    for minute in range(3):
        play([(a, 1), (b, 2)], start + timedelta(minutes=minute))
    play([(c, 1), (b, 2)], start + timedelta(minutes=5))
    seasons_roll_over()
    for minute in range(2):
        play([(c, 1), (a, 2)], NOW - timedelta(minutes=30 - minute))
    return {"a": a, "b": b, "c": c}


def test_the_seasons_newest_first_and_the_current_one(api_client, two_seasons) -> None:
    body = get(api_client, "seasons/")
    assert body["count"] == 2
    assert [(s["number"], s["status"]) for s in body["results"]] == [
        (2, "current"),
        (1, "finished"),
    ]
    first = Season.objects.get(number=1)
    assert body["results"][1] == {
        "number": 1,
        "name": "Season 1",
        "starts_at": first.starts_at.isoformat(),
        "ends_at": first.ends_at.isoformat(),
        "status": "finished",
        "placement_games": 2,
    }
    assert get(api_client, "seasons/current/")["number"] == 2
    assert get(api_client, "seasons/1/")["name"] == "Season 1"
    assert get(api_client, "seasons/7/", 404)["code"] == "not_found"
    assert get(api_client, "seasons/7/leaderboard/", 404)["code"] == "not_found"


def test_the_first_season_exists_once_anyone_asks(api_client, clock) -> None:
    season = get(api_client, "seasons/current/")
    assert (season["number"], season["status"]) == (1, "current")
    assert Season.objects.count() == 1


def test_a_finished_seasons_board_is_frozen_and_the_current_one_live(
    api_client, two_seasons, staff, settings
) -> None:
    a, b, c = two_seasons["a"], two_seasons["b"], two_seasons["c"]
    frozen = get(api_client, "seasons/1/leaderboard/")
    assert frozen["count"] == 2  # c played once: not placed
    assert [(row["rank"], row["player"]["id"], row["games"]) for row in frozen["results"]] == [
        (1, str(a.pk), 3),
        (2, str(b.pk), 4),
    ]
    assert frozen["results"][0]["rating"]["ordinal"] > frozen["results"][1]["rating"]["ordinal"]

    live = get(api_client, "seasons/2/leaderboard/")
    assert {row["player"]["id"] for row in live["results"]} == {str(a.pk), str(c.pk)}
    for row in live["results"]:
        rating = Rating.objects.get(player_id=row["player"]["id"])
        assert row["games"] == rating.season_games == 2
        assert row["rating"]["ordinal"] == row["player"]["rating"]["ordinal"]
    # Banned players leave the live board.
    b.banned_at = NOW
    b.save()
    c.banned_at = NOW
    c.save()
    assert [
        row["player"]["id"] for row in get(api_client, "seasons/2/leaderboard/")["results"]
    ] == [str(a.pk)]
    # A void of a season-1 game re-rates everyone, but the frozen board says what it said.
    old = a.seats.filter(game__finished_at__lt=Season.objects.get(number=2).starts_at).first()
    game_void(game_id=old.game_id, by=staff, reason="test")
    game_unrate(game_id=old.game_id)
    assert Rating.objects.get(player=a).games == 4  # one of 5 voided
    assert standings(get(api_client, "seasons/1/leaderboard/")) == standings(frozen)


def standings(board: dict[str, Any]) -> list[tuple[Any, ...]]:
    """A board's rows without the players' current ratings (which a void changes)."""
    return [
        (row["rank"], row["player"]["id"], row["games"], row["rating"]) for row in board["results"]
    ]


def test_where_each_player_stood(api_client, two_seasons) -> None:
    a, b, c = two_seasons["a"], two_seasons["b"], two_seasons["c"]
    rows = get(api_client, f"players/{a.pk}/seasons/")["results"]
    assert [(r["season"]["number"], r["games"], r["placed"]) for r in rows] == [
        (2, 2, True),
        (1, 3, True),
    ]
    assert (rows[1]["rank"], rows[1]["tier"], rows[1]["placed_players"]) == (1, "legend", 2)
    assert rows[0]["placed_players"] == 2
    assert rows[0]["tier"] in {"legend", "bronze"}  # live: 1st or 2nd of 2
    b_rows = get(api_client, f"players/{b.pk}/seasons/")["results"]
    assert [(r["season"]["number"], r["rank"], r["tier"]) for r in b_rows] == [(1, 2, "bronze")]
    c_rows = get(api_client, f"players/{c.pk}/seasons/")["results"]
    assert [(r["season"]["number"], r["placed"], r["rank"], r["tier"]) for r in c_rows] == [
        (2, True, c_rows[0]["rank"], c_rows[0]["tier"]),
        (1, False, None, None),
    ]


def test_placement_games_left_and_the_resets_in_the_history(
    api_client, two_seasons, settings
) -> None:
    b = two_seasons["b"]
    player = get(api_client, f"players/{b.pk}/")
    assert player["placement_games_left"] == 2  # no game in season 2 yet
    assert get(api_client, f"players/{two_seasons['a'].pk}/")["placement_games_left"] == 0
    history = get(api_client, f"players/{b.pk}/rating-history/")["results"]
    assert [(p["kind"], p["season"]) for p in history] == [("game", 1)] * 4 + [("season_reset", 2)]
    last_game, reset_point = history[-2], history[-1]
    assert reset_point["game_id"] is None
    starts_at = datetime.fromisoformat(get(api_client, "seasons/2/")["starts_at"])
    assert datetime.fromisoformat(reset_point["at"]) == starts_at
    expected = reset(Skill(last_game["mu"], last_game["sigma"]), 2.0)
    assert (reset_point["mu"], reset_point["sigma"]) == (expected.mu, expected.sigma)


def test_staff_rename_move_the_end_and_end_a_season_now(admin_client, two_seasons) -> None:
    current = Season.objects.get(status=SeasonStatus.CURRENT)
    url = f"/admin/seasons/season/{current.pk}/change/"
    later = NOW + timedelta(days=3)
    form = {"name": "Spring", "ends_at_0": later.date().isoformat(), "ends_at_1": "12:00:00"}
    response = admin_client.post(url, form)
    assert response.status_code == 302, response.content
    current.refresh_from_db()
    assert (current.name, current.ends_at) == ("Spring", later)
    # Not into the past: ending it is "End now".
    past = {"name": "Spring", "ends_at_0": "2026-01-01", "ends_at_1": "00:00:00"}
    response = admin_client.post(url, past)
    assert response.status_code == 200
    assert b"The end must be ahead" in response.content
    current.refresh_from_db()
    assert current.ends_at == later
    # A finished season can be renamed only.
    finished = Season.objects.get(number=1)
    response = admin_client.get(f"/admin/seasons/season/{finished.pk}/change/")
    assert b'name="ends_at_0"' not in response.content
    # End now: its end is this instant; the rollover opens the next.
    response = admin_client.post(
        "/admin/seasons/season/",
        {"action": "end_now", "_selected_action": [str(current.pk)]},
    )
    assert response.status_code == 302
    current.refresh_from_db()
    assert current.ends_at == NOW
    assert seasons_roll_over() is not None
    assert Season.objects.get(status=SeasonStatus.CURRENT).number == 3
